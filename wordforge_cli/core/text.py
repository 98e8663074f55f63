"""The one set of control characters wfkit never lets out raw, and the one way to show them.

A control character in a message or an output could break it over lines, drive the terminal
that shows it (ESC, CSI), ring its bell or show text in another order than it has (U+202E).
Where text is read, a word, hint, name, label or table field holding one is refused; where
text goes out (every message, and every byte of every text output: renders, SVG, ipuz,
HTML, JSON, csv and md tables, pack files) what is left of the set is shown escaped, by the
functions here, so that no road a crafted file or name finds to an output carries one raw.

The escapes are ``\\n``, ``\\r``, ``\\t``, ``\\xNN`` for the other characters below U+0020 and
``\\uNNNN`` for the rest. That is valid JSON too: JSON writers escape everything below U+0020
themselves, so inside a JSON document only the ``\\uNNNN`` form is ever made, which reads
back as the character it stands for (lossless).
"""

from __future__ import annotations

import re

# (first, last) code points: C0 and C1 controls and DEL, the left-to-right and right-to-left
# marks, the line and paragraph separators with the bidirectional embeddings and overrides
# (U+2028-U+202E), the bidirectional isolates, and the lone surrogates (what undecodable
# bytes of a file name become: no UTF-8 output can hold one)
RANGES: tuple[tuple[int, int], ...] = (
    (0x00, 0x1F), (0x7F, 0x9F), (0x200E, 0x200F), (0x2028, 0x202E), (0x2066, 0x2069),
    (0xD800, 0xDFFF))


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)


# the set as the inside of a regular-expression class, for the checks where text is read
CONTROLS = _class(RANGES)
_CONTROL = re.compile(f"[{CONTROLS}]")
# a document keeps its line breaks: the set but U+000A
_IN_TEXT = re.compile("[" + _class(((0x00, 0x09), (0x0B, 0x1F), *RANGES[1:])) + "]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _utf8_members() -> list[bytes]:
    """The set but the line break, as UTF-8 (surrogates have none)."""
    return [chr(code).encode() for first, last in RANGES for code in range(first, last + 1)
            if code != 0x0A and not 0xD800 <= code <= 0xDFFF]


def _utf8_pattern() -> re.Pattern[bytes]:
    """The members as UTF-8: one class of last bytes per leading bytes, so a search runs
    at the speed of a character class."""
    groups: dict[bytes, list[int]] = {}
    for encoded in _utf8_members():
        groups.setdefault(encoded[:-1], []).append(encoded[-1])
    return re.compile(b"|".join(
        re.escape(lead) + b"[" + b"".join(re.escape(bytes([byte])) for byte in ends) + b"]"
        for lead, ends in groups.items()))


_CONTROL_UTF8 = _utf8_pattern()
# every byte that begins no member's UTF-8: deleting them leaves nothing from most texts,
# a C pass several times faster than the search
_UTF8_CLEAN = bytes(sorted(set(range(256)) - {m[0] for m in _utf8_members()}))


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}")


# Every member of the set is a character Python does not call printable (categories Cc,
# Cf, Zl, Zp, Cs), so ``str.isprintable`` (one pass in C, nothing built) proves a text
# holds none; a text it does not clear (a line break, an ideographic space) is searched.


def one_line(text: str) -> str:
    """``text`` with every control character shown escaped, so it prints as one line (a
    message, a table cell)."""
    if text.isprintable():
        return text
    return _CONTROL.sub(_escape, text)


def shown(text: str) -> str:
    """``text`` as an output holds it: every control character but the line break shown
    escaped (a document of many lines: a render, a table, JSON Lines, a page)."""
    if text.isprintable() or all(line.isprintable() for line in text.split("\n")):
        return text
    return _IN_TEXT.sub(_escape, text)


def shown_utf8(data: bytes) -> bytes:
    """:func:`shown` on UTF-8 bytes of whole characters; the same bytes (the same object)
    when there is nothing to escape, as nearly always."""
    if not data.translate(None, _UTF8_CLEAN) or _CONTROL_UTF8.search(data) is None:
        return data
    return shown(data.decode("utf-8", "surrogateescape")).encode("utf-8")


_JSON_LEADS = tuple(lead for lead in sorted({m[0] for m in _utf8_members()}) if lead >= 0x20)


def shown_json_utf8(data: bytes) -> bytes:
    """:func:`shown_utf8` of JSON text (no raw byte below 0x20): a C search for each first byte
    a member has above it (as ints), where the general check reads every byte."""
    for lead in _JSON_LEADS:
        if lead in data:
            return shown_utf8(data)
    return data


def _unfinished(data: bytes) -> int:
    """How many bytes at the end of ``data`` begin a UTF-8 character they do not finish."""
    for back in range(1, min(3, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return 0
        if byte >= 0xC0:  # a leading byte: 2, 3 or 4 bytes long
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return back if need > back else 0
    return 0


class ShownStream:
    """:func:`shown_utf8` over bytes written in pieces that may end inside a character
    (blocks copied from a file): those bytes wait for the next piece, or :meth:`end`."""

    def __init__(self) -> None:
        self.held = b""

    def __call__(self, data: bytes) -> bytes:
        if self.held:
            data, self.held = self.held + data, b""
        cut = _unfinished(data)
        if cut:
            data, self.held = data[:-cut], data[-cut:]
        return shown_utf8(data)

    def end(self) -> bytes:
        """What is held at the end: an unfinished character, shown escaped."""
        held, self.held = self.held, b""
        return shown(held.decode("utf-8", "surrogateescape")).encode("utf-8") if held else b""
