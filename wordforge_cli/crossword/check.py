"""An independent check of every board rule, written apart from the generator.

It reads only a board's JSON object (as :func:`records.record` writes it) and shares no code
with the generator or the blank styles, so a bug in one is not hidden by the same bug in the
other. Used by the property tests, ``wfkit crossword --check``-style audits and the pack.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

FIELDS = ("id", "seed", "answer", "spelling", "w", "h", "words", "cells", "inputs", "style",
          "label", "blanked", "attempts", "redraws", "fallback")
WORD_FIELDS = ("word", "spelling", "x", "y", "dir")  # then "hint" when the vocabulary has one
STYLE_NAMES = ("none", "tail", "head", "alt", "most")


def check_record(rec: dict[str, Any], vocabulary: Collection[str] | None = None, *,
                 min_len: int | None = None, max_len: int | None = None,
                 layout: str = "loose", max_width: int | None = None,
                 max_height: int | None = None) -> list[str]:
    """Every rule the board breaks, as sentences; an empty list means the board is valid.

    ``vocabulary``: the normalised words (answer and words must come from it);
    ``min_len``/``max_len``: the answer band (a board marked ``fallback`` is not held to
    it); ``layout``: ``loose`` or ``strict``; ``max_width``/``max_height``: the size limit.
    """
    errors: list[str] = []
    if tuple(rec) not in (FIELDS, (*FIELDS, "difficulty")):  # --difficulty adds its measure
        errors.append(f"fields are {list(rec)}, expected {list(FIELDS)}")
        if not all(f in rec for f in FIELDS):
            return errors
    answer = rec["answer"]
    words = rec["words"]
    cells = rec["cells"]
    if vocabulary is not None and answer not in vocabulary:
        errors.append(f"answer {answer} is not in the vocabulary")
    banded = not rec["fallback"]
    if banded and min_len is not None and len(answer) < min_len:
        errors.append(f"answer {answer} is shorter than {min_len}")
    if banded and max_len is not None and len(answer) > max_len:
        errors.append(f"answer {answer} is longer than {max_len}")
    if max_width is not None and rec["w"] > max_width:
        errors.append(f"board is {rec['w']} cells wide, the limit is {max_width}")
    if max_height is not None and rec["h"] > max_height:
        errors.append(f"board is {rec['h']} cells high, the limit is {max_height}")
    if not isinstance(rec["spelling"], str) or not rec["spelling"]:
        errors.append("the answer's spelling is missing")
    if rec["label"] is not None and not isinstance(rec["label"], str):
        errors.append(f"label {rec['label']!r} is not a string")
    if not isinstance(rec["redraws"], int) or rec["redraws"] < 0:
        errors.append(f"redraws {rec['redraws']!r} is not a count")
    if not isinstance(rec["fallback"], bool):
        errors.append(f"fallback {rec['fallback']!r} is not true or false")
    for i, w in enumerate(words):
        if tuple(w) not in (WORD_FIELDS, (*WORD_FIELDS, "hint")):
            errors.append(f"word {i} has fields {list(w)}, expected {list(WORD_FIELDS)}")
            return errors
        if "hint" in w and (not isinstance(w["hint"], str) or not w["hint"]):
            errors.append(f"word {i} has hint {w['hint']!r}, not a text")
    if len(words) != len(answer):
        errors.append(f"{len(words)} words for a {len(answer)}-letter answer")
    names = [w["word"] for w in words]
    if len(set(names)) != len(names):
        errors.append("a word is used twice")
    if answer in names:
        errors.append("the answer is also placed as a word")
    if vocabulary is not None:
        errors += [f"word {n} is not in the vocabulary" for n in names if n not in vocabulary]

    # the grid the words spell out
    spelled: dict[tuple[int, int], str] = {}
    cover: dict[tuple[int, int], list[int]] = {}
    word_cells: list[list[tuple[int, int]]] = []
    for i, w in enumerate(words):
        if w["dir"] not in ("across", "down"):
            errors.append(f"word {i} has direction {w['dir']!r}")
            return errors
        dx, dy = (1, 0) if w["dir"] == "across" else (0, 1)
        mine = []
        for k, ch in enumerate(w["word"]):
            xy = (w["x"] + dx * k, w["y"] + dy * k)
            if spelled.setdefault(xy, ch) != ch:
                errors.append(f"cell {xy} holds both {spelled[xy]} and {ch}")
            cover.setdefault(xy, []).append(i)
            mine.append(xy)
        word_cells.append(mine)

    # cells: exactly the spelled cells, sorted by y then x, coordinates from 0
    xys = [(c["x"], c["y"]) for c in cells]
    if xys != sorted(xys, key=lambda p: (p[1], p[0])):
        errors.append("cells are not sorted by y then x")
    if len(set(xys)) != len(xys):
        errors.append("a cell is listed twice")
    if set(xys) != set(spelled):
        errors.append("cells differ from the cells the words cover")
    for c in cells:
        if spelled.get((c["x"], c["y"]), c["c"]) != c["c"]:
            errors.append(f"cell ({c['x']},{c['y']}) shows {c['c']}, its words spell "
                          f"{spelled[(c['x'], c['y'])]}")
    if xys:
        if min(x for x, _ in xys) != 0 or min(y for _, y in xys) != 0:
            errors.append("coordinates do not start at 0")
        if rec["w"] != max(x for x, _ in xys) + 1 or rec["h"] != max(y for _, y in xys) + 1:
            errors.append("w/h are not the bounding box")

    # the chain: word i crosses word i-1, perpendicular, at a shared cell
    for i in range(1, len(words)):
        if words[i]["dir"] == words[i - 1]["dir"]:
            errors.append(f"word {i} runs the same way as word {i - 1}")
        if not set(word_cells[i]) & set(word_cells[i - 1]):
            errors.append(f"word {i} does not cross word {i - 1}")

    # answer cells: answer letter i in word i, one cell per index, never shared by two indices
    by_n: dict[int, list[dict[str, Any]]] = {}
    for c in cells:
        if c["n"] >= 0:
            by_n.setdefault(c["n"], []).append(c)
        elif c["n"] not in (-1, -2):
            errors.append(f"cell ({c['x']},{c['y']}) has type {c['n']}")
    if sorted(by_n) != list(range(len(answer))):
        errors.append(f"answer indices present: {sorted(by_n)}")
    for n, group in by_n.items():
        if len(group) != 1:
            errors.append(f"answer index {n} marks {len(group)} cells")
            continue
        c = group[0]
        if n < len(answer) and c["c"] != answer[n]:
            errors.append(f"answer cell {n} holds {c['c']}, the answer has {answer[n]}")
        if n < len(word_cells) and (c["x"], c["y"]) not in word_cells[n]:
            errors.append(f"answer cell {n} is not in word {n}")

    # types: crossings are input cells; -1 elsewhere only where the style blanked a given
    style = rec["style"]
    if style not in STYLE_NAMES:
        errors.append(f"unknown style {style!r}")
    occupied = set(xys)
    answer_xy = {(c["x"], c["y"]) for c in cells if c["n"] >= 0}
    blanked = 0
    for c in cells:
        xy = (c["x"], c["y"])
        if c["n"] >= 0:
            continue
        crossing = len(cover.get(xy, ())) > 1
        if crossing:
            if c["n"] != -1:
                errors.append(f"crossing {xy} is not an input cell")
            continue
        hide = _style_hides(style, xy, occupied, answer_xy)
        if hide and c["n"] != -1:
            errors.append(f"style {style} should blank {xy}")
        if not hide and c["n"] != -2:
            errors.append(f"{xy} is blank but style {style} keeps it")
        blanked += c["n"] == -1
    if rec["blanked"] != blanked:
        errors.append(f"blanked is {rec['blanked']}, {blanked} cells were blanked")
    if rec["inputs"] != [c for c in cells if c["n"] != -2]:
        errors.append("inputs are not the cells with n != -2")
    if not isinstance(rec["attempts"], int) or rec["attempts"] < 1:
        errors.append("attempts must be a positive number")

    if layout == "strict":
        errors += _strict_errors(words, occupied)
    return errors


def _style_hides(style: str, xy: tuple[int, int], occupied: set[tuple[int, int]],
                 answer_xy: set[tuple[int, int]]) -> bool:
    x, y = xy
    left, right = (x - 1, y) in occupied, (x + 1, y) in occupied
    up, down = (x, y - 1) in occupied, (x, y + 1) in occupied
    if style == "tail":
        return (left and not right) or (up and not down)
    if style == "head":
        return (right and not left) or (down and not up)
    if style == "alt":
        return (x + y) % 2 == 0
    if style == "most":
        return not any(p in answer_xy for p in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
    return False


def grid_runs(cells: Collection[tuple[int, int]]) -> list[tuple[int, int, str, int]]:
    """Every maximal run of 2+ cells as (x, y, "across"/"down", length), in standard order
    (by start cell, row by row; across before down at the same cell): what a crossword app
    derives its entries from, so the strict check and the ipuz export read the same runs."""
    out = []
    for x, y in cells:
        if (x - 1, y) not in cells and (x + 1, y) in cells:
            n = 2
            while (x + n, y) in cells:
                n += 1
            out.append((x, y, "across", n))
        if (x, y - 1) not in cells and (x, y + 1) in cells:
            n = 2
            while (x, y + n) in cells:
                n += 1
            out.append((x, y, "down", n))
    return sorted(out, key=lambda r: (r[1], r[0], r[2] != "across"))


def _strict_errors(words: list[dict[str, Any]], occupied: set[tuple[int, int]]) -> list[str]:
    """Every maximal run of 2+ cells must be exactly one placed word, and vice versa."""
    runs = set(grid_runs(occupied))
    placed = {(w["x"], w["y"], w["dir"], len(w["word"])) for w in words}
    errors = [f"run of {n} cells {d} at ({x},{y}) is not one placed word"
              for x, y, d, n in sorted(runs - placed)]
    errors += [f"word at ({x},{y}) {d} is not a whole run" for x, y, d, n in sorted(placed - runs)]
    return errors
