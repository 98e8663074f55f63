"""``--out`` named as a symbolic link: outputs write into what the user named, so the link is
resolved once, when the build starts, and the directory it names is the one built into
(swapped in beside it, through the handle of its folder); the link itself is never renamed
over, removed or followed again. Changing the link while the build runs changes nothing the
build does; replacing the directory it named is refused like any swap of ``--out``, and
touches nothing outside. The swaps happen at a named step (``store.step_hook``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)
from test_pack import verify, write_config
from test_pack_hostile import one_line_error, snapshot

from wordforge_cli.pack import store


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A folder elsewhere that looks like a pack (the same file names) plus a note."""
    place = tmp_path / "elsewhere"
    (place / "big").mkdir(parents=True)
    for name in ("big.jsonl", "small.jsonl", "manifest.json", "big/000001.svg", "notes.txt"):
        (place / name).write_text(f"the user's own {name}\n")
    return place


def at_step(monkeypatch, point: str, action) -> list[str]:
    seen: list[str] = []

    def hook(at: str) -> None:
        seen.append(at)
        if at == point:
            action()

    monkeypatch.setattr(store, "step_hook", hook)
    return seen


def hidden(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


@pytest.fixture
def linked(tmp_path: Path, run) -> tuple[Path, Path, Path]:
    """(config, the link named as --out, the pack it names) after a first build."""
    config = write_config(tmp_path, count=300)
    real = tmp_path / "packs" / "real"
    real.parent.mkdir()
    assert run("pack", "build", config, "--out", real, "--jobs", "1").exit_code == 0
    link = tmp_path / "link"
    link.symlink_to(Path("packs") / "real", target_is_directory=True)
    write_config(tmp_path, seed=11, count=300)  # the next build changes every file
    return config, link, real


@pytest.mark.parametrize("command", ["build", "merge"])
def test_a_link_as_out_is_resolved_once_and_never_renamed_over(tmp_path, run, linked,
                                                              command):
    config, link, real = linked
    (real / "mine.txt").write_text("keep")
    before = os.lstat(link)
    if command == "build":
        result = run("pack", "build", config, "--out", link, "--jobs", "1")
    else:
        shards = [tmp_path / "s1", tmp_path / "s2"]
        for i, shard in enumerate(shards, 1):
            assert run("pack", "build", config, "--out", shard, "--shard", f"{i}/2",
                       "--jobs", "1").exit_code == 0
        result = run("pack", "merge", config, *shards, "--out", link)
    assert result.exit_code == 0, result.stderr
    after = os.lstat(link)
    assert link.is_symlink() and os.readlink(link) == "packs/real"
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert verify(real)["seed"] == 11 and (real / "mine.txt").read_text() == "keep"
    assert hidden(tmp_path) == [] and hidden(real.parent) == []  # swapped beside the target
    assert run("pack", "check", config, "--out", link).exit_code == 0


def test_a_dangling_link_as_out_builds_the_directory_it_names(tmp_path, run):
    config = write_config(tmp_path, count=50)
    link = tmp_path / "link"
    link.symlink_to("made", target_is_directory=True)
    assert run("pack", "build", config, "--out", link, "--jobs", "1").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "made"
    assert verify(tmp_path / "made")["seed"] == 7


@pytest.mark.parametrize("point", ["before-exchange", "exchange"])
def test_a_link_pointed_elsewhere_mid_build_changes_nothing_there(tmp_path, run, linked,
                                                                 victim, monkeypatch, point):
    """The link was read once: pointing it at another folder while the build runs neither
    moves the build there nor touches that folder; the user's new link is left as made."""
    config, link, real = linked
    before = snapshot(victim)

    def repoint() -> None:
        link.unlink()
        link.symlink_to(victim, target_is_directory=True)

    seen = at_step(monkeypatch, point, repoint)
    result = run("pack", "build", config, "--out", link, "--jobs", "1")
    assert point in seen and result.exit_code == 0, result.stderr
    assert snapshot(victim) == before
    assert os.readlink(link) == str(victim)
    assert verify(real)["seed"] == 11 and hidden(real.parent) == []


@pytest.mark.parametrize("point", ["before-exchange", "exchange"])
@pytest.mark.parametrize("exchange", [True, False])
def test_the_directory_a_link_named_swapped_for_a_link_is_refused(tmp_path, run, linked,
                                                                  victim, monkeypatch,
                                                                  point, exchange):
    config, link, real = linked
    monkeypatch.setattr(store, "exchange_supported", exchange)
    before, old = snapshot(victim), snapshot(real)

    def swap() -> None:
        real.rename(real.with_name("moved"))
        real.symlink_to(victim, target_is_directory=True)

    at_step(monkeypatch, point, swap)
    one_line_error(run("pack", "build", config, "--out", link, "--jobs", "1"), 1,
                   "--out was replaced while the pack was built")
    assert snapshot(victim) == before  # nothing deleted, moved or added there
    assert snapshot(real.with_name("moved")) == old  # the old pack, whole, where it went
    assert real.is_symlink() and os.readlink(link) == "packs/real"
    assert hidden(real.parent) == [] and hidden(tmp_path) == []
