"""``-o`` (or ``--stats``) naming one of the command's inputs is refused before any work, by
whatever name it reaches the input: the same path, a hard link, a symbolic link to it, a
path through a linked folder, or a file inside an input folder (``pack preview -o
pack/manifest.json``). One line, exit 2, and the input keeps its bytes.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)
from conftest import CONFIGS, EXAMPLES
from test_pack import write_config
from wordforge_tables import write_table

HOW = ["same", "hard link", "symlink", "linked folder"]


def named(path: Path, how: str, tmp: Path) -> Path:
    """Another name of ``path`` (a file), made ``how``."""
    if how == "same":
        return path
    if how == "hard link":
        other = tmp / f"hard-{path.name}"
        os.link(path, other)
        return other
    if how == "symlink":
        other = tmp / f"soft-{path.name}"
        other.symlink_to(path)
        return other
    folder = tmp / "folder-link"
    if not folder.exists():
        folder.symlink_to(path.parent, target_is_directory=True)
    return folder / path.name


def refused(result, option: str, source: str) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert result.stderr.count("\n") == 1, result.stderr
    shown = "-o/--output" if option == "-o" else option
    assert f"{shown}: is an input too ({source})" in result.stderr, result.stderr


def copy(src: Path, dest: Path) -> Path:
    shutil.copy(src, dest)
    return dest


# command -> (its argv with {in} where the input goes, the input's option, the input made)
INPUTS = {
    "crossword --vocab": (["crossword", "--vocab", "{in}", "-n", "1"], "--vocab",
                          lambda d: copy(EXAMPLES / "tech.yaml", d / "v.yaml")),
    "crossword --config": (["crossword", "--config", "{in}", "--vocab",
                            str(EXAMPLES / "tech.yaml"), "-n", "1"], "--config",
                           lambda d: copy(CONFIGS / "crossword.yaml", d / "c.yaml")),
    "rarity --data": (["rarity", "--data", "{in}", "cat"], "--data", write_table),
    "rarity --cefr": (["rarity", "--cefr", "{in}", "cat"], "--cefr",
                      lambda d: (d / "cefr.yaml").write_text("cat: A1\n") and d / "cefr.yaml"),
    "kanji --dict": (["kanji", "--dict", "{in}", "--base", "3", "--bring", "10", "-n", "1"],
                     "--dict", lambda d: copy(EXAMPLES / "kanji-weather.txt", d / "d.txt")),
    "kanji --config": (["kanji", "--config", "{in}", "-n", "1"], "--config",
                       lambda d: copy(CONFIGS / "kanji.yaml", d / "k.yaml")),
    "balance --config": (["balance", "--config", "{in}", "-n", "2"], "--config",
                         lambda d: copy(CONFIGS / "rarity.yaml", d / "r.yaml")),
}


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize(("case", "option"), [
    (case, option) for case in sorted(INPUTS) for option in ("-o", "--stats")
    if not (case == "balance --config" and option == "--stats")])  # (balance has no --stats)
def test_an_output_onto_any_input_is_refused(run, tmp_path, case, option, how):
    argv, source, make = INPUTS[case]
    (tmp_path / "in").mkdir()
    path = make(tmp_path / "in")
    before = path.read_bytes()
    target = named(path, how, tmp_path)
    args = [str(path) if a == "{in}" else a for a in argv]
    refused(run(*args, option, target), option, source)
    assert path.read_bytes() == before and not path.is_symlink()


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    root = tmp_path_factory.mktemp("pack")
    config = write_config(root, count=20)
    result = CliRunner().invoke(cli, ["pack", "build", str(config), "--out", str(root / "p")])
    assert result.exit_code == 0, result.output
    return root / "p"


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("file", ["manifest.json", "big.jsonl"])
def test_preview_onto_its_own_pack_files_by_any_name_is_refused(run, tmp_path, pack, how,
                                                              file):
    mine = tmp_path / "p"
    shutil.copytree(pack, mine)
    before = files(mine)
    target = named(mine / file, how, tmp_path)
    refused(run("pack", "preview", mine, "-o", target), "-o", "DIRECTORY")
    assert files(mine) == before
    assert json.loads((mine / "manifest.json").read_text())["format"].startswith("wfkit-pack/")


@pytest.mark.parametrize("fmt", ["json", "sqlite"])
def test_export_onto_its_own_pack_files_is_refused(run, tmp_path, pack, fmt):
    mine = tmp_path / "p"
    shutil.copytree(pack, mine)
    before = (mine / "manifest.json").read_bytes()
    refused(run("pack", "export", mine, "--format", fmt, "-o", mine / "manifest.json"), "-o",
            "DIRECTORY")
    assert (mine / "manifest.json").read_bytes() == before
