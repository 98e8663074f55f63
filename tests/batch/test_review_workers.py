"""Review of ``--jobs`` (workers.py): a worker that dies (the OOM killer, a ``kill -9``) must
end the run with one line and exit 1, no worker left behind and no temporary file: never a
hang. (The workers ignore SIGTERM, so ProcessPoolExecutor's own clean-up of a broken pool,
which terminates them with SIGTERM and joins them, waited for ever.)
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

WFKIT = [sys.executable, "-m", "wordforge_cli"]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="/proc and POSIX signals")


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
    from wordforge_cli.batch import workers
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
    from wordforge_cli.batch import workers

    r, w = os.pipe()
    os.write(w, (1000).to_bytes(8, "little") + b"half")
    os.close(w)
    assert workers._recv(r) is None
    os.close(r)
