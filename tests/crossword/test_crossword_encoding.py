"""The fast paths of a crossword batch give the bytes and counts of the slow ones.

``record_json`` and ``board_ipuz_json`` encode a layout's shared part once; ``board_line``
writes a board's record without building it, from fragments kept per vocabulary;
``BatchStats.add`` tallies boards of a known layout and counts the layout in full later, with
the styles' bit masks (``masks`` and each style's ``hides``). Each is held equal to the plain
way (``dumps_plain`` of the whole record, stats fed record by record, ``blank`` style by
style).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lexicon_from_words
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli.crossword.blanks import BLANK_STYLES, STYLES, blank, masks
from wordforge_cli.crossword.board import Request
from wordforge_cli.crossword.lexicon import Lexicon, prepare
from wordforge_cli.crossword.records import board_line, record, record_json
from wordforge_cli.crossword.sets import batch
from wordforge_cli.crossword.stats import BatchStats
from wordforge_cli.io.output import dumps, dumps_plain
from wordforge_cli.io.vocab import read_vocab
from wordforge_cli.render.ipuz import board_ipuz, board_ipuz_json

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LEXICONS: dict[str, Lexicon] = {}


def lexicon(name: str) -> Lexicon:
    if name not in LEXICONS:
        LEXICONS[name] = prepare(read_vocab(EXAMPLES / name))
    return LEXICONS[name]


REQUESTS = st.builds(Request, st.sampled_from([3, 4]), st.sampled_from([4, 5, 6]),
                     st.sampled_from(["none", "tail", "head", "alt", "most"]),
                     st.sampled_from(["loose", "strict"]))


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(["tech.yaml", "animals-en.yaml"]), request=REQUESTS,
       seed=st.integers(0, 2**32))
def test_record_json_is_dumps_plain(name: str, request: Request, seed: int) -> None:
    lex = lexicon(name)
    for i, item_seed, board in batch(lex, request, seed, 300):
        assert board is not None
        rec = record(board, i, item_seed, lex)
        assert record_json(rec, lex) == dumps_plain(rec)


@settings(max_examples=25, deadline=None)
@given(name=st.sampled_from(["tech.yaml", "animals-en.yaml"]), request=REQUESTS,
       seed=st.integers(0, 2**32), label=st.sampled_from([None, "語尾\"かくし\\", "x"]))
def test_board_line_is_the_record_json(name: str, request: Request, seed: int,
                                       label: str | None) -> None:
    """Fresh and kept fragments alike (each lexicon is reused across examples), redraws,
    fallback flags and labels that need escaping; and the blank counts of every layout."""
    lex = lexicon(name)
    for i, item_seed, board in batch(lex, request, seed, 300, redraws=2,
                                     labels={request.style: label}):
        assert board is not None
        if i % 7 == 0:
            board.fallback = True
        rec = record(board, i, item_seed, lex)
        assert board_line(board, i, item_seed, lex) == dumps_plain(rec).encode()
        if i % 5 == 0:
            assert board_line(board, f"s-{i}", 2**70, lex) == dumps_plain(
                {**rec, "id": f"s-{i}", "seed": 2**70}).encode()
        base = board.cells if board.base is None else [
            (x, y, c, n) for (x, y, c, _), n in zip(board.cells, board.base, strict=True)]
        m = masks(base)
        assert {s: BLANK_STYLES[s].hides(m).bit_count() for s in STYLES} == {
            s: blank(base, s)[1] for s in STYLES}


def test_record_json_sees_a_changed_record() -> None:
    lex = lexicon("tech.yaml")
    recs = [record(b, i, s, lex) for i, s, b in batch(lex, Request(3, 3), 1, 200)
            if b is not None]
    assert len({id(r["words"]) for r in recs}) < len(recs)  # the layouts' lists are shared
    for rec in recs:
        record_json(rec, lex)  # the layout's part is encoded now
        for change in ({"fallback": 1}, {"id": "a\"b"}, {"seed": 2**70}, {"attempts": True},
                       {"label": "語尾\n"}, {"blanked": -1}, {"w": 99},
                       {"words": [dict(w) for w in rec["words"]]}, {"difficulty": 3}):
            other = {**rec, **change}
            assert record_json(other, lex) == dumps_plain(other), change
        moved = {k: rec[k] for k in reversed(list(rec))}
        assert record_json(moved, lex) == dumps_plain(moved)


def test_record_json_of_a_big_vocabulary() -> None:
    words = [f"{a}{b}{c}{d}" for a in "abcdefgh" for b in "ijklmnop" for c in "abcdefgh"
             for d in "ijklmnop"][:3001]
    lex = lexicon_from_words(words, "en")
    for i, s, board in batch(lex, Request(4, 4), 3, 50):
        if board is not None:  # (a big vocabulary's layouts are not shared)
            assert board.key is None
            rec = record(board, i, s, lex)
            assert record_json(rec, lex) == dumps_plain(rec)


@settings(max_examples=10, deadline=None)
@given(name=st.sampled_from(["tech.yaml", "animals-en.yaml"]), request=REQUESTS,
       seed=st.integers(0, 2**32))
def test_ipuz_json_is_dumps_plain(name: str, request: Request, seed: int) -> None:
    lex = lexicon(name)
    hints = {w: h for w, h in zip(lex.words, lex.hints, strict=True) if h}
    cache: dict[object, object] = {}
    for i, item_seed, board in batch(lex, request, seed, 200):
        assert board is not None
        rec = record(board, i, item_seed, lex)
        title = f"{lex.name} #{i}" if i % 3 else None
        assert (board_ipuz_json(rec, hints=hints, cache=cache, title=title)
                == dumps_plain(board_ipuz(rec, hints=hints, title=title)))


@pytest.mark.parametrize("name", ["tech.yaml", "animals-en.yaml"])
@pytest.mark.parametrize("layout", ["loose", "strict"])
def test_stats_by_layout_count_as_records(name: str, layout: str) -> None:
    """Boards tallied by layout (``add``) and records counted one by one (``add_record``)
    give the same summary, and so do the saved states merged in parts."""
    lex = lexicon(name)
    fast, slow = BatchStats(lexicon=lex), BatchStats(lexicon=lex)
    parts = [BatchStats(lexicon=lex) for _ in range(3)]
    for i, s, board in batch(lex, Request(3, 5, "tail", layout), 9, 3000, redraws=1):
        assert board is not None and board.key is not None
        fast.add(board)
        parts[i % 3].add(board)
        slow.add_record(record(board, i, s, lex))
        if i == 1000:
            assert fast.summary() == slow.summary()  # read half-way, then go on
    assert dumps(fast.summary()) == dumps(slow.summary())
    merged = BatchStats.from_state(parts[0].to_state(), lex)
    merged.merge(parts[1]).merge(BatchStats.from_state(parts[2].to_state(), lex))
    assert dumps(merged.summary()) == dumps(slow.summary())


def test_stats_tally_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past TALLY_LAYOUTS layouts the tally is counted in full and emptied: the same summary,
    and never more than the bound held (a stream of a million boards stays flat)."""
    from wordforge_cli.crossword import stats as stats_module

    monkeypatch.setattr(stats_module, "TALLY_LAYOUTS", 7)
    lex = lexicon("animals-en.yaml")
    fast, slow = BatchStats(lexicon=lex), BatchStats(lexicon=lex)
    for i, s, board in batch(lex, Request(4, 6, layout="strict"), 4, 500):
        assert board is not None
        fast.add(board)
        assert len(fast._seen) < 7
        slow.add_record(record(board, i, s, lex))
    assert dumps(fast.summary()) == dumps(slow.summary())
