"""Blank styles: which given letters (n == -2) a board hides, judged from neighbouring cells only
(as the article does it, never from which word a cell belongs to). Answer cells (n >= 0) and
crossings (n == -1) are never touched.

:data:`BLANK_STYLES` is the one table of them: each style's names and rule, in words and as
the bit mask of the cells it hides (a neighbour test is a shift, a style one expression). The
options and their help, the config's labels, the statistics and the schemas' enums read it;
``crossword/check.py`` states the rules again on its own, on purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(slots=True)
class Masks:
    """A board as bit masks over its grid with a border of empty squares (square ``(y + 1) *
    stride + x + 1``): the given letters, the answer cells, the cells with a neighbour on each
    side (left, right, above, below)."""

    stride: int
    given: int
    answers: int
    left: int
    right: int
    up: int
    down: int


@dataclass(frozen=True, slots=True)
class Style:
    """One blank style. ``ja``, ``en``: the name a player sees on a board of a Japanese
    vocabulary and of any other (the config's ``labels`` replace them; そのまま and 語尾かくし
    are the article's ENDLESS_BLANK_LABEL, the others ours in its manner); ``rule``: what it
    hides (``--help``), ``hides`` as bits."""

    name: str
    ja: str
    en: str
    rule: str
    hides: Callable[[Masks], int]


BLANK_STYLES: dict[str, Style] = {s.name: s for s in (
    Style("none", "そのまま", "as is", "nothing", lambda m: 0),
    Style("tail", "語尾かくし", "ends hidden", "the last cell of runs",
          lambda m: m.given & ((m.left & ~m.right) | (m.up & ~m.down))),
    Style("head", "語頭かくし", "starts hidden", "the first cell of runs",
          lambda m: m.given & ((m.right & ~m.left) | (m.down & ~m.up))),
    Style("alt", "市松かくし", "checkerboard", "the cells with x+y even",
          lambda m: m.given & _even(m.stride, m.given.bit_length())),
    Style("most", "ほぼかくし", "mostly hidden", "every given cell not beside an answer cell",
          lambda m: m.given & ~((m.answers << 1) | (m.answers >> 1) | (m.answers << m.stride)
                                | (m.answers >> m.stride))),
)}
STYLES: tuple[str, ...] = tuple(BLANK_STYLES)
# the languages the table names its styles in: a board shows the names of its vocabulary's
# language, English for any language the table has no names in
LANGUAGES: tuple[str, ...] = ("ja", "en")
LABELS: dict[str, dict[str, str]] = {
    language: {s.name: getattr(s, language) for s in BLANK_STYLES.values()}
    for language in LANGUAGES}


@lru_cache(maxsize=256)  # (a render asks it for every board)
def label_language(language: str | None) -> str:
    """The language whose style names a board of a ``language`` vocabulary shows: its own when
    the table has it (``ja``, ``ja-JP``), else English (the tool's own language)."""
    primary = (language or "").strip().lower().replace("_", "-").split("-")[0]
    return primary if primary in LANGUAGES else "en"


# Squares of a board above which its masks are set in bytes: a bit or-ed into an int costs the
# int's size, so a board of thousands of cells spanning thousands of squares each way (long
# words) cost cells x squares; in bytes it costs cells + squares. Smaller boards (every board
# of a real vocabulary) keep the plain ints, quicker there.
BYTES_FROM = 1 << 12


def masks(cells: Sequence[tuple[int, int, str, int]], width: int | None = None) -> Masks:
    """``cells`` (x, y, letter, n) as :class:`Masks`; ``width``: the board's (or more), if known."""
    if width is None:
        width = 1 + max((x for x, _y, _c, _n in cells), default=0)
    stride = width + 1
    if cells and (cells[-1][1] + 2) * stride > BYTES_FROM:  # (cells come sorted by y)
        return _byte_masks(cells, stride)
    occupied = given = answers = 0
    for x, y, _c, n in cells:
        bit = 1 << ((y + 1) * stride + x + 1)
        occupied |= bit
        if n == -2:
            given |= bit
        elif n >= 0:
            answers |= bit
    return Masks(stride, given, answers, occupied << 1, occupied >> 1, occupied << stride,
                 occupied >> stride)


def _byte_masks(cells: Sequence[tuple[int, int, str, int]], stride: int) -> Masks:
    """:func:`masks` of a big board, its bits set in bytes (the same ints)."""
    size = ((max(y for _x, y, _c, _n in cells) + 2) * stride + 8) // 8
    occupied, given, answers = bytearray(size), bytearray(size), bytearray(size)
    for x, y, _c, n in cells:
        square = (y + 1) * stride + x + 1
        at, bit = square >> 3, 1 << (square & 7)
        occupied[at] |= bit
        if n == -2:
            given[at] |= bit
        elif n >= 0:
            answers[at] |= bit
    whole = int.from_bytes(occupied, "little")
    return Masks(stride, int.from_bytes(given, "little"), int.from_bytes(answers, "little"),
                 whole << 1, whole >> 1, whole << stride, whole >> stride)


def blank(cells: Sequence[tuple[int, int, str, int]], style: str) -> tuple[list[int], int]:
    """The cell types after ``style`` (parallel to ``cells``) and how many cells it blanked."""
    types = [c[3] for c in cells]
    if style == "none":
        return types, 0
    if style not in BLANK_STYLES:
        raise ValueError(f"unknown blank style {style!r}")
    m = masks(cells)
    hidden = BLANK_STYLES[style].hides(m)
    stride, count = m.stride, 0
    if hidden.bit_length() > BYTES_FROM:  # (a shift of a big int costs its size: bytes)
        bits = hidden.to_bytes((hidden.bit_length() + 7) // 8, "little")
        end = len(bits) * 8
        for i, (x, y, _c, n) in enumerate(cells):
            square = (y + 1) * stride + x + 1
            if n == -2 and square < end and bits[square >> 3] >> (square & 7) & 1:
                types[i] = -1
                count += 1
        return types, count
    for i, (x, y, _c, n) in enumerate(cells):
        if n == -2 and hidden >> ((y + 1) * stride + x + 1) & 1:
            types[i] = -1
            count += 1
    return types, count


_EVEN: dict[int, int] = {}  # stride -> the bits of the squares with x + y even (some rows)


def _even(stride: int, bits: int) -> int:
    """The squares with x + y even, ``stride`` squares a row, at least ``bits`` bits of them
    (square ``(y + 1) * stride + x + 1``: x + y is even where the row and column of the
    square are both even or both odd)."""
    if (mask := _EVEN.get(stride, 0)).bit_length() >= bits:
        return mask
    rows = -(-bits // stride) + 8
    if rows * stride > BYTES_FROM:  # written as binary digits, highest first (a sum of
        # shifted rows costs rows x size)
        even, odd = ("10" * stride)[:stride], ("01" * stride)[:stride]
        mask = int(((even + odd) * (rows // 2) + even * (rows % 2))[::-1], 2)
    else:
        row = [sum(1 << col for col in range(start, stride, 2)) for start in (0, 1)]
        mask = sum(row[r & 1] << (r * stride) for r in range(rows))
    if len(_EVEN) < 1024:
        _EVEN[stride] = mask
    return mask
