"""Special files where wfkit reads: a FIFO, a UNIX socket, a folder and a device named as any
input, on the command line or in a pack section. Each is named as what it is, in one line with
exit 2, and never opened for reading (a FIFO would block, a device would be read until memory
ran out).

Every special file is made here in tmp. No test points at a device file of the machine (CI
runs as root, and reading one is what must never happen): the device branch is driven by a
faked ``stat`` of a regular file the test made, so a mistake reads a few harmless bytes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import stat
from pathlib import Path

import pytest
from test_hostile_io import one_error
from test_hostile_io_inputs import INPUT_OPTIONS, argv_for, within

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.io import inputs

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@contextlib.contextmanager
def unix_socket(path: Path):
    """A listening-free UNIX socket bound at ``path`` (bound from its folder: a socket's
    address is at most 107 bytes, and tmp paths are longer)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    here = os.getcwd()
    try:
        os.chdir(path.parent)
        sock.bind(path.name)
        os.chdir(here)
        assert stat.S_ISSOCK(os.stat(path).st_mode)
        yield path
    finally:
        os.chdir(here)
        sock.close()


@pytest.mark.parametrize("case", sorted(INPUT_OPTIONS))
def test_a_socket_as_any_input_is_named_in_one_line(case, run, tmp_path):
    path = tmp_path / "input"
    argv = argv_for(case, path, tmp_path)
    target = Path(next(a for a in argv if a.startswith(str(path))))
    with unix_socket(target):
        within(20)
        try:
            result = run(*argv)
        finally:
            signal.alarm(0)
    one_error(result, 2, "a socket, not a regular file")


def section_config(tmp_path: Path, kind: str, key: str) -> Path:
    """A pack config of one ``kind`` section whose ``key`` names ``in.yaml`` beside it."""
    extra = {"crossword": "    vocab: tech.yaml\n", "rarity": "    vocab: tech.yaml\n",
             "kanji": ""}[kind]
    (tmp_path / "tech.yaml").write_text((EXAMPLES / "words.yaml").read_text()
                                        if kind == "rarity" else
                                        (EXAMPLES / "tech.yaml").read_text(), encoding="utf-8")
    lines = [line for line in extra.splitlines(keepends=True) if not line.startswith(f"    {key}:")]
    config = tmp_path / "pack.yaml"
    config.write_text(f"seed: 1\nsections:\n  - name: s\n    kind: {kind}\n"
                      f"    {'count: 1' if kind != 'rarity' else ''}\n"
                      f"{''.join(lines)}    {key}: in.yaml\n")
    return config


SECTION_FILES = [("crossword", "vocab"), ("crossword", "config"), ("rarity", "vocab"),
                 ("kanji", "config")]


@pytest.mark.parametrize(("kind", "key"), SECTION_FILES)
@pytest.mark.parametrize("made", ["FIFO", "socket", "directory"])
def test_a_pack_section_file_that_is_a_fifo_socket_or_folder_says_so(run, tmp_path, kind,
                                                                    key, made):
    config = section_config(tmp_path, kind, key)
    target = tmp_path / "in.yaml"
    with contextlib.ExitStack() as stack:
        if made == "FIFO":
            os.mkfifo(target)
        elif made == "socket":
            stack.enter_context(unix_socket(target))
        else:
            target.mkdir()
        within(20)
        try:
            result = run("pack", "build", config, "--out", tmp_path / "out")
        finally:
            signal.alarm(0)
    line = one_error(result, 2, f"is a {made}, not a regular file: in.yaml")
    assert "not found" not in line and f"{config}:" in line
    assert not (tmp_path / "out").exists()


def faked_stat(target: Path, kind: int, real=os.stat):
    """``os.stat`` for ``path.stat()``: ``target`` (a regular file) reported as ``kind``."""

    def fake(path, *args, **kwargs):
        found = real(path, *args, **kwargs)
        if os.fspath(path) != os.fspath(target):
            return found
        return os.stat_result((kind | 0o644, *tuple(found)[1:]))

    return fake


@pytest.mark.parametrize(("kind", "shown"), [(stat.S_IFCHR, "a character device"),
                                             (stat.S_IFBLK, "a block device")])
def test_a_pack_section_vocabulary_that_is_a_device_says_so_unopened(run, tmp_path,
                                                                     monkeypatch, kind, shown):
    config = section_config(tmp_path, "crossword", "vocab")
    vocab = tmp_path / "in.yaml"
    vocab.write_text((EXAMPLES / "tech.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(os, "stat", faked_stat(vocab, kind))
    opened = []
    real_open = os.open

    def watched(path, *args, **kwargs):
        if os.fspath(path) == os.fspath(vocab):
            opened.append(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", watched)
    line = one_error(run("pack", "build", config, "--out", tmp_path / "out"), 2,
                     f"vocabulary file is {shown}, not a regular file: in.yaml")
    assert "not found" not in line
    assert opened == [] and not (tmp_path / "out").exists()
    monkeypatch.undo()  # the same file, seen as what it is, builds
    assert run("pack", "build", config, "--out", tmp_path / "out").exit_code == 0


@contextlib.contextmanager
def fstat_says(kind: int, target: Path):
    """``os.fstat`` of the descriptor ``os.open`` gave for ``target`` reports ``kind``
    (the descriptor is a regular file's: nothing of the machine is opened)."""
    real_open, real_fstat, real_close = os.open, os.fstat, os.close
    fds: dict[int, bool] = {}  # the target's descriptors -> still open

    def opening(path, *args, **kwargs):
        fd = real_open(path, *args, **kwargs)
        if os.fspath(path) == os.fspath(target):
            fds[fd] = True
        return fd

    def fstat(fd):
        found = real_fstat(fd)
        return os.stat_result((kind | 0o666, *tuple(found)[1:])) if fds.get(fd) else found

    def closing(fd):
        if fd in fds:
            fds[fd] = False
        return real_close(fd)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", opening)
        patch.setattr(os, "fstat", fstat)
        patch.setattr(os, "close", closing)
        yield fds


@pytest.mark.parametrize(("kind", "shown"), [(stat.S_IFCHR, "a character device"),
                                             (stat.S_IFBLK, "a block device"),
                                             (stat.S_IFSOCK, "a socket"),
                                             (stat.S_IFIFO, "a FIFO")])
def test_an_opened_input_that_is_a_device_is_closed_unread(tmp_path, kind, shown):
    path = tmp_path / "words.txt"
    path.write_text("cat\n" * 10)
    read = []
    real_fdopen = os.fdopen
    with fstat_says(kind, path) as fds, pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fdopen", lambda fd, *a, **k: read.append(fd) or real_fdopen(
            fd, *a, **k))
        with pytest.raises(ConfigError) as error:
            inputs.read_bytes(path, "vocabulary")
    assert f"{shown}, not a regular file (wfkit reads a vocabulary from files" \
        in str(error.value)
    assert list(fds.values()) == [False] and read == []  # opened once, closed, never read


@pytest.mark.parametrize("option", ["--vocab", "--data", "--cefr"])
def test_a_device_named_on_the_command_line_is_one_line(run, tmp_path, option):
    path = tmp_path / "in.txt"
    path.write_text("cat\n")
    argv = ["rarity", option, path] if option == "--vocab" else ["rarity", option, path, "cat"]
    with fstat_says(stat.S_IFCHR, path):
        result = run(*argv)
    one_error(result, 2, "a character device, not a regular file")


@pytest.mark.parametrize("made", ["FIFO", "socket"])
def test_init_force_over_a_special_file_names_it_and_writes_nothing(run, tmp_path, made):
    project = tmp_path / "p"
    (project / "configs").mkdir(parents=True)
    target = project / "configs" / "rarity.yaml"
    with contextlib.ExitStack() as stack:
        if made == "FIFO":
            os.mkfifo(target)  # opening it for writing would block
        else:
            stack.enter_context(unix_socket(target))
        within(20)
        try:
            result = run("init", project, "--force")
        finally:
            signal.alarm(0)
        one_error(result, 2, f"is a {made}; init never writes through one")
        assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == [
            "configs", "configs/rarity.yaml"]
