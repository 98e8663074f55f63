"""The answer deck never deals the same answer twice in a row, across a reshuffle too: a
round's first card is never the card the round before ended on, every round still deals each
candidate once, and a card is the same dealt in order or reached at once (shards, workers)."""

from __future__ import annotations

import json

import yaml
from conftest import EXAMPLES
from hypothesis import given
from hypothesis import strategies as st

from wordforge_cli.crossword.sets import Deck


@given(n=st.integers(1, 12), seed=st.integers(0, 2**63 - 1),
       scope=st.sampled_from([("crossword",), ("crossword", "endless", 4, 4),
                              ("tech-boards", "challenge", 5, 6)]),
       start=st.integers(0, 300), length=st.integers(1, 80))
def test_no_answer_twice_in_a_row_and_each_round_deals_every_candidate(n, seed, scope, start,
                                                                       length):
    cands = tuple(range(7, 7 + 3 * n, 3))
    deck = Deck(cands, seed, scope)
    cards = [deck.card(j) for j in range(start, start + length)]
    if n > 1:
        assert all(a != b for a, b in zip(cards, cards[1:], strict=False)), cards
    first_round = -(-start // n)  # the rounds wholly inside the window deal each card once
    for k in range(first_round, (start + length) // n):
        whole = cards[k * n - start:(k + 1) * n - start]
        assert sorted(whole) == list(cands)
    # reached directly (a shard, a worker) each card is the one dealt in order
    for j in (start, start + length - 1, start + length // 2):
        assert Deck(cands, seed, scope).card(j) == cards[j - start]
    assert Deck(cands, seed, scope).deal(start, start + length) == cards


def _four_word_band(tmp_path):
    """animals-en with four 4-letter words left: the endless plan's 4-letter band deals from
    a deck of four."""
    doc = yaml.safe_load((EXAMPLES / "animals-en.yaml").read_text(encoding="utf-8"))
    fours = [e for e in doc["words"] if len(e["word"]) == 4]
    doc["words"] = [e for e in doc["words"] if len(e["word"]) != 4] + fours[:4]
    path = tmp_path / "four.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return path


def test_an_endless_run_of_a_four_word_band_never_repeats_an_answer_in_a_row(run, tmp_path):
    """The case found by hand: 60 questions at seed 7 dealt one 4-letter answer twice running
    when a round of the band's deck ended on the card the next began with."""
    result = run("crossword", "endless", "--vocab", _four_word_band(tmp_path), "--count", "60",
                 "--seed", "7")
    assert result.exit_code == 0, result.stderr
    boards = [json.loads(line) for line in result.stdout.splitlines()]
    fours = [b["answer"] for b in boards if len(b["answer"]) == 4 and not b["fallback"]]
    assert len(fours) == 20 and len(set(fours)) == 4
    assert all(a != b for a, b in zip(fours, fours[1:], strict=False)), fours
    for k in range(0, 20, 4):  # each round of the deck deals each of the four once
        assert len(set(fours[k:k + 4])) == 4, fours
