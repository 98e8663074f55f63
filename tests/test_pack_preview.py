"""``wfkit pack preview``: a self-contained page, opened in headless Chromium.

The page's own script marks on ``<body>`` how many board and chart pictures the browser laid
out with a non-zero size; the test reads the DOM Chromium dumps after running it, and saves a
screenshot as a test artefact (in $WFKIT_ARTIFACTS when set, else pytest's tmp dir). Without
Chromium the browser test is skipped, except under CI=true, where it must run.
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
    assert text.count('<figure class="board">') == BOARDS
    assert text.count('<figure class="chart">') == 2  # rarity tiers and battle tiers
    assert "manifest.json" in text and manifest["config"]["sha256"] in text


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
    shot = artefacts / "pack-preview.png"
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
    assert int(marks.get("charts", 0)) == 2, body.group(0)
    assert dom.stdout.count('data-drawn="yes"') == BOARDS + 2
    bars = re.findall(r'<rect class="bar"', dom.stdout)
    assert len(bars) == 12  # six tiers, two charts
    cells = len(re.findall(r"<rect ", dom.stdout))
    assert cells > BOARDS * 10
    snap = subprocess.run([*base, "--window-size=1280,9000", f"--screenshot={shot}", url],
                          capture_output=True, text=True, timeout=120)
    assert snap.returncode == 0, snap.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1280, 9000)
    print(f"screenshot: {shot}")
