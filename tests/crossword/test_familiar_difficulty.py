"""The familiarity-aware difficulty: the deducing solver for a player who knows each word with
a probability from its frequency (``difficulty.measure_familiar``), beside the solver that
knows every word (whose score stays as it was). A board of common words scores easier than
the same shape of rare words; the figures are expectations over fixed draws seeded by the
board itself (deterministic), within their bounds, and the same in records, statistics and
schemas."""

from __future__ import annotations

import json
import random

import jsonschema  # a test extra
import pytest
from conftest import EXAMPLES, schema_registry
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli import schemas
from wordforge_cli.batch.familiarity import word_zipfs
from wordforge_cli.crossword.board import Request
from wordforge_cli.crossword.difficulty import (
    FAMILIAR_DRAWS,
    GUESS_WEIGHT,
    LEVEL_ZIPF,
    DifficultyStats,
    board_seed,
    known_probability,
    measure,
    measure_familiar,
    measure_familiar_record,
)
from wordforge_cli.crossword.lexicon import Lexicon, prepare
from wordforge_cli.crossword.sets import batch
from wordforge_cli.io.vocab import VocabEntry, Vocabulary, read_vocab

ANIMALS = EXAMPLES / "animals-en.yaml"
TECH = EXAMPLES / "tech.yaml"


def boards(lexicon: Lexicon, n: int = 80, style: str = "most", seed: int = 3) -> list:
    return [b for _i, _s, b in batch(lexicon, Request(3, 6, style=style), seed, n)
            if b is not None]


def familiarity(lexicon: Lexicon) -> tuple[float, ...]:
    return tuple(known_probability(z) for z in word_zipfs(lexicon)[0])


@pytest.fixture(scope="module")
def animals() -> Lexicon:
    return prepare(read_vocab(ANIMALS))


@pytest.fixture(scope="module")
def tech() -> Lexicon:
    return prepare(read_vocab(TECH))


def test_a_player_who_knows_every_word_is_the_plain_solver(animals, tech):
    for lexicon in (animals, tech):
        everything = [1.0] * len(lexicon.words)
        for style in ("none", "most"):
            for b in boards(lexicon, 60, style):
                plain = measure(lexicon, b.words, b.cells)
                familiar = measure_familiar(lexicon, b.words, b.cells, everything)
                assert familiar.score == plain.score
                assert familiar.guesses == plain.guesses
                assert familiar.known == 1.0


def _renamed(lexicon: Lexicon, letters: dict[str, str]) -> Lexicon:
    """The same vocabulary with every letter renamed: the same shapes, words no list has."""
    words = ["".join(letters[c] for c in w) for w in lexicon.words]
    return prepare(Vocabulary("<renamed>", "renamed", lexicon.language,
                              [VocabEntry(w, i + 1) for i, w in enumerate(words)]))


def test_common_words_score_easier_than_the_same_shape_of_rare_ones(animals):
    """animals-en's words (Zipf 2.6-5.1, CEFR where the table has them) against the same
    boards with every letter renamed to Cyrillic (no English list has those words: Zipf 0).
    The plain solver
    cannot tell them apart; the familiarity-aware player finds the common ones easier, board
    by board and on average."""
    alphabet = sorted({c for w in animals.words for c in w})
    cyrillic = [chr(0x430 + k) for k in range(32)]  # (letters, in no English word list)
    rename = dict(zip(alphabet, cyrillic[:len(alphabet)], strict=True))
    rare = _renamed(animals, rename)
    assert all(z == 0.0 for z in word_zipfs(rare)[0])
    common_known, rare_known = familiarity(animals), familiarity(rare)
    easier = harder = 0
    total_common = total_rare = 0.0
    for b in boards(animals, 120, "most"):
        words = [("".join(rename[c] for c in w), x, y, d) for w, x, y, d in b.words]
        cells = [(x, y, rename[c], n) for x, y, c, n in b.cells]
        assert measure(animals, b.words, b.cells) == measure(rare, words, cells)
        common = measure_familiar(animals, b.words, b.cells, common_known)
        strange = measure_familiar(rare, words, cells, rare_known)
        assert common.known > strange.known
        easier += common.score < strange.score
        harder += common.score > strange.score
        total_common += common.score
        total_rare += strange.score
    assert easier > 10 * max(harder, 1)
    assert total_common < 0.8 * total_rare


def test_a_board_of_known_words_beats_the_same_board_of_unknown_ones(animals):
    """The same lexicon and boards, the placed words' probabilities raised or lowered."""
    for b in boards(animals, 60, "most"):
        placed = {animals.index[w] for w, *_ in b.words}
        base = [0.5] * len(animals.words)
        common = [0.97 if i in placed else p for i, p in enumerate(base)]
        rare = [0.03 if i in placed else p for i, p in enumerate(base)]
        assert (measure_familiar(animals, b.words, b.cells, common).score
                <= measure_familiar(animals, b.words, b.cells, rare).score)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["none", "tail", "most"]),
       st.floats(0.0, 1.0))
def test_figures_are_within_their_bounds_and_the_same_every_time(seed, style, p):
    lexicon = prepare(read_vocab(TECH))
    board = boards(lexicon, 1, style, seed)[0]
    known = [p] * len(lexicon.words)
    first = measure_familiar(lexicon, board.words, board.cells, known)
    again = measure_familiar(lexicon, list(board.words), list(board.cells), known)
    assert first == again
    plain = measure(lexicon, board.words, board.cells)
    slots = len(board.words)
    assert 0 <= first.guesses <= slots
    # every round writes a cell or finishes a slot, every guess finishes a slot
    assert 0 <= first.score <= plain.hidden + slots + GUESS_WEIGHT * slots
    assert round(first.score * FAMILIAR_DRAWS, 6) == int(round(first.score * FAMILIAR_DRAWS))
    assert abs(first.known - p) <= 0.005 + 1e-9  # (the mean of the placed words', 2 decimals)


def test_a_player_who_knows_no_word_guesses_the_same_in_every_draw(tech):
    nothing = [0.0] * len(tech.words)
    for b in boards(tech, 30, "most"):
        f = measure_familiar(tech, b.words, b.cells, nothing)
        assert f.known == 0.0
        assert f.guesses == int(f.guesses) and f.score == int(f.score)  # no draw differs
        assert f.guesses >= 1


def test_the_draws_are_seeded_by_the_board_alone(tech):
    """Two batches meeting the same layout score it the same (its id and stream aside)."""
    b = boards(tech, 1, "none", 5)[0]
    assert board_seed(b.words, b.cells) == board_seed(list(b.words), list(b.cells))
    assert board_seed(b.words, b.cells) != board_seed(b.words[::-1], b.cells)
    known = familiarity(tech)
    rec = {"words": [{"word": w, "x": x, "y": y, "dir": d} for w, x, y, d in b.words],
           "cells": [{"x": x, "y": y, "c": c, "n": n} for x, y, c, n in b.cells]}
    assert (measure_familiar_record(tech, rec, known)
            == measure_familiar(tech, b.words, b.cells, known))


def test_probabilities_rise_with_frequency_and_levels_count_at_their_median():
    zipfs = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    chances = [known_probability(z) for z in zipfs]
    assert chances == sorted(chances) and len(set(chances)) == len(chances)
    assert known_probability(3.0) == 0.5
    assert known_probability(None) == 1.0
    assert list(LEVEL_ZIPF.values()) == sorted(LEVEL_ZIPF.values(), reverse=True)


def test_word_frequencies_by_language():
    en = prepare(Vocabulary("<en>", "en", "en", [VocabEntry(w, i + 1) for i, w in enumerate(
        ["cat", "cats", "petrichor", "qzxjv"])]))
    zipfs, source = word_zipfs(en)
    assert source == "wordfreq:en+cefr"
    assert zipfs[0] == LEVEL_ZIPF["A1"] and zipfs[1] == LEVEL_ZIPF["A1"]  # cats: its lemma's
    assert 0 < zipfs[2] < 3 and zipfs[3] == 0.0
    ja = prepare(Vocabulary("<ja>", "ja", "ja", [VocabEntry(w, i + 1) for i, w in enumerate(
        ["キャッシュ", "タイムアウト", "ヌヌヌヌヌヌヌ"])]))
    zipfs, source = word_zipfs(ja)
    assert source == "wordfreq:ja"
    assert zipfs[0] > 3.5  # looked up as spelt (キャッシュ), not as the grid's キヤツシユ
    assert 3 < zipfs[1] < 5  # タイム + アウト, by wordfreq's rule for two words
    assert zipfs[2] == 0.0
    other = prepare(Vocabulary("<x>", "x", "xx", [VocabEntry(w, i + 1) for i, w in enumerate(
        ["abc", "bcd"])]))
    assert word_zipfs(other) == ((None, None), "none")


def test_statistics_count_the_records_and_survive_a_round_trip(animals):
    known = familiarity(animals)
    stats, other = DifficultyStats("wordfreq:en+cefr"), DifficultyStats("wordfreq:en+cefr")
    figures = []
    for j, b in enumerate(boards(animals, 50, "most")):
        d = measure(animals, b.words, b.cells)
        f = measure_familiar(animals, b.words, b.cells, known)
        figures.append(f)
        (stats if j % 2 else other).add(d, j % 5, f)
    merged = DifficultyStats.from_state(json.loads(json.dumps(stats.to_state())))
    merged.merge(other)
    summary = merged.summary()
    scores = sorted(f.score for f in figures)
    assert summary["familiar_score"]["min"] == scores[0]
    assert summary["familiar_score"]["max"] == scores[-1]
    assert summary["familiar_score"]["mean"] == round(sum(scores) / len(scores), 3)
    assert summary["familiarity"] == "wordfreq:en+cefr"
    assert len(summary["familiar_per_step"]) == 5
    with pytest.raises((ValueError, KeyError, TypeError)):
        DifficultyStats.from_state({**stats.to_state(), "familiar": [[-1, 2]]})


def test_records_and_statistics_carry_both_scores(run, tmp_path, tech):
    stats = tmp_path / "s.json"
    out = run("crossword", "endless", "--vocab", TECH, "--count", "30", "--seed", "4",
              "--json", "--difficulty", "--stats", stats)
    assert out.exit_code == 0, out.stderr
    assert "familiarity-aware score" in out.stderr and "wordfreq:ja" in out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    known = familiarity(tech)
    for rec in records:
        d = rec["difficulty"]
        f = measure_familiar_record(tech, rec, known)
        assert (d["familiar_score"], d["familiar_guesses"], d["known"]) == (
            f.score, f.guesses, f.known)
    summary = json.loads(stats.read_text())
    figures = summary["stats"]["difficulty"]
    assert figures["familiar_score"]["max"] == max(r["difficulty"]["familiar_score"]
                                                   for r in records)
    for name, docs in (("crossword-board", records), ("crossword-stats", [summary])):
        check = jsonschema.Draft202012Validator(schemas.load(name),
                                                registry=schema_registry())
        for doc in docs:
            assert not list(check.iter_errors(doc)), name
    again = run("crossword", "endless", "--vocab", TECH, "--count", "30", "--seed", "4",
                "--json", "--difficulty")
    assert again.stdout == out.stdout


def test_a_vocabulary_without_frequencies_scores_as_the_plain_solver(run, tmp_path):
    vocab = tmp_path / "v.yaml"
    rng = random.Random(1)
    words = sorted({"".join(rng.choice("ابتثجحخد") for _ in range(rng.randint(3, 5)))
                    for _ in range(60)})
    vocab.write_text("language: zz\nwords:\n" + "".join(f"  - {w}\n" for w in words),
                     encoding="utf-8")
    out = run("crossword", "--vocab", vocab, "-n", "10", "--seed", "2", "--json",
              "--difficulty", "--min-len", "3", "--max-len", "4")
    assert out.exit_code == 0, out.stderr
    assert "word frequencies: none" in out.stderr
    for rec in map(json.loads, out.stdout.splitlines()):
        d = rec["difficulty"]
        assert d["familiar_score"] == d["score"] and d["known"] == 1.0
