"""The documentation is held to the code: the generated pages are current, every command's
--help has an example, the README is short and free of a lab log's marks, the site builds with
``mkdocs build --strict``, and the performance table is written by its writer."""

from __future__ import annotations

import datetime
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths, help_text, stale

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted((ROOT / "docs").rglob("*.md"))
# marks of a measurement log that a reader's page does not carry
LAB_MARKS = {
    "a load figure": re.compile(r"load [0-9]"),
    "a time of day": re.compile(r"\b[0-2][0-9]:[0-5][0-9] UTC"),
    "a commit hash": re.compile(r"`[0-9a-f]{7,12}`"),
}


def test_generated_pages_are_current():
    assert stale() == [], "run: python -m wordforge_cli.docs"


def test_the_command_reference_has_every_command():
    page = (ROOT / "docs/reference/commands.md").read_text(encoding="utf-8")
    for path in command_paths(cli):
        assert f"\n## wfkit {' '.join(path)}\n" in page
        assert help_text(path).rstrip() in page


def test_the_configuration_reference_has_every_field():
    from wordforge_cli.crossword.config import BATCH, BOARD
    from wordforge_cli.kanji.config import POOLS
    from wordforge_cli.wordforge.config import GAME

    page = (ROOT / "docs/reference/configuration.md").read_text(encoding="utf-8")
    for spec in (BOARD, BATCH, POOLS, GAME):
        for field in spec:
            assert f"`{field.decls[0]}`" in page or f"`{field.config_key}`" in page, field.name


@pytest.mark.parametrize("path", command_paths(cli), ids=" ".join)
def test_help_has_an_example(path):
    assert "wfkit " in help_text(path).split("Options:", 1)[0].split("\n", 1)[1], (
        f"wfkit {' '.join(path)} --help has no example")


def test_readme_is_short_and_keeps_the_set_up_commands_first():
    assert len(README.splitlines()) <= 250
    first_block = README.split("```", 2)[1]
    assert "\n# 1. " in first_block and "\n# 2. " in first_block
    test_command = first_block.split("\n# 2. ", 1)[1].splitlines()[1]
    assert "pytest" in test_command and test_command.endswith("--hypothesis-profile=ci")
    assert ".[test" in test_command and "docs" in test_command  # the site's build test runs
    assert "pipx install" in README and "## A quick tour" in README


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_lab_log_marks(page):
    text = page.read_text(encoding="utf-8")
    for what, mark in LAB_MARKS.items():
        found = mark.search(text)
        assert not found, f"{page.name} carries {what}: {found.group(0)!r}"


def test_readme_links_reach_outside_the_wheel():
    """The README is the wheel's long description: its links and images are absolute."""
    assert 'readme = "README.md"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)]+)\)", README):
        assert target.startswith("https://"), target


def test_the_docs_build_strict(tmp_path):
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        pytest.skip("the docs extra is not installed: pip install -e '.[docs]'")
    site = tmp_path / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                             str(site)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr[-3000:]
    pages = [p for p in site.rglob("index.html") if "404" not in p.parts]
    assert len(pages) >= 12, pages
    english = (site / "data" / "english" / "index.html").read_text(encoding="utf-8")
    first_heading = (ROOT / "data/english.md").read_text(encoding="utf-8").splitlines()[0]
    assert first_heading.lstrip("# ").split(":")[0] in english  # the sheet itself, not a copy
    assert (site / "changelog" / "index.html").is_file()
    commands = (site / "reference" / "commands" / "index.html").read_text(encoding="utf-8")
    assert "wfkit crossword endless" in commands


def test_perf_page_writes_one_row_a_figure(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import perf_page
    finally:
        sys.path.remove(str(ROOT / "bench"))
    page = tmp_path / "performance.md"
    shutil.copy(ROOT / "docs" / "performance.md", page)
    before = perf_page.rows(page)
    assert len(before) >= 15 and all(len(row) == 5 for row in before)
    figure = before[0][0]
    perf_page.record(figure, "<= 1.3x", "1.01x", "python bench/bench_rarity.py --runs 3",
                     date=datetime.date(2027, 1, 2), page=page)
    after = perf_page.rows(page)
    assert len(after) == len(before)
    assert after[0] == [figure, "<= 1.3x", "1.01x", "`python bench/bench_rarity.py --runs 3`",
                        "2027-01-02"]
    assert after[1:] == before[1:]
    perf_page.record("a new figure", "-", "5 ms", "python bench/x.py", page=page)
    assert perf_page.rows(page)[-1][0] == "a new figure"
    for marked in ("4.5 s at load 3.1", "run of 19:34", "at 3628e5a"):
        with pytest.raises(ValueError):
            perf_page.record("a figure", "-", marked, "python bench/x.py", page=page)
