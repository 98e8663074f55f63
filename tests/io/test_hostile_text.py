"""Text a crafted file brings into an output or a message: markup in ipuz text fields (the
ipuz spec makes them HTML), control characters (newline, ESC, BEL, U+2028) and the
bidirectional override U+202E in labels, hints, names and glosses, and file names in
messages. Markup is escaped where the format is HTML; a control character is refused where it
is read (one line naming file and line) or shown escaped in a message, never raw.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import CONFIGS, EXAMPLES

WORDS = [line.strip()[2:] for line in (EXAMPLES / "tech.yaml").read_text().splitlines()
         if line.startswith("  - ")]
MARKUP = '<img src=x onerror=alert(1)>'
HINT = '<b onmouseover="alert(2)">R&D</b>'


def vocab(tmp_path, *, name="tech", hint=HINT, extra=""):
    path = tmp_path / "v.yaml"
    body = "".join(f"  - {{word: {w}, hint: {json.dumps(hint)}}}\n" for w in WORDS)
    path.write_text(f"name: {json.dumps(name)}\n{extra}words:\n{body}", encoding="utf-8")
    return path


def assert_html_text(value: str) -> None:
    assert "<" not in value and ">" not in value, value
    assert "&" not in value.replace("&amp;", "").replace("&lt;", "").replace("&gt;", ""), value


@pytest.mark.parametrize("command", [["crossword"], ["crossword", "endless"]])
def test_ipuz_title_and_clues_are_html_escaped(tmp_path, run, command):
    path = vocab(tmp_path, name=MARKUP)
    args = [*command, "--vocab", path, "--render", "ipuz", "--count", "3", "--seed", "4"]
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(docs) == 3
    for doc in docs:
        assert doc["title"].startswith("&lt;img src=x onerror=alert(1)&gt; #")
        clues = [c for d in ("Across", "Down") for _n, c in doc["clues"][d]]
        assert clues and any("R&amp;D" in c for c in clues)
        for clue in clues:
            assert_html_text(clue)


def test_ipuz_of_an_ordinary_vocabulary_is_unchanged(run):
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "--render", "ipuz", "-n", "2",
                 "--seed", "4")
    assert result.exit_code == 0
    assert [json.loads(line)["title"] for line in result.stdout.splitlines()] == [
        "tech #0", "tech #1"]


@pytest.mark.parametrize("char", ["\n", "\x1b", "\u2028", "\u202e", "\x07"])
def test_a_style_label_with_a_control_character_is_refused(tmp_path, run, char):
    text = (CONFIGS / "crossword.yaml").read_text(encoding="utf-8")
    config = tmp_path / "cw.yaml"
    escaped = json.dumps(f"語尾{char}かくし")
    config.write_text(text.replace("  tail: 語尾かくし", f"  tail: {escaped}"), encoding="utf-8")
    for render in ("text", "svg"):
        result = run("crossword", "--config", config, "--vocab", EXAMPLES / "tech.yaml",
                     "--render", render, "--style", "tail", "-n", "1", "--seed", "1")
        assert result.exit_code == 2, result.stderr
        assert result.stderr.count("\n") == 1 and "labels/ja/tail has a control character" \
            in result.stderr
        assert char not in result.stdout + result.stderr[:-1]


@pytest.mark.parametrize("char", ["\u202e", "\x1b", "\u2066"])
@pytest.mark.parametrize("where", ["hint", "name"])
def test_a_hint_or_name_with_a_control_or_bidi_character_is_refused(tmp_path, run, char,
                                                                     where):
    path = vocab(tmp_path, hint=f"a{char}b") if where == "hint" \
        else vocab(tmp_path, name=f"t{char}x", hint="fine")
    result = run("crossword", "--vocab", path, "--render", "text", "-n", "1", "--seed", "1")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "control character" in result.stderr
    assert f"{path}:" in result.stderr and char not in result.stderr + result.stdout


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\u202e"])
def test_a_word_table_gloss_with_a_control_character_is_refused(tmp_path, run, char):
    from wordforge_tables import write_table

    table = write_table(tmp_path)
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].rstrip("\n") + f"x{char}[31m\n"
    table.write_text("".join(lines), encoding="utf-8")
    for fmt in ("table", "csv", "md"):
        result = run("rarity", "cat", "--data", table, "--format", fmt)
        assert result.exit_code == 2, (fmt, result.stderr)
        assert f"{table}:2:" in result.stderr and "control character" in result.stderr
        assert char not in result.stdout + result.stderr


def test_pack_check_shows_stranger_names_and_the_rebuild_line_escaped(tmp_path, run):
    import test_pack_fake  # noqa: F401  (registers the dice kind)
    from test_pack import write_config

    config = write_config(tmp_path, count=30, name="p\x1b[31m.yaml")
    out = tmp_path / "pack"
    assert run("pack", "build", config, "--out", out).exit_code == 0
    (out / "x\x1b]0;owned\x07.txt").write_text("mine")
    (out / "new\nline.txt").write_text("mine")
    write_config(tmp_path, seed=2, count=30, name="p\x1b[31m.yaml")
    result = run("pack", "check", config, "--out", out)
    assert result.exit_code == 1
    assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout
    unexpected = [line for line in result.stdout.splitlines()
                  if line.startswith("unexpected") and "line" in line or "owned" in line]
    assert sorted(unexpected) == sorted([f"unexpected: {out}/new\\nline.txt",
                                         f"unexpected: {out}/x\\x1b]0;owned\\x07.txt"])
    assert result.stderr.count("\n") == 1 and "rebuild with: wfkit pack build '" \
        in result.stderr


def test_kanji_dict_entries_with_controls_never_print_raw(tmp_path, run):
    words = (EXAMPLES / "kanji-weather.txt").read_text(encoding="utf-8")
    path = tmp_path / "dict.txt"
    path.write_text(words + "ひらがな\n", encoding="utf-8")  # skipped, with a warning
    result = run("kanji", "--dict", path, "--base", "3", "--bring", "10", "-n", "1",
                 "--seed", "7")
    assert result.exit_code == 0 and "'ひらがな' skipped" in result.stderr, result.stderr
    path.write_text(words + "悪\x1b[2J意\n", encoding="utf-8")
    result = run("kanji", "--dict", path, "--base", "3", "--bring", "10", "-n", "1",
                 "--seed", "7")
    assert result.exit_code == 2 and "\x1b" not in result.stderr, result.stderr
    assert "control character (U+001B)" in result.stderr


def test_messages_escape_bidi_overrides(tmp_path, run):
    name = tmp_path / "a\u202eb.yaml"
    result = run("crossword", "--vocab", name)
    assert result.exit_code == 2 and "\u202e" not in result.stderr and "\\u202e" in result.stderr
    assert os.path.basename(str(name)) not in result.stderr
