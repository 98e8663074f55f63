"""Tile counts, a hand's size and the seats at a table are at most 1,000 in a rules file,
for every command that deals tiles (``A: [1, 1000000000]`` made ``balance`` and ``tiles`` try
to allocate more than 8 GB): one line naming the file and line, exit 2, before any deal,
from the command line and from a pack section alike.
"""

from __future__ import annotations

import pytest
from conftest import CONFIGS

CHANGES = [("    A: [1, 9]", "    A: [1, 1000000000]", "tiles/letters/A must be at most 1,000"),
           ("  hand_size: 10", "  hand_size: 100000000", "tiles/hand_size must be at most 1,000")]


def rules(tmp_path, old: str, new: str):
    text = (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "rules.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def refused(result, path, needle: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert result.stderr.count("\n") == 1 and f"{path}:" in result.stderr, result.stderr
    assert needle in result.stderr and "internal error" not in result.stderr


@pytest.mark.parametrize(("old", "new", "needle"), CHANGES)
@pytest.mark.parametrize("command", [("balance", "-n", "2", "--seed", "1"),
                                     ("tiles", "-n", "2", "--seed", "1"),
                                     ("tiles", "--best", "--hand", "AEIOURSTLN")])
def test_a_rules_file_of_a_billion_tiles_is_refused_by_every_dealer(run, tmp_path, old, new,
                                                                     needle, command):
    path = rules(tmp_path, old, new)
    refused(run(*command, "--config", path), path, needle)


@pytest.mark.parametrize(("old", "new", "needle"), CHANGES)
def test_a_balance_section_with_a_billion_tiles_is_refused(run, tmp_path, old, new, needle):
    path = rules(tmp_path, old, new)
    config = tmp_path / "pack.yaml"
    config.write_text("seed: 5\nsections:\n  - name: duel\n    kind: balance\n    count: 2\n"
                      "    config: rules.yaml\n")
    refused(run("pack", "build", config, "--out", tmp_path / "out"), path, needle)
    assert not (tmp_path / "out").exists()
