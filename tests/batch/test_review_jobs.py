"""Review of today's worker pool (os.fork, a pipe pair per worker, one line a board): at the
real chunk sizes (runs of 4,096 boards or more go to the workers in chunks of 2,048 boards, a
challenge set counting 10, the last chunks smaller), ``--jobs 2`` and ``--jobs 3`` give the
bytes of ``--jobs 1`` just past the boundaries: records or ipuz with hints, ``--stats`` without
timings, stderr without timings. (tests/test_crossword_jobs.py covers the forms with small
monkeypatched chunks; these are the sizes the fuzzer compared with 29909f7.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

ANIMALS = EXAMPLES / "animals-en.yaml"  # hints on most words: ipuz clues
TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")


def _made(run: Any, tmp_path: Path, args: list[str], jobs: int) -> tuple[Any, ...]:
    out, stats = tmp_path / f"{jobs}.out", tmp_path / f"{jobs}.json"
    result = run("crossword", *args, "--jobs", jobs, "-o", out, "--stats", stats)
    assert result.exit_code == 0, result.stderr
    summary = json.loads(stats.read_text(encoding="utf-8"))
    summary.pop("timing", None)
    return out.read_bytes(), summary, TIMING.sub("T", result.stderr)


@pytest.mark.parametrize(("args", "jobs"), [
    (["--vocab", ANIMALS, "-n", "4097", "--seed", "2", "--render", "ipuz", "--layout",
      "strict"], 3),
    (["--vocab", ANIMALS, "-n", "6145", "--seed", "3", "--min-len", "4", "--max-len", "6",
      "--style", "tail"], 2),
    (["challenge", "--vocab", ANIMALS, "--count", "411", "--seed", "4", "--budget", "300"], 2),
    (["endless", "--vocab", ANIMALS, "--count", "4097", "--start", "2047", "--seed", "5",
      "--render", "ipuz"], 3),
], ids=["batch-4097-ipuz", "batch-6145-tail", "challenge-411", "endless-4097-start"])
def test_the_workers_at_real_chunk_sizes_give_the_bytes_of_one_process(
        run: Any, tmp_path: Path, pools: list[int], args: list[str], jobs: int) -> None:
    args = [str(a) for a in args]
    one = _made(run, tmp_path, args, 1)
    assert not pools
    assert _made(run, tmp_path, args, jobs) == one
    assert pools == [jobs]  # the second run went to the workers
