"""``wfkit kanji --self-play --sweep KEY=V1,V2,...``: each row is the self-play batch with that
one setting changed (a preset: its values under what the command line gave), the same
figures ``--stats`` gives for that batch alone; keys and values are checked with one line;
the table fits 100 columns and the chart has one point per value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

BASE = ["-n", "5", "--self-play", "--games", "2", "--seed", "3"]


def _alone(run: Any, tmp_path: Path, *args: str) -> dict[str, Any]:
    stats = tmp_path / "alone.json"
    result = run("kanji", *args, "-q", "--stats", stats)
    assert result.exit_code == 0, result.stderr
    summary: dict[str, Any] = json.loads(stats.read_text(encoding="utf-8"))["stats"]
    return summary


@pytest.mark.parametrize(("key", "values", "option"), [
    ("limit", ["0", "12"], "--limit"),
    ("bring", ["10", "30"], "--bring"),
    ("player", ["lookahead", "greedy@shown"], "--player"),
    ("hidden_words", ["true", "false"], None),
])
def test_a_row_is_the_batch_with_that_option(run: Any, tmp_path: Path, key: str,
                                              values: list[str], option: str | None) -> None:
    result = run("kanji", *BASE, "--sweep", f"{key}={','.join(values)}", "--json")
    assert result.exit_code == 0, result.stderr
    sweep = json.loads(result.stdout)["sweep"]
    assert [row["value"] for row in sweep["rows"]] == values and sweep["count"] == 5
    for value, row in zip(values, sweep["rows"], strict=True):
        flag = ([option, value] if option else
                ["--hidden-words"] if value == "true" else [])
        alone = _alone(run, tmp_path, *BASE, *flag)
        assert row["balance"] == alone["balance"], (key, value)
        assert (row["pools"], row["failed"]) == (alone["pools"], alone["failed"])
        assert row["first"] == alone["balance"]["intervals"]["first"]
        assert row["move_limit"] == alone["balance"]["ended"]["move limit"]
        assert row["fresh_first"] is None


def test_a_preset_row_is_the_preset_under_the_command_line(run: Any, tmp_path: Path) -> None:
    """--games 2 on the command line wins over every preset's own; the rest is the
    preset's (hard's kanji range, its limit)."""
    result = run("kanji", *BASE, "--sweep", "preset=easy,hard", "--json")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["sweep"]["rows"]
    for preset, row in zip(("easy", "hard"), rows, strict=True):
        alone = _alone(run, tmp_path, *BASE, "--preset", preset)
        assert row["balance"] == alone["balance"], preset
        assert row["games"] == 2 * row["pools"]


def test_balanced_rows_carry_the_fresh_games(run: Any, tmp_path: Path) -> None:
    chart = tmp_path / "fresh.svg"
    result = run("kanji", "-n", "4", "--preset", "normal", "--balanced", "--seed", "2",
                 "--fresh-games", "2", "--sweep", "band=0.05,0.2", "--chart", chart)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("value"))
    assert "fresh: first wins" in lines[head]
    assert [x.split()[0] for x in lines[head + 1:head + 3]] == ["0.05", "0.2"]
    assert all(len(x) <= 100 for x in lines)
    svg = chart.read_text(encoding="utf-8")
    assert svg.count("<svg") == 4  # first wins, on fresh games, the advantage: stacked
    assert svg.count('class="point"') == 3 * 2


@pytest.mark.parametrize(("sweep", "message"), [
    ("lmit=0,30", "unknown key 'lmit' (did you mean 'limit'?)"),
    ("limit=-1,30", "limit=-1: -1 is not in the range"),
    ("band=2", "band=2: 2.0 is not in the range 0<=x<=1"),
    ("player=wizard", "player=wizard: unknown player 'wizard'"),
    ("preset=extreme", "preset=extreme: unknown preset 'extreme'"),
    ("kanji=90-80", "kanji=90-80"),
    ("kanji=900-1000", "kanji=900-1000: can never succeed"),
    ("games=0", "games=0: 0 is not in the range 1<=x<=1000"),
])
def test_every_key_and_value_is_checked_with_one_line(run: Any, sweep: str,
                                                      message: str) -> None:
    result = run("kanji", *BASE, "--sweep", sweep)
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr and "--sweep" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["-n", "3", "--sweep", "limit=0,30"], "--sweep reads self-play: also give --self-play"),
    ([*BASE, "--sweep", "limit=0,30", "--stats", "s.json"], "not with --stats"),
    ([*BASE, "--sweep", "limit=0,30", "--render", "svg"], "not --render svg"),
    ([*BASE, "--chart", "c.svg"], "--chart draws a sweep's figures"),
    (["-n", "3", "--report", "r.html"], "--report reads self-play"),
])
def test_runs_that_cannot_go_together_are_refused(run: Any, args: list[str],
                                                  message: str) -> None:
    result = run("kanji", *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
