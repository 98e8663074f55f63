"""Where a pack's bytes go: into a directory (each file via a temporary name, renamed when
complete) or into a comparison with a directory that already holds a pack (``pack check``).

Both compute the sha256, size and line count of every file, so a build and a check describe
the same bytes with the same manifest.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.io.inputs import file_kind
from wordforge_cli.io.output import write_behind, write_reason

MANIFEST = "manifest.json"
SHOW = 160  # characters of a differing record shown by check
# one component of a path inside a pack: what wfkit writes, nothing a shell or a terminal
# would read twice (no control character, no '/', no leading dot, no '..')
COMPONENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")
MAX_PACK_PATH = 1024


def check_relpath(relpath: object) -> str | None:
    """Why ``relpath`` cannot name a file inside a pack (None when it can).

    Only relative POSIX paths of plain components: no absolute path, no ``..`` or ``.``, no
    empty component, no backslash, no control character, no hidden name.
    """
    if not isinstance(relpath, str):
        return "must be a string"
    if not relpath or len(relpath) > MAX_PACK_PATH:
        return f"must be a path of 1 to {MAX_PACK_PATH} characters"
    for part in relpath.split("/"):
        if not COMPONENT.fullmatch(part) or part in (".", ".."):
            return (f"is not a path inside the pack ({_quote(relpath)}: only letters, digits, "
                    "'_', '-' and '.' between '/', no '..', no hidden or absolute path)")
    return None


def _quote(text: str, limit: int = 80) -> str:
    shown = text if len(text) <= limit else text[:limit] + "..."
    return repr(shown)


def open_inside(root: Path, relpath: str, *, what: str = "file",
                max_bytes: int | None = None,
                root_fd: int | None = None) -> tuple[BinaryIO, int]:
    """Open ``root/relpath`` for reading, refusing anything that is not a regular file inside
    ``root``: no symbolic link on the way (wfkit never writes one into a pack), no FIFO,
    device or directory, nothing bigger than ``max_bytes``. Returns the file and its size.

    The FIFO is opened non-blocking, so it cannot hang the run; the size is the one the
    open file has (``fstat``), so a file swapped in after the check is not the one read.
    """
    reason = check_relpath(relpath)
    where = root / relpath if isinstance(relpath, str) else root
    if reason is not None:
        raise UsageError(f"{what} {reason}", path=root)
    parts = relpath.split("/")
    flags = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW
    try:  # ``root_fd``: the directory opened once (``root`` only names it in messages)
        fd = os.dup(root_fd) if root_fd is not None else os.open(
            root, os.O_RDONLY | os.O_CLOEXEC | os.O_DIRECTORY)
    except OSError as exc:
        raise _open_error(exc, "directory", root) from None
    try:
        for part in parts[:-1]:
            nxt = os.open(part, flags | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        nxt = os.open(parts[-1], flags | os.O_NONBLOCK, dir_fd=fd)
    except OSError as exc:
        os.close(fd)
        raise _open_error(exc, what, where) from None
    os.close(fd)
    fd = nxt
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"{what} is {file_kind(st.st_mode)}, not a regular file",
                             path=where)
        if max_bytes is not None and st.st_size > max_bytes:
            raise UsageError(f"{what} is {st.st_size:,} bytes; at most {max_bytes:,} are "
                             "accepted for it", path=where)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb"), st.st_size
    except BaseException:
        os.close(fd)
        raise


class MissingFile(CannotDo):
    """A pack file that is not there (exit 1)."""


def _open_error(exc: OSError, what: str, where: Path) -> Exception:
    if exc.errno == errno.ENOENT:
        return MissingFile(f"{what} is missing", path=where)
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return UsageError(f"{what} is reached through a symbolic link or a non-directory "
                          "(pack files are plain files inside the pack, never links)",
                          path=where)
    return CannotDo(f"cannot read the {what}: {write_reason(exc)}", path=where)




def read_bounded(fh: BinaryIO, size: int, sink: Callable[[bytes], object] | None = None, *,
                 what: str, path: Path) -> hashlib._Hash:
    """Read exactly ``size`` bytes (the size the file had when opened), feeding ``sink``;
    a file that shrinks or grows while read is refused rather than followed forever."""
    digest = hashlib.sha256()
    left = size
    while left > 0:
        block = fh.read(min(left, 1 << 20))
        if not block:
            raise CannotDo(f"{what} shrank while it was read", path=path)
        left -= len(block)
        digest.update(block)
        if sink is not None:
            sink(block)
    if fh.read(1):
        raise CannotDo(f"{what} grew while it was read", path=path)
    return digest


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
MAX_DEPTH = 64  # folders in folders inside a pack (wfkit writes two levels)


class TooDeep(UsageError):
    """A tree nested deeper than :data:`MAX_DEPTH` (exit 2)."""


def open_dir(name: str | Path, dir_fd: int | None = None) -> int:
    """A directory opened as a handle, never through a symbolic link at its last step."""
    return os.open(name, DIR_FLAGS, dir_fd=dir_fd)


def lstat_at(root_fd: int, relpath: str) -> os.stat_result | None:
    """``lstat`` of ``relpath`` under the directory ``root_fd``, no link followed on the
    way; None when it is not there (or a link or a file stands where a folder should)."""
    parts = relpath.split("/")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            nxt = open_dir(part, fd)
            os.close(fd)
            fd = nxt
        return os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
    except OSError:
        return None
    finally:
        os.close(fd)


def walk_at(root_fd: int, root: Path, *, bottom_up: bool = False
            ) -> Iterator[tuple[str, int, list[str], list[str]]]:
    """Every directory under the handle ``root_fd``: (its path relative to the root, ""
    for the root, its handle, its folders, everything else in it: files, links, FIFOs).

    Each folder is opened by name from its parent's handle without following a link (one
    swapped in for a folder is not entered), the walk keeps no stack of Python frames
    (a tree 1,200 levels deep costs no recursion), and a tree deeper than MAX_DEPTH is
    refused with one line rather than followed. Top-down, a caller may prune the folder
    list in place; ``bottom_up`` gives each folder after its contents."""
    def listing(fd: int) -> tuple[list[str], list[str]]:
        dirs: list[str] = []
        others: list[str] = []
        with os.scandir(fd) as entries:
            for entry in entries:
                (dirs if entry.is_dir(follow_symlinks=False) else others).append(entry.name)
        return sorted(dirs), sorted(others)

    top = os.dup(root_fd)
    stack: list[tuple[str, int, list[str], list[str], list[int]]] = []
    try:
        dirs, others = listing(top)
        stack.append(("", top, dirs, others, [0]))
        if not bottom_up:
            yield "", top, dirs, others
        while stack:
            rel, fd, dirs, others, at = stack[-1]
            if at[0] < len(dirs):
                name = dirs[at[0]]
                at[0] += 1
                if len(stack) > MAX_DEPTH:
                    raise TooDeep(f"folders nested more than {MAX_DEPTH} levels deep (a pack "
                                  "nests two); move that tree away", path=root / rel / name)
                try:
                    child = open_dir(name, fd)
                except OSError:  # gone, or a link swapped in for the folder: not entered
                    continue
                crel = f"{rel}/{name}" if rel else name
                try:
                    cdirs, cothers = listing(child)
                except BaseException:
                    os.close(child)
                    raise
                stack.append((crel, child, cdirs, cothers, [0]))
                if not bottom_up:
                    yield crel, child, cdirs, cothers
            else:
                stack.pop()
                try:
                    if bottom_up:
                        yield rel, fd, dirs, others
                finally:
                    os.close(fd)
    finally:
        for frame in stack:
            os.close(frame[1])


def make_dirs_at(root_fd: int, rel_dir: str, like: int | Path | None) -> int:
    """Create ``rel_dir`` under the handle ``root_fd`` (each missing folder with the mode its
    twin under ``like``, a handle or a path, has, else the umask's default) and return its
    handle; a link on the way is refused (ELOOP), never followed."""
    fd = os.dup(root_fd)
    done: list[str] = []
    try:
        for part in (p for p in rel_dir.split("/") if p):
            done.append(part)
            try:
                nxt = open_dir(part, fd)
            except FileNotFoundError:
                os.mkdir(part, 0o700, dir_fd=fd)
                nxt = open_dir(part, fd)
                if isinstance(like, int):
                    st = lstat_at(like, "/".join(done))
                    mode = stat.S_IMODE(st.st_mode) if st is not None and stat.S_ISDIR(
                        st.st_mode) else 0o777 & ~_umask()
                else:
                    mode = _mode_like(like, Path(*done), 0o777)
                os.fchmod(nxt, mode)
            os.close(fd)
            fd = nxt
        return fd
    except BaseException:
        os.close(fd)
        raise


def _mode_like(like: Path | None, relpath: Path, default: int) -> int:
    """The permission bits of ``like/relpath`` when it is the same kind of thing; else the
    umask applied to ``default``."""
    if like is not None:
        try:
            st = os.lstat(like / relpath)
        except OSError:
            st = None
        if st is not None and (stat.S_ISDIR(st.st_mode) if default == 0o777
                               else stat.S_ISREG(st.st_mode)):
            return stat.S_IMODE(st.st_mode)
    return default & ~_umask()


@dataclass
class FileResult:
    path: str
    sha256: str
    bytes: int
    lines: int
    status: str = "written"  # written | current | stale | missing
    detail: str = ""


class _Out:
    def __init__(self, relpath: str):
        self.relpath = relpath
        self.hash = hashlib.sha256()
        self.size = 0
        self.lines = 0

    def write(self, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.hash.update(data)
        self.size += len(data)
        self.lines += data.count(b"\n")
        self._write(data)

    def _write(self, data: bytes) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def result(self, status: str, detail: str = "") -> FileResult:
        return FileResult(self.relpath, self.hash.hexdigest(), self.size, self.lines, status,
                          detail)


class _FileOut(_Out):
    """A file written to ``.NAME.XXXX.tmp`` beside its final name, renamed when complete;
    every step is taken from the directory handle ``root_fd`` (mkdir, open, rename by
    ``dir_fd``), so a folder swapped for a link mid-build is never written through."""

    def __init__(self, root: Path, relpath: str, like: Path | None, root_fd: int):
        super().__init__(relpath)
        reason = check_relpath(relpath)
        if reason is not None:  # never reached from wfkit's own paths: the last guard
            raise UsageError(f"a pack path {reason}", path=root)
        self.final = root / relpath
        self.mode = _mode_like(like, Path(relpath), 0o666)
        self.dir_fd = make_dirs_at(root_fd, relpath.rpartition("/")[0], like)
        try:
            while True:
                name = f".{self.final.name}.{secrets.token_hex(4)}.tmp"
                try:
                    fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                                 | os.O_CLOEXEC, 0o600, dir_fd=self.dir_fd)
                    break
                except FileExistsError:
                    continue
        except BaseException:
            os.close(self.dir_fd)
            raise
        self.tmp = self.final.with_name(name)
        self.fh = os.fdopen(fd, "wb")
        self.behind = write_behind(self.fh)  # (the fsync at close waits for the last part)

    def _write(self, data: bytes) -> None:
        self.fh.write(data)
        self.behind()

    def close(self) -> FileResult:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        os.fchmod(self.fh.fileno(), self.mode)  # the pack's own mode for it, else the umask's
        self.fh.close()
        try:
            os.replace(self.tmp.name, self.final.name, src_dir_fd=self.dir_fd,
                       dst_dir_fd=self.dir_fd)
        finally:
            os.close(self.dir_fd)
        return self.result("written")


class DirSink:
    """Writes a pack into ``root`` (a staging directory: see ``store``) through its handle
    ``root_fd``."""

    def __init__(self, root: Path, like: Path | None, root_fd: int):
        self.root = root
        self.like = like  # the pack being replaced: its files' and folders' modes are kept
        self.root_fd = root_fd

    def open(self, relpath: str) -> _FileOut:
        return _FileOut(self.root, relpath, self.like, self.root_fd)

    def finish(self, produced: list[str]) -> list[str]:
        fsync_dirs(self.root, produced)
        return []


class _CompareOut(_Out):
    """Compares what a build would write with the file already there, line by line."""

    def __init__(self, root: Path, relpath: str):
        super().__init__(relpath)
        self.fh: BinaryIO | None = None
        self.refused = ""
        self.left = 0  # bytes of the file not yet read (its size when opened)
        try:
            self.fh, self.left = open_inside(root, relpath, what="pack file")
        except MissingFile:
            pass
        except (UsageError, CannotDo) as exc:  # a link, a FIFO, a folder: stale, never read
            self.refused = exc.message
        self.pending = b""
        self.found = 0
        self.compared = 0
        self.first: tuple[int, bytes, bytes] | None = None

    def _write(self, data: bytes) -> None:
        if self.fh is None:
            return
        parts = (self.pending + data).split(b"\n")
        self.pending = parts.pop()
        for part in parts:
            self._compare(part + b"\n")

    def _compare(self, expected: bytes) -> None:
        actual = self._readline(len(expected) + 1)
        if actual:
            self.found += 1
        self.compared += 1
        if actual != expected and self.first is None:
            self.first = (self.compared, expected, actual)

    def _readline(self, limit: int) -> bytes:
        """The next line, at most ``limit`` bytes of it kept (the rest of a long line is
        skipped in blocks: a hostile file's one huge line is never held in memory)."""
        if self.left <= 0 or self.fh is None:
            return b""
        line = self.fh.readline(min(self.left, limit))
        self.left -= len(line)
        if line.endswith(b"\n"):
            return line
        while self.left > 0:
            rest = self.fh.readline(min(self.left, 1 << 16))
            if not rest:
                break
            self.left -= len(rest)
            if rest.endswith(b"\n"):
                break
        return line

    def close(self) -> FileResult:
        if self.refused:
            return self.result("stale", self.refused)
        if self.fh is None:
            return self.result("missing", "missing")
        if self.pending:
            self._compare(self.pending)
        while self.left > 0 and (block := self.fh.read(min(self.left, 1 << 16))):
            self.left -= len(block)  # what the file holds beyond the expected end
            self.found += block.count(b"\n")
            if self.first is None:
                self.first = (self.compared + 1, b"", block.split(b"\n", 1)[0])
        self.fh.close()
        if self.first is None:
            return self.result("current")
        line, expected, actual = self.first
        unit = "records" if self.relpath.endswith(".jsonl") else "lines"
        want, got, column = excerpts(expected, actual)
        where = f", character {column}" if expected and actual else ""
        detail = (f"{unit}: expected {self.lines}, found {self.found}; first difference at "
                  f"line {line}{where}: expected {want}, found {got}")
        return self.result("stale", detail)


def excerpts(expected: bytes, actual: bytes) -> tuple[str, str, int]:
    """Both lines as excerpts of at most SHOW characters centred on the first character that
    differs (so two long records never show the same text), and that character's 1-based
    column."""
    want = expected.decode("utf-8", errors="replace").rstrip("\n")
    got = actual.decode("utf-8", errors="replace").rstrip("\n")
    column = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
                  min(len(want), len(got)))
    start = max(0, column - SHOW // 2)

    def show(text: str, data: bytes) -> str:
        if not data:
            return "(end of file)"
        first = min(start, max(0, len(text) - SHOW))
        part = text[first:first + SHOW]
        return (("..." if first else "") + repr(part)
                + ("..." if first + SHOW < len(text) else ""))

    return show(want, expected), show(got, actual), column + 1


class CompareSink:
    """``pack check``: nothing is written; every file is compared with ``root``."""

    def __init__(self, root: Path):
        self.root = root

    def open(self, relpath: str) -> _CompareOut:
        return _CompareOut(self.root, relpath)

    def finish(self, produced: list[str]) -> list[str]:
        """Files in the directory that the build would not write (hidden files aside)."""
        expected = set(produced)
        if not self.root.is_dir():
            return []
        return sorted(p for p in pack_files(self.root) if p not in expected)


# where a build streams a pack: a staging directory (build) or a comparison (check)
Sink = DirSink | CompareSink
SinkFile = _FileOut | _CompareOut


def pack_files(root: Path) -> list[str]:
    """Every entry under ``root`` but its folders as a POSIX relative path (files, links,
    FIFOs: what a build would not write is unexpected), skipping hidden entries; links
    are not followed, and a tree nested deeper than MAX_DEPTH is refused (one line)."""
    found = []
    try:
        root_fd = open_dir(root)
    except OSError:
        return []
    try:
        for rel, _fd, dirnames, others in walk_at(root_fd, root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            found += [f"{rel}/{name}" if rel else name for name in others
                      if not name.startswith(".")]
    finally:
        os.close(root_fd)
    return sorted(found)


def fsync_dirs(root: Path, relpaths: list[str]) -> None:
    """Make the renames durable: fsync every directory that received a file."""
    for directory in sorted({(root / p).parent for p in relpaths} | {root}):
        fsync_dir(directory)


def fsync_dir(directory: Path) -> None:
    """Make a rename in ``directory`` durable (best effort: some filesystems refuse)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
