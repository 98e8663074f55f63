"""A/B of the user's whole commands between two installs of wfkit: this tree and another.

Each command runs with both ``wfkit`` executables alternately (A, B, A, B ...), process start
to file written, and the median wall time of each side gives the ratio B/A (under 1: B is
faster); the median CPU time of the child (user + system, its workers included) gives a
second ratio, steadier than wall time on a busy machine. Both sides must write the same bytes
(the statistics' timing and request aside), so a change that is faster because it does less is
caught. The machine is shared: only ratios measured in the same run mean anything.

``--instructions`` also runs each command once a side under valgrind's cachegrind and gives
the ratio of the instructions executed (every process of the run): a count that the machine's
load does not move, for a difference of a few percent that timing cannot resolve.

    python bench/bench_ab.py --other /path/to/other/.venv/bin/wfkit --runs 5
    python bench/bench_ab.py --other OTHER --only crossword-json --runs 7
    python bench/bench_ab.py --other OTHER --only pack-build --runs 1 --instructions
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = str(Path(sys.executable).parent / "wfkit")
PACK = """\
name: bench
seed: 1
sections:
  - name: boards
    kind: crossword
    vocab: {vocab}
    count: {count}
    band: [4, 5]
"""


def commands(tmp: Path, boards: int) -> dict[str, list[str]]:
    """name -> argv after the executable; ``{out}`` is the side's own output folder."""
    tech = str(ROOT / "examples" / "tech.yaml")
    cross = ["crossword", "--vocab", tech, "-n", str(boards), "--min-len", "4", "--max-len",
             "5", "--seed", "1"]
    pack = tmp / "pack.yaml"
    pack.write_text(PACK.format(vocab=tech, count=boards), encoding="utf-8")
    return {
        "crossword-json": [*cross, "-o", "{out}/b.jsonl", "--stats", "{out}/s.json"],
        "crossword-json-jobs1": [*cross, "--jobs", "1", "-o", "{out}/b.jsonl"],
        "crossword-ipuz": [*cross, "--render", "ipuz", "-o", "{out}/b.ipuz"],
        "pack-build": ["pack", "build", str(pack), "--out", "{out}/pack", "--force"],
        "kanji": ["kanji", "-n", "1000", "--seed", "1", "-o", "{out}/pools.jsonl"],
        "rarity-word": ["rarity", "labyrinth"],
    }


def timed(argv: list[str]) -> tuple[float, float, bytes]:
    """(wall seconds, CPU seconds of the child and its waited-for children, stdout)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT)
        _pid, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode:
        raise SystemExit(f"{' '.join(argv)}: exit {child.returncode}: {stderr[-500:]!r}")
    return elapsed, usage.ru_utime + usage.ru_stime, stdout


def instructions(argv: list[str]) -> int:
    """The instructions a command executes, its forked workers included (cachegrind)."""
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                           "--cachegrind-out-file=/dev/null", *argv],
                          capture_output=True, cwd=ROOT, text=True)
    counts = re.findall(r"^==\d+== I\s+refs:\s+([\d,]+)", done.stderr, re.M)
    if done.returncode or not counts:
        raise SystemExit(f"{' '.join(argv)} under valgrind: exit {done.returncode}")
    return sum(int(c.replace(",", "")) for c in counts)


def written(folder: Path) -> dict[str, bytes]:
    """Every file a run wrote, the statistics' timing and request taken out."""
    files: dict[str, bytes] = {}
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.name == "s.json":
            stats = json.loads(data)
            stats.pop("timing", None)
            stats.pop("request", None)  # what the run was asked: its fields grew with wfkit
            data = json.dumps(stats, sort_keys=True).encode()
        files[str(path.relative_to(folder))] = data
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", required=True, help="the other side's wfkit executable (B)")
    parser.add_argument("--this", default=HERE, help="this side's wfkit executable (A)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--boards", type=int, default=20000)
    parser.add_argument("--only", action="append", default=[], help="a command's name")
    parser.add_argument("--instructions", action="store_true",
                        help="also the ratio of instructions executed (valgrind, once a side)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        table = commands(tmp, args.boards)
        picked = {k: v for k, v in table.items() if not args.only or k in args.only}
        print(f"A: {args.this}\nB: {args.other}\nload {os.getloadavg()[0]:.1f} at the start")
        print(f"{'command':<22} {'A wall s':>9} {'B wall s':>9} {'B/A':>6} {'A cpu s':>8} "
              f"{'B cpu s':>8} {'B/A cpu':>7}  same bytes")
        for key, argv in picked.items():
            times: dict[str, list[float]] = {"A": [], "B": []}
            cpu: dict[str, list[float]] = {"A": [], "B": []}
            outputs: dict[str, tuple[bytes, dict[str, bytes]]] = {}
            for _ in range(args.runs):
                for side, exe in (("A", args.this), ("B", args.other)):
                    out = tmp / side / key
                    out.mkdir(parents=True, exist_ok=True)
                    elapsed, used, stdout = timed([exe, *(a.replace("{out}", str(out))
                                                          for a in argv)])
                    times[side].append(elapsed)
                    cpu[side].append(used)
                    # (the side's own folder named in what it prints: a pack build's line)
                    outputs[side] = (stdout.replace(str(out).encode(), b"{out}"), written(out))
            a, b = statistics.median(times["A"]), statistics.median(times["B"])
            ca, cb = statistics.median(cpu["A"]), statistics.median(cpu["B"])
            same = "yes" if outputs["A"] == outputs["B"] else "NO"
            print(f"{key:<22} {a:>9.3f} {b:>9.3f} {b / a:>6.3f} {ca:>8.3f} {cb:>8.3f} "
                  f"{cb / ca:>7.3f}  {same}", flush=True)
            if args.instructions:
                ia, ib = (instructions([exe, *(arg.replace("{out}", str(tmp / side / key))
                                               for arg in argv)])
                          for side, exe in (("A", args.this), ("B", args.other)))
                print(f"{'':<22} instructions A {ia:,}, B {ib:,}, B/A {ib / ia:.3f}",
                      flush=True)
        print(f"load {os.getloadavg()[0]:.1f} at the end; medians of {args.runs} runs a side")


if __name__ == "__main__":
    main()
