"""The kanji tiles' grade legend says its bands in English wherever wfkit draws it (the SVG
tile board, the pack preview), as the pictures' and pages' other words are English; the
Japanese names the lists go by (小1-2, 常用, 人名用, 表外) stay beside them in the one table,
for a game that shows its players Japanese."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from wordforge_cli.render.kanji import GRADE_BANDS, GRADE_FILL, GRADE_NAME, GRADE_NAMES

JAPANESE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
JAPANESE_NAMES = [band.ja for band in GRADE_BANDS]


def test_one_table_names_every_grade_in_both_languages() -> None:
    grades = [grade for band in GRADE_BANDS for grade in band.grades]
    assert grades == list(range(1, 10))  # every grade of the dictionary once, in order
    assert set(GRADE_FILL) == set(grades)
    assert GRADE_NAMES["en"] == GRADE_NAME
    for band in GRADE_BANDS:
        assert band.en.strip() and not JAPANESE_SCRIPT.search(band.en)
        assert band.ja.strip() and JAPANESE_SCRIPT.search(band.ja)
        assert GRADE_NAMES["ja"][band.grades[0]] == band.ja
    assert JAPANESE_NAMES == ["小1-2", "小3-4", "小5-6", "常用", "人名用", "表外"]


def _legend(svg: str) -> list[str]:
    """The legend's names: the 14-point texts beside the swatches."""
    return re.findall(r'<text [^>]*font-size="14"[^>]*text-anchor="start"[^>]*>([^<]*)</text>',
                      svg)


def test_the_svg_boards_legend_is_english(run: Any) -> None:
    result = run("kanji", "-n", "2", "--seed", "3", "--render", "svg", "-q")
    assert result.exit_code == 0, result.stderr
    legend = _legend(result.stdout)
    assert legend == list(GRADE_NAMES["en"].values()) * 2  # one legend a board
    assert not any(name in result.stdout for name in JAPANESE_NAMES)


def test_the_svg_legend_fits_its_picture(run: Any) -> None:
    result = run("kanji", "-n", "1", "--seed", "4", "--render", "svg", "-q")
    width = float(re.search(r'<svg [^>]*width="([\d.]+)"', result.stdout).group(1))
    xs = [float(x) for x in re.findall(
        r'<text x="([\d.]+)"[^>]*font-size="14"[^>]*text-anchor="start"', result.stdout)]
    assert len(xs) == len(GRADE_BANDS) and xs == sorted(xs)
    assert xs[0] >= 0 and xs[-1] + 8.4 * len(GRADE_BANDS[-1].en) <= width


def test_the_previews_legend_is_english(run: Any, tmp_path: Path) -> None:
    config = tmp_path / "pack.yaml"
    config.write_text("name: pools\nseed: 3\nsections:\n"
                      "  - {name: easy, kind: kanji, count: 3, preset: easy}\n",
                      encoding="utf-8")
    assert run("pack", "build", config, "--out", tmp_path / "pack").exit_code == 0
    page = run("pack", "preview", tmp_path / "pack")
    assert page.exit_code == 0, page.stderr
    legend = re.search(r'<div class="legend"[^>]*>.*?</div>', page.stdout, re.S)
    assert legend is not None
    assert all(name in legend.group(0) for name in GRADE_NAMES["en"].values())
    assert not JAPANESE_SCRIPT.search(legend.group(0))
