"""Quiet and strict runs: ``--quiet`` on every command (errors and each missing item's reason
still printed), ``--require-all`` (and a pack section's ``require_all``) failing a partial
batch, and ``--vocab -`` reading standard input as the same bytes in a file read."""

from __future__ import annotations

import json
import shutil

import click
import pytest
from conftest import EXAMPLES

from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths

PARTIAL = ("crossword", "--vocab", EXAMPLES / "tech.yaml", "--budget", "1", "-n", "5",
           "--layout", "strict", "--style", "most", "--seed", "1")


def command(path: tuple[str, ...]) -> click.Command:
    ctx = click.Context(cli)
    found: click.Command = cli
    for name in path:
        assert isinstance(found, click.Group)
        found = found.get_command(ctx, name)  # type: ignore[assignment]
    return found


@pytest.mark.parametrize("path", command_paths(cli), ids=" ".join)
def test_every_command_has_quiet(path):
    found = command(path)
    if isinstance(found, click.Group) and not found.invoke_without_command:
        return  # a group that only holds commands (pack)
    options = {opt for p in found.params for opt in getattr(p, "opts", [])}
    assert {"-q", "--quiet"} <= options, path


def failure_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.endswith("counted as failed")]


@pytest.mark.parametrize("quiet", [False, True])
def test_each_missing_board_has_its_reason_quiet_or_not(run, tmp_path, quiet):
    out = tmp_path / "boards.jsonl"
    stats = tmp_path / "stats.json"
    result = run(*PARTIAL, "-o", out, "--stats", stats, *(["-q"] if quiet else []))
    assert result.exit_code == 0, result.stderr
    summary = json.loads(stats.read_text(encoding="utf-8"))["stats"]
    assert summary["failed"] > 0
    reasons = failure_lines(result.stderr)
    assert len(reasons) == summary["failed"]
    made = {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()}
    missing = sorted(set(range(5)) - made)
    assert [int(r.split()[2].rstrip(":")) for r in reasons] == missing
    assert all("no board within the budget of 1 attempt " in r for r in reasons)
    figures = [line for line in result.stderr.splitlines() if line not in reasons]
    assert (figures == []) == quiet, figures  # quiet: the reasons only


def test_quiet_batches_print_no_figures(run, tmp_path):
    for args in (("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "3", "--seed", "1"),
                 ("crossword", "endless", "--vocab", EXAMPLES / "tech.yaml", "--count", "3",
                  "--seed", "1"),
                 ("kanji", "-n", "2", "--seed", "1"),
                 ("rarity", "--vocab", EXAMPLES / "words.yaml"),
                 ("tiles", "-n", "3", "--seed", "1")):
        loud = run(*args)
        assert loud.exit_code == 0 and loud.stderr, args
        quiet = run(*args, "-q")
        assert quiet.exit_code == 0 and quiet.stderr == "", (args, quiet.stderr)
        assert quiet.stdout == loud.stdout
    result = run("init", tmp_path / "project", "-q")
    assert result.exit_code == 0 and "wrote" not in result.stderr


def test_quiet_keeps_errors(run):
    result = run("crossword", "--vocab", "no-such.yaml", "-q")
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_require_all_fails_a_partial_batch_writing_nothing(run, tmp_path):
    out = tmp_path / "boards.jsonl"
    out.write_text("old\n", encoding="utf-8")
    result = run(*PARTIAL, "-o", out, "--require-all", "-q")
    assert result.exit_code == 1
    assert len(failure_lines(result.stderr)) == 4
    assert result.stderr.splitlines()[-1] == (
        "wfkit: error: 4 of 5 boards missing, and --require-all asks for all of them")
    assert out.read_text(encoding="utf-8") == "old\n"  # the old file stays
    whole = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "5", "--seed", "1",
                "--require-all", "-o", out)
    assert whole.exit_code == 0 and len(out.read_text().splitlines()) == 5


def test_require_all_fails_a_partial_kanji_batch(run, tmp_path):
    out = tmp_path / "pools.jsonl"
    args = ("kanji", "-n", "12", "--kanji", "47-48", "--attempts", "1", "--seed", "1", "-o", out)
    assert run(*args).exit_code == 0
    result = run(*args, "--require-all")
    assert result.exit_code == 1 and "--require-all asks for all of them" in result.stderr
    reasons = [line for line in result.stderr.splitlines() if line.startswith("wfkit: pool ")]
    assert reasons and result.stderr.splitlines()[-1] == (
        f"wfkit: error: {len(reasons)} of 12 pools missing, and --require-all asks for all "
        "of them")


PACK = """\
name: strict
seed: 1
sections:
  - name: boards
    kind: crossword
    vocab: tech.yaml
    count: 5
    budget: 1
    layout: strict
    style: most
"""


def test_a_pack_section_that_requires_all(run, tmp_path):
    shutil.copy(EXAMPLES / "tech.yaml", tmp_path / "tech.yaml")
    config = tmp_path / "pack.yaml"
    config.write_text(PACK, encoding="utf-8")
    out = tmp_path / "out"
    built = run("pack", "build", config, "--out", out)
    assert built.exit_code == 0
    failed = json.loads((out / "manifest.json").read_text())["sections"][0]["stats"]["failed"]
    assert failed > 0
    assert [line.split(": ", 2)[1] for line in failure_lines(built.stderr)] == ["boards"] * failed
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    for args, text in (((), PACK + "    require_all: true\n"), (("--require-all",), PACK)):
        config.write_text(text, encoding="utf-8")
        result = run("pack", "build", config, "--out", out, "-q", *args)
        assert result.exit_code == 1, args
        assert len(failure_lines(result.stderr)) == failed
        assert "require_all asks for all of them: nothing written" in result.stderr
        assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    config.write_text(PACK + "    require_all: maybe\n", encoding="utf-8")
    result = run("pack", "build", config, "--out", out)
    assert result.exit_code == 2 and "pack.yaml:11" in result.stderr


@pytest.mark.parametrize("name", ["tech.yaml", "animals-en.yaml"])
def test_vocab_from_stdin_is_the_file(run, tmp_path, name):
    data = (EXAMPLES / name).read_bytes()
    args = ("crossword", "-n", "4", "--seed", "3", "--render", "text")
    from_file = run(*args, "--vocab", EXAMPLES / name)
    from_stdin = run(*args, "--vocab", "-", input=data)
    assert from_file.exit_code == 0 and from_stdin.exit_code == 0, from_stdin.stderr
    assert from_stdin.stdout_bytes == from_file.stdout_bytes


def test_a_word_list_from_stdin_is_the_text_file(run, tmp_path):
    words = "cat\ndog   # a comment\n\nhorse\n"
    path = tmp_path / "words.txt"
    path.write_text(words, encoding="utf-8")
    from_file = run("rarity", "--vocab", path, "--json")
    from_stdin = run("rarity", "--vocab", "-", "--json", input=words.encode())
    assert from_stdin.exit_code == 0 and from_stdin.stdout == from_file.stdout
    assert [json.loads(line)["word"] for line in from_stdin.stdout.splitlines()] == [
        "cat", "dog", "horse"]


def test_a_bad_stdin_vocabulary_is_one_line(run):
    result = run("rarity", "--vocab", "-", input=b"cat\n\xff\xfe\n")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("wfkit: error: -:2: not UTF-8")
    result = run("crossword", "--vocab", "-", input=b"words: [1, 2\n")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1


def test_a_seed_that_is_no_number_says_so(run):
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "--seed", "abc")
    assert result.exit_code == 2
    assert "'abc' is not a seed (a whole number from 0 to 2**63-1)" in result.stderr
    assert "integer range" not in result.stderr


def test_an_output_in_a_missing_directory_is_a_usage_error_named_as_given(run, tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in (("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1"),
                 ("kanji", "-n", "1", "--seed", "1")):
        result = run(*args, "-o", "nodir/boards.jsonl")
        assert result.exit_code == 2, args
        assert result.stderr == "wfkit: error: nodir: -o/--output: directory does not exist\n"


def test_render_text_with_json_is_refused(run):
    for args in (("crossword", "--vocab", EXAMPLES / "tech.yaml"), ("kanji",)):
        result = run(*args, "--render", "text", "--json", "--seed", "1")
        assert result.exit_code == 2 and "ask for two formats" in result.stderr
