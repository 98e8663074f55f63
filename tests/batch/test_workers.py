"""The worker processes behind ``--jobs`` (``batch/workers.py``, forked, a pipe pair each).

``workers.ordered`` starts its workers when called (the caller prepares the rest of its run
meanwhile) and ends them when closed: unread, half read or read to the end, no worker is left
running once ``close()`` returns, and the results are in task order whatever the timing. Small
runs and renders laid out over every board fork none. A signal ends a parallel run as one line,
exit 128+N; a worker that dies (the OOM killer, a ``kill -9``) ends it with one line and exit 1,
never a hang (the workers ignore SIGTERM, so a pool's own clean-up, which terminates them with
SIGTERM and joins them, would wait for ever). No worker and no temporary file is left behind.
(That the workers write the bytes of one process is ``test_jobs_same_bytes.py``.)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from conftest import EXAMPLES
from test_pack_hostile_signals import alive, children

from wordforge_cli.batch import workers
from wordforge_cli.commands import crossword as command

TECH = EXAMPLES / "tech.yaml"
WFKIT = [sys.executable, "-m", "wordforge_cli"]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc and POSIX signals")


def _slow_square(n: int) -> int:
    time.sleep(0.05 if n % 3 else 0.2)  # (the 0s, 3s, ... finish last: order from the pool)
    return n * n


def _started() -> set[int]:
    return children(os.getpid())


@pytest.mark.parametrize("read", [0, 1, 5])
def test_closing_ends_the_workers_at_once(read: int) -> None:
    before = _started()
    results = workers.ordered(_slow_square, iter(range(10_000)), 2)
    forked = _started() - before
    assert len(forked) == 2  # forked by the call, before any result was asked for
    assert [next(results) for _ in range(read)] == [n * n for n in range(read)]
    results.close()
    assert not any(map(alive, forked)), "a worker outlived close()"


def test_every_result_in_task_order_and_the_workers_gone() -> None:
    before = _started()
    results = workers.ordered(_slow_square, range(40), 3)
    forked = _started() - before
    assert list(results) == [n * n for n in range(40)]
    for pid in forked:  # (they exit on their own once the last result is in)
        for _ in range(100):
            if not alive(pid):
                break
            time.sleep(0.05)
        assert not alive(pid)


def test_no_task_forks_nothing() -> None:
    before = _started()
    results = workers.ordered(_slow_square, [], 2)
    assert _started() == before and list(results) == []


def test_small_runs_and_streamed_renders_stay_in_one_process(run, tmp_path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    def no_workers(*args: object, **kwargs: object) -> None:
        raise AssertionError("worker processes were started")

    monkeypatch.setattr(workers, "ordered", no_workers)
    result = run("crossword", "--vocab", TECH, "-n", "300", "--jobs", "2", "-o",
                 tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.stderr
    monkeypatch.setattr(command, "PARALLEL_BOARDS", 1)
    for render in ("svg", "sheet"):  # one document, laid out board after board
        result = run("crossword", "--vocab", TECH, "-n", "30", "--jobs", "2", "--render",
                     render, "-o", tmp_path / f"b.{render}")
        assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("signum", "group"), [(signal.SIGTERM, False), (signal.SIGINT, True)])
def test_a_signal_ends_a_parallel_run_cleanly(tmp_path, signum: int, group: bool) -> None:
    out = tmp_path / "boards.jsonl"
    out.write_text("the old file\n")
    proc = subprocess.Popen([sys.executable, "-m", "wordforge_cli", "crossword", "--vocab",
                             str(TECH), "-n", "5000000", "--seed", "1", "--jobs", "2", "-o",
                             str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    found: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(found) < 2:  # until both workers run
            assert proc.poll() is None and time.monotonic() < deadline, "no workers started"
            found |= children(proc.pid)
            time.sleep(0.02)
        time.sleep(0.5)
        (os.killpg if group else os.kill)(proc.pid, signum)
        _, stderr = proc.communicate(timeout=60)
    finally:  # a run of 5,000,000 boards the signal did not end must not outlive the test
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (proc.returncode, stderr) == (
        128 + signum, f"wfkit: interrupted by {signal.Signals(signum).name}\n")
    deadline = time.monotonic() + 5
    while any(map(alive, found)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, found)), "a worker outlived the run"
    assert os.listdir(tmp_path) == ["boards.jsonl"]  # no temporary file left beside it
    assert out.read_text() == "the old file\n"


def _kill_a_worker(proc: subprocess.Popen[bytes], tmp_path) -> tuple[set[int], str]:
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        workers |= children(proc.pid)
        time.sleep(0.02)
    time.sleep(0.3)
    os.kill(min(workers), signal.SIGKILL)
    try:
        _, stderr = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the run hung after one of its workers was killed")
    return workers, stderr.decode("utf-8", "replace")


def _assert_gone(workers: set[int], what: str) -> None:
    """Every worker has exited within 5 s of the run's end."""
    for pid in workers:
        for _ in range(100):
            if not alive(pid):
                break
            time.sleep(0.05)
        assert not alive(pid), f"worker {pid} outlived the {what}"


def test_a_killed_crossword_worker_ends_the_run_in_one_line(tmp_path):
    shutil.copy(EXAMPLES / "tech.yaml", tmp_path / "tech.yaml")
    proc = subprocess.Popen([*WFKIT, "crossword", "--vocab", "tech.yaml", "-n", "1000000",
                             "--seed", "1", "--jobs", "2", "-o", "out.jsonl"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    workers, stderr = _kill_a_worker(proc, tmp_path)
    assert proc.returncode == 1, stderr
    assert stderr.strip().splitlines() == [
        "wfkit: error: a worker process died (killed, or out of memory): the run stopped "
        "unfinished"], stderr
    _assert_gone(workers, "run")
    assert sorted(os.listdir(tmp_path)) == ["tech.yaml"]


def test_a_killed_pack_worker_ends_the_build_in_one_line(tmp_path):
    shutil.copy(EXAMPLES / "tech.yaml", tmp_path / "tech.yaml")
    (tmp_path / "big.yaml").write_text("name: big\nseed: 1\nsections:\n  - name: boards\n"
                                       "    kind: crossword\n    vocab: tech.yaml\n"
                                       "    count: 1000000\n", encoding="utf-8")
    proc = subprocess.Popen([*WFKIT, "pack", "build", "big.yaml", "--out", "pack", "--jobs",
                             "2"], cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    workers, stderr = _kill_a_worker(proc, tmp_path)
    assert proc.returncode == 1, stderr
    assert stderr.strip().splitlines()[-1:] == [
        "wfkit: error: a worker process died (killed, or out of memory): the run stopped "
        "unfinished"], stderr
    _assert_gone(workers, "build")
    assert sorted(os.listdir(tmp_path)) == ["big.yaml", "tech.yaml"]  # no staging left


def _die_on_three(n: int) -> bytes:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return b"x" * (n * 400_000)  # results bigger than a pipe holds: sent in pieces


def test_a_wait_for_a_chunk_ends_when_a_worker_is_dead():
    """A worker killed in a task, or while it sends its result (its result pipe closes
    half-way through a message), ends the wait at once with the one line: the parent keeps
    no copy of a result pipe's write end, so the end of file comes."""
    from wordforge_cli.core.errors import CannotDo

    before = children(os.getpid())
    results = workers.ordered(_die_on_three, range(8), 2)
    forked = children(os.getpid()) - before
    start = time.monotonic()
    with pytest.raises(CannotDo, match="a worker process died"):
        list(results)
    assert time.monotonic() - start < 5
    assert not any(map(alive, forked))


def test_half_a_message_is_a_dead_worker(tmp_path):
    r, w = os.pipe()
    os.write(w, (1000).to_bytes(8, "little") + b"half")
    os.close(w)
    assert workers._recv(r) is None
    os.close(r)
