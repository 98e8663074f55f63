"""All-or-nothing runs: a command's outputs (``-o`` and ``--stats``) replaced together or
not at all, no output that is one of the inputs, no file written where a folder was named,
and a pack section's vocabulary that is a FIFO or a folder named as what it is.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES

from wordforge_cli.io import output


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("command", [
    ["crossword", "--vocab", str(EXAMPLES / "tech.yaml"), "-n", "3", "--seed", "1"],
    ["rarity", "--vocab", str(EXAMPLES / "words.yaml"), "--json"],
    ["kanji", "-n", "1", "--seed", "1"],
])
def test_a_full_disk_on_stats_leaves_the_output_as_it_was(tmp_path, run, monkeypatch,
                                                          command):
    out, stats = tmp_path / "out.jsonl", tmp_path / "stats.json"
    out.write_text("the previous run\n")
    stats.write_text("{}\n")
    real = output._keep_mode
    calls = []

    def full_at_the_second_file(fd, info):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, info)

    monkeypatch.setattr(output, "_keep_mode", full_at_the_second_file)
    result = run(*command, "-o", out, "--stats", stats)
    assert len(calls) == 2
    assert result.exit_code == 1, result.stderr
    assert "no space left on device" in result.stderr
    assert out.read_text() == "the previous run\n" and stats.read_text() == "{}\n"
    assert leftovers(tmp_path) == []
    monkeypatch.undo()
    assert run(*command, "-o", out, "--stats", stats).exit_code == 0  # and both replaced
    assert out.read_text() != "the previous run\n" and stats.read_text() != "{}\n"


def test_an_output_replaced_together_keeps_exit_1_runs(tmp_path, run):
    """A run that exits 1 after writing (a board out of budget) still writes its files."""
    out, stats = tmp_path / "out.jsonl", tmp_path / "stats.json"
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "20", "--seed", "1",
                 "--budget", "1", "-o", out, "--stats", stats)
    assert result.exit_code in (0, 1), result.stderr
    assert out.exists() and stats.exists()


@pytest.mark.parametrize("how", ["same", "hard link", "symlink"])
def test_an_output_that_is_an_input_is_refused(tmp_path, run, how):
    vocab = tmp_path / "x.yaml"
    shutil.copy(EXAMPLES / "words.yaml", vocab)
    before = vocab.read_bytes()
    target = vocab
    if how == "hard link":
        target = tmp_path / "y.yaml"
        os.link(vocab, target)
    elif how == "symlink":
        target = tmp_path / "y.yaml"
        target.symlink_to(vocab)
    for command in (["rarity", "--vocab", vocab], ["crossword", "--vocab", vocab]):
        result = run(*command, "-o", target)
        assert result.exit_code == 2, result.stderr
        assert "is an input too (--vocab)" in result.stderr and result.stderr.count("\n") == 1
        assert vocab.read_bytes() == before


def test_preview_into_its_own_pack_files_is_refused(tmp_path, run):
    import test_pack_fake  # noqa: F401  (registers the dice kind)
    from test_pack import write_config

    config = write_config(tmp_path, count=20)
    pack = tmp_path / "pack"
    assert run("pack", "build", config, "--out", pack).exit_code == 0
    manifest = (pack / "manifest.json").read_bytes()
    result = run("pack", "preview", pack, "-o", pack / "manifest.json")
    assert result.exit_code == 2 and "is an input too" in result.stderr, result.stderr
    assert (pack / "manifest.json").read_bytes() == manifest
    assert run("pack", "preview", pack, "-o", tmp_path / "page.html").exit_code == 0


@pytest.mark.parametrize("option", ["-o", "--stats"])
def test_an_output_named_as_a_folder_is_refused(tmp_path, run, option):
    result = run("rarity", "--vocab", EXAMPLES / "words.yaml", option,
                 f"{tmp_path}/newfile/")
    assert result.exit_code == 2 and "names a folder" in result.stderr, result.stderr
    assert sorted(os.listdir(tmp_path)) == []


@pytest.mark.parametrize("kind", ["FIFO", "directory"])
def test_a_pack_vocab_that_is_a_fifo_or_a_folder_says_so(tmp_path, run, kind):
    vocab = tmp_path / "v.yaml"
    if kind == "FIFO":
        os.mkfifo(vocab)
    else:
        vocab.mkdir()
    config = tmp_path / "pack.yaml"
    config.write_text("seed: 1\nsections:\n  - name: b\n    kind: crossword\n    count: 1\n"
                      "    vocab: v.yaml\n")
    result = run("pack", "build", config, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.stderr
    assert f"vocabulary file is a {kind}, not a regular file" in result.stderr
    assert "not found" not in result.stderr and not (tmp_path / "out").exists()
