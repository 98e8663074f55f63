"""A vocabulary's hint is at most ``io.vocab.MAX_HINT`` characters: a longer one is refused at
intake, one line naming its file:line, exit 2; one of exactly that length is read, and the
records it reaches are ones the pack preview draws (it refuses any text longer)."""

from __future__ import annotations

import json

import pytest

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.io.vocab import MAX_HINT, read_vocab
from wordforge_cli.pack.preview import MAX_FIELD, oversized

WORDS = ["cat", "car", "tar", "rat", "arc", "act", "tac", "art"]


def write(tmp_path, hint_length: int):
    lines = ["name: h", "language: en", "words:"]
    for word in WORDS:
        if word == "car":
            lines.append(f'  - {{word: {word}, hint: "{"x" * hint_length}"}}')
        else:
            lines.append(f"  - {{word: {word}, hint: short}}")
    path = tmp_path / "h.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_cap_is_what_the_preview_draws():
    assert MAX_HINT == MAX_FIELD


def test_a_hint_over_the_cap_is_refused_with_its_line(tmp_path, run):
    path = write(tmp_path, MAX_HINT + 1)
    with pytest.raises(ConfigError) as refused:
        read_vocab(path)
    assert refused.value.line == 5
    assert f"hint of {MAX_HINT + 1:,} characters; at most {MAX_HINT:,}" in str(refused.value)
    result = run("crossword", "--vocab", path, "--min-len", "3", "--max-len", "3")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "h.yaml:5:" in result.stderr
    assert len(result.stderr) < 200


def test_a_hint_at_the_cap_reaches_records_the_preview_draws(tmp_path, run):
    path = write(tmp_path, MAX_HINT)
    assert {e.hint for e in read_vocab(path).entries} == {"x" * MAX_HINT, "short"}
    result = run("crossword", "--vocab", path, "--min-len", "3", "--max-len", "3", "-n", "40",
                 "--seed", "2", "--json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert any(w.get("hint") == "x" * MAX_HINT for r in records for w in r["words"])
    assert all(oversized(r) is None for r in records)
