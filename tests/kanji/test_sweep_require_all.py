"""``wfkit kanji --sweep`` with pools missing (their budget ran out): every missing pool gets
its reason line, named by the sweep's value, and ``--require-all`` makes the sweep exit 1
with nothing written, as it does a batch."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

# 2 attempts at a narrow kanji range: some pools of each value run out of their budget
SWEEP = ["kanji", "-n", "6", "--self-play", "--games", "1", "--seed", "1", "--kanji", "44-45",
         "--attempts", "2", "--sweep", "limit=0,20"]
REASON = re.compile(r"^wfkit: limit=(0|20): pool (\d+): no pool with 44-45 kanji in 2 attempts")


def _reasons(stderr: str) -> list[tuple[str, int]]:
    return [(m.group(1), int(m.group(2))) for m in map(REASON.match, stderr.splitlines()) if m]


def test_without_require_all_every_missing_pool_is_said(run: Any, tmp_path: Path) -> None:
    out = tmp_path / "sweep.json"
    result = run(*SWEEP, "--json", "-o", out, "-q")
    assert result.exit_code == 0, result.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["sweep"]["rows"]
    reasons = _reasons(result.stderr)
    assert sum(row["failed"] for row in rows) == len(reasons) > 0  # quiet or not
    for row in rows:
        assert sum(1 for value, _ in reasons if value == row["value"]) == row["failed"]
    assert all(line.endswith("counted as failed")
               for line in result.stderr.splitlines() if REASON.match(line))


def test_require_all_refuses_a_sweep_with_a_missing_pool(run: Any, tmp_path: Path) -> None:
    out, chart = tmp_path / "sweep.txt", tmp_path / "sweep.svg"
    whole = run(*SWEEP, "--json", "-q")
    rows = json.loads(whole.stdout)["sweep"]["rows"]
    failed = sum(row["failed"] for row in rows)
    result = run(*SWEEP, "--require-all", "-o", out, "--chart", chart)
    assert result.exit_code == 1
    assert not out.exists() and not chart.exists() and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(_reasons(result.stderr)) == failed
    assert lines[-1] == (f"wfkit: error: {failed} of {6 * len(rows)} pools missing in the "
                         f"{len(rows)} runs of the sweep, and --require-all asks for all of "
                         "them")
    stdout = run(*SWEEP, "--require-all", "--json")
    assert stdout.exit_code == 1 and stdout.stdout == ""  # nothing half-written on stdout


def test_require_all_lets_a_whole_sweep_through(run: Any) -> None:
    args = ["kanji", "-n", "3", "--self-play", "--games", "1", "--seed", "2", "--sweep",
            "limit=0,20", "--require-all", "--json"]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    rows = json.loads(result.stdout)["sweep"]["rows"]
    assert [row["failed"] for row in rows] == [0, 0] and not _reasons(result.stderr)
