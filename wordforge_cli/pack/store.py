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
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from wordforge_cli.core import signals
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.io.output import write_reason
from wordforge_cli.pack.files import (
    MANIFEST,
    lstat_at,
    make_dirs_at,
    open_dir,
    open_inside,
    read_bounded,
    walk_at,
)
from wordforge_cli.pack.manifest import Manifest, read_manifest

JOURNAL_SUFFIX = ".wfkit-journal"
LOCK_SUFFIX = ".wfkit-lock"
JOURNAL_FORMAT = "wfkit-journal/1"
MARKER = ".wfkit-staging"  # inside a staging directory: the journal's token, proof it is ours
MAX_JOURNAL_BYTES = 4096
NAME_OVERHEAD = 29  # ".NAME.wfkit-journal.XXXXXXXX.tmp": the longest name made beside --out
RENAME_NOREPLACE = 1
RENAME_EXCHANGE = 2

# Test seams (tests patch these; production never reads the environment for them):
# ``step_hook(point)`` is called at each step of the swap (the SIGKILL tests kill there);
# ``exchange_supported = False`` makes the swap take its two-rename fallback.
step_hook: Callable[[str], None] | None = None
exchange_supported = True


def pack_owned(root: Path, manifest: Manifest | None, root_fd: int | None = None) -> set[str]:
    """Files in ``root`` that a wfkit build wrote and nobody changed since: the manifest
    itself and every file it lists at a path of its own sections whose bytes still have the
    sha256 it records. Only these are ever replaced or deleted; anything else (a file the
    manifest names but that was edited, a file it should not name) is the user's.
    ``root_fd``: the directory's handle (``root`` names it in messages)."""
    if manifest is None:
        return set()
    owned = {MANIFEST}
    for entry in manifest.files:  # paths already checked to be the sections' own
        try:
            fh, size = open_inside(root, entry.path, root_fd=root_fd)
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
    """One build's staging directory and the handles it works through.

    ``parent_fd`` is the folder holding ``--out``, opened once: the journal, the lock, the
    staging directory and the swap are all reached from it by name (``dir_fd``), never by a
    path that could be swapped meanwhile. ``out_fd`` is ``--out`` as it was when the build
    began (None: there was none) and ``staging_fd`` the staging directory; after the swap
    the two handles still name the same trees (the old pack, the new one)."""

    out: Path
    path: Path
    journal: Path
    token: str
    parent_fd: int
    out_fd: int | None
    out_ino: int | None
    staging_fd: int = -1
    staging_ino: int = -1
    journal_ino: int = -1
    owned: set[str] = field(default_factory=set)
    lock: BuildLock | None = None
    cleanup: int | None = None  # the signal clean-up registered for it (see ``signals``)
    swapped: bool = False
    dropped: bool = False  # the staging directory and journal are removed (``abort``)

    def close(self) -> None:
        for name in ("staging_fd", "out_fd", "parent_fd"):
            fd = getattr(self, name)
            if fd is not None and fd >= 0:
                setattr(self, name, None if name == "out_fd" else -1)
                with contextlib.suppress(OSError):
                    os.close(fd)


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


class Swapped(CannotDo):
    """``--out`` is no longer the directory the build began with (exit 1)."""


def _swapped(out: Path) -> Swapped:
    return Swapped("--out was replaced while the pack was built (by a symbolic link or "
                   "another directory); nothing was swapped in and nothing outside it was "
                   "touched", path=out)


def _open_out(out: Path, parent_fd: int) -> tuple[int | None, int | None]:
    """(handle, inode) of ``--out`` as it is now: a real directory, never a link (its
    path was resolved a moment ago, so a link here was swapped in since); (None, None)
    when there is none yet."""
    try:
        fd = open_dir(out.name, parent_fd)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _swapped(out) from None
        raise CannotDo(f"cannot open --out: {write_reason(exc)}", path=out) from None
    return fd, os.fstat(fd).st_ino


def begin(out: Path, *, force: bool, claims: re.Pattern[str] | None = None) -> Staging:
    """Check ``out`` may be written, tidy after any killed build, and open a staging dir.

    ``claims`` matches the paths the pack may write; a file of yours already at one of them
    stops the build instead of being replaced.
    """
    out = check_out(out)
    try:
        parent_fd = open_dir(out.parent)
    except OSError as exc:
        raise CannotDo(f"cannot open the directory: {write_reason(exc)}",
                       path=out.parent) from None
    try:
        lock = BuildLock.take(out, parent_fd)
    except BaseException:
        os.close(parent_fd)
        raise
    try:
        return _begin(out, force, claims, lock, parent_fd)
    except BaseException:
        lock.release()
        with contextlib.suppress(OSError):
            os.close(parent_fd)
        raise


def _begin(out: Path, force: bool, claims: re.Pattern[str] | None, lock: BuildLock,
           parent_fd: int) -> Staging:
    recover(out, parent_fd)
    out_fd, out_ino = _open_out(out, parent_fd)
    try:
        old = read_manifest(out, root_fd=out_fd) if out_fd is not None else None
        if out_fd is not None and old is None and os.listdir(out_fd) and not force:
            raise UsageError("directory is not empty and is not a wfkit pack (no "
                             "manifest.json); pass --force to build into it anyway (nothing "
                             "of yours is deleted)", path=out)
        owned = pack_owned(out, old, out_fd) if out_fd is not None else set()
        if out_fd is not None:
            for relpath in _all_files(out_fd, out):
                if relpath not in owned and claims is not None and claims.fullmatch(relpath):
                    raise UsageError("a file that wfkit did not write (or that changed "
                                     "since) is where the pack writes; move it away (wfkit "
                                     "never overwrites your files)", path=out / relpath)
        staging = Staging(out, out, _journal_path(out), "", parent_fd, out_fd, out_ino,
                          owned=owned, lock=lock)
        with signals.deferred():  # a signal waits until the staging directory is registered
            return _open_staging(staging)
    except BaseException:
        if out_fd is not None:
            os.close(out_fd)
        raise


def _open_staging(staging: Staging) -> Staging:
    out, pfd = staging.out, staging.parent_fd
    token = secrets.token_hex(16)
    name = f".{out.name}.wfkit-{token[:12]}"
    staging.token, staging.path = token, out.parent / name
    record = {"format": JOURNAL_FORMAT, "staging": name, "token": token,
              "device": os.fstat(pfd).st_dev, "inode": None, "old_inode": staging.out_ino}
    try:
        _write_journal(staging, record)  # before the staging directory exists
        os.mkdir(name, 0o700, dir_fd=pfd)
    except OSError as exc:
        _unlink_journal(staging)
        raise CannotDo(f"cannot create a staging directory: {write_reason(exc)}",
                       path=out.parent) from None
    try:
        staging.staging_fd = open_dir(name, pfd)
        staging.staging_ino = os.fstat(staging.staging_fd).st_ino
        _write_marker(staging.staging_fd, token)
        umask = os.umask(0)
        os.umask(umask)
        mode = (stat.S_IMODE(os.fstat(staging.out_fd).st_mode) if staging.out_fd is not None
                else 0o777 & ~umask)
        os.fchmod(staging.staging_fd, mode)
        _write_journal(staging, {**record, "inode": staging.staging_ino})
    except OSError as exc:
        if staging.staging_fd >= 0:
            _remove_staging(staging.path, pfd, staging.staging_ino)
        _unlink_journal(staging)
        staging.close()
        raise CannotDo(f"cannot create a staging directory: {write_reason(exc)}",
                       path=out.parent) from None
    staging.cleanup = signals.register(lambda: abort(staging))
    return staging


class BuildLock:
    """``.NAME.wfkit-lock`` beside ``out``, held (flock) for the whole build: two builds of
    one pack never run at once, however close together they start. Removed on release
    (when the name still is the file locked: never a file someone put there since)."""

    def __init__(self, path: Path, fd: int, dir_fd: int):
        self.path = path
        self.fd: int | None = fd  # None once released
        self.dir_fd = dir_fd

    @classmethod
    def take(cls, out: Path, parent_fd: int) -> BuildLock:
        path = out.parent / f".{out.name}{LOCK_SUFFIX}"
        for _ in range(100):
            try:
                fd = os.open(path.name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
                             | os.O_NONBLOCK, 0o600, dir_fd=parent_fd)
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    os.close(fd)
                    raise OSError(errno.EINVAL, "not a regular file")
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
                same = os.stat(path.name, dir_fd=parent_fd,
                               follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                return cls(path, fd, os.dup(parent_fd))
            os.close(fd)
        raise CannotDo("cannot lock the pack (its lock file keeps changing)", path=path)

    def release(self) -> None:
        """Remove the lock file, then let go (idempotent)."""
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        with contextlib.suppress(OSError):
            if os.stat(self.path.name, dir_fd=self.dir_fd,
                       follow_symlinks=False).st_ino == os.fstat(fd).st_ino:
                os.unlink(self.path.name, dir_fd=self.dir_fd)
        os.close(fd)
        os.close(self.dir_fd)


def _write_marker(directory_fd: int, token: str) -> None:
    fd = os.open(MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=directory_fd)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(token)
        fh.flush()
        os.fsync(fh.fileno())


def _has_marker(directory_fd: int, token: str) -> bool:
    """Does the directory ``directory_fd`` hold our marker with ``token``?"""
    try:
        fh, size = _open_plain(MARKER, 64, directory_fd)
    except Exception:
        return False
    with fh:
        return size == len(token) and fh.read(size + 1).decode("ascii", "replace") == token


def _half_marker(directory_fd: int, token: str) -> bool:
    """Is the marker the only entry and a proper beginning of ``token``? A build killed
    between creating the marker and writing it leaves exactly that."""
    try:
        if os.listdir(directory_fd) != [MARKER]:
            return False
        fh, size = _open_plain(MARKER, 64, directory_fd)
    except Exception:
        return False
    with fh:
        return size < len(token) and token.startswith(fh.read(size + 1).decode("ascii", "replace"))


def _remove_staging(directory: Path, parent_fd: int | None = None,
                    inode: int | None = None) -> bool:
    """Remove a staging directory with its marker last, so that a build killed half-way
    through the removal leaves a directory the next run still recognises as its own.

    It is opened once (never through a link) and, with ``inode``, only the directory of
    that inode is emptied; everything inside is removed through that handle."""
    own_parent = parent_fd is None
    try:
        if parent_fd is None:
            parent_fd = open_dir(directory.parent)
        try:
            fd = open_dir(directory.name, parent_fd)
        except OSError:
            return not _lexists(directory.name, parent_fd)
        try:
            if inode is not None and os.fstat(fd).st_ino != inode:
                return False
            for rel, dfd, dirs, others in walk_at(fd, directory, bottom_up=True):
                for name in dirs:
                    with contextlib.suppress(OSError):
                        os.rmdir(name, dir_fd=dfd)
                for name in others:
                    if rel or name != MARKER:
                        with contextlib.suppress(OSError):
                            os.unlink(name, dir_fd=dfd)
            with contextlib.suppress(OSError):
                os.unlink(MARKER, dir_fd=fd)
            with contextlib.suppress(OSError):
                st = os.stat(directory.name, dir_fd=parent_fd, follow_symlinks=False)
                if (st.st_dev, st.st_ino) == (os.fstat(fd).st_dev, os.fstat(fd).st_ino):
                    os.rmdir(directory.name, dir_fd=parent_fd)
        finally:
            os.close(fd)
        return not _lexists(directory.name, parent_fd)
    finally:
        if own_parent and parent_fd is not None:
            os.close(parent_fd)


def _lexists(name: str, dir_fd: int) -> bool:
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def _open_plain(name: str, limit: int, dir_fd: int) -> tuple[BinaryIO, int]:
    """Open one of wfkit's own small files: a regular file, not a link, at most ``limit``."""
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                 dir_fd=dir_fd)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file of at most {limit} bytes")
    return os.fdopen(fd, "rb"), st.st_size


def _drop_marker(directory_fd: int, token: str) -> None:
    if _has_marker(directory_fd, token):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(MARKER, dir_fd=directory_fd)


def _all_files(root_fd: int, root: Path) -> list[str]:
    found: list[str] = []
    for rel, _fd, _dirs, others in walk_at(root_fd, root):
        found.extend(f"{rel}/{name}" if rel else name for name in others)
    return found


def _write_journal(staging: Staging, data: dict[str, Any]) -> None:
    """Write the journal through a temporary name of its own (two builds never share one),
    beside ``--out`` by the handle of its folder."""
    pfd, name = staging.parent_fd, staging.journal.name
    while True:
        tmp = f"{name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                         | os.O_CLOEXEC, 0o600, dir_fd=pfd)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
            fh.flush()
            os.fsync(fh.fileno())
            staging.journal_ino = os.fstat(fh.fileno()).st_ino
        os.replace(tmp, name, src_dir_fd=pfd, dst_dir_fd=pfd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=pfd)
        raise
    with contextlib.suppress(OSError):
        os.fsync(pfd)


def _unlink_journal(staging: Staging) -> None:
    """Remove this build's journal: only the file it wrote (by inode), nothing put there
    since under that name."""
    with contextlib.suppress(OSError):
        st = os.stat(staging.journal.name, dir_fd=staging.parent_fd, follow_symlinks=False)
        if st.st_ino == staging.journal_ino and stat.S_ISREG(st.st_mode):
            os.unlink(staging.journal.name, dir_fd=staging.parent_fd)


def os_error(exc: OSError) -> CannotDo:
    """An OS error while writing a pack, as one line (disk full, permission denied, ...)."""
    return CannotDo(f"cannot write the pack: {write_reason(exc)}", path=exc.filename)


def abort(staging: Staging) -> None:
    """Drop a staging directory that was never swapped in (it holds only our files and links).

    It may run twice (a signal cut the first run short, then the signal's clean-up runs it
    again): once the handles are closed, the folder beside ``--out`` is opened again by its
    path, and only the staging directory of this build's inode and its journal are removed."""
    finished = False
    try:
        if not staging.swapped and staging.staging_ino >= 0 and not staging.dropped:
            if staging.parent_fd < 0:
                with contextlib.suppress(OSError):
                    staging.parent_fd = open_dir(staging.out.parent)
            if staging.parent_fd >= 0:
                _remove_staging(staging.path, staging.parent_fd, staging.staging_ino)
                _unlink_journal(staging)
                staging.dropped = True
        finished = True
    finally:
        if finished:
            _release(staging)
        # else: cut short (a signal): the signal's clean-up, still registered, runs it again


def _release(staging: Staging) -> None:
    if staging.cleanup is not None:
        signals.unregister(staging.cleanup)
        staging.cleanup = None
    if staging.lock is not None:
        staging.lock.release()
        staging.lock = None
    staging.close()


def _step(point: str) -> None:
    if step_hook is not None:
        step_hook(point)


def _is_dir(name: str, dir_fd: int, inode: int | None) -> bool:
    """Is ``name`` (beside ``--out``) a real directory, not a link, of inode ``inode``?"""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_ino == inode


def commit(staging: Staging) -> list[str]:
    """Swap the staged pack into ``out``; returns paths of strangers left aside (normally none).

    Until the swap, any failure drops the staging directory (``out`` untouched); after it,
    the journal lets the next run finish clearing the old tree. ``out`` must still be the
    directory the build began with (or still be absent): one swapped for a link or another
    directory meanwhile is refused, and an exchange that met one is undone.
    """
    out, pfd = staging.out, staging.parent_fd
    fresh = staging.out_fd is None
    try:
        try:
            if not fresh:
                if not _is_dir(out.name, pfd, staging.out_ino):
                    raise _swapped(out)
                _link_strangers(staging)
                with contextlib.suppress(OSError):
                    os.fsync(staging.staging_fd)
            _step("before-exchange")
        except BaseException:  # not swapped: the staging directory is ours to drop
            abort(staging)
            raise
        with signals.deferred():  # from the swap to a tidy directory, a signal waits
            try:
                if fresh:
                    if _lexists(out.name, pfd):
                        raise _swapped(out)
                    _step("exchange")
                    _rename_new(staging)
                else:
                    if not _is_dir(out.name, pfd, staging.out_ino):
                        raise _swapped(out)
                    _step("exchange")
                    _exchange(staging)
            except BaseException:
                abort(staging)
                raise
            staging.swapped = True
            _drop_marker(staging.staging_fd, staging.token)  # the inode proves it from here
            with contextlib.suppress(OSError):
                os.fsync(pfd)
            _step("after-exchange")
            assert staging.out_fd is not None or fresh
            left = [] if staging.out_fd is None else _clear_old_tree(
                staging.out_fd, staging.staging_fd, staging.owned, staging.path)
            if staging.out_fd is not None and staging.out_ino is not None \
                    and _is_dir(staging.path.name, pfd, staging.out_ino):
                with contextlib.suppress(OSError):
                    os.rmdir(staging.path.name, dir_fd=pfd)
            _unlink_journal(staging)
            return left
    finally:
        _release(staging)


def _link_strangers(staging: Staging) -> None:
    """Hard-link everything wfkit did not write into the staging tree, so it stays in ``out``
    (folders made with the modes they have in ``out``); ``out`` is read through the handle
    the build opened, so a tree swapped in meanwhile is never linked from."""
    out_fd, new_fd, owned = staging.out_fd, staging.staging_fd, staging.owned
    assert out_fd is not None
    out = staging.out
    for rel, dfd, dirs, others in walk_at(out_fd, out):
        if not dirs and not others and rel:  # an empty directory of yours
            os.close(make_dirs_at(new_fd, rel, out_fd))
        for name in others:
            relpath = f"{rel}/{name}" if rel else name
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            if relpath in owned or lstat_at(new_fd, relpath) is not None:
                continue
            if not (stat.S_ISLNK(st.st_mode) or stat.S_ISREG(st.st_mode)):
                continue  # sockets, fifos, devices: left in the old tree, moved back after
            leaf = make_dirs_at(new_fd, rel, out_fd)
            try:
                if stat.S_ISLNK(st.st_mode):
                    os.symlink(os.readlink(name, dir_fd=dfd), name, dir_fd=leaf)
                else:
                    try:
                        os.link(name, name, src_dir_fd=dfd, dst_dir_fd=leaf,
                                follow_symlinks=False)
                    except OSError as exc:
                        raise CannotDo(f"cannot keep a file of yours in place while swapping "
                                       f"the pack in (hard link failed: {write_reason(exc)})",
                                       path=out / relpath) from None
            finally:
                os.close(leaf)
    for rel, dfd, _dirs, _others in walk_at(new_fd, staging.path):  # the pack's new folders
        if rel:
            twin = lstat_at(out_fd, rel)
            if twin is not None and stat.S_ISDIR(twin.st_mode):
                with contextlib.suppress(OSError):
                    os.fchmod(dfd, stat.S_IMODE(twin.st_mode))


def _renameat2(staging: Staging, flags: int) -> int:
    """``renameat2`` of the staging directory and ``--out`` by their folder's handle: 0, or
    the errno (-1: the call is missing)."""
    if not exchange_supported:
        return -1
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return -1
    pfd = staging.parent_fd
    if renameat2(pfd, os.fsencode(staging.path.name), pfd, os.fsencode(staging.out.name),
                 flags) == 0:
        return 0
    err = ctypes.get_errno()
    return -1 if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP) else err


def _rename_new(staging: Staging) -> None:
    """A first build: the staging directory becomes ``--out``, never over anything put
    there meanwhile."""
    err = _renameat2(staging, RENAME_NOREPLACE)
    if err == errno.EEXIST:
        raise _swapped(staging.out)
    if err > 0:
        raise CannotDo(f"cannot move the new pack in: {os.strerror(err)}", path=staging.out)
    if err < 0:
        if _lexists(staging.out.name, staging.parent_fd):
            raise _swapped(staging.out)
        os.rename(staging.path.name, staging.out.name, src_dir_fd=staging.parent_fd,
                  dst_dir_fd=staging.parent_fd)
    if not _is_dir(staging.out.name, staging.parent_fd, staging.staging_ino):
        raise _swapped(staging.out)


def _exchange(staging: Staging) -> None:
    """Atomically swap the staging directory and ``--out``; two renames where the kernel
    cannot exchange. Afterwards the staging name must hold the tree the build began with
    as ``--out``: if something was swapped in between the check and the call, the
    exchange is undone and the build refused."""
    pfd, a, b = staging.parent_fd, staging.path.name, staging.out.name
    err = _renameat2(staging, RENAME_EXCHANGE)
    if err == errno.ENOENT:  # --out moved away since it was checked
        raise _swapped(staging.out)
    if err > 0:
        raise CannotDo(f"cannot swap the new pack in: {os.strerror(err)}", path=staging.out)
    if err == 0:
        if not _is_dir(a, pfd, staging.out_ino):
            _renameat2(staging, RENAME_EXCHANGE)  # put back whatever stood at --out
            raise _swapped(staging.out)
        return
    aside = a + ".old"  # fallback: a moment without ``b``; recover() repairs
    try:
        os.rename(b, aside, src_dir_fd=pfd, dst_dir_fd=pfd)
    except FileNotFoundError:
        raise _swapped(staging.out) from None
    if not _is_dir(aside, pfd, staging.out_ino):
        os.rename(aside, b, src_dir_fd=pfd, dst_dir_fd=pfd)
        raise _swapped(staging.out)
    _step("between-renames")
    try:
        if _lexists(b, pfd):  # something was put at --out in the moment without it
            raise _swapped(staging.out)
        os.rename(a, b, src_dir_fd=pfd, dst_dir_fd=pfd)
    except BaseException:
        try:
            os.rename(aside, b, src_dir_fd=pfd, dst_dir_fd=pfd)
        except OSError:  # --out is taken by what was put there: the old pack stays aside
            raise Swapped(f"--out was replaced while the pack was swapped in; nothing was "
                          f"written there, and the previous pack is kept as {aside!r} beside "
                          "it", path=staging.out) from None
        raise
    os.rename(aside, a, src_dir_fd=pfd, dst_dir_fd=pfd)


def _clear_old_tree(old_fd: int, out_fd: int, owned: set[str], old: Path) -> list[str]:
    """Remove the previous pack's own files and the links' twins; move back any stranger.

    Both trees are reached through their handles (``old`` only names the old one in
    messages). ``owned`` holds only files whose bytes match the old manifest (see
    ``pack_owned``). The old manifest goes last, so a run killed half-way still knows what
    the tree owns.
    """
    left = []
    for rel, dfd, dirs, others in walk_at(old_fd, old, bottom_up=True):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=dfd)  # empty once its contents are handled
        for name in others:
            relpath = f"{rel}/{name}" if rel else name
            if relpath == MANIFEST:
                continue
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
            if relpath in owned or _same_file(dfd, name, st, out_fd, relpath):
                os.unlink(name, dir_fd=dfd)
                _step("clearing-old-tree")
            elif lstat_at(out_fd, relpath) is None:
                leaf = make_dirs_at(out_fd, rel, old_fd)
                try:
                    os.rename(name, name, src_dir_fd=dfd, dst_dir_fd=leaf)
                finally:
                    os.close(leaf)
            else:
                left.append(str(old / relpath))
    mst = lstat_at(old_fd, MANIFEST)
    if mst is not None:
        if MANIFEST in owned or _same_file(old_fd, MANIFEST, mst, out_fd, MANIFEST):
            os.unlink(MANIFEST, dir_fd=old_fd)
        elif lstat_at(out_fd, MANIFEST) is None:
            os.rename(MANIFEST, MANIFEST, src_dir_fd=old_fd, dst_dir_fd=out_fd)
        else:
            left.append(str(old / MANIFEST))
    return left


def _same_file(dfd: int, name: str, st: os.stat_result, other_fd: int, relpath: str) -> bool:
    """Is ``relpath`` under ``other_fd`` the link (or symlink copy) that ``_link_strangers``
    made of ``name`` (in the folder ``dfd``)?"""
    ost = lstat_at(other_fd, relpath)
    if ost is None:
        return False
    if stat.S_ISLNK(st.st_mode) and stat.S_ISLNK(ost.st_mode):
        parent, _, base = relpath.rpartition("/")
        try:
            there = make_dirs_at(other_fd, parent, None) if parent else os.dup(other_fd)
        except OSError:
            return False
        try:
            return os.readlink(name, dir_fd=dfd) == os.readlink(base, dir_fd=there)
        finally:
            os.close(there)
    return (st.st_dev, st.st_ino) == (ost.st_dev, ost.st_ino)


class JournalError(UsageError):
    """A journal beside ``--out`` that wfkit did not write: nothing is deleted (exit 2)."""


def _read_journal(out: Path, journal: Path, parent_fd: int) -> tuple[dict[str, Any], int] | None:
    """The journal, every field checked, and its inode; None when there is none."""
    def bad(message: str) -> JournalError:
        return JournalError(f"{message}; not a journal wfkit wrote, so nothing was deleted "
                            "(remove it by hand if no wfkit build is running)", path=journal)

    try:
        fh, size = _open_plain(journal.name, MAX_JOURNAL_BYTES, parent_fd)
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
        inode = os.fstat(fh.fileno()).st_ino
    problem = _journal_problem(out, raw)
    if isinstance(problem, str):
        raise bad(problem)
    return problem, inode


def _journal_problem(out: Path, raw: bytes) -> dict[str, Any] | str:
    """The journal's fields when ``raw`` is one wfkit writes for ``out``, else what is wrong."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return "not valid JSON"
    if not isinstance(data, dict):
        return "not a JSON object"
    fields = {"format", "staging", "token", "device", "inode", "old_inode"}
    for key in sorted(set(data) ^ fields):
        return f"{key}: {'missing' if key not in data else 'not a journal field'}"
    if data["format"] != JOURNAL_FORMAT:
        return f"format: not {JOURNAL_FORMAT}"
    token = data["token"]
    if not isinstance(token, str) or not re.fullmatch(r"[0-9a-f]{32}", token):
        return "token: not 32 hexadecimal digits"
    staging = data["staging"]
    match = _staging_pattern(out).fullmatch(staging) if isinstance(staging, str) else None
    if match is None or match[1] != token[:12]:
        return (f"staging: {staging!r:.80} is not a staging directory wfkit makes beside "
                f"{out.name!r}")
    for key in ("device", "inode", "old_inode"):
        value = data[key]
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 0 <= value < 2**64):
            return f"{key}: not an inode or device number"
    if data["device"] is None:
        return "device: missing"
    return data


def _drop_journal_temporaries(out: Path, journal: Path, parent_fd: int) -> None:
    """A build killed while writing its journal leaves ``.NAME.wfkit-journal.XXXXXXXX.tmp``:
    small regular files of exactly that name pattern are removed (under the lock), and only
    when they hold a journal wfkit writes for this ``--out``: a file of yours that merely
    has such a name stays."""
    pattern = re.compile(re.escape(journal.name) + r"\.[A-Za-z0-9_]{8}\.tmp")
    for name in os.listdir(parent_fd):
        if not pattern.fullmatch(name):
            continue
        try:
            fh, size = _open_plain(name, MAX_JOURNAL_BYTES, parent_fd)
        except OSError:
            continue
        with fh:
            raw = fh.read(size + 1)
            inode = os.fstat(fh.fileno()).st_ino
        if raw and isinstance(_journal_problem(out, raw), str):
            continue
        with contextlib.suppress(OSError):  # (empty: cut before its first byte was written)
            if os.stat(name, dir_fd=parent_fd, follow_symlinks=False).st_ino == inode:
                os.unlink(name, dir_fd=parent_fd)


def _dir_fd(name: str, device: int, inode: int | None, parent_fd: int) -> int | None:
    """A handle on ``name`` beside ``--out`` when it is a real directory (not a link) on
    ``device`` (and of ``inode`` when given)."""
    try:
        fd = open_dir(name, parent_fd)
    except OSError:
        return None
    st = os.fstat(fd)
    if st.st_dev != device or (inode is not None and st.st_ino != inode):
        os.close(fd)
        return None
    return fd


def _clear_staging(staging: Path, journal: Path, parent_fd: int, inode: int) -> None:
    if not _remove_staging(staging, parent_fd, inode):
        raise CannotDo(f"cannot remove {staging.name!r}, the staging directory of a killed "
                       "build; the journal is kept so the next run tries again", path=journal)


def recover(out: Path, parent_fd: int) -> list[str]:
    """Finish or undo a build that was killed (the caller holds the lock).

    The journal is trusted only as far as it can be checked: it may name only a directory
    ``.NAME.wfkit-<12 hex digits>`` beside ``out`` on the same device (a real directory,
    not a link). Before the swap it must hold the marker file with the journal's random
    token, and only then is it removed; after the swap (``out`` is the directory the
    journal's inode names) it holds the old tree, recognised by the old inode, and only
    files whose bytes match its manifest and links to files in ``out`` are removed from it.
    Anything else is an error and nothing is touched. Every name is reached from the
    handle ``parent_fd`` of the folder holding ``out``.
    """
    journal = _journal_path(out)
    _drop_journal_temporaries(out, journal, parent_fd)
    found = _read_journal(out, journal, parent_fd)
    if found is None:
        return []
    data, journal_ino = found
    if data["device"] != os.fstat(parent_fd).st_dev:
        raise JournalError("device: not the device of the pack's folder; nothing was "
                           "deleted (remove the journal by hand if no wfkit build is "
                           "running)", path=journal)
    token, device = data["token"], data["device"]
    staging = out.parent / data["staging"]
    aside = staging.name + ".old"
    left: list[str] = []
    if data["old_inode"] is not None and not _lexists(out.name, parent_fd) \
            and _is_dir(aside, parent_fd, data["old_inode"]):
        # the fallback swap was cut between its renames
        os.rename(aside, out.name, src_dir_fd=parent_fd, dst_dir_fd=parent_fd)
    out_fd = _dir_fd(out.name, device, data["inode"], parent_fd) \
        if data["inode"] is not None else None
    if out_fd is not None:  # swapped: the staging path (or its ``.old``) holds the old tree
        try:
            for name in (staging.name, aside):
                if data["old_inode"] is None:
                    break
                old_fd = _dir_fd(name, device, data["old_inode"], parent_fd)
                if old_fd is None:
                    continue
                old = out.parent / name
                try:
                    owned = pack_owned(old, read_manifest(old, root_fd=old_fd), old_fd)
                    left += _clear_old_tree(old_fd, out_fd, owned, old)
                finally:
                    os.close(old_fd)
                if _is_dir(name, parent_fd, data["old_inode"]):
                    with contextlib.suppress(OSError):
                        os.rmdir(name, dir_fd=parent_fd)
            _drop_marker(out_fd, token)
        finally:
            os.close(out_fd)
    elif _lexists(staging.name, parent_fd):  # never swapped in: only new files and links
        fd = _dir_fd(staging.name, device, data["inode"], parent_fd)
        try:
            if fd is not None and _has_marker(fd, token):
                _clear_staging(staging, journal, parent_fd, os.fstat(fd).st_ino)
            elif fd is not None and not os.listdir(fd):
                # made, killed before its marker was written
                with contextlib.suppress(OSError):
                    os.rmdir(staging.name, dir_fd=parent_fd)
            elif fd is not None and data["inode"] is None and _half_marker(fd, token):
                _clear_staging(staging, journal, parent_fd, os.fstat(fd).st_ino)  # cut mid-marker
            else:
                raise JournalError(f"names {staging.name!r}, which is not the staging "
                                   "directory of that build (no matching marker); nothing "
                                   "was deleted (remove the journal by hand if no wfkit "
                                   "build is running)", path=journal)
        finally:
            if fd is not None:
                os.close(fd)
    with contextlib.suppress(OSError):
        if os.stat(journal.name, dir_fd=parent_fd, follow_symlinks=False).st_ino == journal_ino:
            os.unlink(journal.name, dir_fd=parent_fd)
    return left
