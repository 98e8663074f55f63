"""ipuz exports are consistent: thousands of boards of both layouts, both vocabularies and
every style, and boards of random vocabularies, each read by the ``ipuz`` package and checked
run against entry by ``check_ipuz`` (``ipuz_check.py``: written apart from the render)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hypothesis
import ipuz
import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from ipuz_check import check_ipuz
from random_vocabularies import vocabularies, write_vocabulary

from wordforge_cli.crossword.blanks import STYLES
from wordforge_cli.crossword.board import LAYOUTS, Request
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.records import record
from wordforge_cli.crossword.sets import batch
from wordforge_cli.io.output import dumps
from wordforge_cli.io.vocab import read_vocab
from wordforge_cli.render.ipuz import board_ipuz

BOARDS = 600  # per (vocabulary, layout): 2,400 puzzles in all


@pytest.mark.parametrize("vocab", ["tech.yaml", "animals-en.yaml"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_ipuz_is_consistent(vocab, layout):
    lex = prepare(read_vocab(EXAMPLES / vocab))
    hints = {w: h for w, h in zip(lex.words, lex.hints, strict=True) if h}
    joined = 0
    for k, style in enumerate(STYLES):
        request = Request(3, 6, style, layout)
        for i, s, board in batch(lex, request, 40 + k, BOARDS // len(STYLES)):
            rec = record(board, i, s, lex)
            doc = board_ipuz(rec, hints=hints)
            ipuz.read(dumps(doc))  # raises on anything the ipuz package rejects
            assert check_ipuz(json.loads(dumps(doc)), rec) == [], (layout, rec)
            clues = [c[1] for d in ("Across", "Down") for c in doc["clues"][d]]
            joined += sum("joining" in c for c in clues)
            if vocab == "animals-en.yaml":
                assert doc["answer"] == rec["answer"].upper()
    if layout == "strict":
        assert joined == 0  # every run is one placed word
    else:
        assert joined > 0  # the loose layout joins runs; they are clued, not dropped


def test_the_readme_example_is_consistent_now():
    """The issue's example: puzzle #2 of animals -n 3 --seed 1 had runs co, mkangaroo, ly,
    tap and 5 clues for 8 runs."""
    lex = prepare(read_vocab(EXAMPLES / "animals-en.yaml"))
    hints = {w: h for w, h in zip(lex.words, lex.hints, strict=True) if h}
    for i, s, board in batch(lex, Request(4, 5), 1, 3):
        doc = board_ipuz(record(board, i, s, lex), hints=hints)
        assert check_ipuz(doc) == []


def test_check_ipuz_catches_a_missing_entry():
    lex = prepare(read_vocab(EXAMPLES / "animals-en.yaml"))
    _i, s, board = next(batch(lex, Request(4, 5, layout="strict"), 3, 1))
    doc = board_ipuz(record(board, 0, s, lex))
    doc["clues"]["Down"] = doc["clues"]["Down"][1:]
    assert any("Down clues are numbered" in e for e in check_ipuz(doc))
    doc = board_ipuz(record(board, 0, s, lex))
    doc["clues"]["Across"][0][1] = "(4)"
    assert any("no meaningful clue" in e for e in check_ipuz(doc))


def test_without_hints_the_clue_says_so():
    lex = prepare(read_vocab(EXAMPLES / "tech.yaml"))
    _i, s, board = next(batch(lex, Request(4, 5, layout="strict"), 3, 1))
    doc = board_ipuz(record(board, 0, s, lex), hints={})
    clues = [c[1] for d in ("Across", "Down") for c in doc["clues"][d]]
    assert clues and all(c.startswith("no hint in the vocabulary") for c in clues)


def test_the_layout_cache_gives_the_same_puzzles():
    lex = prepare(read_vocab(EXAMPLES / "tech.yaml"))
    cache: dict = {}
    for style in ("none", "tail"):
        for i, s, board in batch(lex, Request(3, 3, style), 8, 300):
            rec = record(board, i, s, lex)
            assert dumps(board_ipuz(rec, cache=cache)) == dumps(board_ipuz(rec))
    assert 0 < len(cache) < 600  # layouts repeat: the cache is used


def _cells(words):
    cells = {}
    for w in words:
        dx, dy = (1, 0) if w["dir"] == "across" else (0, 1)
        for k, c in enumerate(w["word"]):
            cells[(w["x"] + dx * k, w["y"] + dy * k)] = c
    return [{"x": x, "y": y, "c": c, "n": -1} for (x, y), c in sorted(cells.items())]


@pytest.mark.parametrize("short_first", [True, False])
def test_a_word_over_the_start_of_a_longer_one_is_clued_as_the_slow_path_does(short_first):
    """A run that is one placed word takes that word's hint by a shortcut; a shorter word
    laid over its start (placed before it) makes the run join both, and the shortcut must
    give the same clue as :func:`run_clue` (it once dropped the shorter word's hint)."""
    from wordforge_cli.crossword.check import grid_runs
    from wordforge_cli.render.ipuz import entries, run_clue

    short = {"word": "iaij", "x": 0, "y": 2, "dir": "across"}
    long_ = {"word": "iaijedcj", "x": 0, "y": 2, "dir": "across"}
    down = {"word": "xjy", "x": 3, "y": 1, "dir": "down"}
    words = [short, long_, down] if short_first else [long_, short, down]
    rec = {"words": words, "cells": _cells(words)}
    hints = {"iaij": "four", "iaijedcj": "eight", "xjy": "three"}
    found = grid_runs({(c["x"], c["y"]) for c in rec["cells"]})
    starts = sorted({(y, x) for x, y, _d, _n in found})  # standard numbers, row by row
    number = {(x, y): i + 1 for i, (y, x) in enumerate(starts)}
    keys = {run: number[(run[0], run[1])] for run in found}
    got = {(e.x, e.y, e.dir, e.length): e.clue for e in entries(rec, hints)}
    assert got == {run: run_clue(run, words, hints, keys) for run in found}
    clue = got[(0, 2, "across", 8)]
    assert ("four" in clue and "eight" in clue) if short_first else clue == "eight"


@pytest.mark.parametrize("vocab", ["tech.yaml", "animals-en.yaml"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_the_text_from_boards_is_the_documents_json(vocab, layout):
    """What ``wfkit crossword --render ipuz`` writes (``board_ipuz_line``, from the boards,
    one layout's text kept for all its boards) is the JSON of :func:`board_ipuz` of each
    board's record, byte for byte: every style, size limits, with and without hints, a
    cache shared by the whole run and boards met again."""
    from wordforge_cli.io.output import dumps_plain
    from wordforge_cli.render.ipuz import board_ipuz_line

    lex = prepare(read_vocab(EXAMPLES / vocab))
    hints = {w: h for w, h in zip(lex.words, lex.hints, strict=True) if h}
    for given in (hints, {}):
        cache: dict = {}
        for k, style in enumerate(STYLES):
            for limit in (None, 7):
                request = Request(3, 6, style, layout, max_width=limit, max_height=limit)
                for i, s, board in batch(lex, request, 60 + k, 150):
                    title = f"{lex.name} #{i}" if i % 4 else None
                    want = dumps_plain(board_ipuz(record(board, i, s, lex), hints=given,
                                                  title=title))
                    assert board_ipuz_line(board, i, s, hints=given, title=title,
                                           cache=cache) == want.encode()
        assert cache  # layouts repeat: their text was kept


def test_the_text_of_a_big_vocabularys_boards():
    """Boards with no layout key (a vocabulary too big to keep its layouts) are written
    whole, the same bytes; a board id that is a string is quoted."""
    from conftest import lexicon_from_words

    from wordforge_cli.io.output import dumps_plain
    from wordforge_cli.render.ipuz import board_ipuz_line

    words = [f"{a}{b}{c}{d}" for a in "abcdefgh" for b in "ijklmnop" for c in "abcdefgh"
             for d in "ijklmnop"][:3001]
    lex = lexicon_from_words(words, "en")
    cache: dict = {}
    for i, s, board in batch(lex, Request(4, 4, "alt"), 3, 40):
        assert board.key is None
        rec = record(board, f"day-{i}", s, lex)
        assert (board_ipuz_line(board, f"day-{i}", s, hints={}, title=None, cache=cache)
                == dumps_plain(board_ipuz(rec)).encode())
    assert not cache


@st.composite
def batches(draw: st.DrawFn) -> list[str]:
    low = draw(st.integers(3, 6))
    args = ["-n", str(draw(st.integers(20, 120))), "--min-len", str(low),
            "--max-len", str(low + draw(st.integers(0, 3))),
            "--style", draw(st.sampled_from(["none", "tail", "head", "alt", "most"])),
            "--layout", draw(st.sampled_from(["loose", "strict"])),
            "--seed", str(draw(st.integers(0, 2**63 - 1)))]
    if draw(st.booleans()):
        args += ["--max-width", str(draw(st.integers(5, 12)))]
    if draw(st.booleans()):
        args.append("--keep-small")
    return args


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@hypothesis.given(vocabulary=vocabularies(), args=batches())
def test_every_ipuz_of_a_random_vocabulary_agrees_with_its_board(
        run: Any, tmp_path: Path, vocabulary: tuple[str, list[Any]], args: list[str]) -> None:
    """The one-pass ipuz render (runs, numbers, joined runs' clues, a layout's text once)
    checked by ``check_ipuz``, written apart from it, and read by the ``ipuz``
    package, on vocabularies other than the two examples the byte oracle runs: every puzzle
    against the record of the same board (same seed and options, ``--render json``)."""
    vocab = write_vocabulary(tmp_path / "v.yaml", vocabulary)
    records = run("crossword", "--vocab", vocab, *args)
    puzzles = run("crossword", "--vocab", vocab, *args, "--render", "ipuz")
    assert records.exit_code == puzzles.exit_code
    recs = [json.loads(line) for line in records.stdout.splitlines()]
    docs = puzzles.stdout.splitlines()
    assert len(docs) == len(recs)
    for rec, text in zip(recs, docs, strict=True):
        doc = json.loads(text)
        ipuz.read(text)  # raises on anything the ipuz package rejects
        assert check_ipuz(doc, rec) == [], (rec["id"], rec["seed"])
