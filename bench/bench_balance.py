"""Play benchmarks (issue 12): ``tiles --best``, ``wfkit balance``, kanji self-play.

    .venv/bin/python bench/bench_balance.py                 # all three, medians of 5 runs
    .venv/bin/python bench/bench_balance.py --runs 3 --games 10000 --pools 1000

1. ``--best`` for hands of 10 drawn from the bag, after start-up (index built), median per
   hand, against the anchor measured alternately in the same run: scoring every playable word
   the hand could hold (``brute_best``: hand_cover + score_word over the whole table).
2. ``wfkit balance -n GAMES`` (2 players, 10 turns), the whole command as a fresh process
   pinned to one core (start-up, tables, index, games, report written), wall and CPU seconds.
3. ``wfkit kanji -n POOLS --preset normal --self-play`` (greedy players, 4 games a pool),
   the whole command as a fresh process pinned to one core.

``--other WFKIT`` measures ``wfkit balance -n GAMES`` of another install (the anchor) and of
this tree alternately in the same run, each pinned to one core, and gives the CPU ratio (the
hand index cache in a temporary XDG_CACHE_HOME, warmed by one run first: what a user's second
run costs).

The machine is shared: each figure is a median of --runs runs, with the load average beside.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from perf_page import record

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WFKIT = str(Path(sys.executable).with_name("wfkit"))


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def best(hands: int, anchor_hands: int, runs: int) -> None:
    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.hands import brute_best, build_index
    from wordforge_cli.wordforge.rarity import deal

    rules, tables = RuleFiles().load(whole=True)
    started = time.perf_counter()
    index = build_index(rules, tables, rules.tiles.hand_size)
    built = time.perf_counter() - started
    candidates = [(w, r.battle_tier) for w, r in zip(index.words, index.ratings, strict=True)]
    rng = random.Random(1)
    drawn = [deal(rules.tiles, 1, rng).hands[0] for _ in range(hands)]
    ours, anchor = [], []
    for run in range(runs):
        times = []
        for hand in drawn:
            t = time.perf_counter()
            index.best(hand, 10)
            times.append(time.perf_counter() - t)
        ours.append(statistics.median(times))
        times = []
        for hand in drawn[run * anchor_hands:(run + 1) * anchor_hands]:
            t = time.perf_counter()
            expected = brute_best(hand, 10, candidates, rules)
            times.append(time.perf_counter() - t)
            assert index.best(hand, 10) == expected
        anchor.append(statistics.median(times))
    o, a = statistics.median(ours), statistics.median(anchor)
    print(f"tiles --best, hand of 10, k=10: index built in {built:.2f} s ({len(index):,} words); "
          f"median {o * 1000:.3f} ms per hand vs {a * 1000:.0f} ms scoring every playable word "
          f"({a / o:,.0f}x); load {load()}")
    if hands >= 500:
        record("`tiles --best`, hand of 10, k=10, after start-up", "< 5 ms",
               f"{o * 1000:.3f} ms", f"python bench/bench_balance.py --runs {runs} "
               f"--anchor-hands {anchor_hands}")


def _one_core() -> None:
    """Pin the measured command to one core (the issue's bar is "on one core")."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _cpu(exe: str, args: list[str], out: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([exe, *args, "-o", str(out)], check=True, stderr=subprocess.DEVNULL,
                   preexec_fn=_one_core)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def against(other: str, games: int, runs: int) -> None:
    """``wfkit balance -n GAMES`` of this tree against another install, alternately."""
    args = ["balance", "-n", str(games), "--seed", "1", "--json"]
    ours, theirs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        os.environ["XDG_CACHE_HOME"] = tmp
        _cpu(WFKIT, args, out)  # stores the hand index
        for _ in range(runs):
            theirs.append(_cpu(other, args, out))
            ours.append(_cpu(WFKIT, args, out))
    o, t = statistics.median(ours), statistics.median(theirs)
    print(f"wfkit balance -n {games}: {o:.2f} s CPU here vs {t:.2f} s the other install "
          f"({t / o:.2f}x; runs here {', '.join(f'{c:.1f}' for c in ours)}, there "
          f"{', '.join(f'{c:.1f}' for c in theirs)}); load {load()}")


def whole(args: list[str], runs: int, label: str) -> float:
    """The whole command as a fresh process pinned to one core: wall and CPU seconds."""
    walls, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out"
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([WFKIT, *args, "-o", str(out)], check=True,
                           stderr=subprocess.DEVNULL, preexec_fn=_one_core)
            walls.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    print(f"{label}: median {statistics.median(walls):.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU (runs: {', '.join(f'{w:.1f}' for w in walls)});"
          f" load {load()}")
    return statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--anchor-hands", type=int, default=5)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pools", type=int, default=1000)
    parser.add_argument("--only", choices=("best", "balance", "kanji"))
    parser.add_argument("--other", help="another install's wfkit: balance against it")
    a = parser.parse_args()
    if a.other:
        against(a.other, a.games, a.runs)
        return
    if a.only in (None, "best"):
        best(a.hands, a.anchor_hands, a.runs)
    if a.only in (None, "balance"):
        cpu = whole(["balance", "-n", str(a.games), "--players", "2", "--turns", "10",
                     "--seed", "1", "--json"], a.runs,
                    f"wfkit balance -n {a.games} (2 players, 10 turns)")
        if a.games == 10_000:
            record("`wfkit balance -n 10000`, 2 players, 10 turns, on one core", "< 30 s",
                   f"{cpu:.1f} s CPU",
                   f"python bench/bench_balance.py --only balance --runs {a.runs}")
    if a.only in (None, "kanji"):
        cpu = whole(["kanji", "-n", str(a.pools), "--preset", "normal", "--self-play",
                     "--seed", "1", "-q"], a.runs,
                    f"wfkit kanji -n {a.pools} --preset normal --self-play")
        if a.pools == 1000:
            record("kanji self-play, 1,000 pools, greedy players, on one core", "< 30 s",
                   f"{cpu:.1f} s CPU",
                   f"python bench/bench_balance.py --only kanji --runs {a.runs}")


if __name__ == "__main__":
    main()
