"""A pack's balance section: games by the engine, exact figures in the manifest; its charts in
``wfkit pack preview``, drawn in headless Chromium. (The same bytes for any --jobs:
``test_jobs_same_bytes.py``.)"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from test_pack_preview import find_chromium
from wordforge_tables import write_table

CONFIG = """\
name: play
seed: 5
sections:
  - name: duel
    kind: balance
    count: 12
    data: english.tsv
    players: [B1, C2]
    turns: 4
"""


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("balance-pack")
    write_table(tmp)
    config = tmp / "pack.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    runner = CliRunner()
    out = tmp / "one"
    result = runner.invoke(cli, ["pack", "build", str(config), "--out", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    return tmp, config, out


def test_balance_section_records_and_manifest(pack, run):
    tmp, config, out = pack
    manifest = json.loads((out / "manifest.json").read_text())
    (section,) = manifest["sections"]
    assert section["kind"] == "balance" and section["records"] == 12
    stats = section["stats"]
    assert stats["games"] == 12 and stats["players"] == ["1:B1", "2:C2"]
    assert sum(stats["wins"].values()) == pytest.approx(1, abs=1e-3)
    games = [json.loads(x) for x in (out / section["file"]).read_text().splitlines()]
    assert [g["game"] for g in games] == list(range(12))
    assert run("pack", "check", config, "--out", out).exit_code == 0
    bad = tmp / "bad.yaml"
    bad.write_text(CONFIG.replace("[B1, C2]", "[B1, D7]"), encoding="utf-8")
    result = run("pack", "build", bad, "--out", tmp / "bad")
    assert result.exit_code == 2 and "bad.yaml:8" in result.stderr and "D7" in result.stderr


def test_preview_draws_the_balance_charts(pack, tmp_path, run):
    _tmp, _config, out = pack
    html = tmp_path / "preview.html"
    assert run("pack", "preview", out, "-o", html).exit_code == 0
    page = html.read_text(encoding="utf-8")
    # the turn scores, the win share and mean score by seat and by model with their
    # intervals, the power-ups' points and the games they decided
    assert page.count('<figure class="chart">') == 6
    dom = chromium_dom(html, tmp_path / "profile")
    body = re.search(r"<body[^>]*>", dom).group(0)
    assert 'data-charts-drawn="6"' in body, body
    stats = json.loads((out / "manifest.json").read_text())["sections"][0]["stats"]
    bars = len(re.findall(r'<rect class="bar"', dom))
    assert bars == len(stats["score_per_turn"]["histogram"]) + 2 * len(stats["powerup_effect"])
    points = len(re.findall(r'<circle class="point"', dom))
    assert points == 3 * len(stats["players"])  # a seat's share and mean, a model's share


def chromium_dom(html: Path, profile: Path) -> str:
    """The page as headless Chromium laid it out (its script run); skips without Chromium,
    fails in CI."""
    chromium = find_chromium()
    if chromium is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Chromium is not installed")
        pytest.skip("Chromium is not installed (Debian package 'chromium')")
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", f"--user-data-dir={profile}"]
    dom = subprocess.run([*base, "--dump-dom", html.resolve().as_uri()], capture_output=True,
                         text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    return dom.stdout
