"""``--json`` is ``--render json``: every command that has both refuses a command line naming
another format beside ``--json`` (exit 2, one line), instead of writing JSON in silence; ``--json``
alone, or with ``--render json``, writes JSON."""

from __future__ import annotations

import json

import click
import pytest
from conftest import EXAMPLES

from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths

# what each command needs beside the formats to run at all
NEEDS = {("crossword",): ["--vocab", EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1"],
         ("crossword", "endless"): ["--vocab", EXAMPLES / "tech.yaml", "--count", "1",
                                    "--seed", "1"],
         ("crossword", "challenge"): ["--vocab", EXAMPLES / "tech.yaml", "--seed", "1"],
         ("kanji",): ["-n", "1", "--seed", "1"],
         ("rarity",): ["cat", "dog"]}


def _both() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """(command path, its other formats) of every command with --json and --render."""
    found = []
    for path in [(), *command_paths(cli)]:
        command: click.Command = cli
        for name in path:
            assert isinstance(command, click.Group)
            command = command.get_command(click.Context(command), name)
        params = {p.name: p for p in command.params}
        if "as_json" in params and "render" in params:
            choices = params["render"].type.choices  # type: ignore[attr-defined]
            found.append((path, tuple(c for c in choices if c != "json")))
    return found


def test_every_command_with_both_is_covered():
    assert {path for path, _ in _both()} == set(NEEDS)


@pytest.mark.parametrize("path, others", _both(), ids=lambda v: " ".join(v))
def test_another_format_beside_json_is_refused(run, path, others):
    for other in others:
        result = run(*path, *NEEDS[path], "--render", other, "--json")
        assert result.exit_code == 2, (other, result.stderr)
        assert result.stderr == (f"wfkit: error: --json and --render {other} ask for two "
                                 "formats: give one (--json is --render json)\n")
        assert result.stdout == ""
    for formats in (["--json"], ["--render", "json", "--json"]):
        result = run(*path, *NEEDS[path], *formats, "-q")
        assert result.exit_code == 0, result.stderr
        assert all(json.loads(line) for line in result.stdout.splitlines())


def test_the_old_format_flag_beside_json_is_refused_too(run):
    result = run("rarity", "cat", "--format", "csv", "--json")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1] == ("wfkit: error: --json and --render csv ask for "
                                              "two formats: give one (--json is --render json)")
