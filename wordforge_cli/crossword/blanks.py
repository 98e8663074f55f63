"""Blank styles: which given letters (n == -2) a board hides, judged from neighbouring cells only.

As the article does it, a style never looks at which word a cell belongs to, only at whether
the cells around it exist: ``tail`` hides the last cell of a run (a neighbour on the left and
none on the right, or above and none below), ``head`` the first, ``alt`` the cells with x + y
even, ``most`` every given cell with no answer cell beside it. Answer cells (n >= 0) and
crossings (n == -1) are never touched; ``blanked`` counts the cells changed.
"""

from __future__ import annotations

from collections.abc import Sequence

STYLES: tuple[str, ...] = ("none", "tail", "head", "alt", "most")
# The names a player sees (the config's ``labels`` replaces them, so an English game names
# them its own way). そのまま and 語尾かくし are the article's (its ENDLESS_BLANK_LABEL); the
# article prints no others, so the last three are ours, in the same manner.
LABELS: dict[str, str] = {"none": "そのまま", "tail": "語尾かくし", "head": "語頭かくし",
                          "alt": "市松かくし", "most": "ほぼかくし"}

_S = 1 << 16  # key = x * _S + y; boards are far smaller than 65536 cells on a side


def blank(cells: Sequence[tuple[int, int, str, int]], style: str) -> tuple[list[int], int]:
    """The cell types after ``style`` (parallel to ``cells``) and how many cells it blanked."""
    types = [c[3] for c in cells]
    if style == "none":
        return types, 0
    if style not in STYLES:
        raise ValueError(f"unknown blank style {style!r}")
    occupied = {x * _S + y for x, y, _c, _n in cells}
    answers = {x * _S + y for x, y, _c, n in cells if n >= 0} if style == "most" else ()
    count = 0
    for i, (x, y, _c, n) in enumerate(cells):
        if n != -2:
            continue
        k = x * _S + y
        if style == "alt":
            hide = (x + y) % 2 == 0
        elif style == "most":
            hide = not (k - _S in answers or k + _S in answers
                        or k - 1 in answers or k + 1 in answers)
        else:
            left, right = k - _S in occupied, k + _S in occupied
            up, down = k - 1 in occupied, k + 1 in occupied
            if style == "tail":
                hide = (left and not right) or (up and not down)
            else:  # head
                hide = (right and not left) or (down and not up)
        if hide:
            types[i] = -1
            count += 1
    return types, count


def blank_counts(cells: Sequence[tuple[int, int, str, int]], styles: Sequence[str],
                 width: int | None = None) -> dict[str, int]:
    """How many cells each style would blank: :func:`blank`'s counts, for all styles at once.

    The board is three bit masks (cells, given letters, answer cells) over its grid with a
    border of empty squares; a neighbour test is then a shift, and a style's count the set
    bits of one expression (the statistics count every layout of a batch: a fifth of what a
    batch's statistics cost was this, cell by cell). ``width``: the board's, when known (at
    least its largest x + 1)."""
    if width is None:
        width = 1 + max((x for x, _y, _c, _n in cells), default=0)
    stride = width + 1
    occupied = given = answers = 0
    for x, y, _c, n in cells:
        bit = 1 << ((y + 1) * stride + x + 1)
        occupied |= bit
        if n == -2:
            given |= bit
        elif n >= 0:
            answers |= bit
    counts = dict.fromkeys(styles, 0)
    left, right = occupied << 1, occupied >> 1  # bit k: the cell left of k, right of k
    up, down = occupied << stride, occupied >> stride
    if "tail" in counts:
        counts["tail"] = (given & ((left & ~right) | (up & ~down))).bit_count()
    if "head" in counts:
        counts["head"] = (given & ((right & ~left) | (down & ~up))).bit_count()
    if "alt" in counts:  # the given cells with x + y even
        even = _EVEN.get(stride, 0)
        if even.bit_length() < given.bit_length():
            even = _even(stride, given.bit_length())
        counts["alt"] = (given & even).bit_count()
    if "most" in counts:
        near = (answers << 1) | (answers >> 1) | (answers << stride) | (answers >> stride)
        counts["most"] = (given & ~near).bit_count()
    return counts


_EVEN: dict[int, int] = {}  # stride -> the bits of the squares with x + y even (some rows)


def _even(stride: int, bits: int) -> int:
    """:func:`blank_counts`' squares with x + y even, ``stride`` squares a row, at least
    ``bits`` bits of them (square ``(y + 1) * stride + x + 1``: x + y is even where the row
    and column of the square are both even or both odd)."""
    rows = -(-bits // stride) + 8
    row = [sum(1 << col for col in range(start, stride, 2)) for start in (0, 1)]
    mask = sum(row[r & 1] << (r * stride) for r in range(rows))
    if len(_EVEN) < 1024:
        _EVEN[stride] = mask
    return mask
