"""``wfkit balance --sweep KEY=V1,V2,...``: each row is the batch ``wfkit balance`` plays with
that one setting changed (a game option, or a value of the rules file by its path), on the
same deals; every key and value is checked with one line; the table fits 100 columns, the
JSON matches its schema and the chart has one point (with its interval) per value."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import EXAMPLES, schema_registry

from wordforge_cli import schemas

SMALL = ["-n", "12", "--turns", "3", "--seed", "2"]


def _json(run: Any, *args: str) -> dict[str, Any]:
    result = run("balance", *SMALL, *args, "--json")
    assert result.exit_code == 0, result.stderr
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def _valid(doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schemas.load("balance"),
                                    registry=schema_registry()).validate(doc)


@pytest.mark.parametrize(("key", "values", "option"), [
    ("turns", ["2", "4"], lambda v: ["--turns", v]),
    ("use_at", ["5", "80"], lambda v: ["--use-at", v]),
    ("powerups", ["false", "true"], lambda v: ["--powerups" if v == "true" else
                                               "--no-powerups"]),
    ("player", ["B1", "C2"], lambda v: ["--player", v]),
    ("players", ["2", "3"], lambda v: ["--players", v]),
])
def test_a_game_option_row_is_the_batch_with_that_option(run: Any, key: str,
                                                          values: list[str],
                                                          option: Any) -> None:
    doc = _json(run, "--sweep", f"{key}={','.join(values)}")
    _valid(doc)
    sweep = doc["sweep"]
    assert sweep["key"] == key and sweep["values"] == values and sweep["games"] == 12
    assert [row["value"] for row in sweep["rows"]] == values
    for value, row in zip(values, sweep["rows"], strict=True):
        alone = _json(run, *option(value))
        iv = alone["intervals"]
        assert row["players"] == alone["players"] and row["turns"] == alone["turns"]
        for name in ("wins", "draw", "mean_score", "margin", "score_per_turn", "pass_share"):
            assert row[name] == iv[name], (key, value, name)
        assert row["first_seat_wins"] == iv["wins"][alone["players"][0]]
        assert row["models"] == alone["models"]
        assert row["powerup_effect"] == alone["powerup_effect"]


def test_a_rules_value_row_is_the_batch_under_a_rules_file_saying_it(run: Any,
                                                                     tmp_path: Path) -> None:
    """short_words.cap=legendary is examples/rarity-no-short-cap.yaml (the bundled rules
    without the cap); score.double=3 a copy of the bundled rules saying so."""
    doc = _json(run, "--sweep", "short_words.cap=super_rare,legendary")
    _valid(doc)
    capped, uncapped = doc["sweep"]["rows"]
    assert capped["score_per_turn"] == _json(run)["intervals"]["score_per_turn"]
    other = _json(run, "--config", str(EXAMPLES / "rarity-no-short-cap.yaml"))["intervals"]
    assert uncapped["score_per_turn"] == other["score_per_turn"]
    assert uncapped["wins"] == other["wins"]
    bundled = (Path(__file__).resolve().parents[2] / "configs" / "rarity.yaml").read_text(
        encoding="utf-8")
    tripled = tmp_path / "double-3.yaml"
    tripled.write_text(bundled.replace("  double: 2\n", "  double: 3\n"), encoding="utf-8")
    assert tripled.read_text(encoding="utf-8") != bundled
    row = _json(run, "--sweep", "score.double=3")["sweep"]["rows"][0]
    assert row["mean_score"] == _json(run, "--config", str(tripled))["intervals"]["mean_score"]


@pytest.mark.parametrize(("sweep", "message"), [
    ("turns", "expected KEY=V1,V2,..."),
    ("turns=5,,6", "an empty value"),
    ("turns=5,5", "'5' is given twice"),
    ("turnz=5", "unknown key 'turnz' (did you mean 'turns'?)"),
    ("score.dubble=3", "unknown key 'score.dubble' (did you mean 'double'?)"),
    ("score.double.x=3", "score.double is one value"),
    ("tiers=3", "tiers is a section of the rules, not one value"),
    ("tiles.letters.Q=3", "tiles.letters.Q is a list of the rules"),
    ("tiers.legendary.multiplier=-1", "tiers/legendary/multiplier must be above 0, not -1"),
    ("score.double=two", "score/double must be a number"),
    ("short_words.cap=mega", "unknown tier 'mega'"),
    ("turns=0,5", "turns=0: 0 is not in the range 1<=x<=1000"),
    ("players=2,9", "players=9: 9 is not in the range"),
    ("player=D7", "player=D7: unknown player 'D7'"),
    ("powerups=maybe", "powerups=maybe"),
    ("tiles.max_players=1", "tiles.max_players=1: this config allows at most 1 players"),
    ("tiles.hand_size=2000", "tiles/hand_size must be at most 1,000"),
    ("turns=" + ",".join(map(str, range(1, 52))), "at most 50"),
])
def test_every_key_and_value_is_checked_with_one_line(run: Any, sweep: str,
                                                      message: str) -> None:
    result = run("balance", *SMALL, "--sweep", sweep)
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr and "--sweep" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("args", "message"), [
    (["--sweep", "turns=2,3", "--compare", str(EXAMPLES / "rarity-no-short-cap.yaml")],
     "--sweep plays one rules file at each value: not with --compare"),
    (["--sweep", "turns=2,3", "--round-robin", "--player", "B1", "--player", "C2"],
     "not with --round-robin"),
    (["--chart", "x.svg"], "--chart draws a sweep's figures"),
    (["--sweep", "players=2,3", "--player", "B1", "--player", "C2"],
     "give one --player model (every seat plays it) to sweep the seats"),
])
def test_runs_that_cannot_go_together_are_refused(run: Any, args: list[str],
                                                  message: str) -> None:
    result = run("balance", *SMALL, *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_table_fits_100_columns_and_the_chart_draws_each_value(run: Any,
                                                                   tmp_path: Path) -> None:
    chart = tmp_path / "sweep.svg"
    result = run("balance", *SMALL, "--player", "B2", "--player", "C1", "--sweep",
                 "use_at=0,10,30,100", "--chart", chart)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    table = lines[lines.index(next(x for x in lines if x.startswith("value"))):]
    assert [x.split()[0] for x in table[1:]] == ["0", "10", "30", "100"]
    assert all(len(x) <= 100 for x in table), max(map(len, table))
    assert all(re.search(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", x) for x in table[1:])
    svg = chart.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<svg") == 3  # the two charts, stacked
    # seat 1's share and the score per turn: one dot per value each, a whisker (and its two
    # caps) around it
    assert svg.count('class="point"') == 2 * 4
    assert svg.count('class="fair"') == 1  # one fair share for every row: one line
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
