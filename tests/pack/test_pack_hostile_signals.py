"""Signals to ``pack build --jobs 2`` of real engine sections: SIGTERM,
SIGINT and SIGHUP, to the parent alone or to the whole process group (as a terminal's Ctrl-C
or a CI runner does), end with exactly one line, exit 128+N, no ForkPoolWorker traceback, no
worker left running, no staging directory, journal, lock or temporary file left, and the old
pack intact (or, for a signal that lands during the swap, the new one complete).
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
from test_pack import tree, verify

CONFIG = """\
seed: {seed}
sections:
  - name: boards
    kind: crossword
    count: 4000
    vocab: tech.yaml
    render: [svg]
    render_limit: 50
  - name: pools
    kind: kanji
    count: 600
"""
WFKIT = [sys.executable, "-m", "wordforge_cli"]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.fixture(scope="module")
def old_pack(tmp_path_factory):
    root = tmp_path_factory.mktemp("old")
    shutil.copy(EXAMPLES / "tech.yaml", root / "tech.yaml")
    (root / "pack.yaml").write_text(CONFIG.format(seed=2))
    proc = subprocess.run([*WFKIT, "pack", "build", str(root / "pack.yaml"), "--out",
                           str(root / "out"), "--jobs", "2"], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return root / "out"


def children(pid: int) -> set[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return {int(p) for p in fh.read().split()}
    except OSError:
        return set()


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


ROUNDS = [(signal.SIGTERM, False), (signal.SIGINT, True), (signal.SIGHUP, False),
          (signal.SIGTERM, True), (signal.SIGINT, False)]


@pytest.mark.parametrize(("signum", "group"), ROUNDS,
                         ids=[f"{signal.Signals(s).name}-{'group' if g else 'parent'}"
                              for s, g in ROUNDS])
def test_a_signal_mid_build_is_one_line_and_leaves_the_old_pack(tmp_path, old_pack, signum,
                                                                group):
    shutil.copy(EXAMPLES / "tech.yaml", tmp_path / "tech.yaml")
    (tmp_path / "pack.yaml").write_text(CONFIG.format(seed=1))
    out = tmp_path / "out"
    shutil.copytree(old_pack, out)
    before = tree(out)
    proc = subprocess.Popen([*WFKIT, "pack", "build", str(tmp_path / "pack.yaml"), "--out",
                             str(out), "--jobs", "2"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while True:  # until the workers are busy and the staging directory has files in it
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the build never started"
        workers |= children(proc.pid)
        staging = [p for p in tmp_path.iterdir() if p.name.startswith(".out.wfkit-")
                   and p.is_dir() and any(p.iterdir())]
        if len(workers) >= 2 and staging:
            break
        time.sleep(0.02)
    time.sleep(0.2)
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, stderr
    assert stderr == f"wfkit: interrupted by {signal.Signals(signum).name}\n", stderr
    for pid in workers:  # the workers went with their parent
        for _ in range(100):
            if not alive(pid):
                break
            time.sleep(0.05)
        assert not alive(pid), f"worker {pid} outlived the build"
    assert sorted(os.listdir(tmp_path)) == ["out", "pack.yaml", "tech.yaml"]
    verify(out)
    assert tree(out) == before
