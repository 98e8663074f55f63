"""``wfkit kanji --self-play --trace INDEX``: pool INDEX's self-play games replayed move by
move are the games the batch counted: the figures recomputed from the traced games equal the
pool's ``balance`` record in the batch's output (and, under --balanced, its fresh games'),
every move and pass follows the rules, and the lines match their schema."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from conftest import schema_registry

from wordforge_cli import schemas

BATCHES = {
    "self-play": ["-n", "6", "--self-play", "--games", "3", "--seed", "4"],
    "balanced": ["-n", "4", "--preset", "normal", "--balanced", "--fresh-games", "3",
                 "--balance-attempts", "100", "--seed", "5"],
    "lookahead, no limit": ["-n", "3", "--self-play", "--games", "2", "--seed", "6",
                            "--player", "lookahead", "--player", "greedy@shown",
                            "--limit", "0"],
}


def _figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A pool's figures as ``territory.Balance.record`` counts them, from traced games."""
    g = len(games)
    won = [r["winner"] for r in games]
    model = [0, 0]
    for number, r in enumerate(games):
        if r["winner"] is not None:  # odd games swap the seats
            model[(r["winner"] == "B") ^ (number % 2 == 1)] += 1
    return {"games": g, "first_wins": won.count("A"), "second_wins": won.count("B"),
            "draws": won.count(None),
            "mean_margin": round(sum(r["scores"][0] - r["scores"][1] for r in games) / g, 3),
            "steals": round(sum(r["steals"] for r in games) / g, 3),
            "length": round(sum(r["moves"] for r in games) / g, 3),
            "hidden_moves": round(sum(r["hidden_moves"] for r in games) / g, 3),
            "ended": {"no known move": sum(r["ended"] == "no known move" for r in games),
                      "move limit": sum(r["ended"] == "move limit" for r in games)},
            "model_wins": model}


@pytest.mark.parametrize("name", list(BATCHES))
def test_each_pools_trace_is_the_games_its_record_counts(run: Any, name: str) -> None:
    args = BATCHES[name]
    result = run("kanji", *args, "-q")
    assert result.exit_code == 0, result.stderr
    pools = [json.loads(line) for line in result.stdout.splitlines()]
    check = jsonschema.Draft202012Validator(schemas.load("kanji-play"),
                                            registry=schema_registry())
    for record in pools:
        traced = run("kanji", *args, "-q", "--trace", record["id"], "--json", "-j", "2")
        assert traced.exit_code == 0, traced.stderr
        lines = [json.loads(line) for line in traced.stdout.splitlines()]
        for line in lines:
            check.validate(line)
        head, last = lines[0], lines[-1]
        assert head["pool"] == record["id"] and head["seed"] == record["seed"]
        assert head["kanji"] == record["kanji"]
        assert last == {"pool": record["id"], "balance": record["balance"]}
        results = {stage: [x for x in lines if "ended" in x and x["stage"] == stage]
                   for stage in ("play", "fresh")}
        b = record["balance"]
        mine = _figures(results["play"])
        assert {k: b[k] for k in mine} == mine
        if "fresh" in b:
            fresh = _figures(results["fresh"])
            assert {k: b["fresh"][k] for k in fresh} == fresh
        else:
            assert not results["fresh"]
        _follows_the_rules(lines, record)


def _follows_the_rules(lines: list[dict[str, Any]], record: dict[str, Any]) -> None:
    """Every move takes a kanji nobody held and takes the word's kanji from the opponent;
    the scores are the kanji each player holds."""
    board = set(record["kanji"])
    held: dict[str, set[str]] = {"A": set(), "B": set()}
    game = None
    for line in lines[1:-1]:
        if line["game"] != game:
            game, held = line["game"], {"A": set(), "B": set()}
        if "ended" in line:
            assert line["scores"] == [len(held["A"]), len(held["B"])]
            continue
        if "move" in line:
            me, other = line["player"], "B" if line["player"] == "A" else "A"
            word = set(line["word"])
            assert word <= board
            free = word - held["A"] - held["B"]
            assert free and set(line["taken"]) == free
            assert set(line["stolen"]) == word & held[other]
            held[me] |= word
            held[other] -= word
        assert line["scores"] == [len(held["A"]), len(held["B"])]


def test_the_text_trace_and_its_refusals(run: Any, tmp_path: Any) -> None:
    args = BATCHES["self-play"]
    result = run("kanji", *args, "--trace", "2")
    assert result.exit_code == 0, result.stderr
    text = result.stdout.splitlines()
    assert text[0].startswith("pool 2 (seed 4): ")
    assert sum(line.startswith("game ") for line in text) == 3
    assert sum(line.startswith("  end (") for line in text) == 3
    assert text[-1].startswith("pool record: first player wins ")
    for extra, message in (
            (["--trace", "6"], "--trace: pool 6 is not in a batch of 6 pools (-n): 0 to 5"),
            (["--trace", "1", "--sweep", "limit=0,30"], "--trace replays one pool's games: "
                                                       "not with --sweep"),
            (["--trace", "1", "--stats", str(tmp_path / "s.json")], "not with --stats"),
            (["--trace", "1", "--render", "svg"], "not --render svg")):
        result = run("kanji", *args, *extra)
        assert result.exit_code == 2 and message in result.stderr, (extra, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    result = run("kanji", "-n", "3", "--seed", "1", "--trace", "1")
    assert result.exit_code == 2
    assert "--trace reads self-play: also give --self-play or --balanced" in result.stderr
    assert not (tmp_path / "s.json").exists()
