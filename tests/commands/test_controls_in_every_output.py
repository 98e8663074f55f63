"""A control character that reaches any output by any road is shown escaped there.

Where text is read, a hint, a vocabulary's name, a word, a style label or a word table's gloss
holding a control character is refused (tests/test_hostile_text.py). Here those refusals are
switched off, so the characters go on into the engines, and every output is checked: stdout,
stderr, ``-o``, ``--stats``, every file of a pack, its preview page, its exports (JSON, CSV,
SQLite) and ``pack check``'s lines. The roads no refusal closes are planted as they are: a
pack's name and description, the file names a pack and its name come from, ``--out``.

Planted: C0 and C1 controls, DEL, ESC sequences, BEL, U+2028/2029, the bidirectional
controls (U+202E among them) and, where a file name carries them, lone surrogates (bytes of
a name that are not UTF-8). Every output must be valid UTF-8 holding none of them raw (a line
break only where a document has its lines).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CONFIGS, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wordforge_tables import write_table

from wordforge_cli.cli import cli
from wordforge_cli.core.text import CONTROLS, RANGES
from wordforge_cli.io import vocab as vocab_module
from wordforge_cli.wordforge import english

RAW = re.compile(f"[{CONTROLS}]")
NAMED = ["\x1b", "\x1b[31m", "\x1b]0;owned\x07", "\x07", "\x9b2J", "\u202e", "\u2028",
         "\u2029", "\u2066", "\x7f", "\x85", "\r", "\t", "\x00"]
MEMBERS = [chr(c) for first, last in RANGES for c in range(first, last + 1)
           if not 0xD800 <= c <= 0xDFFF]
planted = st.one_of(st.sampled_from(NAMED), st.sampled_from(MEMBERS))
SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
WORDS = [line.strip()[2:] for line in (EXAMPLES / "tech.yaml").read_text().splitlines()
         if line.startswith("  - ")]


def raw_in(data: bytes | str, where: str) -> None:
    """``data`` is UTF-8 (undecodable bytes would be a raw lone surrogate) with no control
    character of the set but its line breaks."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    found = sorted({m.group() for m in RAW.finditer(text.replace("\n", ""))})
    assert not found, (where, found, text[:300])


def outputs(result, *files: Path) -> None:
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, \
        result.stderr
    raw_in(result.stdout_bytes, "stdout")
    raw_in(result.stderr_bytes, "stderr")
    assert all(line.startswith("wfkit: ") or line.startswith("  ")
               for line in result.stderr.splitlines()), result.stderr  # one line a message
    for path in files:
        for file in ([p for p in sorted(path.rglob("*")) if p.is_file()] if path.is_dir()
                     else [path] if path.exists() else []):
            if file.suffix == ".sqlite":
                database(file)
            else:
                raw_in(file.read_bytes(), str(file))


def database(path: Path) -> None:
    db = sqlite3.connect(path)
    try:
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
            for row in db.execute(f'SELECT * FROM "{table}"'):
                for value in row:
                    if isinstance(value, str):
                        raw_in(value, f"{path}:{table}")
    finally:
        db.close()


def invoke(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@contextlib.contextmanager
def unchecked() -> Iterator[None]:
    """The refusals where text is read switched off: a control character goes on inward."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vocab_module, "control_problem", lambda *args, **kwargs: None)
        patch.setattr(english, "_TABLE_CONTROL", re.compile("(?!)"))
        yield


@contextlib.contextmanager
def workdir() -> Iterator[Path]:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ctl") as tmp:
        yield Path(tmp)


def quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text)


def crossword_inputs(tmp: Path, char: str, field: str) -> tuple[Path, Path]:
    """A vocabulary and a crossword config with ``char`` in ``field``."""
    name = quoted(f"te{char}ch") if field == "name" else '"tech"'
    entries = "".join(
        f"  - {{word: {quoted(w[:1] + char + w[1:]) if field == 'word' and i == 0 else w}, "
        f"hint: {quoted(f'a {char} hint' if field == 'hint' else 'a hint')}}}\n"
        for i, w in enumerate(WORDS))
    stem = f"v{char}x" if field == "file name" and char not in "\x00" else "v"
    vocab = tmp / f"{stem}.yaml"
    head = "" if field == "file name" else f"name: {name}\n"
    vocab.write_text(f"{head}words:\n{entries}", encoding="utf-8")
    text = (CONFIGS / "crossword.yaml").read_text(encoding="utf-8")
    label = quoted(f"語尾{char}かくし") if field == "label" else "語尾かくし"
    config = tmp / "cw.yaml"
    config.write_text(text.replace("  tail: 語尾かくし", f"  tail: {label}"), encoding="utf-8")
    return vocab, config


@SETTINGS
@given(char=planted, field=st.sampled_from(["hint", "name", "word", "label", "file name"]),
       render=st.sampled_from(["json", "text", "svg", "ipuz", "sheet"]),
       to_stdout=st.booleans())
def test_crossword_shows_a_control_escaped_in_every_output(char, field, render, to_stdout):
    with workdir() as tmp, unchecked():
        vocab, config = crossword_inputs(tmp, char, field)
        out, stats = tmp / "out.txt", tmp / "stats.json"
        result = invoke("crossword", "--vocab", vocab, "--config", config, "--style", "tail",
                        "--render", render, "-n", "2", "--seed", "3", "--stats", stats,
                        *([] if to_stdout else ["-o", out]))
        assert result.exit_code in (0, 1, 2), result.stderr
        outputs(result, out, stats)


@SETTINGS
@given(char=planted, render=st.sampled_from(["table", "csv", "md", "json"]))
def test_rarity_shows_a_gloss_with_a_control_escaped(char, render):
    with workdir() as tmp, unchecked():
        table = write_table(tmp)
        lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
        if char not in "\t\n\r":  # (a field break is a malformed line, refused as such)
            lines = [line.rstrip("\n") + f"«{char}»\n" for line in lines]
        table.write_text("".join(lines), encoding="utf-8")
        out, stats = tmp / "out.txt", tmp / "stats.json"
        result = invoke("rarity", "--data", table, "--vocab", EXAMPLES / "words.yaml",
                        "--render", render, "-o", out, "--stats", stats)
        assert result.exit_code in (0, 2), result.stderr
        outputs(result, out, stats)
        if result.exit_code == 0 and char not in "\t\n\r":
            assert "«»" not in out.read_text()  # the gloss is there, its control escaped
            assert "«" in out.read_text()


PACK = """\
{head}seed: 5
sections:
  - name: boards
    kind: crossword
    count: 2
    vocab: {vocab}
    config: cw.yaml
    style: tail
    render: [text, svg, ipuz, sheet]
  - name: words
    kind: rarity
    vocab: words.yaml
    data: english.tsv
"""


@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(char=planted,
       field=st.sampled_from(["hint", "name", "label", "pack name", "description",
                              "pack file name", "out", "gloss"]))
def test_a_pack_shows_a_control_escaped_in_every_file_page_export_and_line(char, field):
    with workdir() as tmp, unchecked():
        vocab, _config = crossword_inputs(tmp, char, field if field in (
            "hint", "name", "label") else "none")
        (tmp / "words.yaml").write_text((EXAMPLES / "words.yaml").read_text())
        table = write_table(tmp)
        if field == "gloss" and char not in "\t\n\r":
            table.write_text(table.read_text(encoding="utf-8").replace("\t猫", f"\t猫{char}"),
                             encoding="utf-8")
        head = {"pack name": f"name: {quoted(f'my{char}pack')}\n",
                "description": f"description: {quoted(f'a {char} pack')}\n"}.get(field, "")
        safe = char not in "\x00"  # (no file name holds a NUL)
        stem = f"p{char}k" if field == "pack file name" and safe else "pack"
        config = tmp / f"{stem}.yaml"
        config.write_text(PACK.format(head=head, vocab=vocab.name), encoding="utf-8")
        out = tmp / (f"o{char}t" if field == "out" and safe else "out")
        built = invoke("pack", "build", config, "--out", out, "--jobs", "1")
        outputs(built, out)
        if built.exit_code != 0:
            assert built.exit_code in (1, 2), built.stderr
            return
        outputs(invoke("pack", "check", config, "--out", out))
        outputs(invoke("pack", "preview", out, "-o", tmp / "page.html"), tmp / "page.html")
        for fmt, target in (("json", tmp / "x.json"), ("csv", tmp / "csv"),
                            ("sqlite", tmp / "x.sqlite")):
            result = invoke("pack", "export", out, "--format", fmt, "-o", target)
            assert result.exit_code == 0, result.stderr
            outputs(result, target)


@SETTINGS
@given(char=planted, road=st.sampled_from(["missing", "unknown key", "kanji dict",
                                           "duplicate", "out file"]))
def test_a_message_shows_a_control_escaped_on_one_line(char, road):
    with workdir() as tmp, unchecked():
        safe = char not in "\x00"
        if road == "missing":
            result = invoke("crossword", "--vocab", tmp / f"a{char if safe else ''}b.yaml")
        elif road == "unknown key":
            (tmp / "v.yaml").write_text(f"{quoted(f'na{char}me')}: x\nwords: [a, b]\n",
                                        encoding="utf-8")
            result = invoke("crossword", "--vocab", tmp / "v.yaml")
        elif road == "kanji dict":  # each entry that is not kanji is skipped with a warning
            words = (EXAMPLES / "kanji-weather.txt").read_text(encoding="utf-8")
            (tmp / "d.txt").write_text(words + f"ひら{char}がな\n", encoding="utf-8")
            result = invoke("kanji", "--dict", tmp / "d.txt", "--base", "3", "--bring", "10",
                            "-n", "1", "--seed", "7")
        elif road == "duplicate":  # a word given twice is dropped with a warning
            (tmp / "v.yaml").write_text(
                "words:\n" + "".join(f"  - {w}\n" for w in WORDS)
                + f"  - {quoted(WORDS[0] + char)}\n  - {quoted(WORDS[0] + char)}\n",
                encoding="utf-8")
            result = invoke("crossword", "--vocab", tmp / "v.yaml", "-n", "1", "--seed", "1")
        else:  # an output in a folder that does not exist
            result = invoke("rarity", "cat", "-o", tmp / f"n{char if safe else ''}o" / "x")
        outputs(result)
        assert result.stderr.strip(), result.stdout


def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path):
    """A name's bytes that are not UTF-8 (read as lone surrogates) reach messages, stdout and a
    pack's files escaped: ``\\udcff`` for the byte 0xff. A pack named after such a file is
    recorded with its name as shown, so it reads back (check, preview)."""
    bad = os.fsdecode(b"p\xffk")
    (tmp_path / "tech.yaml").write_text((EXAMPLES / "tech.yaml").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    config = tmp_path / f"{bad}.yaml"
    config.write_text("seed: 1\nsections:\n  - {name: b, kind: crossword, count: 2, "
                      "vocab: tech.yaml, render: [text, svg]}\n")
    out = tmp_path / f"o{bad}"
    built = invoke("pack", "build", config, "--out", out)
    assert built.exit_code == 0, built.stderr
    outputs(built, out)
    assert "\\udcff" in built.stdout
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["name"] == "p\\udcffk" and manifest["config"]["file"] == "p\\udcffk.yaml"
    for step in (("pack", "check", config, "--out", out),  # a pack wfkit built reads back
                 ("pack", "preview", out, "-o", tmp_path / "page.html")):
        result = invoke(*step)
        assert result.exit_code == 0, result.stderr
        outputs(result, tmp_path / "page.html")
    missing = invoke("crossword", "--vocab", tmp_path / f"{bad}.txt")
    outputs(missing)
    assert missing.exit_code == 2 and "\\udcff" in missing.stderr
