"""No figure is printed or written as a negative zero: a mean, an interval's end, a rating or
a difference just below zero reads 0.0 (``-0.0`` in JSON, ``[-0.0, 1.2]`` in a table, ``-0``
as a rating said a sign the figure does not have)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from wordforge_cli.core import intervals as ci
from wordforge_cli.core.engine import describe

NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(?:\.0+)?(?![\d.])")


def negative_zeros(value: Any) -> list[Any]:
    """Every float -0.0 inside ``value`` (dicts, lists)."""
    if isinstance(value, float):
        return [value] if value == 0 and math.copysign(1, value) < 0 else []
    if isinstance(value, dict):
        return [z for v in value.values() for z in negative_zeros(v)]
    if isinstance(value, list | tuple):
        return [z for v in value for z in negative_zeros(v)]
    return []


def test_the_pattern_finds_negative_zeros_only() -> None:
    assert NEGATIVE_ZERO.findall("[-0.0, 1.2] -0 -0.00% x") == ["-0.0", "-0", "-0.00"]
    assert not NEGATIVE_ZERO.search("-0.04 -0.5 10-0 2026-01 +0 0.0 -1.0 a-0")


def test_a_share_just_above_zero_has_no_negative_low_end() -> None:
    # one game in four passed once in 10,000 turns: the normal interval's low end is
    # -0.000024, which rounds to -0.0 at four digits
    share = ci.mean_of_values([1e-4, 0, 0, 0], digits=4)
    assert share["low"] == 0.0 and not negative_zeros(share)
    assert '"low":0.0' in json.dumps(share, separators=(",", ":"))


@given(st.lists(st.floats(-1e-3, 1e-3, allow_nan=False) | st.integers(-1, 1), min_size=1,
                max_size=12),
       st.integers(0, 4), st.sampled_from([None, 0.0]))
def test_no_mean_or_interval_end_is_negative_zero(values: list[float], digits: int,
                                                 fair: float | None) -> None:
    assert not negative_zeros(ci.mean_of_values(values, fair=fair, digits=digits))
    counts = Counter(values)
    assert not negative_zeros(ci.mean_of(counts, fair=fair, digits=digits))
    assert not negative_zeros(describe(counts))


@given(st.lists(st.floats(0.5, 2.0), min_size=1, max_size=6))
def test_no_rating_is_negative_zero(strengths: list[float]) -> None:
    assert not negative_zeros(ci.elo_scale(strengths))
    assert not negative_zeros(ci.elo_scale([1.0, 1.0, 1.0]))


def test_the_tables_print_a_figure_just_below_zero_as_zero() -> None:
    from wordforge_cli.render.balance import mean_cell, rate_cell
    from wordforge_cli.render.kanji import _rate

    tiny = {"mean": 0.00002, "low": -0.00004, "high": 0.0001, "n": 4}
    cells = [rate_cell({**tiny, "rate": tiny["mean"]}), mean_cell(tiny),
             mean_cell({**tiny, "mean": -0.004}, sign=True),
             mean_cell({**tiny, "low": -0.00001}, 4, sign=True),
             _rate({"rate": -0.0, "low": -0.00004, "high": 0.1})]
    for cell in cells:
        assert not NEGATIVE_ZERO.search(cell), cell


def test_a_balance_report_with_a_share_just_above_zero(run: Any) -> None:
    """The pass share as ``wfkit balance`` prints it, with the interval of a batch where one
    game passed once."""
    from wordforge_cli.render.balance import report_text

    result = run("balance", "-n", "4", "--turns", "2", "--seed", "1", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    doc["intervals"]["pass_share"] = ci.mean_of_values([1e-4, 0, 0, 0], digits=4)
    text = report_text(doc)
    assert "pass" in text and not NEGATIVE_ZERO.search(text), text


def test_real_runs_print_and_write_no_negative_zero(run: Any, tmp_path: Any) -> None:
    for args in (["balance", "-n", "30", "--turns", "4", "--player", "B1", "--player", "C1"],
                 ["balance", "-n", "20", "--turns", "3", "--round-robin", "--player", "B1",
                  "--player", "C2"],
                 ["balance", "-n", "20", "--turns", "3", "--sweep", "use_at=10,60"],
                 ["kanji", "-n", "4", "--games", "2", "--self-play", "--preset", "normal"]):
        for seed in ("1",):
            for form in ((), ("--json",)):
                result = run(*args, "--seed", seed, *form)
                assert result.exit_code == 0, result.stderr
                for out in (result.stdout, result.stderr):
                    assert not NEGATIVE_ZERO.search(out), (args, NEGATIVE_ZERO.findall(out))
