"""The crossword SVG's answer cells: the answer-order number in the corner and the entry
number in the other stay clear of the cell's circle (two digits long too), a letter written in
the circle (the sheet's solution) stays inside it, and the picture's background is white.

Text extents are estimated as the renders size pictures (a digit 0.6 of the font size wide, its
height 0.8 of it around the central baseline): generous for the sans-serif fonts a browser
uses, so a number found clear here is clear on screen (checked in headless Chromium)."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest
from conftest import EXAMPLES

from wordforge_cli.render.crossword import CELL, _cells, boards_svg
from wordforge_cli.render.svg import svg_document

NS = "{http://www.w3.org/2000/svg}"


def _box(node: ET.Element) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a text element, estimated."""
    x, y, size = float(node.get("x")), float(node.get("y")), float(node.get("font-size"))
    width = 0.6 * size * len(node.text or "")
    left = {"start": x, "middle": x - width / 2, "end": x - width}[node.get("text-anchor")]
    return left, y - 0.4 * size, left + width, y + 0.4 * size


def _gap(cx: float, cy: float, box: tuple[float, float, float, float]) -> float:
    """How far the box lies from the point (0 when it covers it)."""
    left, top, right, bottom = box
    return math.hypot(max(left - cx, 0, cx - right), max(top - cy, 0, cy - bottom))


def _answer_cells(svg: str):
    """Each answer cell's circle, with the texts drawn inside its square."""
    root = ET.fromstring(svg)
    texts = list(root.iter(f"{NS}text"))
    for ring in root.iter(f"{NS}circle"):
        cx, cy = float(ring.get("cx")), float(ring.get("cy"))
        outer = float(ring.get("r")) + float(ring.get("stroke-width")) / 2
        inside = [t for t in texts if abs(float(t.get("x")) - cx) < CELL / 2
                  and abs(float(t.get("y")) - cy) < CELL / 2]
        yield cx, cy, float(ring.get("r")) - float(ring.get("stroke-width")) / 2, outer, inside


def _check(svg: str, numbers_seen: int) -> None:
    cells = list(_answer_cells(svg))
    assert cells
    numbers = 0
    for cx, cy, inner, outer, inside in cells:
        for node in inside:
            if (node.text or "").isdigit():  # the answer-order or the entry number: outside
                numbers += 1
                assert _gap(cx, cy, _box(node)) > outer + 0.5, (node.text, node.attrib)
            else:  # the letter, in the solution: inside the ring
                half = float(node.get("font-size")) / 2
                assert abs(float(node.get("x")) - cx) + half <= inner + 0.5
                assert abs(float(node.get("y")) - cy) + half <= inner + 0.5
    assert numbers >= numbers_seen


@pytest.mark.parametrize("vocab", ["tech.yaml", "animals-en.yaml"])
def test_real_boards_keep_their_numbers_clear_of_the_circles(run, vocab):
    result = run("crossword", "--vocab", EXAMPLES / vocab, "-n", "12", "--seed", "4")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    svg = boards_svg(records)
    _check(svg, sum(len(r["answer"]) for r in records))
    root = ET.fromstring(svg)
    background = next(root.iter(f"{NS}rect"))
    assert (background.get("x"), background.get("y")) == ("0", "0")
    assert background.get("fill") == "#ffffff" and "#fafafa" not in svg


@pytest.mark.parametrize("solution", [False, True])
def test_two_digit_numbers_and_full_width_letters_fit(solution):
    """Answers of 10 letters and more, boards of 10 entries and more: every answer cell
    numbered 10-99 both ways, holding a katakana or a wide Latin letter."""
    cells = [{"x": i % 9, "y": i // 9, "c": "ア" if i % 2 else "W", "n": 9 + i}
             for i in range(90)]
    found = [SimpleNamespace(x=c["x"], y=c["y"], number=10 + i) for i, c in enumerate(cells)]
    body = _cells({"cells": cells}, 16, 16, found, solution=solution)
    _check(svg_document(9 * CELL + 32, 10 * CELL + 32, body), 2 * 90)
