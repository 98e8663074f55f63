"""Refusals as 7bf4546 gave them, frozen while issue 11 cuts the front ends (one declaration per
option, the spec, the config loaders and the pack sections made one table or one generic path,
each cut promising the same messages and exit codes).

Every case in ``frozen_refusals.json`` is a command line and the small files it reads, drawn
by the differential fuzzer's generators (a bad value for every option of every command, bad
keys and values in crossword ``--config`` files with ``endless:``/``challenge:``, kanji
``--config`` files with presets, pack sections of every kind, rule files for rarity, score,
tiles and balance), run by 7bf4546 and kept when it refused with a message not kept already.
The exit status and the whole of stderr (timings masked) must stay as recorded, and stdout
too. Paths in the cases are relative to the case's own directory; ``{EX}`` is ``examples/``.
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES

from wordforge_cli.batch import kinds
from wordforge_cli.cli import cli

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "frozen_refusals.json").read_text(encoding="utf-8"))
TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")
SUBCOMMANDS = {"endless", "challenge", "plan", "check", "play", "build", "merge", "preview"}


def _group(case: dict[str, Any]) -> str:
    argv = case["argv"]
    sub = [a for a in argv[1:4] if a in SUBCOMMANDS][:1]
    return " ".join([case["area"], argv[0], *sub])


def _materialise(files: dict[str, Any], work: Path) -> None:
    for rel, content in files.items():
        path = work / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and "link" in content:
            path.symlink_to(content["link"].replace("{EX}", str(EXAMPLES)))
        elif isinstance(content, dict):
            path.write_bytes(base64.b64decode(content["b64"]))
        else:
            path.write_text(content.replace("{EX}", str(EXAMPLES)), encoding="utf-8")


GROUPS = sorted({_group(c) for c in CASES})


@pytest.fixture(autouse=True)
def _builtin_kinds_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Kinds a test registered (test_pack_fake's dice) were not 7bf4546's: a refusal lists kinds."""
    for name, where in list(kinds.KINDS.items()):
        if where.endswith("<registered>"):
            monkeypatch.delitem(kinds.KINDS, name)
            monkeypatch.delitem(kinds._LOADED, name, raising=False)


def test_the_table_covers_every_front_end() -> None:
    commands = {c["argv"][0] for c in CASES}
    assert {"crossword", "kanji", "pack", "rarity", "score", "tiles", "balance"} <= commands
    assert any("--config" in c["argv"] and c["argv"][0] == "crossword" for c in CASES)
    assert any("--config" in c["argv"] and c["argv"][0] == "kanji" for c in CASES)
    assert all(c["rc"] in (1, 2) for c in CASES)


@pytest.mark.parametrize("group", GROUPS)
def test_refusals_unchanged(group: str, tmp_path: Path,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    failures: list[str] = []
    cases = [c for c in CASES if _group(c) == group]
    for i, case in enumerate(cases):
        work = tmp_path / str(i)
        work.mkdir()
        _materialise(case["files"], work)
        monkeypatch.chdir(work)
        argv = [a.replace("{EX}", str(EXAMPLES)) for a in case["argv"]]
        result = CliRunner().invoke(cli, argv, prog_name="wfkit", catch_exceptions=False)
        stderr = TIMING.sub("T", result.stderr.replace(str(EXAMPLES), "{EX}"))
        want = TIMING.sub("T", case["stderr"])
        stdout = case["stdout"]
        same_out = (result.stdout == stdout if isinstance(stdout, str) else True)
        if (result.exit_code, stderr) != (case["rc"], want) or not same_out:
            failures.append(f"wfkit {' '.join(case['argv'])}\n  exit {result.exit_code} "
                            f"(was {case['rc']})\n  stderr {stderr!r}\n  was    {want!r}")
    os.chdir(tmp_path)
    assert not failures, f"{len(failures)} of {len(cases)} changed:\n" + "\n".join(failures[:6])
