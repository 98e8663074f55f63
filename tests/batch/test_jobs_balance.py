"""``--jobs`` on the self-play commands: ``wfkit balance`` (a batch, --compare, --round-robin,
--sweep, --report) and kanji self-play (--self-play, --balanced, --sweep, --report), and on
kanji's text and SVG renders, give the bytes of one process for any number of workers, and the
workers really ran (the chunks made small so that a few games fill several); a pack's balance
section gives the same manifest split into shards and merged."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES

TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chunks of 8 items (the forked workers inherit it), so a few games make several."""
    from wordforge_cli.batch import runner
    from wordforge_cli.pack import build, merge

    for module in (runner, build, merge):
        monkeypatch.setattr(module, "CHUNK", 8)
    yield


def _made(run: Any, tmp_path: Path, args: list[str], jobs: int) -> tuple[bytes, ...]:
    """Every file the command wrote (in the order named) and its stderr without timings."""
    named = [a for a in args if a.startswith("@")]
    real = [str(tmp_path / f"{jobs}-{a[1:]}") if a in named else a for a in args]
    result = run(*real, "--jobs", jobs)
    assert result.exit_code == 0, result.stderr
    files = [Path(str(tmp_path / f"{jobs}-{a[1:]}")).read_bytes() for a in named]
    # a statistics file without its timing (the run's own seconds)
    files = [json.dumps({**json.loads(f), "timing": None}).encode() if a.endswith(".json")
             else f for a, f in zip(named, files, strict=True)]
    return (result.stdout_bytes, *files, TIMING.sub("T", result.stderr).encode())


RUNS = {
    "balance": ["balance", "-n", "40", "--turns", "4", "--seed", "3", "--player", "B2",
                "--player", "C1", "--report", "@page.html"],
    "balance-json": ["balance", "-n", "30", "--turns", "3", "--seed", "4", "--json"],
    "balance-compare": ["balance", "-n", "30", "--turns", "3", "--seed", "5", "--compare",
                        str(EXAMPLES / "rarity-no-short-cap.yaml"), "--json"],
    "balance-round-robin": ["balance", "-n", "20", "--turns", "3", "--seed", "6",
                            "--round-robin", "--player", "B1", "--player", "C2",
                            "--report", "@page.html"],
    "balance-sweep": ["balance", "-n", "20", "--turns", "3", "--seed", "7", "--sweep",
                      "use_at=10,60", "--json", "--chart", "@chart.svg",
                      "--report", "@page.html"],
    "kanji-self-play": ["kanji", "-n", "20", "--games", "2", "--self-play", "--seed", "1",
                        "--stats", "@stats.json", "--report", "@page.html"],
    "kanji-balanced": ["kanji", "-n", "17", "--preset", "normal", "--balanced", "--seed", "2",
                       "--fresh-games", "2", "-o", "@pools.jsonl"],
    "kanji-sweep": ["kanji", "-n", "17", "--games", "2", "--self-play", "--seed", "3",
                    "--sweep", "limit=0,20", "--json", "--chart", "@chart.svg"],
    # the renders laid out over every pool: the pools made by the workers, drawn here
    "kanji-text": ["kanji", "-n", "19", "--seed", "4", "--render", "text", "--reveal",
                   "--stats", "@stats.json"],
    "kanji-svg": ["kanji", "-n", "18", "--seed", "5", "--render", "svg", "-o", "@pools.svg"],
    "kanji-text-self-play": ["kanji", "-n", "17", "--games", "2", "--self-play", "--seed", "6",
                             "--render", "text", "-o", "@pools.txt"],
}


@pytest.mark.parametrize("name", list(RUNS))
@pytest.mark.parametrize("jobs", [2, 3])
def test_the_workers_give_the_bytes_of_one_process(run: Any, tmp_path: Path, pools: list[int],
                                                   small_chunks: None, name: str,
                                                   jobs: int) -> None:
    args = RUNS[name]
    one = _made(run, tmp_path, args, 1)
    assert not pools
    made = _made(run, tmp_path, args, jobs)
    assert made == one
    assert pools and set(pools) == {jobs}  # every batch of the run went to the workers


def test_a_balance_section_split_into_shards_merges_to_one_build(run: Any, tmp_path: Path,
                                                                 small_chunks: None) -> None:
    from wordforge_tables import write_table

    write_table(tmp_path)
    config = tmp_path / "pack.yaml"
    config.write_text("name: play\nseed: 5\nsections:\n  - name: duel\n    kind: balance\n"
                      "    count: 30\n    data: english.tsv\n    players: [B1, C2]\n"
                      "    turns: 3\n", encoding="utf-8")
    whole = tmp_path / "whole"
    assert run("pack", "build", config, "--out", whole, "-j", "2").exit_code == 0
    shards = [tmp_path / f"s{i}" for i in (1, 2, 3)]
    for i, shard in enumerate(shards, 1):
        result = run("pack", "build", config, "--out", shard, "--shard", f"{i}/3", "-j", "1")
        assert result.exit_code == 0, result.stderr
    made = [json.loads((s / "manifest.json").read_text())["sections"][0]["records"]
            for s in shards]
    assert sum(made) == 30 and max(made) < 30  # the shards really split the games
    merged = tmp_path / "merged"
    result = run("pack", "merge", config, *shards, "--out", merged)
    assert result.exit_code == 0, result.stderr
    for name in ("manifest.json", "duel.jsonl"):
        assert (merged / name).read_bytes() == (whole / name).read_bytes()
