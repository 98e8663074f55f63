"""Property tests: random mutations of a real small pack, of its shards' manifests
and trees, and of the journal beside it. Whatever the mutation, ``pack build``, ``check``,
``merge`` and ``preview`` either do the right thing or refuse with exit 1 or 2 and exactly one
line on stderr (never an exception), and nothing outside ``--out`` changes: the bytes and
modes of the whole surrounding tmp tree are compared before and after.
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pack import tree, verify, write_config
from test_pack_hostile import snapshot

from wordforge_cli.cli import cli

SETTINGS = settings(max_examples=30, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

HOSTILE_TEXT = st.sampled_from([
    "", ".", "..", "../x", "../../victim/important.txt", "/etc/passwd", "big/../../x",
    "big\n", "abc\n", "\x1b[31m", "\x00", "big.jsonl", "big/000001.svg", "manifest.json",
    "notes.txt", "<script>alert(1)</script>", "A" * 300, "\ufeff", "big//000001.svg",
]) | st.text(max_size=12)
JSON_LEAF = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
             | st.floats(allow_nan=False) | HOSTILE_TEXT)
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(HOSTILE_TEXT, inner, max_size=3), max_leaves=6)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A whole pack and its two shards, built once; each example works on copies."""
    root = tmp_path_factory.mktemp("ref")
    config = write_config(root, count=600)
    runner = CliRunner()
    for args in (["--out", str(root / "whole")],
                 ["--out", str(root / "s1"), "--shard", "1/2"],
                 ["--out", str(root / "s2"), "--shard", "2/2"]):
        result = runner.invoke(cli, ["pack", "build", str(config), "--jobs", "1", *args])
        assert result.exit_code == 0, result.output
    return root


@contextlib.contextmanager
def workspace(reference: Path):
    """A fresh copy of the reference packs with a user's files around them."""
    root = Path(tempfile.mkdtemp(prefix="wfkit-prop-"))
    try:
        for name in ("whole", "s1", "s2"):
            shutil.copytree(reference / name, root / name, symlinks=True)
        shutil.copy(reference / "pack.yaml", root / "pack.yaml")
        (root / "victim").mkdir()
        (root / "victim" / "important.txt").write_text("precious")
        (root / "whole" / "notes.txt").write_text("mine")
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def invoke(*args) -> object:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def outcome_is_clean(result) -> None:
    """Done (exit 0) or refused with exactly one line: never a traceback."""
    if result.exit_code == 0:
        return
    assert result.exit_code in (1, 2), (result.exit_code, result.stderr)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("wfkit: "), \
        result.stderr


def json_paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from json_paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from json_paths(inner, (*prefix, i))


@st.composite
def manifest_mutation(draw, manifest: dict):
    """One change at a random place in the manifest: replace, delete or add a value."""
    paths = [p for p in json_paths(manifest) if p]
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["replace", "delete", "add"]))
    value = draw(JSON_VALUE)
    key = draw(HOSTILE_TEXT)
    return path, action, value, key


def mutate(manifest: dict, mutation) -> dict:
    path, action, value, key = mutation
    parent = manifest
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if action == "replace":
        parent[last] = value
    elif action == "delete":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last][key] = value
    elif isinstance(parent[last], list):
        parent[last].append(value)
    else:
        parent[last] = [parent[last], value]
    return manifest


def assert_consistent_subset(out: Path, whole: Path) -> None:
    """A merge that succeeded wrote a pack whose manifest matches its bytes, and every file
    it holds is the single build's file. (A shard whose manifest leaves a render out
    merges without it: a shard's own claims can be consistent and still incomplete, which
    no check of its bytes can tell; ``pack check`` reports the missing render.)"""
    verify(out)
    merged, single = tree(out), tree(whole)
    assert set(merged) <= set(single)
    for name, body in merged.items():
        if name != "manifest.json":
            assert body == single[name], name


def manifest_of(directory: Path) -> dict:
    return json.loads((directory / "manifest.json").read_text())


@SETTINGS
@given(data=st.data())
def test_a_mutated_shard_manifest_merges_right_or_is_refused(reference, data):
    with workspace(reference) as root:
        shard = root / data.draw(st.sampled_from(["s1", "s2"]))
        manifest = manifest_of(shard)
        changed = mutate(manifest, data.draw(manifest_mutation(manifest)))
        (shard / "manifest.json").write_text(json.dumps(changed))
        out = root / "merged"
        before = snapshot(root)
        result = invoke("pack", "merge", root / "pack.yaml", root / "s1", root / "s2",
                        "--out", out)
        outcome_is_clean(result)
        if result.exit_code == 0:
            assert_consistent_subset(out, reference / "whole")
        after = snapshot(root, skip=out)
        assert after == before


@SETTINGS
@given(data=st.data())
def test_a_mutated_pack_manifest_in_out_never_costs_a_user_file(reference, data):
    with workspace(reference) as root:
        out = root / "whole"
        manifest = manifest_of(out)
        changed = mutate(manifest, data.draw(manifest_mutation(manifest)))
        (out / "manifest.json").write_text(json.dumps(changed))
        before = snapshot(root, skip=out)
        command = data.draw(st.sampled_from(["build", "check", "preview"]))
        if command == "preview":
            result = invoke("pack", "preview", out, "-o", root / "p.html")
        else:
            result = invoke("pack", command, root / "pack.yaml", "--out", out)
        if command == "check":
            assert result.exit_code in (0, 1, 2)
            assert "Traceback" not in result.stderr
        else:
            outcome_is_clean(result)
        assert (out / "notes.txt").read_text() == "mine"
        after = snapshot(root, skip=out)
        after.pop("p.html", None)
        assert after == before
        if command == "build" and result.exit_code == 0:
            files = tree(out)
            files.pop("notes.txt")
            assert files == tree(reference / "whole")


TREE_CHANGES = ["link-out", "fifo", "directory", "truncate", "append", "huge", "extra",
                "remove", "link-in"]


@SETTINGS
@given(data=st.data())
def test_a_mutated_shard_tree_merges_right_or_is_refused(reference, data):
    with workspace(reference) as root:
        shard = root / data.draw(st.sampled_from(["s1", "s2"]))
        files = sorted(p for p in tree(shard) if p != "manifest.json")
        target = shard / data.draw(st.sampled_from(files))
        change = data.draw(st.sampled_from(TREE_CHANGES))
        body = target.read_bytes()
        if change in ("link-out", "fifo", "directory", "huge", "remove", "link-in"):
            target.unlink()
        if change == "link-out":
            (root / "victim" / "copy").write_bytes(body)
            target.symlink_to(root / "victim" / "copy")
        elif change == "link-in":
            target.symlink_to(shard / "manifest.json")
        elif change == "fifo":
            os.mkfifo(target)
        elif change == "directory":
            target.mkdir()
        elif change == "truncate":
            target.write_bytes(body[:data.draw(st.integers(0, max(0, len(body) - 1)))])
        elif change == "append":
            target.write_bytes(body + data.draw(st.binary(min_size=1, max_size=20)))
        elif change == "huge":
            with target.open("wb") as fh:
                fh.truncate(2 << 30)
        elif change == "extra":
            (shard / "big" / "999999.svg").parent.mkdir(exist_ok=True)
            (shard / "big" / "999999.svg").write_text("<svg/>")
        harmless = change == "extra" or (  # an unlisted file is not part of the shard
            change == "truncate" and target.read_bytes() == body)
        out = root / "merged"
        before = snapshot(root)
        result = invoke("pack", "merge", root / "pack.yaml", root / "s1", root / "s2",
                        "--out", out)
        outcome_is_clean(result)
        assert (result.exit_code == 0) == harmless, (change, result.stderr)
        if harmless:
            assert tree(out) == tree(reference / "whole")
        assert snapshot(root, skip=out) == before


JOURNAL_FIELD = st.sampled_from(["format", "staging", "token", "device", "inode",
                                 "old_inode", "extra"])


@SETTINGS
@given(data=st.data())
def test_a_forged_journal_never_deletes_anything(reference, data):
    with workspace(reference) as root:
        out = root / "whole"
        token = data.draw(st.sampled_from(["0123456789ab" + "0" * 20, "f" * 32, "x", ""]))
        lookalike = root / f".whole.wfkit-{token[:12] if len(token) >= 12 else 'abcdef012345'}"
        if data.draw(st.booleans()):
            lookalike.mkdir(exist_ok=True)
            (lookalike / "yours.txt").write_text("not wfkit's")
            if data.draw(st.booleans()):
                (lookalike / ".wfkit-staging").write_text(data.draw(st.sampled_from(
                    ["wrong" * 6 + "00", "", token[::-1]])))
        journal = {"format": "wfkit-journal/1",
                   "staging": data.draw(st.sampled_from(
                       [lookalike.name, "", ".", "..", str(root / "victim"), "victim",
                        "../victim", lookalike.name + "/..", lookalike.name + "\n"])),
                   "token": token, "device": os.stat(root).st_dev,
                   "inode": data.draw(st.sampled_from(
                       [None, out.stat().st_ino, (root / "victim").stat().st_ino, -1])),
                   "old_inode": data.draw(st.sampled_from(
                       [None, out.stat().st_ino, (root / "victim").stat().st_ino]))}
        for _ in range(data.draw(st.integers(0, 2))):
            field = data.draw(JOURNAL_FIELD)
            if data.draw(st.booleans()):
                journal.pop(field, None)
            else:
                journal[field] = data.draw(JSON_VALUE)
        path = root / ".whole.wfkit-journal"
        path.write_text(json.dumps(journal))
        before = snapshot(root, skip=out)
        before.pop(".whole.wfkit-journal")
        result = invoke("pack", "build", root / "pack.yaml", "--out", out)
        outcome_is_clean(result)
        after = snapshot(root, skip=out)
        after.pop(".whole.wfkit-journal", None)
        assert after == before
        assert (out / "notes.txt").read_text() == "mine"
