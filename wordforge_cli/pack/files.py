"""Where a pack's bytes go: into a directory (each file via a temporary name, renamed when
complete) or into a comparison with a directory that already holds a pack (``pack check``).

Both compute the sha256, size and line count of every file, so a build and a check describe
the same bytes with the same manifest.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

MANIFEST = "manifest.json"
SHOW = 160  # characters of a differing record shown by check


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
    """A file written to ``.NAME.XXXX.tmp`` beside its final name, renamed when complete."""

    def __init__(self, root: Path, relpath: str):
        super().__init__(relpath)
        self.final = root / relpath
        self.final.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.final.name}.", suffix=".tmp",
                                   dir=self.final.parent)
        self.tmp = Path(tmp)
        self.fh = os.fdopen(fd, "wb")

    def _write(self, data: bytes) -> None:
        self.fh.write(data)

    def close(self) -> FileResult:
        self.fh.flush()
        os.fsync(self.fh.fileno())
        self.fh.close()
        os.chmod(self.tmp, 0o644)
        os.replace(self.tmp, self.final)
        return self.result("written")


class DirSink:
    """Writes a pack into ``root`` (a staging directory: see ``store``)."""

    checking = False

    def __init__(self, root: Path):
        self.root = root

    def open(self, relpath: str) -> _FileOut:
        return _FileOut(self.root, relpath)

    def finish(self, produced: list[str]) -> list[str]:
        fsync_dirs(self.root, produced)
        return []


class _CompareOut(_Out):
    """Compares what a build would write with the file already there, line by line."""

    def __init__(self, root: Path, relpath: str):
        super().__init__(relpath)
        path = root / relpath
        self.fh = path.open("rb") if path.is_file() else None
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
        actual = self.fh.readline()
        if actual:
            self.found += 1
        self.compared += 1
        if actual != expected and self.first is None:
            self.first = (self.compared, expected, actual)

    def close(self) -> FileResult:
        if self.fh is None:
            return self.result("missing", "missing")
        if self.pending:
            self._compare(self.pending)
        while block := self.fh.read(1 << 16):  # what the file holds beyond the expected end
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

    checking = True

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


def pack_files(root: Path) -> list[str]:
    """Every regular file under ``root`` as a POSIX relative path, skipping hidden entries."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        rel = Path(dirpath).relative_to(root)
        for name in sorted(filenames):
            if not name.startswith("."):
                found.append((rel / name).as_posix())
    return found


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
