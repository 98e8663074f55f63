"""``wfkit pack build|check|merge``: reproducible bytes (any split into shards merges to the
single build), check mode, safe writes, config errors with file:line. Uses the fake "dice"
kind (test_pack_fake.py) so these tests do not depend on the engines; test_pack_engines.py
covers the real kinds, and test_jobs_same_bytes.py the same bytes for every --jobs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)

from wordforge_cli.pack.files import SHOW, excerpts, sha256_file

PACK = """\
name: dice-pack
seed: {seed}
sections:
  - name: big
    kind: dice
    count: {count}
    render: [text, svg]
    render_limit: 5
  - name: empty
    kind: dice
    count: 0
  - name: small
    kind: dice
    count: 7
    dice: 4
"""


def write_config(tmp_path: Path, seed: int = 7, count: int = 1300, name: str = "pack.yaml",
                 text: str | None = None) -> Path:
    path = tmp_path / name
    path.write_text(text if text is not None else PACK.format(seed=seed, count=count),
                    encoding="utf-8")
    return path


def tree(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (hidden ones too) with its bytes."""
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def verify(directory: Path) -> dict:
    """The directory is a complete pack: every file the manifest lists, with its sha256."""
    manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        assert sha256_file(directory / entry["path"]) == entry["sha256"], entry["path"]
    return manifest


@pytest.fixture
def built(tmp_path, run):
    config = write_config(tmp_path)
    out = tmp_path / "out"
    result = run("pack", "build", config, "--out", out, "--jobs", "1")
    assert result.exit_code == 0, result.output
    return config, out


def test_build_writes_sections_renders_and_manifest(built):
    config, out = built
    files = tree(out)
    assert set(files) == {"big.jsonl", "big.txt", "empty.jsonl", "small.jsonl", "manifest.json",
                          *(f"big/{i:06d}.svg" for i in range(5) if b'"id":%d,' % i in
                            files["big.jsonl"])}
    manifest = verify(out)
    assert manifest["seed"] == 7 and manifest["format"] == "wfkit-pack/1"
    assert manifest["config"]["sha256"] == sha256_file(config)
    from wordforge_cli.io.dataversion import data_version

    assert manifest["data_version"] == data_version()  # data rebuilt -> the pack is stale
    big = manifest["sections"][0]
    records = files["big.jsonl"].decode().splitlines()
    assert big["records"] == len(records) == big["stats"]["made"]
    assert big["stats"]["made"] + big["stats"]["failed"] == 1300
    assert [json.loads(line)["id"] for line in records] == sorted(json.loads(r)["id"]
                                                                  for r in records)
    assert files["empty.jsonl"] == b""
    assert {e["path"] for e in manifest["files"]} == set(files) - {"manifest.json"}


def test_rebuild_is_byte_identical_and_a_new_seed_is_not(tmp_path, run, built):
    config, out = built
    before = tree(out)
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert tree(out) == before
    write_config(tmp_path, seed=8)
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert tree(out)["big.jsonl"] != before["big.jsonl"]


def test_check_passes_on_a_fresh_pack(run, built):
    config, out = built
    result = run("pack", "check", config, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""


def test_check_fails_naming_the_file_after_any_byte_changes(run, built):
    config, out = built
    for relpath, data in tree(out).items():
        for position in sorted({0, len(data) // 2, max(len(data) - 1, 0), len(data)}):
            changed = bytearray(data)
            if position == len(data):
                changed.append(0x0A)  # a byte added at the end
            else:
                changed[position] = (changed[position] + 1) % 256
            (out / relpath).write_bytes(bytes(changed))
            result = run("pack", "check", config, "--out", out)
            assert result.exit_code == 1, (relpath, position)
            assert f"stale: {out}/{relpath}" in result.stdout, (relpath, result.stdout)
            (out / relpath).write_bytes(data)
    assert run("pack", "check", config, "--out", out).exit_code == 0


def test_check_reports_counts_first_difference_missing_and_unexpected(run, built):
    config, out = built
    lines = (out / "big.jsonl").read_text().splitlines(keepends=True)
    (out / "big.jsonl").write_text("".join(lines[:-1]))  # a record lost
    (out / "small.jsonl").unlink()
    (out / "stray.jsonl").write_text("{}\n")
    (out / ".gitkeep").write_text("")  # hidden files are not pack files
    result = run("pack", "check", config, "--out", out, "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["current"] is False
    assert report["missing"] == ["small.jsonl"]
    assert report["unexpected"] == ["stray.jsonl"]
    stale = {s["path"]: s["detail"] for s in report["stale"]}
    assert set(stale) == {"big.jsonl"}
    n = len(lines)
    assert f"records: expected {n}, found {n - 1}; first difference at line {n}:" in \
        stale["big.jsonl"]
    assert "(end of file)" in stale["big.jsonl"]


def test_check_of_a_missing_directory_says_so_in_one_line(tmp_path, run):
    config = write_config(tmp_path)
    result = run("pack", "check", config, "--out", tmp_path / "nothing")
    assert result.exit_code == 1
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1  # not a line per file
    assert "nothing: no pack there (no such directory)" in result.stderr
    assert "wfkit pack build" in result.stderr  # what to do about it
    assert not (tmp_path / "nothing").exists()


def test_refuses_a_non_pack_directory_and_keeps_your_files_with_force(tmp_path, run):
    config = write_config(tmp_path)
    out = tmp_path / "mine"
    (out / "notes").mkdir(parents=True)
    (out / "notes" / "todo.md").write_text("keep me")
    (out / "big.jsonl").write_text("my own file with a pack file's name\n")
    result = run("pack", "build", config, "--out", out)
    assert result.exit_code == 2
    assert "not a wfkit pack" in result.stderr and "--force" in result.stderr
    assert (out / "big.jsonl").read_text().startswith("my own")
    assert run("pack", "build", config, "--out", out, "--force").exit_code == 2  # name clash
    (out / "big.jsonl").unlink()
    result = run("pack", "build", config, "--out", out, "--force")
    assert result.exit_code == 0, result.output
    assert (out / "notes" / "todo.md").read_text() == "keep me"
    verify(out)
    # a rebuild with another config keeps them too, and drops only what wfkit wrote
    config.write_text(PACK.format(seed=1, count=10).split("  - name: empty")[0])
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert (out / "notes" / "todo.md").read_text() == "keep me"
    assert not (out / "small.jsonl").exists()
    assert sorted(os.listdir(tmp_path)) == ["mine", "pack.yaml"]  # no staging left behind


def test_never_deletes_a_file_it_did_not_write(tmp_path, run, built):
    config, out = built
    (out / "readme.txt").write_text("mine")
    (out / "big").joinpath("extra.svg").write_text("<svg/>")
    os.symlink("readme.txt", out / "link")
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert (out / "readme.txt").read_text() == "mine"
    assert (out / "big" / "extra.svg").read_text() == "<svg/>"
    assert os.readlink(out / "link") == "readme.txt"
    result = run("pack", "check", config, "--out", out)
    assert result.exit_code == 1
    assert sorted(line for line in result.stdout.splitlines()) == sorted(
        f"unexpected: {out}/{p}" for p in ("big/extra.svg", "link", "readme.txt"))


def test_the_fallback_swap_gives_the_same_pack(tmp_path, run, built, monkeypatch):
    config, out = built
    before = tree(out)
    (out / "mine.txt").write_text("x")
    from wordforge_cli.pack import store

    monkeypatch.setattr(store, "exchange_supported", False)
    write_config(tmp_path, seed=9)
    assert run("pack", "build", config, "--out", out).exit_code == 0
    verify(out)
    assert tree(out)["big.jsonl"] != before["big.jsonl"]
    assert (out / "mine.txt").read_text() == "x"
    assert sorted(os.listdir(tmp_path)) == ["out", "pack.yaml"]


@pytest.mark.parametrize(("text", "line", "message"), [
    ("seed: 1\nsectons: []\n", 2, "unknown key 'sectons' (did you mean 'sections'?)"),
    ("name: x\nsections:\n  - {name: a, kind: dice, count: 1}\n", 1, "no 'seed'"),
    ("seed: x\nsections: []\n", 1, "'seed' must be a whole number"),
    ("seed: 1\nsections: []\n", 2, "'sections' must be a non-empty list"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dise\n    count: 1\n", 4,
     "unknown section kind 'dise' (did you mean 'dice'?)"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dice\n    count: 1\n    sidez: 3\n", 6,
     "unknown key 'sidez' (did you mean 'sides'?)"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dice\n    count: -1\n", 5,
     "sections[0].count: -1 is not in the range 0<=x<=1000000000"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dice\n", 3, "'count' is required"),
    ("seed: 1\nsections:\n  - name: A b\n    kind: dice\n    count: 1\n", 3,
     "section 'name' must be lower-case"),
    ("seed: 1\nsections:\n  - {name: a, kind: dice, count: 1}\n"
     "  - {name: a, kind: dice, count: 1}\n", 4, "'a' is used twice"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dice\n    count: 1\n    table: no.txt\n", 6,
     "dice table not found: no.txt"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dice\n    count: 1\n    impossible: true\n", 6,
     "can never succeed"),
    ("seed: 1\nsections:\n  - name: a\n    kind: dice\n    count: 1\n    render: [pdf]\n", 6,
     "cannot render 'pdf'"),
    ("seed: 1\nsections: [\n", 3, "YAML syntax error"),
])
def test_bad_configs_fail_before_anything_is_written(tmp_path, run, text, line, message):
    config = write_config(tmp_path, text=text)
    for args in (("build", config, "--out", tmp_path / "out"),
                 ("check", config, "--out", tmp_path / "out"),
                 ("merge", config, tmp_path, "--out", tmp_path / "out")):
        result = run("pack", *args)
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"wfkit: error: {config}:{line}: "), result.stderr
        assert message in result.stderr
        assert "Traceback" not in result.stderr
        assert sorted(os.listdir(tmp_path)) == ["pack.yaml"]


def test_merge_refuses_incomplete_or_foreign_or_tampered_shards(tmp_path, run):
    config = write_config(tmp_path)
    shards = []
    for i in (1, 2):
        shards.append(tmp_path / f"s{i}")
        assert run("pack", "build", config, "--out", shards[-1], "--shard", f"{i}/2").exit_code == 0
    whole = tmp_path / "whole"
    assert run("pack", "build", config, "--out", whole).exit_code == 0
    out = tmp_path / "m"
    result = run("pack", "merge", config, shards[0], "--out", out)
    assert result.exit_code == 2 and "missing shard(s) 2" in result.stderr
    result = run("pack", "merge", config, shards[0], shards[0], "--out", out)
    assert result.exit_code == 2 and "given twice" in result.stderr
    result = run("pack", "merge", config, shards[0], whole, "--out", out)
    assert result.exit_code == 2 and "not a shard" in result.stderr
    other = write_config(tmp_path, seed=99, name="other.yaml")
    result = run("pack", "merge", other, *shards, "--out", out)
    assert result.exit_code == 2 and "another config" in result.stderr
    with (shards[1] / "big.jsonl").open("a") as fh:
        fh.write("{}\n")
    result = run("pack", "merge", config, *shards, "--out", out)
    assert result.exit_code == 1 and "big.jsonl" in result.stderr and "sha256" in result.stderr
    assert not out.exists()


def test_shard_option_is_checked(tmp_path, run):
    config = write_config(tmp_path)
    for bad in ("0/3", "4/3", "x", "1/0"):
        result = run("pack", "build", config, "--out", tmp_path / "o", "--shard", bad)
        assert result.exit_code == 2 and "I/N" in result.stderr, bad


def test_build_json_summary(tmp_path, run):
    config = write_config(tmp_path, count=20)
    result = run("pack", "build", config, "--out", tmp_path / "o", "--json")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["section"] for r in rows] == ["big", "empty", "small"]
    assert rows[0]["records"] == rows[0]["stats"]["made"]


def test_a_second_build_is_refused_while_one_is_writing(tmp_path, run, built):
    import fcntl

    config, out = built
    before = tree(out)
    lock = tmp_path / ".out.wfkit-lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # as a live build holds it
        result = run("pack", "build", config, "--out", out)
        assert result.exit_code == 1 and "another wfkit build" in result.stderr
        assert result.stderr.count("\n") == 1
    finally:
        os.close(fd)
    assert run("pack", "build", config, "--out", out).exit_code == 0  # its owner is gone
    assert tree(out) == before
    assert sorted(os.listdir(tmp_path)) == ["out", "pack.yaml"]


def test_any_changed_byte_of_any_file_is_caught(tmp_path_factory):
    """Property: whichever file, position and new byte, check fails and names that file."""
    from click.testing import CliRunner
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from wordforge_cli.cli import cli

    root = tmp_path_factory.mktemp("anybyte")
    config = write_config(root, count=600)
    out = root / "out"
    runner = CliRunner()
    assert runner.invoke(cli, ["pack", "build", str(config), "--out", str(out)]).exit_code == 0
    files = tree(out)
    names = sorted(name for name, data in files.items() if data)

    @settings(max_examples=40, deadline=None)
    @given(st.sampled_from(names), st.floats(0, 1, exclude_max=True), st.integers(1, 255))
    def change(name: str, where: float, delta: int) -> None:
        data = files[name]
        position = int(where * len(data))
        changed = bytearray(data)
        changed[position] = (changed[position] + delta) % 256
        (out / name).write_bytes(bytes(changed))
        try:
            result = runner.invoke(cli, ["pack", "check", str(config), "--out", str(out)])
        finally:
            (out / name).write_bytes(data)
        assert result.exit_code == 1
        assert f"stale: {out}/{name} " in result.stdout + " ", result.stdout

    change()


def test_a_symlinked_out_directory_stays_a_symlink(tmp_path, run):
    config = write_config(tmp_path, count=50)
    real = tmp_path / "real"
    assert run("pack", "build", config, "--out", real).exit_code == 0
    link = tmp_path / "link"
    link.symlink_to("real")
    write_config(tmp_path, seed=3, count=50)
    assert run("pack", "build", config, "--out", link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "real"
    assert verify(real)["seed"] == 3
    assert run("pack", "check", config, "--out", link).exit_code == 0


def test_any_split_into_shards_merges_to_the_single_build(tmp_path_factory):
    """Property: for any section sizes and any N, N shards merged = one build, byte for byte."""
    from click.testing import CliRunner
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from wordforge_cli.cli import cli

    runner = CliRunner()

    @settings(max_examples=8, deadline=None)
    @given(st.lists(st.integers(0, 1200), min_size=1, max_size=3), st.integers(1, 5),
           st.integers(0, 2**31))
    def split(counts: list[int], n: int, seed: int) -> None:
        root = tmp_path_factory.mktemp("split")
        sections = "".join(f"  - {{name: s{i}, kind: dice, count: {c}, render: [text, svg], "
                           f"render_limit: 300}}\n" for i, c in enumerate(counts))
        config = write_config(root, text=f"seed: {seed}\nsections:\n{sections}")

        def wfkit(*args) -> None:
            result = runner.invoke(cli, ["pack", *map(str, args)])
            assert result.exit_code == 0, result.output

        wfkit("build", config, "--out", root / "one", "--jobs", "1")
        shards = [root / f"shard{i}" for i in range(1, n + 1)]
        for i, shard in enumerate(shards, 1):
            wfkit("build", config, "--out", shard, "--shard", f"{i}/{n}", "--jobs", "2")
        wfkit("merge", config, *reversed(shards), "--out", root / "merged")
        assert tree(root / "merged") == tree(root / "one")

    split()


def test_a_stale_manifest_says_which_values_differ(run, built):
    config, out = built
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["sections"][0]["stats"]["made"] += 1
    manifest["files"][0]["sha256"] = "0" * 64
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    result = run("pack", "check", config, "--out", out)
    assert result.exit_code == 1
    line = next(x for x in result.stdout.splitlines() if "manifest.json" in x)
    first = manifest["files"][0]["path"]
    assert "sections[big].stats.made:" in line and f"files[{first}].sha256:" in line, line


def test_check_a_shard_with_its_shard_option(tmp_path, run):
    config = write_config(tmp_path)
    shard = tmp_path / "s2"
    assert run("pack", "build", config, "--out", shard, "--shard", "2/3").exit_code == 0
    assert run("pack", "check", config, "--out", shard, "--shard", "2/3").exit_code == 0
    assert run("pack", "check", config, "--out", shard, "--shard", "1/3").exit_code == 1
    assert run("pack", "check", config, "--out", shard).exit_code == 1
    page = tmp_path / "p.html"
    assert run("pack", "preview", shard, "-o", page).exit_code == 0
    assert "shard 2/3" in page.read_text(encoding="utf-8")


def test_check_excerpts_are_centred_on_the_first_difference():
    record = {"id": 7, "cells": [{"x": i, "y": i, "c": "ア", "n": -2} for i in range(40)],
              "style": "tail", "attempts": 1}
    expected = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    record["cells"][25]["n"] = -1
    actual = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    want, got, column = excerpts(expected, actual)
    text = expected.decode()
    assert column - 1 == next(i for i, (a, b) in enumerate(zip(text, actual.decode(),
                                                                strict=False)) if a != b)
    assert column > 2 * SHOW  # far past what a head-of-line excerpt shows
    assert want != got and want.startswith("...") and want.endswith("...")
    assert '"n": -2' in want and '"n": -1' in got
    assert len(want) <= SHOW + 10
    # short lines and a file that ends early
    assert excerpts(b'{"a":1}\n', b'{"a":2}\n') == ("'{\"a\":1}'", "'{\"a\":2}'", 6)
    assert excerpts(b'{"a":1}\n', b"")[1] == "(end of file)"
