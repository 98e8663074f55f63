"""Worker processes for ``--jobs``: tasks run in forked processes, results handed back in task
order.

What ``wfkit pack build`` and ``wfkit crossword`` share. The workers are forked with
``os.fork`` (they inherit what the parent prepared: a lexicon, its caches), each with a pipe
for its tasks and one for its results (a length and a pickle), leave SIGINT, SIGTERM and
SIGHUP to the parent (a signal to the process group never kills one half-way through handing
a result back) and die with it (the kernel kills them if the parent dies first, even by
SIGKILL). On a signal or an error downstream the parent kills them (what they were making is
not wanted) and reaps them, so no worker outlives the run. A worker that dies (``kill -9``,
the OOM killer) closes its result pipe, which the parent sees at once (it keeps no copy of
that pipe's write end), and the run ends with one line.

No ``multiprocessing`` or ``concurrent.futures``: their import, their feeder and manager
threads and their start-up took 30-60 ms of a 1 s run's wall time before the first chunk
began, and the parent's threads took CPU from the workers on two cores.

Tasks are handed out as workers become free, within a window of tasks after the first one
not yet handed back, so memory stays flat however many there are; a task may name the worker
it would rather run on (``affinity``): a worker takes the first task in the window that is
its own, else the first there is, so its caches see fewer distinct things.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_JOB = 3  # the window: tasks handed out beyond the first not yet handed back
QUEUED = 2  # tasks a worker holds (the one it makes and the next): it never waits on the parent
PIPE_BYTES = 1 << 20  # a result pipe's capacity: a 2.6 MB chunk in three writes, not forty


PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request was in place
        os._exit(0)


class WorkerDied(Exception):
    """A worker's result pipe closed while it owed results."""


def _send(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "little") + data) if len(data) < 65536 else None
    if view is None:  # a big result: the header, then the pickle itself (no copy of it)
        _write_all(fd, memoryview(len(data).to_bytes(8, "little")))
        view = memoryview(data)
    _write_all(fd, view)


def _write_all(fd: int, view: memoryview) -> None:
    while view:
        view = view[os.write(fd, view):]


def _recv(fd: int) -> bytearray | None:
    """One message, or None at end of file (the writer exited or died, even mid-message)."""
    head = _read_exact(fd, 8)
    if head is None:
        return None
    return _read_exact(fd, int.from_bytes(head, "little"))


def _read_exact(fd: int, size: int) -> bytearray | None:
    buf = bytearray(size)
    view = memoryview(buf)
    got = 0
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            return None
        got += n
    return buf


def _serve(parent: int, work: Callable[[Any], Any], init: Callable[..., None] | None,
           initargs: tuple[Any, ...], tasks: int, results: int) -> None:
    """A worker's life: its tasks one by one, each result (or error) sent back, until the
    parent closes its task pipe."""
    import pickle
    import signal

    from wordforge_cli.core import signals

    signals.for_worker()  # the registry inherited through fork is the parent's
    for signum in signals.HANDLED:
        signal.signal(signum, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signals.HANDLED)  # blocked while forking
    _die_with_parent(parent)
    if init is not None:
        init(*initargs)
    while True:
        message = _recv(tasks)
        if message is None:
            return
        try:
            out = pickle.dumps((True, work(pickle.loads(message))), pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # handed back, raised in the parent in the task's turn
            try:
                out = pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
            except Exception:
                out = pickle.dumps((False, RuntimeError(repr(exc))), pickle.HIGHEST_PROTOCOL)
        _send(results, out)


def in_order(order: list[int], start: int, pieces: list[tuple[bytes, Iterable[int]]]
             ) -> tuple[bytes, int]:
    """A chunk dealt to the workers put back together: item ``start + k`` went to worker
    ``order[k]``, whose piece holds one line an item it made and the items that made none
    (their budget ran out). Its lines in item order, and how many."""
    missing = {i for _blob, gone in pieces for i in gone}
    if missing:
        order = [p for i, p in enumerate(order, start) if i not in missing]
    lines = [iter(blob.split(b"\n")) for blob, _gone in pieces]
    body = b"\n".join(map(next, map(lines.__getitem__, order))) + b"\n" if order else b""
    if any(next(rest) != b"" or next(rest, None) is not None for rest in lines):
        raise RuntimeError("a worker's piece did not hold one line an item")
    return body, len(order)


def ordered(work: Callable[[T], R], tasks: Iterable[T], jobs: int,
            init: Callable[..., None] | None = None,
            initargs: tuple[Any, ...] = (),
            affinity: Callable[[T], int] | None = None) -> Generator[R, None, None]:
    """``work(task)`` of every task, in task order, from ``jobs`` worker processes (each runs
    ``init(*initargs)`` first; ``work`` need not pickle, the tasks and results must;
    ``init``'s arguments need not: the workers are forked). ``affinity(task)``: the worker
    (modulo ``jobs``) the task would rather run on. The caller runs a single job in its own
    process.

    The workers are forked and given their first tasks by this call, not at the first result
    asked for, so the caller can prepare the rest of its run (a pack's staging directory)
    while they work: close the generator when done with it, read or not. Closed before the
    end (a signal, an error downstream), it kills the workers at once: what they were making
    is not wanted, and a worker left to finish its chunk (and the one queued behind it) held
    a Ctrl-C's exit for up to a second."""
    results = _ordered(work, tasks, jobs, init, initargs, affinity)
    next(results)  # the workers' start
    return results


_STARTED: Any = object()  # what the generator yields first, once its workers are started


class _Worker:
    __slots__ = ("pid", "tasks", "results", "owed")

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid = pid
        self.tasks = tasks  # write end of its task pipe (-1: closed)
        self.results = results  # read end of its result pipe
        self.owed: list[int] = []  # task numbers handed to it, in order


def _ordered(work: Callable[[T], R], tasks: Iterable[T], jobs: int,
             init: Callable[..., None] | None, initargs: tuple[Any, ...],
             affinity: Callable[[T], int] | None) -> Generator[R, None, None]:
    import pickle
    import select

    from wordforge_cli.core import signals

    todo = iter(tasks)
    first = next(todo, None)
    if first is None:
        yield _STARTED
        return
    import fcntl  # (POSIX only, as fork and the signals module's SIGHUP are)

    window = jobs * IN_FLIGHT_PER_JOB
    waiting: list[tuple[int, T, int]] = [(0, first, affinity(first) % jobs if affinity else 0)]
    numbered = 1  # tasks taken from ``todo``
    exhausted = False
    done: dict[int, tuple[bool, Any]] = {}
    base = 0  # the next task number to hand back
    workers: list[_Worker] = []
    try:
        with signals.deferred():  # a signal waits until every worker is forked and known
            parent = os.getpid()
            for _ in range(jobs):
                task_r, task_w = os.pipe()
                result_r, result_w = os.pipe()
                pid = os.fork()
                if pid == 0:  # the worker: never returns into the parent's code
                    code = 1
                    try:
                        for fd in (task_w, result_r, *(f for w in workers
                                                       for f in (w.tasks, w.results))):
                            os.close(fd)
                        _serve(parent, work, init, initargs, task_r, result_w)
                        code = 0
                    finally:
                        os._exit(code)
                os.close(task_r)
                os.close(result_w)
                with contextlib.suppress(OSError, AttributeError):
                    fcntl.fcntl(result_r, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
                workers.append(_Worker(pid, task_w, result_r))

        def hand_out() -> None:
            nonlocal numbered, exhausted
            while not exhausted and numbered < base + window:
                task = next(todo, None)
                if task is None:
                    exhausted = True
                    break
                waiting.append((numbered, task, affinity(task) % jobs if affinity else 0))
                numbered += 1
            for depth in range(QUEUED):  # one task a worker a round: the first ones spread
                for me, worker in enumerate(workers):
                    if not waiting:
                        break
                    if len(worker.owed) > depth:
                        continue
                    pick = next((k for k, (_, _, pref) in enumerate(waiting) if pref == me), 0)
                    number, task, _ = waiting.pop(pick)
                    try:
                        _send(worker.tasks, pickle.dumps(task, pickle.HIGHEST_PROTOCOL))
                    except BrokenPipeError:  # it died: its result pipe says so too
                        raise WorkerDied from None
                    worker.owed.append(number)
            if exhausted and not waiting:  # nothing more: each worker exits after its last
                for worker in workers:
                    if worker.tasks >= 0:
                        os.close(worker.tasks)
                        worker.tasks = -1

        hand_out()
        yield _STARTED
        while True:
            while base in done:
                ok, value = done.pop(base)
                if not ok:
                    raise value
                base += 1
                hand_out()
                yield value
            if exhausted and not waiting and base == numbered:
                break
            busy = {w.results: w for w in workers if w.owed}
            if not busy:  # pragma: no cover - every task out is owed by a worker
                raise RuntimeError("workers: no result awaited and none left to hand back")
            ready, _, _ = select.select(list(busy), [], [])
            for fd in ready:
                worker = busy[fd]
                message = _recv(fd)
                if message is None:
                    raise WorkerDied
                done[worker.owed.pop(0)] = pickle.loads(message)
            hand_out()
    except WorkerDied:
        _kill(workers)
        from wordforge_cli.core.errors import CannotDo

        raise CannotDo("a worker process died (killed, or out of memory): the run stopped "
                       "unfinished") from None
    except BaseException:  # a signal, an error downstream: nothing more is wanted
        _kill(workers)
        raise
    _reap(workers)


def _kill(workers: list[_Worker]) -> None:
    """End the workers now: killed, reaped, their pipes closed."""
    import signal

    for worker in workers:
        with contextlib.suppress(OSError):
            os.kill(worker.pid, signal.SIGKILL)
    _reap(workers)


def _reap(workers: list[_Worker]) -> None:
    for worker in workers:
        for fd in (worker.tasks, worker.results):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        worker.tasks = worker.results = -1
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(worker.pid, 0)
