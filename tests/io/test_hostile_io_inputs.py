"""The input side: every file wfkit reads may be crafted.

Inputs are regular files only, each kind with a size cap (a FIFO never hangs a run, a huge file
is never read whole); user word tables are checked when opened; YAML keys given twice are
refused with both lines; pool records are validated field by field; and every crafted input is
one ``wfkit: error:`` line with exit 2, never an internal error. All attack files are built
here, in tmp (no device of the machine is ever read: a "device" is a FIFO or a pty we make).

Then every subcommand fed malformed files (empty, not UTF-8, alias bombs, tags, deep nesting,
random bytes and YAML noise), wrong types and absurd values inside otherwise valid files,
absurd numbers on the command line and million-word inputs: whatever comes in, a run ends with
a documented exit status (0, 1 or 2), a one-line ``wfkit: error:`` message when it fails, no
traceback, no hang, and no half-written output file.
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import string
from contextlib import contextmanager
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hostile_io import one_error, run

from wordforge_cli.cli import cli
from wordforge_cli.core.errors import ConfigError
from wordforge_cli.io.inputs import CAPS, read_bytes
from wordforge_cli.wordforge import english

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CONFIGS = ROOT / "configs"
TECH = str(EXAMPLES / "tech.yaml")


class Hang(Exception):
    pass


def within(seconds: int):
    def alarm(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)


# every option that names a file wfkit reads: {file} is where the attack goes
INPUT_OPTIONS = {
    "rarity --vocab": ["rarity", "--vocab", "{file}"],
    "rarity --config": ["rarity", "--config", "{file}", "cat"],
    "rarity --cefr": ["rarity", "--cefr", "{file}", "cat"],
    "rarity --cefr csv": ["rarity", "--cefr", "{file}.csv", "cat"],
    "rarity --overrides": ["rarity", "--overrides", "{file}", "cat"],
    "rarity --data": ["rarity", "--data", "{file}", "cat"],
    "rarity --data batch": ["rarity", "--data", "{file}", "--vocab", EXAMPLES / "words.yaml"],
    "rarity --compare": ["rarity", "--vocab", EXAMPLES / "words.yaml", "--compare", "{file}"],
    "score --config": ["score", "--config", "{file}", "quaff"],
    "score --data": ["score", "--data", "{file}", "quaff"],
    "tiles --config": ["tiles", "--config", "{file}", "--hand", "QUAFF", "--word", "quaff"],
    "crossword --vocab": ["crossword", "--vocab", "{file}"],
    "crossword --config": ["crossword", "--config", "{file}", "--vocab", TECH],
    "crossword endless --vocab": ["crossword", "endless", "--vocab", "{file}", "--count", "1"],
    "crossword challenge --vocab": ["crossword", "challenge", "--vocab", "{file}"],
    "kanji --dict": ["kanji", "--dict", "{file}", "-n", "1"],
    "kanji --config": ["kanji", "--config", "{file}", "-n", "1"],
    "kanji check --pool": ["kanji", "check", "熱帯", "--pool", "{file}"],
    "kanji check --dict": ["kanji", "check", "熱帯", "--pool", "{pool}", "--dict", "{file}"],
    "pack check config": ["pack", "check", "{file}", "--out", "{tmp}/out"],
    "pack build config": ["pack", "build", "{file}", "--out", "{tmp}/out"],
}


def argv_for(case: str, file: Path, tmp: Path) -> list[str]:
    pool = tmp / "pool.jsonl"
    if not pool.exists():
        pool.write_text(json.dumps({"id": 0, "kanji": ["熱", "帯"], "words": ["熱帯"]}) + "\n")
    out = []
    for arg in INPUT_OPTIONS[case]:
        arg = str(arg)
        if arg.startswith("{file}"):
            arg = str(file) + arg[len("{file}"):]
        out.append(arg.replace("{pool}", str(pool)).replace("{tmp}", str(tmp)))
    return out


# --- a FIFO or a huge file as any input --------------------------------------------------

@pytest.mark.parametrize("case", sorted(INPUT_OPTIONS))
def test_a_fifo_as_an_input_is_refused_at_once(case, tmp_path):
    fifo = tmp_path / "input"
    argv = argv_for(case, fifo, tmp_path)
    target = Path(next(a for a in argv if a.startswith(str(fifo))))
    os.mkfifo(target)
    within(20)
    try:
        result = run(*argv)
    finally:
        signal.alarm(0)
    one_error(result, 2, "a FIFO, not a regular file")


@pytest.mark.parametrize("case", ["rarity --vocab", "rarity --data", "crossword --config",
                                  "kanji check --pool", "rarity --cefr csv"])
def test_a_pty_as_an_input_is_refused(case, tmp_path):
    """A character device (here a pty we opened, standing in for /dev/zero) is never read."""
    master, slave = os.openpty()
    try:
        name = os.ttyname(slave)
        link = tmp_path / "input"
        argv = argv_for(case, link, tmp_path)
        target = Path(next(a for a in argv if a.startswith(str(link))))
        target.symlink_to(name)
        within(20)
        try:
            result = run(*argv)
        finally:
            signal.alarm(0)
        one_error(result, 2, "a character device, not a regular file")
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("case", ["rarity --vocab", "rarity --config", "rarity --data",
                                  "kanji check --pool", "crossword --vocab"])
def test_a_file_over_its_cap_is_refused_unread(case, tmp_path, monkeypatch):
    path = tmp_path / "input"
    argv = argv_for(case, path, tmp_path)
    target = Path(next(a for a in argv if a.startswith(str(path))))
    with open(target, "wb") as fh:  # sparse: no disk used, nothing read
        fh.truncate(CAPS["pools file"] + 1)
    line = one_error(run(*argv), 2, "too large for a", "the cap is")
    assert str(target) in line


def test_caps_are_per_kind(tmp_path, monkeypatch):
    path = tmp_path / "v.yaml"
    path.write_text("words: [cat, dog]\n")
    monkeypatch.setitem(CAPS, "vocabulary", 10)
    with pytest.raises(ConfigError, match="too large for a vocabulary: 18 bytes"):
        read_bytes(path, "vocabulary")
    assert read_bytes(path, "config") == path.read_bytes()


def test_a_directory_as_an_input(tmp_path):
    with pytest.raises(ConfigError, match="is a directory"):
        read_bytes(tmp_path)


# --- a word that would break an output format --------------------------------------------

@pytest.mark.parametrize("word", ["ab\ncd", "ab\tcd", "ca\x1bt", "a\rb", "x\u2028y", "d\x85g"])
@pytest.mark.parametrize("command", [["rarity", "--render", "csv"], ["rarity", "--json"],
                                     ["rarity"], ["crossword"]])
def test_a_word_with_a_control_character_is_refused_at_intake(word, command, tmp_path):
    vocab = tmp_path / "v.yaml"
    vocab.write_text(yaml.safe_dump({"words": ["cat", "dog", word]}), encoding="utf-8")
    one_error(run(*command, "--vocab", vocab), 2, f"{vocab}:4:", "control character")


def test_every_rarity_format_stays_valid_for_every_accepted_vocabulary(tmp_path):
    import csv
    import io

    vocab = tmp_path / "v.yaml"
    vocab.write_text("words: [cat, 'no', yes, labyrinth, Quaff, ' dog ', naïve]\n")
    result = run("rarity", "--vocab", vocab, "--json")
    if result.exit_code == 0:
        for line in result.stdout.splitlines():
            json.loads(line)
    result = run("rarity", "--vocab", EXAMPLES / "words.yaml", "--render", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert len({len(r) for r in rows}) == 1 and len(rows) == result.stdout.count("\n")
    result = run("rarity", "--vocab", EXAMPLES / "words.yaml")
    lines = result.stdout.splitlines()
    assert len(lines) == 31  # header + 30 words, one line each


@pytest.mark.parametrize("render", ["ipuz", "svg", "sheet", "text", "json"])
def test_a_vocabulary_file_named_with_bytes_that_are_not_utf8_is_titled_with_u_fffd(render,
                                                                                 tmp_path):
    # its stem came through as a lone surrogate, which no UTF-8 title can hold: ipuz ended
    # in an internal UnicodeEncodeError after the output had been opened
    vocab = tmp_path / os.fsdecode(b"w\xff.txt")
    vocab.write_text("\n".join(["キャッシュ", "サーバー", "メモリ", "データ", "システム",
                                 "ネット", "クラウド", "コード", "バグ", "テスト", "ログ",
                                 "リスト"]) + "\n", encoding="utf-8")
    out = tmp_path / f"o.{render}"
    result = run("crossword", "--vocab", vocab, "-n", "2", "--min-len", "3", "--max-len", "4",
                 "--seed", "1", "--render", render, "-o", out, "--stats", tmp_path / "s.json")
    assert result.exit_code == 0, result.stderr
    text = out.read_text(encoding="utf-8")
    if render == "ipuz":
        assert [json.loads(line)["title"] for line in text.splitlines()] == ["w\ufffd #0",
                                                                           "w\ufffd #1"]


# --- user word tables, duplicate YAML keys -----------------------------------------------

TABLE = ["cat\tA1\tcat\tnoun\t猫", "dog\tA1\tdog\tnoun\t犬", "labyrinth\tC1\tlabyrinth\tnoun\t迷宮"]


@pytest.mark.parametrize("content, needle, line", [
    ("\n".join([TABLE[1], TABLE[0], TABLE[2]]) + "\n", "not sorted", 2),
    ("\n".join([TABLE[0], TABLE[1], TABLE[1], TABLE[2]]) + "\n", "listed twice", 3),
    ("\n".join(TABLE), "no newline (a truncated table?)", 3),
    ("\n".join(TABLE) + "\ncu", "5 tab-separated fields", 4),
    ("\n".join([TABLE[0], "dog\tA1\tdog"]) + "\n", "5 tab-separated fields", 2),
    ("\n".join([TABLE[0], "dog\tZ9\tdog\tnoun\t犬"]) + "\n", "unknown CEFR level", 2),
])
def test_a_bad_user_word_table_is_refused_when_opened(tmp_path, content, needle, line):
    table = tmp_path / "w.tsv"
    table.write_text(content, encoding="utf-8")
    for argv in (["rarity", "dog", "--data", table],
                 ["rarity", "--vocab", EXAMPLES / "words.yaml", "--data", table]):
        one_error(run(*argv), 2, needle, f"{table}:{line}:")


def test_utf16_table_is_refused(tmp_path):
    table = tmp_path / "w.tsv"
    table.write_bytes(("\n".join(TABLE) + "\n").encode("utf-16"))
    one_error(run("rarity", "dog", "--data", table), 2, "not UTF-8")


def test_a_sorted_user_table_answers_as_the_batch_does(tmp_path):
    table = tmp_path / "w.tsv"
    table.write_text("\n".join(TABLE) + "\n", encoding="utf-8")
    one = json.loads(run("rarity", "dog", "--data", table, "--json").stdout)
    vocab = tmp_path / "v.txt"
    vocab.write_text("dog\n")
    batch = json.loads(run("rarity", "--vocab", vocab, "--data", table, "--json").stdout)
    assert one == batch and one["playable"] and one["cefr"] == "A1"


def test_the_bundled_table_passes_the_same_validation():
    from wordforge_cli.io.paths import data_file

    path = data_file(english.WORD_TABLE)
    text = path.read_text(encoding="utf-8")
    table = english.check_word_table(text, path)
    assert len(table) > 50_000 and table["cat"][1] == "A1"
    assert english.open_words(path).get("labyrinth") == english.open_words().get("labyrinth")


@pytest.mark.parametrize("content, first, second", [
    ("count: 100\nseed: 1\ncount: 3\n", 1, 3),
    ("words: [cat]\nname: x\nwords: [dog, cow]\n", 1, 3),
    ("presets:\n  easy:\n    base: 5\n    base: 6\n", 3, 4),
    ("a: 1\n'a': 2\n", 1, 2),
])
def test_duplicate_yaml_keys_are_refused_with_both_lines(tmp_path, content, first, second):
    from wordforge_cli.io.yamlio import parse_yaml

    with pytest.raises(ConfigError, match=f"is given twice .first on line {first}") as caught:
        parse_yaml(content, tmp_path / "x.yaml")
    assert caught.value.line == second


@pytest.mark.parametrize("argv, content", [
    (["kanji", "--config", "{file}", "-n", "1"], "count: 100\ncount: 3\n"),
    (["crossword", "--config", "{file}", "--vocab", TECH], "budget: 10\nbudget: 3000\n"),
    (["rarity", "--vocab", "{file}"], "words: [cat]\nwords: [dog, cow]\n"),
    (["pack", "check", "{file}", "--out", "{tmp}/o"],
     "seed: 1\nseed: 2\nsections:\n  - name: a\n    kind: rarity\n"),
])
def test_duplicate_keys_everywhere(argv, content, tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(content)
    argv = [str(a).replace("{file}", str(path)).replace("{tmp}", str(tmp_path)) for a in argv]
    one_error(run(*argv), 2, "is given twice", "first on line 1", f"{path}:2:")


# a lone surrogate ("\ud800", or a pair "\ud83d\ude00" read as two) is refused by libyaml, but
# the pure-Python loader (taken when a file holds '&') read it, and every render then crashed
@pytest.mark.parametrize("argv, content, line", [
    (["crossword", "--vocab", "{file}", "-n", "3", "--seed", "1", "--render", "ipuz"],
     'name: t & co\nlanguage: en\nwords:\n  - {word: bird, hint: "a \\ud800"}\n'
     "  - bear\n  - bison\n  - boar\n", 4),
    (["crossword", "--config", "{file}", "--vocab", TECH, "--seed", "1", "--json"],
     'budget: 3000  # & co\nlabels:\n  none: "\\ud83d\\ude00"\n', 3),
    (["crossword", "--config", "{file}", "--vocab", TECH, "--seed", "1", "--json"],
     'budget: 3000\nlabels:\n  none: "\\ud800"\n', 3),
])
def test_a_lone_surrogate_escape_is_refused_at_its_line(argv, content, line, tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(content)
    argv = [str(a).replace("{file}", str(path)) for a in argv]
    one_error(run(*argv), 2, "invalid Unicode character escape", f"{path}:{line}:")


# --- internal errors that became one line ------------------------------------------------

BIG = "9" * 5000


@pytest.mark.parametrize("argv", [
    ["kanji", "--kanji", BIG, "-n", "1"],
    ["kanji", "--kanji", f"1-{BIG}", "-n", "1"],
    ["score", "quaff", "--wild", BIG],
    ["pack", "check", str(EXAMPLES / "pack.yaml"), "--out", "o", "--shard", f"1/{BIG}"],
    ["crossword", "--vocab", TECH, "-n", BIG],
    ["rarity", "cat", "--seed", BIG] if False else ["kanji", "-n", "1", "--seed", BIG],
])
def test_huge_integers_on_the_command_line(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_error(run(*argv), 2)
    assert len(line) < 1200  # the 5,000 digits are not all echoed back


@pytest.mark.parametrize("content", [
    f"budget: {BIG}\n", f"words: [cat]\nname: x\nbudget: {BIG}\n", f"- {BIG}\n",
    "a: &x 1\nb: \"\x1b\"\n", "a: &x 1\nb: \x07\n", "c: \x1b\n",
])
def test_yaml_that_crashed_the_loader(content, tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(content)
    for argv in (["crossword", "--config", path, "--vocab", TECH], ["rarity", "--vocab", path],
                 ["kanji", "--config", path, "-n", "1"]):
        one_error(run(*argv), 2, f"{path}:")


def test_a_csv_field_over_the_csv_limit(tmp_path):
    table = tmp_path / "c.csv"
    table.write_text("word,level\ncat,A1\n" + "x" * 200_000 + ",A1\n")
    one_error(run("rarity", "cat", "--cefr", table), 2, f"{table}:3:", "field larger")


def test_presets_that_are_not_a_mapping(tmp_path):
    path = tmp_path / "k.yaml"
    for content in ("presets: 5\n", "presets: [a, b]\n", "presets: {easy: 5}\n"):
        path.write_text(content)
        one_error(run("kanji", "--config", path, "-n", "1"), 2, f"{path}:")


# --- pool records: validated field by field ----------------------------------------------

@pytest.mark.parametrize("record, needle", [
    ({"kanji": ["熱", "帯"]}, "no 'id'"),
    ({"id": "0", "kanji": ["熱", "帯"]}, "'id' must be"),
    ({"id": True, "kanji": ["熱", "帯"]}, "'id' must be"),
    ({"id": 0, "kanji": [["熱"], "帯"]}, "single characters"),
    ({"id": 0, "kanji": ["熱帯"]}, "single characters"),
    ({"id": 0, "kanji": []}, "1 to"),
    ({"id": 0, "kanji": "熱帯"}, "no 'kanji' list"),
    ({"id": 0, "kanji": ["熱", "熱"]}, "twice"),
    ({"id": 0, "kanji": ["熱", "帯"], "words": 5}, "'words' must be"),
    ({"id": 0, "kanji": ["熱", "帯"], "words": [1]}, "'words' must be"),
    ([1, 2], "not a pool record"),
    (5, "not a pool record"),
])
def test_crafted_pool_records(record, needle, tmp_path):
    pool = tmp_path / "p.jsonl"
    pool.write_text(json.dumps(record, ensure_ascii=False) + "\n")
    one_error(run("kanji", "check", "熱帯", "--pool", pool), 2, needle, f"{pool}:1:")


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000, "{\"id\": " + BIG + ", \"kanji\": [\"熱\"]}",
    "[{\"id\": 0, \"kanji\": [\"熱\"]}, " + "[" * 50_000 + "]" * 50_000 + "]",
])
def test_pool_files_that_crashed_the_reader(text, tmp_path):
    pool = tmp_path / "p.jsonl"
    pool.write_text(text)
    one_error(run("kanji", "check", "熱帯", "--pool", pool), 2, str(pool))


@pytest.fixture(scope="module")
def real_pools(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("pools") / "pools.jsonl"
    result = run("kanji", "-n", "3", "--seed", "7", "-o", out, "-q")
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in out.read_text().splitlines()]


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8)


def _mutate(record: dict, choice: int, key: str, value, rnd: random.Random) -> dict:
    mutated = json.loads(json.dumps(record))
    keys = list(mutated)
    if choice in (0, 1) and not keys:  # every key already popped
        return mutated
    if choice == 0:
        mutated.pop(keys[rnd.randrange(len(keys))])
    elif choice == 1:
        mutated[keys[rnd.randrange(len(keys))]] = value
    elif choice == 2:
        mutated[key] = value
    elif choice == 3 and isinstance(mutated.get("kanji"), list) and mutated["kanji"]:
        mutated["kanji"][rnd.randrange(len(mutated["kanji"]))] = value
    elif choice == 4 and isinstance(mutated.get("words"), list) and mutated["words"]:
        mutated["words"][rnd.randrange(len(mutated["words"]))] = value
    elif isinstance(mutated.get("kanji"), list):  # an earlier mutation may have replaced it
        mutated["kanji"] = mutated["kanji"][: rnd.randrange(len(mutated["kanji"]) + 1)]
    return mutated


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.integers(0, 2), st.lists(st.tuples(st.integers(0, 5), st.sampled_from(
    ["id", "kanji", "words", "base", "x"]), JSON_VALUES), min_size=1, max_size=3),
    st.integers(0, 2**32), st.sampled_from(["熱帯", "一言", "天", "後編"]))
def test_mutated_pool_records_work_or_are_refused_in_one_line(real_pools, tmp_path_factory,
                                                              which, mutations, seed, word):
    rnd = random.Random(seed)
    record = real_pools[which]
    for choice, key, value in mutations:
        record = _mutate(record, choice, key, value, rnd)
    pool = tmp_path_factory.mktemp("m") / "p.jsonl"
    pool.write_text(json.dumps(record, ensure_ascii=False) + "\n")
    result = CliRunner().invoke(cli, ["kanji", "check", word, "--pool", str(pool)])
    assert isinstance(result.exception, SystemExit | None), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.stderr
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("wfkit: error: "), result.stderr
        assert "internal" not in lines[0]
    else:
        assert result.stdout.startswith(("yes: ", "no: ")), result.stdout


def test_pools_from_standard_input(real_pools, monkeypatch):
    """``wfkit kanji ... | wfkit kanji check WORD --pool -``: stdin, under the same cap."""
    lines = "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in real_pools)
    word = real_pools[1]["words"][0]
    result = CliRunner().invoke(cli, ["kanji", "check", word, "--pool", "-", "--id",
                                      str(real_pools[1]["id"])], input=lines)
    assert result.exit_code == 0 and result.stdout.startswith(f"yes: {word}"), result.stderr
    monkeypatch.setitem(CAPS, "pools file", 100)
    result = CliRunner().invoke(cli, ["kanji", "check", word, "--pool", "-"], input=lines)
    one_error(result, 2, "-: too large for a pools file")


# --- every subcommand, malformed files and absurd values -----------------------------------

DOCUMENTED_EXITS = {0, 1, 2}

# Each case: the argv with {file} where the malformed file goes and {out} for an output file.
# The file is read as the kind named in the id (vocabulary, config, table, pool, pack config).
FILE_CASES = {
    "rarity-vocab": ["rarity", "--vocab", "{file}", "-o", "{out}"],
    "rarity-config": ["rarity", "--config", "{file}", "cat", "labyrinth"],
    "rarity-cefr-yaml": ["rarity", "--cefr", "{file}", "cat"],
    "rarity-overrides": ["rarity", "--overrides", "{file}", "cats"],
    "rarity-compare": ["rarity", "--vocab", str(EXAMPLES / "words.yaml"), "--compare", "{file}"],
    "score-config": ["score", "--config", "{file}", "quaff", "--json"],
    "tiles-config": ["tiles", "--config", "{file}", "--hand", "QUAFF", "--word", "quaff"],
    "crossword-vocab": ["crossword", "--vocab", "{file}", "-n", "3", "--seed", "1", "-o", "{out}"],
    "crossword-config": ["crossword", "--config", "{file}", "--vocab", str(EXAMPLES / "tech.yaml"),
                         "-n", "2", "--seed", "1", "-o", "{out}"],
    "crossword-endless": ["crossword", "endless", "--vocab", "{file}", "--count", "2", "--seed",
                          "1", "-o", "{out}"],
    "crossword-challenge-config": ["crossword", "--config", "{file}", "challenge", "--vocab",
                                   str(EXAMPLES / "tech.yaml"), "--seed", "1", "-o", "{out}"],
    "crossword-plan-config": ["crossword", "--config", "{file}", "plan", "6"],
    "kanji-dict": ["kanji", "--dict", "{file}", "-n", "2", "--seed", "1", "-o", "{out}"],
    "kanji-config": ["kanji", "--config", "{file}", "-n", "2", "--seed", "1", "-o", "{out}"],
    "kanji-check-pool": ["kanji", "check", "熱帯", "--pool", "{file}"],
    "pack-build": ["pack", "build", "{file}", "--out", "{outdir}"],
    "pack-check": ["pack", "check", "{file}", "--out", "{outdir}"],
}

SUFFIX = {"kanji-dict": ".txt"}


@contextmanager
def time_limit(seconds: int):
    """Fail instead of hanging: a run that takes longer than this is a bug."""

    def alarm(signum, frame):
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def invoke(argv: list[str], *, seconds: int = 60):
    with time_limit(seconds):
        return CliRunner().invoke(cli, argv, catch_exceptions=True)


def assert_well_behaved(result, argv: list[str], out: Path | None = None) -> None:
    shown = (f"wfkit {' '.join(argv)}\nstdout: {result.stdout[-800:]}\n"
             f"stderr: {result.stderr[-800:]}")
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"uncaught {exc!r}\n{shown}"
    assert result.exit_code in DOCUMENTED_EXITS, shown
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, shown
    if result.exit_code == 2 or (result.exit_code == 1 and "wfkit: error" in result.stderr):
        errors = [line for line in result.stderr.splitlines() if line.startswith("wfkit: ")
                  and not line.startswith("wfkit: warning: ")]  # skipped entries are warned
        assert len(errors) == 1, shown
        assert errors[0].startswith(("wfkit: error: ", "wfkit: internal")) is True, shown
        assert not errors[0].startswith("wfkit: internal"), shown
    if result.exit_code != 0 and out is not None:
        assert not out.exists(), f"half-written output left behind\n{shown}"
    if out is not None:
        leftovers = [p.name for p in out.parent.iterdir() if p.name.endswith(".tmp")]
        assert not leftovers, f"temporary files left: {leftovers}\n{shown}"


def run_case(case: str, content: bytes, tmp: Path):
    path = tmp / ("input" + SUFFIX.get(case, ".yaml"))
    path.write_bytes(content)
    out = tmp / "out" / "result.jsonl"
    out.parent.mkdir(exist_ok=True)
    if out.exists():
        out.unlink()
    outdir = tmp / "packdir"
    argv = [a.replace("{file}", str(path)).replace("{outdir}", str(outdir))
            .replace("{out}", str(out)) for a in FILE_CASES[case]]
    result = invoke(argv)
    assert_well_behaved(result, argv, out if "{out}" in FILE_CASES[case] else None)
    return result


# --- malformed content -------------------------------------------------------------------

NASTY_FILES = {
    "empty": b"",
    "only-comment": b"# nothing here\n",
    "not-utf8": b"words:\n  - caf\xe9\n  - \xff\xfe\n",
    "nul": b"words:\n  - ab\x00cd\n",
    "alias-bomb": (b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
                   b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nwords: [*c, *c, *c, *c, *c]\n"),
    "python-tag": b"words: !!python/object/apply:os.system ['echo pwned']\n",
    "deep-nesting": b"words: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "scalar": b"42\n",
    "list-top": b"- cat\n- dog\n",
    "words-not-list": b"name: x\nwords: {a: 1}\n",
    "words-numbers": b"name: x\nwords: [1, 2.5, true, null]\n",
    "mixed-scripts": "name: x\nwords: [ベクトルcat, кошка, 猫ねこ, crème, 'a b', x1y, 🐱]\n"
    .encode(),
    "huge-number": b"name: x\nwords: [cat]\nbudget: 1000000000000000000000000000000\n",
    "tabs": b"words:\n\t- cat\n",
    "unterminated": b"words: [cat, dog\n",
    "duplicate-keys": b"words: [cat]\nwords: [dog]\n",
    "binary-junk": bytes(range(256)),
}


@pytest.mark.parametrize("case", sorted(FILE_CASES))
@pytest.mark.parametrize("nasty", sorted(NASTY_FILES))
def test_nasty_files(case, nasty, tmp_path):
    run_case(case, NASTY_FILES[nasty], tmp_path)


YAML_NOISE = st.lists(
    st.sampled_from(list(":-[]{}&*!|>'\"#%@`,? \n\t") + list("abcxyz01")
                    + list("アイウ漢字") + ["words", "name", "\u3000", "é", "words:\n  - "]),
    max_size=60,
).map("".join)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(sorted(FILE_CASES)),
       content=st.one_of(st.binary(max_size=200), YAML_NOISE.map(str.encode)))
def test_random_bytes_and_yaml_noise(case, content, tmp_path_factory):
    run_case(case, content, tmp_path_factory.mktemp("noise"))


# --- wrong types and absurd values inside otherwise valid files ----------------------------

ABSURD = st.sampled_from([
    None, True, False, -1, 0, 1, 2**63, 10**30, -(10**30), 1.5, math.inf, -math.inf, math.nan,
    "", "12", "x" * 300, "ベクトル", [], [1, "a"], {}, {"a": {"b": None}}, "🐱", "\u0000".strip(),
])

VALID_SOURCES = {
    "rarity-config": CONFIGS / "rarity.yaml",
    "score-config": CONFIGS / "rarity.yaml",
    "crossword-config": CONFIGS / "crossword.yaml",
    "crossword-challenge-config": CONFIGS / "crossword.yaml",
    "crossword-plan-config": CONFIGS / "crossword.yaml",
    "crossword-vocab": EXAMPLES / "tech.yaml",
    "rarity-vocab": EXAMPLES / "words.yaml",
    "kanji-config": CONFIGS / "kanji.yaml",
    "pack-build": EXAMPLES / "pack.yaml",
}


def leaf_paths(value, prefix=()):
    if isinstance(value, dict):
        paths = [prefix] if prefix else []
        for key, sub in value.items():
            paths += leaf_paths(sub, (*prefix, key))
        return paths
    if isinstance(value, list):
        paths = [prefix]
        for index, sub in enumerate(value[:5]):
            paths += leaf_paths(sub, (*prefix, index))
        return paths
    return [prefix]


def replaced(data, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[head] = replaced(data[head], rest, new)
    return copy


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=st.sampled_from(sorted(VALID_SOURCES)), pick=st.integers(0, 10**6), value=ABSURD,
       extra_key=st.booleans())
def test_wrong_types_and_absurd_values(case, pick, value, extra_key, tmp_path_factory):
    source = VALID_SOURCES[case]
    if not source.exists():
        pytest.skip(f"{source} not shipped")
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    if case == "pack-build":  # keep a mutated pack small enough to build within the time limit
        data = shrink_pack(data)
    paths = leaf_paths(data)
    path = paths[pick % len(paths)]
    mutated = replaced(data, path, value)
    if extra_key and isinstance(mutated, dict):
        mutated = {**mutated, "colour": "blue"}
    text = yaml.safe_dump(mutated, allow_unicode=True, sort_keys=False)
    tmp = tmp_path_factory.mktemp("absurd")
    if case == "pack-build":
        # paths in the example pack are relative to its folder: the mutant lives beside it
        cfg = EXAMPLES / f".hardening-{tmp.name}.yaml"
        try:
            cfg.write_text(text, encoding="utf-8")
            argv = ["pack", "build", str(cfg), "--out", str(tmp / "pack")]
            assert_well_behaved(invoke(argv, seconds=90), argv)
        finally:
            cfg.unlink(missing_ok=True)
        return
    run_case(case, text.encode("utf-8"), tmp)


def shrink_pack(data):
    """The example pack with every count cut to 2, so a mutated build stays quick."""
    if isinstance(data, dict):
        return {k: (min(v, 2) if k in ("count", "n") and isinstance(v, int) else shrink_pack(v))
                for k, v in data.items()}
    if isinstance(data, list):
        return [shrink_pack(v) for v in data]
    return data


# --- absurd numbers on the command line -------------------------------------------------

ABSURD_ARGS = [
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "-n", str(10**30)],
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "-n", "-5"],
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "--min-len", "9", "--max-len", "3"],
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "--min-len", str(10**9),
     "--max-len", str(10**9)],
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "--budget", "0"],
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "--seed", "-1"],
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "--seed", str(2**64)],
    ["crossword", "plan", str(10**40)],
    ["crossword", "plan", "-3"],
    ["crossword", "endless", "--vocab", str(EXAMPLES / "tech.yaml"), "--start", str(10**30)],
    ["kanji", "-n", "1", "--kanji", "50-30"],
    ["kanji", "-n", "1", "--bring", str(10**9)],
    ["kanji", "-n", "1", "--base", "0"],
    ["kanji", "-n", "1", "--max-grade", "-4"],
    ["kanji", "-n", "1", "--kanji", "a-b"],
    ["kanji", "-n", "1", "--min-zipf", "nan"],
    ["rarity", ""],
    ["rarity", "12345"],
    ["rarity", "🐱"],
    ["rarity", "x" * 100000],
    ["score", "qqqqzzz"],
    ["score", "cat", "--combo", str(10**9)],
    ["score", "cat", "--wild", "0,99"],
    ["score", "--turns", ",,,"],
    ["tiles", "--players", "0"],
    ["tiles", "--players", "9"],
    ["tiles", "--hand", "Q" * 1000, "--word", "q"],
    ["tiles", "-n", str(10**12)],
    ["pack", "build", str(EXAMPLES / "pack.yaml"), "--out", "{tmp}/a-file/x", "--jobs", "0"],
    ["pack", "build", str(EXAMPLES / "pack.yaml"), "--out", "{tmp}/x", "--shard", "3/2"],
    ["pack", "build", str(EXAMPLES / "pack.yaml"), "--out", "{tmp}/x", "--shard", "0/0"],
    ["pack", "preview", "{tmp}/nonexistent", "-o", "{tmp}/preview.html"],
]


@pytest.mark.parametrize("argv", ABSURD_ARGS, ids=lambda a: " ".join(a)[:70])
def test_absurd_arguments(argv, tmp_path):
    """Paths live in the test's own folder ({tmp}; a-file is a regular file, so a path
    under it cannot be made): never the machine's devices or a shared /tmp."""
    (tmp_path / "a-file").write_text("")
    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    before = sorted(p.name for p in tmp_path.iterdir())
    result = invoke(argv)
    assert_well_behaved(result, argv)
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# --- huge inputs -------------------------------------------------------------------------

MILLION = 1_000_000


@pytest.fixture(scope="module")
def huge_vocabs(tmp_path_factory):
    """A 1,000,000-word vocabulary in Latin letters, and one of kanji words (deterministic)."""
    rng = random.Random(20261130)
    tmp = tmp_path_factory.mktemp("huge")
    latin: set[str] = set()
    while len(latin) < MILLION:
        latin.add("".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 9))))
    latin_words = sorted(latin)
    rng.shuffle(latin_words)
    en = tmp / "huge-en.yaml"
    en.write_text("name: huge\nlanguage: en\nwords:\n" + "".join(f"- {w}\n" for w in latin_words),
                  encoding="utf-8")
    kanji_chars = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
    ja: set[str] = set()
    while len(ja) < MILLION:
        ja.add("".join(rng.choices(kanji_chars, k=rng.randint(2, 4))))
    ja_words = sorted(ja)
    rng.shuffle(ja_words)
    kanji = tmp / "huge-kanji.txt"
    kanji.write_text("".join(f"{w}\n" for w in ja_words), encoding="utf-8")
    return {"en": en, "kanji": kanji}


@pytest.mark.parametrize("case", ["rarity", "crossword", "kanji"])
def test_million_word_inputs(case, huge_vocabs, tmp_path):
    out = tmp_path / "out.jsonl"
    argv = {
        "rarity": ["rarity", "--vocab", str(huge_vocabs["en"]), "--render", "json",
                   "-o", str(out)],
        "crossword": ["crossword", "--vocab", str(huge_vocabs["en"]), "-n", "3", "--seed", "1",
                      "-o", str(out)],
        "kanji": ["kanji", "--dict", str(huge_vocabs["kanji"]), "-n", "3", "--seed", "1",
                  "-o", str(out)],
    }[case]
    result = invoke(argv, seconds=240)
    assert_well_behaved(result, argv, out)
    assert result.exit_code == 0, result.stderr[-500:]
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == (MILLION if case == "rarity" else 3)
