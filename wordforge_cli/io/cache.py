"""A per-user cache of what wfkit derives from its inputs at length (the hand index).

Files live in ``$XDG_CACHE_HOME/wfkit`` (``~/.cache/wfkit`` when the variable is unset or not
an absolute path); ``WFKIT_NO_CACHE=1`` turns the cache off. Each file is named by the key of
everything it was made from and holds that key, so a file made from other inputs is never
read as this one. A cache file is read as hostile input: a regular file (a symlink is not
followed), no larger than the caller's cap, with the magic, the very key asked for, the
payload's length and its sha256; anything else is a miss and the caller builds what it needs.
Writes are atomic (a temporary file beside it, then a rename) and best effort: an unwritable
or full cache directory only means the next run builds again. Only the newest few files of a
kind are kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import struct
import tempfile
from pathlib import Path

from wordforge_cli.core import signals

MAGIC = b"wfkit-cache\x00"
_HEADER = struct.Struct("<12s32sQ32s")  # magic, key, payload length, payload sha256
KEEP = 8  # files of one kind kept (one per rules, table and hand length a user works with)


def cache_dir() -> Path | None:
    """The cache directory, or None when the cache is off (or no home can be found)."""
    if os.environ.get("WFKIT_NO_CACHE", "") not in ("", "0"):
        return None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative path is ignored
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError, OSError):
            return None
    return Path(base) / "wfkit"


def _name(kind: str, key: bytes) -> str:
    return f"{kind}-{key.hex()[:32]}.bin"


def read(kind: str, key: bytes, cap: int) -> bytes | None:
    """The payload stored for ``key`` (32 bytes), or None (no cache, no file, or a file that
    is not exactly what :func:`write` makes for this key, at most ``cap`` bytes)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        fd = os.open(folder / _name(kind, key), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
                     | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _HEADER.size <= info.st_size <= cap:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = fh.read(info.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) < _HEADER.size:  # (cut short since its fstat)
        return None
    magic, stored, length, digest = _HEADER.unpack_from(data)
    payload = data[_HEADER.size:]
    if (magic != MAGIC or stored != key or length != len(payload)
            or hashlib.sha256(payload).digest() != digest):
        return None
    return payload


def write(kind: str, key: bytes, payload: bytes) -> bool:
    """Store ``payload`` for ``key``; False when the cache is off or cannot be written."""
    folder = cache_dir()
    if folder is None:
        return False
    data = _HEADER.pack(MAGIC, key, len(payload), hashlib.sha256(payload).digest()) + payload
    tmp = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with signals.deferred():  # no signal between making the file and registering it
            fd, tmp = tempfile.mkstemp(prefix=f".{kind}.", suffix=".tmp", dir=folder)
            token = signals.register(lambda: _remove(tmp))
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, folder / _name(kind, key))
            tmp = None
        finally:
            if tmp is not None:
                _remove(tmp)
            signals.unregister(token)
    except OSError:
        return False
    _prune(folder, kind)
    return True


def _remove(path: str | None) -> None:
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _prune(folder: Path, kind: str) -> None:
    """Remove all but the :data:`KEEP` newest files of ``kind``."""
    try:
        found = []
        for entry in os.scandir(folder):
            if entry.name.startswith(f"{kind}-") and entry.name.endswith(".bin"):
                found.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
    except OSError:
        return
    for _, name in sorted(found, reverse=True)[KEEP:]:
        _remove(str(folder / name))
