"""Renders shared by all engines: text, SVG, ipuz, HTML. Pure functions from records to text.

:data:`RENDERS` is the table of each engine's renders of one record (``{"text": ..., "svg":
..., "ipuz": ...}``), so the command line and pack sections draw a record the same way and a
new format is one entry here; each render module is imported only when its format is used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Look:
    """What a render of one record may use besides the record."""

    title: str = ""
    reveal: bool = True  # kanji: list the pool's compounds
    hints: Mapping[str, str | None] = field(default_factory=dict)  # crossword: clue per word


Render = Callable[[dict[str, Any], Look], str]


def _board_text(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.crossword import board_text

    return board_text(record, look.hints)


def _board_svg(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.crossword import boards_svg

    return boards_svg([record], title=look.title, hints=look.hints)


def _board_sheet(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.crossword import board_sheet

    return board_sheet(record, look.hints, title=look.title)


def _board_ipuz(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.io.output import dumps
    from wordforge_cli.render.ipuz import board_ipuz

    return dumps(board_ipuz(record, hints=dict(look.hints), title=look.title)) + "\n"


def _pool_text(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.render.kanji import pool_text

    return pool_text(record, reveal=look.reveal)


def _pool_svg(record: dict[str, Any], look: Look) -> str:
    from wordforge_cli.kanji import load_grades
    from wordforge_cli.render.kanji import pool_svg

    return pool_svg(record, reveal=look.reveal, grades=load_grades())


RENDERS: dict[str, dict[str, Render]] = {
    "crossword": {"text": _board_text, "svg": _board_svg, "ipuz": _board_ipuz,
                  "sheet": _board_sheet},
    "kanji": {"text": _pool_text, "svg": _pool_svg},
}


def render(engine: str, fmt: str, record: dict[str, Any], look: Look | None = None) -> str:
    """One record of ``engine`` drawn as ``fmt`` (a key of ``RENDERS[engine]``)."""
    return RENDERS[engine][fmt](record, look or Look())
