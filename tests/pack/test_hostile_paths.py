"""Paths swapped or linked under a running wfkit: ``--out`` replaced by a symbolic link (or
another directory) at each named step of a pack build or merge, files named like wfkit's own
beside ``--out``, strangers nested deeper than any pack. The swaps happen at a named step
(``store.step_hook``), never after a sleep, so each test meets its moment every run.
Nothing outside ``--out`` may be written, moved or deleted, and every refusal is one line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import test_pack_fake  # noqa: F401  (registers the dice kind)
from test_pack import verify, write_config
from test_pack_hostile import one_line_error, snapshot

from wordforge_cli.pack import store


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A folder outside --out that looks like a pack (same file names) plus a note."""
    place = tmp_path / "elsewhere"
    (place / "big").mkdir(parents=True)
    for name in ("big.jsonl", "small.jsonl", "manifest.json", "big/000001.svg", "notes.txt"):
        (place / name).write_text(f"the user's own {name}\n")
    return place


@pytest.fixture
def existing(tmp_path: Path, run) -> tuple[Path, Path]:
    config = write_config(tmp_path, count=300)
    out = tmp_path / "pack"
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    write_config(tmp_path, seed=11, count=300)  # the next build changes every file
    return config, out


def swap_at(monkeypatch, point: str, action) -> list[str]:
    seen: list[str] = []

    def hook(at: str) -> None:
        seen.append(at)
        if at == point:
            action()

    monkeypatch.setattr(store, "step_hook", hook)
    return seen


def link_instead(out: Path, target: Path) -> None:
    out.rename(out.with_name(out.name + ".moved"))
    out.symlink_to(target, target_is_directory=True)


def beside(out: Path) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


@pytest.mark.parametrize("point", ["before-exchange", "exchange"])
@pytest.mark.parametrize("exchange", [True, False])
def test_out_swapped_for_a_link_mid_build_touches_nothing_outside(
        tmp_path, run, existing, victim, monkeypatch, point, exchange):
    config, out = existing
    monkeypatch.setattr(store, "exchange_supported", exchange)
    before = snapshot(victim)
    old = snapshot(out)
    seen = swap_at(monkeypatch, point, lambda: link_instead(out, victim))
    result = run("pack", "build", config, "--out", out, "--jobs", "1")
    assert point in seen
    one_line_error(result, 1, "--out was replaced while the pack was built")
    assert snapshot(victim) == before  # nothing deleted, moved or added in the link's target
    assert out.is_symlink() and os.readlink(out) == str(victim)
    assert snapshot(out.with_name("pack.moved")) == old  # the old pack, whole, where it went
    assert beside(out) == []  # no staging directory, journal or lock left beside --out


@pytest.mark.parametrize("point", ["before-exchange", "exchange"])
def test_out_swapped_for_another_directory_is_refused(tmp_path, run, existing, victim,
                                                      monkeypatch, point):
    config, out = existing

    def swap() -> None:
        out.rename(tmp_path / "pack.moved")
        victim.rename(out)

    swap_at(monkeypatch, point, swap)
    result = run("pack", "build", config, "--out", out, "--jobs", "1")
    one_line_error(result, 1, "--out was replaced")
    assert sorted(p.name for p in out.iterdir()) == ["big", "big.jsonl", "manifest.json",
                                                     "notes.txt", "small.jsonl"]
    assert (out / "notes.txt").read_text() == "the user's own notes.txt\n"
    assert beside(out) == []


def test_a_link_put_where_a_first_build_goes_is_not_replaced(tmp_path, run, victim,
                                                             monkeypatch):
    config = write_config(tmp_path, count=300)
    out = tmp_path / "fresh"
    before = snapshot(victim)
    swap_at(monkeypatch, "exchange", lambda: out.symlink_to(victim))
    one_line_error(run("pack", "build", config, "--out", out, "--jobs", "1"), 1,
                   "--out was replaced")
    assert out.is_symlink() and snapshot(victim) == before
    assert beside(out) == []


def test_merge_into_an_out_swapped_for_a_link_touches_nothing_outside(
        tmp_path, run, victim, monkeypatch):
    config = write_config(tmp_path, count=600)
    dirs = [tmp_path / "s1", tmp_path / "s2"]
    for i, d in enumerate(dirs, 1):
        assert run("pack", "build", config, "--out", d, "--shard", f"{i}/2").exit_code == 0
    out = tmp_path / "merged"
    assert run("pack", "merge", config, *dirs, "--out", out).exit_code == 0
    before = snapshot(victim)
    (out / "mine.txt").write_text("x")  # a stranger, so the merge must keep it in place
    swap_at(monkeypatch, "before-exchange", lambda: link_instead(out, victim))
    one_line_error(run("pack", "merge", config, *dirs, "--out", out), 1, "--out was replaced")
    assert snapshot(victim) == before
    assert (tmp_path / "merged.moved" / "mine.txt").read_text() == "x"


def test_an_undisturbed_build_passes_every_step_and_keeps_strangers(tmp_path, run, existing,
                                                                    monkeypatch):
    config, out = existing
    (out / "notes.txt").write_text("mine")
    seen = swap_at(monkeypatch, "never", lambda: None)
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    assert seen[:3] == ["before-exchange", "exchange", "after-exchange"]
    assert verify(out)["seed"] == 11 and (out / "notes.txt").read_text() == "mine"
    assert beside(out) == []


@pytest.mark.parametrize("body", ["my notes", "{}", '{"format": "something else"}'])
def test_a_file_of_yours_named_like_a_journal_temporary_is_kept(tmp_path, run, existing,
                                                               body):
    config, out = existing
    mine = tmp_path / ".pack.wfkit-journal.abcdefgh.tmp"
    mine.write_text(body)
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    assert mine.exists()


def test_a_journal_temporary_wfkit_wrote_is_tidied(tmp_path, run, existing):
    config, out = existing
    token = "0123abcd4567" + "9" * 20
    left = tmp_path / ".pack.wfkit-journal.k9x8y7z6.tmp"
    left.write_text(json.dumps({"format": "wfkit-journal/1",
                                "staging": f".pack.wfkit-{token[:12]}", "token": token,
                                "device": os.stat(tmp_path).st_dev, "inode": None,
                                "old_inode": None}))
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    assert not left.exists()


def deep_tree(root: Path, levels: int) -> None:
    """``root/d/d/d/...`` ``levels`` deep, made by handles (paths that long fail)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(levels):
            os.mkdir("d", dir_fd=fd)
            nxt = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        os.close(os.open("leaf.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)


def remove_deep_tree(root: Path) -> None:
    """Remove ``root/d/d/...`` as :func:`deep_tree` made it, by handles and without recursion:
    left in the test's folder, it makes pytest's own clean-up of old test folders (a
    recursive ``rmtree``) fail a later run with a RecursionError."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    depth = 0
    try:
        while "d" in os.listdir(fd):
            nxt = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd, depth = nxt, depth + 1
        for name in os.listdir(fd):
            os.unlink(name, dir_fd=fd)
        for _ in range(depth):
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir("d", dir_fd=fd)
    finally:
        os.close(fd)


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_stranger_tree_1200_levels_deep_is_one_line(tmp_path, run, existing, command):
    config, out = existing
    deep_tree(out, 1200)
    try:
        result = run("pack", command, config, "--out", out, "--jobs", "1")
    finally:
        remove_deep_tree(out)
    if command == "build":
        one_line_error(result, 2, "nested more than")
    else:
        assert result.exit_code == 2, (result.exit_code, result.stderr)
        assert result.stderr.count("\n") == 1 and "nested more than" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_stranger_tree_a_few_levels_deep_is_kept(tmp_path, run, existing):
    config, out = existing
    deep_tree(out, 10)
    assert run("pack", "build", config, "--out", out, "--jobs", "1").exit_code == 0
    assert (out / "/".join(["d"] * 10) / "leaf.txt").is_file()


# --- wfkit init: never through a link, never into a special file, all or nothing ----------

def files_under(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def test_init_with_configs_linked_elsewhere_writes_nothing_there(run, tmp_path):
    project, other = tmp_path / "p", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    (project / "configs").symlink_to(other, target_is_directory=True)
    for force in ([], ["--force"]):
        one_line_error(run("init", project, *force), 2, "configs is a symbolic link")
        assert list(other.iterdir()) == [] and files_under(project) == ["configs"]


@pytest.mark.parametrize("dangling", [False, True])
def test_init_force_never_writes_through_a_linked_file(run, tmp_path, dangling):
    project = tmp_path / "p"
    (project / "configs").mkdir(parents=True)
    real = tmp_path / "real.yaml"
    if not dangling:
        real.write_text("old\n")
    (project / "configs" / "rarity.yaml").symlink_to(real)
    one_line_error(run("init", project, "--force"), 2, "symbolic link; init never writes")
    assert (real.read_text() == "old\n") if not dangling else not os.path.lexists(real)
    assert files_under(project) == ["configs", "configs/rarity.yaml"]


def test_init_force_over_a_fifo_is_refused_without_opening_it(run, tmp_path):
    project = tmp_path / "p"
    (project / "configs").mkdir(parents=True)
    os.mkfifo(project / "configs" / "rarity.yaml")  # opening it for writing would block
    one_line_error(run("init", project, "--force"), 2, "FIFO")
    assert files_under(project) == ["configs", "configs/rarity.yaml"]


@pytest.mark.parametrize("name", [".github", "configs", "examples"])
def test_init_where_a_folder_is_a_file_writes_nothing(run, tmp_path, name):
    project = tmp_path / "p"
    project.mkdir()
    (project / name).write_text("mine")
    one_line_error(run("init", project), 2, f"{name} is a file, not a folder")
    assert files_under(project) == [name]


def test_init_into_a_dangling_link_a_loop_or_a_long_name_is_one_line(run, tmp_path):
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    one_line_error(run("init", tmp_path / "dangling"), 2, "dangling link")
    assert not (tmp_path / "nowhere").exists()
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    one_line_error(run("init", tmp_path / "loop"), 2, "symbolic links")
    one_line_error(run("init", tmp_path / ("x" * 256)), 2, "256 bytes is too long")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "loop"]


def test_init_on_a_full_disk_leaves_nothing_behind(run, tmp_path, monkeypatch):
    import errno

    from wordforge_cli.commands import init

    real = init.Writer.write
    calls = []

    def full(self, root_fd, name, data):
        calls.append(name)
        if len(calls) == 6:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, root_fd, name, data)

    monkeypatch.setattr(init.Writer, "write", full)
    one_line_error(run("init", tmp_path / "p"), 1, "no space left on device; nothing written")
    assert not (tmp_path / "p").exists()
    (tmp_path / "q").mkdir()
    (tmp_path / "q" / "mine.txt").write_text("x")
    calls.clear()
    one_line_error(run("init", tmp_path / "q"), 1, "no space left")
    assert files_under(tmp_path / "q") == ["mine.txt"]


def test_init_shows_a_directory_name_with_controls_escaped(run, tmp_path):
    project = tmp_path / "a\x1b[31mb\nc"
    result = run("init", project)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stderr and result.stderr.count("\n") == 2, result.stderr
    listing = run("init", "--list", project).stdout
    assert "\x1b" not in listing and listing.count("\n") == 16
