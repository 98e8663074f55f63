"""``wfkit balance --trace INDEX``: game INDEX of a batch replayed alone, turn by turn, is the
game the batch played: its last line is the batch's own record of the game (a pack's balance
section writes the same records), its turns add up to the totals, and every turn follows the
rules (a pass scores 0 and swaps, a word comes from the hand, a power-up is spent once)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import schema_registry

from wordforge_cli import schemas

ARGS = ["--turns", "5", "--seed", "3", "--player", "B1", "--player", "C2"]


def _trace(run: Any, index: int, *extra: str) -> list[dict[str, Any]]:
    result = run("balance", "-n", "20", *ARGS, *extra, "--trace", index, "--json")
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """A pack's balance section named as the command's scope ("balance"): its records are
    the games ``wfkit balance`` plays with the same seed."""
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("trace-pack")
    config = tmp / "pack.yaml"
    config.write_text("name: traced\nseed: 3\nsections:\n  - name: balance\n    kind: balance\n"
                      "    count: 20\n    players: [B1, C2]\n    turns: 5\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["pack", "build", str(config), "--out", str(tmp / "p"),
                                      "-j", "2"])
    assert result.exit_code == 0, result.output
    return [json.loads(x) for x in (tmp / "p" / "balance.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("index", [0, 7, 19])
def test_a_trace_ends_with_the_batchs_own_record_of_the_game(run: Any, batch: list[dict],
                                                              index: int) -> None:
    lines = _trace(run, index)
    *turns, record = lines
    assert record == batch[index]
    check = jsonschema.Draft202012Validator(schemas.load("balance"),
                                            registry=schema_registry())
    for line in lines:
        check.validate(line)
    seats = len(record["players"])
    assert len(turns) == 5 * seats
    assert [(t["turn"], t["seat"]) for t in turns] == [
        (t, s) for t in range(1, 6) for s in range(1, seats + 1)]
    totals = [0] * seats
    for t in turns:
        totals[t["seat"] - 1] += t["score"]
        assert t["total"] == totals[t["seat"] - 1]
        assert t["player"] == record["players"][t["seat"] - 1]
        if t["pass"]:
            assert t["word"] is None and t["score"] == 0 and t["powerup"] is None
        else:  # the word is made of the hand's tiles
            assert not Counter(t["word"]) - Counter(t["hand"]), t
    assert totals == record["totals"]
    spent = Counter((t["seat"], t["powerup"]) for t in turns if t["powerup"])
    assert all(n == 1 for n in spent.values())


def test_every_game_of_a_batch_replays_to_its_record_in_process() -> None:
    """The section's own games (what any --jobs or shard makes) and their traces, game by
    game, with power-ups and without."""
    from wordforge_cli.batch.balance import BalanceSection, asked_of
    from wordforge_cli.wordforge.balance import GameRules, parse_model
    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.english import read_rules

    rules = read_rules()
    models = [parse_model("A2"), parse_model("all"), parse_model("zipf:3")]
    for game in (GameRules(turns=4), GameRules(turns=3, powerups=False, use_at=5)):
        section = BalanceSection("balance", 12, (), 0, asked_of(models, game), rules=rules,
                                 models=models, game=game, files=RuleFiles())
        played = [item.records[0] for item in section.items(5, 0, 12)]
        for g in range(12):
            turns, record = section.trace(5, g)
            assert record == played[g]
            assert len(turns) == game.turns * len(models)
            assert [sum(t["score"] for t in turns if t["seat"] == s)
                    for s in range(len(models))] == record["totals"]


def test_the_text_trace_and_its_refusals(run: Any, tmp_path: Path) -> None:
    result = run("balance", "-n", "20", *ARGS, "--trace", "4")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("game 4 (seed 3): 2 players (1:B1, 2:C2)")
    assert len(lines) == 2 + 10 + 1 and lines[-1].startswith("result: seat 1 ")
    assert all(len(line) <= 100 for line in lines)
    last = _trace(run, 4)[-1]
    assert f"seat 1 {last['totals'][0]}, seat 2 {last['totals'][1]}" in lines[-1]
    for args, message in (
            (["--trace", "20"], "--trace: game 20 is not in a batch of 20 games (-n): 0 to 19"),
            (["--trace", "-1"], "--trace"),
            (["--trace", "x"], "--trace"),
            (["--trace", "1", "--sweep", "turns=2,3"], "--trace replays one game of one batch: "
                                                      "not with --sweep"),
            (["--trace", "1", "--report", str(tmp_path / "r.html")], "not with --report"),
            (["--trace", "1", "--round-robin"], "not with --round-robin")):
        result = run("balance", "-n", "20", *ARGS, *args)
        assert result.exit_code == 2 and message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.html").exists()


def test_the_trace_schemas_power_ups_are_the_engines() -> None:
    from wordforge_cli.wordforge.balance import POWERUPS

    turn = schemas.load("balance")["$defs"]["trace_turn"]["properties"]
    assert turn["powerup"]["enum"] == [*POWERUPS, None]
