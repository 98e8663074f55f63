"""Signals in the parent: SIGTERM, SIGINT and SIGHUP during ``-o`` writes of real
batches end with one line, exit 128+N, no ``.NAME.XXXX.tmp`` left and the old file intact.

Each round starts a real batch, waits until its temporary file is being written (so the
signal lands mid-write, the case that left litter in 10 of 12 runs), then signals it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wordforge_cli.core import signals

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
WFKIT = [sys.executable, "-m", "wordforge_cli"]

BATCHES = {
    "crossword": ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "-n", "1000000",
                  "--seed", "1"],
    "kanji": ["kanji", "-n", "100000", "--seed", "1", "-q"],
}


def temp_files(directory: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p.name.endswith(".tmp")]


def start_and_signal(tmp: Path, batch: str, signum: int, delay: float):
    out = tmp / "boards.jsonl"
    out.write_text("the old file\n")
    proc = subprocess.Popen([*WFKIT, *BATCHES[batch], "-o", str(out)], cwd=tmp,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not any(p.stat().st_size for p in temp_files(tmp)):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the batch never started writing"
        time.sleep(0.01)
    time.sleep(delay)
    proc.send_signal(signum)
    _stdout, stderr = proc.communicate(timeout=60)
    return proc.returncode, stderr.decode("utf-8", "replace"), out


ROUNDS = [("crossword", signal.SIGTERM, 0.0), ("crossword", signal.SIGTERM, 0.3),
          ("crossword", signal.SIGINT, 0.1), ("crossword", signal.SIGHUP, 0.2),
          ("kanji", signal.SIGTERM, 0.2), ("kanji", signal.SIGINT, 0.0)]


@pytest.mark.parametrize(("batch", "signum", "delay"), ROUNDS,
                         ids=[f"{b}-{signal.Signals(s).name}-{d}" for b, s, d in ROUNDS])
def test_a_signal_mid_write_leaves_no_litter(tmp_path, batch, signum, delay):
    status, stderr, out = start_and_signal(tmp_path, batch, signum, delay)
    name = signal.Signals(signum).name
    assert status == 128 + signum, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("wfkit: ")
             and not line.startswith("wfkit: seed ")]
    assert lines == [f"wfkit: interrupted by {name}"], stderr
    assert "Traceback" not in stderr, stderr
    assert not temp_files(tmp_path), [p.name for p in tmp_path.iterdir()]
    assert out.read_text() == "the old file\n"


def test_an_ignored_signal_stays_ignored(tmp_path):
    """nohup: SIGHUP ignored by the caller is not turned into an interruption."""
    code = ("import signal, os, sys\nsignal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "from wordforge_cli.core import signals\nsignals.install()\n"
            "os.kill(os.getpid(), signal.SIGHUP)\nprint('still here')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30)
    assert done.stdout == b"still here\n", done.stderr


def test_cleanups_run_newest_first_and_only_in_their_own_process():
    ran: list[str] = []
    first = signals.register(lambda: ran.append("first"))
    signals.register(lambda: ran.append("second"))
    signals.register(lambda: 1 / 0)  # a failing clean-up does not stop the others
    signals.unregister(first)
    assert signals.run_cleanups() == 2
    assert ran == ["second"]
    assert signals.run_cleanups() == 0


def test_a_forked_worker_dies_quietly_on_sigterm(tmp_path):
    """A child forked after install() gets the worker defaults: SIGTERM ends it at once (as
    Pool.terminate expects) without raising in the child or running the parent's clean-ups."""
    marker = tmp_path / "cleaned"
    code = (
        "import os, signal, sys, time\n"
        "from wordforge_cli.core import signals\n"
        "signals.install()\n"
        f"signals.register(lambda: open({str(marker)!r}, 'w').close())\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    time.sleep(30)\n"
        "    os._exit(0)\n"
        "time.sleep(0.2)\n"
        "os.kill(pid, signal.SIGTERM)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)\n"
        "print(signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30)
    assert done.stdout.split() == [b"True", b"True"], done.stderr
    assert b"Traceback" not in done.stderr
    assert not marker.exists()


def test_sigterm_while_writing_to_stdout_exits_143(tmp_path):
    proc = subprocess.Popen([*WFKIT, *BATCHES["crossword"]], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.read(4096)  # it is writing
    proc.send_signal(signal.SIGTERM)
    proc.stdout.close()
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    proc.wait(timeout=60)
    assert proc.returncode == 143, stderr
    assert "Traceback" not in stderr and "interrupted by SIGTERM" in stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("signum", [signal.SIGINT])
def test_ctrl_c_to_a_pack_build_with_workers_is_one_line(tmp_path, signum):
    """Ctrl-C reaches the whole process group: the workers ignore it, the parent reports it
    (no ForkPoolWorker tracebacks); SIGTERM to the group: the workers die quietly."""
    out = tmp_path / "pack"
    # big enough that the build is still running when the signal comes, on a fast idle machine
    # too (the example pack can finish within the half second below)
    config = tmp_path / "big.yaml"
    config.write_text("name: big\nseed: 1\nsections:\n  - name: boards\n    kind: crossword\n"
                      f"    vocab: {json.dumps(str(EXAMPLES / 'tech.yaml'))}\n"
                      "    count: 200000\n    band: [4, 5]\n", encoding="utf-8")
    proc = subprocess.Popen([*WFKIT, "pack", "build", str(config), "--out",
                             str(out), "--jobs", "2"], cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not any(p.name.startswith(".pack") for p in tmp_path.iterdir()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    time.sleep(0.5)
    os.killpg(proc.pid, signum)
    _stdout, stderr = proc.communicate(timeout=60)
    err = stderr.decode("utf-8", "replace")
    assert proc.returncode == 128 + signum, err
    assert err.strip().splitlines() == [f"wfkit: interrupted by {signal.Signals(signum).name}"]


LEAVE = """
import atexit, os, signal, sys
from wordforge_cli import __main__ as entry
from wordforge_cli.core import signals
signals.install()
atexit.register(lambda: sys.stderr.write("teardown ran\\n"))
sys.stdout.write("the last record, not yet flushed")
code = sys.argv[1]
entry.leave(None if code == "none" else int(code) if code.isdigit() else code)
"""


@pytest.mark.parametrize(("code", "status", "err"), [
    ("0", 0, ""), ("3", 3, ""), ("none", 0, ""), ("a message", 1, "a message\n")])
def test_the_end_of_a_run_skips_the_teardown_and_keeps_its_status(code, status, err):
    """After the run, the interpreter's teardown (freeing caches, exit handlers) is skipped:
    its 0.02-0.09 s was a window where a late signal killed a finished run with no line or a
    traceback. Buffered output still reaches the reader; sys.exit's text rule is kept."""
    done = subprocess.run([sys.executable, "-c", LEAVE, code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == status
    assert done.stdout == "the last record, not yet flushed"
    assert done.stderr == err  # no "teardown ran": exit handlers are skipped


ENTRY = """
import atexit, sys
import wordforge_cli.cli
from wordforge_cli.core import signals
def main():
    atexit.register(lambda: sys.stderr.write("teardown ran\\n"))
    print("done", end="")
    sys.exit(2)
wordforge_cli.cli.main = main
from wordforge_cli.__main__ import entry
entry()
"""


def test_the_console_entry_leaves_through_the_short_exit():
    done = subprocess.run([sys.executable, "-c", ENTRY], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (2, "done", "")
