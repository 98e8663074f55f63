"""Signals to real pack builds, many rounds: the promise of docs/reference/exit-statuses.md.

Each round copies an old pack (crossword + kanji sections) into a fresh directory, starts
``wfkit pack build --jobs 2`` of another seed into it, waits a random 0-3 s, sends SIGTERM,
SIGINT or SIGHUP (in turn) to the parent alone or to the whole process group, and checks:
exactly one stderr line, exit 128+N (or 0 when the build finished first), no worker left,
nothing left beside the pack, and the pack the old one or the new one, complete.

    python bench/pack_signal_rounds.py --rounds 30
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def tree(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def build(config: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*WFKIT, "pack", "build", str(config), "--out", str(out), "-j", "2"],
                          capture_output=True, text=True, timeout=600)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        shutil.copy(ROOT / "examples" / "tech.yaml", base / "tech.yaml")
        refs = {}
        for seed in (1, 2):
            (base / "pack.yaml").write_text(CONFIG.format(seed=seed))
            started = time.perf_counter()
            assert build(base / "pack.yaml", base / f"ref{seed}").returncode == 0
            refs[seed] = tree(base / f"ref{seed}")
        duration = time.perf_counter() - started
        counts = {"clean": 0, "old": 0, "new": 0, "finished": 0, "bad": 0}
        for n in range(args.rounds):
            work = base / f"r{n}"
            work.mkdir()
            shutil.copy(base / "tech.yaml", work / "tech.yaml")
            (work / "pack.yaml").write_text(CONFIG.format(seed=1))
            shutil.copytree(base / "ref2", work / "out")
            signum = SIGNALS[n % 3]
            group = n % 2 == 1
            proc = subprocess.Popen([*WFKIT, "pack", "build", str(work / "pack.yaml"), "--out",
                                     str(work / "out"), "-j", "2"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True, start_new_session=True)
            time.sleep(rng.uniform(0.3, duration * 0.8))
            with contextlib.suppress(ProcessLookupError):  # it may have finished
                if group:
                    os.killpg(proc.pid, signum)
                else:
                    proc.send_signal(signum)
            _, err = proc.communicate(timeout=120)
            files = tree(work / "out")
            which = "new" if files == refs[1] else "old" if files == refs[2] else None
            left = sorted(os.listdir(work))
            ok = (left == ["out", "pack.yaml", "tech.yaml"] and which is not None
                  and "Traceback" not in err and err.count("\n") <= 1
                  and proc.returncode in (0, 128 + signum, -signum))
            # -signum: the signal came after the build was done, as the interpreter exited
            # (Python restores the default handlers when it finalizes): a complete pack
            counts["clean" if ok else "bad"] += 1
            if which:
                counts[which] += 1
            if proc.returncode == 0:
                counts["finished"] += 1
            if not ok:
                print(f"round {n}: {signal.Signals(signum).name} group={group} "
                      f"exit {proc.returncode} left={left} pack={which} stderr={err!r}")
            shutil.rmtree(work)
    print(f"{args.rounds} rounds (build {duration:.1f} s; load {os.getloadavg()[0]:.1f}): "
          f"{counts['clean']} clean, {counts['bad']} not; pack left: {counts['old']} old, "
          f"{counts['new']} new ({counts['finished']} finished before the signal)")


if __name__ == "__main__":
    main()
