"""Signals in the parent process: SIGTERM, SIGHUP and SIGINT stop a run cleanly.

The console entry point calls :func:`install`; a handled signal then raises
:class:`Interrupted` in the main thread (a ``BaseException``, like ``KeyboardInterrupt``, so no
``except Exception`` swallows it). ``finally`` blocks and context managers unwind as usual; what
they could not reach is undone by the clean-up registry: code that makes something temporary
(a ``.NAME.XXXX.tmp`` beside ``-o``, a pack's staging directory) registers a callable that
removes it and unregisters it once the thing is kept or gone. The entry point then runs what is
still registered, prints one line (``wfkit: interrupted by SIGTERM``) and exits 128+N.

Use::

    token = signals.register(lambda: shutil.rmtree(staging, ignore_errors=True))
    ...build into staging, then rename it into place...
    signals.unregister(token)

Pool workers call :func:`for_worker` first: they ignore SIGINT (the parent decides) and die
quietly on SIGTERM/SIGHUP; a registry inherited through ``fork`` is never run in a child.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

HANDLED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
EXIT_BASE = 128


class Interrupted(BaseException):
    """A handled signal arrived: unwind, clean up, exit 128+N."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return EXIT_BASE + self.signum


_pending: dict[int, tuple[int, Callable[[], Any]]] = {}
_tokens = itertools.count(1)
_lock = threading.Lock()


def register(cleanup: Callable[[], Any]) -> int:
    """Run ``cleanup`` if this process is stopped by a signal; returns a token to unregister."""
    with _lock:
        token = next(_tokens)
        _pending[token] = (os.getpid(), cleanup)
    return token


def unregister(token: int) -> None:
    with _lock:
        _pending.pop(token, None)


def run_cleanups() -> int:
    """Run every clean-up this process still has registered, newest first; how many ran.

    A failing clean-up does not stop the others (each is a best effort on the way out)."""
    pid = os.getpid()
    with _lock:
        pending = sorted(_pending.items(), reverse=True)
        _pending.clear()
    ran = 0
    for _token, (owner, cleanup) in pending:
        if owner != pid:  # inherited through fork: the parent owns it
            continue
        with contextlib.suppress(Exception):
            cleanup()
        ran += 1
    return ran


_owner: int | None = None  # the process that installed the handlers


# A handled signal that came and was not handled yet: the handler's Interrupted can be
# swallowed (raised while Python runs a __del__ or a weakref callback, such as importlib's
# module locks in a lazy import, it is reported as unraisable and dropped, and the run went
# on to exit 0), so it is raised again where an output is committed and at the exit
_received: int | None = None


def _raise(signum: int, frame: Any) -> None:
    global _received
    if os.getpid() != _owner:  # a forked child that kept the handler: behave as a worker
        _worker_signal(signum)
        return
    _received = signum
    raise Interrupted(signum)


def check() -> None:
    """Raise the :class:`Interrupted` of a signal that came and was swallowed (see
    ``_received``): before an output is committed, a stopped run keeps the old file."""
    if _received is not None and os.getpid() == _owner:
        raise Interrupted(_received)


def _unraisable(info: Any) -> None:
    """Python's report of an exception it must drop, quiet for our Interrupted: the signal
    is kept in ``_received`` and raised again by :func:`check` and at the exit."""
    if isinstance(info.exc_value, Interrupted):
        return
    _python_unraisable(info)


_python_unraisable: Callable[[Any], Any] = sys.__unraisablehook__


def _worker_signal(signum: int) -> None:
    if signum == signal.SIGINT:
        return  # the parent decides
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def install() -> None:
    """Turn SIGINT, SIGTERM and SIGHUP into :class:`Interrupted` (main thread only).

    A child forked afterwards (a pool worker) does not inherit this: it gets the worker
    defaults of :func:`for_worker` at once, so ``Pool.terminate`` still ends it quietly."""
    global _owner
    if threading.current_thread() is not threading.main_thread():
        return
    _owner = os.getpid()
    sys.unraisablehook = _unraisable
    for sig in HANDLED:
        # a signal the caller chose to ignore (nohup, a background job) stays ignored
        if signal.getsignal(sig) is signal.SIG_IGN:
            continue
        signal.signal(sig, _raise)
    global _hooked
    if not _hooked:
        os.register_at_fork(after_in_child=_after_fork)
        _hooked = True


_hooked = False


def _after_fork() -> None:
    if _owner is None or os.getpid() == _owner:
        return
    with contextlib.suppress(ValueError, OSError):
        for_worker()


def ignore() -> None:
    """While cleaning up on the way out: a second signal must not cut the clean-up short
    (and the one being handled is not pending any more)."""
    global _received
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in HANDLED:
        signal.signal(sig, signal.SIG_IGN)
    _received = None


def for_worker() -> None:
    """In a pool worker (a pool ``initializer``): SIGINT is the parent's to handle, SIGTERM and
    SIGHUP end the worker at once, with no message and no clean-up of the parent's files."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _pending.clear()  # the parent's (no lock: after fork, a held lock is never released)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold handled signals for a few statements that must not be split (make a temporary file
    and register its clean-up); a signal that arrives meanwhile is delivered at the end."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, HANDLED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def swallowed() -> int | None:
    """The signal whose exception Python swallowed on the way (see ``_received``), if any."""
    return _received
