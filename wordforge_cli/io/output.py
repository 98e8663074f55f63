"""Writing results: JSON that is byte-stable, and files that are never left half-written.

Every text written here is shown through the one set of control characters
(:mod:`wordforge_cli.core.text`): the JSON writers escape what JSON leaves raw (DEL, C1, the
line separators, the bidirectional controls) as ``\\uNNNN``, and a file or stdout opened in
text mode escapes whatever reaches it, so no road from a crafted file to an output carries
one raw.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import json
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, cast

from wordforge_cli.core import signals
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.text import shown, shown_json_utf8


def dumps(record: Any) -> str:
    """One JSON document on one line; key order as built, never sorted or salted; control
    characters escaped (``\\uNNNN``: the same document once read)."""
    return shown(json.dumps(record, ensure_ascii=False, separators=(",", ":")))


def dumps_plain(record: Any) -> str:
    """:func:`dumps` for records of strings, whole numbers, booleans, null, lists and string-
    keyed objects only (no floats: orjson writes 1e-07 as 1e-7), through orjson: the same
    bytes about 15 times faster (a property test holds them equal). Crossword boards use it:
    JSON encoding was a third of a batch's time."""
    global _orjson
    if _orjson is None:
        import orjson

        _orjson = orjson
    try:
        dumped: bytes = _orjson.dumps(record)  # (the module is held untyped: imported lazily)
        return shown_json_utf8(dumped).decode("utf-8")
    except TypeError:  # what orjson cannot write (an integer past 64 bits): the slow way
        return dumps(record)


def dumps_utf8(record: Any) -> bytes:
    """``dumps_plain(record)`` in UTF-8, straight from orjson (no text between): what the
    crossword JSON Lines and ipuz renders join their lines from."""
    global _orjson
    if _orjson is None:
        import orjson

        _orjson = orjson
    try:
        dumped: bytes = _orjson.dumps(record)
        return shown_json_utf8(dumped)
    except TypeError:  # (as dumps_plain: the slow way, then encoded)
        return dumps(record).encode()


_orjson: Any = None


def dumps_pretty(record: Any) -> str:
    """:func:`dumps` laid out over lines, two spaces an indent (a manifest, a report)."""
    return shown(json.dumps(record, ensure_ascii=False, indent=2))


# errors of a write itself (a full or read-only disk, a failing device), as opposed to a bug
# or an input that went missing: they become one line and exit 1
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG, errno.EROFS})


def write_reason(exc: OSError) -> str:
    """"no space left on device": why a write failed, as a message goes on."""
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


def write_failed(exc: OSError, path: str | Path) -> CannotDo:
    """The one-line error of a write that failed (the old file, if any, is left as it was)."""
    return CannotDo(f"cannot write: {write_reason(exc)}", path=path)


@functools.cache
def _umask() -> int:
    """The process umask, read without changing it where Linux allows (/proc), else set back."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _maybe_stat(path: str | Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def _target_stat(path: Path) -> os.stat_result | None:
    """The stat of what ``path`` names, through symlinks; None when nothing is there yet."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise write_failed(exc, path) from None


SYNC_FILE_RANGE_WRITE = 2
_SYNC_RANGE: Any = None  # libc's sync_file_range, found at its first use (False: none here)


def write_behind(fh: IO[Any]) -> Callable[[], None]:
    """A call that starts writing what has been written to ``fh`` to the disk, without
    waiting for it (Linux's ``sync_file_range``), so that the ``fsync`` a finished file gets
    before its rename waits for its last part only: 26 MB of boards took 24-37 ms there, at
    the end of the run when nothing else goes on, and 0.2 ms with each chunk sent on its way
    as it was written. Does nothing for what is no regular file (a pipe, a terminal, a
    device) or where the call does not exist."""
    global _SYNC_RANGE
    try:
        regular = stat.S_ISREG(os.fstat(fh.fileno()).st_mode)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        regular = False
    if _SYNC_RANGE is None and regular:
        try:
            import ctypes

            call = ctypes.CDLL(None, use_errno=True).sync_file_range
            call.argtypes = [ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint]
            _SYNC_RANGE = call
        except (OSError, AttributeError):
            _SYNC_RANGE = False
    if not (regular and _SYNC_RANGE):
        return lambda: None
    fd = fh.fileno()

    def behind() -> None:
        fh.flush()  # (a write error is the caller's, as at any write)
        _SYNC_RANGE(fd, 0, 0, SYNC_FILE_RANGE_WRITE)  # (a failure here is no error: -1)

    return behind


@contextlib.contextmanager
def atomic_write(path: str | Path | None, *, binary: bool = False) -> Iterator[IO[Any]]:
    """Open ``path`` for writing into what the user named.

    In text mode every write is shown through the one set of control characters
    (:func:`~wordforge_cli.core.text.shown`: a document keeps its line breaks, any other
    control is escaped); in binary mode the bytes are written as given: the section lines
    and renders written so are made by the escaping writers (:func:`dumps_utf8`,
    ``render.render``), and a database is bytes, not text.

    ``None`` or ``-`` writes to stdout. A regular file (or a new one) appears only when
    complete: a temporary file beside it, then a rename; the file keeps its mode and owner.
    A symlink is followed: its target is written, the link stays. Anything else that exists
    (a FIFO, a terminal, a device) is opened and written directly, never renamed over. On any
    error or signal the temporary file is removed and the previous file is left as it was; a
    failed write (full disk, read-only file system, I/O error) is one CannotDo line.
    """
    if path is None or str(path) == "-":
        yield sys.stdout.buffer if binary else _shown(sys.stdout)
        return
    path = Path(path)
    mode = "wb" if binary else "w"
    kwargs: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    info = _target_stat(path)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise CannotDo("cannot write: is a directory", path=path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        with _direct(path, mode, kwargs) as fh:
            yield fh if binary else _shown(fh)
        return
    real = Path(os.path.realpath(path))  # a symlink's target is replaced, the link kept
    directory = real.parent
    if not directory.is_dir():
        raise CannotDo("directory does not exist", path=directory)
    with signals.deferred():  # a signal cannot fall between making the file and registering it
        try:
            # at most 100 characters of the name: a legal 255-character name stays writable
            fd, tmp = tempfile.mkstemp(prefix=f".{real.name[:100]}.", suffix=".tmp",
                                       dir=directory)
        except OSError as exc:
            raise write_failed(exc, path) from None
        token = signals.register(functools.partial(_remove, tmp))
    pending = False
    try:
        try:
            with os.fdopen(fd, mode, **kwargs) as fh:
                yield from _written(fh if binary else _shown(fh), path)
                fh.flush()
                os.fsync(fh.fileno())
                _keep_mode(fh.fileno(), info)
            signals.check()  # a signal swallowed on the way keeps the old file too
            if _GROUPS:  # renamed with the command's other outputs (see ``together``)
                _GROUPS[-1].append((tmp, real, path, token))
                pending = True
            else:
                os.replace(tmp, real)
        except OSError as exc:
            raise write_failed(exc, path) from None
    except BaseException:
        _remove(tmp)
        raise
    finally:
        if not pending:
            signals.unregister(token)


class Shown:
    """A text file whose every write is shown through the one set of control characters
    (:func:`~wordforge_cli.core.text.shown`); anything else is the file's own."""

    def __init__(self, raw: IO[str]):
        self.raw = raw

    def write(self, text: str) -> int:
        return self.raw.write(shown(text))

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.raw.write(shown(line))

    def __getattr__(self, name: str) -> Any:  # fileno, flush, encoding, ...
        return getattr(self.raw, name)


def _shown(fh: IO[str]) -> IO[Any]:
    return cast(IO[Any], Shown(fh))  # (a file in all but its type)


# files atomic_write has completed inside ``together``: (temporary, final, as named, the
# signal clean-up that removes the temporary)
_GROUPS: list[list[tuple[str, Path, Path, int]]] = []


@contextlib.contextmanager
def together() -> Iterator[None]:
    """The files :func:`atomic_write` completes inside this block are renamed into place
    only when it ends, all of them, or none when it ends in an error: a command's ``-o``
    and ``--stats`` are replaced together (a full disk while the statistics are written
    leaves ``-o`` as it was). A ``sys.exit`` after the writes (exit 1 for boards that ran
    out of budget) still keeps what was written, as it did."""
    group: list[tuple[str, Path, Path, int]] = []
    _GROUPS.append(group)
    try:
        yield
    except (SystemExit, click_exit()):
        _GROUPS.pop()
        _commit(group)
        raise
    except BaseException:
        _GROUPS.pop()
        for tmp, _real, _path, token in group:
            _remove(tmp)
            signals.unregister(token)
        raise
    _GROUPS.pop()
    _commit(group)


def click_exit() -> type[BaseException]:
    import click

    return click.exceptions.Exit


def _commit(group: list[tuple[str, Path, Path, int]]) -> None:
    try:
        for index, (tmp, real, path, _token) in enumerate(group):
            try:
                os.replace(tmp, real)
            except OSError as exc:
                for later, _r, _p, _t in group[index:]:
                    _remove(later)
                raise write_failed(exc, path) from None
    finally:
        for _tmp, _real, _path, token in group:
            signals.unregister(token)


def _written(fh: IO[Any], path: Path) -> Iterator[IO[Any]]:
    """Hand the open file to the caller's ``with`` body; a full or failing device while it
    writes is the one-line write error, whichever way the output is being written."""
    try:
        yield fh
    except OSError as exc:
        if exc.errno in WRITE_ERRNOS:
            raise write_failed(exc, path) from None
        raise


def _remove(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _keep_mode(fd: int, info: os.stat_result | None) -> None:
    """The new file gets the old one's mode and owner; a new name gets 0666 minus the umask
    (what a plain ``open`` would give), not mkstemp's 0600."""
    if info is None:
        os.fchmod(fd, 0o666 & ~_umask())
        return
    if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(PermissionError):
            os.fchown(fd, info.st_uid, info.st_gid)
    os.fchmod(fd, stat.S_IMODE(info.st_mode))


@contextlib.contextmanager
def _direct(path: Path, mode: str, kwargs: dict[str, Any]) -> Iterator[IO[Any]]:
    """Write into an existing non-regular file (FIFO, terminal, device) as ``>`` would."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as exc:
        raise write_failed(exc, path) from None
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield from _written(fh, path)
            fh.flush()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise
        raise write_failed(exc, path) from None


HELD_ENTRIES = 1_000_000  # the most entries of an input folder searched for an output's inode


def _holds_inode(directory: Path, info: os.stat_result) -> bool:
    """Does ``directory`` (never through a link inside it) hold the file of ``info``'s inode?
    Asked only of an output with other hard links; the inodes come with the folder's
    entries (no stat of each), and a folder of more than :data:`HELD_ENTRIES` entries is
    searched that far."""
    pending, seen = [directory], 0
    while pending and seen < HELD_ENTRIES:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if entry.inode() == info.st_ino and not entry.is_symlink() \
                            and entry.stat(follow_symlinks=False).st_dev == info.st_dev:
                        return True
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(Path(entry.path))
        except OSError:
            continue
    return False


def check_outputs(named: Iterable[tuple[str, str | Path | None]],
                  inputs: Iterable[tuple[str, str | Path]] = ()) -> None:
    """Before any work: every output named can be written, and no two name the same file.

    ``named``: (option, path) pairs, e.g. ``[("-o", "boards.jsonl"), ("--stats", "s.json")]``;
    None and ``-`` (stdout) are skipped. Distinct means a different resolved path and, when
    both exist, a different inode (a hard link or a symlink to the same file is the same).
    No output may be one of the ``inputs`` (same pairs) or a file already inside an input
    folder (``pack preview -o pack/manifest.json``, also by a hard link elsewhere): it would
    be replaced while read. A name ending in ``/`` names a folder, never a file to write.
    """
    read = []
    for source, named_input in inputs:
        found = _maybe_stat(named_input)
        if found is not None:
            read.append((source, Path(os.path.realpath(named_input)), found))
    seen: list[tuple[str, Path, tuple[int, int] | None]] = []
    for option, value in named:
        if value is None or str(value) == "-":
            continue
        if str(value).endswith(os.sep):
            raise UsageError(f"{option}: names a folder (it ends in '/'); name the file to "
                             "write", path=value)
        path = Path(value)
        info = _target_stat(path)
        real = Path(os.path.realpath(path))
        for source, where, st in read:
            same = info is not None and (info.st_dev, info.st_ino) == (st.st_dev, st.st_ino)
            inside = stat.S_ISDIR(st.st_mode) and info is not None and (
                where in real.parents
                or (info.st_nlink > 1 and _holds_inode(where, info)))  # a hard link to one
            if same or real == where or inside:
                raise UsageError(f"{option}: is an input too ({source}); it would be replaced "
                                 "while it is read", path=path)
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise UsageError(f"{option}: is a directory, not a file", path=path)
        if info is None or stat.S_ISREG(info.st_mode):
            directory = real.parent
            if not directory.is_dir():  # a usage error, named as the user wrote it
                raise UsageError(f"{option}: directory does not exist", path=path.parent)
            if not os.access(directory, os.W_OK):
                raise CannotDo(f"{option}: cannot write: the directory is not writable "
                               "(or on a read-only file system)", path=path)
        elif not os.access(path, os.W_OK):
            raise CannotDo(f"{option}: cannot write: not writable", path=path)
        inode = (info.st_dev, info.st_ino) if info is not None else None
        for other, other_real, other_inode in seen:
            if real == other_real or (inode is not None and inode == other_inode):
                raise UsageError(f"{other} and {option} name the same file", path=path)
        seen.append((option, real, inode))
