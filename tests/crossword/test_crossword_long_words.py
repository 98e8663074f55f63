"""The attempt budget bounds the work on any vocabulary: the letter pairs of two long words
(millions for two 3,000-letter words of two letters) are counted against an attempt before
they are listed, so no attempt lists more of them than its work allows."""

from __future__ import annotations

import random

import pytest

from wordforge_cli.crossword import board as board_module
from wordforge_cli.crossword.board import ATTEMPT_WORK, Request, make_board
from wordforge_cli.crossword.lexicon import prepare as prepare_lexicon
from wordforge_cli.io.vocab import VocabEntry, Vocabulary


def long_vocabulary(letters: str, length: int, count: int, answers: list[str]) -> Vocabulary:
    rng = random.Random(4)
    words = answers + ["".join(rng.choice(letters) for _ in range(length))
                       for _ in range(count)]
    return Vocabulary("long", "long", None,
                      [VocabEntry(w, i + 1) for i, w in enumerate(words)])


@pytest.mark.parametrize("letters, answers", [
    ("ab", ["abab", "baba", "abba", "baab"]),
    ("アイ", ["アイアイ", "イアイア", "アイイア", "イアアイ"]),
    ("".join(chr(0x4E00 + i) for i in range(300)), ["一丁七万", "丁七万丈"]),
])
def test_no_attempt_lists_more_letter_pairs_than_its_work(monkeypatch, letters, answers):
    lexicon = prepare_lexicon(long_vocabulary(letters, 3000, 30, answers), fold_small=False,
                              strict=False)
    listed: list[int] = []
    real = board_module._crossings

    def counted(lex, p, q):  # type: ignore[no-untyped-def]
        pairs = real(lex, p, q)
        listed.append(len(pairs))
        return pairs

    monkeypatch.setattr(board_module, "_crossings", counted)
    stopped: list[bool] = []
    real_over = board_module._over

    def over(*args):  # type: ignore[no-untyped-def]
        stopped.append(real_over(*args))
        return stopped[-1]

    monkeypatch.setattr(board_module, "_over", over)
    budget = 40
    for layout in ("loose", "strict"):
        request = Request(min_len=4, max_len=4, layout=layout, budget=budget)
        make_board(lexicon, request, random.Random(1))
    # attempts stopped before listing the pairs of two long words (by _over, or before it:
    # a partner-pool scan of long words is paid by their letters)
    assert any(stopped) or not listed
    assert max(listed, default=0) <= ATTEMPT_WORK  # never their millions
    assert sum(listed) <= 2 * budget * ATTEMPT_WORK
