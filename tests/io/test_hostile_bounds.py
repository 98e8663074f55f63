"""Bounded work on any input: a crafted pools file, an oversized record in a pack, a
vocabulary of millions of entries, tile counts of a billion. Each is refused up front with
its reason (a count, never a clock), or finishes under a counted cap.
"""

from __future__ import annotations

import json
import random
import shutil

import pytest
from conftest import EXAMPLES

from wordforge_cli.kanji import territory


def common_kanji(count: int) -> list[str]:
    """The ``count`` commonest kanji of the bundled dictionary (words are sorted by use)."""
    from wordforge_cli.kanji.dictionary import load_dictionary

    seen: dict[str, None] = {}
    for word in load_dictionary(None).words:
        for ch in word:
            if "\u4e00" <= ch <= "\u9fff":
                seen.setdefault(ch)
        if len(seen) >= count:
            break
    return list(seen)[:count]


@pytest.fixture(scope="module")
def crafted_pool(tmp_path_factory):
    path = tmp_path_factory.mktemp("pools") / "pools.jsonl"
    path.write_text(json.dumps({"id": 0, "kanji": common_kanji(1000), "words": []},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("limit", "players"), [
    ("0", ("lookahead", "lookahead")), ("10000", ("lookahead", "lookahead")),
    ("0", ("greedy", "greedy")), ("30", ("lookahead", "greedy")),
])
def test_a_crafted_1000_kanji_pool_is_refused_by_its_counted_cost(run, crafted_pool, limit,
                                                                  players):
    args = [a for p in players for a in ("--player", p)]
    result = run("kanji", "play", "--pool", crafted_pool, "--limit", limit, *args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "word looks; at most" in result.stderr


def test_the_cost_bound_holds_every_game_it_lets_through():
    """Property: for boards of random size and players, a game's counted looks never exceed
    ``game_cost`` (the bound the refusal uses)."""
    from wordforge_cli.kanji.dictionary import load_dictionary

    dictionary = load_dictionary(None)
    rng = random.Random(5)
    for _ in range(12):
        kanji = common_kanji(rng.randrange(5, 120))
        board = territory.make_board(dictionary, kanji, [])
        pair = (territory.parse_player(rng.choice(["greedy", "lookahead"])),
                territory.parse_player(rng.choice(["greedy", "lookahead"])))
        limit = rng.choice([None, 5, 30])
        looks = [0]
        real = territory.Index.choose

        def counted(index, state, p, player, rng, _real=real, looks=looks):
            # what a choice may look at: the mover's known words, and for a lookahead the
            # opponent's for each of its ``width`` options
            looks[0] += len(index.players[p].known)
            if player.kind == "lookahead":
                looks[0] += player.width * len(index.players[1 - p].known)
            return _real(index, state, p, player, rng)

        territory.Index.choose = counted
        try:
            territory.play_game(board, pair, random.Random(1), limit=limit)
        finally:
            territory.Index.choose = real
        assert 0 < looks[0] <= territory.game_cost(board, pair, limit=limit)


def test_the_example_pool_plays_as_before(run):
    result = run("kanji", "play", "--pool", EXAMPLES / "weather-pool.jsonl", "--id", "0",
                 "--player", "lookahead", "--player", "lookahead", "--limit", "0",
                 "--seed", "1")
    assert result.exit_code == 0, result.stderr


# --- memory: records, vocabularies, tiles ---------------------------------------------------

@pytest.fixture(scope="module")
def board_pack(tmp_path_factory):
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("boards")
    shutil.copy(EXAMPLES / "tech.yaml", tmp / "tech.yaml")
    (tmp / "pack.yaml").write_text("seed: 3\nsections:\n  - name: boards\n    kind: crossword\n"
                                   "    count: 2\n    vocab: tech.yaml\n")
    result = CliRunner().invoke(cli, ["pack", "build", str(tmp / "pack.yaml"), "--out",
                                      str(tmp / "pack")])
    assert result.exit_code == 0, result.output
    return tmp / "pack"


@pytest.mark.parametrize("change", ["answer", "cells", "nested"])
def test_an_oversized_record_in_a_preview_is_refused_with_its_reason(tmp_path, run,
                                                                      board_pack, change):
    pack = tmp_path / "pack"
    shutil.copytree(board_pack, pack)
    path = pack / "boards.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    if change == "answer":
        records[0]["answer"] = "a" * 1_040_000
        needle = "a text of 1,040,000 characters"
    elif change == "cells":
        records[0]["cells"] = (records[0]["cells"] * 10_001)[:10_001]
        needle = "entries; at most 10,000"
    else:
        records[0]["words"][0]["extra"] = {"deep": ["x" * 5000]}
        needle = "a text of 5,000 characters"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    result = run("pack", "preview", pack, "-o", tmp_path / "p.html", "--items", "1")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and needle in result.stderr
    assert f"{path}:1:" in result.stderr
    assert not (tmp_path / "p.html").exists()


@pytest.mark.parametrize(("suffix", "body"), [
    (".yaml", "words:\n" + "- cat\n" * 2_000_001),  # refused before it is parsed
    (".yaml", "words: [" + "cat, " * 2_000_001 + "cat]\n"),
    (".txt", "cat\n" * 1_000_001),  # counted once read
])
def test_a_vocabulary_of_too_many_entries_is_refused(tmp_path, run, suffix, body):
    path = tmp_path / f"huge{suffix}"
    path.write_text(body)
    result = run("rarity", "--vocab", path)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "at most 1,000,000 words" in result.stderr
