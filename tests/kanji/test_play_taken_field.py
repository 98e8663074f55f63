"""A move's ``taken`` is the kanji nobody held that it took (the article's 取る: at least one,
what makes it legal) and ``stolen`` the kanji it took from the opponent (奪う), never both:
the records ``wfkit kanji play --json`` writes, and the kanji-play schema says so."""

from __future__ import annotations

import json
from typing import Any

from conftest import EXAMPLES

from wordforge_cli import schemas

POOL = EXAMPLES / "weather-pool.jsonl"


def test_the_schema_says_what_a_move_record_holds() -> None:
    fields = schemas.load("kanji-play")["$defs"]["move"]["properties"]
    taken, stolen = fields["taken"]["description"], fields["stolen"]["description"]
    assert "nobody held" in taken and "stolen" in taken and "not here" in taken
    assert "free and stolen" not in taken and "Of them" not in stolen
    assert "opponent" in stolen and "never among taken" in stolen


def test_taken_is_the_free_kanji_and_stolen_the_opponents(run: Any) -> None:
    seen_steal = False
    for seed, players in (("1", ()), ("2", ("--player", "lookahead", "--player", "greedy")),
                          ("3", ("--limit", "0"))):
        result = run("kanji", "play", "--pool", POOL, "--seed", seed, *players, "--json")
        assert result.exit_code == 0, result.stderr
        held: dict[str, set[str]] = {"A": set(), "B": set()}
        for line in map(json.loads, result.stdout.splitlines()):
            if "move" not in line:
                continue
            me, other = line["player"], "B" if line["player"] == "A" else "A"
            word = list(dict.fromkeys(line["word"]))
            free = [k for k in word if k not in held["A"] | held["B"]]
            theirs = [k for k in word if k in held[other]]
            assert free and line["taken"] == "".join(free)  # in the word's order
            assert line["stolen"] == "".join(theirs)
            assert not set(line["taken"]) & set(line["stolen"])
            seen_steal |= bool(theirs)
            held[me] |= set(word)
            held[other] -= set(word)
            assert line["scores"] == [len(held["A"]), len(held["B"])]
    assert seen_steal  # the games stole kanji: the two fields were both exercised
