"""Refusals written out: a command line, the small files it reads, the exit status and the one
line it must print. The tables are in the subject's own test file (``test_crossword_refusals``,
``test_kanji_refusals``, ...); this runs a case.

``{EX}`` in the arguments, in a file's text and in the expected lines stands for the examples
folder. A case runs in a folder of its own holding only its files, so the names in its messages
are the names the case gave.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from wordforge_cli.batch import kinds
from wordforge_cli.cli import cli


@dataclass
class Refusal:
    """``wfkit COMMAND`` (split as a shell splits it) run beside FILES (text, or bytes as
    written) exits STATUS, printing BEFORE (whole lines: warnings, a deprecation) and then
    ``wfkit: error: MESSAGE`` on stderr, and STDOUT (nothing unless given) on stdout."""

    command: str
    files: dict[str, str | bytes]
    status: int
    message: str
    before: tuple[str, ...] = ()
    stdout: str = ""

    def __str__(self) -> str:
        return f"wfkit {self.command}"


def check(case: Refusal, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run the case in a folder of its own and compare its status and output line by line."""
    for name, where in list(kinds.KINDS.items()):  # a refusal names the built-in kinds only
        if where.endswith("<registered>"):
            monkeypatch.delitem(kinds.KINDS, name)
            monkeypatch.delitem(kinds._LOADED, name, raising=False)
    work = tmp_path / "case"
    work.mkdir()
    for name, content in case.files.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content.replace("{EX}", str(EXAMPLES)), encoding="utf-8")
    monkeypatch.chdir(work)
    argv = [arg.replace("{EX}", str(EXAMPLES)) for arg in shlex.split(case.command)]
    result = CliRunner().invoke(cli, argv, prog_name="wfkit", catch_exceptions=False)
    stderr = result.stderr.replace(str(EXAMPLES), "{EX}").splitlines()
    assert (result.exit_code, stderr, result.stdout) == (
        case.status, [*case.before, f"wfkit: error: {case.message}"], case.stdout), case
