"""The English tables of WordForge, read fast: the word table (``data/english.tsv``), Zipf values
from wordfreq, the user's ``--cefr`` and ``--overrides`` files, and the rules config.

Two ways to read the word table: one word at a time (binary search over the sorted file through
mmap: ``wfkit rarity labyrinth`` never reads the whole file) and whole (one regex pass into a
dict, for batches). Zipf values mirror ``wordfreq.zipf_frequency`` exactly for words of letters
a-z (a test checks every frequency band against it), without building wordfreq's float dict.
"""

from __future__ import annotations

import math
import mmap
import os
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, cast

from wordforge_cli.core.errors import CONTROLS, ConfigError
from wordforge_cli.wordforge.rarity import (
    LEVELS,
    Rules,
    Tables,
    WordInfo,
    normal_word,
    rules_from_config,
    word_problem,
)

WORD_TABLE = "english.tsv"
FIELDS = 5  # word, cefr, lemma, pos, gloss


def word_table_path(path: str | Path | None = None) -> Path:
    if path is not None:
        return Path(path)
    from wordforge_cli.io.paths import data_file

    return data_file(WORD_TABLE)


_ROW = re.compile(r"([^\t\n]+)\t([^\t\n]*)\t([^\t\n]*)\t([^\t\n]*)\t([^\t\n]*)")
_ROWS = re.compile("^" + _ROW.pattern + "$", re.M)
# what a message escapes, but the tab and newline that separate a table's fields and rows
_TABLE_CONTROL = re.compile(f"(?![\t\n])[{CONTROLS}]")
_LEVELS = frozenset(("", *LEVELS))


def _bad_line(text: str, path: Any) -> ConfigError:
    """The first line that is not ``word<TAB>cefr<TAB>lemma<TAB>pos<TAB>gloss``."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line and number > text.count("\n"):
            break
        row = _ROW.fullmatch(line)
        if row is None:
            return ConfigError(f"expected {FIELDS} tab-separated fields "
                               "(word, cefr, lemma, pos, gloss)", path=path, line=number)
        if row[2] not in _LEVELS:
            return ConfigError(f"unknown CEFR level '{row[2]}' (levels: {', '.join(LEVELS)})",
                               path=path, line=number)
    return ConfigError("cannot read the word table", path=path)  # pragma: no cover


def _rows(text: str, path: Any) -> list[tuple[str, str, str, str, str]]:
    """The table's lines as five fields each: no control character (a gloss reaches table,
    csv and md output), every line of the form, every CEFR level known."""
    control = _TABLE_CONTROL.search(text)
    if control is not None:
        raise ConfigError(f"a field has a control character (U+{ord(control.group()):04X}); "
                          "it would break lines", path=path,
                          line=text.count("\n", 0, control.start()) + 1)
    rows: list[tuple[str, str, str, str, str]] = _ROWS.findall(text)
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    if len(rows) != lines or not {row[1] for row in rows} <= _LEVELS:
        raise _bad_line(text, path)
    return rows


def check_word_table(text: str, path: Any) -> dict[str, tuple[str, str, str, str, str]]:
    """A user's word table, checked whole before any lookup: every line five tab-separated
    fields with a known CEFR level, the words strictly sorted in byte order (what the binary
    search relies on: ``LC_ALL=C sort``), no word twice, and a final newline (a table cut
    short mid-copy usually lacks it). Returns word -> its five fields."""
    rows = _rows(text, path)
    if text and not text.endswith("\n"):
        raise ConfigError("the last line has no newline (a truncated table?)", path=path,
                          line=text.count("\n") + 1)
    previous = ""
    for number, row in enumerate(rows, start=1):
        word = row[0]
        if word <= previous:
            if word == previous:
                raise ConfigError(f"'{word}' is listed twice", path=path, line=number)
            raise ConfigError(f"not sorted: '{word}' comes after '{previous}' (a word table is "
                              "sorted by word in byte order, as LC_ALL=C sort gives)",
                              path=path, line=number)
        previous = word
    return {row[0]: row for row in rows}


def _read_table(path: Path) -> str:
    from wordforge_cli.io.yamlio import read_text

    try:
        return read_text(path, "word table")
    except ConfigError as exc:
        if exc.message == "no such file":
            raise ConfigError("no such file (the word table; see data/english.md)",
                              path=path) from None
        raise


class MappedWords:
    """The sorted word table searched in place (binary search): no parse of the whole table.

    The bundled table is package data, searched through mmap without a full read (a test
    proves it passes :func:`check_word_table`); a user's table is read and checked whole when
    it is opened, so a binary search never runs over a table that is not sorted."""

    def __init__(self, path: Path, *, trusted: bool = False):
        from wordforge_cli.io.inputs import open_regular

        self.path = path
        self._mm: bytes | mmap.mmap
        if not trusted:
            text = _read_table(path)
            check_word_table(text, path)
            self._mm = text.encode("utf-8")
        else:
            try:
                fd, info = open_regular(path, "word table")
            except ConfigError as exc:
                if exc.message == "no such file":
                    raise ConfigError("no such file (the word table; see data/english.md)",
                                      path=path) from None
                raise
            try:
                self._mm = mmap.mmap(fd, 0, access=mmap.ACCESS_READ) if info.st_size else b""
            except (ValueError, OSError) as exc:
                raise ConfigError(f"cannot read the word table: {exc}", path=path) from None
            finally:
                os.close(fd)
        self._cache: dict[str, WordInfo | None] = {}

    def _find(self, key: bytes) -> bytes | None:
        mm = self._mm
        lo, hi = 0, len(mm)
        while lo < hi:  # lo is always the start of a line
            mid = (lo + hi) // 2
            start = mm.rfind(b"\n", lo, mid) + 1 or lo
            end = mm.find(b"\n", start)
            if end == -1:
                end = len(mm)
            line = mm[start:end]
            word = line.split(b"\t", 1)[0]
            if word == key:
                return line
            if word < key:
                lo = end + 1
            else:
                hi = start
        return None

    def get(self, word: str, default: Any = None) -> WordInfo | None:
        if word not in self._cache:
            line = self._find(word.encode("utf-8"))
            info = None
            if line is not None:
                text = line.decode("utf-8", errors="replace")
                row = _ROW.fullmatch(text)
                if row is None or row[2] not in _LEVELS:
                    raise ConfigError(f"the line of '{word}' is not {FIELDS} tab-separated "
                                      "fields with a known CEFR level", path=self.path)
                info = WordInfo(*row.groups())
            self._cache[word] = info
        info = self._cache[word]
        return info if info is not None else default


def load_words(path: Path, *, trusted: bool = False) -> dict[str, tuple[str, str, str, str, str]]:
    """The whole word table: word -> its line's five fields ("" when empty), checked (a
    user's table fully, as :func:`check_word_table`; the bundled one line by line)."""
    text = _read_table(path)
    if not trusted:
        return check_word_table(text, path)
    rows = _rows(text, path)
    return {row[0]: row for row in rows}


def open_words(path: str | Path | None = None, *,
               whole: bool = False) -> Mapping[str, Any]:
    """The word table: whole in a dict (batches), or searched in place (a few words: only its
    ``.get`` is ever used, which :class:`MappedWords` has).

    ``path`` None is the bundled table (trusted package data); any other is checked."""
    trusted = path is None
    table = word_table_path(path)
    if whole:
        return load_words(table, trusted=trusted)
    return cast("Mapping[str, Any]", MappedWords(table, trusted=trusted))


# --------------------------------------------------------------------------- zipf

def band_zipf(index: int) -> float:
    """``zipf_frequency`` of any plain word in wordfreq's frequency band ``index``.

    wordfreq stores band i at 10^(-i/100); ``word_frequency`` rounds it to 3 significant
    digits and ``zipf_frequency`` to 2 decimals. This repeats those steps with wordfreq's own
    functions, so the result is the same float (tests compare every band).
    """
    from wordfreq import cB_to_freq, freq_to_zipf, zipf_to_freq

    freq = 1.0 / (1.0 / cB_to_freq(-index))
    freq = max(freq, zipf_to_freq(0.0))
    freq = round(freq, math.floor(-math.log(freq, 10)) + 3)
    return round(freq_to_zipf(freq), 2)


def _bands() -> list[list[str]]:
    from wordfreq import get_frequency_list

    return get_frequency_list("en", "best")


class ZipfOne:
    """Zipf values looked up one at a time (a scan of wordfreq's bands, no dict built)."""

    def __init__(self) -> None:
        self._cache: dict[str, float] = {}

    def get(self, word: str, default: float = 0.0) -> float:
        if word not in self._cache:
            value = 0.0
            for index, band in enumerate(_bands()):
                if word in band:
                    value = band_zipf(index)
                    break
            self._cache[word] = value
        return self._cache[word] or default


@cache
def zipf_table() -> dict[str, float]:
    """Every word wordfreq knows -> its Zipf value (for batches)."""
    table: dict[str, float] = {}
    for index, band in enumerate(_bands()):
        table.update(dict.fromkeys(band, band_zipf(index)))
    return table


# --------------------------------------------------------------------------- user files

def read_rules(path: str | Path | None = None) -> Rules:
    """Rules from a config file (default: the bundled ``configs/rarity.yaml``)."""
    from wordforge_cli.io.yamlio import load_yaml

    if path is None:
        from wordforge_cli.io.checks import bundled_config

        path = bundled_config("rarity")
    doc = load_yaml(path, "config")
    return rules_from_config(doc.data, doc)


def _yaml_pairs(path: Path, what: str, kind: str) -> Iterator[tuple[str, Any, int]]:
    """(key, value, line) of a flat YAML mapping, keys as written (``no:`` stays 'no'); at
    most a million, read from the parser's events (a tree of nodes took 650 MB for 8 MB)."""
    from wordforge_cli.io.vocab import entries_at_most
    from wordforge_cli.io.yamlio import load_values, read_text

    text = read_text(path, kind, before=entries_at_most(path, what))
    doc = load_values(text, path, pairs=True)
    if doc.data is None:
        return
    if not isinstance(doc.data, dict):
        raise ConfigError(f"{what} must be a mapping 'word: value'", path=path,
                          line=doc.line())
    for key, line, value, value_line in doc.pairs:
        if key is None:
            raise ConfigError("a key must be a word", path=path, line=line)
        if value is None:
            raise ConfigError(f"the value of '{key}' must be a single name", path=path,
                              line=value_line)
        yield key, value, line


def _checked_word(text: str, path: Path, line: int) -> str:
    problem = word_problem(text)
    if problem:
        raise ConfigError(problem, path=path, line=line)
    return normal_word(text.strip())


def read_cefr(path: str | Path) -> dict[str, str]:
    """A user CEFR table: YAML ``word: A1..C2`` or CSV ``word,level`` (header optional)."""
    path = Path(path)
    if path.suffix.lower() in (".csv", ".tsv"):
        rows = _csv_rows(path)
    else:
        rows = _yaml_pairs(path, "a CEFR table", "CEFR table")
    table: dict[str, str] = {}
    for word, level, line in rows:
        word = _checked_word(word, path, line)
        level_text = str(level).strip().upper()
        if level_text not in LEVELS:
            raise ConfigError(f"unknown CEFR level '{level}' for '{word}' "
                              f"(levels: {', '.join(LEVELS)})", path=path, line=line)
        if table.get(word, level_text) != level_text:
            raise ConfigError(f"'{word}' is listed twice with different levels", path=path,
                              line=line)
        table[word] = level_text
    return table


def _csv_rows(path: Path) -> Iterator[tuple[str, str, int]]:
    import csv

    from wordforge_cli.io.vocab import entries_at_most
    from wordforge_cli.io.yamlio import read_text, text_lines

    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    text = read_text(path, "CEFR table", before=entries_at_most(path, "a CEFR table"))
    reader = csv.reader(text_lines(text), delimiter=delimiter)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:  # e.g. a field over csv's limit of 128 KiB
            raise ConfigError(f"not a CEFR table: {exc}", path=path,
                              line=reader.line_num) from None
        line = reader.line_num
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != 2:
            raise ConfigError(f"expected 2 columns 'word,level', found {len(row)}", path=path,
                              line=line)
        word, level = (cell.strip() for cell in row)
        if line == 1 and word.lower() == "word" and level.lower() == "level":
            continue
        yield word, level, line


def read_overrides(path: str | Path, rules: Rules) -> dict[str, str]:
    """The per-form table: YAML ``word: tier-key`` (e.g. ``cats: normal``)."""
    from wordforge_cli.io.checks import did_you_mean

    path = Path(path)
    table: dict[str, str] = {}
    for word, tier, line in _yaml_pairs(path, "an overrides table", "overrides table"):
        word = _checked_word(word, path, line)
        if word in table:
            raise ConfigError(f"'{word}' is listed twice", path=path, line=line)
        if tier not in rules.keys:
            raise ConfigError(f"unknown tier '{tier}' for '{word}'"
                              f"{did_you_mean(str(tier), rules.keys)} "
                              f"(tiers: {', '.join(rules.keys)})", path=path, line=line)
        table[word] = tier
    return table


def check_overrides(table: Mapping[str, str], rules: Rules, path: str | Path) -> None:
    """An overrides table read for one config must name tiers another config also has."""
    for word, tier in table.items():
        if tier not in rules.keys:
            raise ConfigError(f"override '{word}: {tier}' names a tier this config lacks",
                              path=path)


def open_tables(rules: Rules, *, data: str | Path | None = None, cefr: str | Path | None = None,
                overrides: str | Path | None = None, whole: bool = False) -> Tables:
    """The tables of one run: ``whole`` loads everything (batches), else looks up lazily."""
    return Tables(
        words=open_words(data, whole=whole),
        zipf=zipf_table() if whole else ZipfOne(),
        cefr=read_cefr(cefr) if cefr is not None else None,
        overrides=read_overrides(overrides, rules) if overrides is not None else {},
        # no lemmatize: lemmas come precomputed (simplemma, at build time) in the word table;
        # a word it lacks is not playable and gets no lemma step
    )
