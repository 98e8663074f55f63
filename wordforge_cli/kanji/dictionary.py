"""The jukugo dictionary, indexed by kanji so that a pool costs only what its kanji touch.

A kanji is one code point of CJK Unified Ideographs (U+4E00-U+9FFF), Extension A (U+3400-U+4DBF)
or CJK Compatibility Ideographs (U+F900-U+FAFF). The iteration mark 々 is not one: a 々 tile
cannot be read alone and would join any word (data/build/jukugo.py applies the same rule).

A word may be an *answer only*: ``kanji check`` accepts it and it counts among a pool's hidden
compounds, but no pool draws it onto a board. The bundled list marks so the words that have no
frequency evidence of their own (compounds estimated from their parts, idioms no frequency list
has): drawn, they would crowd the long, rare words into every pool, since a long word shares
more kanji with the base than a short one; and the words no list of common words has (every
player meets a drawn word, so it must be one an ordinary adult knows; data/jukugo.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.io.vocab import Skipped, read_vocab
from wordforge_cli.io.yamlio import read_text, text_lines

MIN_KANJI, MAX_KANJI = 2, 6
GRADE_OTHER = 9  # any kanji that is neither joyo nor jinmeiyo
DEFAULT_DICT = "jukugo.tsv"
GRADES_FILE = "kanji_grades.tsv"
ANSWER_ONLY = "answer"  # the optional third column of a .tsv row


KANJI_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
JUKUGO = re.compile(f"[{KANJI_CLASS}]{{{MIN_KANJI},{MAX_KANJI}}}")


def is_kanji(ch: str) -> bool:
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF


def not_a_jukugo(word: str) -> str | None:
    """Why ``word`` cannot be a dictionary entry, or None when it can."""
    bad = [ch for ch in word if not is_kanji(ch)]
    if bad:
        return f"not all kanji ({''.join(dict.fromkeys(bad))})"
    if not MIN_KANJI <= len(word) <= MAX_KANJI:
        return f"{len(word)} kanji (a jukugo has {MIN_KANJI} to {MAX_KANJI})"
    return None


@dataclass(frozen=True, slots=True)
class View:
    """The words a request may draw: the dictionary after its grade and frequency filters."""

    ids: tuple[int, ...]                   # candidates, ascending ids
    base_ids: tuple[int, ...]              # candidates a base word may be (stricter grade)
    postings: dict[str, tuple[int, ...]]   # kanji -> candidate ids holding it, ascending
    kanji_count: int                       # distinct kanji among the candidates


@dataclass(frozen=True)
class Dictionary:
    """Words with their frequency, distinct kanji and hardest grade; ids follow file order.

    The default file is sorted by frequency, so lower ids are commoner words.
    """

    source: str
    words: tuple[str, ...]
    zipf: tuple[float | None, ...]
    kanji_order: tuple[tuple[str, ...], ...]  # distinct kanji of each word, in reading order
    grade: tuple[int, ...]                    # hardest kanji grade of each word
    ids: dict[str, int]
    grades: Mapping[str, int]
    postings: dict[str, tuple[int, ...]]      # kanji -> ids of words holding it
    by_rarest: dict[str, dict[str, tuple[int, ...]]]
    # kanji -> {other kanji: ids} of the 2-kanji words whose least common kanji it is
    by_rarest_long: dict[str, tuple[tuple[int, frozenset[str]], ...]]
    # the same for words of 3 or more distinct kanji (other kanji as a set)
    skipped: tuple[Skipped, ...] = ()
    answer_only: frozenset[int] = frozenset()  # ids check accepts but no pool draws
    _views: dict[tuple[int, int, float | None], View] = field(default_factory=dict,
                                                              compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.words)

    def __repr__(self) -> str:
        return f"Dictionary({self.source!r}, {len(self.words)} words)"

    def view(self, max_grade: int = GRADE_OTHER, base_max_grade: int = GRADE_OTHER,
             min_zipf: float | None = None) -> View:
        """The filtered candidates (cached per filter: building one walks every word once)."""
        key = (max_grade, min(base_max_grade, max_grade), min_zipf)
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = self._build_view(*key)
        return view

    def _build_view(self, max_grade: int, base_max_grade: int, min_zipf: float | None) -> View:
        def frequent(i: int) -> bool:
            if min_zipf is None:
                return True
            z = self.zipf[i]
            return z is not None and z >= min_zipf

        if max_grade >= GRADE_OTHER and min_zipf is None and not self.answer_only:
            # nothing filtered: share the index
            ids = tuple(range(len(self.words)))
            base_ids = ids if base_max_grade >= GRADE_OTHER else tuple(
                i for i in ids if self.grade[i] <= base_max_grade)
            return View(ids, base_ids, self.postings, len(self.postings))
        undrawn = self.answer_only
        ids = tuple(i for i in range(len(self.words))
                    if self.grade[i] <= max_grade and frequent(i) and i not in undrawn)
        base_ids = tuple(i for i in ids if self.grade[i] <= base_max_grade)
        postings: dict[str, list[int]] = {}
        for i in ids:
            for ch in self.kanji_order[i]:
                postings.setdefault(ch, []).append(i)
        return View(ids, base_ids, {ch: tuple(v) for ch, v in postings.items()}, len(postings))


def build_dictionary(entries: Iterable[tuple[str, float | None, int]], grades: Mapping[str, int],
                     source: str = "<words>", answer_only: Iterable[str] = ()) -> Dictionary:
    """A dictionary from (word, zipf or None, line) entries; bad and repeated words are skipped.

    ``answer_only``: words that are answers but never drawn onto a board.
    """
    words: list[str] = []
    zipfs: list[float | None] = []
    ids: dict[str, int] = {}
    skipped: list[Skipped] = []
    good = JUKUGO.fullmatch
    for word, zipf, line in entries:
        if good(word) is None or word in ids:
            reason = not_a_jukugo(word) or "repeated"
            skipped.append(Skipped(line, word, reason))
            continue
        ids[word] = len(words)
        words.append(word)
        zipfs.append(zipf)
    order = tuple(tuple(dict.fromkeys(w)) for w in words)
    postings_lists: dict[str, list[int]] = {}
    for i, o in enumerate(order):
        for ch in o:
            postings_lists.setdefault(ch, []).append(i)
    postings = {ch: tuple(v) for ch, v in postings_lists.items()}
    grade_of = {ch: grades.get(ch, GRADE_OTHER) for ch in postings}
    grade = tuple(max(map(grade_of.__getitem__, o)) for o in order)
    # every word filed once, under its least common kanji: the hidden-compound search then
    # reads only the short lists of a pool's kanji instead of every word holding them
    rank = {ch: r for r, ch in enumerate(sorted(postings, key=lambda c: (len(postings[c]), c)))}
    rarest = rank.__getitem__
    pairs: dict[str, dict[str, list[int]]] = {}
    longer: dict[str, list[tuple[int, frozenset[str]]]] = {}
    for i, o in enumerate(order):
        key = min(o, key=rarest)
        if len(o) == 2:
            other = o[1] if o[0] == key else o[0]
            pairs.setdefault(key, {}).setdefault(other, []).append(i)
        else:
            longer.setdefault(key, []).append((i, frozenset(o).difference(key)))
    by_rarest = {ch: {o: tuple(ids) for o, ids in v.items()} for ch, v in pairs.items()}
    by_rarest_long = {ch: tuple(v) for ch, v in longer.items()}
    undrawn = frozenset(ids[w] for w in answer_only if w in ids)
    return Dictionary(source, tuple(words), tuple(zipfs), order, grade, ids, grades,
                      postings, by_rarest, by_rarest_long, tuple(skipped), undrawn)


@cache
def load_grades() -> dict[str, int]:
    """Kanji -> grade (1-6 school grade, 7 other joyo, 8 jinmeiyo) from data/kanji_grades.tsv."""
    from wordforge_cli.io.paths import data_file

    path = data_file(GRADES_FILE)
    table: dict[str, int] = {}
    for number, ch, value in _tsv_rows(path):
        try:
            table[ch] = int(value)
        except ValueError:
            raise ConfigError(f"grade must be a number, not {value!r}", path=path,
                              line=number) from None
    return table


def load_dictionary(path: str | Path | None = None) -> Dictionary:
    """The bundled jukugo list, or a user file replacing it.

    A ``.tsv`` file holds ``word<TAB>zipf`` rows (the bundled format), with an optional third
    column ``answer`` for a word that is an answer only; any other file is a wfkit vocabulary
    (one word a line, or YAML) whose words have no frequency.
    """
    grades = load_grades()
    if path is None:
        return _load_default()
    path = Path(path)
    answers: list[str] = []
    if path.suffix.lower() == ".tsv":
        entries = list(_tsv_entries(path, answers))
    else:
        vocab = read_vocab(path)
        entries = [(e.word, None, e.line) for e in vocab.entries]
    dictionary = build_dictionary(entries, grades, str(path), answers)
    if not dictionary.words:
        raise ConfigError("the dictionary has no usable jukugo (2 to 6 kanji each)", path=path)
    return dictionary


@cache
def _load_default() -> Dictionary:
    from wordforge_cli.io.paths import data_file

    path = data_file(DEFAULT_DICT)
    answers: list[str] = []
    entries = list(_tsv_entries(path, answers))
    return build_dictionary(entries, load_grades(), DEFAULT_DICT, answers)


def _tsv_rows(path: Path, answers: list[str] | None = None) -> Iterable[tuple[int, str, str]]:
    """(line, first, second) of each row; with ``answers``, a third column ``answer`` may follow
    and the rows that have it are noted there."""
    for number, raw in enumerate(text_lines(read_text(path)), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.split("\t")
        if answers is not None and len(parts) == 3:
            flag = parts[2].strip()
            if flag == ANSWER_ONLY:
                answers.append(parts[0].strip())
            elif flag:
                raise ConfigError(f"the third column may only be {ANSWER_ONLY!r}, not {flag!r}",
                                  path=path, line=number)
        elif len(parts) != 2:
            expected = "two or three" if answers is not None else "two"
            raise ConfigError(f"expected {expected} tab-separated columns", path=path,
                              line=number)
        yield number, parts[0].strip(), parts[1].strip()


def _tsv_entries(path: Path, answers: list[str]) -> Iterable[tuple[str, float | None, int]]:
    for number, word, value in _tsv_rows(path, answers):
        try:
            zipf = float(value) if value else None
        except ValueError:
            raise ConfigError(f"zipf must be a number, not {value!r}", path=path,
                              line=number) from None
        yield word, zipf, number
