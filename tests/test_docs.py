"""The README documents every command with its current --help (sqlite-utils' rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wordforge_cli.cli import cli
from wordforge_cli.docs import BEGIN, END, command_paths, help_text

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
REFERENCE = README.split(BEGIN, 1)[-1].split(END, 1)[0] if BEGIN in README else ""


def test_reference_block_exists():
    assert BEGIN in README and END in README, "run: python -m wordforge_cli.docs"


@pytest.mark.parametrize("path", command_paths(cli), ids=" ".join)
def test_command_is_documented_with_current_help(path):
    assert f"### wfkit {' '.join(path)}\n" in REFERENCE, (
        f"wfkit {' '.join(path)} is undocumented: run python -m wordforge_cli.docs")
    assert help_text(path).rstrip() in REFERENCE, (
        f"wfkit {' '.join(path)} --help changed: run python -m wordforge_cli.docs")


@pytest.mark.parametrize("path", command_paths(cli), ids=" ".join)
def test_help_has_an_example(path):
    assert "wfkit " in help_text(path).split("Options:", 1)[0].split("\n", 1)[1], (
        f"wfkit {' '.join(path)} --help has no example")
