"""Fuzzing the hostile-file guarantees, one property per category: YAML features and
numbers in config values, control characters in every text a vocabulary or config brings,
``--out`` swapped at any named step of a build, crafted pools, oversized record fields, and
special files where inputs go. Every run ends in exit 0, 1 or 2 with at most one line per
refusal on stderr, never an internal error, a hang, a raw control character or a file
touched outside ``--out``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)
from click.testing import CliRunner
from conftest import CONFIGS, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pack import write_config
from test_pack_hostile import snapshot

from wordforge_cli.cli import cli
from wordforge_cli.core.errors import CONTROLS
from wordforge_cli.pack import store

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def clean(result, *, codes=(0, 1, 2)) -> None:
    assert result.exit_code in codes, (result.exit_code, result.stderr[:500])
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stderr.count("\n") == 1, result.stderr[:500]


@contextlib.contextmanager
def workdir():
    with tempfile.TemporaryDirectory() as tmp:
        yield Path(tmp)


# --- YAML features and numbers ----------------------------------------------------------

digits = st.integers(1, 4400)
hostile_scalar = st.one_of(
    digits.map(lambda n: "9" * n),
    digits.map(lambda n: "0x" + "f" * n),
    digits.map(lambda n: "0o" + "7" * n),
    digits.map(lambda n: "0b" + "1" * n),
    digits.map(lambda n: "1" * n + ".5"),
    digits.map(lambda n: "1e" + "9" * min(n, 30)),
    st.sampled_from([".nan", ".inf", "-.inf", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
                     "!!set {a, b}", "!!binary aGVsbG8=", "!!omap [a: 1]", "!mine 3",
                     "&anchor 3", "[1, 2]", "{a: 1}", "~", "yes", "'5'", "1_000", "190:20:30",
                     "!!python/object:os.system x", "!!float 1e400", "-0"]),
)


@SETTINGS
@given(key=st.sampled_from(["budget", "max_len", "redraws", "min_len", "max_width"]),
       value=hostile_scalar)
def test_any_scalar_in_a_crossword_config_is_used_or_one_line(key, value):
    with workdir() as tmp:
        text = (CONFIGS / "crossword.yaml").read_text(encoding="utf-8")
        lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line
                 for line in text.splitlines()]
        (tmp / "c.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        clean(invoke("crossword", "--config", tmp / "c.yaml", "--vocab",
                     EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1", "--budget", "50"))


@SETTINGS
@given(section=st.sampled_from(["score", "battle"]), value=hostile_scalar,
       extra=st.sampled_from(["", "07", "0x7", "'7'", "7.0", "<<"]))
def test_any_scalar_or_colliding_key_in_a_rules_file_is_one_line(section, value, extra):
    with workdir() as tmp:
        text = (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")
        key = "  per_letter: 2" if section == "score" else "  upgrade_tiers: 1"
        text = text.replace(key, f"{key.split(':')[0]}: {value}", 1)
        if extra == "<<":
            text = text.replace("  base_length: 3", "  base_length: 3\n  <<: {base_length: 4}")
        elif extra:
            text = text.replace("    7: 8\n", f"    7: 8\n    {extra}: 1\n")
        (tmp / "r.yaml").write_text(text, encoding="utf-8")
        result = invoke("score", "kitchen", "--config", tmp / "r.yaml")
        clean(result)
        if extra:
            assert result.exit_code == 2


# --- control characters in every text field -----------------------------------------------

control = st.sampled_from(sorted({chr(c) for c in range(0x20)} | {"\x7f", "\x85", "\x9b"}
                                 | set("\u2028\u2029\u200e\u200f\u202a\u202b\u202c\u202d"
                                       "\u202e\u2066\u2067\u2068\u2069")))
RAW = [chr(c) for c in range(0x20) if chr(c) not in "\n"] + [
    "\x7f", "\x9b", "\u2028", "\u2029", "\u202e", "\u2066"]


@SETTINGS
@given(char=control, field=st.sampled_from(["hint", "name", "word", "label", "language"]),
       render=st.sampled_from(["text", "svg", "ipuz", "json", "sheet"]))
def test_a_control_character_in_any_text_never_reaches_an_output_raw(char, field, render):
    assert char in CONTROLS or "\x00" <= char <= "\x1f" or "\x7f" <= char <= "\x9f" \
        or char in "\u2028\u2029\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067" \
        "\u2068\u2069"
    with workdir() as tmp:
        words = [line.strip()[2:] for line in (EXAMPLES / "tech.yaml").read_text()
                 .splitlines() if line.startswith("  - ")]
        bad = json.dumps(f"x{char}y")
        name = bad if field == "name" else '"tech"'
        language = bad if field == "language" else "ja"
        entries = []
        for i, word in enumerate(words):
            shown = json.dumps(f"{word[:1]}{char}{word[1:]}") if field == "word" and i == 0 \
                else word
            hint = bad if field == "hint" else '"a hint"'
            entries.append(f"  - {{word: {shown}, hint: {hint}}}\n")
        (tmp / "v.yaml").write_text(f"name: {name}\nlanguage: {language}\nwords:\n"
                                    + "".join(entries), encoding="utf-8")
        args = ["crossword", "--vocab", tmp / "v.yaml", "--render", render, "-n", "2",
                "--seed", "3", "--style", "tail"]
        if field == "label":
            text = (CONFIGS / "crossword.yaml").read_text(encoding="utf-8")
            (tmp / "c.yaml").write_text(text.replace("  tail: 語尾かくし", f"  tail: {bad}"),
                                        encoding="utf-8")
            args += ["--config", tmp / "c.yaml"]
        result = invoke(*args)
        clean(result)
        if field != "language":  # a language tag reaches no output
            assert result.exit_code == 2
        for raw in RAW:
            assert raw not in result.stdout, (repr(raw), result.stdout[:300])
            assert raw not in result.stderr.rstrip("\n"), (repr(raw), result.stderr)


# --- --out swapped at any named step ------------------------------------------------------

@pytest.fixture(scope="module")
def built_pack(tmp_path_factory):
    root = tmp_path_factory.mktemp("swap")
    config = write_config(root, count=200)
    result = invoke("pack", "build", config, "--out", root / "pack", "--jobs", "1")
    assert result.exit_code == 0
    return root


@SETTINGS
@given(point=st.sampled_from(["before-exchange", "exchange", "between-renames"]),
       action=st.sampled_from(["link", "other dir", "remove", "link to parent", "nothing"]),
       exchange=st.booleans(), stranger=st.booleans())
def test_out_swapped_at_any_step_never_touches_a_file_outside(built_pack, point, action,
                                                              exchange, stranger):
    with workdir() as tmp:
        shutil.copytree(built_pack, tmp / "w", symlinks=True)
        root = tmp / "w"
        out = root / "pack"
        victim = tmp / "victim"
        (victim / "big").mkdir(parents=True)
        for name in ("manifest.json", "big.jsonl", "big/000001.svg", "notes.txt"):
            (victim / name).write_text(f"mine: {name}")
        if stranger:
            (out / "mine.txt").write_text("keep")
        write_config(root, seed=17, count=200)
        before = snapshot(victim)

        swapped = []  # whether the attacker changed anything: removing an --out that is
        # not there (between the fallback's renames) leaves the build as "nothing" does

        def act():
            if action == "nothing":
                return
            if out.exists():  # (between the fallback's renames there is no --out)
                out.rename(root / "moved")
                swapped.append("moved")
            if action == "link":
                out.symlink_to(victim, target_is_directory=True)
            elif action == "link to parent":
                out.symlink_to(tmp, target_is_directory=True)
            elif action == "other dir":
                shutil.copytree(victim, out)
            if action != "remove":
                swapped.append(action)

        seen = []

        def hook(at):
            seen.append(at)
            if at == point:
                act()

        old_hook, old_exchange = store.step_hook, store.exchange_supported
        store.step_hook, store.exchange_supported = hook, exchange
        try:
            result = invoke("pack", "build", root / "pack.yaml", "--out", out, "--jobs", "1")
        finally:
            store.step_hook, store.exchange_supported = old_hook, old_exchange
        clean(result)
        assert snapshot(victim) == before
        assert sorted(p.name for p in tmp.iterdir()) == ["victim", "w"]
        if swapped:
            assert point in seen
            assert result.exit_code == 1 and "--out was replaced" in result.stderr
        elif result.exit_code == 0 and stranger:
            assert (out / "mine.txt").read_text() == "keep"
        leftovers = [p.name for p in root.iterdir() if p.name.startswith(".pack.")]
        if point == "between-renames" and point in seen and action not in ("nothing", "remove"):
            assert "the previous pack is kept as" in result.stderr  # (it says where)
        else:
            assert leftovers == [], leftovers


# --- crafted pools ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kanji_list():
    from test_hostile_bounds import common_kanji

    return common_kanji(1000)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_crafted_pool_is_played_or_refused(kanji_list, data):
    size = data.draw(st.integers(1, 1000))
    start = data.draw(st.integers(0, 1000 - size))
    players = data.draw(st.lists(st.sampled_from(["greedy", "lookahead", "greedy@3",
                                                  "lookahead@4"]), min_size=2, max_size=2))
    limit = data.draw(st.sampled_from(["0", "1", "30", "10000"]))
    with workdir() as tmp:
        record = {"id": 0, "kanji": kanji_list[start:start + size],
                  "words": data.draw(st.lists(st.text(max_size=4), max_size=5))}
        (tmp / "p.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n")
        args = [a for p in players for a in ("--player", p)]
        result = invoke("kanji", "play", "--pool", tmp / "p.jsonl", "--limit", limit, *args)
        clean(result)
        if result.exit_code == 2:
            assert "word looks" in result.stderr or "pool" in result.stderr


# --- oversized record fields --------------------------------------------------------------

@pytest.fixture(scope="module")
def dice_pack(tmp_path_factory):
    root = tmp_path_factory.mktemp("preview")
    config = write_config(root, count=10)
    assert invoke("pack", "build", config, "--out", root / "pack").exit_code == 0
    return root / "pack"


@SETTINGS
@given(size=st.integers(0, 20_000), entries=st.integers(0, 12_000),
       where=st.sampled_from(["top", "nested", "key"]))
def test_a_record_of_any_size_is_drawn_or_refused_in_one_line(dice_pack, size, entries,
                                                              where):
    from wordforge_cli.pack.preview import oversized

    record: dict = {"id": 0}
    if where == "top":
        record["text"] = "a" * size
        record["list"] = [0] * entries
    elif where == "nested":
        record["deep"] = [{"x": ["b" * size]}, {"y": list(range(entries))}]
    else:
        record["k" * size] = dict.fromkeys(map(str, range(entries)), 1)
    problem = oversized(record)
    big = size > 4096 or entries > 10_000
    assert (problem is not None) == big


# --- special files where inputs go --------------------------------------------------------

@SETTINGS
@given(where=st.sampled_from(["--vocab", "--config", "--cefr", "--overrides", "--data"]),
       kind=st.sampled_from(["fifo", "dir", "dangling", "loop"]))
def test_a_special_file_as_any_input_is_one_line_without_a_hang(where, kind):
    with workdir() as tmp:
        path = tmp / "in.yaml"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "dir":
            path.mkdir()
        elif kind == "dangling":
            path.symlink_to(tmp / "nowhere")
        else:
            path.symlink_to(path)
        command = ["rarity", "cat"] if where != "--vocab" else ["rarity"]
        result = invoke(*command, where, path)
        clean(result, codes=(1, 2))
