"""The output side: outputs write into what the user named, messages are one line.

Every attack file is made here, in tmp. No test touches a device file of the machine (CI runs
as root): "a device" is a pty this test opens, a FIFO it makes, or a mocked ``os.stat``; a full
disk is a 64 KiB tmpfs mounted here (skipped where mount is not allowed).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from wordforge_cli.cli import cli
from wordforge_cli.core.errors import CannotDo, ConfigError, one_line, show_path
from wordforge_cli.io.output import atomic_write, check_outputs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
WFKIT = [sys.executable, "-m", "wordforge_cli"]


def run(*args: str | Path):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def one_error(result, status: int, *needles: str) -> str:
    """The run failed with ``status`` and exactly one ``wfkit: error:`` line holding needles."""
    shown = f"exit {result.exit_code}\nstdout: {result.stdout[-500:]}\nstderr: {result.stderr}"
    assert result.exit_code == status, shown
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: error: "), shown
    for needle in needles:
        assert needle in lines[0], shown
    return lines[0]


def no_temp_left(directory: Path) -> None:
    left = [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]
    assert not left, f"temporary files left in {directory}: {left}"


def words_vocab(tmp: Path, n: int = 3000) -> Path:
    """A vocabulary of the first ``n`` words of the bundled table (a real batch)."""
    table = (ROOT / "data" / "english.tsv").read_text(encoding="utf-8").splitlines()
    words = [line.split("\t", 1)[0] for line in table if line.split("\t", 1)[0].isalpha()]
    path = tmp / "many.txt"
    path.write_text("\n".join(words[:n]) + "\n", encoding="utf-8")
    return path


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "64k"):
    """A tiny file system of our own to fill up; skip where mounting is not allowed."""
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"mount not permitted here: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(directory: Path) -> None:
    """Fill a file system with zeros written from Python (never read from a device)."""
    block = bytes(4096)
    with contextlib.suppress(OSError), open(directory / "filler", "wb", buffering=0) as fh:
        while True:
            fh.write(block)


# --- -o into special files ---------------------------------------------------------------

def test_regular_file_keeps_its_mode(tmp_path):
    out = tmp_path / "secret.tsv"
    out.write_text("old\n")
    out.chmod(0o600)
    assert run("rarity", "cat", "-o", out).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert out.read_text().startswith("word")
    out.chmod(0o640)
    assert run("rarity", "cat", "--json", "-o", out).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    no_temp_left(tmp_path)


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file away needs root")
def test_regular_file_keeps_its_owner(tmp_path):
    out = tmp_path / "theirs.jsonl"
    out.write_text("old\n")
    os.chown(out, 4321, 4322)
    assert run("rarity", "cat", "--json", "-o", out).exit_code == 0
    info = out.stat()
    assert (info.st_uid, info.st_gid) == (4321, 4322)
    assert '"word":"cat"' in out.read_text()


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        out = tmp_path / "new.jsonl"
        with atomic_write(out) as fh:
            fh.write("x\n")
    finally:
        os.umask(old)
    # the umask is read once per process; whatever it was, mkstemp's 0600 is not kept
    assert stat.S_IMODE(out.stat().st_mode) in (0o640, 0o644, 0o666 & ~old)


def test_symlink_is_followed_and_kept(tmp_path):
    target = tmp_path / "real" / "boards.tsv"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o600)
    link = tmp_path / "link.tsv"
    link.symlink_to(target)
    assert run("rarity", "cat", "-o", link).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("word")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    no_temp_left(tmp_path)
    no_temp_left(target.parent)


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "made.jsonl")
    assert run("rarity", "cat", "--json", "-o", link).exit_code == 0
    assert link.is_symlink() and (tmp_path / "made.jsonl").read_text().startswith('{"word"')


def test_fifo_is_written_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = run("rarity", "cat", "dog", "--json", "-o", fifo)
    reader.join(10)
    assert result.exit_code == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].count(b"\n") == 2 and got[0].startswith(b'{"word":"cat"')
    no_temp_left(tmp_path)


def test_symlink_to_fifo_writes_the_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out.jsonl"
    link.symlink_to(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert run("rarity", "cat", "--json", "-o", link).exit_code == 0
    reader.join(10)
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got[0].startswith(b'{"word":"cat"')


def test_character_device_is_written_in_place(tmp_path):
    """A terminal is a character device: a pty we open stands in for /dev/null and co."""
    master, slave = os.openpty()
    try:
        name = os.ttyname(slave)
        before = os.stat(name)
        assert stat.S_ISCHR(before.st_mode)
        result = run("rarity", "cat", "--json", "-o", name)
        assert result.exit_code == 0, result.stderr
        data = os.read(master, 4096)
        assert b'"word":"cat"' in data
        after = os.stat(name)
        assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    finally:
        os.close(master)
        os.close(slave)


def test_a_device_is_never_renamed_over(tmp_path, monkeypatch):
    """With os.stat saying "character device", nothing may be renamed over the name."""
    target = tmp_path / "fake-device"
    target.write_text("")
    real_stat = os.stat

    def fake_stat(path, *args, **kwargs):
        info = real_stat(path, *args, **kwargs)
        if str(path) == str(target):
            fields = list(info)
            fields[0] = stat.S_IFCHR | 0o666
            return os.stat_result(fields)
        return info

    def no_rename(*args, **kwargs):
        raise AssertionError("renamed over a device")

    monkeypatch.setattr(os, "stat", fake_stat)
    monkeypatch.setattr(os, "replace", no_rename)
    monkeypatch.setattr(os, "rename", no_rename)
    with atomic_write(target) as fh:
        fh.write("into the device\n")
    assert target.read_text() == "into the device\n"
    no_temp_left(tmp_path)


def test_a_name_of_255_characters_is_writable(tmp_path):
    out = tmp_path / ("n" * 250 + ".tsv")
    assert run("rarity", "cat", "-o", out).exit_code == 0
    assert out.read_text().startswith("word")
    no_temp_left(tmp_path)
    one_error(run("rarity", "cat", "-o", tmp_path / ("n" * 300)), 1, "file name too long")


def test_directory_as_output_is_one_error(tmp_path):
    one_error(run("rarity", "cat", "-o", tmp_path), 2)
    with pytest.raises(CannotDo, match="is a directory"), atomic_write(tmp_path):
        pass


@pytest.mark.parametrize("where", ["body", "fsync"])
def test_io_error_is_one_line_and_leaves_nothing(tmp_path, monkeypatch, where):
    out = tmp_path / "kept.jsonl"
    out.write_text("old\n")

    def eio(*args, **kwargs):
        raise OSError(errno.EIO, "Input/output error")

    if where == "fsync":
        monkeypatch.setattr(os, "fsync", eio)
    with pytest.raises(CannotDo, match="cannot write: input/output error"), \
            atomic_write(out) as fh:
        fh.write("new\n")
        if where == "body":
            eio()
    assert out.read_text() == "old\n"
    no_temp_left(tmp_path)


def test_full_disk_on_o_and_on_stdout(tmp_path):
    vocab = words_vocab(tmp_path)
    with small_tmpfs(tmp_path / "disk") as disk:
        out = disk / "rated.tsv"
        out.write_text("old\n")
        result = run("rarity", "--vocab", vocab, "-o", out)
        one_error(result, 1, "cannot write: no space left on device", "rated.tsv")
        assert out.read_text() == "old\n"
        no_temp_left(disk)
        fill(disk)
        result = run("rarity", "cat", "-o", disk / "new.tsv")
        one_error(result, 1, "no space left on device")
        assert not (disk / "new.tsv").exists()
        no_temp_left(disk)
        # stdout on the full disk: a real process, its stdout a file there
        with open(disk / "stdout.txt", "wb") as fh:
            done = subprocess.run([*WFKIT, "rarity", "--vocab", str(vocab)], stdout=fh,
                                  stderr=subprocess.PIPE, timeout=120)
        err = done.stderr.decode()
        assert done.returncode == 1, err
        assert err.splitlines()[-1] == ("wfkit: error: cannot write to stdout: no space left "
                                        "on device"), err
        assert "Traceback" not in err and "Exception ignored" not in err, err


# --- -o and --stats checked before any work -----------------------------------------------

def test_o_and_stats_naming_one_file_are_refused_first(tmp_path):
    out = tmp_path / "boards.jsonl"
    out.write_text("old boards\n")
    argv = ["crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "3", "--seed", "1"]
    one_error(run(*argv, "-o", out, "--stats", out), 2, "name the same file")
    link = tmp_path / "link.json"
    link.symlink_to(out)
    one_error(run(*argv, "-o", out, "--stats", link), 2, "name the same file")
    hard = tmp_path / "hard.json"
    os.link(out, hard)
    one_error(run(*argv, "-o", out, "--stats", hard), 2, "name the same file")
    one_error(run(*argv, "-o", out, "--stats", tmp_path / "." / "boards.jsonl"), 2)
    assert out.read_text() == "old boards\n"
    kanji = ["kanji", "-n", "1", "--seed", "1"]
    one_error(run(*kanji, "-o", out, "--stats", out), 2, "name the same file")
    assert out.read_text() == "old boards\n"


def test_stats_into_a_missing_directory_fails_before_the_batch(tmp_path):
    out = tmp_path / "boards.jsonl"
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "3", "--seed", "1",
                 "-o", out, "--stats", tmp_path / "nowhere" / "stats.json")
    one_error(result, 2, "--stats", "directory does not exist")
    assert not out.exists()
    result = run("kanji", "-n", "2", "--seed", "1", "-o", out, "--stats", tmp_path)
    one_error(result, 2, "--stats", "is a directory")
    assert not out.exists()


def test_every_command_with_outputs_is_checked_first():
    """A new command with -o or --stats gets the check too: it is done by the group."""
    from wordforge_cli.cli import OUTPUT_PARAMS

    ctx = cli.make_context("wfkit", ["rarity", "cat"], resilient_parsing=True)
    seen = 0

    def walk(command):
        nonlocal seen
        names = {p.name for p in command.params}
        if names & set(OUTPUT_PARAMS):
            seen += 1
            assert getattr(command, "_wfkit_outputs_checked", False), command.name
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    for name in cli.list_commands(ctx):
        walk(cli.get_command(ctx, name))
    assert seen >= 5


def test_check_outputs_allows_distinct_files(tmp_path):
    check_outputs([("-o", tmp_path / "a"), ("--stats", tmp_path / "b"), ("-o", None),
                   ("-o", "-")])


# --- one line, controls escaped, paths quoted ---------------------------------------------

def test_one_line_escapes_every_control():
    assert one_line("a\nb\rc\td\x1b[31m\x00\x7f\x85\u2028") == (
        "a\\nb\\rc\\td\\x1b[31m\\x00\\u007f\\u0085\\u2028")
    assert one_line("plain: 熱帯 café") == "plain: 熱帯 café"


def test_paths_are_quoted_when_not_plain():
    assert show_path("/tmp/x/words.yaml") == "/tmp/x/words.yaml"
    assert show_path("my words.yaml") == "'my words.yaml'"
    assert show_path("a\nb") == "'a\\nb'"
    assert show_path("it's") == "'it\\'s'"
    assert str(ConfigError("bad", path="x\x1by", line=3)) == "'x\\x1by':3: bad"


@pytest.mark.parametrize("argv", [
    ["rarity", "--vocab", "no\nsuch\x1b[2J.yaml"],
    ["rarity", "--config", "a\nb.yaml", "cat"],
    ["rarity", "ca\nt"],
    ["rarity", "cat\x1b[31m"],
    ["rarity", "--render", "x\ny", "cat"],
    ["crossword", "--vocab", "v\n.yaml", "-o", "x\ny/z"],
    ["kanji", "check", "熱\n帯", "--pool", "p\x1b.jsonl"],
    ["score", "qu\naff", "--wild", "1\n2"],
    ["pack", "check", "c\nfg.yaml", "--out", "o\nut"],
])
def test_messages_are_one_line_with_controls_escaped(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, argv)
    assert result.exit_code in (1, 2), result.stderr
    assert isinstance(result.exception, SystemExit | None), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "\x1b" not in lines[0] and "\x00" not in lines[0]


def test_a_word_with_controls_in_a_vocabulary_is_one_line(tmp_path):
    vocab = tmp_path / "v.yaml"
    vocab.write_text('words: ["ca\\x1b[31mt", "d\\u0000og"]\n', encoding="utf-8")
    line = one_error(run("rarity", "--vocab", vocab), 2, ":1:")
    assert "U+001B" in line and "\x1b" not in line


@pytest.mark.parametrize("closed", [1, 2])
def test_a_closed_stdout_or_stderr(tmp_path, closed):
    """``wfkit ... >&-`` and ``2>&-``: one error (or quiet success), never an internal error;
    ``-o`` still works with stdout closed."""
    out = tmp_path / "o.tsv"

    def start(argv):
        return subprocess.run([*WFKIT, *argv], stdout=None if closed == 1 else subprocess.PIPE,
                              stderr=None if closed == 2 else subprocess.PIPE,
                              preexec_fn=lambda: os.close(closed), timeout=60)

    done = start(["rarity", "cat", "-o", str(out)])
    assert done.returncode == 0 and out.read_text().startswith("word")
    done = start(["rarity", "cat"])
    if closed == 1:
        assert done.returncode == 1
        assert done.stderr.decode() == "wfkit: error: cannot write to stdout: stdout is closed\n"
    else:
        assert done.returncode == 0 and done.stdout.startswith(b"word")
        done = start(["rarity", "c4t"])
        assert done.returncode == 2 and done.stdout == b""


@pytest.mark.skipif(sys.platform != "linux", reason="closing a descriptor for a child")
@pytest.mark.parametrize("form", [["-n", "4096"], ["endless", "--count", "4096"]])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_stdout_is_one_line_with_or_without_workers(form: list[str],
                                                              jobs: str) -> None:
    """A run big enough for the workers writes their chunks as bytes to stdout: a closed
    stdout is the same one line as in one process."""
    sub, rest = (form[:1], form[1:]) if form[0] == "endless" else ([], form)
    proc = subprocess.run([sys.executable, "-m", "wordforge_cli", "crossword", *sub,
                           "--vocab", str(EXAMPLES / "tech.yaml"), *rest, "--seed", "1",
                           "--jobs", jobs], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, timeout=300, preexec_fn=_close_stdout)
    assert (proc.returncode, proc.stderr) == (
        1, "wfkit: error: cannot write to stdout: stdout is closed\n")


def _close_stdout() -> None:
    os.close(1)
