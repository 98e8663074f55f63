"""Reading the files wfkit is given: regular files only, each kind of file with a size cap.

A FIFO given as an input would hang the run, and a device such as ``/dev/zero`` would be read
until memory runs out; so an input is opened without blocking (``O_NONBLOCK``: opening a FIFO
returns at once), the *opened* descriptor is checked with ``fstat`` (no race between a check
and the open), and only a regular file of at most its kind's cap is read. The caps are far
above any real file of the kind (the bundled word table is 4.6 MB) and are named in the
message, so a user who needs more knows what limit they met.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from pathlib import Path

from wordforge_cli.core.errors import ConfigError

MiB = 1024 * 1024

# kind of file -> the most bytes wfkit reads of it
CAPS: dict[str, int] = {
    "config": 16 * MiB,
    "vocabulary": 256 * MiB,
    "CEFR table": 64 * MiB,
    "overrides table": 64 * MiB,
    "word table": 256 * MiB,
    "dictionary": 256 * MiB,
    "pools file": 1024 * MiB,
    "file": 256 * MiB,
}


def size_text(size: int) -> str:
    if size >= MiB:
        return f"{size / MiB:.1f} MiB"
    return f"{size:,} bytes"


def file_kind(mode: int) -> str:
    """What a file is that is not a regular one, in a message's words (the one list of them:
    an input, a pack section's file, a pack file and a starter file's place are named so)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "a special file"


def _not_regular(mode: int, kind: str, path: str | Path) -> ConfigError:
    if stat.S_ISDIR(mode):
        return ConfigError("is a directory, not a file", path=path)
    what = "files" if kind == "file" else f"a {kind} from files"
    return ConfigError(f"{file_kind(mode)}, not a regular file (wfkit reads {what} that are "
                       "regular files only)", path=path)


def open_regular(path: str | Path, kind: str = "file") -> tuple[int, os.stat_result]:
    """An open descriptor of ``path`` (the caller closes it) and its fstat, once it is known
    to be a regular file within the cap of ``kind``; else a one-line ConfigError."""
    cap = CAPS.get(kind, CAPS["file"])
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise ConfigError("no such file", path=path) from None
    except IsADirectoryError:
        raise ConfigError("is a directory, not a file", path=path) from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket cannot be opened: say what it is
            with contextlib.suppress(OSError):
                mode = os.stat(path).st_mode
                if not stat.S_ISREG(mode):
                    raise _not_regular(mode, kind, path) from None
        raise ConfigError(f"cannot read: {exc.strerror}", path=path) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # the opened file's kind: no race with a check
            raise _not_regular(info.st_mode, kind, path)
        if info.st_size > cap:
            raise ConfigError(f"too large for a {kind}: {size_text(info.st_size)} "
                              f"(the cap is {size_text(cap)})", path=path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_bytes(path: str | Path, kind: str = "file", *, stdin: bool = False) -> bytes:
    """The bytes of a regular file of at most its kind's cap (also if it grows while read).

    ``stdin``: ``-`` reads standard input (a pipe is fine there: it ends), under the same cap.
    """
    cap = CAPS.get(kind, CAPS["file"])
    if stdin and str(path) == "-":
        try:
            data = sys.stdin.buffer.read(cap + 1)
        except (OSError, AttributeError, ValueError) as exc:
            raise ConfigError(f"cannot read standard input: {exc}", path="-") from None
    else:
        fd, _info = open_regular(path, kind)
        try:
            with os.fdopen(fd, "rb") as fh:
                data = fh.read(cap + 1)
        except OSError as exc:
            raise ConfigError(f"cannot read: {exc.strerror}", path=path) from None
    if len(data) > cap:
        raise ConfigError(f"too large for a {kind}: over {size_text(cap)} (the cap)", path=path)
    return data
