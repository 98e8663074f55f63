"""``wfkit pack preview``: a self-contained page, opened in headless Chromium.

The page's own script marks on ``<body>`` how many board and chart pictures the browser laid
out with a non-zero size, and how wide the page laid out; the test reads the DOM Chromium
dumps after running it, at a 1280-pixel desktop width and at a 390-pixel phone width, and
saves a screenshot of each as a test artefact (pack-preview-1280.png, pack-preview-phone.png
in $WFKIT_ARTIFACTS when set, else pytest's tmp dir). Without Chromium the browser test is
skipped, except under CI=true, where it must run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_pack_engines import small_pack

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
BOARDS = 4 * 6  # 4 pictures per board section: crossword, strict, endless, challenge, 2 kanji
# rarity: tiers and battle tiers; each crossword section: width, height, blank failure,
# attempts; each kanji section: kanji, hidden compounds, orphan share
CHARTS = 2 + 4 * 4 + 3 * 2


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> tuple[Path, Path]:
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("preview")
    config = small_pack(tmp)
    out = tmp / "pack"
    runner = CliRunner()
    result = runner.invoke(cli, ["pack", "build", str(config), "--out", str(out)])
    assert result.exit_code == 0, result.output
    html = tmp / "preview.html"
    result = runner.invoke(cli, ["pack", "preview", str(out), "-o", str(html), "--items", "4"])
    assert result.exit_code == 0, result.output
    return out, html


def test_the_page_is_self_contained(page):
    out, html = page
    text = html.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    # nothing to fetch: no links, sources or imports; a URL in an attribute is only SVG's
    # namespace name (URLs in the manifest's licence texts are text, never fetched)
    assert not re.search(r"<link|<img|<iframe|<object|<embed|\bsrc=|@import|url\(", text)
    attributes = set(re.findall(r"([\w:-]+)=[\"']?\s*(?:https?:)?//", text))
    assert attributes <= {"xmlns"}, attributes
    manifest = json.loads((out / "manifest.json").read_text())
    for section in manifest["sections"]:
        assert f'id="section-{section["name"]}"' in text
    assert text.count('<figure class="board') == BOARDS
    assert text.count('<figure class="chart">') == CHARTS
    assert "manifest.json" in text and manifest["config"]["sha256"] in text


def test_the_header_counts_the_files_build_and_check_count(page, run):
    out, html = page
    text = html.read_text(encoding="utf-8")
    files = [p for p in out.rglob("*") if p.is_file()]
    assert f" · {len(files)} files</p>" in text  # the manifest counts every file but itself


def test_statistics_show_words_with_the_raw_key_as_tooltip(page):
    from wordforge_cli.render.html import stat_label

    _out, html = page
    text = html.read_text(encoding="utf-8")
    assert '<span title="blank_failure.tail.boards">blank failure › tail › boards</span>' in text
    assert '<span title="kanji_count.median">kanji per pool › median</span>' in text
    assert stat_label("some_new_key.p90") == "some new key › 90th percentile"
    raw = re.findall(r"<span title=\"([^\"]+)\">([^<]+)</span>", text)
    assert raw and all("_" not in label for _key, label in raw), raw[:5]


def test_grade_colours_are_distinct_and_explained():
    from wordforge_cli.render.html import grade_legend
    from wordforge_cli.render.kanji import GRADE_FILL, GRADE_NAME

    bands = [GRADE_FILL[grade] for grade in GRADE_NAME]
    assert len(set(bands)) == len(bands)

    def rgb(colour):
        return [int(colour[i:i + 2], 16) for i in (1, 3, 5)]

    for i, a in enumerate(bands):  # every two bands differ clearly (not three near-creams)
        for b in bands[i + 1:]:
            assert sum(abs(x - y) for x, y in zip(rgb(a), rgb(b), strict=True)) >= 40, (a, b)
        assert sum(rgb(a)) / 3 >= 190  # light enough for black ink
    legend = grade_legend()
    for grade, name in GRADE_NAME.items():
        assert f'background:{GRADE_FILL[grade]}"></i>{name}' in legend


def test_the_chart_title_clears_the_tallest_bar():
    from wordforge_cli.render.html import tier_chart

    svg = tier_chart({"normal": 40, "rare": 7}, "rarity tiers")
    title_y = float(re.search(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>rarity tiers<', svg).group(1))
    count_y = float(re.search(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>40<', svg).group(1))
    assert count_y - 13 >= title_y + 4  # the count's cap height sits below the title's baseline


def test_preview_of_a_directory_that_is_not_a_pack(tmp_path, run):
    result = run("pack", "preview", tmp_path, "-o", tmp_path / "p.html")
    assert result.exit_code == 2 and "not a wfkit pack" in result.stderr
    assert not (tmp_path / "p.html").exists()


def test_chromium_draws_the_boards_and_the_chart(page, tmp_path):
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Chromium is not installed (.ci/run installs the Debian "
                        "package 'chromium')")
        pytest.skip("Chromium is not installed (Debian package 'chromium'); CI runs this test")
    _out, html = page
    artefacts = Path(os.environ.get("WFKIT_ARTIFACTS") or tmp_path)
    artefacts.mkdir(parents=True, exist_ok=True)
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}"]
    url = html.resolve().as_uri()
    dom = subprocess.run([*base, "--dump-dom", url], capture_output=True, text=True,
                         timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    body = re.search(r"<body[^>]*>", dom.stdout)
    assert body, dom.stdout[:500]
    marks = dict(re.findall(r'data-(boards|charts)-drawn="(\d+)"', body.group(0)))
    assert int(marks.get("boards", 0)) == BOARDS, body.group(0)  # the page's script saw them
    assert int(marks.get("charts", 0)) == CHARTS, body.group(0)
    assert dom.stdout.count('data-drawn="yes"') == BOARDS + CHARTS
    bars = re.findall(r'<rect class="bar"', dom.stdout)
    assert len(bars) == html.read_text(encoding="utf-8").count('<rect class="bar"') > 12
    cells = len(re.findall(r"<rect ", dom.stdout))
    assert cells > BOARDS * 10
    for name, (width, height) in (("1280", (1280, 9000)), ("phone", (390, 16000))):
        # no sideways scrolling: every card, chart and table fits the screen. Headless
        # Chromium lays a page out at least 500 pixels wide until its screenshot, so the
        # phone width is measured in a 390-pixel frame
        frame = tmp_path / f"frame-{name}.html"
        frame.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe id="f" '
                         f'src="{url}" style="width:{width}px;height:2000px;border:0"></iframe>'
                         "<script>document.getElementById('f').onload=function(){document.body"
                         ".setAttribute('data-inner',this.contentWindow.innerWidth+' '+"
                         "this.contentDocument.documentElement.scrollWidth)}</script></body>"
                         "</html>", encoding="utf-8")
        laid = subprocess.run([*base, "--allow-file-access-from-files", "--window-size=1400,900",
                               "--dump-dom", frame.as_uri()], capture_output=True, text=True,
                              timeout=120)
        inner = re.search(r'data-inner="(\d+) (\d+)"', laid.stdout)
        assert inner and int(inner.group(1)) == width, (name, laid.stdout[-500:])
        assert int(inner.group(2)) <= width, f"the page is {inner.group(2)} px wide at {width}"
        shot = artefacts / f"pack-preview-{name}.png"
        snap = subprocess.run([*base, f"--window-size={width},{height}", f"--screenshot={shot}",
                               url], capture_output=True, text=True, timeout=120)
        assert snap.returncode == 0, snap.stderr[-2000:]
        data = shot.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
        size = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert size == (width, height)
        print(f"screenshot: {shot}")
