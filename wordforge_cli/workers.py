"""Worker processes for ``--jobs``: tasks run in a pool, results handed back in task order.

What ``wfkit pack build`` and ``wfkit crossword`` share. The workers are forked (they inherit
what the parent prepared: a lexicon, its caches), leave SIGINT, SIGTERM and SIGHUP to the
parent (a signal to the process group never kills one half-way through handing a result back,
which would hang the parent's reader) and die with it (the kernel kills them if the parent
dies first, even by SIGKILL). On a signal or an error downstream the parent kills them (what
they were making is not wanted) and joins them, so no worker outlives the run.
At most a few tasks per worker are in flight, so memory stays flat however many there are.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeVar

# multiprocessing, concurrent.futures and ctypes are imported when workers are started:
# --jobs is resolved on every run (default_jobs), and most runs start none

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_JOB = 3


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _init_worker(parent: int, init: Callable[..., None] | None, initargs: tuple[Any, ...]
                 ) -> None:
    import signal

    from wordforge_cli import signals

    signals.for_worker()  # the registry inherited through fork is the parent's
    for signum in signals.HANDLED:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signals.HANDLED)  # blocked while forking
    _die_with_parent(parent)
    if init is not None:
        init(*initargs)


PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    import contextlib
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request was in place
        os._exit(0)


WATCH_SECONDS = 0.25  # how often a wait for a chunk looks at whether its workers live


def _result(future: Any, forked: list[Any], broken: type[Exception]) -> Any:
    """``future.result()``, but a dead worker ends the wait: the pool notices a worker that
    dies between tasks, not one killed while it was sending a result, whose half-sent
    message its thread then waits on for ever."""
    while True:
        try:
            return future.result(timeout=WATCH_SECONDS)
        except TimeoutError:
            if any(process.exitcode is not None for process in forked):
                raise broken("a worker process died") from None


def ordered(work: Callable[[T], R], tasks: Iterable[T], jobs: int,
            init: Callable[..., None] | None = None,
            initargs: tuple[Any, ...] = ()) -> Generator[R, None, None]:
    """``work(task)`` of every task, in task order, from ``jobs`` worker processes (each runs
    ``init(*initargs)`` first; ``work`` and the tasks must pickle, ``init``'s arguments need
    not: the workers are forked). The caller runs a single job in its own process.

    The workers are forked and given their first tasks by this call, not at the first result
    asked for, so the caller can prepare the rest of its run (a pack's staging directory)
    while they work: close the generator when done with it, read or not. Closed before the
    end (a signal, an error downstream), it kills the workers at once: what they were making
    is not wanted, and a worker left to finish its chunk (and the one queued behind it) held
    a Ctrl-C's exit for up to a second."""
    results = _ordered(work, tasks, jobs, init, initargs)
    next(results)  # the workers' start
    return results


_STARTED: Any = object()  # what the generator yields first, once its workers are started


def _ordered(work: Callable[[T], R], tasks: Iterable[T], jobs: int,
             init: Callable[..., None] | None, initargs: tuple[Any, ...]
             ) -> Generator[R, None, None]:
    import itertools
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    from wordforge_cli import signals

    # concurrent.futures, not multiprocessing.Pool: a Pool whose worker dies (a signal to the
    # process group) while holding its task queue's lock hangs the parent in terminate()
    todo = iter(tasks)
    first = next(todo, None)
    if first is None:
        yield _STARTED
        return
    pending: deque[Any] = deque()
    with signals.deferred():  # the workers are forked at the first submit: a signal waits
        executor = ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker,
                                       initargs=(os.getpid(), init, initargs))
        pending.append(executor.submit(work, first))
    forked = list((getattr(executor, "_processes", None) or {}).values())  # forked at once
    try:
        for task in itertools.islice(todo, jobs * IN_FLIGHT_PER_JOB - 1):
            pending.append(executor.submit(work, task))
        yield _STARTED
        while pending:
            result = _result(pending.popleft(), forked, BrokenProcessPool)
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(executor.submit(work, nxt))
            elif not pending:  # the last result: the workers exit while the caller uses it
                executor.shutdown(wait=False)
            yield result
    except BrokenProcessPool:
        # a worker died (kill -9, the OOM killer): the pool's own clean-up terminates the others
        # with SIGTERM, which they ignore, and then waits for them for ever: kill them instead
        _kill(executor, forked)
        from wordforge_cli.errors import CannotDo

        raise CannotDo("a worker process died (killed, or out of memory): the run stopped "
                       "unfinished") from None
    except BaseException:  # a signal, an error downstream: nothing more is wanted
        _kill(executor, forked)
        raise
    executor.shutdown(wait=True)


def _kill(executor: Any, forked: list[Any]) -> None:
    """End the pool now: its workers killed, its thread and processes joined."""
    import contextlib

    for process in forked:
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    # A worker killed while sending its result leaves the pool's thread reading the rest of
    # that message for ever (the parent's own copy of the pipe's write end keeps it open):
    # closing that copy, once every worker is dead, gives the read its end of file and the
    # thread its exit. Then join the thread and the processes: left to the interpreter's
    # exit, concurrent.futures wakes that thread through a pipe it may have closed already,
    # and prints an OSError traceback after our one line.
    for process in forked:
        with contextlib.suppress(Exception):
            process.join(timeout=5)
    with contextlib.suppress(Exception):
        executor._result_queue._writer.close()  # private, 3.11-3.13
    with contextlib.suppress(Exception):
        executor.shutdown(wait=True, cancel_futures=True)
