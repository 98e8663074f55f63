"""Vocabulary to lexicon: normalised letters, duplicates dropped, words indexed by letter.

Words compare normalised: NFKC first. Japanese: hiragana folds to katakana and, on by default,
small kana to full size (ッ->ツ, ャ->ヤ), as printed Japanese crosswords do. English: case-folded
letters only. Any other script: its letters (Unicode categories L and M). A word holding a
space, digit or symbol cannot be a board's word: it is skipped and returned in
``Lexicon.skipped`` with its line and reason (the intake policy every engine shares: skip,
name file:line, count; ``strict=True``, the CLI's ``--strict-vocab``, refuses it instead, for
CI). A word that normalises to one seen before is dropped and returned in
``Lexicon.duplicates``. Each kept word's spelling as the vocabulary gives it stays beside its
folded grid letters (``Lexicon.spellings``).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.crossword.layout import ATTEMPT_WORK, Pools
from wordforge_cli.io.vocab import Skipped, Vocabulary

Limits = tuple[int | None, int | None]  # (max_width, max_height)

SMALL_KANA = str.maketrans("ァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ",
                           "アイウエオツヤユヨワカケクシストヌハヒフヘホムラリルレロ")
CHOON = "ー"
# The longest word any board can hold: an attempt's work (layout.ATTEMPT_WORK) pays each placed
# word's length, and the smallest board holds a second word (1 to try, 1 crossing, 2 letters);
# a longer word is skipped at intake, its file:line named, instead of costing every attempt
# that draws it.
LONGEST_WORD = ATTEMPT_WORK - 4
SHOWN = 40  # letters of an unusable entry a warning quotes (a long one is cut)


_HIRAGANA = re.compile("[\u3041-\u3096]")
_TO_KATAKANA = {c: c + 0x60 for c in range(0x3041, 0x3097)}
_SMALL = re.compile("[" + "".join(map(chr, SMALL_KANA)) + "]")
# anything but what a Japanese board's letter may be (katakana, the long-vowel mark, the small
# katakana extensions): one C-level scan, where a loop over a word of thousands of letters was
# most of reading it
_NOT_KATAKANA = re.compile("[^\u30a1-\u30fa\u30fc\u31f0-\u31ff]")
_SPACE = re.compile(r"\s")  # (str.isspace's characters, exactly: checked over every one)


def _hira_to_kata(text: str) -> str:
    return text.translate(_TO_KATAKANA) if _HIRAGANA.search(text) else text


_KANA = re.compile("[\u3041-\u30ff\uff66-\uff9f]")


def guess_language(words: list[str]) -> str | None:
    """``ja`` when any word holds kana, ``en`` when every word is ASCII, else unknown."""
    text = "".join(words)  # one C-level scan (a 100,000-word list: 60 ms a letter at a time)
    if _KANA.search(text):
        return "ja"
    if text.isascii():
        return "en"
    return None


def normalise(word: str, language: str | None, *, fold_small: bool = True) -> str:
    """The word as the board holds it; ``ValueError(reason)`` when it is not a word of letters."""
    if language != "ja" and word.isascii() and word.isalpha():
        # ASCII letters only (most of a big English list): NFKC, the space check and the
        # letter check below change nothing
        return word.casefold() if language == "en" else word
    text = unicodedata.normalize("NFKC", word)
    if _SPACE.search(text):
        raise ValueError("contains a space")
    if language == "ja":
        text = _hira_to_kata(text)
        if fold_small and _SMALL.search(text):
            text = text.translate(SMALL_KANA)
        bad = _NOT_KATAKANA.search(text)
        if bad:
            raise ValueError(f"{_describe(bad.group())} is not kana")
        return text
    if language == "en":
        text = text.casefold()
    if text.isalpha():  # letters only (category L): what the loop below accepts, at C speed
        return text
    for c in text:
        cat = unicodedata.category(c)
        if not (cat[0] in "LM" or c == CHOON):
            raise ValueError(f"{_describe(c)} is not a letter")
    return text


def _describe(ch: str) -> str:
    cat = unicodedata.category(ch)
    kind = {"N": "digit", "P": "punctuation", "S": "symbol", "Z": "space"}.get(cat[0], "character")
    return f"{kind} '{ch}' (U+{ord(ch):04X})"


@dataclass
class LexiconCache:
    """What the generator works out once per vocabulary, one typed slot per kind of thing
    (each value a pure function of the vocabulary and its key, so the same in every process
    and shard; the bounded ones say their bound where they are filled)."""

    index: dict[str, int] | None = None  # word -> id
    pools: dict[Limits, tuple[Pools, Pools]] = field(default_factory=dict)  # (down, across)
    # words of a length band that can be answers under a size limit: (lo, hi, width, height)
    candidates: dict[tuple[int, int, int | None, int | None], tuple[int, ...]] = field(
        default_factory=dict)
    # a board.Request's answers (board imports this module: the caches name its types loosely)
    checked: dict[Hashable, tuple[int, ...]] = field(default_factory=dict)
    dealable: dict[tuple[Any, ...], tuple[int, ...]] = field(default_factory=dict)  # probed
    partners: dict[Limits, tuple[dict[Any, Any], dict[Any, Any]]] = field(default_factory=dict)
    tables: dict[Limits, Any] = field(default_factory=dict)  # board.AttemptTables, per size limit
    # finished layouts of a small vocabulary: (answer, placed..., answer cells) -> w, h, words,
    # cells
    boards: dict[tuple[Any, ...], tuple[Any, ...]] = field(default_factory=dict)
    # each word's letters as a bit mask (bit k: the k-th letter of by_letter), for the
    # candidate check of a small vocabulary
    letter_masks: tuple[int, ...] = ()
    record_parts: dict[tuple[Any, str], Any] = field(default_factory=dict)  # (layout, style)
    # styles -> layout key -> the styles that blank nothing on it (the statistics' blank counts)
    blank_counts: dict[tuple[str, ...], dict[tuple[object, ...], tuple[str, ...]]] = field(
        default_factory=dict)
    # id of a shared words list -> (words, cells, inputs, JSON of the layout's part by fields)
    record_shared: dict[int, tuple[list[Any], list[Any], list[Any], dict[tuple[Any, ...], str]]] \
        = field(default_factory=dict)
    # (layout, style, label, blanked) -> a record's JSON from "answer" to "blanked" (UTF-8);
    # the JSON of one (x, y, letter, n) cell or one placed (word, x, y, dir), and of one
    # string (an answer, a spelling, a style, a label): records.board_line's fragments
    record_lines: dict[tuple[Any, ...], bytes] = field(default_factory=dict)
    cell_json: dict[tuple[Any, ...], bytes] = field(default_factory=dict)
    text_json: dict[str | None, bytes] = field(default_factory=dict)
    # words of one length and their (position, letter) index, for the fairness solver
    unique_index: dict[int, tuple[frozenset[int], dict[Any, frozenset[int]]]] = field(
        default_factory=dict)
    # the ids of the words of one length, ascending (the familiarity-aware solver's draws)
    length_ids: dict[int, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A word dropped because it normalises to an earlier one."""

    word: str
    line: int
    normalised: str
    first_line: int


EAGER_WORDS = 50_000  # above this, letter positions are computed when asked, not stored
# and above this many letters in all: a stored position is an int object and a tuple slot
# (about 40 bytes a letter), so 9,000 words of 3,000 letters would hold a gigabyte; real
# vocabularies (50,000 words of up to 20 letters) stay well below it
EAGER_LETTERS = 2_000_000


def letter_positions(word: str) -> dict[str, tuple[int, ...]]:
    """``{letter: positions}`` of one word."""
    pos: dict[str, list[int]] = {}
    for k, c in enumerate(word):
        pos.setdefault(c, []).append(k)
    return {c: tuple(v) for c, v in pos.items()}


class LazyPositions:
    """``positions[i]`` computed on each access: for vocabularies too big to hold one small
    dict per word (a million words would take ~400 MB), where only a few words are touched."""

    __slots__ = ("words",)

    def __init__(self, words: tuple[str, ...]):
        self.words = words

    def __getitem__(self, i: int) -> dict[str, tuple[int, ...]]:
        return letter_positions(self.words[i])

    def __len__(self) -> int:
        return len(self.words)


@dataclass
class Lexicon:
    """Normalised words with the indexes the generator needs (build with :func:`prepare`).

    ``by_letter[c]``: ids of the words holding letter ``c`` (each once, in vocabulary order);
    ``positions[i][c]``: the positions of ``c`` in word ``i``; ``index[word]``: its id.
    """

    name: str
    language: str | None
    words: tuple[str, ...]
    lines: tuple[int, ...]
    hints: tuple[str | None, ...]
    path: str = ""
    spellings: tuple[str, ...] = ()  # each word as the vocabulary gives it (default: words)
    duplicates: list[Duplicate] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    by_letter: dict[str, tuple[int, ...]] = field(default_factory=dict, repr=False)
    positions: list[dict[str, tuple[int, ...]]] | LazyPositions = field(default_factory=list,
                                                                       repr=False)
    cache: LexiconCache = field(default_factory=LexiconCache, repr=False)
    partners: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if len(self.spellings) != len(self.words):
            self.spellings = self.words
        eager = len(self.words) <= EAGER_WORDS and sum(map(len, self.words)) <= EAGER_LETTERS
        if eager:
            self.positions = [letter_positions(w) for w in self.words]
        else:
            self.positions = LazyPositions(self.words)
        by_letter: defaultdict[str, list[int]] = defaultdict(list)
        for i, word in enumerate(self.words):
            # each letter once, in word order (a word's positions hold its letters so: a word
            # of thousands of letters is not walked again)
            for c in self.positions[i] if eager else dict.fromkeys(word):
                by_letter[c].append(i)
        self.by_letter = {c: tuple(v) for c, v in by_letter.items()}

    @property
    def index(self) -> dict[str, int]:
        """Word -> id, built on first use (challenge sets need it; batches do not)."""
        if self.cache.index is None:
            self.cache.index = {w: i for i, w in enumerate(self.words)}
        return self.cache.index

    def __len__(self) -> int:
        return len(self.words)


def prepare(vocab: Vocabulary, *, fold_small: bool = True,
            language: str | None = None, strict: bool = False) -> Lexicon:
    """Normalise a vocabulary into a :class:`Lexicon`.

    An entry that is not letters only (or shorter than 2) is skipped and listed in
    ``skipped``; with ``strict`` it raises ConfigError (file:line, the word) instead. Fewer
    than two words left is a ConfigError. Duplicates after normalisation are dropped and
    returned.
    """
    lang = (language or vocab.language or guess_language(vocab.words) or "").lower() or None
    words: list[str] = []
    lines: list[int] = []
    hints: list[str | None] = []
    spellings: list[str] = []
    first: dict[str, int] = {}
    dups: list[Duplicate] = []
    skipped: list[Skipped] = []
    for entry in vocab.entries:
        try:
            norm = normalise(entry.word, lang, fold_small=fold_small)
            if len(norm) < 2:
                raise ValueError("is shorter than 2 letters")
            if len(norm) > LONGEST_WORD:
                raise ValueError(f"is {len(norm):,} letters long; no board holds a word of "
                                 f"more than {LONGEST_WORD:,} (each attempt at a board "
                                 f"places at most {ATTEMPT_WORK:,} cells)")
        except ValueError as exc:
            reason = str(exc)
            shown = (entry.word if len(entry.word) <= SHOWN
                     else f"{entry.word[:SHOWN // 2]}...{entry.word[-SHOWN // 4:]}")
            if strict:
                raise ConfigError(f"word '{shown}' {reason} (--strict-vocab refuses "
                                  "entries that cannot be used)", path=vocab.path,
                                  line=entry.line) from None
            skipped.append(Skipped(entry.line, shown, reason))
            continue
        if norm in first:
            dups.append(Duplicate(entry.word, entry.line, norm, first[norm]))
            continue
        first[norm] = entry.line
        words.append(norm)
        lines.append(entry.line)
        hints.append(entry.hint)
        spellings.append(entry.word)
    if len(words) < 2:
        more = f" ({len(skipped)} entries skipped as unusable)" if skipped else ""
        raise ConfigError(f"a crossword needs at least 2 distinct words{more}", path=vocab.path)
    return Lexicon(vocab.name, lang, tuple(words), tuple(lines), tuple(hints), vocab.path,
                   tuple(spellings), dups, skipped)
