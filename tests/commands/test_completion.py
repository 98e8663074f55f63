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


# ------------------------------------------------------------------ shell completion
# Click's own mechanism: the shell asks `wfkit` with _WFKIT_COMPLETE=<shell>_complete and
# COMP_WORDS / COMP_CWORD set; _WFKIT_COMPLETE=<shell>_source prints the script to install.

def complete(env: dict[str, str]):
    return CliRunner().invoke(cli, [], prog_name="wfkit", env=env)


@pytest.mark.parametrize("shell,marker", [("bash", "complete -o nosort -F _wfkit_completion"),
                                          ("zsh", "#compdef wfkit"),
                                          ("fish", "complete --no-files --command wfkit")])
def test_completion_script_for_each_shell(shell, marker):
    result = complete({"_WFKIT_COMPLETE": f"{shell}_source"})
    assert result.exit_code == 0, result.output
    assert marker in result.stdout and "_WFKIT_COMPLETE" in result.stdout


def test_bash_completes_a_subcommand_and_an_option_name():
    result = complete({"_WFKIT_COMPLETE": "bash_complete", "COMP_WORDS": "wfkit pa",
                       "COMP_CWORD": "1"})
    assert result.exit_code == 0 and result.stdout.split() == ["plain,pack"]
    result = complete({"_WFKIT_COMPLETE": "bash_complete", "COMP_WORDS": "wfkit crossword --vo",
                       "COMP_CWORD": "2"})
    assert result.stdout.split() == ["plain,--vocab"]
    result = complete({"_WFKIT_COMPLETE": "bash_complete", "COMP_WORDS": "wfkit pack ",
                       "COMP_CWORD": "2"})
    assert result.stdout.split() == ["plain,build", "plain,check", "plain,export", "plain,merge",
                                     "plain,preview"]


def test_zsh_and_fish_complete_with_help_and_choices():
    result = complete({"_WFKIT_COMPLETE": "zsh_complete", "COMP_WORDS": "wfkit sc",
                       "COMP_CWORD": "1"})
    lines = result.stdout.splitlines()
    assert lines[:2] == ["plain", "schema"] and lines[2].startswith("Print the JSON Schema")
    assert "score" in lines
    result = complete({"_WFKIT_COMPLETE": "fish_complete", "COMP_WORDS": "wfkit crossword --style ",
                       "COMP_CWORD": ""})
    assert result.stdout.split() == ["plain,none", "plain,tail", "plain,head", "plain,alt",
                                     "plain,most"]


def test_bash_loads_the_script_and_registers_wfkit(tmp_path):
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    wfkit = Path(sys.executable).parent / "wfkit"
    if not wfkit.exists() or shutil.which("bash") is None:
        pytest.skip("needs bash and an installed wfkit")
    script = (f'eval "$(_WFKIT_COMPLETE=bash_source {wfkit})" && complete -p wfkit && '
              'COMP_WORDS=(wfkit kan); COMP_CWORD=1; _wfkit_completion wfkit && '
              'echo "${COMPREPLY[@]}"')
    env = {"PATH": f"{wfkit.parent}:/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "_wfkit_completion wfkit" in result.stdout and result.stdout.split()[-1] == "kanji"
