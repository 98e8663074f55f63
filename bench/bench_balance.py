"""Play benchmarks: ``tiles --best``, ``wfkit balance``, kanji self-play.

    .venv/bin/python bench/bench_balance.py                 # all three, medians of 5 runs
    .venv/bin/python bench/bench_balance.py --runs 3 --games 10000 --pools 1000
    .venv/bin/python bench/bench_balance.py --anchor /tmp/anchor/bin/wfkit --runs 5 --cold 2

1. ``--best`` for hands of 10 drawn from the bag, after start-up (index built), median per
   hand, against the anchor measured alternately in the same run: scoring every playable word
   the hand could hold (``brute_best`` of tests/hands_reference.py: hand_cover + score_word
   over the whole table).
2. ``wfkit balance -n GAMES`` (2 players, 10 turns), the whole command as a fresh process
   pinned to one core (start-up, tables, index, games, report written), wall and CPU seconds.
3. ``wfkit kanji -n POOLS --preset normal --self-play`` (greedy players, 4 games a pool),
   the whole command as a fresh process pinned to one core.

``--anchor WFKIT`` measures the play commands of another install (the anchor: the tree before
a change, installed in a venv of its own) and of this tree alternately in the same run, each
pinned to one core, warm hand index cache (a temporary XDG_CACHE_HOME warmed by one run of
each first: what a user's second run costs): ``wfkit balance -n GAMES``, kanji self-play with
greedy and with lookahead players; per command the median CPU (child user + sys) and wall
seconds of each side, the CPU ratio, and a refusal when the two wrote different bytes.
``--cold N`` adds N balance runs of each side with an empty cache (the index built).
``--other WFKIT`` is the balance command alone against another install.

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
sys.path.insert(0, str(ROOT / "tests"))  # the reference answer of --best

WFKIT = str(Path(sys.executable).with_name("wfkit"))


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def best(hands: int, anchor_hands: int, runs: int) -> None:
    from hands_reference import brute_best

    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.hands import build_index
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


def _run(exe: str, args: list[str], out: Path, cache: Path) -> tuple[float, float]:
    """One whole command, pinned to one core: (CPU seconds of the child, user + sys; wall)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([exe, *args, "-o", str(out)], check=True, stderr=subprocess.DEVNULL,
                   preexec_fn=_one_core, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def alternate(label: str, args: list[str], runs: int, anchor: str | None,
              cold: int = 0) -> dict[str, float]:
    """The whole command of this tree, and of the anchor install when given, alternately
    (anchor, ours, anchor, ours ...), the hand index cache warmed by one run of each first
    (what a user's second run costs); both must write the same bytes. ``cold``: that many
    runs more of each with an empty cache (the first run a user makes: the index built)."""
    med = statistics.median
    sides = {"ours": WFKIT, **({"anchor": anchor} if anchor else {})}
    cpu: dict[str, list[float]] = {k: [] for k in sides}
    wall: dict[str, list[float]] = {k: [] for k in sides}
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        files = {k: Path(tmp) / f"{k}.out" for k in sides}
        for k, exe in sides.items():
            _run(exe, args, files[k], cache)
        for _ in range(runs):
            for k in reversed(sides):  # the anchor first
                c, w = _run(sides[k], args, files[k], cache)
                cpu[k].append(c)
                wall[k].append(w)
        if anchor and files["ours"].read_bytes() != files["anchor"].read_bytes():
            raise SystemExit(f"{label}: this tree and the anchor wrote different bytes")
        for k, exe in sides.items():
            colds = [_run(exe, args, files[k], Path(tmp) / f"cold-{k}-{n}")[0]
                     for n in range(cold)]
            if colds:
                out[f"{k}_cold"] = med(colds)
    for k in sides:
        out[f"{k}_cpu"], out[f"{k}_wall"] = med(cpu[k]), med(wall[k])
    line = (f"{label}: {out['ours_cpu']:.2f} s CPU, {out['ours_wall']:.2f} s wall (median of "
            f"{runs}; CPU runs {', '.join(f'{c:.2f}' for c in cpu['ours'])})")
    if anchor:
        ratios = [a / o for a, o in zip(cpu["anchor"], cpu["ours"], strict=True)]
        out["ratio"] = med(ratios)
        line += (f"; anchor {out['anchor_cpu']:.2f} s CPU, {out['anchor_wall']:.2f} s wall: "
                 f"{out['ratio']:.2f}x CPU (per-pair ratios "
                 f"{', '.join(f'{r:.2f}' for r in ratios)}), "
                 f"{out['anchor_wall'] / out['ours_wall']:.2f}x wall")
    if "ours_cold" in out:
        line += f"; cold cache {out['ours_cold']:.2f} s CPU"
        if anchor:
            line += f" (anchor {out['anchor_cold']:.2f} s)"
    print(f"{line}; load {load()}")
    return out


def against(other: str, games: int, runs: int) -> None:
    """``wfkit balance -n GAMES`` of this tree against another install, alternately."""
    alternate(f"wfkit balance -n {games}", ["balance", "-n", str(games), "--seed", "1",
                                            "--json"], runs, other)


def whole(args: list[str], runs: int, label: str) -> float:
    """The whole command as a fresh process pinned to one core: wall and CPU seconds."""
    return alternate(label, args, runs, None)["ours_cpu"]


BALANCE = ["balance", "-n", "{games}", "--players", "2", "--turns", "10", "--seed", "1",
           "--json"]
SELF_PLAY = ["kanji", "-n", "{pools}", "--self-play", "--games", "40", "--seed", "1", "-q",
             "--jobs", "1"]
LOOKAHEAD = ["kanji", "-n", "{lookahead}", "--self-play", "--games", "10", "--player",
             "lookahead", "--seed", "1", "-q", "--jobs", "1"]


def _args(template: list[str], **values: int) -> list[str]:
    return [a.format(**values) for a in template]


def _whole(out: dict[str, float]) -> str:
    return f"{out['ours_cpu']:.1f} s CPU, {out['ours_wall']:.1f} s wall"


def play(anchor: str, games: int, pools: int, lookahead: int, runs: int, cold: int) -> None:
    """The play commands of this tree against the anchor install, whole commands on one core."""
    cmd = f"python bench/bench_balance.py --anchor ANCHOR --runs {runs}"
    out = alternate(f"wfkit balance -n {games} (2 players, 10 turns)",
                    _args(BALANCE, games=games), runs, anchor, cold)
    if games == 10_000:
        record("`wfkit balance -n 10000`, 2 players, 10 turns, on one core", "<= 6 s CPU",
               f"{out['ours_cpu']:.1f} s CPU", cmd)
        if cold:
            record("`wfkit balance -n 10000`, first run (the hand index built and cached)",
                   "-", f"{out['ours_cold']:.1f} s CPU", cmd + f" --cold {cold}")
    out = alternate(f"wfkit kanji -n {pools} --self-play --games 40 (greedy)",
                    _args(SELF_PLAY, pools=pools), runs, anchor)
    if pools == 100:
        record("kanji self-play, 100 pools x 40 games, greedy, one core", "-", _whole(out), cmd)
    out = alternate(f"wfkit kanji -n {lookahead} --self-play --games 10 --player lookahead",
                    _args(LOOKAHEAD, lookahead=lookahead), runs, anchor)
    if lookahead == 30:
        record("kanji self-play, 30 pools x 10 games, lookahead, one core", "-", _whole(out),
               cmd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--anchor-hands", type=int, default=5)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pools", type=int, default=1000)
    parser.add_argument("--only", choices=("best", "balance", "kanji"))
    parser.add_argument("--other", help="another install's wfkit: balance against it")
    parser.add_argument("--anchor", help="the anchor install's wfkit: the play commands "
                                         "(balance, kanji self-play) against it, alternately")
    parser.add_argument("--self-play-pools", type=int, default=100)
    parser.add_argument("--lookahead-pools", type=int, default=30)
    parser.add_argument("--cold", type=int, default=0,
                        help="--anchor: runs with an empty cache too (the index built)")
    a = parser.parse_args()
    if a.other:
        against(a.other, a.games, a.runs)
        return
    if a.anchor:
        play(a.anchor, a.games, a.self_play_pools, a.lookahead_pools, a.runs, a.cold)
        return
    if a.only in (None, "best"):
        best(a.hands, a.anchor_hands, a.runs)
    if a.only in (None, "balance"):
        cpu = whole(_args(BALANCE, games=a.games), a.runs,
                    f"wfkit balance -n {a.games} (2 players, 10 turns)")
        if a.games == 10_000:
            record("`wfkit balance -n 10000`, 2 players, 10 turns, on one core", "<= 6 s CPU",
                   f"{cpu:.1f} s CPU",
                   f"python bench/bench_balance.py --only balance --runs {a.runs}")
    if a.only in (None, "kanji"):
        cpu = whole(["kanji", "-n", str(a.pools), "--preset", "normal", "--self-play",
                     "--seed", "1", "-q", "--jobs", "1"], a.runs,
                    f"wfkit kanji -n {a.pools} --preset normal --self-play")
        if a.pools == 1000:
            record("kanji self-play, 1,000 pools, greedy players, on one core", "< 30 s",
                   f"{cpu:.1f} s CPU",
                   f"python bench/bench_balance.py --only kanji --runs {a.runs}")


if __name__ == "__main__":
    main()
