"""Files read a line at a time (a word list, a kanji dictionary, a CEFR csv, a pools file)
are split at line feeds only, as an editor numbers them: a U+2028, U+0085 or form feed inside
a line is that line's (refused there as a control character), never a break that cuts a
word in two and numbers every later line wrong.
"""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES

from wordforge_cli.io.yamlio import text_lines


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\r"])
def test_a_line_is_cut_at_line_feeds_only(sep):
    assert text_lines(f"a{sep}b\nc\r\nd\n") == [f"a{sep}b", "c", "d"]
    assert text_lines("") == [] and text_lines("a") == ["a"] and text_lines("\n") == [""]


@pytest.mark.parametrize("sep", ["\u2028", "\x85", "\x0c"])
def test_a_word_list_refuses_the_line_that_holds_one(run, tmp_path, sep):
    path = tmp_path / "words.txt"
    path.write_text(f"cat\nd{sep}og\nfish\n", encoding="utf-8")
    result = run("rarity", "--vocab", path)
    assert result.exit_code == 2 and f"{path}:2: word has a control character" \
        in result.stderr, result.stderr


@pytest.mark.parametrize("sep", ["\u2028", "\x85"])
def test_a_kanji_dictionary_and_a_pools_file_number_lines_as_an_editor(run, tmp_path, sep):
    words = (EXAMPLES / "kanji-weather.txt").read_text(encoding="utf-8")
    count = words.count("\n")
    path = tmp_path / "dict.txt"
    path.write_text(f"天気{sep}雨\n" + words + "ひらがな\n", encoding="utf-8")
    result = run("kanji", "--dict", path, "--base", "3", "--bring", "10", "-n", "1",
                 "--seed", "7")
    assert result.exit_code == 2 and f"{path}:1:" in result.stderr, result.stderr
    pools = tmp_path / "pools.jsonl"
    record = json.loads((EXAMPLES / "weather-pool.jsonl").read_text().splitlines()[0])
    pools.write_text(json.dumps(record, ensure_ascii=False) + "\n"
                     + json.dumps({**record, "id": 1, "note": f"a{sep}b"}, ensure_ascii=False)
                     + "\n{broken\n", encoding="utf-8")
    result = run("kanji", "check", "熱帯", "--pool", pools, "--id", "0")
    assert f"{pools}:3:" in result.stderr, (count, result.stderr)
