"""The statistics every balance figure carries (core/intervals.py) and where they reach the
reports: Wilson and normal intervals against published values and their own definitions, the
paired comparison of two rule sets, and Bradley-Terry ratings."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wordforge_cli.core import intervals as ci


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (0, 10, 0.0, 0.2775),      # Newcombe 1998, table I / Agresti-Coull 1998
    (5, 10, 0.2366, 0.7634),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),  # Newcombe 1998's worked example, 81/263
])
def test_wilson_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = ci.wilson(k, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


@given(st.integers(1, 5000), st.data())
def test_wilson_contains_the_rate_and_mirrors(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = ci.wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1
    mlo, mhi = ci.wilson(n - k, n)
    assert mlo == pytest.approx(1 - hi, abs=1e-12) and mhi == pytest.approx(1 - lo, abs=1e-12)
    r = ci.rate(k, n, fair=0.5)
    assert r["n"] == n and r["distinguishable"] == (not lo <= 0.5 <= hi)


def test_rate_refuses_what_is_not_one() -> None:
    with pytest.raises(ValueError):
        ci.wilson(3, 2)
    assert ci.rate(0, 0) == {"rate": 0.0, "low": 0.0, "high": 1.0, "n": 0}


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=60))
def test_mean_interval_is_mean_plus_minus_z_standard_errors(values: list[int]) -> None:
    m = ci.mean_of_values(values, digits=9)
    sd = statistics.stdev(values)
    half = ci.Z95 * sd / math.sqrt(len(values))
    assert m["mean"] == pytest.approx(statistics.fmean(values), abs=1e-6)
    assert m["low"] == pytest.approx(statistics.fmean(values) - half, abs=1e-6)
    assert m["high"] == pytest.approx(statistics.fmean(values) + half, abs=1e-6)
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    assert ci.mean_of(counts, digits=9) == m


@given(st.lists(st.integers(0, 10), min_size=1, max_size=8))
def test_a_bounded_figure_keeps_its_interval_in_range(values: list[int]) -> None:
    """A share of 0-10 passes in 10 turns over a few games: the normal interval would reach
    below 0 or above 1; cut to the range, it is the plain interval clipped there, and the
    fair value is judged against the cut interval."""
    shares = [v / 10 for v in values]
    plain = ci.mean_of_values(shares, digits=9)
    cut = ci.mean(sum(shares), sum(v * v for v in shares), len(shares), fair=0.5, digits=9,
                  within=(0.0, 1.0))
    assert 0.0 <= cut["low"] <= cut["mean"] <= cut["high"] <= 1.0
    assert cut["low"] == pytest.approx(max(plain["low"], 0.0), abs=1e-9)
    assert cut["high"] == pytest.approx(min(plain["high"], 1.0), abs=1e-9)
    assert cut["distinguishable"] == (not cut["low"] <= 0.5 <= cut["high"])


def test_balance_shares_and_scores_stay_in_their_range_over_few_games() -> None:
    """Two games put a normal interval of a mean score (or a pass share) beyond what the
    figure can be; the report cuts them to >= 0 (a share also to <= 1)."""
    from test_balance import INDEX, RULES

    from wordforge_cli.wordforge import balance

    game = balance.GameRules(turns=4)
    players = [balance.parse_model("B1"), balance.parse_model("all")]
    seen_cut = False
    for start in range(0, 60, 2):
        tally = balance.simulate(INDEX, RULES, players, 5, range(start, start + 2), game)
        iv = balance.summarize(tally, RULES, game)["intervals"]
        share = iv["pass_share"]
        assert 0.0 <= share["low"] <= share["mean"] <= share["high"] <= 1.0
        for figure in (*iv["mean_score"].values(), iv["score_per_turn"], share):
            assert figure["low"] >= 0.0
            seen_cut = seen_cut or figure["low"] == 0.0 < figure["mean"]
    assert seen_cut, "no game pair drew a figure whose plain interval went below 0"
    assert ci.SHARE == (0.0, 1.0)


def test_normal_interval_covers_about_95_percent() -> None:
    rng = random.Random(3)
    hits = 0
    for _ in range(2000):
        sample = [rng.gauss(10, 4) for _ in range(50)]
        m = ci.mean_of_values(sample, digits=9)
        hits += m["low"] <= 10 <= m["high"]
    assert 0.93 <= hits / 2000 <= 0.97


def test_bradley_terry_recovers_strengths() -> None:
    # strengths 4 : 2 : 1, expected wins over 600 games a pair
    true = [4.0, 2.0, 1.0]
    results = {}
    for i in range(3):
        for j in range(3):
            if i != j:
                results[(i, j)] = 600 * true[i] / (true[i] + true[j])
    p = ci.bradley_terry(["a", "b", "c"], results)
    assert p[0] / p[2] == pytest.approx(4, rel=0.02)
    assert p[1] / p[2] == pytest.approx(2, rel=0.02)
    elo = ci.elo_scale(p)
    assert elo[0] > elo[1] > elo[2] and sum(elo) == pytest.approx(0, abs=0.2)
    # a model that never loses still gets a finite strength
    assert all(math.isfinite(v) for v in ci.bradley_terry(["a", "b"], {(0, 1): 10.0}))


# ---- where they reach the WordForge report ----------------------------------------------------

def _balance_games(n: int = 40, game=None):
    from test_balance import INDEX, RULES

    from wordforge_cli.wordforge.balance import GameRules, parse_model, simulate, summarize

    game = game or GameRules(turns=4)
    outcomes: list[list[int]] = []
    tally = simulate(INDEX, RULES, [parse_model("B1"), parse_model("all")], 5, range(n), game,
                     outcomes)
    return summarize(tally, RULES, game), outcomes, tally, game


def test_balance_intervals_are_those_of_the_games_played() -> None:
    report, outcomes, tally, game = _balance_games()
    iv = report["intervals"]
    n = len(outcomes)
    assert tally.games == n
    decided = [o for o in outcomes if o[0] != o[1]]
    first = sum(1 for o in decided if o[0] > o[1])
    assert iv["wins"]["1:B1"] == ci.rate(first, len(decided), fair=0.5)
    assert iv["wins"]["2:all"]["n"] == len(decided)
    assert iv["mean_score"]["2:all"] == ci.mean_of_values([o[1] for o in outcomes], digits=2)
    assert iv["margin"] == ci.mean_of_values([o[0] - o[1] for o in outcomes], fair=0.0,
                                             digits=2)
    per_turn = ci.mean_of_values([sum(o) / (2 * game.turns) for o in outcomes])
    assert iv["score_per_turn"] == per_turn
    assert iv["score_per_turn"]["mean"] == pytest.approx(report["score_per_turn"]["mean"],
                                                         abs=1e-3)


def test_balance_intervals_merge_to_the_whole_run() -> None:
    from test_balance import INDEX, RULES

    from wordforge_cli.wordforge.balance import GameRules, parse_model, simulate, summarize

    models = [parse_model("all")] * 2
    game = GameRules(turns=3)
    whole = simulate(INDEX, RULES, models, 2, range(12), game)
    parts = simulate(INDEX, RULES, models, 2, range(5), game).merge(
        simulate(INDEX, RULES, models, 2, range(5, 12), game))
    assert summarize(whole, RULES, game)["intervals"] == summarize(parts, RULES, game)[
        "intervals"]


def test_paired_difference_is_game_by_game() -> None:
    from wordforge_cli.wordforge.balance import GameRules, paired

    game = GameRules(turns=2)
    a = [[10, 5], [3, 8], [7, 7], [4, 2]]
    b = [[12, 5], [9, 8], [7, 6], [1, 2]]
    d = paired(a, b, game)
    assert d["games"] == 4
    assert d["score_per_turn"] == ci.mean_of_values([2 / 4, 6 / 4, -1 / 4, -3 / 4], fair=0.0)
    assert d["mean_score"]["1"] == ci.mean_of_values([2, 6, 0, -3], fair=0.0, digits=2)
    # winners: a = 1, 2, draw, 1; b = 1, 1, 1, 2: three games changed
    assert d["winner_changed"]["games"] == 3 and d["winner_changed"]["n"] == 4
    assert d["first_seat_wins"] == ci.mean_of_values([0, 1, 1, -1], fair=0.0, digits=4)
    same = paired(a, a, game)
    assert same["winner_changed"]["games"] == 0
    assert same["score_per_turn"]["mean"] == 0 and not same["score_per_turn"]["distinguishable"]
    with pytest.raises(ValueError):
        paired(a, b[:2], game)


def test_balance_compare_text_fits_100_columns_and_marks_the_difference(run) -> None:
    from pathlib import Path

    long_name = Path(__file__).parents[2] / "examples" / "rarity-no-short-cap.yaml"
    result = run("balance", "-n", "30", "--turns", "4", "--seed", "1", "--compare",
                 long_name)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= 100
    assert any(line.startswith("games that changed winner") for line in lines)
    head = next(line for line in lines if "difference (2nd - 1st)" in line)
    assert "bundled rules" in head and "short-cap.yaml" in head
    row = next(line for line in lines if line.startswith("wins 1:all"))
    assert row.count("[") == 3  # both rule sets and the difference, each with its interval


def test_balance_figures_by_model_and_the_round_robin(run) -> None:
    from test_balance import INDEX, RULES

    from wordforge_cli.wordforge.balance import (
        GameRules,
        parse_model,
        round_robin,
        simulate,
        summarize,
    )

    game = GameRules(turns=3)
    b1, c2 = parse_model("B1"), parse_model("C2")
    outcomes: list[list[int]] = []
    report = summarize(simulate(INDEX, RULES, [b1, c2, b1], 4, range(15), game, outcomes),
                       RULES, game)
    models = report["models"]
    decided = [o for o in outcomes if o.count(max(o)) == 1]
    b1_wins = sum(1 for o in decided if o.index(max(o)) in (0, 2))
    assert models["B1"]["seats"] == 2 and models["C2"]["seats"] == 1
    assert models["B1"]["wins"] == ci.rate(b1_wins, len(decided), fair=2 / 3)
    # the rating is Bradley-Terry over the pairs of seats of different models
    above = sum((o[c] > o[b]) + (o[c] == o[b]) / 2 for o in outcomes for b in (0, 2)
                for c in (1,))
    below = sum((o[b] > o[c]) + (o[c] == o[b]) / 2 for o in outcomes for b in (0, 2)
                for c in (1,))
    expected = ci.elo_scale(ci.bradley_terry(["B1", "C2"], {(0, 1): below, (1, 0): above}))
    assert [models["B1"]["elo"], models["C2"]["elo"]] == expected
    assert summarize(simulate(INDEX, RULES, [b1, b1], 4, range(3), game), RULES,
                     game)["models"] is None
    rr = round_robin(INDEX, RULES, [b1, c2, parse_model("all")], 4, 6, game)
    assert len(rr["pairs"]) == 6
    pair = next(p for p in rr["pairs"] if (p["seat_1"], p["seat_2"]) == ("C2", "B1"))
    alone = simulate(INDEX, RULES, [c2, b1], 4, range(6), game)
    assert pair["wins"] == ci.rate(alone.wins[0], alone.games - alone.draws, fair=0.5)
    assert rr["models"]["all"]["elo"] >= rr["models"]["B1"]["elo"]
    bad = run("balance", "-n", "2", "--round-robin", "--player", "B1")
    assert bad.exit_code == 2 and "two or more" in bad.stderr
