"""A pack balance section's per-game records have a schema (``balance-game``) written from the
one table of their fields (``wordforge.balance.GAME_FIELDS``): the shipped file is the table's,
real records of a built pack validate against it field by field and in order, and a record
that loses, gains or retypes a field does not.

``python -m tests.pack.test_balance_game_schema`` writes the schema from the table (after a
table edit)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # a test extra

from wordforge_cli import schemas
from wordforge_cli.wordforge.balance import GAME_FIELDS, game_record

NAME = "balance-game"


def table_schema() -> dict[str, Any]:
    """The schema of a game's record, as the table says."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{schemas.BASE_URI}{NAME}.json",
        "title": "wfkit pack balance game",
        "description": "One game of a pack's balance section (a line of its JSON Lines file), "
                       "fields in this order.",
        "type": "object",
        "properties": {f.name: {**f.schema, "description": f.description} for f in GAME_FIELDS},
        "required": [f.name for f in GAME_FIELDS],
        "additionalProperties": False,
    }


def test_the_shipped_schema_is_the_tables():
    """Regenerate with ``python -m tests.pack.test_balance_game_schema`` when the table
    changed."""
    assert schemas.load(NAME) == table_schema()


def test_real_records_of_a_built_pack_validate(run, tmp_path):
    config = tmp_path / "pack.yaml"
    config.write_text("name: games\nseed: 7\nsections:\n"
                      "  - {name: three, kind: balance, count: 12, turns: 3,\n"
                      "     players: [B1, 'zipf:3.5', all]}\n"
                      "  - {name: two, kind: balance, count: 6, turns: 2}\n", encoding="utf-8")
    result = run("pack", "build", config, "--out", tmp_path / "pack")
    assert result.exit_code == 0, result.stderr
    check = jsonschema.Draft202012Validator(schemas.load(NAME))
    for name, seats in (("three", ["B1", "zipf:3.5", "all"]), ("two", ["all", "all"])):
        lines = (tmp_path / "pack" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == {"three": 12, "two": 6}[name]
        for g, line in enumerate(lines):
            record = json.loads(line)
            check.validate(record)
            assert list(record) == [f.name for f in GAME_FIELDS]
            assert record["game"] == g and record["players"] == seats
            assert len(record["totals"]) == len(seats)
            best = max(record["totals"])
            leaders = [s + 1 for s, total in enumerate(record["totals"]) if total == best]
            assert record["winner"] == (leaders[0] if len(leaders) == 1 else None)
            assert record == game_record(g, seats, record["totals"])


def test_a_draw_and_a_changed_record_against_the_schema():
    check = jsonschema.Draft202012Validator(schemas.load(NAME))
    draw = game_record(3, ["A1", "zipf:2"], [40, 40])
    assert draw["winner"] is None and check.is_valid(draw)
    won = game_record(0, ["C2", "all", "zipf:1e+10"], [9, 12, 3])
    assert won["winner"] == 2 and check.is_valid(won)
    for bad in ({**won, "surprise": 1}, {k: v for k, v in won.items() if k != "winner"},
                {**won, "winner": 0}, {**won, "totals": [9, -1, 3]},
                {**won, "players": ["expert"]}, {**won, "game": "0"}):
        assert not check.is_valid(bad), bad


if __name__ == "__main__":
    path = schemas.SCHEMA_DIR / f"{NAME}.json"
    text = json.dumps(table_schema(), indent=2, ensure_ascii=False) + "\n"
    changed = not path.exists() or path.read_text(encoding="utf-8") != text
    if changed:
        path.write_text(text, encoding="utf-8")
    print(f"{NAME}: {'written' if changed else 'already current'}")
