"""Every command's help option is ``-h, --help`` whatever context asked for it first.

Click caches a command's help option the first time ``get_help_option(ctx)`` runs, named by
that context's ``help_option_names``; a context made without the group's settings (a bare
``click.Context(command)``, as a test or a docs helper makes) names only ``--help``. Each
command carries its names itself, so such a context first changes nothing: ``-h`` still
works and every help page says ``-h, --help``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from wordforge_cli.cli import COMMANDS, cli


def _commands() -> Iterator[tuple[list[str], click.Command]]:
    """Every command and subcommand, as its module defines it (not handed out by the group),
    with its path under ``wfkit``."""
    for name, where in sorted(COMMANDS.items()):
        module, attr = where.split(":")
        stack: list[tuple[list[str], click.Command]] = [
            ([name], getattr(importlib.import_module(module), attr))]
        while stack:
            path, command = stack.pop()
            yield path, command
            subs = getattr(command, "commands", {})
            stack += [([*path, sub], subs[sub]) for sub in sorted(subs, reverse=True)]


ALL = list(_commands())


def test_the_walk_finds_every_command_and_subcommand() -> None:
    paths = {" ".join(path) for path, _ in ALL}
    assert set(COMMANDS) <= paths
    assert {"kanji check", "kanji play", "pack build", "pack preview", "crossword plan"} <= paths


@pytest.mark.parametrize("path", [" ".join(path) for path, _ in ALL])
def test_a_bare_context_first_leaves_help_as_dash_h_and_dash_dash_help(path: str) -> None:
    command = dict((" ".join(p), c) for p, c in ALL)[path]
    bare = click.Context(command)  # no parent, no settings: help_option_names == ["--help"]
    option = command.get_help_option(bare)
    assert option is not None and option.opts == ["-h", "--help"]
    runner = CliRunner()
    for flag in ("--help", "-h"):
        result = runner.invoke(cli, [*path.split(), flag], prog_name="wfkit")
        assert result.exit_code == 0, (flag, result.output)
        assert "  -h, --help " in result.output, (flag, result.output[-400:])


def test_the_group_itself_carries_its_names() -> None:
    option = cli.get_help_option(click.Context(cli))
    assert option is not None and option.opts == ["-h", "--help"]
