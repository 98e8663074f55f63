"""``wfkit crossword --jobs``: chunks of a run made in worker processes give the bytes of one
process (records, renders, statistics and failure lines, every form), small runs fork nothing,
and a signal ends the run as one line, exit 128+N, no temporary file and no worker left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import EXAMPLES
from test_pack_hostile_signals import alive, children

from wordforge_cli.batch import workers
from wordforge_cli.commands import crossword as command

TECH, ANIMALS = EXAMPLES / "tech.yaml", EXAMPLES / "animals-en.yaml"
CASES = {
    "batch": ["--vocab", TECH, "-n", "700", "--seed", "3"],
    "styled-ipuz": ["--vocab", TECH, "-n", "500", "--seed", "4", "--style", "tail",
                    "--render", "ipuz"],
    "text-strict": ["--vocab", ANIMALS, "-n", "300", "--seed", "5", "--layout", "strict",
                    "--render", "text"],
    "failing": ["--vocab", TECH, "-n", "600", "--seed", "6", "--budget", "1", "--layout",
                "strict", "--min-len", "5", "--max-len", "6"],
    "difficulty": ["--vocab", ANIMALS, "-n", "200", "--seed", "7", "--difficulty"],
    "endless": ["endless", "--vocab", TECH, "--count", "400", "--start", "5", "--seed", "8"],
    "challenge": ["challenge", "--vocab", TECH, "--count", "40", "--seed", "9", "--budget",
                  "2", "--render", "ipuz"],
}


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch, pools: list[int]) -> list[int]:
    """Workers for any run of 50 boards or more, in chunks of 8 (runs of up to 64: many
    chunks and runs, odd ends); the jobs of each run that started workers."""
    monkeypatch.setattr(command, "PARALLEL_BOARDS", 50)
    monkeypatch.setattr(command, "CHUNK_BOARDS", 8)
    return pools


def _made(run, tmp_path, name: str, args: list[object], jobs: int) -> tuple[bytes, dict, str]:
    out, stats = tmp_path / f"{name}-{jobs}.out", tmp_path / f"{name}-{jobs}.json"
    result = run("crossword", *args, "--jobs", str(jobs), "-o", out, "--stats", stats)
    assert result.exit_code == 0, result.stderr
    summary = json.loads(stats.read_text())
    del summary["timing"]
    lines = [line for line in result.stderr.splitlines() if "ms" not in line]
    return out.read_bytes(), summary, "\n".join(lines)


@pytest.mark.parametrize("name", list(CASES))
def test_every_jobs_gives_the_same_bytes(run, tmp_path, small_chunks: list[int],
                                        name: str) -> None:
    one = _made(run, tmp_path, name, CASES[name], 1)
    assert one[0] and not small_chunks
    for jobs in (2, 3):
        assert _made(run, tmp_path, name, CASES[name], jobs) == one, jobs
    assert small_chunks == [2, 3]  # both ran in worker processes
    if name == "failing":  # the failures are reported, in index order, by every job count
        assert "0 failed" not in one[2] and one[1]["stats"]["failed"] > 0


def test_small_runs_and_streamed_renders_stay_in_one_process(run, tmp_path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    def no_workers(*args: object, **kwargs: object) -> None:
        raise AssertionError("worker processes were started")

    monkeypatch.setattr(workers, "ordered", no_workers)
    result = run("crossword", "--vocab", TECH, "-n", "300", "--jobs", "2", "-o",
                 tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.stderr
    monkeypatch.setattr(command, "PARALLEL_BOARDS", 1)
    for render in ("svg", "sheet"):  # one document, laid out board after board
        result = run("crossword", "--vocab", TECH, "-n", "30", "--jobs", "2", "--render",
                     render, "-o", tmp_path / f"b.{render}")
        assert result.exit_code == 0, result.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals, /proc")
@pytest.mark.parametrize(("signum", "group"), [(signal.SIGTERM, False), (signal.SIGINT, True)])
def test_a_signal_ends_a_parallel_run_cleanly(tmp_path, signum: int, group: bool) -> None:
    out = tmp_path / "boards.jsonl"
    out.write_text("the old file\n")
    proc = subprocess.Popen([sys.executable, "-m", "wordforge_cli", "crossword", "--vocab",
                             str(TECH), "-n", "5000000", "--seed", "1", "--jobs", "2", "-o",
                             str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    found: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while len(found) < 2:  # until both workers run
            assert proc.poll() is None and time.monotonic() < deadline, "no workers started"
            found |= children(proc.pid)
            time.sleep(0.02)
        time.sleep(0.5)
        (os.killpg if group else os.kill)(proc.pid, signum)
        _, stderr = proc.communicate(timeout=60)
    finally:  # a run of 5,000,000 boards the signal did not end must not outlive the test
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (proc.returncode, stderr) == (
        128 + signum, f"wfkit: interrupted by {signal.Signals(signum).name}\n")
    deadline = time.monotonic() + 5
    while any(map(alive, found)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, found)), "a worker outlived the run"
    assert os.listdir(tmp_path) == ["boards.jsonl"]  # no temporary file left beside it
    assert out.read_text() == "the old file\n"


def _tree(root) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_a_pack_section_dealt_by_answer_gives_the_bytes_of_one_process(run, tmp_path) -> None:
    """A crossword batch section without renders goes to the workers in runs of chunks,
    each worker making the boards of its own answers (failed ones too: they make no line);
    a rendered section one chunk a task: every --jobs and shard builds the same pack."""
    config = tmp_path / "pack.yaml"
    config.write_text(
        "name: dealt\nseed: 5\nsections:\n"
        f"  - name: hard\n    kind: crossword\n    vocab: {TECH}\n    count: 1500\n"
        "    band: [5, 6]\n    layout: strict\n    budget: 1\n"
        f"  - name: easy\n    kind: crossword\n    vocab: {ANIMALS}\n    count: 1100\n"
        f"  - name: drawn\n    kind: crossword\n    vocab: {TECH}\n    count: 600\n"
        "    render: [text]\n", encoding="utf-8")
    trees = {}
    for jobs in (1, 2, 3):
        out = tmp_path / f"out{jobs}"
        result = run("pack", "build", config, "--out", out, "--jobs", str(jobs))
        assert result.exit_code == 0, result.stderr
        trees[jobs] = _tree(out)
    assert trees[2] == trees[1] and trees[3] == trees[1]
    manifest = json.loads(trees[1]["manifest.json"])
    assert manifest["sections"][0]["stats"]["failed"] > 0  # some boards made no line


def test_a_decks_deal_is_its_cards() -> None:
    """``Deck.deal`` (how the parent knows each board's answer, to give it to the worker of
    that answer) is the cards one by one, across rounds and from any place."""
    from wordforge_cli.crossword.sets import Deck

    for start, stop in [(0, 100), (5, 6), (32, 34), (7, 7), (1000, 3077), (40, 2000)]:
        dealt = Deck(tuple(range(3, 36)), 5, ("crossword",)).deal(start, stop)
        one = Deck(tuple(range(3, 36)), 5, ("crossword",))
        assert dealt == [one.card(i) for i in range(start, stop)]
