"""Benchmark of ``wfkit pack build``: --jobs 2 against --jobs 1 on a 100,000-board crossword
section (same bytes checked), and peak memory at two pack sizes (flat means streaming works).

Every figure is a median of several whole-process runs, --jobs 1 and --jobs 2 interleaved so
that load from other work on the machine falls on both alike; the ratio is what counts.

    python bench/bench_pack.py                 # 100,000 boards, 3 runs each
    python bench/bench_pack.py --boards 20000 --runs 5
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from perf_page import record

ROOT = Path(__file__).resolve().parent.parent
CONFIG = """\
name: bench
seed: 1
sections:
  - name: boards
    kind: crossword
    vocab: {vocab}
    count: {count}
    band: [4, 5]
    style: tail
"""


def tree_rss_kb(pid: int) -> int:
    """Resident memory of a process and all its descendants (Linux /proc)."""
    total = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
            with open(f"/proc/{current}/task/{current}/children") as fh:
                stack += [int(c) for c in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def spin(n: int) -> int:
    """Pure-Python CPU work with nothing shared: the anchor of what two cores give right now."""
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def anchor(n: int = 6_000_000) -> float:
    """Speed-up of two processes over one on the same spin work, measured now: on an idle
    2-core machine about 2.0; lower when other work holds the cores."""
    import multiprocessing

    started = time.perf_counter()
    spin(n)
    spin(n)
    serial = time.perf_counter() - started
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(spin, [n, n])
    return serial / (time.perf_counter() - started)


def build(config: Path, out: Path, jobs: int) -> dict:
    """One whole-process build: wall seconds, peak RSS of the process tree and its largest
    single process, and the sha256 of the section file."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "wordforge_cli", "pack", "build",
                             str(config), "--out", str(out), "--jobs", str(jobs)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = [0]
    done = threading.Event()

    def sample() -> None:  # never proc.poll(): it would reap the child before wait4 sees it
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_kb(proc.pid))
            time.sleep(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(proc.pid, 0)
    done.set()
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"build failed: {proc.stderr.read().decode()}")
    digest = hashlib.sha256()
    with (out / "boards.jsonl").open("rb") as fh:  # in blocks: this process stays small, and
        while block := fh.read(1 << 20):            # the next build's fork starts small too
            digest.update(block)
    digest = digest.hexdigest()
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "tree_kb": peak[0],
            "largest_kb": usage.ru_maxrss, "sha": digest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=10_000,
                        help="the smaller pack of the memory comparison")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    vocab = ROOT / "examples" / "tech.yaml"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        results: dict[tuple[int, int], list[dict]] = {}
        anchors: list[float] = []
        for count in (args.small, args.boards):
            config = tmp / f"pack{count}.yaml"
            config.write_text(CONFIG.format(vocab=vocab, count=count))
            runs = args.runs if count == args.boards else 1
            for _ in range(runs):
                if count == args.boards:
                    anchors.append(anchor())
                for jobs in (1, 2):
                    out = tmp / f"out{count}-{jobs}"
                    results.setdefault((count, jobs), []).append(build(config, out, jobs))
        print(f"wfkit pack build, crossword section (tech.yaml, band 4-5, style tail), "
              f"{os.cpu_count()} cores, medians of {args.runs} runs (interleaved)")
        big1, big2 = results[(args.boards, 1)], results[(args.boards, 2)]
        shas = {r["sha"] for r in big1 + big2}
        assert len(shas) == 1, "--jobs 1 and --jobs 2 wrote different bytes"
        t1 = statistics.median(r["wall"] for r in big1)
        t2 = statistics.median(r["wall"] for r in big2)
        size = (tmp / f"out{args.boards}-1" / "boards.jsonl").stat().st_size
        print(f"  {args.boards:,} boards --jobs 1: {t1:.2f} s  ({1000 * t1 / args.boards:.3f} ms "
              f"per board, {args.boards / t1:,.0f} boards/s)")
        print(f"  {args.boards:,} boards --jobs 2: {t2:.2f} s  ({args.boards / t2:,.0f} boards/s)")
        print(f"  speed-up --jobs 2 / --jobs 1: {t1 / t2:.2f}x  (same bytes: sha256 "
              f"{shas.pop()[:16]}..., {size / args.boards:.0f} bytes per board)")
        speedups = [a["wall"] / b["wall"] for a, b in zip(big1, big2, strict=True)]
        a = statistics.median(anchors)
        print(f"  anchor, the same run: two processes of pure-Python spin work against one: "
              f"{a:.2f}x (2.0 on idle cores); pack speed-ups per run "
              f"{', '.join(f'{x:.2f}' for x in speedups)}: {t1 / t2 / a:.0%} of the anchor")
        c1 = statistics.median(r["cpu"] for r in big1)
        c2 = statistics.median(r["cpu"] for r in big2)
        print(f"  CPU time (all processes): --jobs 1 {c1:.2f} s, --jobs 2 {c2:.2f} s; on two idle "
              f"cores --jobs 2 could reach {2 * c1 / c2:.2f}x")
    if args.boards == 100_000:
        command = f"python bench/bench_pack.py --runs {args.runs}"
        record("pack of 100,000 boards, `--jobs 2` vs `--jobs 1`, same bytes", ">= 1.7x",
               f"{t1 / t2:.2f}x", command)
        record("pack of 100,000 boards, `--jobs 1`: CPU per board", "-",
               f"{1000 * c1 / args.boards:.3f} ms", command)
        load = os.getloadavg()
        print(f"  1-minute load average at the end (other work on the machine): {load[0]:.2f}")
        print("  peak memory (whole process tree / largest single process):")
        for count in (args.small, args.boards):
            for jobs in (1, 2):
                runs = results[(count, jobs)]
                tree = max(r["tree_kb"] for r in runs) / 1024
                largest = max(r["largest_kb"] for r in runs) / 1024
                print(f"    {count:>9,} boards --jobs {jobs}: {tree:6.1f} MB / {largest:6.1f} MB")
        if args.boards == 100_000:
            peak = {n: max(r["tree_kb"] for r in results[(n, 1)]) / 1024
                    for n in (args.small, args.boards)}
            record("pack of 100,000 boards, peak memory, `--jobs 1`", "bounded",
                   f"{peak[args.boards]:.1f} MB ({args.small:,} boards: {peak[args.small]:.1f} MB)",
                   command)


if __name__ == "__main__":
    main()
