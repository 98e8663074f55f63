"""Packs, shards and journals crafted by an attacker: every attack file is made
here, in tmp, and each must be refused with one line (exit 1 or 2) or handled safely, with
nothing outside ``--out`` written, deleted or widened. Uses the fake "dice" kind.
"""

from __future__ import annotations

import json
import os
import shutil
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
            elif stat.S_ISREG(st.st_mode) and st.st_size > 1 << 20:  # a big sparse file
                body = (st.st_size, st.st_mtime_ns, st.st_ino)
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


@pytest.fixture(scope="module")
def built_once(tmp_path_factory):
    """Two shards (600 items) and a whole pack (300 items), built once per module; each
    test works on copies (the attacks change them)."""
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    root = tmp_path_factory.mktemp("built")
    (root / "shards").mkdir()
    (root / "whole").mkdir()
    sharded = write_config(root / "shards", count=600)
    runs = [(sharded, "s1", ["--shard", "1/2"]), (sharded, "s2", ["--shard", "2/2"]),
            (write_config(root / "whole", count=300), "out", [])]
    for cfg, name, extra in runs:
        result = CliRunner().invoke(cli, ["pack", "build", str(cfg), "--out",
                                          str(cfg.parent / name), "--jobs", "1", *extra])
        assert result.exit_code == 0, result.output
    return root


def _copy(source: Path, target: Path) -> None:
    for item in source.iterdir():
        if item.is_dir():
            shutil.copytree(item, target / item.name)
        else:
            shutil.copy2(item, target / item.name)


@pytest.fixture
def shards(tmp_path, built_once):
    _copy(built_once / "shards", tmp_path)
    return tmp_path / "pack.yaml", [tmp_path / "s1", tmp_path / "s2"]


def edit_manifest(directory: Path, change) -> None:
    path = directory / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest, indent=2))


# --- pack merge writes outside --out --------------------------------------------------------

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


# --- the journal beside --out -----------------------------------------------------------------

@pytest.fixture
def built(tmp_path, built_once):
    _copy(built_once / "whole", tmp_path)
    config, out = tmp_path / "pack.yaml", tmp_path / "out"
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


# --- a tampered old manifest ------------------------------------------------------------------

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


# --- permissions ------------------------------------------------------------------------------

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


# --- endless input in packs -------------------------------------------------------------------

def _big_sparse(path: Path, size: int = 10 << 30) -> Path:
    with path.open("wb") as fh:
        fh.truncate(size)  # 10 GiB that take no disk
    return path


def test_a_shard_file_linked_to_a_huge_file_is_refused(tmp_path, run, shards):
    config, dirs = shards
    huge = _big_sparse(tmp_path / "huge.bin")
    (dirs[1] / "big.jsonl").unlink()
    (dirs[1] / "big.jsonl").symlink_to(huge)
    result = run("pack", "merge", config, *dirs, "--out", tmp_path / "m")
    one_line_error(result, 2, "big.jsonl", "symbolic link")
    assert not (tmp_path / "m").exists()


def test_a_huge_shard_file_is_refused_before_it_is_read(tmp_path, run, shards):
    config, dirs = shards
    _big_sparse(dirs[1] / "big.jsonl")
    edit_manifest(dirs[1], lambda m: [f.update(bytes=10 << 30) for f in m["files"]
                                      if f["path"] == "big.jsonl"])
    result = run("pack", "merge", config, *dirs, "--out", tmp_path / "m")
    one_line_error(result, 2, "big.jsonl", "bytes; at most")
    assert not (tmp_path / "m").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("what", ["fifo", "directory", "link-to-fifo"])
def test_a_shard_file_that_is_not_a_regular_file(tmp_path, shards, what):
    """Run as a process with a timeout: a FIFO that were opened for reading would hang."""
    import subprocess
    import sys

    config, dirs = shards
    target = dirs[1] / "big.txt"
    target.unlink()
    if what == "fifo":
        os.mkfifo(target)
    elif what == "directory":
        target.mkdir()
    else:
        os.mkfifo(tmp_path / "pipe")
        target.symlink_to(tmp_path / "pipe")
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("test_pack_fake.py")), "pack", "merge",
         str(config), *map(str, dirs), "--out", str(tmp_path / "m")],
        capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "big.txt" in proc.stderr
    assert {"fifo": "is a FIFO", "directory": "is a directory",
            "link-to-fifo": "symbolic link"}[what] in proc.stderr
    assert "cannot write" not in proc.stderr  # it is a read that failed


# --- ten kinds of tampered shard manifest -----------------------------------------------------

def _set(path: str, value):
    """A mutation that sets ``path`` (dotted, with [i]) in a manifest to ``value``."""
    def change(m):
        keys = [int(k) if k.isdigit() else k for k in path.replace("[", ".").replace("]", "")
                .split(".")]
        target = m
        for key in keys[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    return change


_DELETE = object()
DEEP: object = 0
for _ in range(100):
    DEEP = [DEEP]

TAMPERED = {
    "records -5": (_set("sections[0].records", -5), "sections[0].records: must be a whole"),
    "records text": (_set("sections[0].records", "12"), "sections[0].records"),
    "records claim": (_set("sections[0].records", 3), "records is 3 but the file holds"),
    "shard index 0": (_set("shard.index", 0), "shard.index"),
    "shard count text": (_set("shard.count", "2"), "shard.count"),
    "chunks reversed": (_set("sections[0].chunks", [3, 1]), "sections[0].chunks[1]"),
    "chunks huge": (_set("sections[0].chunks", [0, 10**30]), "sections[0].chunks[1]"),
    "stats_state list": (_set("sections[0].stats_state", []), "sections[0].stats_state"),
    "stats_state wrong": (_set("sections[0].stats_state", {"made": "x"}),
                          "sections[0].stats_state"),
    "stats and state agree on junk": (
        lambda m: m["sections"][0].update(stats_state={**m["sections"][0]["stats_state"],
                                                       "made": "x"},
                                          stats={**m["sections"][0]["stats"], "made": "x"}),
        "sections[0].stats_state"),
    "stats_state deep": (_set("sections[0].stats_state", {"x": DEEP}), "nested deeper"),
    "files not a list": (_set("files", {}), "files: must be a list"),
    "file sha missing": (_set("files[0].sha256", _DELETE), "files[0]: 'sha256' is missing"),
    "file bytes -1": (_set("files[0].bytes", -1), "files[0].bytes"),
    "file sha upper": (_set("files[0].sha256", "A" * 64), "files[0].sha256"),
    "format 2": (_set("format", "wfkit-pack/2"), "format"),
    "sections object": (_set("sections", {}), "sections: must be a list"),
    "section name newline": (_set("sections[0].name", "big\n"), "sections[0].name"),
    "section twice": (lambda m: m["sections"].append(m["sections"][0]), "used twice"),
    "seed negative": (_set("seed", -1), "seed"),
    "name number": (_set("name", 5), "name: must be a string"),
    "config missing": (_set("config", _DELETE), "'config' is missing"),
    "unknown key": (_set("extra", 1), "extra: is not a manifest field"),
    "big int": (_set("sections[0].count", "__BIG__"), "manifest.json: not valid JSON"),
    "big int claim": (_set("sections[0].count", 10**30), "sections[0].count"),
    "render odd": (_set("sections[0].render", ["text", "text"]), "sections[0].render[1]"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_a_tampered_shard_manifest_is_one_clear_error(tmp_path, run, shards, name):
    config, dirs = shards
    change, needle = TAMPERED[name]
    path = dirs[1] / "manifest.json"
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest).replace('"__BIG__"', "9" * 5000))
    before = snapshot(tmp_path)
    result = run("pack", "merge", config, *dirs, "--out", tmp_path / "m")
    assert result.exit_code in (1, 2)
    one_line_error(result, result.exit_code, needle)
    assert snapshot(tmp_path) == before


def test_a_shard_manifest_with_a_byte_order_mark_merges(tmp_path, run, shards):
    config, dirs = shards
    path = dirs[1] / "manifest.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    result = run("pack", "merge", config, *dirs, "--out", tmp_path / "m")
    assert result.exit_code == 0, result.stderr
    verify(tmp_path / "m")


def test_two_shards_claiming_the_same_render(tmp_path, run, shards):
    config, dirs = shards
    renders = sorted((dirs[0] / "big").glob("*.svg"))
    (dirs[1] / "big").mkdir(exist_ok=True)
    copy = dirs[1] / "big" / renders[0].name
    copy.write_bytes(renders[0].read_bytes())
    edit_manifest(dirs[1], lambda m: m["files"].append(
        {"path": f"big/{renders[0].name}", "sha256": sha256_file(copy),
         "bytes": copy.stat().st_size, "lines": 0}))
    one_line_error(run("pack", "merge", config, *dirs, "--out", tmp_path / "m"), 2,
                   "both hold")


# --- names, odd places, races -----------------------------------------------------------------

def test_a_section_name_with_a_final_newline_is_refused(tmp_path, run):
    config = write_config(tmp_path, text='seed: 1\nsections:\n  - name: "abc\\n"\n'
                                         "    kind: dice\n    count: 1\n")
    one_line_error(run("pack", "build", config, "--out", tmp_path / "o"), 2, "'name'")
    assert not (tmp_path / "o").exists()


def test_an_out_name_too_long_for_the_files_beside_it(tmp_path, run):
    config = write_config(tmp_path, count=5)
    result = run("pack", "build", config, "--out", tmp_path / ("p" * 250))
    one_line_error(result, 2, "--out name is 250 bytes")
    assert sorted(os.listdir(tmp_path)) == ["pack.yaml"]


def test_an_out_inside_a_file_or_a_read_only_place(tmp_path, run, monkeypatch):
    import errno

    config = write_config(tmp_path, count=5)
    (tmp_path / "file").write_text("x")
    one_line_error(run("pack", "build", config, "--out", tmp_path / "file" / "o"), 1,
                   "cannot create the directory")

    def read_only(self, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "mkdir", read_only)
    one_line_error(run("pack", "build", config, "--out", tmp_path / "ro" / "o"), 1,
                   "read-only file system")
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["file", "pack.yaml"]


def test_out_at_a_mount_point_is_refused_and_a_failed_swap_leaves_nothing(tmp_path, run,
                                                                          built, monkeypatch):
    from wordforge_cli.core.errors import CannotDo
    from wordforge_cli.pack import store

    config, out = built
    before = tree(out)
    real = os.path.ismount
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == out or real(p))
    one_line_error(run("pack", "build", config, "--out", out), 2, "mount point")
    monkeypatch.undo()

    def busy(staging):
        raise CannotDo("cannot swap the new pack in: Device or resource busy", path=staging.out)

    monkeypatch.setattr(store, "_exchange", busy)
    write_config(tmp_path, seed=5, count=300)
    one_line_error(run("pack", "build", config, "--out", out), 1, "busy")
    assert tree(out) == before
    assert sorted(os.listdir(tmp_path)) == ["notes", "out", "pack.yaml", "vocab.yaml"]


def test_builds_started_together_never_share_files(tmp_path, run, built):
    import subprocess
    import sys

    config, out = built
    fake = str(Path(__file__).with_name("test_pack_fake.py"))
    for _ in range(2):
        procs = [subprocess.Popen([sys.executable, fake, "pack", "build", str(config),
                                   "--out", str(out), "--jobs", "1"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                 for _ in range(3)]
        results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
        for code, err in results:
            assert code == 0 or (code == 1 and "another wfkit build" in err), err
            assert err.count("\n") <= 1 and "Traceback" not in err
        assert any(code == 0 for code, _ in results)
        verify(out)
        assert sorted(os.listdir(tmp_path)) == ["notes", "out", "pack.yaml", "vocab.yaml"]


def test_check_never_reads_through_a_link_or_a_fifo(tmp_path, run, built):
    config, out = built
    huge = _big_sparse(tmp_path / "huge.bin")
    (out / "big.jsonl").unlink()
    (out / "big.jsonl").symlink_to(huge)
    (out / "small.jsonl").unlink()
    os.mkfifo(out / "small.jsonl")
    result = run("pack", "check", config, "--out", out)
    assert result.exit_code == 1, result.stderr
    assert "big.jsonl (pack file is reached through a symbolic link" in result.stdout
    assert "small.jsonl (pack file is a FIFO" in result.stdout


def test_a_staging_dir_half_removed_by_a_killed_recovery_is_tidied(tmp_path, run, built):
    """A run killed while it removed a killed build's staging directory leaves part of it;
    the marker goes last, so the next run still knows the directory as wfkit's."""
    config, out = built
    before = tree(out)
    token = "0123abcd4567" + "9" * 20
    staging = tmp_path / f".out.wfkit-{token[:12]}"
    (staging / "sub").mkdir(parents=True)
    (staging / "sub" / "half.jsonl").write_text("half")
    (staging / ".wfkit-staging").write_text(token)
    journal_of(out).write_text(json.dumps({
        "format": "wfkit-journal/1", "staging": staging.name, "token": token,
        "device": os.stat(tmp_path).st_dev, "inode": staging.stat().st_ino,
        "old_inode": out.stat().st_ino}))
    from wordforge_cli.pack import store
    removed = []
    real_unlink = os.unlink

    def killed_at_the_marker(path, *args, **kwargs):
        if str(path).endswith(".wfkit-staging"):
            raise KeyboardInterrupt  # stands for SIGKILL: nothing after this runs
        removed.append(str(path))
        return real_unlink(path, *args, **kwargs)

    store_os_unlink = store.os.unlink
    store.os.unlink = killed_at_the_marker
    try:
        with pytest.raises(KeyboardInterrupt):
            store._remove_staging(staging)
    finally:
        store.os.unlink = store_os_unlink
    assert sorted(os.listdir(staging)) == [".wfkit-staging"]
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert tree(out) == before
    assert sorted(os.listdir(tmp_path)) == ["notes", "out", "pack.yaml", "vocab.yaml"]


@pytest.mark.parametrize("written", ["", "0123", "0123abcd4567" + "9" * 19])
def test_a_marker_cut_while_written_is_tidied(tmp_path, run, built, written):
    """Killed between creating the marker and writing it: the directory holds only a marker
    that begins the journal's token, and the journal has no inode yet."""
    config, out = built
    token = "0123abcd4567" + "9" * 20
    staging = tmp_path / f".out.wfkit-{token[:12]}"
    staging.mkdir()
    (staging / ".wfkit-staging").write_text(written)
    journal_of(out).write_text(json.dumps({
        "format": "wfkit-journal/1", "staging": staging.name, "token": token,
        "device": os.stat(tmp_path).st_dev, "inode": None,
        "old_inode": out.stat().st_ino}))
    assert run("pack", "build", config, "--out", out).exit_code == 0
    assert sorted(os.listdir(tmp_path)) == ["notes", "out", "pack.yaml", "vocab.yaml"]


@pytest.mark.parametrize("written,extra", [("f" * 4, None), ("0123", "yours.txt")])
def test_a_marker_that_is_not_a_beginning_of_the_token_deletes_nothing(
        tmp_path, run, built, written, extra):
    config, out = built
    token = "0123abcd4567" + "9" * 20
    staging = tmp_path / f".out.wfkit-{token[:12]}"
    staging.mkdir()
    (staging / ".wfkit-staging").write_text(written)
    if extra:
        (staging / extra).write_text("mine")
    journal_of(out).write_text(json.dumps({
        "format": "wfkit-journal/1", "staging": staging.name, "token": token,
        "device": os.stat(tmp_path).st_dev, "inode": None,
        "old_inode": out.stat().st_ino}))
    before = snapshot(tmp_path)
    one_line_error(run("pack", "build", config, "--out", out), 2, "no matching marker")
    assert snapshot(tmp_path) == before
