"""Kanji pool benchmark: pools/s (n=5, m=25, default dictionary, quality figures included)
beside the article's method written plainly, measured in the same run; and the pool-quality
table of the easy / normal / hard presets; with ``--self-play``, the territory game's core:
the same games played through the players' index (``territory.Index``, what self-play runs)
and through ``choose`` of tests/territory_reference.py looking at every word known (the rules),
alternately in one process.

    /work/venv/bin/python bench/bench_kanji.py                  # speed + preset table
    /work/venv/bin/python bench/bench_kanji.py --pools 5000 --runs 7
    /work/venv/bin/python bench/bench_kanji.py --self-play 100 --runs 5 --table 0

The anchor is the article's smartSelect/addScore: for every distinct kanji of every base word,
test every dictionary word (``word.includes(s)``), sort all scores, take the m-th as the pass
mark, filter, draw. Like ours it starts each pool from zero scores (the article's global score
array would only make it wrong, not faster). Figures are medians of --runs runs; the machine
is shared, so only ratios measured in the same run mean much; CPU seconds are shown too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the rules' plain players (territory_reference)

import perf_page  # noqa: E402

from wordforge_cli.io.checks import bundled_config  # noqa: E402
from wordforge_cli.kanji import PoolRequest, PoolStats, iter_pools, load_dictionary  # noqa: E402
from wordforge_cli.kanji.config import load_config  # noqa: E402


def unique_chars(word: str) -> list[str]:
    return list(dict.fromkeys(word))


def article_pool(words: list[str], base_num: int, bring_num: int, rng: random.Random):
    """smartSelect(fullJukugo, baseNum, bringNum), written as plainly as the article's JS."""
    score = [[i, 0] for i in range(len(words))]
    base = rng.sample(words, base_num)
    for b in base:                                  # base.map(b => addScore(b))
        for s in unique_chars(b):
            for i, word in enumerate(words):
                score[i][1] += 1 if s in word else 0
    ordered = sorted(score, key=lambda v: -v[1])
    pass_mark = ordered[bring_num - 1][1]
    passing = [v for v in score if v[1] >= pass_mark]
    picked = [words[v[0]] for v in rng.sample(passing, bring_num)]
    return base + picked


def timed(func) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return time.perf_counter() - wall, time.process_time() - cpu


def speed(dictionary, pools: int, anchor_pools: int, runs: int, seed: int) -> None:
    words = list(dictionary.words)
    request = PoolRequest(base=5, bring=25)
    ours, ours_cpu, art, art_cpu = [], [], [], []
    for run in range(runs):
        stats = PoolStats()

        def batch(run=run, stats=stats):
            for record in iter_pools(dictionary, request, seed + run, range(pools)):
                stats.add(record)

        w, c = timed(batch)
        ours.append(pools / w)
        ours_cpu.append(pools / c)
        rng = random.Random(seed + run)
        w, c = timed(lambda rng=rng: [article_pool(words, 5, 25, rng)
                                      for _ in range(anchor_pools)])
        art.append(anchor_pools / w)
        art_cpu.append(anchor_pools / c)
    med = statistics.median
    print(f"dictionary: {len(words)} words; n=5, m=25; {runs} runs, medians")
    print(f"wfkit kanji core (with quality figures + stats): {med(ours):>9,.0f} pools/s wall "
          f"{med(ours_cpu):>9,.0f} pools/s CPU   ({pools} pools a run)")
    print(f"article's method, plainly:                        {med(art):>9,.1f} pools/s wall "
          f"{med(art_cpu):>9,.1f} pools/s CPU   ({anchor_pools} pools a run)")
    ratios = [o / a for o, a in zip(ours, art, strict=True)]
    print(f"ratio (median of per-run ratios): {med(ratios):,.0f}x "
          f"(runs: {', '.join(f'{r:,.0f}' for r in ratios)})")
    if pools >= 1000:  # the command line's dictionary (main loads the bundled one)
        perf_page.record("kanji pools/s, n=5 m=25, with quality figures", ">= 1,000/s",
                         f"{med(ours_cpu):,.0f} pools/s CPU", "python bench/bench_kanji.py")
        perf_page.record("kanji vs the article's method written plainly", ">= 10x",
                         f"{med(ratios):,.0f}x", "python bench/bench_kanji.py")


def preset_table(dictionary, pools: int, seed: int) -> None:
    cfg = load_config(bundled_config("kanji"))
    print()
    print("| preset | filters | kanji | 指標A | orphans | hidden compounds | hardest grade "
          "| attempts | pools/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in ("(none)", "easy", "normal", "hard"):
        values = cfg.values(name if name in cfg.presets else None)
        request = PoolRequest(base=values["base"], bring=values["bring"],
                              kanji=values["kanji"],
                              max_grade=values["max_grade"],
                              base_max_grade=values["base_max_grade"],
                              min_zipf=values.get("min_zipf"), budget=values["attempts"],
                              examples=values["hidden_examples"])
        stats = PoolStats()
        start = time.perf_counter()
        for record in iter_pools(dictionary, request, seed, range(pools)):
            stats.add(record)
        rate = pools / (time.perf_counter() - start)
        s = stats.summary()

        def band(key, s=s):
            d = s[key]
            return f"{d['median']} ({d['p10']}-{d['p90']})"

        filters = (f"n={request.base} m={request.bring} grade≤{request.max_grade} "
                   f"base≤{min(request.base_max_grade, request.max_grade)} "
                   f"zipf≥{request.min_zipf} kanji {values.get('kanji') or 'any'}")
        print(f"| {name} | {filters} | {band('kanji_count')} | {band('index_a')} "
              f"| {band('orphan_count')} | {band('hidden_count')} | {band('hardest_grade')} "
              f"| {s['attempts']['mean']:.2f} | {rate:,.0f} |")
    print(f"\n(median (p10-p90) over {pools} pools each, seed {seed}; "
          "attempts = mean pools drawn per pool to reach the kanji range)")


def self_play_core(dictionary, pools: int, runs: int, seed: int) -> None:
    """Games through the index against games through choose(), on the same boards, seeds and
    players (greedy, then lookahead against greedy), CPU seconds a game, medians of runs."""
    from territory_reference import choose

    from wordforge_cli.kanji import territory as T

    def plain_game(board, players, rng):
        """The game as the rules say: choose() looks at every word known, every move."""
        known = (board.known(players[0]), board.known(players[1]))
        state, p, passes, moves = T.State(), 0, 0, []
        while state.moves < T.MOVE_LIMIT:
            word = choose(board, state, p, players[p], known[p], rng, known[1 - p])
            if word is None:
                passes += 1
                if passes == 2:
                    break
            else:
                passes = 0
                moves.append(T.play_move(board, state, p, word))
            p = 1 - p
        return moves

    request = PoolRequest(base=5, bring=25)
    boards = [T.make_board(dictionary, record["kanji"], record["words"])
              for record in iter_pools(dictionary, request, seed, range(pools))]
    for name, players, games in (("greedy", (T.Player(), T.Player()), 20),
                                 ("lookahead", (T.Player("lookahead"), T.Player()), 4)):
        indexed, plain = [], []
        for run in range(runs):
            moves = 0
            start = time.process_time()
            for n, board in enumerate(boards):
                rng = random.Random(seed + run * 7919 + n)
                for _ in range(games):
                    moves += len(T.play_game(board, players, rng).moves)
            indexed.append((time.process_time() - start) / moves)
            moves_plain = 0
            start = time.process_time()
            for n, board in enumerate(boards):
                rng = random.Random(seed + run * 7919 + n)
                for _ in range(games):
                    moves_plain += len(plain_game(board, players, rng))
            plain.append((time.process_time() - start) / moves_plain)
            if moves != moves_plain:
                raise SystemExit("the index and choose() played different games")
        med = statistics.median
        ratios = [p / i for i, p in zip(indexed, plain, strict=True)]
        print(f"self-play core, {name}: {med(indexed) * 1e6:.1f} us a move through the index, "
              f"{med(plain) * 1e6:.1f} us through choose(): {med(ratios):.2f}x "
              f"({pools} boards x {games} games, {runs} runs)")
        if pools >= 100:
            perf_page.record(f"kanji self-play core, {name}: a move through the index vs "
                             "choose() over every word", "-",
                             f"{med(indexed) * 1e6:.0f} us vs {med(plain) * 1e6:.0f} us a move "
                             f"CPU ({med(ratios):.1f}x)",
                             f"python bench/bench_kanji.py --self-play {pools} --table 0")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=3000, help="pools a run (ours)")
    parser.add_argument("--anchor-pools", type=int, default=20, help="pools a run (article)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--table", type=int, default=1000, help="pools per preset row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--self-play", type=int, default=0, metavar="POOLS",
                        help="the self-play core only, on this many pools")
    args = parser.parse_args()
    dictionary = load_dictionary()
    if args.self_play:
        self_play_core(dictionary, args.self_play, args.runs, args.seed)
        return 0
    speed(dictionary, args.pools, args.anchor_pools, args.runs, args.seed)
    if args.table:
        preset_table(dictionary, args.table, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
