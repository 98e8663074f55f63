"""Core tests of the crossword engine: normalisation, requests, boards, the article's example."""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES, lexicon_from_words
from hypothesis import given
from hypothesis import strategies as st

from wordforge_cli.core.errors import ConfigError, UsageError
from wordforge_cli.crossword.blanks import STYLES, blank
from wordforge_cli.crossword.board import Request, check_request, make_board
from wordforge_cli.crossword.check import check_record
from wordforge_cli.crossword.lexicon import normalise, prepare
from wordforge_cli.crossword.records import record
from wordforge_cli.io.vocab import read_vocab

# The article's printed board (answer ベクトル), ■ answer cell, □ crossing, ・ no cell.
ARTICLE_PICTURE = """\
・・・・デ・・
・・・・ー・・
・・・・タ・・
・・・・■・・
・・・・ー・・
メトリ■□・・
・・・・ク・・
・・・・リ・・
・・・・プ・・
・・プロ■コ■"""
ARTICLE_WORDS = [("データベース", 4, 0, "down"), ("メトリクス", 0, 5, "across"),
                 ("スクリプト", 4, 5, "down"), ("プロトコル", 2, 9, "across")]


def article_record() -> dict:
    """The article's board as a record, built from its picture and its explanation."""
    rows = ARTICLE_PICTURE.splitlines()
    spelled = {}
    for word, x, y, d in ARTICLE_WORDS:
        for k, ch in enumerate(word):
            spelled[(x + k, y) if d == "across" else (x, y + k)] = ch
    answer = "ベクトル"
    answer_cells = {(4, 3): 0, (3, 5): 1, (4, 9): 2, (6, 9): 3}
    cells = []
    for y, row in enumerate(rows):
        for x, mark in enumerate(row):
            if mark == "・":
                assert (x, y) not in spelled
                continue
            ch = spelled[(x, y)]
            if mark == "■":
                n = answer_cells[(x, y)]
            elif mark == "□":
                n = -1
            else:
                assert mark == ch
                n = -2
            cells.append({"x": x, "y": y, "c": ch, "n": n})
    return {"id": 0, "seed": 0, "answer": answer, "spelling": answer, "w": len(rows[0]),
            "h": len(rows),
            "words": [{"word": w, "spelling": w, "x": x, "y": y, "dir": d}
                      for w, x, y, d in ARTICLE_WORDS],
            "cells": cells, "inputs": [c for c in cells if c["n"] != -2], "style": "none",
            "label": "そのまま", "blanked": 0, "attempts": 1, "redraws": 0, "fallback": False}


@pytest.fixture(scope="module")
def tech():
    return prepare(read_vocab(EXAMPLES / "tech.yaml"))


def test_article_board_is_valid_loose(tech):
    rec = article_record()
    assert len(rec["inputs"]) == 5  # the article prints 入力マス: 5
    assert check_record(rec, set(tech.words), min_len=4, max_len=5, layout="loose") == []


def test_article_board_is_not_strict(tech):
    errors = check_record(article_record(), set(tech.words), layout="strict")
    assert any("run of 10 cells down" in e for e in errors), errors


def test_checker_catches_broken_boards(tech):
    rec = article_record()
    rec["cells"][0]["c"] = "ア"
    assert check_record(rec, set(tech.words))
    rec = article_record()
    rec["words"][2]["dir"] = "across"
    assert check_record(rec, set(tech.words))
    rec = article_record()
    rec["style"] = "head"  # head would have blanked デ, プ, メ
    assert any("should blank" in e for e in check_record(rec, set(tech.words)))


def test_article_board_is_a_tail_blank_failure():
    # every run of the article's board ends in an answer or crossing cell: tail hides nothing
    rec = article_record()
    cells = [(c["x"], c["y"], c["c"], c["n"]) for c in rec["cells"]]
    assert blank(cells, "tail")[1] == 0
    types, count = blank(cells, "head")
    assert count == 3
    hidden = sorted(c[2] for c, n in zip(cells, types, strict=True) if n != c[3])
    assert hidden == sorted("デメプ")


def test_normalisation():
    assert normalise("べくとる", "ja") == "ベクトル"
    assert normalise("キャッシュ", "ja") == "キヤツシユ"
    assert normalise("キャッシュ", "ja", fold_small=False) == "キャッシュ"
    assert normalise("ｶｰﾈﾙ", "ja") == "カーネル"  # NFKC: half-width to full-width
    assert normalise("Zebra", "en") == "zebra"
    for bad in ("two words", "r2d2", "c++"):
        with pytest.raises(ValueError):
            normalise(bad, "en")


def test_prepare_reports_bad_word_with_line(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("name: v\nlanguage: en\nwords:\n  - cat\n  - dog\n  - ice cream\n",
                    encoding="utf-8")
    lex = prepare(read_vocab(path))
    assert lex.words == ("cat", "dog")
    assert [(s.line, s.word) for s in lex.skipped] == [(6, "ice cream")]
    assert "space" in lex.skipped[0].reason
    with pytest.raises(ConfigError) as info:
        prepare(read_vocab(path), strict=True)
    assert info.value.line == 6 and "ice cream" in info.value.message


def test_prepare_drops_duplicates(tmp_path):
    path = tmp_path / "v.yaml"
    path.write_text("language: ja\nwords: [キャッシュ, きやつしゆ, メモリ]\n", encoding="utf-8")
    lex = prepare(read_vocab(path))
    assert lex.words == ("キヤツシユ", "メモリ")
    assert [(d.word, d.first_line) for d in lex.duplicates] == [("きやつしゆ", 2)]


@pytest.mark.parametrize(("lo", "hi", "why"), [
    (5, 4, "min length 5 > max length 4"),
    (9, 10, "no word of 9-10 letters"),
])
def test_impossible_requests_answered_at_once(tech, lo, hi, why):
    with pytest.raises(UsageError) as info:
        check_request(tech, Request(lo, hi))
    assert why in info.value.message


def test_uncoverable_answer_is_impossible():
    # every letter of "abc" must sit in another distinct word; only "ax" holds a or b
    lex = lexicon_from_words(["abc", "ax", "cz"], "en")
    with pytest.raises(UsageError, match="another distinct word"):
        check_request(lex, Request(3, 3))


def test_unchainable_answer_is_impossible(tech):
    # a, b, c each have a word, but "by" shares no letter with "ax": no chain can cross
    lex = lexicon_from_words(["abc", "ax", "by", "cz"], "en")
    with pytest.raises(UsageError, match="crossing the word before it"):
        check_request(lex, Request(3, 3))
    # in the article's words, プロセス can never be an answer: セ is only in セツシヨン, which
    # shares no letter with any word holding ロ
    from wordforge_cli.crossword.board import candidates

    assert "プロセス" not in {tech.words[i] for i in candidates(tech, 4, 5)}
    assert "プロトコル" in {tech.words[i] for i in candidates(tech, 4, 5)}


def test_budget_runs_out_gives_none():
    # "abc" passes the instant check (a, b, c each sit in another word) but no chain fits:
    # xa, xb, xc can only cross at x, so xc lands on xa's cells with a different letter
    lex = lexicon_from_words(["abc", "xa", "xb", "xc"], "en")
    assert check_request(lex, Request(3, 3))
    assert make_board(lex, Request(3, 3, budget=50), random.Random(1)) is None


def test_same_seed_same_board(tech):
    req = Request(4, 5, style="tail")
    a = record(make_board(tech, req, random.Random(7)), 0, 7)
    b = record(make_board(tech, req, random.Random(7)), 0, 7)
    assert a == b


def test_blank_only_touches_givens(tech):
    board = make_board(tech, Request(4, 5), random.Random(3))
    for style in STYLES:
        types, count = blank(board.cells, style)
        changed = [(old, new) for (_x, _y, _c, old), new in zip(board.cells, types, strict=True)
                   if old != new]
        assert all(old == -2 and new == -1 for old, new in changed)
        assert len(changed) == count


def test_text_render_reproduces_the_article_picture():
    from wordforge_cli.render.crossword import board_text

    text = board_text(article_record())
    assert ARTICLE_PICTURE in text
    assert "answer cells: 1:ベ(4,3) 2:ク(3,5) 3:ト(4,9) 4:ル(6,9)" in text


def test_ipuz_of_the_article_board_validates():
    import json

    import ipuz

    from wordforge_cli.render.ipuz import board_ipuz

    doc = ipuz.read(json.dumps(board_ipuz(article_record()), ensure_ascii=False))
    assert doc["answer"] == "ベクトル"
    assert doc["dimensions"] == {"width": 7, "height": 10}
    assert doc["puzzle"][0][4] == {"cell": 1, "value": "デ"}
    assert doc["puzzle"][3][4] == {"cell": 0, "style": {"shapebg": "circle"}}
    assert doc["solution"][5][:5] == list("メトリクス")


@given(st.text(alphabet="あいうかきくさしすたちつてとなにぬゃゅょっァィゥー", min_size=1,
               max_size=8))
def test_japanese_normalisation_is_idempotent(word):
    once = normalise(word, "ja")
    assert normalise(once, "ja") == once
    assert all("ァ" <= c <= "ヺ" or c == "ー" for c in once)
    assert not set(once) & set("ァィゥェォッャュョヮ")


def test_count_fillings_sees_ambiguity():
    from wordforge_cli.crossword.unique import count_fillings

    lex = lexicon_from_words(["ab", "bc", "ad", "dc", "zz"], "en")
    words = [("ab", 0, 0, "down"), ("bc", 0, 1, "across")]
    hidden = [(0, 0, "a", -2), (0, 1, "b", -1), (1, 1, "c", -2)]
    assert count_fillings(lex, words, hidden) == 2  # ab+bc and ad+dc both fit a_ / _c
    shown = [(0, 0, "a", -2), (0, 1, "b", -2), (1, 1, "c", -1)]
    assert count_fillings(lex, words, shown) == 1
    assert count_fillings(lex, words, [(0, 0, "z", -2), (0, 1, "b", -1), (1, 1, "c", -1)]) == 0


def test_big_vocabulary_path_gives_valid_boards(monkeypatch):
    # past EAGER_WORDS positions are computed on demand, past PARTNER_CACHE_WORDS nothing is
    # cached: force both paths on a small vocabulary and check the boards
    import wordforge_cli.crossword.board as board_module
    import wordforge_cli.crossword.lexicon as lexicon_module

    monkeypatch.setattr(lexicon_module, "EAGER_WORDS", 10)
    monkeypatch.setattr(board_module, "PARTNER_CACHE_WORDS", 10)
    lex = prepare(read_vocab(EXAMPLES / "animals-en.yaml"))
    assert isinstance(lex.positions, lexicon_module.LazyPositions)
    assert lex.positions[0] == {"c": (0,), "a": (1,), "t": (2,)}
    assert lex.index["cat"] == 0
    for seed in range(40):
        for layout in ("loose", "strict"):
            board = make_board(lex, Request(4, 6, "tail", layout), random.Random(seed))
            assert board is not None
            assert check_record(record(board, 0, seed), set(lex.words), min_len=4, max_len=6,
                                layout=layout) == []
    # nothing per word pair was kept (the attempt tables of every size limit included)
    assert not lex.partners and lex.cache.tables
    for t in lex.cache.tables.values():
        assert not t.pairs and not t.ents_down and not t.ents_across


def test_kept_layouts_give_the_boards_made_afresh(monkeypatch):
    # a repeated layout is copied from the kept boards: it must be the board _finish makes
    # (3-3 from tech.yaml repeats layouts within a few hundred boards)
    from wordforge_cli.crossword import board as core

    def boards(keep: int) -> tuple[list[dict], int]:
        monkeypatch.setattr(core, "MEMO_BOARDS", keep)
        lex = prepare(read_vocab(EXAMPLES / "tech.yaml"))
        out = []
        for seed in range(400):
            for req in (Request(3, 3), Request(3, 4, layout="strict", style="alt")):
                out.append(record(make_board(lex, req, random.Random(seed)), seed, seed))
        return out, len(lex.cache.boards)

    kept, stored = boards(core.MEMO_BOARDS)
    fresh, none = boards(0)
    assert 0 < stored < 800 and none == 0  # layouts did repeat, and were served from the memo
    assert kept == fresh


def test_a_decks_deal_is_its_cards() -> None:
    """``Deck.deal`` (how the parent knows each board's answer, to give it to the worker of
    that answer) is the cards one by one, across rounds and from any place."""
    from wordforge_cli.crossword.sets import Deck

    for start, stop in [(0, 100), (5, 6), (32, 34), (7, 7), (1000, 3077), (40, 2000)]:
        dealt = Deck(tuple(range(3, 36)), 5, ("crossword",)).deal(start, stop)
        one = Deck(tuple(range(3, 36)), 5, ("crossword",))
        assert dealt == [one.card(i) for i in range(start, stop)]
