"""The pools' quality figures go by their English names in English tables and renders (the
text board, the SVG, the stderr table, the pack preview's captions), from the one table of
names; 指標A is index A there."""

from __future__ import annotations

import json
import re

from wordforge_cli.kanji.stats import FIGURE_NAMES, FIGURES


def test_every_figure_has_an_english_name():
    assert set(FIGURES) <= set(FIGURE_NAMES)
    assert all(name.isascii() and name for name in FIGURE_NAMES.values())
    assert FIGURE_NAMES["index_a"] == "index A"


def test_renders_and_tables_name_index_a_in_english(run, tmp_path):
    for render in ("text", "svg"):
        result = run("kanji", "-n", "2", "--seed", "3", "--render", render, "--reveal", "-q")
        assert result.exit_code == 0, result.stderr
        assert "指標" not in result.stdout and "index A" in result.stdout, render
    table = run("kanji", "-n", "5", "--seed", "3", "-o", tmp_path / "p.jsonl")
    rows = [re.match(r"\s+(\D+?)\s+\d", line) for line in table.stderr.splitlines()[2:]]
    assert [row.group(1) for row in rows if row] == list(FIGURE_NAMES.values())
    assert "指標" not in table.stderr
    one = run("kanji", "-n", "1", "--seed", "3", "-o", tmp_path / "one.jsonl")
    assert "index A" in one.stderr and "指標" not in one.stderr


def test_the_pack_previews_pool_captions_are_english(run, tmp_path):
    config = tmp_path / "pack.yaml"
    config.write_text("name: pools\nseed: 3\nsections:\n"
                      "  - {name: easy, kind: kanji, count: 3, preset: easy, render: [svg]}\n",
                      encoding="utf-8")
    assert run("pack", "build", config, "--out", tmp_path / "pack").exit_code == 0
    record = json.loads((tmp_path / "pack" / "easy.jsonl").read_text().splitlines()[0])
    page = run("pack", "preview", tmp_path / "pack")
    assert page.exit_code == 0, page.stderr
    assert "指標" not in page.stdout and f"index A {record['index_a']}" in page.stdout
