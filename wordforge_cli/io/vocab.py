"""The vocabulary file every engine reads: YAML (``name``, ``language``, ``words``) or plain text.

A word entry is a string, or a mapping with ``word`` and an optional ``hint``. What counts as a
letter is each engine's business; this reader only guarantees non-empty strings with their line,
free of control characters: a word or hint holding a newline, tab, ESC or NUL is refused here,
with its file and line, so no output format (a JSON Lines record, a csv or table row, a text
board) can be split or corrupted by one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from wordforge_cli.core.errors import CONTROLS, ConfigError
from wordforge_cli.io.checks import check_mapping, type_name
from wordforge_cli.io.yamlio import load_values, read_text, text_lines

VOCAB_KEYS = ("name", "language", "words", "description", "source", "license")
ENTRY_KEYS = ("word", "hint")
TEXT_SUFFIXES = (".txt", ".text", ".lst", ".list")
_CONTROL = re.compile(f"[{CONTROLS}]")  # what a message escapes, a word or hint may not hold


def control_problem(text: str, what: str = "word") -> str | None:
    """Why ``text`` cannot be a word or hint: a control character in it, or None."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    return f"{what} has a control character (U+{ord(found.group()):04X}); it would break lines"


@dataclass(frozen=True, slots=True)
class VocabEntry:
    word: str
    line: int
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class Skipped:
    """An entry an engine leaves out at intake (a vocabulary's, a dictionary's), and why."""

    line: int
    word: str
    reason: str


@dataclass
class Vocabulary:
    path: str
    name: str
    language: str | None
    entries: list[VocabEntry] = field(default_factory=list)

    @property
    def words(self) -> list[str]:
        return [e.word for e in self.entries]


STDIN = "-"
# standard input has no suffix to tell the two forms apart: it is YAML when a line starts a
# top-level key of a YAML vocabulary (``words:``), else one word a line
_YAML_KEY = re.compile(rf"^(?:{'|'.join(VOCAB_KEYS)})[ \t]*:", re.MULTILINE)


# words of one vocabulary: memory grows with entries, not bytes (a parsed YAML entry costs
# hundreds of bytes, so 64 MB of one short word repeated took 3.4 GB); a million distinct
# words is what wfkit is measured to read
MAX_WORDS = 1_000_000
# characters of one hint: a clue a player reads is a line or two, and every record carries its
# words' hints to every reader (the pack preview draws no text longer than this)
MAX_HINT = 4096


def _too_many(count: int, path: Path, what: str = "words",
              holder: str = "the vocabulary") -> ConfigError:
    return ConfigError(f"{holder} has {count:,} {what}; at most {MAX_WORDS:,} words "
                       "are read (memory grows with each)", path=path)


def entries_at_most(path: str | Path, holder: str = "the vocabulary") -> Callable[[bytes], None]:
    """A check of a file's bytes before they are decoded (``read_text``'s ``before``): each
    entry of a word list or table needs a line or a comma, so one with more than twice
    :data:`MAX_WORDS` of them is refused unparsed, and never held as text as well."""
    def check(raw: bytes) -> None:
        rough = raw.count(b"\n") + raw.count(b",")
        if rough > 2 * MAX_WORDS:
            raise _too_many(rough, Path(path), "lines and commas", holder)

    return check


def read_vocab(path: str | Path) -> Vocabulary:
    """Read a vocabulary: YAML, or a text file with one word a line (``#`` starts a comment);
    ``-`` is standard input (the same bytes give the same words as a file, named ``stdin``
    unless the YAML names it), under the same size cap.

    At most MAX_WORDS entries: a file whose lines and commas (each entry needs one) are
    more than twice that is refused before it is parsed, the rest once counted."""
    stdin = str(path) == STDIN
    path = Path(path)
    check = entries_at_most(path)
    text = _stdin_text(path, check) if stdin else read_text(path, "vocabulary", before=check)
    if path.suffix.lower() in TEXT_SUFFIXES or (stdin and not _YAML_KEY.search(text)):
        vocab = _read_text_list(path, text)
    else:
        vocab = _read_yaml_vocab(path, text)
    if len(vocab.entries) > MAX_WORDS:
        raise _too_many(len(vocab.entries), path)
    if not vocab.entries:
        raise ConfigError("the vocabulary has no words", path=path)
    return vocab


def _stdin_text(path: Path, before: Callable[[bytes], None]) -> str:
    """Standard input, read once however many times a command reads its vocabulary (kept
    in the command's context: the next command of the same process reads its own)."""
    import click

    ctx = click.get_current_context(silent=True)
    meta: dict[str, object] = ctx.meta if ctx is not None else {}
    text = meta.get("wfkit.stdin_vocabulary")
    if not isinstance(text, str):
        text = meta["wfkit.stdin_vocabulary"] = read_text(path, "vocabulary", stdin=True,
                                                          before=before)
    return text


def _file_name(path: Path) -> str:
    """The name a vocabulary without one is shown by in titles (ipuz, SVG, sheets, stats): its
    file's stem, with bytes that are not UTF-8 shown as U+FFFD, since a title is written as
    UTF-8 and a lone surrogate from such a name cannot be."""
    if str(path) == STDIN:
        return "stdin"
    return os.fsencode(path.stem).decode("utf-8", "replace")


def _read_text_list(path: Path, text: str) -> Vocabulary:
    entries = []
    for number, raw in enumerate(text_lines(text), start=1):
        word = raw.split("#", 1)[0].strip()
        if word:
            problem = control_problem(word)
            if problem:
                raise ConfigError(problem, path=path, line=number)
            entries.append(VocabEntry(word, number))
    return Vocabulary(str(path), _file_name(path), None, entries)


def _read_yaml_vocab(path: Path, text: str) -> Vocabulary:
    """A YAML vocabulary, read from the parser's events (no tree of nodes: a million words
    with hints are a few hundred megabytes, not gigabytes), with every check of a wfkit
    YAML file."""
    doc = load_values(text, path, follow="words")
    if doc.data is None:
        raise ConfigError("the vocabulary file is empty", path=path)
    data = check_mapping(doc, doc.data, VOCAB_KEYS)
    if "words" not in data:
        raise doc.error("the vocabulary has no 'words' list")
    for key in ("name", "language"):
        if key in data and not isinstance(data[key], str):
            raise doc.error(f"'{key}' must be a string, not {type_name(data[key])}", key)
        problem = key in data and control_problem(data[key], key)  # a name titles renders
        if problem:
            raise doc.error(problem, key)
    words = data["words"]
    if words is None:
        words = []
    if not isinstance(words, list):
        raise doc.error(f"'words' must be a list, not {type_name(words)}", "words")
    lines = doc.item_lines
    entries = []
    for index, item in enumerate(words):
        line = lines[index]
        hint = None
        if isinstance(item, dict):
            check_mapping(doc, item, ENTRY_KEYS, "words", index, what="word key")
            if "word" not in item:
                raise ConfigError("word entry has no 'word'", path=path, line=line)
            hint = item.get("hint")
            if hint is not None and not isinstance(hint, str):
                raise ConfigError(f"hint must be a string, not {type_name(hint)}",
                                  path=path, line=line)
            if hint is not None and len(hint) > MAX_HINT:
                raise ConfigError(f"hint of {len(hint):,} characters; at most {MAX_HINT:,} "
                                  "(a clue a player reads)", path=path, line=line)
            item = item["word"]
        # (a scalar item of the list is its text as written: YAML 1.1 reads `- yes`, `- no`,
        # `- 12` as booleans and numbers, and in a word list they are what the user typed)
        if not isinstance(item, str):
            raise ConfigError(f"word must be a string, not {type_name(item)} ({item!r})",
                              path=path, line=line)
        word = item.strip()
        if not word:
            raise ConfigError("empty word", path=path, line=line)
        problem = control_problem(word) or (hint is not None and control_problem(hint, "hint"))
        if problem:
            raise ConfigError(problem, path=path, line=line)
        entries.append(VocabEntry(word, line, hint))
    name = data.get("name") or _file_name(path)
    return Vocabulary(str(path), name, data.get("language"), entries)
