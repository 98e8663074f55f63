"""``--report FILE.html`` of ``wfkit balance`` and kanji self-play: one self-contained page
(nothing fetched, every text escaped) whose charts headless Chromium lays out, written like
every output (checked before the run, all or nothing); the chart functions draw nothing
wrong from a summary anyone could edit (the pack preview reads them from a manifest)."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import CONFIGS, EXAMPLES
from hypothesis import given
from hypothesis import strategies as st

NUMBER = re.compile(r'\s(x|y|x1|y1|x2|y2|cx|cy|r|width|height|font-size)="([^"]*)"')
FETCHING = re.compile(r"<link|<img|<iframe|<object|<embed|\bsrc=|@import|url\(|href=")


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("CI=true but Chromium is not installed")
    pytest.skip("Chromium is not installed (Debian package 'chromium')")


def _laid_out(html: Path, tmp_path: Path) -> str:
    """The page's DOM after headless Chromium ran it, and a screenshot beside the page (or
    in $WFKIT_ARTIFACTS) for a person to look at."""
    base = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1280,900"]
    dom = subprocess.run([*base, "--dump-dom", html.resolve().as_uri()], capture_output=True,
                         text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    shots = Path(os.environ.get("WFKIT_ARTIFACTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    subprocess.run([*base, f"--screenshot={shots / (html.stem + '.png')}",
                    html.resolve().as_uri()], capture_output=True, timeout=120)
    return dom.stdout


def _self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not FETCHING.search(page)
    outside = re.sub(r'xmlns="http://www\.w3\.org/2000/svg"', "", page)
    assert "http://" not in outside and "https://" not in outside


@pytest.mark.parametrize(("command", "charts"), [
    # the turn scores, the win share and mean score by seat and by model, the power-ups'
    # points and the games they decided
    (["balance", "-n", "30", "--turns", "4", "--seed", "1", "--player", "B2", "--player",
      "C1"], 6),
    # the same for each rules file (one model: no model chart)
    (["balance", "-n", "20", "--turns", "3", "--seed", "1", "--compare",
      str(EXAMPLES / "rarity-no-short-cap.yaml")], 10),
    (["balance", "-n", "10", "--turns", "3", "--seed", "1", "--round-robin", "--player", "B1",
      "--player", "C2", "--player", "all"], 2),
    (["balance", "-n", "10", "--turns", "3", "--seed", "1", "--sweep", "use_at=0,30"], 2),
    # the seats' shares, the models', the end reasons, the per-pool spread
    (["kanji", "-n", "8", "--self-play", "--games", "2", "--seed", "1", "-o", "-"], 4),
    (["kanji", "-n", "4", "--preset", "normal", "--balanced", "--fresh-games", "2",
      "--seed", "1", "-o", "-"], 4),
    (["kanji", "-n", "4", "--self-play", "--games", "2", "--seed", "1", "--sweep",
      "preset=easy,hard"], 2),
], ids=["balance", "compare", "round-robin", "balance-sweep", "kanji", "balanced",
        "kanji-sweep"])
def test_the_page_draws_its_charts_in_chromium(run: Any, tmp_path: Path,
                                               command: list[str], charts: int) -> None:
    html = tmp_path / f"report-{command[0]}-{charts}.html"
    result = run(*command, "--report", html)
    assert result.exit_code == 0, result.stderr
    page = html.read_text(encoding="utf-8")
    _self_contained(page)
    assert page.count('<figure class="chart">') == charts
    again = tmp_path / "again.html"
    assert run(*command, "--report", again, "-j", "2").exit_code == 0
    assert again.read_bytes() == html.read_bytes()  # no time, no machine in it
    dom = _laid_out(html, tmp_path)
    body = re.search(r"<body[^>]*>", dom)
    assert body and f'data-charts-drawn="{charts}"' in body.group(0), body
    width = re.search(r'data-page-width="(\d+)"', body.group(0))
    assert width and int(width.group(1)) <= 1280  # nothing runs off the page's side


def test_text_on_the_page_is_escaped(run: Any, tmp_path: Path) -> None:
    odd = tmp_path / "<b>x&y.yaml"
    shutil.copy(CONFIGS / "rarity.yaml", odd)
    html = tmp_path / "page.html"
    result = run("balance", "-n", "6", "--turns", "2", "--seed", "1", "--compare", odd,
                 "--report", html)
    assert result.exit_code == 0, result.stderr
    page = html.read_text(encoding="utf-8")
    assert "<b>x" not in page and "&lt;b&gt;x&amp;y.yaml" in page


def test_the_page_is_checked_before_the_run_and_written_whole(run: Any,
                                                               tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    for report, message in ((tmp_path / "nowhere" / "r.html", "directory does not exist"),
                            (out, "name the same file"),
                            (tmp_path, "is a directory")):
        result = run("balance", "-n", "6", "--turns", "2", "--seed", "1", "-o", out,
                     "--report", report)
        assert result.exit_code == 2 and message in result.stderr, result.stderr
        assert "--report" in result.stderr
        assert not out.exists()
    kept = tmp_path / "kept.html"
    kept.write_text("before", encoding="utf-8")
    result = run("balance", "-n", "6", "--turns", "2", "--seed", "1", "--sweep", "turns=0,2",
                 "--report", kept)
    assert result.exit_code == 2 and kept.read_text(encoding="utf-8") == "before"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                    | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=30)


def _summary() -> dict[str, Any]:
    """A real balance summary, to mutate."""
    from wordforge_cli.batch.balance import BalanceSection, asked_of
    from wordforge_cli.batch.sinks import summed
    from wordforge_cli.wordforge.balance import GameRules, parse_model
    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.english import read_rules

    models = [parse_model("B1"), parse_model("all")]
    game = GameRules(turns=2)
    section = BalanceSection("balance", 4, (), 0, asked_of(models, game), rules=read_rules(),
                             models=models, game=game, files=RuleFiles())
    return summed(section, 1).summary


REAL: dict[str, Any] = {}


@given(key=st.sampled_from(["intervals", "models", "powerup_effect", "score_per_turn",
                            "wins", "powerups", "ended", "fresh", "mean_margin", "pairs"]),
       value=JSON, path=st.lists(st.text(max_size=6), max_size=2))
def test_the_charts_draw_nothing_wrong_from_a_summary_anyone_could_edit(
        key: str, value: Any, path: list[str]) -> None:
    from wordforge_cli.render.charts import balance_charts, kanji_charts, round_robin_charts

    if not REAL:
        REAL.update(_summary())
    stats = dict(REAL)
    if path and isinstance(stats.get(key), dict):  # deep inside a real figure
        inner = dict(stats[key])
        inner[path[0]] = value
        stats[key] = inner
    else:
        stats[key] = value
    for charts in (balance_charts(stats), kanji_charts(stats), round_robin_charts(stats)):
        for svg, caption in charts:
            assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
            for name, number in NUMBER.findall(svg):  # every place and size is finite
                assert math.isfinite(float(number)), (name, number)
            assert isinstance(caption, str)
