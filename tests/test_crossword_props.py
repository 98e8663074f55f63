"""Property tests: every generated board, over many seeds, both layouts, every style and both
vocabularies, passes the independent check of every rule; the same seed gives the same bytes;
statistics merge to the same summary in any split."""

from __future__ import annotations

import json
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import EXAMPLES
from wordforge_cli.crossword.blanks import STYLES
from wordforge_cli.crossword.board import LAYOUTS, Request, make_board, record
from wordforge_cli.crossword.check import check_record
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.sets import (
    DEFAULT_RAMP,
    EndlessConfig,
    batch,
    challenge_set,
    endless_question,
)
from wordforge_cli.crossword.stats import BatchStats
from wordforge_cli.output import dumps
from wordforge_cli.rng import derive_seed, item_rng
from wordforge_cli.vocab import read_vocab

VOCABS = ("tech.yaml", "animals-en.yaml")
BANDS = ((3, 3), (4, 4), (4, 5), (5, 5), (5, 6))


@cache
def lexicon(name):
    return prepare(read_vocab(EXAMPLES / name))


@settings(max_examples=300)
@given(seed=st.integers(0, 2**63 - 1), vocab=st.sampled_from(VOCABS),
       layout=st.sampled_from(LAYOUTS), style=st.sampled_from(STYLES),
       band=st.sampled_from(BANDS))
def test_every_board_keeps_every_rule(seed, vocab, layout, style, band):
    lex = lexicon(vocab)
    request = Request(band[0], band[1], style, layout)
    board = make_board(lex, request, random.Random(seed))
    assert board is not None
    rec = record(board, 0, seed)
    assert check_record(rec, set(lex.words), min_len=band[0], max_len=band[1],
                        layout=layout) == []
    again = record(make_board(lex, request, random.Random(seed)), 0, seed)
    assert dumps(again) == dumps(rec)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**31), vocab=st.sampled_from(VOCABS),
       layout=st.sampled_from(LAYOUTS), style=st.sampled_from(STYLES))
def test_unique_boards_are_fair(seed, vocab, layout, style):
    from wordforge_cli.crossword.unique import count_fillings

    lex = lexicon(vocab)
    board = make_board(lex, Request(4, 5, style, layout, unique=True), random.Random(seed))
    assert board is not None
    assert count_fillings(lex, board.words, board.cells) == 1
    assert check_record(record(board, 0, seed), set(lex.words), layout=layout) == []


@settings(max_examples=30)
@given(seed=st.integers(0, 2**31), k=st.integers(0, 60), vocab=st.sampled_from(VOCABS),
       layout=st.sampled_from(LAYOUTS))
def test_endless_questions_keep_the_rules(seed, k, vocab, layout):
    lex = lexicon(vocab)
    item_seed, board = endless_question(lex, EndlessConfig(), k, seed, Request(layout=layout))
    assert board is not None
    assert check_record(record(board, k, item_seed), set(lex.words), layout=layout) == []


@settings(max_examples=10)
@given(seed=st.integers(0, 2**31), vocab=st.sampled_from(VOCABS),
       layout=st.sampled_from(LAYOUTS))
def test_challenge_sets_never_repeat_an_answer(seed, vocab, layout):
    lex = lexicon(vocab)
    _, boards = challenge_set(lex, DEFAULT_RAMP, 0, seed, Request(layout=layout))
    assert len({b.answer for b in boards}) == len(DEFAULT_RAMP)
    for board, step in zip(boards, DEFAULT_RAMP, strict=True):
        assert step.min_len <= len(board.answer) <= step.max_len
        assert board.style == step.style
        assert check_record(record(board, 0, 0), set(lex.words), layout=layout) == []


def test_batch_items_are_independent_of_position():
    lex = lexicon("tech.yaml")
    request = Request(4, 5, "tail")
    whole = [(s, record(b, i, s)) for i, s, b in batch(lex, request, 11, 12)]
    tail = [(s, record(b, i, s)) for i, s, b in batch(lex, request, 11, 4, start=8)]
    assert whole[8:] == tail
    scoped = next(batch(lex, request, 11, 1, scope=("pack", "section-a")))
    assert scoped[1] != whole[0][0]
    assert scoped[1] == derive_seed(11, "pack", "section-a", 0)
    assert [s for s, _ in whole] == [derive_seed(11, "crossword", i) for i in range(12)]
    alone = [record(make_board(lex, request, item_rng(11, "crossword", i)), i, s)
             for i, (s, _) in enumerate(whole)]
    assert alone == [r for _, r in whole]


def test_stats_merge_equals_whole_in_any_split():
    lex = lexicon("animals-en.yaml")
    recs = [record(b, i, s) for i, s, b in batch(lex, Request(4, 5), 3, 60)]
    whole = BatchStats(lexicon=lex)
    for rec in recs:
        whole.add_record(rec)
    left, right = BatchStats(lexicon=lex), BatchStats(lexicon=lex)
    for rec in recs[::2]:
        left.add_record(rec)
    for rec in reversed(recs[1::2]):
        right.add_record(rec)
    right.fail(0)
    assert right.merge(left).summary() == whole.summary()
    shipped = BatchStats.from_state(json.loads(json.dumps(whole.to_state())), lex)
    assert shipped.summary() == whole.summary()


def test_stats_from_boards_equal_stats_from_records():
    lex = lexicon("tech.yaml")
    from_records, from_boards = BatchStats(lexicon=lex), BatchStats(lexicon=lex)
    for i, s, b in batch(lex, Request(3, 6, "most"), 5, 40):
        from_boards.add(b)
        from_records.add_record(record(b, i, s))
    assert from_boards.summary() == from_records.summary()
