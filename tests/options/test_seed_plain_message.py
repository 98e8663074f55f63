"""A ``--seed`` that is no number says so plainly, on every command that takes one ("'abc' is
not a seed", never Click's "is not a valid integer range"): exit 2, one line."""

from __future__ import annotations

import click
import pytest

from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths


def _seeded() -> list[tuple[str, ...]]:
    found = []
    for path in command_paths(cli):
        command: click.Command = cli
        for name in path:
            assert isinstance(command, click.Group)
            command = command.get_command(click.Context(command), name)
        if any(p.name == "seed" for p in command.params):
            found.append(path)
    return found


def test_the_commands_that_draw_at_random_take_a_seed():
    assert {path[0] for path in _seeded()} >= {"crossword", "kanji", "tiles", "balance"}


@pytest.mark.parametrize("path", _seeded(), ids=" ".join)
@pytest.mark.parametrize("seed", ["abc", "1.5", "", "0x10"])
def test_a_seed_that_is_no_number_is_one_plain_line(run, path, seed):
    result = run(*path, "--seed", seed)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert f"{seed!r} is not a seed (a whole number from 0 to 2**63-1)" in result.stderr
    assert "integer range" not in result.stderr
