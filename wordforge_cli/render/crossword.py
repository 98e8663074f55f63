"""Crossword boards for people: the article's text picture, an SVG, and a printable sheet.

Text: the article's picture (given letters, ■ answer cell, □ cell to fill, ・ no cell), the
clues, a solution view and where the answer lies. Boards in a narrow script (English) use
``*``, ``_`` and ``.`` so columns stay aligned in any terminal. SVG: given letters printed,
cells to fill empty, answer cells shaded and circled, each entry's number in the corner of
its first cell and the clues listed under the board with the same numbers, and a strip of
numbered boxes for the answer. Sheet: one HTML document, a puzzle page per board (grid,
clues, answer strip) and, after them, a solution page per board (letters filled, the words
as the vocabulary spells them), for a printer or a web page.

Clues and numbers are the ipuz export's (``render.ipuz.entries``): the grid's runs in
standard numbering, so every render numbers a board alike; the clues wfkit writes itself and
the clue lists' headings are in the vocabulary's language (``render.ipuz.CLUE_WORDS``). Many
boards stream: the SVG and the sheet hold only one board at a time in memory (the rest waits
in a temporary file).
"""

from __future__ import annotations

import io
import shutil
import tempfile
import unicodedata
from collections.abc import Iterable, Mapping
from typing import IO, Any

from wordforge_cli.crossword.blanks import label_language
from wordforge_cli.crossword.lexicon import guess_language
from wordforge_cli.render.ipuz import GridRun, capital, clue_words, entries
from wordforge_cli.render.svg import circle, esc, rect, svg_head, svg_tail, text

WIDE = {"answer": "■", "input": "□", "none": "・"}
NARROW = {"answer": "*", "input": "_", "none": "."}
Hints = Mapping[str, str | None]


def _wide(rec: dict[str, Any]) -> bool:
    return any(unicodedata.east_asian_width(c["c"]) in "WF" for c in rec["cells"])


def _grid(rec: dict[str, Any], solution: bool) -> list[str]:
    marks = WIDE if _wide(rec) else NARROW
    grid = [[marks["none"]] * rec["w"] for _ in range(rec["h"])]
    for c in rec["cells"]:
        letter = capital(c["c"])
        if solution or c["n"] == -2:
            grid[c["y"]][c["x"]] = letter
        else:
            grid[c["y"]][c["x"]] = marks["answer"] if c["n"] >= 0 else marks["input"]
    return ["".join(row) for row in grid]


def spelled(word: str, spelling: str | None) -> str:
    """A word with the vocabulary's own spelling beside it when folding changed it."""
    return word if not spelling or spelling == word else f"{word} [{spelling}]"


def clue_lines(found: list[GridRun], language: str | None = None) -> list[str]:
    """The clues, across then down (headed in the ``language`` vocabulary's words), numbered
    as the grid is, with where each entry starts."""
    headings = clue_words(language).headings
    lines = []
    for way in ("across", "down"):
        mine = [e for e in found if e.dir == way]
        if mine:
            lines.append(f"{headings[way]}:")
            lines += [f"  {e.number}. ({e.length}, column {e.x + 1} row {e.y + 1}) {e.clue}"
                      for e in mine]
    return lines


def board_text(rec: dict[str, Any], hints: Hints | None = None,
               language: str | None = None) -> str:
    """One board: a header, the puzzle picture, its clues (in the ``language`` vocabulary's
    words), the solution and where the answer lies (words with the vocabulary's own spelling
    where it differs)."""
    marks = WIDE if _wide(rec) else NARROW
    answers = sorted((c for c in rec["cells"] if c["n"] >= 0), key=lambda c: c["n"])
    label = f" ({rec['label']})" if rec.get("label") else ""
    lines = [f"#{rec['id']}  answer {''.join(map(capital, rec['answer']))} "
             f"({len(rec['answer'])})  board {rec['w']}x{rec['h']}  inputs "
             f"{len(rec['inputs'])}  style {rec['style']}{label}  blanked {rec['blanked']}"
             + ("  fallback band" if rec.get("fallback") else "")]
    lines += _grid(rec, solution=False)
    lines.append(f"{marks['answer']}=answer cell / {marks['input']}=cell to fill / "
                 f"{marks['none']}=no cell")
    lines.append("clues:")
    lines += clue_lines(entries(rec, hints or {}, language), language)
    lines.append("solution:")
    lines += _grid(rec, solution=True)
    lines.append("answer cells: " + " ".join(f"{c['n'] + 1}:{capital(c['c'])}({c['x']},{c['y']})"
                                             for c in answers))
    lines.append("answer: " + spelled(rec["answer"], rec.get("spelling")))
    lines.append("words: " + " ".join(f"{spelled(w['word'], w.get('spelling'))}"
                                      f"({w['x']},{w['y']},{w['dir']})" for w in rec["words"]))
    return "\n".join(lines) + "\n"


CELL = 44
PAD = 16
CLUE_LINE = 20
BACKGROUND = "#ffffff"  # white as the page it is printed on or shown in
# a cell's letter (its centre LETTER_Y, LETTER_SIZE; ANSWER_SIZE in an answer cell's circle)
# and entry number (NUMBER_SIZE, upper left: its left edge and centre at NUMBER_AT); an answer
# cell's circle (centre CELL / 2, LETTER_Y; radius CIRCLE_R) and, right-aligned in the lower
# right corner, the answer-order number (ORDER_SIZE, its centre ORDER_Y, its right edge
# ORDER_INSET from the cell's). A test holds both numbers, two digits long, clear of the circle.
LETTER_Y = CELL / 2 + 2
LETTER_SIZE = 22
ANSWER_SIZE = 18
NUMBER_AT = (3, 8)
NUMBER_SIZE = 10
CIRCLE_R = 12
CIRCLE_STROKE = 2
ORDER_SIZE = 9
ORDER_Y = CELL - 5.5
ORDER_INSET = 3


def _text_width(s: str, size: float) -> float:
    """A rough width of SVG text (wide characters count double), to size the picture."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else size * 0.6 for c in s)


def _cells(rec: dict[str, Any], ox: float, top: float, found: list[GridRun], *,
           solution: bool = False) -> list[str]:
    """The grid: given letters (all letters in a solution), answer cells circled with their
    index in the lower right corner, each entry's number in the upper left of its first cell."""
    numbers = {(e.x, e.y): e.number for e in found}
    body = []
    for c in rec["cells"]:
        x, y = ox + c["x"] * CELL, top + c["y"] * CELL
        if c["n"] >= 0:
            body.append(rect(x, y, CELL, CELL, fill="#fff3c4", stroke="#333"))
            body.append(circle(x + CELL / 2, y + LETTER_Y, CIRCLE_R, stroke="#d08000",
                               width=CIRCLE_STROKE))
            body.append(text(x + CELL - ORDER_INSET, y + ORDER_Y, c["n"] + 1, size=ORDER_SIZE,
                             fill="#a05a00", weight="bold", anchor="end"))
        elif c["n"] == -1:
            body.append(rect(x, y, CELL, CELL, fill="#ffffff", stroke="#333"))
        else:
            body.append(rect(x, y, CELL, CELL, fill="#e8eef7", stroke="#333"))
        if solution or c["n"] == -2:
            body.append(text(x + CELL / 2, y + LETTER_Y, capital(c["c"]),
                             size=ANSWER_SIZE if c["n"] >= 0 else LETTER_SIZE,
                             fill="#111" if c["n"] == -2 else "#1a5fb4"))
        number = numbers.get((c["x"], c["y"]))
        if number is not None:
            body.append(text(x + NUMBER_AT[0], y + NUMBER_AT[1], number, size=NUMBER_SIZE,
                             fill="#333", anchor="start"))
    return body


def _board_body(rec: dict[str, Any], ox: float, oy: float, hints: Hints | None = None,
                language: str | None = None) -> tuple[list[str], float, float]:
    """SVG elements of one board at (ox, oy); returns them with the width and height used."""
    found = entries(rec, hints or {}, language)
    label = rec.get("label") or rec["style"]
    body = [text(ox, oy + 10, f"#{rec['id']}  {len(rec['answer'])} letters  ({label})",
                 size=14, anchor="start", fill="#555")]
    top = oy + 28
    body += _cells(rec, ox, top, found)
    strip_y = top + rec["h"] * CELL + 14
    body.append(text(ox, strip_y + CELL / 2, "answer", size=14, anchor="start", fill="#555"))
    for i in range(len(rec["answer"])):
        x = ox + 64 + i * CELL
        body.append(rect(x, strip_y, CELL, CELL, fill="#fff3c4", stroke="#d08000", width=2))
        body.append(text(x + 7, strip_y + 9, i + 1, size=11, fill="#a05a00", weight="bold"))
    y = strip_y + CELL + 12
    width = max(rec["w"] * CELL, 64 + len(rec["answer"]) * CELL, 220)
    for line in clue_lines(found, language):
        y += CLUE_LINE
        heading = not line.startswith(" ")
        body.append(text(ox, y, line.strip(), size=13, anchor="start",
                         fill="#222" if heading else "#333",
                         weight="bold" if heading else "normal"))
        width = max(width, _text_width(line.strip(), 13))
    height = y + 8 - oy
    return body, width, height


class _Spooled:
    """A render that holds part of its document back in an anonymous temporary file
    (unlinked at once, closed by :meth:`_drain` or when dropped), so a batch of any size
    needs the memory of one board."""

    def __init__(self, out: IO[str], title: str = "wfkit crossword",
                 hints: Hints | None = None, language: str | None = None):
        self.out = out
        self.title = title
        self.hints = hints or {}
        self.language = language  # the vocabulary's: the clues wfkit writes are in it
        self.spool = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115

    def _drain(self) -> None:
        """Copy what was held back to ``out`` and drop the temporary file."""
        self.spool.seek(0)
        shutil.copyfileobj(self.spool, self.out)
        self.spool.close()


class SvgStream(_Spooled):
    """:func:`boards_svg` written as boards come: each board's elements go to the spool at
    once (the document's size is known only at the end). ``close()`` writes the document
    to ``out``."""

    def __init__(self, out: IO[str], title: str = "wfkit crossword",
                 hints: Hints | None = None, language: str | None = None):
        super().__init__(out, title, hints, language)
        self.y = float(PAD)
        self.width = 0.0

    def add(self, rec: dict[str, Any]) -> None:
        part, w, h = _board_body(rec, PAD, self.y, self.hints, self.language)
        self.spool.write("\n".join(part))
        self.spool.write("\n")
        self.width = max(self.width, w)
        self.y += h + 2 * PAD

    def close(self) -> None:
        total_w, total_h = self.width + 2 * PAD, self.y - PAD
        self.out.write(svg_head(total_w, total_h, title=self.title))
        self.out.write(rect(0, 0, total_w, total_h, fill=BACKGROUND, stroke="none", width=0))
        self.out.write("\n")
        self._drain()
        self.out.write(svg_tail())


def drawn(stream: type[SvgStream | SheetStream], records: Iterable[dict[str, Any]],
          title: str = "wfkit crossword", hints: Hints | None = None,
          language: str | None = None) -> str:
    """A streamed render's document of ``records`` as one text."""
    out = io.StringIO()
    doc = stream(out, title, hints, language)
    for rec in records:
        doc.add(rec)
    doc.close()
    return out.getvalue()


def boards_svg(records: Iterable[dict[str, Any]], title: str = "wfkit crossword",
               hints: Hints | None = None, language: str | None = None) -> str:
    """One SVG picture; several boards are stacked top to bottom."""
    return drawn(SvgStream, records, title, hints, language)


SHEET_CSS = """
body{font-family:'Noto Sans CJK JP','Hiragino Sans','Yu Gothic',system-ui,sans-serif;
margin:0;color:#111;background:#fff}
section.page{padding:24px 32px;page-break-after:always;break-after:page}
section.page:last-of-type{page-break-after:auto;break-after:auto}
h1{font-size:20px;margin:0 0 4px}
p.meta{color:#555;margin:0 0 12px;font-size:13px}
.clues{display:flex;gap:40px;font-size:15px}
.clues h2{font-size:16px;margin:8px 0 4px}
.clues ol{margin:0;padding-left:0;list-style:none}
.clues li{margin:2px 0}
.clues b{display:inline-block;min-width:2.2em}
svg{max-width:100%;height:auto}
"""


def record_language(rec: dict[str, Any]) -> str | None:
    """The language of a board's vocabulary as its record shows it, for a reader that has
    the record alone (a pack's preview): a record does not name it, its letters do. ``ja``
    when they are kana (a Japanese vocabulary's boards are katakana: ``lexicon.prepare``
    folds every word so), else what ``lexicon.guess_language`` finds (English for ASCII)."""
    words = [w["word"] for w in rec["words"] if isinstance(w.get("word"), str)]
    answer = rec.get("answer")
    return guess_language([answer, *words] if isinstance(answer, str) else words)


def record_hints(rec: dict[str, Any]) -> dict[str, str]:
    """The clues a board's record carries (its words' ``hint``), by word."""
    return {w["word"]: w["hint"] for w in rec["words"]
            if isinstance(w.get("hint"), str) and w["hint"]}


def grid_svg(rec: dict[str, Any], found: list[GridRun], *, solution: bool) -> str:
    """A board's grid (and its answer strip) as one inline SVG, ``CELL`` units a cell."""
    body = _cells(rec, PAD, PAD, found, solution=solution)
    strip_y = PAD + rec["h"] * CELL + 14
    for i, ch in enumerate(rec["answer"]):
        x = PAD + i * CELL
        body.append(rect(x, strip_y, CELL, CELL, fill="#fff3c4", stroke="#d08000", width=2))
        body.append(text(x + 7, strip_y + 9, i + 1, size=11, fill="#a05a00", weight="bold"))
        if solution:
            body.append(text(x + CELL / 2, strip_y + CELL / 2 + 2, capital(ch), size=22,
                             fill="#1a5fb4"))
    height = strip_y + CELL + PAD
    return svg_head(grid_width(rec), height) + "\n".join(body) + "\n" + svg_tail()


def grid_width(rec: dict[str, Any]) -> int:
    """The width of :func:`grid_svg`'s picture (the grid or the answer strip, if longer)."""
    return max(int(rec["w"]), len(rec["answer"])) * CELL + 2 * PAD


def sheet_puzzle(rec: dict[str, Any], hints: Hints | None = None, title: str = "",
                 language: str | None = None) -> str:
    """One board's puzzle page: the grid with its numbers, the clues, the answer strip."""
    found = entries(rec, hints or {}, language)
    label = rec.get("label") or rec["style"]
    parts = [f'<section class="page puzzle" id="puzzle-{esc(rec["id"])}">',
             f"<h1>{esc(title)} #{esc(rec['id'])}</h1>",
             f'<p class="meta">{len(rec["answer"])}-letter answer hidden in the circled '
             f"cells, in the order of their numbers &middot; {esc(label)}</p>",
             grid_svg(rec, found, solution=False), clues_html(found, language) + "</section>"]
    return "\n".join(parts) + "\n"


def clues_html(found: list[GridRun], language: str | None = None) -> str:
    """The clues as HTML lists, across then down (headed in the ``language`` vocabulary's
    words), numbered as the grid is (text that wraps to the page, never shrinking the
    board)."""
    words = clue_words(language)
    parts = ['<div class="clues">']
    for way in ("across", "down"):
        mine = [e for e in found if e.dir == way]
        if mine:
            parts.append(f"<div><h2>{words.headings[way].capitalize()}</h2><ol>")
            parts += [f"<li><b>{e.number}</b> {esc(e.clue)}"
                      f"{'' if words.says_length(e.clue, e.length) else f' ({e.length})'}</li>"
                      for e in mine]
            parts.append("</ol></div>")
    parts.append("</div>")
    return "\n".join(parts)


def sheet_solution(rec: dict[str, Any], title: str = "") -> str:
    """One board's solution page: every letter filled, the answer, the words as the
    vocabulary spells them."""
    found = entries(rec, {})
    words = ", ".join(esc(spelled(w["word"], w.get("spelling"))) for w in rec["words"])
    return "\n".join([
        f'<section class="page solution" id="solution-{esc(rec["id"])}">',
        f"<h1>{esc(title)} #{esc(rec['id'])}: solution</h1>",
        f'<p class="meta">answer {esc(spelled(rec["answer"], rec.get("spelling")))}'
        f" &middot; words {words}</p>",
        grid_svg(rec, found, solution=True), "</section>"]) + "\n"


class SheetStream(_Spooled):
    """A printable sheet of many boards: puzzle pages written as boards come, solution pages
    held in the spool and written after them (``close()``)."""

    def __init__(self, out: IO[str], title: str = "wfkit crossword",
                 hints: Hints | None = None, language: str | None = None):
        super().__init__(out, title, hints, language)
        # the page's language: its clue words' (its fonts and line breaks follow it)
        out.write(f'<!DOCTYPE html>\n<html lang="{label_language(language)}"><head>'
                  f'<meta charset="utf-8"><title>{esc(title)}</title><style>{SHEET_CSS}'
                  "</style></head><body>\n")

    def add(self, rec: dict[str, Any]) -> None:
        self.out.write(sheet_puzzle(rec, self.hints, self.title, self.language))
        self.spool.write(sheet_solution(rec, self.title))

    def close(self) -> None:
        self._drain()
        self.out.write("</body></html>\n")
