"""Packs, shards and journals crafted by an attacker (issue 10): every attack file is made
here, in tmp, and each must be refused with one line (exit 1 or 2) or handled safely, with
nothing outside ``--out`` written, deleted or widened. Uses the fake "dice" kind.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)
from test_pack import tree, verify, write_config

from wordforge_cli.pack.files import sha256_file


def snapshot(root: Path, skip: Path | None = None) -> dict[str, tuple]:
    """Bytes (or link target) and mode of everything under ``root`` except ``skip``."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if skip is not None and (here == skip or skip in here.parents):
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            path = here / name
            if skip is not None and path == skip:
                continue
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                body = os.readlink(path)
            elif stat.S_ISREG(st.st_mode):
                body = path.read_bytes()
            else:
                body = None
            found[path.relative_to(root).as_posix()] = (body, stat.S_IMODE(st.st_mode))
    return found


def one_line_error(result, code: int, *needles: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.stderr, result.stdout)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("wfkit: error: "), \
        result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr


@pytest.fixture
def shards(tmp_path, run):
    config = write_config(tmp_path, count=600)
    dirs = []
    for i in (1, 2):
        dirs.append(tmp_path / f"s{i}")
        assert run("pack", "build", config, "--out", dirs[-1], "--shard", f"{i}/2",
                   "--jobs", "1").exit_code == 0
    return config, dirs


def edit_manifest(directory: Path, change) -> None:
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest, indent=2))


# --- case 1: pack merge writes outside --out ------------------------------------------------

@pytest.mark.parametrize("relpath", [
    "big/../../victim/important.txt", "/tmp/../{victim}/important.txt", "big/./000001.svg",
    "big//000001.svg", "big/000001.svg\n", "big/\x1b[31m.svg", "big/000001.txt/..",
])
def test_merge_never_writes_a_path_outside_the_pack(tmp_path, run, shards, relpath):
    config, dirs = shards
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "important.txt").write_text("precious")
    payload = dirs[1] / "payload.svg"
    payload.write_text("<svg>owned</svg>")
    relpath = relpath.format(victim=victim)
    edit_manifest(dirs[1], lambda m: m["files"].append(
        {"path": relpath, "sha256": sha256_file(payload), "bytes": payload.stat().st_size,
         "lines": 0}))
    before = snapshot(tmp_path)
    result = run("pack", "merge", config, *dirs, "--out", tmp_path / "merged")
    one_line_error(result, 2, "files[", ".path")
    assert snapshot(tmp_path) == before
    assert (victim / "important.txt").read_text() == "precious"


def test_merge_refuses_a_shard_file_that_is_a_link_out_of_the_shard(tmp_path, run, shards):
    config, dirs = shards
    outside = tmp_path / "outside.svg"
    renders = sorted((dirs[0] / "big").glob("*.svg"))
    victim = renders[0]
    outside.write_bytes(victim.read_bytes())  # the same bytes: the hash would match
    victim.unlink()
    victim.symlink_to(outside)
    before = snapshot(tmp_path)
    result = run("pack", "merge", config, *dirs, "--out", tmp_path / "merged")
    one_line_error(result, 2, "symbolic link")
    assert snapshot(tmp_path) == before


def test_merged_hashes_come_from_the_bytes_not_the_shard_claims(tmp_path, run, shards):
    config, dirs = shards
    out = tmp_path / "merged"
    assert run("pack", "merge", config, *dirs, "--out", out).exit_code == 0
    manifest = verify(out)  # every hash recomputed from the merged bytes
    whole = tmp_path / "whole"
    assert run("pack", "build", config, "--out", whole).exit_code == 0
    assert tree(out) == tree(whole)
    assert manifest == json.loads((whole / "manifest.json").read_text())


# --- case 2: the journal beside --out ---------------------------------------------------------

@pytest.fixture
def built(tmp_path, run):
    config = write_config(tmp_path, count=300)
    out = tmp_path / "out"
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    (tmp_path / "vocab.yaml").write_text("words: [mine]\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("keep me")
    return config, out


def journal_of(out: Path) -> Path:
    return out.parent / f".{out.name}.wfkit-journal"


@pytest.mark.parametrize("staging", [
    "", ".", "..", "/", "{root}/notes", "notes", "../notes", ".out.wfkit-0123456789ab/..",
    ".out.wfkit-0123456789ab\n", ".other.wfkit-0123456789ab", None, 5, [".out"],
])
def test_a_forged_journal_deletes_nothing(tmp_path, run, built, staging):
    config, out = built
    if isinstance(staging, str):
        staging = staging.format(root=tmp_path)
    journal_of(out).write_text(json.dumps({
        "format": "wfkit-journal/1", "staging": staging, "token": "0123456789ab" + "0" * 20,
        "device": os.stat(tmp_path).st_dev, "inode": None, "old_inode": None}))
    before = snapshot(tmp_path)
    result = run("pack", "build", config, "--out", out)
    one_line_error(result, 2, ".wfkit-journal", "nothing was deleted")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("text", [
    "", "{", "[]", '"x"', '{"staging": ""}', "\ufeff{}", "{" * 100000, "x" * 10000,
])
def test_a_malformed_journal_is_one_error_and_deletes_nothing(tmp_path, run, built, text):
    config, out = built
    journal_of(out).write_text(text)
    before = snapshot(tmp_path)
    result = run("pack", "build", config, "--out", out)
    one_line_error(result, 2, ".wfkit-journal")
    assert snapshot(tmp_path) == before


def test_a_journal_naming_a_real_looking_staging_dir_without_our_marker(tmp_path, run, built):
    """A directory with wfkit's name pattern but without the journal's token is not ours."""
    config, out = built
    token = "a1b2c3d4e5f6" + "0" * 20
    lookalike = tmp_path / ".out.wfkit-a1b2c3d4e5f6"
    lookalike.mkdir()
    (lookalike / "yours.txt").write_text("not wfkit's")
    (lookalike / ".wfkit-staging").write_text("f" * 32)  # another token
    journal_of(out).write_text(json.dumps({
        "format": "wfkit-journal/1", "staging": lookalike.name, "token": token,
        "device": os.stat(tmp_path).st_dev, "inode": lookalike.stat().st_ino,
        "old_inode": None}))
    before = snapshot(tmp_path)
    result = run("pack", "build", config, "--out", out)
    one_line_error(result, 2, "no matching marker", "nothing was deleted")
    assert snapshot(tmp_path) == before


def test_a_journal_and_staging_of_a_killed_build_are_tidied(tmp_path, run, built):
    """The genuine article: the marker holds the token, so the staging directory goes."""
    config, out = built
    before = tree(out)
    token = "00aa11bb22cc" + "3" * 20
    staging = tmp_path / f".out.wfkit-{token[:12]}"
    staging.mkdir()
    (staging / ".wfkit-staging").write_text(token)
    (staging / "big.jsonl").write_text("half")
    journal_of(out).write_text(json.dumps({
        "format": "wfkit-journal/1", "staging": staging.name, "token": token,
        "device": os.stat(tmp_path).st_dev, "inode": staging.stat().st_ino,
        "old_inode": out.stat().st_ino}))
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert tree(out) == before
    assert sorted(os.listdir(tmp_path)) == ["notes", "out", "pack.yaml", "vocab.yaml"]


def test_a_journal_that_is_a_fifo_or_a_link_is_refused(tmp_path, run, built):
    config, out = built
    os.mkfifo(journal_of(out))
    one_line_error(run("pack", "build", config, "--out", out), 2, "not a regular file")
    journal_of(out).unlink()
    journal_of(out).symlink_to(tmp_path / "vocab.yaml")
    before = snapshot(tmp_path)
    one_line_error(run("pack", "build", config, "--out", out), 2, "symbolic link")
    assert snapshot(tmp_path) == before


# --- case 4: a tampered old manifest ----------------------------------------------------------

def test_an_old_manifest_listing_a_user_file_deletes_nothing(tmp_path, run, built):
    config, out = built
    (out / "notes.txt").write_text("mine")
    edit_manifest(out, lambda m: m["files"].append(
        {"path": "notes.txt", "sha256": sha256_file(out / "notes.txt"), "bytes": 4,
         "lines": 0}))
    before = snapshot(tmp_path)
    result = run("pack", "build", config, "--out", out)
    one_line_error(result, 2, "manifest.json", "files[", "notes.txt")
    assert snapshot(tmp_path) == before


def test_an_old_manifest_claiming_a_section_for_a_user_file(tmp_path, run, built):
    """A section 'notes' invented in the manifest does not make notes.txt wfkit's unless
    its bytes are exactly the ones recorded; a file whose bytes changed is kept."""
    config, out = built

    def add(m):
        m["sections"].append({**m["sections"][-1], "name": "notes", "file": "notes.jsonl"})
        m["files"] += [{"path": "notes.jsonl", "sha256": "0" * 64, "bytes": 1, "lines": 0},
                       {"path": "notes.txt", "sha256": "0" * 64, "bytes": 4, "lines": 0}]

    (out / "notes.txt").write_text("mine")
    (out / "notes.jsonl").write_text("x")
    edit_manifest(out, add)
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert (out / "notes.txt").read_text() == "mine" and (out / "notes.jsonl").read_text() == "x"
    verify(out)


def test_an_edited_pack_file_of_a_removed_section_is_kept(tmp_path, run, built):
    config, out = built
    (out / "small.jsonl").write_text("edited by hand\n")
    text = config.read_text()
    config.write_text(text[:text.index("  - name: small")])
    result = run("pack", "build", config, "--out", out)
    assert result.exit_code == 0, result.stderr
    assert (out / "small.jsonl").read_text() == "edited by hand\n"
    text = config.read_text()
    config.write_text(text[:text.index("  - name: empty")])
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert not (out / "empty.jsonl").exists()  # unchanged since wfkit wrote it: removed
    assert (out / "small.jsonl").read_text() == "edited by hand\n"


def test_an_edited_pack_file_at_a_path_the_build_writes_stops_it(tmp_path, run, built):
    config, out = built
    (out / "big.jsonl").write_text("edited by hand\n")
    before = snapshot(tmp_path)
    one_line_error(run("pack", "build", config, "--out", out), 2, "big.jsonl", "changed since")
    assert snapshot(tmp_path) == before


# --- case 5: permissions ----------------------------------------------------------------------

def test_a_rebuild_keeps_folder_and_file_modes(tmp_path, run, built):
    config, out = built
    os.chmod(out / "big", 0o700)
    os.chmod(out / "big.jsonl", 0o600)
    (out / "private").mkdir(mode=0o700)
    os.chmod(out / "private", 0o700)
    (out / "private" / "key.txt").write_text("k")
    os.chmod(out / "private" / "key.txt", 0o400)
    os.chmod(out, 0o750)
    write_config(tmp_path, seed=8, count=300)
    assert run("pack", "build", config, "--out", out).exit_code == 0
    mode = lambda p: stat.S_IMODE(os.lstat(p).st_mode)  # noqa: E731
    assert mode(out) == 0o750
    assert mode(out / "big") == 0o700
    assert mode(out / "big.jsonl") == 0o600
    assert mode(out / "private") == 0o700
    assert mode(out / "private" / "key.txt") == 0o400
    umask = os.umask(0)
    os.umask(umask)
    assert mode(out / "small.jsonl") == 0o666 & ~umask
