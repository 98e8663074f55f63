"""Hardening across wfkit: every subcommand fed malformed files and absurd values.

Whatever comes in, a run must end with a documented exit status (0, 1 or 2), a one-line
``wfkit: error:`` message when it fails, no traceback, no hang, and no half-written output file.
"""

from __future__ import annotations

import math
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

from wordforge_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
CONFIGS = ROOT / "configs"
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


class Hang(Exception):
    pass


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
