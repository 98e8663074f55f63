"""Crossword boards for people: the article's text picture and an SVG.

Text: the article's picture (given letters, ■ answer cell, □ cell to fill, ・ no cell) and
a solution view. Boards in a narrow script (English) use ``*``, ``_`` and ``.`` so columns
stay aligned in any terminal. SVG: given letters printed, cells to fill empty, answer cells
shaded and circled with their index, and a strip of numbered boxes for the answer.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from wordforge_cli.render.svg import circle, rect, svg_document, text

WIDE = {"answer": "■", "input": "□", "none": "・"}
NARROW = {"answer": "*", "input": "_", "none": "."}


def _wide(rec: dict) -> bool:
    return any(unicodedata.east_asian_width(c["c"]) in "WF" for c in rec["cells"])


def _grid(rec: dict, solution: bool) -> list[str]:
    marks = WIDE if _wide(rec) else NARROW
    grid = [[marks["none"]] * rec["w"] for _ in range(rec["h"])]
    upper = not _wide(rec)
    for c in rec["cells"]:
        letter = c["c"].upper() if upper else c["c"]
        if solution or c["n"] == -2:
            grid[c["y"]][c["x"]] = letter
        else:
            grid[c["y"]][c["x"]] = marks["answer"] if c["n"] >= 0 else marks["input"]
    return ["".join(row) for row in grid]


def board_text(rec: dict) -> str:
    """One board: a header, the puzzle picture, the solution and where the answer lies."""
    marks = WIDE if _wide(rec) else NARROW
    answers = sorted((c for c in rec["cells"] if c["n"] >= 0), key=lambda c: c["n"])
    lines = [f"#{rec['id']}  answer {rec['answer']} ({len(rec['answer'])})  board "
             f"{rec['w']}x{rec['h']}  inputs {len(rec['inputs'])}  style {rec['style']}  "
             f"blanked {rec['blanked']}"]
    lines += _grid(rec, solution=False)
    lines.append(f"{marks['answer']}=answer cell / {marks['input']}=cell to fill / "
                 f"{marks['none']}=no cell")
    lines.append("solution:")
    lines += _grid(rec, solution=True)
    up = (lambda t: t) if _wide(rec) else str.upper
    lines.append("answer cells: " + " ".join(f"{c['n'] + 1}:{up(c['c'])}({c['x']},{c['y']})"
                                             for c in answers))
    lines.append("words: " + " ".join(f"{w['word']}({w['x']},{w['y']},{w['dir']})"
                                      for w in rec["words"]))
    return "\n".join(lines) + "\n"


CELL = 44
PAD = 16


def _board_body(rec: dict, ox: float, oy: float) -> tuple[list[str], float, float]:
    """SVG elements of one board at (ox, oy); returns them with the width and height used."""
    body = [text(ox, oy + 10, f"#{rec['id']}  {len(rec['answer'])} letters  "
                              f"({rec['style']})", size=14, anchor="start", fill="#555")]
    top = oy + 28
    upper = not _wide(rec)
    for c in rec["cells"]:
        x, y = ox + c["x"] * CELL, top + c["y"] * CELL
        if c["n"] >= 0:
            body.append(rect(x, y, CELL, CELL, fill="#fff3c4", stroke="#333"))
            body.append(circle(x + CELL / 2, y + CELL / 2 + 3, CELL / 2 - 9, stroke="#d08000",
                               width=2))
            body.append(text(x + 6, y + 8, c["n"] + 1, size=10, fill="#a05a00",
                             weight="bold"))
        elif c["n"] == -1:
            body.append(rect(x, y, CELL, CELL, fill="#ffffff", stroke="#333"))
        else:
            body.append(rect(x, y, CELL, CELL, fill="#e8eef7", stroke="#333"))
            body.append(text(x + CELL / 2, y + CELL / 2, c["c"].upper() if upper else c["c"],
                             size=24))
    strip_y = top + rec["h"] * CELL + 14
    body.append(text(ox, strip_y + CELL / 2, "answer", size=14, anchor="start", fill="#555"))
    for i in range(len(rec["answer"])):
        x = ox + 64 + i * CELL
        body.append(rect(x, strip_y, CELL, CELL, fill="#fff3c4", stroke="#d08000", width=2))
        body.append(text(x + 7, strip_y + 9, i + 1, size=11, fill="#a05a00", weight="bold"))
    width = max(rec["w"] * CELL, 64 + len(rec["answer"]) * CELL, 220)
    height = strip_y + CELL - oy
    return body, width, height


def boards_svg(records: Iterable[dict], title: str = "wfkit crossword") -> str:
    """One SVG picture; several boards are stacked top to bottom."""
    body: list[str] = []
    y = PAD
    width = 0.0
    for rec in records:
        part, w, h = _board_body(rec, PAD, y)
        body += part
        width = max(width, w)
        y += h + 2 * PAD
    total_w, total_h = width + 2 * PAD, y - PAD
    background = rect(0, 0, total_w, total_h, fill="#fafafa", stroke="none", width=0)
    return svg_document(total_w, total_h, [background, *body], title=title)
