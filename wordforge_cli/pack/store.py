"""Safe writes of a whole pack: the directory holds the previous complete pack or the new one.

A build writes into a hidden staging directory beside ``--out`` (each file through a temporary
name, the manifest last), then swaps it with ``--out`` in one ``renameat2(RENAME_EXCHANGE)``
call (Linux 3.15+): there is no moment at which ``--out`` holds half of each. Files in
``--out`` that wfkit did not write are hard-linked into the staging directory first, so they
stay in place; the old pack's own files are deleted afterwards, and nothing else ever is.

A journal file beside ``--out`` names the staging directory, a random token (also written
into a marker file inside the staging directory) and the inodes of the staging directory and
of the old ``--out``, so a build killed at any moment is tidied up by the next one: before the
swap the staging directory is removed (it holds only new files and links), after it the old
tree's own files are removed and any stranger is moved back. The journal is read as hostile
input: it may name nothing but a directory of wfkit's name pattern beside ``--out`` that proves
to be the one it made (see ``recover``); anything else is an error and nothing is deleted. The
old pack's "own files" are only those whose bytes still match its manifest (``pack_owned``).
A lock file beside ``--out`` (flock) keeps two builds of one pack from running at once. Where
the exchange call is missing, the swap falls back to two renames (a moment without ``--out``,
which the journal repairs on the next run).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import json
import os
import re
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from wordforge_cli.core import signals
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.io.output import write_reason
from wordforge_cli.pack.files import MANIFEST, fsync_dir, make_dirs, open_inside, read_bounded
from wordforge_cli.pack.manifest import Manifest
from wordforge_cli.pack.manifest import read_manifest as _read_manifest

JOURNAL_SUFFIX = ".wfkit-journal"
LOCK_SUFFIX = ".wfkit-lock"
JOURNAL_FORMAT = "wfkit-journal/1"
MARKER = ".wfkit-staging"  # inside a staging directory: the journal's token, proof it is ours
MAX_JOURNAL_BYTES = 4096
NAME_OVERHEAD = 29  # ".NAME.wfkit-journal.XXXXXXXX.tmp": the longest name made beside --out
RENAME_EXCHANGE = 2
AT_FDCWD = -100

# Test seams (tests patch these; production never reads the environment for them):
# ``step_hook(point)`` is called at each step of the swap (the SIGKILL tests kill there);
# ``exchange_supported = False`` makes the swap take its two-rename fallback.
step_hook: Callable[[str], None] | None = None
exchange_supported = True


def read_manifest(directory: Path) -> Manifest | None:
    """The directory's wfkit manifest, checked field by field; None when it is not a pack."""
    return _read_manifest(directory)


def pack_owned(root: Path, manifest: Manifest | None) -> set[str]:
    """Files in ``root`` that a wfkit build wrote and nobody changed since: the manifest
    itself and every file it lists at a path of its own sections whose bytes still have the
    sha256 it records. Only these are ever replaced or deleted; anything else (a file the
    manifest names but that was edited, a file it should not name) is the user's."""
    if manifest is None:
        return set()
    owned = {MANIFEST}
    for entry in manifest.files:  # paths already checked to be the sections' own
        try:
            fh, size = open_inside(root, entry.path)
        except Exception:  # missing, a link, a FIFO...: not a file wfkit wrote
            continue
        with fh:
            if size != entry.bytes:
                continue
            try:
                digest = read_bounded(fh, size, what="pack file", path=root / entry.path)
            except Exception:
                continue
        if digest.hexdigest() == entry.sha256:
            owned.add(entry.path)
    return owned


@dataclass
class Staging:
    out: Path
    path: Path
    journal: Path
    token: str
    owned: set[str] = field(default_factory=set)
    lock: BuildLock | None = None
    cleanup: int | None = None  # the signal clean-up registered for it (see ``signals``)
    swapped: bool = False


def _journal_path(out: Path) -> Path:
    return out.parent / f".{out.name}{JOURNAL_SUFFIX}"


def _staging_pattern(out: Path) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(out.name)}\.wfkit-([0-9a-f]{{12}})")


def check_out(out: Path) -> Path:
    """``--out`` resolved, and checked to be a place a pack can be swapped into."""
    out = Path(os.path.realpath(out))  # a symlinked --out: swap the directory it names
    if len(os.fsencode(out.name)) > 255 - NAME_OVERHEAD:
        raise UsageError(f"the --out name is {len(os.fsencode(out.name))} bytes; at most "
                         f"{255 - NAME_OVERHEAD} (wfkit keeps hidden files named after it "
                         "beside it while it builds)", path=out)
    if out.exists() and not out.is_dir():
        raise UsageError("--out must be a directory, not a file", path=out)
    if out == out.parent:
        raise UsageError("--out cannot be the root directory", path=out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotDo(f"cannot create the directory: {write_reason(exc)}",
                       path=out.parent) from None
    if not out.parent.is_dir():
        raise UsageError("--out is inside something that is not a directory", path=out)
    if out.is_dir() and os.path.ismount(out):
        raise UsageError("--out is a mount point; a pack is swapped in whole beside it, so "
                         "name a directory inside the mount", path=out)
    return out


def begin(out: Path, *, force: bool, claims: re.Pattern[str] | None = None) -> Staging:
    """Check ``out`` may be written, tidy after any killed build, and open a staging dir.

    ``claims`` matches the paths the pack may write; a file of yours already at one of them
    stops the build instead of being replaced.
    """
    out = check_out(out)
    lock = BuildLock.take(out)
    try:
        return _begin(out, force, claims, lock)
    except BaseException:
        lock.release()
        raise


def _begin(out: Path, force: bool, claims: re.Pattern[str] | None, lock: BuildLock) -> Staging:
    recover(out)
    old = read_manifest(out) if out.is_dir() else None
    if out.is_dir() and old is None and any(out.iterdir()) and not force:
        raise UsageError("directory is not empty and is not a wfkit pack (no manifest.json); "
                         "pass --force to build into it anyway (nothing of yours is deleted)",
                         path=out)
    owned = pack_owned(out, old) if out.is_dir() else set()
    if out.is_dir():
        for relpath in _all_files(out):
            if relpath not in owned and claims is not None and claims.fullmatch(relpath):
                raise UsageError("a file that wfkit did not write (or that changed since) is "
                                 "where the pack writes; move it away (wfkit never "
                                 "overwrites your files)", path=out / relpath)
    with signals.deferred():  # a signal waits until the staging directory is registered
        return _open_staging(out, owned, lock)


def _open_staging(out: Path, owned: set[str], lock: BuildLock) -> Staging:
    journal = _journal_path(out)
    token = secrets.token_hex(16)
    path = out.parent / f".{out.name}.wfkit-{token[:12]}"
    record = {"format": JOURNAL_FORMAT, "staging": path.name, "token": token,
              "device": os.stat(out.parent).st_dev, "inode": None,
              "old_inode": out.stat().st_ino if out.is_dir() else None}
    try:
        _write_journal(journal, record)  # before the staging directory exists
        path.mkdir(mode=0o700)
    except OSError as exc:
        with contextlib.suppress(OSError):
            journal.unlink()
        raise CannotDo(f"cannot create a staging directory: {write_reason(exc)}",
                       path=out.parent) from None
    try:
        _write_marker(path, token)
        umask = os.umask(0)
        os.umask(umask)
        mode = stat.S_IMODE(out.stat().st_mode) if out.is_dir() else 0o777 & ~umask
        os.chmod(path, mode)
        _write_journal(journal, {**record, "inode": path.stat().st_ino})
    except OSError as exc:
        _remove_staging(path)
        with contextlib.suppress(OSError):
            journal.unlink()
        raise CannotDo(f"cannot create a staging directory: {write_reason(exc)}",
                       path=out.parent) from None
    staging = Staging(out, path, journal, token, owned, lock)
    staging.cleanup = signals.register(lambda: abort(staging))
    return staging


class BuildLock:
    """``.NAME.wfkit-lock`` beside ``out``, held (flock) for the whole build: two builds of
    one pack never run at once, however close together they start. Removed on release."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd: int | None = fd  # None once released

    @classmethod
    def take(cls, out: Path) -> BuildLock:
        path = out.parent / f".{out.name}{LOCK_SUFFIX}"
        for _ in range(100):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                             0o600)
            except OSError as exc:
                raise CannotDo(f"cannot create the build lock: {write_reason(exc)}",
                               path=path) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise CannotDo("another wfkit build is writing this pack; one build per "
                                   "directory at a time", path=out) from None
                raise CannotDo(f"cannot lock the pack: {write_reason(exc)}", path=path) from None
            try:  # the holder before us may have removed the file: then lock the new one
                same = os.stat(path, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                return cls(path, fd)
            os.close(fd)
        raise CannotDo("cannot lock the pack (its lock file keeps changing)", path=path)

    def release(self) -> None:
        """Remove the lock file, then let go (idempotent)."""
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        os.close(fd)


def _write_marker(directory: Path, token: str) -> None:
    fd = os.open(directory / MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(token)
        fh.flush()
        os.fsync(fh.fileno())


def _has_marker(directory: Path, token: str) -> bool:
    """Does ``directory`` (a real directory, not a link) hold our marker with ``token``?"""
    try:
        st = os.lstat(directory)
        if not stat.S_ISDIR(st.st_mode):
            return False
        fh, size = _open_marker(directory)
    except Exception:
        return False
    with fh:
        return size == len(token) and fh.read(size + 1).decode("ascii", "replace") == token


def _half_marker(directory: Path, token: str) -> bool:
    """Is the marker the only entry and a proper beginning of ``token``? A build killed
    between creating the marker and writing it leaves exactly that."""
    try:
        if [entry.name for entry in os.scandir(directory)] != [MARKER]:
            return False
        fh, size = _open_marker(directory)
    except Exception:
        return False
    with fh:
        return size < len(token) and token.startswith(fh.read(size + 1).decode("ascii", "replace"))


def _remove_staging(directory: Path) -> bool:
    """Remove a staging directory with its marker last, so that a build killed half-way
    through the removal leaves a directory the next run still recognises as its own."""
    try:
        entries = [entry.name for entry in os.scandir(directory)]
    except OSError:
        return not os.path.lexists(directory)
    for name in entries:
        if name == MARKER:
            continue
        path = directory / name
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.unlink(path)
    with contextlib.suppress(OSError):
        os.unlink(directory / MARKER)
    with contextlib.suppress(OSError):
        os.rmdir(directory)
    return not os.path.lexists(directory)


def _open_marker(directory: Path) -> tuple[BinaryIO, int]:
    return _open_plain(directory / MARKER, 64)


def _open_plain(path: Path, limit: int) -> tuple[BinaryIO, int]:
    """Open one of wfkit's own small files: a regular file, not a link, at most ``limit``."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file of at most {limit} bytes")
    return os.fdopen(fd, "rb"), st.st_size


def _drop_marker(directory: Path, token: str) -> None:
    if _has_marker(directory, token):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(directory / MARKER)


def _all_files(root: Path) -> list[str]:
    found: list[str] = []
    for dirpath, _dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        found.extend((rel / name).as_posix() for name in filenames)
    return found


def _write_journal(journal: Path, data: dict[str, Any]) -> None:
    """Write the journal through a temporary name of its own (two builds never share one)."""
    fd, tmp = tempfile.mkstemp(prefix=journal.name + ".", suffix=".tmp", dir=journal.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, journal)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(journal.parent)


def os_error(exc: OSError) -> CannotDo:
    """An OS error while writing a pack, as one line (disk full, permission denied, ...)."""
    return CannotDo(f"cannot write the pack: {write_reason(exc)}", path=exc.filename)


def abort(staging: Staging) -> None:
    """Drop a staging directory that was never swapped in (it holds only our files and links)."""
    try:
        if not staging.swapped:
            _remove_staging(staging.path)
            with contextlib.suppress(FileNotFoundError):
                staging.journal.unlink()
    finally:
        _release(staging)


def _release(staging: Staging) -> None:
    if staging.cleanup is not None:
        signals.unregister(staging.cleanup)
        staging.cleanup = None
    if staging.lock is not None:
        staging.lock.release()


def _step(point: str) -> None:
    if step_hook is not None:
        step_hook(point)


def commit(staging: Staging) -> list[str]:
    """Swap the staged pack into ``out``; returns paths of strangers left aside (normally none).

    Until the swap, any failure drops the staging directory (``out`` untouched); after it,
    the journal lets the next run finish clearing the old tree.
    """
    out = staging.out
    fresh = not out.exists()
    try:
        try:
            if not fresh:
                _link_strangers(out, staging.path, staging.owned)
                fsync_dir(staging.path)
                _step("before-exchange")
        except BaseException:  # not swapped: the staging directory is ours to drop
            abort(staging)
            raise
        with signals.deferred():  # from the swap to a tidy directory, a signal waits
            try:
                if fresh:
                    os.rename(staging.path, out)
                else:
                    _exchange(staging.path, out)
            except BaseException:
                abort(staging)
                raise
            staging.swapped = True
            _drop_marker(out, staging.token)  # the swap is proved by the inode from here on
            fsync_dir(out.parent)
            _step("after-exchange")
            left = [] if fresh else _clear_old_tree(staging.path, out, staging.owned)
            staging.journal.unlink()
            return left
    finally:
        _release(staging)


def _link_strangers(out: Path, staging: Path, owned: set[str]) -> None:
    """Hard-link everything wfkit did not write into the staging tree, so it stays in ``out``
    (folders made with the modes they have in ``out``)."""
    for dirpath, dirnames, filenames in os.walk(out):
        rel = Path(dirpath).relative_to(out)
        if not dirnames and not filenames and rel.parts:  # an empty directory of yours
            make_dirs(staging, rel, out)
        for name in dirnames + filenames:
            relpath = (rel / name).as_posix()
            source = out / relpath
            target = staging / relpath
            st = os.lstat(source)
            if relpath in owned or stat.S_ISDIR(st.st_mode) or os.path.lexists(target):
                continue
            make_dirs(staging, Path(relpath).parent, out)
            if stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(source), target)
            elif stat.S_ISREG(st.st_mode):
                try:
                    os.link(source, target)
                except OSError as exc:
                    raise CannotDo(f"cannot keep a file of yours in place while swapping the "
                                   f"pack in (hard link failed: {write_reason(exc)})",
                                   path=source) from None
            # sockets, fifos, devices: left in the old tree, moved back after the swap
    for dirpath, _dirnames, _filenames in os.walk(staging):  # folders the pack made anew too
        rel = Path(dirpath).relative_to(staging)
        if rel.parts:
            with contextlib.suppress(OSError):
                st = os.lstat(out / rel)
                if stat.S_ISDIR(st.st_mode):
                    os.chmod(dirpath, stat.S_IMODE(st.st_mode))


def _exchange(a: Path, b: Path) -> None:
    """Atomically swap two directories; two renames where the kernel cannot exchange."""
    renameat2 = None
    if exchange_supported:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            renameat2 = libc.renameat2
        except (OSError, AttributeError):
            renameat2 = None
    if renameat2 is not None:
        if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise CannotDo(f"cannot swap the new pack in: {os.strerror(err)}", path=b)
    aside = a.with_name(a.name + ".old")  # fallback: a moment without ``b``; recover() repairs
    os.rename(b, aside)
    _step("between-renames")
    try:
        os.rename(a, b)
    except BaseException:
        os.rename(aside, b)
        raise
    os.rename(aside, a)


def _clear_old_tree(old: Path, out: Path, owned: set[str]) -> list[str]:
    """Remove the previous pack's own files and the links' twins; move back any stranger.

    ``owned`` holds only files whose bytes match the old manifest (see ``pack_owned``).
    The old manifest goes last, so a run killed half-way still knows what the tree owns.
    """
    left = []
    for dirpath, dirnames, filenames in os.walk(old, topdown=False):
        rel = Path(dirpath).relative_to(old)
        for name in filenames + dirnames:
            relpath = (rel / name).as_posix()
            if relpath == MANIFEST:
                continue
            path = old / relpath
            st = os.lstat(path)
            if stat.S_ISDIR(st.st_mode):
                with contextlib.suppress(OSError):
                    path.rmdir()  # empty once its contents are handled
                continue
            twin = out / relpath
            if relpath in owned or _same_file(path, st, twin):
                path.unlink()
                _step("clearing-old-tree")
            elif not os.path.lexists(twin):
                make_dirs(out, Path(relpath).parent, old)
                os.rename(path, twin)
            else:
                left.append(str(path))
    manifest = old / MANIFEST
    if os.path.lexists(manifest):
        if MANIFEST in owned or _same_file(manifest, os.lstat(manifest), out / MANIFEST):
            manifest.unlink()
        elif not os.path.lexists(out / MANIFEST):
            os.rename(manifest, out / MANIFEST)
        else:
            left.append(str(manifest))
    with contextlib.suppress(OSError):
        old.rmdir()
    return left


def _same_file(path: Path, st: os.stat_result, other: Path) -> bool:
    """Is ``other`` the link (or symlink copy) that ``_link_strangers`` made of ``path``?"""
    try:
        ost = os.lstat(other)
    except OSError:
        return False
    if stat.S_ISLNK(st.st_mode) and stat.S_ISLNK(ost.st_mode):
        return os.readlink(path) == os.readlink(other)
    return (st.st_dev, st.st_ino) == (ost.st_dev, ost.st_ino)


class JournalError(UsageError):
    """A journal beside ``--out`` that wfkit did not write: nothing is deleted (exit 2)."""


def _read_journal(out: Path, journal: Path) -> dict[str, Any] | None:
    """The journal, every field checked; None when there is none."""
    def bad(message: str) -> JournalError:
        return JournalError(f"{message}; not a journal wfkit wrote, so nothing was deleted "
                            "(remove it by hand if no wfkit build is running)", path=journal)

    try:
        fh, size = _open_plain(journal, MAX_JOURNAL_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.EINVAL:
            raise bad(f"not a regular file of at most {MAX_JOURNAL_BYTES} bytes") from None
        if exc.errno == errno.ELOOP:
            raise bad("a symbolic link") from None
        raise CannotDo(f"cannot read the journal: {write_reason(exc)}", path=journal) from None
    with fh:
        raw = fh.read(size + 1)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        raise bad("not valid JSON") from None
    if not isinstance(data, dict):
        raise bad("not a JSON object")
    fields = {"format", "staging", "token", "device", "inode", "old_inode"}
    for key in sorted(set(data) ^ fields):
        raise bad(f"{key}: {'missing' if key not in data else 'not a journal field'}")
    if data["format"] != JOURNAL_FORMAT:
        raise bad(f"format: not {JOURNAL_FORMAT}")
    token = data["token"]
    if not isinstance(token, str) or not re.fullmatch(r"[0-9a-f]{32}", token):
        raise bad("token: not 32 hexadecimal digits")
    staging = data["staging"]
    match = _staging_pattern(out).fullmatch(staging) if isinstance(staging, str) else None
    if match is None or match[1] != token[:12]:
        raise bad(f"staging: {staging!r:.80} is not a staging directory wfkit makes beside "
                  f"{out.name!r}")
    for key in ("device", "inode", "old_inode"):
        value = data[key]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value < 2**64):
            raise bad(f"{key}: not an inode or device number")
    if data["device"] is None:
        raise bad("device: missing")
    return data


def _drop_journal_temporaries(journal: Path) -> None:
    """A build killed while writing its journal leaves ``.NAME.wfkit-journal.XXXXXXXX.tmp``:
    small regular files of exactly that name pattern are removed (under the lock)."""
    pattern = re.compile(re.escape(journal.name) + r"\.[A-Za-z0-9_]{8}\.tmp")
    with os.scandir(journal.parent) as entries:
        for entry in entries:
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False) \
                    and entry.stat(follow_symlinks=False).st_size <= MAX_JOURNAL_BYTES:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry.path)


def _dir_ino(path: Path, device: int) -> int | None:
    """The inode of ``path`` when it is a real directory (not a link) on ``device``."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_dev != device:
        return None
    return st.st_ino


def _clear_staging(staging: Path, journal: Path) -> None:
    if not _remove_staging(staging):
        raise CannotDo(f"cannot remove {staging.name!r}, the staging directory of a killed "
                       "build; the journal is kept so the next run tries again", path=journal)


def recover(out: Path) -> list[str]:
    """Finish or undo a build that was killed (the caller holds the lock).

    The journal is trusted only as far as it can be checked: it may name only a directory
    ``.NAME.wfkit-<12 hex digits>`` beside ``out`` on the same device (a real directory,
    not a link). Before the swap it must hold the marker file with the journal's random
    token, and only then is it removed; after the swap (``out`` is the directory the
    journal's inode names) it holds the old tree, recognised by the old inode, and only
    files whose bytes match its manifest and links to files in ``out`` are removed from it.
    Anything else is an error and nothing is touched.
    """
    journal = _journal_path(out)
    _drop_journal_temporaries(journal)
    data = _read_journal(out, journal)
    if data is None:
        return []
    if data["device"] != os.stat(out.parent).st_dev:
        raise JournalError("device: not the device of the pack's folder; nothing was "
                           "deleted (remove the journal by hand if no wfkit build is "
                           "running)", path=journal)
    token, device = data["token"], data["device"]
    staging = out.parent / data["staging"]
    aside = staging.with_name(staging.name + ".old")
    left: list[str] = []
    if data["old_inode"] is not None and not os.path.lexists(out) \
            and _dir_ino(aside, device) == data["old_inode"]:
        os.rename(aside, out)  # the fallback swap was cut between its renames
    out_ino = _dir_ino(out, device)
    swapped = data["inode"] is not None and out_ino == data["inode"]
    if swapped:  # the staging path (or its ``.old``) now holds the old tree
        for old in (staging, aside):
            if data["old_inode"] is not None and _dir_ino(old, device) == data["old_inode"]:
                left += _clear_old_tree(old, out, pack_owned(old, read_manifest(old)))
        _drop_marker(out, token)
    elif os.path.lexists(staging):  # never swapped in: only new files and links
        ino = _dir_ino(staging, device)
        if ino is not None and _has_marker(staging, token) \
                and data["inode"] in (None, ino):
            _clear_staging(staging, journal)
        elif ino is not None and not any(staging.iterdir()):
            staging.rmdir()  # made, killed before its marker was written
        elif ino is not None and data["inode"] is None and _half_marker(staging, token):
            _clear_staging(staging, journal)  # killed while writing its marker
        else:
            raise JournalError(f"names {staging.name!r}, which is not the staging directory "
                               "of that build (no matching marker); nothing was deleted "
                               "(remove the journal by hand if no wfkit build is running)",
                               path=journal)
    journal.unlink()
    return left
