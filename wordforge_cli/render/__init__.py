"""Renders shared by all engines: text, SVG, ipuz, HTML. Pure functions from records to text.

:data:`FORMATS` is the one table of them, a row a format: the commands' ``--render`` choices
and help, the kinds' renders, the pack's file names and manifest checks and the schemas' enums
read it, so a new format is one row; a render module is imported only when its format is used.
Every row's text is shown through the one set of control characters
(:func:`~wordforge_cli.core.text.shown`): whatever a record holds, a render never carries one
raw (SVG and the sheet through ``svg.esc``, which every value they draw passes, ipuz through
its JSON writer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from wordforge_cli.core.text import shown


@dataclass(frozen=True)
class Look:
    """What a render of one record may use besides the record."""

    title: str = ""
    reveal: bool = True  # kanji: list the pool's compounds
    hints: Mapping[str, str | None] = field(default_factory=dict)  # crossword: clue per word
    language: str | None = None  # crossword: the vocabulary's (the clues wfkit writes are in it)


Render = Callable[[dict[str, Any], Look], str]


def _board_text(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.crossword import board_text

    return shown(board_text(record, look.hints, look.language))


def _board_svg(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.crossword import boards_svg

    return boards_svg([record], title=look.title, hints=look.hints, language=look.language)


def _board_sheet(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.crossword import SheetStream, drawn

    return drawn(SheetStream, [record], look.title, look.hints, look.language)


def _board_ipuz(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.io.output import dumps
    from wordforge_cli.render.ipuz import board_ipuz

    return dumps(board_ipuz(record, hints=dict(look.hints), title=look.title,
                            language=look.language)) + "\n"


def _pool_text(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.kanji import pool_text

    return shown(pool_text(record, reveal=look.reveal))


def _pool_svg(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.kanji import pool_svg

    return pool_svg(record, reveal=look.reveal)  # (coloured by the bundled grades)


@dataclass(frozen=True)
class Format:
    """One render. ``suffix``: its files' (a pack's ``text`` is one ``NAME.txt``, any other
    format a file per item, ``NAME/000017.SUFFIX``); ``draws``: engine -> (the function drawing
    one record, what ``--render`` says of it); ``streamed``: a command writes one document
    (in one process); ``one_line``: a record's text is a line (dealt to workers by answer)."""

    name: str
    suffix: str
    draws: Mapping[str, tuple[Render, str]]
    streamed: bool = False
    one_line: bool = False


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("text", "txt", {"crossword": (_board_text, "the article's picture, clues and solution"),
                           "kanji": (_pool_text, "boards")}),
    Format("svg", "svg", {"crossword": (_board_svg, "pictures with numbered clues"),
                          "kanji": (_pool_svg, "a picture of the tile boards")}, streamed=True),
    Format("ipuz", "ipuz", {"crossword": (_board_ipuz, "ipuz v2 JSON, one puzzle a line (entries "
                                                       "are the grid's runs)")}, one_line=True),
    Format("sheet", "html", {"crossword": (_board_sheet, "a printable HTML sheet, a puzzle page "
                                                         "per board, then the solution pages")},
           streamed=True),
)}


def renders(engine: str) -> tuple[str, ...]:
    """The formats ``engine``'s records can be drawn as, in the table's order."""
    return tuple(name for name, fmt in FORMATS.items() if engine in fmt.draws)


def render_help(engine: str, first: str) -> str:
    """``--render``'s help: ``first`` (the records themselves), then each format's words."""
    return "; ".join([first, *(f"{name}: {FORMATS[name].draws[engine][1]}"
                               for name in renders(engine))]) + "."


def render(engine: str, fmt: str, record: dict[str, Any], look: Look | None = None) -> str:
    """One record of ``engine`` drawn as ``fmt`` (a format of :func:`renders`)."""
    return FORMATS[fmt].draws[engine][0](record, look or Look())
