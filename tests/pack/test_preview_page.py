"""``wfkit pack preview``'s page: the vocabulary's hints on every board, one scale for every
board whatever its clues, charts of each crossword and kanji section drawn from the section's
own statistics, and sizes said in the game's words.

The pack is built here from the example vocabularies (and one of long clues made from them),
so the page's numbers are compared with the manifest it was drawn from, and the hints with
the vocabulary file itself, not with the records the page drew them from.
"""

from __future__ import annotations

import html as htmllib
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from conftest import EXAMPLES

from wordforge_cli.cli import cli
from wordforge_cli.io.vocab import read_vocab

PACK = """\
name: preview-page
seed: 11
sections:
  - name: animals
    kind: crossword
    vocab: animals-en.yaml
    count: 12
    band: [4, 5]
    layout: strict
  - name: long-clues
    kind: crossword
    vocab: long-clues.yaml
    count: 8
    band: [4, 5]
    layout: strict
  - name: tech
    kind: crossword
    vocab: tech.yaml
    count: 8
  - name: ramp
    kind: challenge
    vocab: animals-en.yaml
    count: 2
    layout: strict
  - name: pools
    kind: kanji
    count: 6
    preset: easy
"""
ITEMS = 5
LONG = (" that a reader takes a while to get through, since this clue goes on and on to see "
        "that it wraps under its board and never makes the board smaller")
NS = "{http://www.w3.org/2000/svg}"


def long_clues(path: Path) -> None:
    """animals-en.yaml with every hint made longer than any board is wide."""
    doc = yaml.safe_load((EXAMPLES / "animals-en.yaml").read_text(encoding="utf-8"))
    doc["name"] = "long-clues"
    doc["words"] = [{"word": w["word"], "hint": w["hint"] + LONG} for w in doc["words"]]
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("preview-page")
    for name in ("animals-en.yaml", "tech.yaml"):
        shutil.copy(EXAMPLES / name, tmp / name)
    long_clues(tmp / "long-clues.yaml")
    (tmp / "pack.yaml").write_text(PACK, encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(cli, ["pack", "build", str(tmp / "pack.yaml"), "--out",
                                 str(tmp / "pack"), "-q"])
    assert result.exit_code == 0, result.output
    page = tmp / "preview.html"
    result = runner.invoke(cli, ["pack", "preview", str(tmp / "pack"), "-o", str(page),
                                 "--items", str(ITEMS)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp / "pack" / "manifest.json").read_text(encoding="utf-8"))
    return tmp, page.read_text(encoding="utf-8"), manifest


def section(page: str, name: str) -> str:
    found = re.search(rf'<section class="pack-section" id="section-{name}".*?</section>', page,
                      re.S)
    assert found, name
    return found.group(0)


def boards(part: str) -> list[str]:
    return re.findall(r'<figure class="board crossword">.*?</figure>', part, re.S)


def clues(figure: str) -> list[str]:
    """The clue texts of a board's figure, as a reader sees them (the length dropped)."""
    return [htmllib.unescape(re.sub(r" \(\d+\)$", "", text))
            for text in re.findall(r"<li><b>\d+</b> (.*?)</li>", figure)]


def records(tmp: Path, name: str) -> list[dict[str, Any]]:
    lines = (tmp / "pack" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("name, vocab", [("animals", "animals-en.yaml"),
                                         ("long-clues", "long-clues.yaml"),
                                         ("ramp", "animals-en.yaml")])
def test_every_board_shows_the_vocabularys_hints(built, name, vocab):
    tmp, page, _manifest = built
    hints = {e.word: e.hint for e in read_vocab(tmp / vocab).entries}
    figures = boards(section(page, name))
    assert len(figures) == ITEMS
    for figure, rec in zip(figures, records(tmp, name), strict=False):
        # strict layout: every run of the grid is one placed word, clued by its hint
        assert sorted(clues(figure)) == sorted(hints[w["spelling"]] for w in rec["words"])
        assert "no hint in the vocabulary" not in figure


def test_a_vocabulary_without_hints_says_so_once_per_clue(built):
    _tmp, page, _manifest = built
    for figure in boards(section(page, "tech")):  # (a Japanese vocabulary: Japanese clues)
        found = clues(figure)
        assert found and all(c.startswith("語彙にヒントなし（") or "をつなぐ" in c
                             for c in found)
        assert not re.search(r"（\d+文字） \(\d+\)", figure)  # the length said once


def test_every_board_is_drawn_at_one_scale(built):
    """Each board's picture is as many units wide as its grid (or answer strip), at the
    page's one ``--u`` pixels a unit: long clues make the card taller, never the board
    smaller."""
    from wordforge_cli.render.crossword import CELL, PAD

    tmp, page, _manifest = built
    for name in ("animals", "long-clues", "tech", "ramp"):
        for figure, rec in zip(boards(section(page, name)), records(tmp, name), strict=False):
            pic = re.search(r'<div class="pic" style="--w:([0-9.]+)">(<svg .*?</svg>)', figure,
                            re.S)
            assert pic, figure[:300]
            svg = ET.fromstring(pic.group(2))
            width = max(rec["w"], len(rec["answer"])) * CELL + 2 * PAD
            assert float(pic.group(1)) == float(svg.get("width")) == width
            assert svg.get("viewBox").split()[2] == svg.get("width")
            assert all(LONG.strip() not in (t.text or "") for t in svg.iter(f"{NS}text"))
    css = re.search(r"<style>(.*?)</style>", page, re.S).group(1)
    assert re.findall(r"--u:", css) == ["--u:", "--u:"]  # one scale, and one for phones
    assert ".pic{flex:none;width:calc(var(--w)*var(--u))}" in css


def chart_texts(figure: str) -> tuple[str, list[str], list[str], list[float]]:
    """A chart's title, the texts above its bars, their labels and the bars' heights."""
    svg = ET.fromstring(re.search(r"<svg .*?</svg>", figure, re.S).group(0))
    texts = [t.text or "" for t in svg.iter(f"{NS}text")]
    heights = [float(r.get("height")) for r in svg.iter(f"{NS}rect") if r.get("class") == "bar"]
    return texts[0], texts[1::2], texts[2::2], heights


def charts(part: str) -> dict[str, tuple[list[str], list[str], list[float], str]]:
    out = {}
    for figure in re.findall(r'<figure class="chart">.*?</figure>', part, re.S):
        title, shown, labels, heights = chart_texts(figure)
        caption = htmllib.unescape(re.search(r"<figcaption>(.*?)</figcaption>", figure).group(1))
        out[title] = (shown, labels, heights, caption)
    return out


def proportional(heights: list[float], values: list[float]) -> bool:
    most = max(values)
    return all(abs(h - max(160 * v / most, 0.5)) <= 0.06 for h, v in zip(heights, values,
                                                                         strict=True))


@pytest.mark.parametrize("name", ["animals", "long-clues", "tech", "ramp"])
def test_crossword_charts_show_the_sections_statistics(built, name):
    _tmp, page, manifest = built
    stats = next(s for s in manifest["sections"] if s["name"] == name)["stats"]
    drawn = charts(section(page, name))
    assert list(drawn) == ["board width (cells)", "board height (cells)",
                           "blank failure per style", "attempts per board"]
    for way in ("width", "height"):
        shown, labels, heights, _caption = drawn[f"board {way} (cells)"]
        histogram = stats["size"][way]
        assert labels == list(histogram)
        assert shown == [str(n) for n in histogram.values()]
        assert proportional(heights, list(histogram.values()))
    shown, labels, heights, caption = drawn["blank failure per style"]
    failure = stats["blank_failure"]
    assert labels == list(failure)
    assert shown == [f"{f['rate']:g}%" for f in failure.values()]
    if any(f["rate"] for f in failure.values()):
        assert proportional(heights, [f["rate"] for f in failure.values()])
    assert f"n = {stats['made']} boards" in caption
    shown, labels, heights, caption = drawn["attempts per board"]
    attempts = stats["attempts"]
    mean = attempts["total"] / stats["made"]
    assert labels == ["median", "mean", "worst"]
    assert shown == [str(attempts["median"]), f"{mean:.2f}", str(attempts["worst"])]
    assert proportional(heights, [attempts["median"], mean, attempts["worst"]])
    assert f"{attempts['total']:,} for {stats['made']:,} boards" in caption


def test_kanji_charts_show_the_sections_statistics(built):
    _tmp, page, manifest = built
    stats = next(s for s in manifest["sections"] if s["name"] == "pools")["stats"]
    drawn = charts(section(page, "pools"))
    assert list(drawn) == ["kanji per pool", "hidden compounds per pool", "orphan share"]
    for title, key in (("kanji per pool", "kanji_count"),
                       ("hidden compounds per pool", "hidden_count")):
        shown, labels, heights, _caption = drawn[title]
        values = [stats[key][q] for q in ("min", "p10", "median", "p90", "max")]
        assert labels == ["min", "p10", "median", "p90", "max"]
        assert shown == [str(v) for v in values]
        assert proportional(heights, values)
    shown, labels, heights, caption = drawn["orphan share"]
    share = stats["orphan_count"]["mean"] / stats["kanji_count"]["mean"]
    assert labels == ["orphans", "in 2+ words"]
    assert shown == [f"{share:.1%}", f"{1 - share:.1%}"]
    assert proportional(heights, [share, 1 - share])
    total = round(stats["kanji_count"]["mean"] * stats["pools"])
    assert f"of the {total:,} on {stats['pools']} boards" in caption


def test_sizes_are_said_in_the_games_words(built):
    tmp, page, manifest = built
    said = {s["name"]: re.search(r'<p class="muted">(.*?) · file ', section(page, s["name"]))
            .group(1) for s in manifest["sections"]}
    ramp = next(s for s in manifest["sections"] if s["name"] == "ramp")
    per_set = len(records(tmp, "ramp")) // 2
    assert ramp["records"] == 2 * per_set and per_set > 1
    assert said == {"animals": "12 boards", "long-clues": "8 boards", "tech": "8 boards",
                    "ramp": f"2 sets of {per_set} boards", "pools": "6 pools"}
    assert "records of" not in page and " asked" not in page


@pytest.mark.parametrize("kind, count, records, failed, words", [
    ("crossword", 10, 10, 0, "10 boards"),
    ("crossword", 1, 1, 0, "1 board"),
    ("crossword", 10, 8, 2, "8 of 10 boards (2 missing)"),
    ("kanji", 1000, 998, 2, "998 of 1,000 pools (2 missing)"),
    ("rarity", 30, 30, 0, "30 words"),
    ("challenge", 5, 50, 0, "5 sets of 10 boards"),
    ("challenge", 1, 10, 0, "1 set of 10 boards"),
    ("challenge", 5, 40, 10, "4 of 5 sets of 10 boards (1 missing)"),
    ("challenge", 5, 0, 50, "0 of 5 sets of 10 boards (5 missing)"),
    ("challenge", 5, 0, 0, "0 boards in 5 sets"),
    ("challenge", 3, 7, 0, "7 boards in 3 sets"),  # (not whole sets: a pack edited by hand)
])
def test_size_words(kind, count, records, failed, words):
    from wordforge_cli.batch.kinds import get_kind
    from wordforge_cli.pack.manifest import SectionEntry
    from wordforge_cli.render.html import SectionView, size_words

    entry = SectionEntry(0, "s", kind, "s.jsonl", count, records, {}, (), 0,
                         {"made": records, "failed": failed}, None, None)
    found = get_kind(kind)
    assert size_words(SectionView(entry, noun=found.noun, group=found.group)) == words


def test_the_page_is_the_same_bytes_every_run(built, tmp_path):
    tmp, page, _manifest = built
    again = tmp_path / "again.html"
    result = CliRunner().invoke(cli, ["pack", "preview", str(tmp / "pack"), "-o", str(again),
                                      "--items", str(ITEMS)])
    assert result.exit_code == 0, result.output
    assert again.read_text(encoding="utf-8") == page


MEASURE = """<script>
(function(){
  var out=[];
  document.querySelectorAll('figure.board svg').forEach(function(svg){
    out.push((svg.getBoundingClientRect().width/svg.viewBox.baseVal.width).toFixed(4));
  });
  document.body.setAttribute('data-scales',out.join(' '));
  document.body.setAttribute('data-wide',document.documentElement.scrollWidth);
})();
</script></body>"""


def test_chromium_draws_every_board_at_one_scale(built, tmp_path):
    """At 1280 and at 390 pixels each board's cells are one size (the board scrolls in its
    card on a phone when wider than the screen), and the page never scrolls sideways."""
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser",
                                                   "google-chrome")) if p), None)
    if chromium is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Chromium is not installed")
        pytest.skip("Chromium is not installed (Debian package 'chromium')")
    _tmp, page, _manifest = built
    measured = tmp_path / "measured.html"
    measured.write_text(page.replace("</body>", MEASURE, 1), encoding="utf-8")
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}",
            "--allow-file-access-from-files", "--window-size=1400,900"]
    scales = {}
    for width in (1280, 390):
        # (headless Chromium lays a page out at least 500 pixels wide: a frame sets the width)
        frame = tmp_path / f"frame-{width}.html"
        frame.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe id="f" '
                         f'src="{measured.as_uri()}" style="width:{width}px;height:2000px;'
                         'border:0"></iframe><script>document.getElementById("f").onload='
                         "function(){var b=this.contentDocument.body;document.body.setAttribute("
                         "'data-got',b.getAttribute('data-scales')+'|'+b.getAttribute("
                         "'data-wide'))}</script></body></html>", encoding="utf-8")
        dom = subprocess.run([*base, "--dump-dom", frame.as_uri()], capture_output=True,
                             text=True, timeout=120)
        got = re.search(r'data-got="([^"|]*)\|(\d+)"', dom.stdout)
        assert got, dom.stdout[-500:]
        found = [float(x) for x in got.group(1).split()]
        assert len(found) == 5 * ITEMS, found  # 4 board sections and the pools
        assert max(found) - min(found) < 0.001, (width, found)  # (layout rounds to 1/64 px)
        assert int(got.group(2)) <= width
        scales[width] = found[0]
    assert scales[1280] > scales[390] >= 0.5  # a phone's cells are smaller, still readable
