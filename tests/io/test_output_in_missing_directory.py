"""An output (``-o``, ``--stats``) in a directory that does not exist is a usage error (exit 2)
naming the directory as the command line wrote it, for every command that writes one; nothing
is written and no directory is made."""

from __future__ import annotations

import click
import pytest
from conftest import EXAMPLES

from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths

# what each command needs beside its output to run at all ({pack}: a built pack)
NEEDS = {("balance",): ["-n", "3", "--turns", "1", "--seed", "1"],
         ("crossword",): ["--vocab", EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1"],
         ("crossword", "endless"): ["--vocab", EXAMPLES / "tech.yaml", "--count", "1",
                                    "--seed", "1"],
         ("crossword", "challenge"): ["--vocab", EXAMPLES / "tech.yaml", "--seed", "1"],
         ("kanji",): ["-n", "1", "--seed", "1"],
         ("rarity",): ["--vocab", EXAMPLES / "words.yaml"],
         ("tiles",): ["-n", "2", "--seed", "1"],
         ("pack", "export"): ["{pack}", "--format", "json"],
         ("pack", "preview"): ["{pack}"]}
FLAGS = {"output": "-o/--output", "stats_path": "--stats"}


def _outputs() -> list[tuple[tuple[str, ...], str]]:
    """(command path, parameter) of every file output a command names with -o or --stats."""
    found = []
    for path in command_paths(cli):
        command: click.Command = cli
        for name in path:
            assert isinstance(command, click.Group)
            command = command.get_command(click.Context(command), name)
        found += [(path, p.name) for p in command.params if p.name in FLAGS]
    return found


def test_every_output_is_covered():
    assert {path for path, _ in _outputs()} == set(NEEDS)


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    from click.testing import CliRunner

    root = tmp_path_factory.mktemp("pack")
    config = root / "pack.yaml"
    config.write_text(f"name: p\nseed: 1\nsections:\n  - {{name: b, kind: crossword, vocab: "
                      f"{EXAMPLES / 'tech.yaml'}, count: 2}}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["pack", "build", str(config), "--out", str(root / "out")])
    assert result.exit_code == 0, result.output
    return root / "out"


@pytest.mark.parametrize("path, param", _outputs(), ids=lambda v: v if isinstance(v, str)
                         else " ".join(v))
def test_an_output_in_a_missing_directory_is_refused_as_given(run, tmp_path, monkeypatch, pack,
                                                              path, param):
    monkeypatch.chdir(tmp_path)
    args = [str(pack) if a == "{pack}" else a for a in NEEDS[path]]
    flag = "-o" if param == "output" else "--stats"
    result = run(*path, *args, flag, "nodir/deeper/out.file")
    assert result.exit_code == 2, result.stderr
    assert result.stderr == (f"wfkit: error: nodir/deeper: {FLAGS[param]}: directory does not "
                             "exist\n")
    assert list(tmp_path.iterdir()) == []
