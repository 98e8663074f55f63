"""Writing results: JSON that is byte-stable, and files that are never left half-written."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from wordforge_cli.errors import CannotDo


def dumps(record: Any) -> str:
    """One JSON document on one line; key order as built, never sorted or salted."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def dumps_pretty(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, indent=2)


@contextlib.contextmanager
def atomic_write(path: str | Path | None, *, binary: bool = False) -> Iterator[IO]:
    """Open ``path`` for writing; it appears only when complete (temp file + rename).

    ``None`` or ``-`` writes to stdout. On any error the temporary file is removed and the
    previous file, if there was one, is left as it was.
    """
    if path is None or str(path) == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        return
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise CannotDo("directory does not exist", path=directory)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise CannotDo(f"cannot write: {exc.strerror}", path=path) from None
    try:
        mode = "wb" if binary else "w"
        kwargs = {} if binary else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_jsonl(records: Iterable[Any], fh: IO[str]) -> int:
    """Stream records as JSON Lines; returns how many were written."""
    count = 0
    for record in records:
        fh.write(dumps(record))
        fh.write("\n")
        count += 1
    return count
