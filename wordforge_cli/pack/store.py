"""Safe writes of a whole pack: the directory holds the previous complete pack or the new one.

A build writes into a hidden staging directory beside ``--out`` (each file through a temporary
name, the manifest last), then swaps it with ``--out`` in one ``renameat2(RENAME_EXCHANGE)``
call (Linux 3.15+): there is no moment at which ``--out`` holds half of each. Files in
``--out`` that wfkit did not write are hard-linked into the staging directory first, so they
stay in place; the old pack's own files are deleted afterwards, and nothing else ever is.

A journal file beside ``--out`` names the staging directory and its inode, so a build killed
at any moment is tidied up by the next one: before the swap the staging directory is removed
(it holds only new files and links), after it the old tree's own files are removed and any
stranger is moved back. Where the exchange call is missing, the swap falls back to two renames
(a moment without ``--out``, which the journal repairs on the next run).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import re
import secrets
import shutil
import signal
import stat
from dataclasses import dataclass
from pathlib import Path

from wordforge_cli.errors import CannotDo, UsageError
from wordforge_cli.pack.files import MANIFEST, fsync_dir

JOURNAL_SUFFIX = ".wfkit-journal"
RENAME_EXCHANGE = 2
AT_FDCWD = -100


def read_manifest(directory: Path) -> dict | None:
    """The directory's wfkit manifest, or None when it is not a wfkit pack."""
    path = directory / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith("wfkit-pack/"):
        return None
    return data


def pack_owned(manifest: dict | None) -> set[str]:
    """Paths a wfkit build wrote into a pack directory (its manifest's files and itself)."""
    if manifest is None:
        return set()
    owned = {MANIFEST}
    for entry in manifest.get("files", []):
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            owned.add(entry["path"])
    return owned


@dataclass
class Staging:
    out: Path
    path: Path
    journal: Path


def _journal_path(out: Path) -> Path:
    return out.parent / f".{out.name}{JOURNAL_SUFFIX}"


def begin(out: Path, *, force: bool, claims: re.Pattern | None = None) -> Staging:
    """Check ``out`` may be written, tidy after any killed build, and open a staging dir.

    ``claims`` matches the paths the pack may write; a file of yours already at one of them
    stops the build instead of being replaced.
    """
    out = Path(os.path.realpath(out))  # a symlinked --out: swap the directory it names
    if out.exists() and not out.is_dir():
        raise UsageError("--out must be a directory, not a file", path=out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotDo(f"cannot create the directory: {exc.strerror}", path=out.parent) from None
    if not out.parent.is_dir():
        raise UsageError("--out is inside something that is not a directory", path=out)
    recover(out)
    if out.is_dir() and read_manifest(out) is None and any(out.iterdir()) and not force:
        raise UsageError("directory is not empty and is not a wfkit pack (no manifest.json); "
                         "pass --force to build into it anyway (nothing of yours is deleted)",
                         path=out)
    if out.is_dir():
        owned = pack_owned(read_manifest(out))
        for relpath in _all_files(out):
            if relpath not in owned and claims is not None and claims.fullmatch(relpath):
                raise UsageError("a file that wfkit did not write is where the pack writes; "
                                 "move it away (wfkit never overwrites your files)",
                                 path=out / relpath)
    journal = _journal_path(out)
    path = out.parent / f".{out.name}.wfkit-{secrets.token_hex(6)}"
    owner = {"pid": os.getpid(), "start": _start_time(os.getpid())}
    _write_journal(journal, {"staging": path.name, "inode": None, **owner})  # before it exists
    try:
        path.mkdir()
    except OSError as exc:
        journal.unlink()
        raise CannotDo(f"cannot create a staging directory: {exc.strerror}",
                       path=out.parent) from None
    umask = os.umask(0)
    os.umask(umask)
    mode = stat.S_IMODE(out.stat().st_mode) if out.is_dir() else 0o777 & ~umask
    os.chmod(path, mode)
    _write_journal(journal, {"staging": path.name, "inode": path.stat().st_ino, **owner})
    return Staging(out, path, journal)


def _all_files(root: Path) -> list[str]:
    found = []
    for dirpath, _dirnames, filenames in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        found.extend((rel / name).as_posix() for name in filenames)
    return found


def _write_journal(journal: Path, data: dict) -> None:
    tmp = journal.with_name(journal.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(data, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, journal)
    fsync_dir(journal.parent)


def os_error(exc: OSError) -> CannotDo:
    """An OS error while writing a pack, as one line (disk full, permission denied, ...)."""
    return CannotDo(f"cannot write the pack: {exc.strerror or exc}", path=exc.filename)


def abort(staging: Staging) -> None:
    """Drop a staging directory that was never swapped in (it holds only our files and links)."""
    shutil.rmtree(staging.path, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):
        staging.journal.unlink()


def commit(staging: Staging) -> list[str]:
    """Swap the staged pack into ``out``; returns paths of strangers left aside (normally none)."""
    out = staging.out
    old_manifest = read_manifest(out) if out.is_dir() else None
    if not out.exists():
        os.rename(staging.path, out)
        fsync_dir(out.parent)
        staging.journal.unlink()
        return []
    owned = pack_owned(old_manifest)
    _link_strangers(out, staging.path, owned)
    fsync_dir(staging.path)
    _test_kill("before-exchange")
    _exchange(staging.path, out)
    fsync_dir(out.parent)
    _test_kill("after-exchange")
    left = _clear_old_tree(staging.path, out, owned)
    staging.journal.unlink()
    return left


def _test_kill(point: str) -> None:
    """Let the SIGKILL test stop a build at an exact point (WFKIT_TEST_KILL_AT=point)."""
    if os.environ.get("WFKIT_TEST_KILL_AT") == point:
        os.kill(os.getpid(), signal.SIGKILL)


def _link_strangers(out: Path, staging: Path, owned: set[str]) -> None:
    """Hard-link everything wfkit did not write into the staging tree, so it stays in ``out``."""
    for dirpath, dirnames, filenames in os.walk(out):
        rel = Path(dirpath).relative_to(out)
        if not dirnames and not filenames and rel.parts:  # an empty directory of yours
            (staging / rel).mkdir(parents=True, exist_ok=True)
        for name in dirnames + filenames:
            relpath = (rel / name).as_posix()
            source = out / relpath
            target = staging / relpath
            st = os.lstat(source)
            if relpath in owned or stat.S_ISDIR(st.st_mode) or os.path.lexists(target):
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(source), target)
            elif stat.S_ISREG(st.st_mode):
                try:
                    os.link(source, target)
                except OSError as exc:
                    raise CannotDo(f"cannot keep a file of yours in place while swapping the "
                                   f"pack in (hard link failed: {exc.strerror})",
                                   path=source) from None
            # sockets, fifos, devices: left in the old tree, moved back after the swap


def _exchange(a: Path, b: Path) -> None:
    """Atomically swap two directories; two renames where the kernel cannot exchange."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        renameat2 = None
    if os.environ.get("WFKIT_TEST_NO_EXCHANGE"):  # tests exercise the fallback too
        renameat2 = None
    if renameat2 is not None:
        if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
            return
        err = ctypes.get_errno()
        if err not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise CannotDo(f"cannot swap the new pack in: {os.strerror(err)}", path=b)
    aside = a.with_name(a.name + ".old")  # fallback: a moment without ``b``; recover() repairs
    os.rename(b, aside)
    _test_kill("between-renames")
    os.rename(a, b)
    os.rename(aside, a)


def _clear_old_tree(old: Path, out: Path, owned: set[str]) -> list[str]:
    """Remove the previous pack's own files and the links' twins; move back any stranger.

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
                _test_kill("clearing-old-tree")
            elif not os.path.lexists(twin):
                twin.parent.mkdir(parents=True, exist_ok=True)
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


def recover(out: Path) -> list[str]:
    """Finish or undo a build that was killed: see the module docstring."""
    journal = _journal_path(out)
    try:
        data = json.loads(journal.read_text(encoding="utf-8"))
        staging = out.parent / str(data["staging"])
        inode = None if data["inode"] is None else int(data["inode"])
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError):
        journal.unlink()
        return []
    pid = data.get("pid")
    if isinstance(pid, int) and pid != os.getpid() and _start_time(pid) is not None \
            and _start_time(pid) == data.get("start"):
        raise CannotDo(f"another wfkit build (process {pid}) is writing this pack; "
                       "one build per directory at a time", path=out)
    left: list[str] = []
    aside = staging.with_name(staging.name + ".old")
    if aside.is_dir() and not out.exists():  # the fallback swap was cut between its renames
        os.rename(aside, out)
    swapped = inode is not None and out.is_dir() and out.stat().st_ino == inode
    if swapped:  # the staging path now holds the old tree
        if staging.is_dir():
            manifest = read_manifest(staging)
            left = _clear_old_tree(staging, out, pack_owned(manifest))
        if aside.is_dir():
            left += _clear_old_tree(aside, out, pack_owned(read_manifest(aside)))
    else:  # never swapped in: the staging tree holds only new files and links
        shutil.rmtree(staging, ignore_errors=True)
    journal.unlink()
    return left


def _start_time(pid: int) -> int | None:
    """When process ``pid`` started (Linux /proc), to tell a live build from a reused pid."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return int(fields[19])
    except (OSError, IndexError, ValueError):
        return None


