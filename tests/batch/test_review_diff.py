"""Review of the crossword speed work since 9ee616c (generation tables, chunked workers that
send bytes back, the one-pass ipuz render, statistics): the differential fuzzer that compared
it with 9ee616c (byte for byte over random vocabularies and options) cannot run in CI, so
these pin what it checked as properties of one build.

- ``--jobs 1`` and ``--jobs 3`` give the same bytes (stdout or ``-o``, ``--stats`` without
  its timings, exit status, stderr without timings) on random vocabularies: Latin and
  katakana, small kana, duplicates, entries that are skipped, hints or none, every render and
  form, with the workers reached by small chunks (the ``small_chunks`` fixture's 64).
- Output that goes to stdout through the workers (written as bytes) behaves as the
  one-process path: a closed stdout is the documented line.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_jobs_same_bytes import small_chunks  # noqa: F401  (the fixture)

LATIN = "aeinorstlc"
KATAKANA = "アイウカキクコサシスタチツトナニノハマミムラリルレロンー"
SMALL = "ャュョッァ"
ODD = ["a", "ア", "12", "hello world", "x-y", "漢字", "ッア", "ーアイ"]
HINTS = ["", "it's <b>&amp;</b> \"quoted\"", "日本語のヒント", "50% {brace}"]


def _words(name: str) -> list[str]:
    entries = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))["words"]
    return [e["word"] if isinstance(e, dict) else e for e in entries]


REAL = {"ja": _words("tech.yaml"), "en": _words("animals-en.yaml")}


@st.composite
def vocabularies(draw: st.DrawFn) -> tuple[str, list[Any]]:
    katakana = draw(st.booleans())
    letters = st.sampled_from(KATAKANA if katakana else LATIN)
    word = st.lists(letters, min_size=2, max_size=8).map("".join)
    if katakana:  # a small kana inside a word (キャッシュ), folded or kept by the options
        word = st.tuples(word, st.sampled_from(["", *SMALL]), st.integers(1, 8)).map(
            lambda t: t[0][:t[2]] + t[1] + t[0][t[2]:])
    real = REAL["ja" if katakana else "en"]  # real words cross often: most runs are made
    words = draw(st.lists(st.sampled_from(real), min_size=8, max_size=40, unique=True))
    words += draw(st.lists(word, max_size=40))
    words = draw(st.permutations(words))
    words += draw(st.lists(st.sampled_from(words), max_size=5))  # duplicates
    words += draw(st.lists(st.sampled_from(ODD), max_size=2))  # skipped with a warning
    hints = draw(st.booleans())
    entries: list[Any] = [{"word": w, "hint": draw(st.sampled_from(HINTS))}
                          if hints and draw(st.booleans()) else w for w in words]
    return ("ja" if katakana else "en"), entries


@st.composite
def options(draw: st.DrawFn) -> list[str]:
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


TIMING = re.compile(r"[\d.]+ ms/board, [\d.]+ boards/s")


def _made(run: Any, tmp_path: Path, vocab: Path, args: list[str], jobs: int,
          to_stdout: bool) -> tuple[Any, ...]:
    form, rest = (args[:1], args[1:]) if args[0] in ("endless", "challenge") else ([], args)
    out, stats = tmp_path / f"{jobs}.out", tmp_path / f"{jobs}.json"
    out.unlink(missing_ok=True)
    stats.unlink(missing_ok=True)
    where = [] if to_stdout else ["-o", str(out)]
    result = run("crossword", *form, "--vocab", vocab, *rest, "--jobs", str(jobs), *where,
                 "--stats", stats)
    summary = json.loads(stats.read_text()) if stats.exists() else None
    if summary is not None:
        summary.pop("timing", None)
    written = out.read_bytes() if out.exists() else None
    return (result.exit_code, result.stdout_bytes, written, summary,
            TIMING.sub("", result.stderr))


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(vocabulary=vocabularies(), args=options(), to_stdout=st.booleans())
def test_jobs_one_and_three_agree_on_random_vocabularies(
        run: Any, tmp_path: Path, small_chunks: list[int],  # noqa: F811
        vocabulary: tuple[str, list[Any]], args: list[str], to_stdout: bool) -> None:
    language, entries = vocabulary
    vocab = tmp_path / "v.yaml"
    vocab.write_text(json.dumps({"name": "fuzz", "language": language, "words": entries},
                                ensure_ascii=False), encoding="utf-8")
    started = len(small_chunks)
    one = _made(run, tmp_path, vocab, args, 1, to_stdout)
    three = _made(run, tmp_path, vocab, args, 3, to_stdout)
    assert three == one
    if one[0] == 0:  # a run that was made reached the workers with --jobs 3 only
        assert small_chunks[started:] == [3]


@pytest.mark.skipif(sys.platform != "linux", reason="closing a descriptor for a child")
@pytest.mark.parametrize("form", [["-n", "4096"], ["endless", "--count", "4096"]])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_stdout_is_one_line_with_or_without_workers(form: list[str],
                                                              jobs: str) -> None:
    """9943606 made the workers' chunks bytes written to ``sys.stdout.buffer``, which the
    closed-stdout stand-in lacked: an ``internal error: AttributeError`` with ``--jobs 2``."""
    sub, rest = (form[:1], form[1:]) if form[0] == "endless" else ([], form)
    proc = subprocess.run([sys.executable, "-m", "wordforge_cli", "crossword", *sub,
                           "--vocab", str(EXAMPLES / "tech.yaml"), *rest, "--seed", "1",
                           "--jobs", jobs], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=300, preexec_fn=_close_stdout)
    assert (proc.returncode, proc.stderr) == (
        1, "wfkit: error: cannot write to stdout: stdout is closed\n")


def _close_stdout() -> None:
    import os

    os.close(1)


@st.composite
def batches(draw: st.DrawFn) -> list[str]:
    low = draw(st.integers(3, 6))
    args = ["-n", str(draw(st.integers(20, 120))), "--min-len", str(low),
            "--max-len", str(low + draw(st.integers(0, 3))),
            "--style", draw(st.sampled_from(["none", "tail", "head", "alt", "most"])),
            "--layout", draw(st.sampled_from(["loose", "strict"])),
            "--seed", str(draw(st.integers(0, 2**63 - 1)))]
    if draw(st.booleans()):
        args += ["--max-width", str(draw(st.integers(5, 12)))]
    if draw(st.booleans()):
        args.append("--keep-small")
    return args


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(vocabulary=vocabularies(), args=batches())
def test_every_ipuz_of_a_random_vocabulary_agrees_with_its_board(
        run: Any, tmp_path: Path, vocabulary: tuple[str, list[Any]], args: list[str]) -> None:
    """The one-pass ipuz render (runs, numbers, joined runs' clues, a layout's text once)
    checked by ``check.check_ipuz``, written apart from it, and read by the ``ipuz``
    package, on vocabularies other than the two examples the byte oracle runs: every puzzle
    against the record of the same board (same seed and options, ``--render json``)."""
    import ipuz

    from wordforge_cli.crossword.check import check_ipuz

    language, entries = vocabulary
    vocab = tmp_path / "v.yaml"
    vocab.write_text(json.dumps({"name": "fuzz", "language": language, "words": entries},
                                ensure_ascii=False), encoding="utf-8")
    records = run("crossword", "--vocab", vocab, *args)
    puzzles = run("crossword", "--vocab", vocab, *args, "--render", "ipuz")
    assert records.exit_code == puzzles.exit_code
    recs = [json.loads(line) for line in records.stdout.splitlines()]
    docs = puzzles.stdout.splitlines()
    assert len(docs) == len(recs)
    for rec, text in zip(recs, docs, strict=True):
        doc = json.loads(text)
        ipuz.read(text)  # raises on anything the ipuz package rejects
        assert check_ipuz(doc, rec) == [], (rec["id"], rec["seed"])
