"""Benchmark of ``wfkit rarity``: start-up against the bare wordfreq one-liner, and batch
throughput on 100,000 distinct words. Medians of several runs; anchors measured in the same run.

    python bench/bench_rarity.py [--runs 7] [--words 100000]

Figures (the issue's limits):
  1. start-up ratio: median wall time of the whole process ``wfkit rarity labyrinth`` over that
     of ``python -c "import wordfreq; print(wordfreq.zipf_frequency('labyrinth','en'))"``,
     run alternately (limit 1.3).
  2. batch throughput after start-up: (N - 1) words / (median time of ``wfkit rarity --vocab
     N-words.txt --render F -o FILE`` - median time of the same with a 1-word vocabulary),
     per format (limit 100,000 words/s). Also the process CPU time, which a busy shared machine
     disturbs less than wall time, and the in-process loop (rate + format, tables loaded).
It also checks that every Zipf value of the batch equals ``wordfreq.zipf_frequency``.

``--best``: only the hand search's start-up: the whole process ``wfkit tiles --hand QUAFFE?TRS
--best`` (hand index read from a warm cache in a temporary XDG_CACHE_HOME; the first run builds
and stores it) against ``wfkit rarity labyrinth``, alternately, CPU and wall medians (limit 2.0),
and once the cold run (no cache) for scale.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perf_page import record

ANCHOR = "import wordfreq; print(wordfreq.zipf_frequency('labyrinth','en'))"


def wfkit_command() -> list[str]:
    script = Path(sys.executable).with_name("wfkit")
    if script.exists():
        return [str(script)]
    found = shutil.which("wfkit")
    return [found] if found else [sys.executable, "-m", "wordforge_cli"]


def timed(command: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def median_pair(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))


def startup(runs: int, wfkit: list[str]) -> None:
    anchor, ours = [], []
    timed([sys.executable, "-c", ANCHOR])  # warm the page cache for both
    timed([*wfkit, "rarity", "labyrinth"])
    for _ in range(runs):
        anchor.append(timed([sys.executable, "-c", ANCHOR]))
        ours.append(timed([*wfkit, "rarity", "labyrinth"]))
    a, o = median_pair(anchor), median_pair(ours)
    print(f"start-up: wfkit rarity labyrinth {o[0]:.3f} s (cpu {o[1]:.3f} s); "
          f"anchor one-liner {a[0]:.3f} s (cpu {a[1]:.3f} s); "
          f"ratio {o[0] / a[0]:.2f} wall, {o[1] / a[1]:.2f} cpu (limit 1.3)")
    record("`wfkit rarity labyrinth` vs the `wordfreq` one-liner, whole process", "<= 1.3x",
           f"{o[0] / a[0]:.2f}x", f"python bench/bench_rarity.py --runs {runs}")


def best_startup(runs: int, wfkit: list[str]) -> None:
    best = [*wfkit, "tiles", "--hand", "QUAFFE?TRS", "--best"]
    anchor = [*wfkit, "rarity", "labyrinth"]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp
        os.environ["WFKIT_NO_CACHE"] = "1"
        cold = timed(best)
        del os.environ["WFKIT_NO_CACHE"]
        timed(best)  # builds and stores the index
        timed(anchor)
        ours, theirs = [], []
        for _ in range(runs):
            theirs.append(timed(anchor))
            ours.append(timed(best))
    o, a = median_pair(ours), median_pair(theirs)
    print(f"tiles --best start-up: wfkit tiles --hand QUAFFE?TRS --best {o[0]:.3f} s wall "
          f"(cpu {o[1]:.3f} s), warm cache; wfkit rarity labyrinth {a[0]:.3f} s (cpu "
          f"{a[1]:.3f} s); ratio {o[1] / a[1]:.2f} cpu, {o[0] / a[0]:.2f} wall (limit 2.0); "
          f"without the cache {cold[0]:.2f} s wall, cpu {cold[1]:.2f} s; "
          f"load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def sample_words(n: int) -> list[str]:
    from wordforge_cli.io.paths import data_file

    lines = data_file("english.tsv").read_text(encoding="utf-8").splitlines()
    words = sorted({line.split("\t", 1)[0] for line in lines})
    if len(words) < n:
        sys.exit(f"the word table has only {len(words)} words, fewer than {n}")
    return random.Random(0).sample(words, n)


def zipf_anchor(words: list[str]) -> None:
    """For scale: wordfreq's own zipf_frequency, one call per word not seen before."""
    import wordfreq

    wordfreq.zipf_frequency("labyrinth", "en")  # load its tables first
    start = time.perf_counter()
    for word in words:
        wordfreq.zipf_frequency(word, "en")
    rate = len(words) / (time.perf_counter() - start)
    print(f"anchor: wordfreq.zipf_frequency alone on {len(words)} new words: {rate:,.0f} words/s")


def check_zipf(words: list[str]) -> None:
    import wordfreq

    from wordforge_cli.wordforge.english import zipf_table

    table = zipf_table()
    wrong = [w for w in words if table.get(w, 0.0) != wordfreq.zipf_frequency(w, "en")]
    print(f"zipf check: {len(words) - len(wrong)}/{len(words)} equal to "
          f"wordfreq.zipf_frequency" + (f"; differ: {wrong[:5]}" if wrong else ""))


def in_process(words: list[str], runs: int) -> None:
    from wordforge_cli.commands.rarity import write_ratings
    from wordforge_cli.wordforge.english import open_tables, read_rules
    from wordforge_cli.wordforge.rarity import rate_all

    rules = read_rules()
    tables = open_tables(rules, whole=True)
    for fmt in ("json", "csv", "table"):
        times, cpus = [], []
        for _ in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            write_ratings(rate_all(words, rules, tables), rules, fmt, io.StringIO())
            times.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
        wall, cpu = statistics.median(times), statistics.median(cpus)
        print(f"in-process {fmt}: rate + format {len(words)} words in {wall:.3f} s "
              f"-> {len(words) / wall:,.0f} words/s wall ({len(words) / cpu:,.0f} cpu)")


def batch(words: list[str], runs: int, wfkit: list[str], formats: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp, "big.txt")
        big.write_text("\n".join(words) + "\n", encoding="utf-8")
        one = Path(tmp, "one.txt")
        one.write_text("labyrinth\n", encoding="utf-8")
        out = str(Path(tmp, "out"))
        rates: dict[str, float] = {}
        for fmt in formats:
            full, base = [], []
            for _ in range(runs):
                base.append(timed([*wfkit, "rarity", "--vocab", str(one), "--render", fmt,
                                   "-o", out]))
                full.append(timed([*wfkit, "rarity", "--vocab", str(big), "--render", fmt,
                                   "-o", out]))
            f, b = median_pair(full), median_pair(base)
            n = len(words) - 1
            print(f"batch {fmt}: {len(words)} words {f[0]:.2f} s, 1 word {b[0]:.2f} s -> "
                  f"{n / (f[0] - b[0]):,.0f} words/s wall after start-up "
                  f"({n / (f[1] - b[1]):,.0f} words/s cpu; whole run "
                  f"{len(words) / f[0]:,.0f} words/s)")
            rates[fmt] = n / (f[0] - b[0])
    if len(words) == 100_000 and {"jsonl", "csv", "table"} <= rates.keys():
        record("rarity table of 100,000 distinct words, JSON Lines, after start-up",
               ">= 100,000 words/s", f"{rates['jsonl'] / 1000:.0f}k words/s (csv "
               f"{rates['csv'] / 1000:.0f}k, table {rates['table'] / 1000:.0f}k)",
               "python bench/bench_rarity.py --runs 7")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--words", type=int, default=100_000)
    parser.add_argument("--formats", default="json,csv,table")
    parser.add_argument("--best", action="store_true",
                        help="only tiles --best against rarity labyrinth")
    args = parser.parse_args()
    wfkit = wfkit_command()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.2f}, {args.runs} runs, medians")
    if args.best:
        best_startup(args.runs, wfkit)
        return
    startup(args.runs, wfkit)
    words = sample_words(args.words)
    zipf_anchor(words[:20000])
    check_zipf(words)
    in_process(words, max(3, args.runs // 2))
    batch(words, max(3, args.runs // 2), wfkit, args.formats.split(","))
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
