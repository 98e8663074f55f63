"""A board's record carries the vocabulary's hint of each placed word (``words[].hint``), so
every reader of the records (a game, a pack's preview or export) has the clues without the
vocabulary; a word without a hint has no ``hint`` key (a vocabulary without hints writes the
bytes it always did). People's renders print a hint as the vocabulary wrote it."""

from __future__ import annotations

import json

import jsonschema  # a test extra
from conftest import EXAMPLES, schema_registry
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli import schemas
from wordforge_cli.crossword.board import Request
from wordforge_cli.crossword.check import check_record
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.records import board_line, record
from wordforge_cli.crossword.sets import batch
from wordforge_cli.io.output import dumps_plain
from wordforge_cli.io.vocab import VocabEntry, Vocabulary, read_vocab
from wordforge_cli.render.crossword import board_text, boards_svg, record_hints

ANIMALS = EXAMPLES / "animals-en.yaml"
TECH = EXAMPLES / "tech.yaml"


def lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_each_placed_word_carries_its_hint(run):
    hints = {e.word: e.hint for e in read_vocab(ANIMALS).entries}
    assert all(hints.values())
    result = run("crossword", "--vocab", ANIMALS, "-n", "30", "--seed", "4", "--json",
                 "--layout", "strict")
    assert result.exit_code == 0, result.stderr
    records = lines(result.stdout)
    validator = jsonschema.Draft202012Validator(schemas.load("crossword-board"),
                                                registry=schema_registry())
    vocabulary = set(prepare(read_vocab(ANIMALS)).words)
    for rec in records:
        assert [w["hint"] for w in rec["words"]] == [hints[w["spelling"]] for w in rec["words"]]
        assert list(rec["words"][0]) == ["word", "spelling", "x", "y", "dir", "hint"]
        assert not list(validator.iter_errors(rec))
        assert check_record(rec, vocabulary, layout="strict") == []


def test_a_vocabulary_without_hints_writes_no_hint_key(run):
    result = run("crossword", "--vocab", TECH, "-n", "20", "--seed", "4", "--json")
    assert result.exit_code == 0, result.stderr
    assert '"hint"' not in result.stdout
    assert all(list(w) == ["word", "spelling", "x", "y", "dir"]
               for rec in lines(result.stdout) for w in rec["words"])


def test_a_hint_that_is_not_a_text_is_a_broken_rule(run):
    result = run("crossword", "--vocab", ANIMALS, "-n", "1", "--seed", "4", "--json")
    rec = lines(result.stdout)[0]
    for bad in ("", 3, None, ["x"]):
        spoiled = {**rec, "words": [{**rec["words"][0], "hint": bad}, *rec["words"][1:]]}
        assert any("hint" in e for e in check_record(spoiled)), bad
    moved = {**rec, "words": [{"hint": "x", **rec["words"][0]}, *rec["words"][1:]]}
    assert any("has fields" in e for e in check_record(moved))


HINTS = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=0, max_size=12)


@settings(max_examples=30, deadline=None)
@given(hints=st.lists(HINTS, min_size=14, max_size=14), seed=st.integers(0, 2**32))
def test_the_fast_line_writes_the_hints_the_record_holds(hints, seed):
    """``board_line`` (straight from the board) and the record's JSON agree byte for byte for
    any hint text, and every non-empty hint reads back as given."""
    words = read_vocab(ANIMALS).words  # (a word's hint: one of the drawn texts)
    given_hints = {w: hints[i % len(hints)] for i, w in enumerate(words)}
    lex = prepare(Vocabulary("<hints>", "hints", "en", [VocabEntry(w, i + 1, given_hints[w])
                                                        for i, w in enumerate(words)]))
    made = 0
    for i, item_seed, board in batch(lex, Request(4, 5, "tail", "loose"), seed, 8):
        if board is None:  # (a small vocabulary: a board may run out of budget)
            continue
        made += 1
        rec = record(board, i, item_seed, lex)
        line = board_line(board, i, item_seed, lex)
        assert line == dumps_plain(rec).encode()
        for w in json.loads(line)["words"]:
            assert w.get("hint") == (given_hints[w["word"]] or None)
        assert record_hints(rec) == {w["word"]: given_hints[w["word"]] for w in rec["words"]
                                     if given_hints[w["word"]]}
    assert made


def test_renders_print_a_hint_as_the_vocabulary_wrote_it(tmp_path, run):
    """An ipuz clue is HTML (``&amp;``); the text render prints ``&``, the SVG escapes it
    once."""
    hints = {w: f"{w} & <{w}s>" for w in read_vocab(ANIMALS).words}
    vocab = tmp_path / "v.yaml"
    vocab.write_text("language: en\nwords:\n" + "".join(
        f'  - {{word: {w}, hint: "{h}"}}\n' for w, h in hints.items()), encoding="utf-8")
    result = run("crossword", "--vocab", vocab, "-n", "3", "--seed", "2", "--layout", "strict",
                 "--json")
    assert result.exit_code == 0, result.stderr
    for rec in lines(result.stdout):
        text = board_text(rec, record_hints(rec))
        svg = boards_svg([rec], hints=record_hints(rec))
        for w in rec["words"]:
            assert w["hint"] == hints[w["word"]]
            assert f") {w['hint']}\n" in text
            assert f") {w['word']} &amp; &lt;{w['word']}s&gt;</text>" in svg
        assert "&amp;" not in text and "&amp;amp;" not in svg
