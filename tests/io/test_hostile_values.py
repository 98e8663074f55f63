"""Crafted values in every file wfkit reads: integers too long in any base, YAML features
wfkit does not read (dates, sets, tags, merge keys, anchors), keys that are one key once
read, numbers that overflow, a NaN, and numbers on the command line longer than Python can
print. Each is one line naming the file and line, exit 2, never an internal error.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import CONFIGS, EXAMPLES

HEX = "0x" + "f" * 3990  # under the 4,000-character check, over Python's 4,300 digits once read


def refused(result, *needles: str, code: int = 2) -> None:
    assert result.exit_code == code, (result.exit_code, result.stderr, result.stdout[:300])
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("wfkit: error: "), \
        result.stderr[:500]
    assert "internal error" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr[:500]


def rules(tmp_path: Path, old: str, new: str) -> Path:
    text = (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "rules.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "needle"), [
    ("  base_length: 3", f"  base_length: {HEX}", "more than 4,000 digits"),
    ("  base_length: 3", "  base_length: 2001-12-14", "a date or time is not a value"),
    ("  base_length: 3", "  base_length: !!set {a, b}", "a set (!!set) is not a value"),
    ("  base_length: 3", "  base_length: !!binary aGVsbG8=", "binary data"),
    ("  base_length: 3", "  base_length: !mine 3", "tagged '!mine'"),
    ("multiplier: 1.5}", "multiplier: " + "1" * 3999 + "}", "must be at most"),
    ("    rare: 2.5", "    rare: .nan", "must be a finite number, not nan"),
    ("    7: 8\n", "    7: 8\n    07: 100\n", "'07' is given twice"),
    ("    7: 8\n", "    7: 8\n    0x7: 100\n", "'0x7' is given twice"),
    ("    7: 8\n", "    7: 8\n    '7': 100\n", "'7' is given twice"),
    ("  per_letter: 2", "  per_letter: &n 2", "anchors (&name) are not allowed"),
    ("  per_letter: 2", "  per_letter: 2\n  <<: {per_letter: 9}", "merge keys (<<:)"),
    ("    A: [1, 9]", "    A: [1, 1000000000]", "tiles/letters/A must be at most 1,000"),
    ("  hand_size: 10", "  hand_size: 100000000", "tiles/hand_size must be at most 1,000"),
])
def test_a_crafted_rules_file_is_one_line(tmp_path, run, old, new, needle):
    path = rules(tmp_path, old, new)
    for command in (("score", "kitchen"), ("tiles",)):
        refused(run(*command, "--config", path), str(path), needle)


def test_length_bonus_keys_that_collide_never_change_a_score(tmp_path, run):
    plain = run("score", "kitchen", "--json")
    path = rules(tmp_path, "    7: 8\n", "    7: 8\n    07: 100\n")
    refused(run("score", "kitchen", "--config", path, "--json"), "given twice")
    assert json.loads(plain.stdout)["score"] == 48


@pytest.mark.parametrize("value", [HEX, "2001-12-14", "!!set {a, b}", "!!str 5", "&a 5"])
def test_crossword_and_kanji_config_values(tmp_path, run, value):
    for command, bundled, key, extra in (
            ("crossword", "crossword.yaml", "budget", ("--vocab", EXAMPLES / "tech.yaml")),
            ("kanji", "kanji.yaml", "attempts", ())):
        text = (CONFIGS / bundled).read_text(encoding="utf-8")
        lines = [f"{key}: {value}" if line.startswith(f"{key}:") else line
                 for line in text.splitlines()]
        path = tmp_path / bundled
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        result = run(command, "--config", path, *extra, "-n", "1", "--seed", "1")
        if value == "!!str 5":  # a tagged string is text, as the command line's "5" is
            assert result.exit_code in (0, 1), result.stderr
            continue
        refused(result, f"{path}:")


@pytest.mark.parametrize("seed", [HEX, "2001-12-14", "!!set {a}"])
def test_a_pack_seed_of_any_base_or_type(tmp_path, run, seed):
    import test_pack_fake  # noqa: F401  (registers the dice kind)

    path = tmp_path / "pack.yaml"
    path.write_text(f"seed: {seed}\nsections:\n  - {{name: a, kind: dice, count: 3}}\n")
    refused(run("pack", "build", path, "--out", tmp_path / "out"), f"{path}:1:")
    path.write_text("seed: 1\n<<: {seed: 2}\nsections:\n  - {name: a, kind: dice, count: 3}\n")
    refused(run("pack", "build", path, "--out", tmp_path / "out"), "merge keys")
    assert not (tmp_path / "out").exists()


def test_a_cefr_table_with_a_merge_key_or_an_anchor(tmp_path, run):
    table = tmp_path / "cefr.yaml"
    table.write_text("cat: A1\n<<: {cat: C2}\n")
    refused(run("rarity", "cat", "--cefr", table), "merge keys")
    table.write_text("cat: &x A1\n")
    refused(run("rarity", "cat", "--cefr", table), "anchors")


@pytest.mark.parametrize("args", [
    ("crossword", "endless", "--start", "9" * 4300),
    ("crossword", "endless", "--start", "9" * 19),
    ("crossword", "plan", "9" * 4300),
])
def test_command_line_numbers_longer_than_any_run(run, args):
    result = run(*args, "--vocab", EXAMPLES / "tech.yaml") if args[1] == "endless" \
        else run(*args)
    assert result.exit_code == 2, result.stderr[:300]
    assert result.stderr.count("\n") == 1 and "too large" in result.stderr
    assert "internal error" not in result.stderr


def test_score_tiles_positions_take_ascii_digits_only(run):
    result = run("score", "kitchen", "--wild", "²")
    assert result.exit_code == 2 and "internal error" not in result.stderr, result.stderr


def test_stdout_opened_read_only_is_one_line(tmp_path):
    import subprocess
    import sys

    readable = tmp_path / "ro.txt"
    readable.write_text("")
    with readable.open("r") as fh:
        proc = subprocess.run([sys.executable, "-m", "wordforge_cli", "rarity", "cat"],
                              stdout=fh, stderr=subprocess.PIPE, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == "wfkit: error: cannot write to stdout: bad file descriptor\n"


BALANCE = """\
seed: 5
sections:
  - name: duel
    kind: balance
    count: 4
    data: english.tsv
    players: [B1, C2]
    turns: 3
"""


@pytest.fixture(scope="module")
def balance_pack(tmp_path_factory):
    from click.testing import CliRunner
    from wordforge_tables import write_table

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("balance")
    write_table(tmp)
    (tmp / "pack.yaml").write_text(BALANCE)
    result = CliRunner().invoke(cli, ["pack", "build", str(tmp / "pack.yaml"), "--out",
                                      str(tmp / "pack"), "-j", "1"])
    assert result.exit_code == 0, result.output
    return tmp / "pack"


@pytest.mark.parametrize("change", ["²", "--5", "name"])
def test_a_crafted_preview_manifest_is_drawn_or_refused_in_one_line(tmp_path, run,
                                                                    balance_pack, change):
    import shutil

    pack = tmp_path / "pack"
    shutil.copytree(balance_pack, pack)
    path = pack / "manifest.json"
    text = path.read_text()
    manifest = json.loads(text)
    if change == "name":
        text = text.replace(json.dumps(manifest["name"]), '"\\ud800"', 1)
    else:
        stats = manifest["sections"][0]["stats"]
        histogram = stats["score_per_turn"]["histogram"]
        histogram[change] = 1
        text = json.dumps(manifest, indent=2, ensure_ascii=False)
    path.write_text(text)
    result = run("pack", "preview", pack, "-o", tmp_path / "p.html")
    assert "internal error" not in result.stderr, result.stderr
    if change == "name":
        refused(result, "lone surrogate")
    else:
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / "p.html").read_text().count("<html") == 1
