"""A pool of every kanji the bundled dictionary has (2,806: greedy players took 38 s on it
with no move limit) is refused by its counted cost before the game, in one line, and plays
under the default move limit; each within seconds.
"""

from __future__ import annotations

import json
import time

import pytest
from test_hostile_bounds import common_kanji


@pytest.fixture(scope="module")
def whole_pool(tmp_path_factory):
    kanji = common_kanji(10_000)
    assert len(kanji) == 2806  # every kanji of the bundled dictionary
    path = tmp_path_factory.mktemp("pool") / "all.jsonl"
    path.write_text(json.dumps({"id": 0, "kanji": kanji, "words": []}, ensure_ascii=False)
                    + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("players", [("greedy", "greedy"), ("greedy", "lookahead")])
def test_the_whole_dictionary_as_a_pool_is_refused_by_its_counted_cost(run, whole_pool,
                                                                       players):
    args = [a for p in players for a in ("--player", p)]
    started = time.process_time()
    result = run("kanji", "play", "--pool", whole_pool, "--limit", "0", *args, "--seed", "1")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "2,806 kanji" in result.stderr
    assert "word looks; at most 4,000,000" in result.stderr
    assert time.process_time() - started < 20


def test_the_whole_dictionary_as_a_pool_plays_under_the_move_limit(run, whole_pool):
    started = time.process_time()
    result = run("kanji", "play", "--pool", whole_pool, "--player", "greedy", "--player",
                 "greedy", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    assert "end (move limit)" in result.stdout
    assert time.process_time() - started < 20
