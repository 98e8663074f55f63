"""The attempt budget bounds the work on any vocabulary, long words included: every cell an
attempt lays down (word 0's too), every letter pair it lists and every long word whose letters
it looks through is paid from the attempt's work (``layout.ATTEMPT_WORK``), so the default
budget's time is bounded whatever the vocabulary; a word longer than any board can hold is
skipped at intake with its file:line (refused under ``--strict-vocab``). The faster paths
taken for long words and big boards give the same results as the plain ones."""

from __future__ import annotations

import random
from dataclasses import astuple

import pytest
from conftest import EXAMPLES, lexicon_from_words
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.crossword import blanks
from wordforge_cli.crossword import board as board_module
from wordforge_cli.crossword.board import Request, make_board
from wordforge_cli.crossword.check import check_record
from wordforge_cli.crossword.layout import ATTEMPT_WORK, STRIDE
from wordforge_cli.crossword.lexicon import LONGEST_WORD, normalise, prepare
from wordforge_cli.crossword.records import record
from wordforge_cli.io.vocab import VocabEntry, Vocabulary, read_vocab

KANJI = [chr(0x4E00 + i) for i in range(3000)]


def vocabulary(words: list[str]) -> Vocabulary:
    return Vocabulary("long.txt", "long", None,
                      [VocabEntry(w, i + 1) for i, w in enumerate(words)])


def long_words(alphabet: list[str] | str, count: int, lo: int, hi: int, seed: int,
               answers: int = 12, answer_letters: int = 6) -> list[str]:
    """Short answers over a few letters, then ``count`` words of ``lo``-``hi`` letters."""
    rng = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < answers:
        words["".join(rng.choice(alphabet[:answer_letters]) for _ in range(rng.choice((4, 5))))] \
            = None
    while len(words) < answers + count:
        words["".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))] = None
    return list(words)


class Meter:
    """What the expensive helpers of an attempt touch, counted by the letter: cells laid
    down, letter pairs listed, long words' letters looked through."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.touched = 0
        self.laid: list[int] = []
        real_down, real_crossings = board_module._down, board_module._crossings
        real_partners, real_over = board_module._partners, board_module._over

        def down(t, q, small):  # type: ignore[no-untyped-def]
            cells = real_down(t, q, small)
            self.laid.append(len(cells))
            self.touched += len(cells)
            return cells

        def crossings(lex, p, q):  # type: ignore[no-untyped-def]
            pairs = real_crossings(lex, p, q)
            self.touched += len(pairs) + min(len(lex.positions[p]), len(lex.positions[q]))
            return pairs

        def partners(lex, prev, ch, source):  # type: ignore[no-untyped-def]
            self.touched += sum(len(lex.positions[q]) for q in source.get(ch, ()) if q != prev)
            return real_partners(lex, prev, ch, source)

        def over(t, counts, work, prev, q):  # type: ignore[no-untyped-def]
            self.touched += min(len(t.lex.positions[prev]), len(t.lex.positions[q]))
            return real_over(t, counts, work, prev, q)

        monkeypatch.setattr(board_module, "_down", down)
        monkeypatch.setattr(board_module, "_crossings", crossings)
        monkeypatch.setattr(board_module, "_partners", partners)
        monkeypatch.setattr(board_module, "_over", over)


HARD = {
    "two letters": lambda: long_words("ab", 60, 1500, 3000, 1),
    "two kana": lambda: long_words("アイ", 60, 1500, 3000, 2),
    "many kanji": lambda: long_words(KANJI, 200, 100, 900, 3, answer_letters=40),
    "few kanji, made": lambda: long_words(KANJI[:400], 300, 50, 400, 4, answer_letters=40),
}


@pytest.mark.parametrize("name", sorted(HARD))
@pytest.mark.parametrize("layout", ["loose", "strict"])
@pytest.mark.parametrize("style", ["none", "most"])
def test_an_attempt_touches_no_more_than_its_work(monkeypatch, name, layout, style):
    """Every letter touched is paid from the attempt's work, but for one crossing count an
    attempt may make before it stops (at most a long word's letters): a budget touches at
    most budget x (ATTEMPT_WORK + LONGEST_WORD) letters, however long the words."""
    lexicon = prepare(vocabulary(HARD[name]()), fold_small=False)
    meter = Meter(monkeypatch)
    budget = 60
    made = 0
    for seed in range(3):
        board = make_board(lexicon, Request(layout=layout, style=style, budget=budget),
                           random.Random(seed))
        made += board is not None
        if board is not None:  # at most the attempt's work in cells
            assert len(board.cells) <= ATTEMPT_WORK
    assert meter.touched <= 3 * budget * (ATTEMPT_WORK + LONGEST_WORD)
    if name.endswith("made"):
        assert made  # (the vocabulary makes boards: the bound holds for made ones too)


def test_a_long_first_word_is_laid_down_only_when_a_word_is_checked_against_it(monkeypatch):
    """On words of thousands of letters over two letters every pair crosses in millions of
    ways, so no word can follow a long word 0: those attempts stop without laying it."""
    lexicon = prepare(vocabulary(long_words("ab", 60, 2000, 3000, 5)), fold_small=False)
    meter = Meter(monkeypatch)
    make_board(lexicon, Request(budget=300), random.Random(1))
    assert all(n <= board_module.SHORT_WORD for n in meter.laid)


def test_the_chain_stays_inside_the_key_space():
    """The work cap bounds a chain's reach (every cell is paid for), so no word length can
    take a board out of the key space: the old refusal by answer length x longest word is
    not needed."""
    assert ATTEMPT_WORK < STRIDE // 2
    assert LONGEST_WORD == ATTEMPT_WORK - 4


def test_a_word_longer_than_any_board_is_skipped_with_its_line():
    words = ["cat", "dog", "ab" * 2500, "emu", "a" * (LONGEST_WORD + 1), "b" * LONGEST_WORD]
    lexicon = prepare(vocabulary(words), fold_small=False)
    assert [s.line for s in lexicon.skipped] == [3, 5]
    assert "5,000 letters long; no board holds a word of more than 3,996" in \
        lexicon.skipped[0].reason
    assert len(lexicon.skipped[0].word) < 50  # the warning quotes it cut
    assert "b" * LONGEST_WORD in lexicon.words
    with pytest.raises(ConfigError) as refused:
        prepare(vocabulary(words), strict=True)
    assert refused.value.line == 3 and "--strict-vocab" in str(refused.value)
    assert len(str(refused.value)) < 300


def test_a_too_long_word_is_one_warning_line_on_the_command_line(run, tmp_path):
    vocab = tmp_path / "v.txt"
    vocab.write_text("cat\ncar\ntar\nrat\narc\nact\n" + "ab" * 2100 + "\ntac\n", encoding="utf-8")
    result = run("crossword", "--vocab", vocab, "--min-len", "3", "--max-len", "3", "-n", "2",
                 "--seed", "1", "--json")
    assert result.exit_code == 0, result.stderr
    warning = [line for line in result.stderr.splitlines() if "skipped" in line]
    assert len(warning) == 1 and "v.txt:7:" in warning[0] and len(warning[0]) < 250
    strict = run("crossword", "--vocab", vocab, "--min-len", "3", "--max-len", "3",
                 "--strict-vocab")
    assert strict.exit_code == 2 and "v.txt:7:" in strict.stderr


@settings(max_examples=60)
@given(st.lists(st.text(alphabet="abcdefアイ一丁七万丈三上下", min_size=2, max_size=200),
                min_size=2, max_size=6))
def test_crossings_of_a_long_word_come_in_the_plain_order(words):
    """A word of many letters is walked at the other word's letters only; its pairs come in
    the order the plain walk gives (p's letters in order, then a, then b)."""
    lexicon = lexicon_from_words(words + ["xy", "yx"], "und")  # (letters of any script)
    for p in range(len(lexicon.words)):
        for q in range(len(lexicon.words)):
            pos_p, pos_q = lexicon.positions[p], lexicon.positions[q]
            plain = tuple((a, b) for c, pa in pos_p.items() if c in pos_q
                          for a in pa for b in pos_q[c])
            assert board_module._crossings(lexicon, p, q) == plain


def test_crossings_of_a_word_of_many_letters_are_the_plain_ones():
    rng = random.Random(6)
    words = ["".join(rng.choice(KANJI[:500]) for _ in range(rng.randint(70, 400)))
             for _ in range(12)] + ["一丁七万"]
    lexicon = lexicon_from_words(words)
    assert max(len(p) for p in lexicon.positions) > board_module.SHORT_WORD
    for p in range(len(lexicon.words)):
        for q in range(len(lexicon.words)):
            pos_p, pos_q = lexicon.positions[p], lexicon.positions[q]
            plain = tuple((a, b) for c, pa in pos_p.items() if c in pos_q
                          for a in pa for b in pos_q[c])
            assert board_module._crossings(lexicon, p, q) == plain


def test_letter_masks_of_many_letters_are_the_sums_of_their_bits():
    rng = random.Random(2)
    words = ["".join(rng.choice(KANJI[:rng.choice([5, 80, 3000])])
                     for _ in range(rng.randint(2, 400))) for _ in range(200)]
    lexicon = lexicon_from_words(words)
    bits = {c: 1 << k for k, c in enumerate(lexicon.by_letter)}
    assert board_module._letter_masks(lexicon) == tuple(sum(bits[c] for c in set(w))
                                                        for w in lexicon.words)


def _plain_even(stride: int, bits: int) -> int:
    rows = -(-bits // stride) + 8
    row = [sum(1 << col for col in range(start, stride, 2)) for start in (0, 1)]
    return sum(row[r & 1] << (r * stride) for r in range(rows))


def hidden_counts(cells):
    """How many cells each style hides, from one set of masks (as the batch statistics)."""
    m = blanks.masks(cells)
    return {style: blanks.BLANK_STYLES[style].hides(m).bit_count() for style in blanks.STYLES}


@settings(max_examples=40)
@given(st.integers(2, 60), st.integers(2, 60), st.data())
def test_a_big_board_blanks_the_cells_a_small_one_does(w, h, data):
    """Above ``blanks.BYTES_FROM`` squares a board's masks are set in bytes: the same masks,
    blanks and counts as the plain ints give (here forced on small boards)."""
    squares = data.draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)),
                                min_size=1, max_size=80))
    cells = [(x, y, "a", data.draw(st.sampled_from([-2, -2, -1, 0, 1])))
             for x, y in sorted(squares, key=lambda s: (s[1], s[0]))]
    plain_masks = astuple(blanks.masks(cells))
    plain = {style: blanks.blank(cells, style) for style in blanks.STYLES}
    plain_counts = hidden_counts(cells)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(blanks, "BYTES_FROM", 0)
        patch.setattr(blanks, "_EVEN", {})
        assert astuple(blanks.masks(cells)) == plain_masks
        assert {style: blanks.blank(cells, style) for style in blanks.STYLES} == plain
        assert hidden_counts(cells) == plain_counts


@pytest.mark.parametrize("stride", [2, 3, 7, 64, 65, 1001, 2000])
@pytest.mark.parametrize("bits", [10, 5000, 300_000])
def test_the_checkerboard_of_a_big_board_is_the_plain_one(monkeypatch, stride, bits):
    monkeypatch.setattr(blanks, "_EVEN", {})
    assert blanks._even(stride, bits) == _plain_even(stride, bits)


def _plain_normalise(word: str, language: str | None, fold_small: bool) -> str:
    """The per-letter rules, written out: NFKC; no space; ja: hiragana to katakana, small
    kana folded, katakana letters only; else letters or marks only."""
    import unicodedata

    from wordforge_cli.crossword.lexicon import SMALL_KANA

    text = unicodedata.normalize("NFKC", word)
    if any(c.isspace() for c in text):
        raise ValueError("space")
    if language == "ja":
        text = "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in text)
        if fold_small:
            text = text.translate(SMALL_KANA)
        if not all("\u30a1" <= c <= "\u30fa" or c == "ー" or "\u31f0" <= c <= "\u31ff"
                   for c in text):
            raise ValueError("not kana")
        return text
    if language == "en":
        text = text.casefold()
    if not all(unicodedata.category(c)[0] in "LM" or c == "ー" for c in text):
        raise ValueError("not a letter")
    return text


@settings(max_examples=300)
@given(st.text(min_size=1, max_size=12), st.sampled_from(["ja", "en", None]), st.booleans())
def test_normalising_by_whole_word_scans_keeps_the_letter_rules(word, language, fold_small):
    try:
        expected: str | None = _plain_normalise(word, language, fold_small)
    except ValueError:
        expected = None
    try:
        got: str | None = normalise(word, language, fold_small=fold_small)
    except ValueError:
        got = None
    assert got == expected


def test_many_letters_keep_positions_lazy_with_the_same_boards(monkeypatch):
    # a few words of thousands of letters would hold a gigabyte of stored positions: past
    # EAGER_LETTERS letters in all they are computed when asked, and the boards are the same
    import wordforge_cli.crossword.lexicon as lexicon_module

    def boards() -> tuple[object, list[dict]]:
        lex = prepare(read_vocab(EXAMPLES / "animals-en.yaml"))
        made = [record(make_board(lex, Request(4, 6, "tail", layout), random.Random(seed)),
                       0, seed) for seed in range(20) for layout in ("loose", "strict")]
        return lex.positions, made

    eager, stored = boards()
    assert isinstance(eager, list)
    monkeypatch.setattr(lexicon_module, "EAGER_LETTERS", 20)
    lazy, computed = boards()
    assert isinstance(lazy, lexicon_module.LazyPositions)
    assert computed == stored


def test_long_answers_keep_no_plan_and_give_the_same_boards(monkeypatch):
    # an answer of more than PLAN_LETTERS_MAX letters keeps neither its plan nor its slots
    # (thousands of long answers would hold hundreds of MB): made again at each attempt, they
    # give the boards the kept ones give

    answer = ("abcde" * 14)[:70]
    draw = random.Random(3)
    short = sorted({"".join(draw.choice("abcdefgh") for _ in range(draw.randint(3, 5)))
                    for _ in range(400)})

    def boards() -> tuple[list[dict], object]:
        lex = lexicon_from_words([answer, *short])
        made = [record(make_board(lex, Request(70, 70, layout=layout), random.Random(seed)),
                       0, seed) for seed in range(6) for layout in ("loose", "strict")]
        return made, board_module.tables(lex)

    afresh, t = boards()
    assert not t.plans and not t.slots
    for rec in afresh:
        assert check_record(rec, {answer, *short}, min_len=70, max_len=70) == []
    monkeypatch.setattr(board_module, "PLAN_LETTERS_MAX", 1000)
    kept, t = boards()
    assert t.plans and max(i for i, _c, _n in t.slots) == 69
    assert kept == afresh


def test_an_answer_of_more_than_short_word_letters_is_taken_unchecked(monkeypatch):
    """The candidate check matches each answer letter to its own crossing word: about the
    square of the answer's letters times the words holding them, and search paths as long as
    the answer. Past SHORT_WORD letters it is left to the attempts' budget."""
    checked: list[int] = []
    real = board_module._coverable

    def counted(lexicon, answer, by_dir):  # type: ignore[no-untyped-def]
        checked.append(answer)
        return real(lexicon, answer, by_dir)

    monkeypatch.setattr(board_module, "_coverable", counted)
    words = long_words("abcdefgh", 20, board_module.SHORT_WORD - 2, board_module.SHORT_WORD + 40, 5)
    lex = prepare(vocabulary(words))
    cands = board_module.candidates(lex, 2, LONGEST_WORD)
    long = {i for i, w in enumerate(lex.words) if len(w) > board_module.SHORT_WORD}
    assert long and long <= set(cands)
    assert not long & set(checked) and checked


def test_a_vocabulary_of_long_answers_runs_out_of_budget_in_one_line(run, tmp_path):
    # their matching once went past Python's recursion limit (an internal error, exit 1)
    draw = random.Random(2)
    vocab = tmp_path / "long.txt"
    vocab.write_text("".join("".join(draw.choice("abcdefghijklmnopqrstuvwxyz")
                                     for _ in range(1100)) + "\n" for _ in range(1200)),
                     encoding="utf-8")
    out = tmp_path / "boards.jsonl"
    result = run("crossword", "--vocab", vocab, "--min-len", "2", "--max-len", "3996", "-n",
                 "1", "--seed", "1", "-o", out)
    assert result.exit_code == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "ran out of their budget" in result.stderr
    assert "internal error" not in result.stderr and not out.exists()


def test_a_deck_of_long_words_is_not_probed_and_a_real_one_is(monkeypatch):
    """Probing 64 attempts an answer is worth it where attempts are cheap; in a vocabulary
    holding a word of more than SHORT_WORD letters it is skipped (every candidate may be
    dealt, and a dealt answer that fails gives way after half the budget)."""
    probed: list[int] = []
    real = board_module.generate

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        probed.append(args[4])
        return real(*args, **kwargs)

    monkeypatch.setattr(board_module, "generate", counted)
    long = prepare(vocabulary(long_words(KANJI[:400], 300, 70, 400, 4, answer_letters=40)))
    request = Request()
    cands = board_module.check_request(long, request)
    assert board_module.dealable(long, request, cands) == cands and not probed
    short = lexicon_from_words(["cat", "car", "tar", "rat", "arc", "act", "tac", "art", "zzz"])
    request = Request(3, 3)
    cands = board_module.check_request(short, request)
    board_module.dealable(short, request, cands)
    assert sorted(probed) == sorted(cands)
