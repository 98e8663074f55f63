"""The ``wfkit`` command group. Subcommands are imported only when run, so start-up stays fast."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
from typing import Any

import click

from wordforge_cli import __version__
from wordforge_cli.core.errors import EXIT_CANNOT, WfkitError
from wordforge_cli.core.messages import ReportedError, say
from wordforge_cli.options.command import HELP_OPTION_NAMES, Group

# name -> "module:attribute": one module per command, wordforge_cli/commands/NAME.py, whose
# function NAME is the command
COMMANDS: dict[str, str] = {name: f"wordforge_cli.commands.{name}:{name}" for name in (
    "rarity", "score", "tiles", "balance", "crossword", "kanji", "pack", "schema", "init")}

# every command's too: a subcommand's context takes these from its parent's (and each command
# holds its help option's names itself: options.shared.Command)
CONTEXT_SETTINGS = {"help_option_names": list(HELP_OPTION_NAMES), "max_content_width": 100}


# options whose value is a file wfkit writes: checked (writable, all distinct) before a
# command runs, for every command that has them, so a batch never ends in "cannot write"
OUTPUT_PARAMS = {"output": "-o/--output", "stats_path": "--stats", "report_path": "--report",
                 "chart_path": "--chart"}


def _inputs(ctx: click.Context) -> list[tuple[str, str]]:
    """The files and folders a command reads, as its parameters name them (every path
    parameter but the outputs and a pack's --out)."""
    found = []
    for param in ctx.command.params:
        name = param.name or ""
        if name in OUTPUT_PARAMS or name == "out" or not isinstance(param.type, click.Path):
            continue
        value = ctx.params.get(name)
        for item in value if isinstance(value, tuple | list) else (value,):
            if item is not None and str(item) != "-":
                shown = param.opts[0] if isinstance(param, click.Option) \
                    else param.human_readable_name
                found.append((shown, str(item)))
    return found


def _check_outputs_first(command: click.Command) -> click.Command:
    """Wrap ``command`` (and its subcommands) so its outputs are checked before it runs."""
    if getattr(command, "_wfkit_outputs_checked", False):
        return command
    run = command.invoke

    def invoke(ctx: click.Context) -> Any:
        from wordforge_cli.io.output import check_outputs, together

        check_outputs(((OUTPUT_PARAMS[name], ctx.params.get(name)) for name in OUTPUT_PARAMS),
                      _inputs(ctx))
        with together():  # -o and --stats replaced together, or neither
            return run(ctx)

    command.invoke = invoke  # type: ignore[method-assign]  # wrapped in place, same signature
    command._wfkit_outputs_checked = True  # type: ignore[attr-defined]  # our mark on Click's
    for sub in getattr(command, "commands", {}).values():
        _check_outputs_first(sub)
    return command


class LazyGroup(Group):
    """The group whose subcommands (:data:`COMMANDS`) are imported on first use (Click docs'
    lazy-loading pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in COMMANDS:
            module_name, attr = COMMANDS[cmd_name].split(":")
            command: click.Command = getattr(importlib.import_module(module_name), attr)
            return _check_outputs_first(command)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except WfkitError as error:
            raise ReportedError(error) from None
        except OSError as exc:  # a full or read-only disk under a file being written
            from wordforge_cli.io.output import WRITE_ERRNOS, write_failed

            if exc.errno not in WRITE_ERRNOS or not exc.filename:
                raise
            raise ReportedError(write_failed(exc, exc.filename)) from None

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """Click's main, but a usage error is one line too (Click's own takes four)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            # `wfkit` or `wfkit pack` alone asks for help: give it on stdout, exit 0
            click.echo(error.ctx.get_help() if error.ctx is not None else error.format_message())
            sys.exit(0)
        except click.UsageError as error:
            hint = f" (see '{error.ctx.command_path} -h')" if error.ctx is not None else ""
            say(f"error: {error.format_message()}{hint}")
            sys.exit(error.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.Abort:
            say("aborted")
            sys.exit(EXIT_CANNOT)
        sys.exit(status if isinstance(status, int) else 0)


def _show_version(ctx: click.Context) -> None:
    """The code's version and the bundled data's (a hash of its files: see dataversion.py)."""
    from wordforge_cli.io.dataversion import data_version

    click.echo(f"wfkit, version {__version__} (data {data_version()})")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings=CONTEXT_SETTINGS)
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _param, value: _show_version(ctx) if value else None,
              help="Show the version of wfkit and of its bundled data, and exit.")
def cli() -> None:
    """Generate word-game content in batches: word rarity and scores, crossword boards,
    kanji pools, and reproducible puzzle packs.

    \b
    Examples:
      wfkit rarity labyrinth
      wfkit score quaff --json
      wfkit crossword --vocab examples/tech.yaml -n 1000 -o boards.jsonl
      wfkit kanji -n 100 --seed 1 -o pools.jsonl
      wfkit pack build examples/pack.yaml --out pack/
      wfkit init my-game && cd my-game    # a project where every example runs

    Shell completion (bash, zsh, fish): eval "$(_WFKIT_COMPLETE=bash_source wfkit)"
    in ~/.bashrc (zsh_source in ~/.zshrc; fish: see the docs).

    Exit status: 0 done, 1 could not do it, 2 usage or config error, 128+N stopped by
    signal N (130 SIGINT, 143 SIGTERM).
    """


def main(argv: list[str] | None = None) -> None:
    """Console entry point: never a traceback for the user (WFKIT_DEBUG=1 shows one).

    Signals SIGINT, SIGTERM and SIGHUP end the run with one line, the clean-ups registered in
    :mod:`wordforge_cli.core.signals` (temporary files, staging) done, and exit status 128+N.
    stdout is UTF-8 whatever the locale: records are the same bytes everywhere (a C locale
    would otherwise fail on the first non-ASCII gloss); in an ASCII locale the run is
    repeated in Python's UTF-8 mode (see :func:`_utf8_mode`); stderr escapes what it cannot
    encode. A write that fails (full disk, read-only file system, closed stdout) is one line.
    """
    from wordforge_cli.core import signals

    _utf8_mode()
    try:
        signals.install()
        _closed_std_streams()
        _utf8_stdout()
        try:
            cli.main(args=argv, prog_name="wfkit")
        except SystemExit:
            sys.stdout.flush()  # a full disk under stdout is reported here, not at exit
            raise
    except SystemExit:
        raise
    except signals.Interrupted as stop:
        _stop(stop.name, stop.exit_code)
    except KeyboardInterrupt:
        _stop("SIGINT", 128 + 2)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        _drop_stdout()
        sys.exit(EXIT_CANNOT)
    except MemoryError:
        say("error: out of memory")
        sys.exit(EXIT_CANNOT)
    except OSError as exc:
        from wordforge_cli.io.output import WRITE_ERRNOS, write_failed, write_reason

        # EBADF without a file name: stdout is not open for writing (``1<file``)
        unwritable = exc.errno == errno.EBADF and not exc.filename
        if exc.errno not in WRITE_ERRNOS and not unwritable \
                and not isinstance(exc, _StdoutClosed):
            _internal(exc)
        if exc.filename:
            say(f"error: {write_failed(exc, exc.filename)}")
        else:
            say(f"error: cannot write to stdout: {write_reason(exc)}")
        _drop_stdout()
        sys.exit(EXIT_CANNOT)
    except Exception as exc:  # a bug: say so in one line, never a traceback
        _internal(exc)


def _internal(exc: BaseException) -> None:
    if os.environ.get("WFKIT_DEBUG"):
        raise exc
    say(f"internal error: {type(exc).__name__}: {exc} (set WFKIT_DEBUG=1 for a traceback)")
    sys.exit(EXIT_CANNOT)


def _stop(name: str, status: int) -> None:
    from wordforge_cli.core import signals

    signals.ignore()
    signals.run_cleanups()
    with contextlib.suppress(Exception):
        say(f"interrupted by {name}")
    _drop_stdout()
    sys.exit(status)


def _drop_stdout() -> None:
    """Point stdout at nothing, so the interpreter's last flush cannot fail a second time."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


class _StdoutClosed(OSError):
    pass


class _ClosedStdout:
    """sys.stdout when wfkit was started with stdout closed (``>&-``): ``-o`` still works,
    printing to stdout is one error line."""

    encoding = "utf-8"

    def write(self, text: str | bytes) -> int:
        raise _StdoutClosed(errno.EBADF, "stdout is closed")

    @property
    def buffer(self) -> _ClosedStdout:
        """What bytes written to stdout go through (a ``--jobs`` run's chunks): closed too."""
        return self

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return 1  # the null device holds it


def _closed_std_streams() -> None:
    """A standard stream closed at start-up: hold its descriptor with the null device (so no
    file wfkit opens lands on descriptor 1 or 2), stdout raising on write, stderr mute."""
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        with contextlib.suppress(OSError):
            os.fstat(fd)
            continue
        with contextlib.suppress(OSError):
            null = os.open(os.devnull, os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if name == "stdout":
            sys.stdout = _ClosedStdout()
        else:
            sys.stderr = open(fd, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                              closefd=False)


def _utf8_mode() -> None:
    """In an ASCII locale (C, POSIX, with Python's own UTF-8 mode turned off), run again in
    UTF-8 mode: there a word such as 熱帯 on the command line would arrive as undecodable
    bytes and a non-ASCII file name could not be opened. Other locales decode as they say."""
    encoding = sys.getfilesystemencoding().replace("-", "").replace("_", "").lower()
    if sys.flags.utf8_mode or encoding not in ("ascii", "ansix3.41968", "646", "usascii"):
        return
    argv = getattr(sys, "orig_argv", None)
    if not argv or os.environ.get("WFKIT_UTF8_REEXEC"):
        return
    os.environ["WFKIT_UTF8_REEXEC"] = "1"  # never twice, whatever happens
    with contextlib.suppress(OSError):
        os.execv(sys.executable, [sys.executable, "-X", "utf8", *argv[1:]])


def _utf8_stdout() -> None:
    stream = sys.stdout
    encoding = getattr(stream, "encoding", None) or ""
    if encoding.replace("-", "").lower() != "utf8" and hasattr(stream, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):
            stream.reconfigure(encoding="utf-8")
    err = sys.stderr
    if hasattr(err, "reconfigure"):
        with contextlib.suppress(ValueError, OSError):
            err.reconfigure(errors="backslashreplace")
