"""The ``wfkit`` console entry point (and ``python -m wordforge_cli``): the signal handlers are
installed before the (slower) CLI import, so a signal during start-up is one line and 128+N."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

if not hasattr(os, "fork"):  # SIGHUP is handled and the workers are forked: POSIX only
    sys.exit("wfkit: error: wfkit runs on POSIX systems only (this one has no fork)")

from wordforge_cli.core import signals  # noqa: E402


def entry() -> None:
    """The ``wfkit`` console entry point: handlers first, then the (slower) CLI import, so a
    signal that comes during start-up is one line and 128+N too, never a traceback."""
    try:
        signals.install()
        from wordforge_cli.cli import main
    except signals.Interrupted as stop:
        sys.stderr.write(f"wfkit: interrupted by {stop.name}\n")
        sys.exit(stop.exit_code)
    try:
        main()
    except SystemExit as done:  # main always ends here, its one line (if any) said
        if (signum := signals.swallowed()) is not None:  # swallowed on the way
            stopped = signals.Interrupted(signum)
            signals.ignore()
            signals.run_cleanups()
            with contextlib.suppress(Exception):
                sys.stderr.write(f"wfkit: interrupted by {stopped.name}\n")
            leave(stopped.exit_code)
        try:
            leave(done.code)
        except signals.Interrupted:  # came before leave() could ignore it: the run is still done
            leave(done.code)


def leave(code: object) -> NoReturn:
    """End the process once the run is over, without the interpreter's teardown.

    By then the outputs are written, closed and renamed, the workers joined and the clean-ups
    run: the teardown only frees every cached board and layout (0.09 s after a pack build,
    0.02 s after a crossword batch), and a signal in that window, after the run succeeded,
    killed the process with no line or printed a traceback from an exit handler. So handled
    signals are ignored (the run is done), the standard streams flushed, and the process
    exits with the run's status."""
    signals.ignore()
    if isinstance(code, int):
        status = code
    elif code is None:
        status = 0
    else:  # sys.exit("text"): Python's own rule, the text on stderr and status 1
        with contextlib.suppress(Exception):
            sys.stderr.write(f"{code}\n")
        status = 1
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


if __name__ == "__main__":
    entry()
