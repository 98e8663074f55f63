"""The command line's own surface: help when a group is run bare, and shell completion."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths


def bare_groups() -> list[tuple[str, ...]]:
    """The root and every group that needs a subcommand (crossword and kanji run without one)."""
    groups: list[tuple[str, ...]] = [()]
    for path in command_paths(cli):
        command = cli
        for name in path:
            command = command.get_command(click.Context(command), name)
        if isinstance(command, click.Group) and not command.invoke_without_command:
            groups.append(path)
    return groups


@pytest.mark.parametrize("path", bare_groups(), ids=lambda p: " ".join(("wfkit", *p)))
def test_a_bare_group_prints_its_help_to_stdout_and_exits_0(path):
    result = CliRunner().invoke(cli, list(path), prog_name="wfkit")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.startswith(f"Usage: {' '.join(('wfkit', *path))} [OPTIONS] COMMAND")
    assert "Commands:" in result.stdout and "wfkit: error" not in result.stdout
    assert result.stdout == CliRunner().invoke(cli, [*path, "--help"], prog_name="wfkit").stdout


def test_pack_is_among_the_bare_groups():
    assert ("pack",) in bare_groups()
