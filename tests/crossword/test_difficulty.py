"""Crossword difficulty: the deducing solver on hand-worked boards, and on real batches."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from conftest import EXAMPLES, schema_registry

from wordforge_cli.crossword.difficulty import GUESS_WEIGHT, measure, measure_record, rises
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.io.vocab import read_vocab


def _vocab(words):
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "v.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return read_vocab(path)


def _cells(words, shown):
    """Cells of ``words`` (word, x, y, dir); letters at ``shown`` positions are given."""
    cells = {}
    for word, x, y, d in words:
        dx, dy = (1, 0) if d == "across" else (0, 1)
        for k, ch in enumerate(word):
            cells[(x + dx * k, y + dy * k)] = ch
    return [(x, y, ch, -2 if (x, y) in shown else -1) for (x, y), ch in sorted(cells.items())]


def test_one_round_when_every_word_is_the_only_fit():
    lex = prepare(_vocab(["cat", "cow", "dog"]))
    words = [("cat", 0, 0, "across"), ("cow", 0, 0, "down")]
    d = measure(lex, words, _cells(words, {(0, 0), (1, 0)}))
    # ca? -> cat only; c?? down -> cat, cow (cat used? not yet) then cow once cat is in
    assert d.guesses == 0 and d.rounds == 2 and d.given == 2 and d.hidden == 3
    assert d.score == 2


def test_a_board_with_nothing_to_go_on_needs_guesses():
    lex = prepare(_vocab(["cat", "cot", "cut", "tab", "tub"]))
    words = [("cat", 0, 0, "across"), ("tab", 2, 0, "down")]
    d = measure(lex, words, _cells(words, set()))
    assert d.guesses >= 1 and d.score == d.rounds + GUESS_WEIGHT * d.guesses
    shown_all = measure(lex, words, _cells(words, {(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)}))
    assert shown_all.guesses == 0 and shown_all.hidden == 0


def test_agreeing_letters_are_written_in():
    # c??: cat and cot both end in t, ??b: tab and tub both start with t, so round 1 writes
    # the shared t; then c?t and t?b stay two-way and the crossing tells nothing: two guesses
    lex = prepare(_vocab(["cat", "cot", "tab", "tub", "bat"]))
    words = [("cat", 0, 0, "across"), ("tab", 2, 0, "down")]
    d = measure(lex, words, _cells(words, {(0, 0), (2, 2)}))
    assert d.rounds == 1 and d.guesses == 2


def test_hiding_letters_never_makes_a_board_easier():
    lex = prepare(read_vocab(EXAMPLES / "tech.yaml"))
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    out = CliRunner().invoke(cli, ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "-n",
                                   "40", "--seed", "4", "--json"])
    assert out.exit_code == 0, out.stderr
    for line in out.stdout.splitlines():
        rec = json.loads(line)
        full = measure_record(lex, rec)
        hidden_more = dict(rec, cells=[dict(c, n=-1 if c["n"] == -2 and i % 2 else c["n"])
                                       for i, c in enumerate(rec["cells"])])
        assert measure_record(lex, hidden_more).score >= full.score - 1
        assert full.given == sum(1 for c in rec["cells"] if c["n"] == -2)


def test_rises():
    assert rises([1, 1, 2, 2, 3, 3])
    assert not rises([3, 2, 1])
    assert rises([1.1, 1.0, 1.4, 2.2, 2.2, 1.9, 3.5, 3.0, 3.5, 2.5])


@pytest.mark.parametrize("vocab", ["tech.yaml", "animals-en.yaml"])
def test_the_bundled_challenge_ramp_gets_harder(run, vocab):
    out = run("crossword", "challenge", "--vocab", EXAMPLES / vocab, "--count", "12",
              "--seed", "1", "--json")
    assert out.exit_code == 0, out.stderr
    lex = prepare(read_vocab(EXAMPLES / vocab))
    steps = defaultdict(list)
    for line in out.stdout.splitlines():
        rec = json.loads(line)
        steps[rec["id"] % 10].append(measure_record(lex, rec).score)
    means = [sum(v) / len(v) for _, v in sorted(steps.items())]
    assert rises(means), means


def test_difficulty_in_records_stats_and_challenge_order(run, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    from wordforge_cli import schemas

    stats = tmp_path / "s.json"
    args = ("crossword", "challenge", "--vocab", EXAMPLES / "tech.yaml", "--count", "3",
            "--seed", "2", "--json", "--difficulty")
    out = run(*args, "--stats", stats)
    assert out.exit_code == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    lex = prepare(read_vocab(EXAMPLES / "tech.yaml"))
    for rec in records:  # (then the familiarity-aware figures: tests/crossword)
        plain = measure_record(lex, rec).record()
        assert {k: rec["difficulty"][k] for k in plain} == plain
    summary = json.loads(stats.read_text())
    assert len(summary["stats"]["difficulty"]["per_step"]) == 10
    for name, docs in (("crossword-board", records), ("crossword-stats", [summary])):
        check = jsonschema.Draft202012Validator(schemas.load(name),
                                                registry=schema_registry())
        for doc in docs:
            assert not list(check.iter_errors(doc)), name
    ordered = [json.loads(line) for line in run(*args, "--order-by-difficulty").stdout.splitlines()]
    for s in range(3):
        scores = [r["difficulty"]["score"] for r in ordered[s * 10:(s + 1) * 10]]
        assert scores == sorted(scores)
        assert sorted(r["answer"] for r in ordered[s * 10:(s + 1) * 10]) == sorted(
            r["answer"] for r in records[s * 10:(s + 1) * 10])
    plain = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "5", "--seed", "2",
                "--json")
    assert "difficulty" not in plain.stdout
