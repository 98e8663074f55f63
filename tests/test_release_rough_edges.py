"""The rough edges a new user hit (issue 13): one line where one thing happened, excerpts that
show the difference, the same statistics conventions in every engine."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES
from wordforge_cli.pack.files import SHOW, excerpts


def test_check_excerpts_are_centred_on_the_first_difference():
    record = {"id": 7, "cells": [{"x": i, "y": i, "c": "ア", "n": -2} for i in range(40)],
              "style": "tail", "attempts": 1}
    expected = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    record["cells"][25]["n"] = -1
    actual = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    want, got, column = excerpts(expected, actual)
    text = expected.decode()
    assert column - 1 == next(i for i, (a, b) in enumerate(zip(text, actual.decode(),
                                                                strict=False)) if a != b)
    assert column > 2 * SHOW  # far past what a head-of-line excerpt shows
    assert want != got and want.startswith("...") and want.endswith("...")
    assert '"n": -2' in want and '"n": -1' in got
    assert len(want) <= SHOW + 10
    # short lines and a file that ends early
    assert excerpts(b'{"a":1}\n', b'{"a":2}\n') == ("'{\"a\":1}'", "'{\"a\":2}'", 6)
    assert excerpts(b'{"a":1}\n', b"")[1] == "(end of file)"


def test_pack_check_of_a_missing_directory_is_one_line(run, tmp_path):
    result = run("pack", "check", EXAMPLES / "pack.yaml", "--out", tmp_path / "nowhere")
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "nowhere: no pack there (no such directory)" in lines[0]
    assert "wfkit pack build" in lines[0]


def test_one_pool_reports_one_line(run, tmp_path):
    result = run("kanji", "-n", "1", "--seed", "1", "-o", tmp_path / "p.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit kanji: 1 pool in ")
    record = json.loads((tmp_path / "p.jsonl").read_text(encoding="utf-8"))
    assert f"{record['kanji_count']} kanji, {record['chars']} characters" in lines[0]
    two = run("kanji", "-n", "2", "--seed", "1", "-o", tmp_path / "p.jsonl")
    assert len(two.stderr.splitlines()) > 5  # a batch keeps its distribution table


def test_one_board_reports_one_line(run, tmp_path):
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1",
                 "--style", "tail", "-o", tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: crossword: 1 board made in ")
    batch = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "3", "--seed", "1",
                "-o", tmp_path / "b.jsonl")
    assert len(batch.stderr.splitlines()) >= 2
