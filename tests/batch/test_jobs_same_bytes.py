"""The same bytes for every ``--jobs``, for every command and pack section kind that takes it.

A run made in worker processes writes what one process writes: the records or renders, the
``--stats`` file without its timings, stderr without its timings and the exit status. The
commands (``crossword`` in its three forms, ``kanji``) run at small chunk sizes (many chunks
and runs of them, odd ends, failed boards, renders made in the workers) and at the real ones
just past a chunk boundary. ``pack build`` runs on packs of every section kind (the fake dice
kind; the engines' crossword sections dealt by answer or rendered, endless, challenge, kanji
with play figures, rarity, balance), and a pack built as shards merged in any order is the pack
built whole; ``pack check --jobs`` passes on it. Two properties draw the rest: random
vocabularies and options for the crossword command, and random packs of the real kinds.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import test_pack_engines
import test_pack_play
import yaml
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from random_vocabularies import vocabularies, write_vocabulary
from test_pack import tree, write_config
from wordforge_tables import write_table

from wordforge_cli.commands import crossword as command

TECH, ANIMALS = EXAMPLES / "tech.yaml", EXAMPLES / "animals-en.yaml"
TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch, pools: list[int]) -> list[int]:
    """Workers for any crossword run of 50 boards or more, in chunks of 8 (runs of up to 64:
    many chunks and runs, odd ends); the jobs of each run that started workers."""
    monkeypatch.setattr(command, "PARALLEL_BOARDS", 50)
    monkeypatch.setattr(command, "CHUNK_BOARDS", 8)
    return pools


def _made(run: Any, tmp_path: Path, args: list[str], jobs: int,
          to_stdout: bool = False) -> tuple[Any, ...]:
    """What a run wrote: exit status, stdout, the output file, --stats without its timing,
    stderr with its timings masked."""
    out, stats = tmp_path / f"{jobs}.out", tmp_path / f"{jobs}.json"
    out.unlink(missing_ok=True)
    stats.unlink(missing_ok=True)
    where = [] if to_stdout else ["-o", out]
    result = run(*args, "--jobs", jobs, *where, "--stats", stats)
    summary = json.loads(stats.read_text(encoding="utf-8")) if stats.exists() else None
    if summary is not None:
        summary.pop("timing", None)
    written = out.read_bytes() if out.exists() else None
    return (result.exit_code, result.stdout_bytes, written, summary,
            TIMING.sub("T", result.stderr))


# ---------------------------------------------------------------------------------- commands
@dataclass
class Command:
    args: list[Any]
    jobs: tuple[int, ...]  # compared with --jobs 1
    small: bool  # small chunks (else the real sizes)
    forked: bool = True  # the runs with more jobs started workers


COMMANDS = {
    "crossword": Command(["crossword", "--vocab", TECH, "-n", "700", "--seed", "3"], (2, 3), True),
    "crossword-styled-ipuz": Command(["crossword", "--vocab", TECH, "-n", "500", "--seed", "4",
                                      "--style", "tail", "--render", "ipuz"], (2, 3), True),
    "crossword-text-strict": Command(["crossword", "--vocab", ANIMALS, "-n", "300", "--seed", "5",
                                      "--layout", "strict", "--render", "text"], (2, 3), True),
    "crossword-failing": Command(["crossword", "--vocab", TECH, "-n", "600", "--seed", "6",
                                  "--budget", "1", "--layout", "strict", "--min-len", "5",
                                  "--max-len", "6"], (2, 3), True),
    "crossword-difficulty": Command(["crossword", "--vocab", ANIMALS, "-n", "200", "--seed", "7",
                                     "--difficulty"], (2, 3), True),
    "endless": Command(["crossword", "endless", "--vocab", TECH, "--count", "400", "--start", "5",
                        "--seed", "8"], (2, 3), True),
    "challenge": Command(["crossword", "challenge", "--vocab", TECH, "--count", "40", "--seed",
                          "9", "--budget", "2", "--render", "ipuz"], (2, 3), True),
    # the real chunk sizes (runs of 4,096 boards or more go to the workers), just past a boundary
    "crossword-4097-ipuz": Command(["crossword", "--vocab", ANIMALS, "-n", "4097", "--seed", "2",
                                    "--render", "ipuz", "--layout", "strict"], (3,), False),
    "crossword-6145-tail": Command(["crossword", "--vocab", ANIMALS, "-n", "6145", "--seed", "3",
                                    "--min-len", "4", "--max-len", "6", "--style", "tail"], (2,),
                                   False),
    "challenge-411": Command(["crossword", "challenge", "--vocab", ANIMALS, "--count", "411",
                              "--seed", "4", "--budget", "300"], (2,), False),
    "endless-4097-start": Command(["crossword", "endless", "--vocab", ANIMALS, "--count", "4097",
                                   "--start", "2047", "--seed", "5", "--render", "ipuz"], (3,),
                                  False),
    # kanji: 520 pools are three chunks; a render laid out over every pool stays in one process
    "kanji": Command(["kanji", "-n", "520", "--seed", "4", "-q"], (2,), False),
    "kanji-text": Command(["kanji", "-n", "3", "--seed", "4", "-q", "--render", "text"], (2,),
                          False, forked=False),
    "kanji-svg": Command(["kanji", "-n", "3", "--seed", "4", "-q", "--render", "svg"], (2,),
                         False, forked=False),
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_command_writes_the_same_bytes_for_every_jobs(run: Any, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       pools: list[int], name: str) -> None:
    case = COMMANDS[name]
    if case.small:
        monkeypatch.setattr(command, "PARALLEL_BOARDS", 50)
        monkeypatch.setattr(command, "CHUNK_BOARDS", 8)
    args = [str(a) for a in case.args]
    one = _made(run, tmp_path, args, 1)
    assert one[0] == 0 and one[2], one[4]
    assert not pools
    for jobs in case.jobs:
        assert _made(run, tmp_path, args, jobs) == one, jobs
    assert pools == (list(case.jobs) if case.forked else [])  # (the runs that used workers)
    if name == "crossword-failing":  # the failures are reported, in index order, every time
        assert "0 failed" not in one[4] and one[3]["stats"]["failed"] > 0


@st.composite
def crossword_options(draw: st.DrawFn) -> list[str]:
    form = draw(st.sampled_from(["batch", "batch", "endless", "challenge"]))
    args: list[str] = []
    if form == "batch":
        args += ["-n", str(draw(st.integers(50, 300)))]
        low = draw(st.integers(3, 6))
        args += ["--min-len", str(low), "--max-len", str(low + draw(st.integers(0, 3)))]
        args += ["--style", draw(st.sampled_from(["none", "tail", "head", "alt", "most"]))]
        if draw(st.booleans()):
            args.append("--no-redraw")
    elif form == "endless":
        args = ["endless", "--count", str(draw(st.integers(50, 200))),
                "--start", str(draw(st.integers(0, 70)))]
    else:
        args = ["challenge", "--count", str(draw(st.integers(5, 12)))]
    args += ["--layout", draw(st.sampled_from(["loose", "strict"]))]
    args += ["--budget", str(draw(st.sampled_from([1, 3, 40, 3000])))]
    if draw(st.booleans()):
        args += ["--max-width", str(draw(st.integers(4, 12)))]
    if draw(st.booleans()):
        args.append("--keep-small")
    if draw(st.integers(0, 3)) == 0:
        args.append("--difficulty")
    args += ["--render", draw(st.sampled_from(["json", "text", "ipuz"]))]
    args += ["--seed", str(draw(st.integers(0, 2**63 - 1)))]
    return args


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(vocabulary=vocabularies(), args=crossword_options(), to_stdout=st.booleans())
def test_a_random_vocabulary_gives_the_same_bytes_for_every_jobs(
        run: Any, tmp_path: Path, small_chunks: list[int],
        vocabulary: tuple[str, list[Any]], args: list[str], to_stdout: bool) -> None:
    """Any vocabulary (Latin or katakana, small kana, duplicates, skipped entries, hints or
    none) and options of any form, to stdout or ``-o``: whatever one process writes or
    refuses, three workers write the same. A run is made, or makes nothing within its budget
    (exit 1), or asks what the vocabulary cannot give (exit 2, an impossible request)."""
    vocab = write_vocabulary(tmp_path / "v.yaml", vocabulary)
    form, rest = (args[:1], args[1:]) if args[0] in ("endless", "challenge") else ([], args)
    argv = ["crossword", *form, "--vocab", str(vocab), *rest]
    started = len(small_chunks)
    one = _made(run, tmp_path, argv, 1, to_stdout)
    errors = [line for line in one[4].splitlines() if line.startswith("wfkit: error: ")]
    assert errors == [] if one[0] == 0 else len(errors) == 1, one[4]
    assert one[0] != 1 or "ran out of their budget" in errors[0], errors
    assert one[0] != 2 or "impossible request" in errors[0], errors
    assert _made(run, tmp_path, argv, 3, to_stdout) == one
    if one[0] == 0:  # a run that was made reached the workers with --jobs 3 only
        assert small_chunks[started:] == [3]


# ------------------------------------------------------------------------------------- packs
DEALT = """\
name: dealt
seed: 5
sections:
  - name: hard
    kind: crossword
    vocab: {tech}
    count: 1500
    band: [5, 6]
    layout: strict
    budget: 1
  - name: easy
    kind: crossword
    vocab: {animals}
    count: 1100
  - name: drawn
    kind: crossword
    vocab: {tech}
    count: 600
    render: [text]
"""

BALANCE = """\
name: play
seed: 5
sections:
  - name: duel
    kind: balance
    count: 12
    data: english.tsv
    players: [B1, C2]
    turns: 4
"""


def _balance(tmp: Path) -> Path:
    write_table(tmp)
    (tmp / "pack.yaml").write_text(BALANCE, encoding="utf-8")
    return tmp / "pack.yaml"


@dataclass
class Pack:
    config: Callable[[Path], Path]
    jobs: tuple[int, ...]  # compared with --jobs 1
    shards: int = 0  # built as so many shards (with shard_jobs) and merged in a shuffled order
    split: str = ""  # a section the shards split (so its statistics are merged from states)
    shard_jobs: int = 1
    check: bool = False  # pack check --jobs 2 passes on the merged pack
    chunk: int | None = None  # a smaller chunk, so that shards split small sections


PACKS = {
    # the fake dice kind, renders of the first items, an empty section
    "dice": Pack(write_config, (2,), shards=3, split="big", shard_jobs=2),
    # every engine's kind: crossword (rendered), endless, challenge, rarity, kanji (a preset)
    "engines": Pack(test_pack_engines.small_pack, (2,), shards=3, split="boards", shard_jobs=2,
                    check=True),
    # crossword sections without renders, dealt to the workers by answer (failed boards too)
    "dealt": Pack(lambda tmp: write_config(tmp, text=DEALT.format(tech=TECH, animals=ANIMALS)),
                  (2, 3)),
    # play figures: kanji self-play and balanced pools, crossword difficulty; states merged
    "play": Pack(test_pack_play._config, (2,), shards=3, split="pools", chunk=4),
    "balance": Pack(_balance, (2,)),
}


def _sections(out: Path) -> dict[str, dict[str, Any]]:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return {s["name"]: s for s in manifest["sections"]}


@pytest.mark.parametrize("name", list(PACKS))
def test_a_pack_is_the_same_for_every_jobs_and_any_shards(run: Any, tmp_path: Path,
                                                          name: str) -> None:
    case = PACKS[name]
    config = case.config(tmp_path)

    def wfkit(*args: object) -> None:
        result = run("pack", *args)
        assert result.exit_code == 0, result.output

    with test_pack_play._chunks(case.chunk) if case.chunk else nullcontext():
        wfkit("build", config, "--out", tmp_path / "one", "--jobs", 1)
        one = tree(tmp_path / "one")
        assert "manifest.json" in one
        for jobs in case.jobs:
            wfkit("build", config, "--out", tmp_path / f"jobs{jobs}", "--jobs", jobs)
            assert tree(tmp_path / f"jobs{jobs}") == one, jobs
        if case.shards:
            shards = [tmp_path / f"shard{i}" for i in range(1, case.shards + 1)]
            for i, shard in enumerate(shards, 1):
                wfkit("build", config, "--out", shard, "--shard", f"{i}/{case.shards}",
                      "--jobs", case.shard_jobs)
                assert _sections(shard) and json.loads(
                    (shard / "manifest.json").read_text())["shard"] == {
                        "index": i, "count": case.shards}
            # the shards really split the section, so its statistics were merged from states
            made = [_sections(shard)[case.split]["records"] for shard in shards]
            assert sum(made) == _sections(tmp_path / "one")[case.split]["records"] > max(made)
            wfkit("merge", config, *shards[1:], shards[0], "--out", tmp_path / "merged")
            assert tree(tmp_path / "merged") == one
        if case.check:
            wfkit("check", config, "--out", tmp_path / "merged", "--jobs", 2)
    if name == "dealt":
        assert _sections(tmp_path / "one")["hard"]["stats"]["failed"] > 0  # boards made no line


BOARDS = {"layout": st.sampled_from(["loose", "strict"]), "budget": st.sampled_from([2, 3000]),
          "max_width": st.integers(6, 12), "difficulty": st.just(True)}
KINDS: dict[str, Any] = {
    "crossword": st.fixed_dictionaries(
        {"vocab": st.sampled_from(["tech.yaml", "animals-en.yaml"]),
         "count": st.integers(0, 90)},
        optional={**BOARDS, "style": st.sampled_from(["none", "tail", "most"]),
                  "render": st.lists(st.sampled_from(["text", "svg", "ipuz", "sheet"]),
                                     min_size=1, max_size=2, unique=True),
                  "render_limit": st.integers(0, 4)}),
    "endless": st.fixed_dictionaries({"vocab": st.just("tech.yaml"),
                                      "count": st.integers(1, 40)}, optional=BOARDS),
    "challenge": st.fixed_dictionaries({"vocab": st.just("animals-en.yaml"),
                                        "count": st.integers(1, 3)}, optional=BOARDS),
    "kanji": st.fixed_dictionaries(
        {"count": st.integers(1, 12)},
        optional={"preset": st.sampled_from(["easy", "normal", "hard"]),
                  "hidden_examples": st.integers(0, 3),
                  "render": st.just(["text", "svg"]), "render_limit": st.integers(1, 2)}),
    "rarity": st.fixed_dictionaries(
        {"vocab": st.just("words.yaml")},
        optional={"cefr": st.just("article-cefr.yaml"), "gold_rush": st.just(True),
                  "lemma": st.booleans()}),
}  # (balance: its word index costs 3 s of CPU a build; the "balance" pack above is built)


class _Plain(yaml.SafeDumper):
    """Two sections drawn with one shared list must not come out as a YAML alias (`&id001`):
    wfkit refuses aliases in its configs on purpose, so the test would fail on its own YAML."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@st.composite
def packs(draw: st.DrawFn) -> dict[str, Any]:
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=2, max_size=4))
    sections = [{"name": f"s{i}-{kind}", "kind": kind, **draw(KINDS[kind])}
                for i, kind in enumerate(kinds)]
    return {"name": "random", "seed": draw(st.integers(0, 2**63 - 1)), "sections": sections}


@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pack=packs(), n=st.integers(2, 3))
def test_a_random_pack_is_the_same_for_every_jobs_and_any_shards(run: Any, tmp_path: Path,
                                                                 pack: dict[str, Any],
                                                                 n: int) -> None:
    root = tmp_path / "p"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    for name in ("tech.yaml", "animals-en.yaml", "words.yaml", "article-cefr.yaml"):
        shutil.copy(EXAMPLES / name, root)
    config = root / "pack.yaml"
    config.write_text(yaml.dump(pack, Dumper=_Plain, sort_keys=False), encoding="utf-8")

    def wfkit(*args: object) -> None:
        result = run("pack", *args)
        assert result.exit_code == 0, result.stderr

    wfkit("build", config, "--out", root / "one", "--jobs", "1")
    one = tree(root / "one")
    assert "manifest.json" in one
    wfkit("build", config, "--out", root / "two", "--jobs", "2")
    assert tree(root / "two") == one
    shards = [root / f"shard{i}" for i in range(1, n + 1)]
    for i, shard in enumerate(shards, 1):
        wfkit("build", config, "--out", shard, "--shard", f"{i}/{n}", "--jobs", "1")
    wfkit("merge", config, *reversed(shards), "--out", root / "merged")
    assert tree(root / "merged") == one
    wfkit("check", config, "--out", root / "merged", "--jobs", "2")
