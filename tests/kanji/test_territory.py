"""Kanji territory: the article's rules on small dictionaries built here, self-play, the CLI."""

from __future__ import annotations

import json
import random

import pytest
from conftest import schema_registry
from hypothesis import given, settings
from hypothesis import strategies as st
from territory_reference import choose

from wordforge_cli.kanji import build_dictionary, check_answer
from wordforge_cli.kanji.territory import (
    Player,
    State,
    legal,
    make_board,
    parse_player,
    play_game,
    play_move,
    self_play,
)

WORDS = [("熱帯", 3.5), ("気圧", 3.9), ("熱帯低気圧", 2.0), ("低気圧", 3.0), ("高気圧", 3.0),
         ("気温", 4.0), ("高温", 3.2), ("低温", 3.1), ("温帯", 2.5), ("帯電", 1.0)]


def _dictionary(words=WORDS):
    return build_dictionary([(w, z, n) for n, (w, z) in enumerate(words, start=1)], {})


DICT = _dictionary()
KANJI = list("熱帯低気圧高温")


def test_article_example_minus_four_to_plus_five():
    """A holds 熱帯 and 気圧; B answers 熱帯低気圧: B's margin goes from -4 to +5."""
    board = make_board(DICT, KANJI, ["熱帯", "気圧"])
    state = State()
    word = board.words.index
    play_move(board, state, 0, word("熱帯"))
    play_move(board, state, 0, word("気圧"))
    assert state.margin(1) == -4
    move = play_move(board, state, 1, word("熱帯低気圧"))
    assert state.margin(1) == 5 and state.score(1) == 5 and state.score(0) == 0
    assert move.taken == "低" and sorted(move.stolen) == sorted("熱帯気圧")
    assert move.hidden and move.scores == (0, 5)


def test_a_word_with_no_free_kanji_is_refused():
    board = make_board(DICT, KANJI)
    state = State()
    play_move(board, state, 0, board.words.index("熱帯低気圧"))
    assert not legal(board, state, board.words.index("低気圧"))
    with pytest.raises(ValueError):
        play_move(board, state, 1, board.words.index("気圧"))


def test_board_words_are_the_dictionary_words_of_board_kanji():
    board = make_board(DICT, KANJI)
    assert set(board.words) == {w for w, _ in WORDS if set(w) <= set(KANJI)}
    assert "帯電" not in board.words  # 電 is not on the board


@settings(max_examples=80)
@given(data=st.data())
def test_legal_moves_are_what_kanji_check_allows(data):
    board = make_board(DICT, KANJI)
    held = data.draw(st.lists(st.sampled_from(KANJI), unique=True))
    state = State([board.bits(held), 0])
    for i, w in enumerate(board.words):
        assert legal(board, state, i) == check_answer(w, KANJI, DICT, held).ok


def test_greedy_takes_the_biggest_swing():
    board = make_board(DICT, KANJI)
    state = State()
    play_move(board, state, 0, board.words.index("熱帯"))
    play_move(board, state, 0, board.words.index("気圧"))
    pick = choose(board, state, 1, Player(), range(len(board.words)), random.Random(1))
    assert board.words[pick] == "熱帯低気圧"


def test_lookahead_avoids_setting_up_the_reply():
    # the first player does not know 熱帯低気圧; the opponent does. 低気圧 gains 3 now but
    # lets the reply 熱帯低気圧 steal all three (net -5); 高温 gains 2 (reply +5 free: net -3)
    words = [("低気圧", 3.0), ("熱帯低気圧", 2.0), ("高温", 3.0)]
    board = make_board(_dictionary(words), list("熱帯低気圧高温"))
    mine = [board.words.index("低気圧"), board.words.index("高温")]
    theirs = range(len(board.words))
    state = State()
    greedy = choose(board, state, 0, Player(), mine, random.Random(1), theirs)
    look = choose(board, state, 0, Player("lookahead"), mine, random.Random(1), theirs)
    assert board.words[greedy] == "低気圧"
    assert board.words[look] == "高温"


def test_players_who_know_only_common_words():
    board = make_board(DICT, KANJI, ["熱帯", "気圧"])
    shown_only = board.known(Player(min_zipf=99))
    assert {board.words[i] for i in shown_only} == {"熱帯", "気圧"}
    frequent = {board.words[i] for i in board.known(Player(min_zipf=3.1))}
    assert frequent == {"熱帯", "気圧", "気温", "高温", "低温"}
    assert parse_player("greedy@3.1") == Player("greedy", 3.1)
    assert parse_player("lookahead").kind == "lookahead"
    for bad in ("smart", "greedy@x"):
        with pytest.raises(ValueError):
            parse_player(bad)


def test_game_ends_when_no_legal_move_is_left_and_scores_are_kanji_held():
    board = make_board(DICT, KANJI)
    game = play_game(board, (Player(), Player()), random.Random(3), limit=None)
    assert game.ended == "no known move"
    held = set()
    for move in game.moves:
        held |= set(move.taken)
    assert sum(game.scores) == len(held)
    state = State([board.bits(held), 0])
    assert not any(legal(board, state, i) for i in range(len(board.words)))


def test_move_limit():
    board = make_board(DICT, KANJI)
    game = play_game(board, (Player(), Player()), random.Random(3), limit=1)
    assert len(game.moves) == 1 and game.ended == "move limit"


def test_self_play_is_seeded_and_counts_add_up():
    board = make_board(DICT, KANJI, ["熱帯", "気圧"])
    a = self_play(board, (Player(), Player()), random.Random(7), 6)
    b = self_play(board, (Player(), Player()), random.Random(7), 6)
    assert a == b
    assert a.first_wins + a.second_wins + a.draws == 6
    assert 0 <= a.first_win_rate <= 1 and a.kanji == len(KANJI)


# ---- the command -------------------------------------------------------------------------------

@pytest.fixture
def pool(tmp_path):
    dict_path = tmp_path / "mini.tsv"
    dict_path.write_text("".join(f"{w}\t{z}\n" for w, z in WORDS), encoding="utf-8")
    pool_path = tmp_path / "pools.jsonl"
    pool_path.write_text(json.dumps({"id": 3, "kanji": KANJI, "words": ["熱帯", "気圧"]},
                                    ensure_ascii=False) + "\n", encoding="utf-8")
    return pool_path, dict_path


def test_play_prints_the_game_move_by_move(run, pool):
    pool_path, dict_path = pool
    args = ("kanji", "play", "--pool", pool_path, "--id", "3", "--dict", dict_path,
            "--seed", "1")
    text = run(*args)
    assert text.exit_code == 0, text.stderr
    assert "熱帯低気圧" in text.stdout or "move 1" in text.stdout
    result = run(*args, "--json")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    *turns, end = lines
    moves = [m for m in turns if "move" in m]
    passes = [m for m in turns if m.get("pass")]
    # a game that ends with no known move ends on two passes in a row, both in the log
    if end["ended"] == "no known move":
        assert len(passes) >= 2 and turns[-1].get("pass") and turns[-2].get("pass")
        assert turns[-1]["player"] != turns[-2]["player"]
    taken = set("".join(m["taken"] for m in moves))
    assert sum(end["scores"]) == len(taken) and moves[-1]["scores"] == end["scores"]
    assert [m["move"] for m in moves] == list(range(1, len(moves) + 1))
    assert end["winner"] in ("A", "B", None) and end["ended"] in ("no known move", "move limit")
    assert run(*args, "--json").stdout == result.stdout
    bad = run("kanji", "play", "--pool", pool_path, "--id", "3", "--dict", dict_path,
              "--player", "clever")
    assert bad.exit_code == 2


def _mini_dict(tmp_path):
    words = WORDS + [("電気", 4.5), ("電圧", 3.6), ("高熱", 3.0), ("温度", 4.2), ("高度", 4.0),
                     ("低度", 1.5), ("熱気", 3.1), ("電熱", 2.0)]
    path = tmp_path / "mini.tsv"
    path.write_text("".join(f"{w}\t{z}\n" for w, z in words), encoding="utf-8")
    return path


def test_self_play_and_balanced_batches(run, tmp_path):
    d = _mini_dict(tmp_path)
    common = ("kanji", "-n", "6", "--base", "1", "--bring", "3", "--dict", d, "--seed", "2",
              "--games", "4")
    plain = run(*common)
    played = run(*common, "--self-play", "--stats", tmp_path / "s.json")
    assert played.exit_code == 0, played.stderr
    pools = [json.loads(line) for line in played.stdout.splitlines()]
    unplayed = [json.loads(line) for line in plain.stdout.splitlines()]
    assert [{k: v for k, v in p.items() if k != "balance"} for p in pools] == unplayed
    for p in pools:
        b = p["balance"]
        assert b["games"] == 4 and b["first_wins"] + b["second_wins"] + b["draws"] == 4
        assert b["redraws"] == 0
    stats = json.loads((tmp_path / "s.json").read_text())["stats"]["balance"]
    assert stats["pools"] == 6 and stats["rejected"] == 0
    fair = run(*common, "--balanced", "--band", "0", "--balance-attempts", "200",
               "--stats", tmp_path / "b.json")
    assert fair.exit_code == 0, fair.stderr
    kept = [json.loads(line) for line in fair.stdout.splitlines()]
    assert len(kept) == 6 and all(p["balance"]["advantage"] == 0 for p in kept)
    stats = json.loads((tmp_path / "b.json").read_text())["stats"]["balance"]
    redraws = sum(p["balance"]["redraws"] for p in kept)
    assert stats["rejected"] == redraws == sum(stats["rejected_by_reason"].values())
    assert run(*common, "--balanced", "--band", "0", "--balance-attempts", "200").stdout \
        == fair.stdout
    assert run(*common, "--self-play", "--player", "smart").exit_code == 2


def test_self_play_records_and_stats_match_their_schemas(run, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from wordforge_cli import schemas

    d = _mini_dict(tmp_path)
    stats = tmp_path / "s.json"
    out = run("kanji", "-n", "4", "--base", "1", "--bring", "3", "--dict", d, "--seed", "2",
              "--balanced", "--band", "0.2", "--stats", stats)
    assert out.exit_code == 0, out.stderr
    for name, records in (("kanji-pool", [json.loads(x) for x in out.stdout.splitlines()]),
                          ("kanji-stats", [json.loads(stats.read_text())["stats"]])):
        check = jsonschema.Draft202012Validator(schemas.load(name),
                                                registry=schema_registry())
        for record in records:
            assert not list(check.iter_errors(record)), name
