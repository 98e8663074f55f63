"""Every render of the one table (``render.FORMATS``), for every engine it draws, shows a
control character escaped whatever string of the record, title or hint holds it: a record
read from a crafted pack or made by an engine that let one through still draws nothing raw
(ipuz through its JSON writer, the others through ``core.text.shown``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordforge_cli.cli import cli
from wordforge_cli.core.text import CONTROLS, RANGES
from wordforge_cli.render import FORMATS, Look, render

RAW = re.compile(f"[{CONTROLS}]")
PLANTED = ["\x1b", "\x07", "\x1b[31m", "\x9b2J", "\u202e", "\u2028", "\u2066", "\x7f", "\x00",
           "\ud800", "\udcff", "\r", "\t", "\n"]
MEMBERS = [chr(c) for first, last in RANGES for c in range(first, last + 1)]


def raw_left(text: str) -> list[str]:
    return sorted({m.group() for m in RAW.finditer(text.replace("\n", ""))})


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    runner = CliRunner()
    made = {
        "crossword": runner.invoke(cli, ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"),
                                         "-n", "1", "--seed", "1", "-q"]),
        "kanji": runner.invoke(cli, ["kanji", "-n", "1", "--seed", "1", "-q"]),
    }
    for engine, result in made.items():
        assert result.exit_code == 0, (engine, result.stderr)
    return {engine: json.loads(result.stdout) for engine, result in made.items()}


def planted(value: Any, char: str, where: str) -> Any:
    """``value`` with ``char`` put into the strings under keys named ``where``."""
    if isinstance(value, dict):
        return {k: planted(v, char, "*" if k == where else where) for k, v in value.items()}
    if isinstance(value, list):
        return [planted(v, char, where) for v in value]
    if isinstance(value, str) and where == "*":
        return value[:1] + char + value[1:]
    return value


def swapped(value: Any, old: str, char: str) -> Any:
    """``value`` with the letter (or kanji) ``old`` made ``char`` in every string: a board
    whose word held a control character, consistent from its answer to its cells."""
    if isinstance(value, dict):
        return {k: swapped(v, old, char) for k, v in value.items()}
    if isinstance(value, list):
        return [swapped(v, old, char) for v in value]
    return value.replace(old, char) if isinstance(value, str) else value


DRAWS = [(engine, fmt) for fmt, spec in FORMATS.items() for engine in spec.draws]
# a letter of the crossword board and a kanji of the pool, made a control character
LETTER = {"crossword": "キ", "kanji": "時"}
FIELDS = {"crossword": ["letter", "spelling", "label", "hint", "title"],
          "kanji": ["letter", "title"]}


def drawn(records, engine: str, fmt: str, field: str, char: str) -> str:
    record = records[engine]
    if field == "letter":
        record = swapped(record, LETTER[engine], char)
    elif field in ("spelling", "label"):
        record = planted(record, char, field)
    hints = {w["word"]: f"a hint{char if field == 'hint' else ''} for {w['word']}"
             for w in record.get("words", []) if isinstance(w, dict)}
    title = f"t{char}itle" if field == "title" else "title"
    return render(engine, fmt, record, Look(title=title, hints=hints))


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(draw=st.sampled_from(DRAWS), char=st.one_of(st.sampled_from(PLANTED),
                                                   st.sampled_from(MEMBERS)), data=st.data())
def test_a_control_anywhere_in_a_record_is_drawn_escaped(records, draw, char, data):
    engine, fmt = draw
    field = data.draw(st.sampled_from(FIELDS[engine]))
    text = drawn(records, engine, fmt, field, char)
    assert not raw_left(text), (engine, fmt, field, repr(char), raw_left(text))


@pytest.mark.parametrize(("engine", "fmt"), DRAWS)
@pytest.mark.parametrize("char", ["\x1b", "\u202e", "\ud800"])
def test_every_render_of_the_table_is_checked(records, engine, fmt, char):
    """Each (engine, format) of the table draws a board whose letter is ``char``: drawn, and
    shown escaped."""
    text = drawn(records, engine, fmt, "letter", char)
    assert text and not raw_left(text)
    assert f"{ord(char):04x}" in text or f"x{ord(char):02x}" in text  # there, escaped
