"""``wfkit init``: a starter project, so the README tour and every help example run as written.

The files come from the package itself (the bundled configs and examples ship in the wheel),
so a project made from an installed wfkit holds exactly what the documentation names.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

import click

from wordforge_cli import __version__
from wordforge_cli.core.errors import CannotDo, UsageError, one_line, show_path
from wordforge_cli.core.messages import echo, quiet, say
from wordforge_cli.options.command import command
from wordforge_cli.options.shared import quiet_option

# the workflow goes where GitHub Actions finds it
WORKFLOW = ".github/workflows/wfkit-pack.yml"


def starter_files() -> list[tuple[Path, str]]:
    """(source, path in the project) of every file init writes, in the order written."""
    from wordforge_cli.io.paths import resource_dir

    files: list[tuple[Path, str]] = []
    configs = resource_dir("configs")
    files += [(path, f"configs/{path.name}") for path in sorted(configs.glob("*.yaml"))]
    examples = resource_dir("examples")
    for path in sorted(examples.iterdir()):
        if path.is_file() and path.suffix in (".yaml", ".yml", ".txt", ".jsonl"):
            files.append((path, f"examples/{path.name}"))
    files.append((examples / "ci-pack-check.yml", WORKFLOW))
    wheel = installed_wheel()
    if wheel is not None:  # what the workflow installs: it exists, unlike wfkit on PyPI (yet)
        files.append((wheel, f"wheels/{wheel.name}"))
    return files


def installed_wheel() -> Path | None:
    """The wheel file this wfkit was installed from, when pip recorded one that still exists
    (PEP 610 direct_url.json); None for an install from an index, a checkout or an sdist."""
    import json
    from importlib import metadata

    try:
        text = metadata.distribution("wfkit").read_text("direct_url.json")
        url = urlparse(json.loads(text)["url"]) if text else None
    except (metadata.PackageNotFoundError, ValueError, KeyError, TypeError):
        return None
    if url is None or url.scheme != "file" or not url.path.endswith(".whl"):
        return None
    path = Path(unquote(url.path))
    return path if path.is_file() else None


def workflow_text(text: str, wheel: str | None) -> str:
    """The example workflow for a user's project: it installs the wheel init copied beside it
    (wfkit is not on PyPI yet), or else wfkit pinned to this version."""
    requirement = wheel or f"wfkit=={__version__}"
    return text.replace("  WFKIT: .  #", f"  WFKIT: {requirement}  #", 1)


_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass
class Target:
    """What stands at one starter file's place in DIR, found without following a link."""

    name: str  # the path inside DIR
    kind: str  # absent | file | link | special | dir
    blocked: str = ""  # why a folder on the way cannot hold it (a file, a link, ...)
    mode: int = 0  # what stands there (its lstat mode), when something does


def _kind(mode: int) -> str:
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "special"


def _what(mode: int) -> str:
    from wordforge_cli.io.inputs import file_kind

    return "a file" if stat.S_ISREG(mode) else file_kind(mode)


def probe(root_fd: int | None, name: str) -> Target:
    """``name`` under the handle ``root_fd`` (None: DIR does not exist yet), each folder on
    the way opened by name without following a link; nothing is opened but folders, so a
    FIFO cannot hang the run."""
    if root_fd is None:
        return Target(name, "absent")
    parts = name.split("/")
    fd = os.dup(root_fd)
    try:
        for depth, part in enumerate(parts[:-1]):
            here = "/".join(parts[:depth + 1])
            try:
                st = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                return Target(name, "absent")
            if not stat.S_ISDIR(st.st_mode):
                return Target(name, "absent", f"{here} is {_what(st.st_mode)}, not a folder "
                              "(init writes only inside DIR and never through a link)")
            nxt = os.open(part, _DIR, dir_fd=fd)
            os.close(fd)
            fd = nxt
        try:
            st = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            return Target(name, "absent")
        return Target(name, _kind(st.st_mode), mode=st.st_mode)
    finally:
        os.close(fd)


def open_root(directory: Path) -> int | None:
    """DIR opened once (None when it is not there yet); a dangling link, a link loop, a
    name too long or a file is refused with one line."""
    for part in directory.parts:
        if len(os.fsencode(part)) > 255:
            raise UsageError(f"a name of {len(os.fsencode(part))} bytes is too long (at most "
                             "255)", path=directory)
    try:
        st = os.stat(directory)
    except FileNotFoundError:
        if os.path.islink(directory):
            raise UsageError("is a symbolic link to nothing (a dangling link)",
                             path=directory) from None
        return None
    except OSError as exc:
        raise UsageError(f"cannot be used: {_reason(exc)}", path=directory) from None
    if not stat.S_ISDIR(st.st_mode):
        raise UsageError("not a directory", path=directory)
    try:
        return os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise UsageError(f"cannot be used: {_reason(exc)}", path=directory) from None


def _reason(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


class Writer:
    """Every starter file written or none: each goes to a temporary name in its folder
    (folders made as needed, by handle, never through a link), and only when all are
    written are they renamed into place; on any failure the temporary files and the
    folders made go again."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.made: list[tuple[int, str]] = []  # (parent handle, name) of folders made
        self.temps: list[tuple[int, str, str]] = []  # (folder handle, temporary, final)
        self.fds: list[int] = []
        self.top: list[Path] = []  # DIR and its parents, when init made them

    def root(self) -> int:
        missing = []
        current = self.directory
        while not os.path.lexists(current):
            missing.append(current)
            current = current.parent
        os.makedirs(self.directory, exist_ok=True)
        self.top = missing  # DIR first
        fd = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        self.fds.append(fd)
        return fd

    def folder(self, root_fd: int, rel: str) -> int:
        fd = root_fd
        for part in rel.split("/") if rel else []:
            try:
                nxt = os.open(part, _DIR, dir_fd=fd)
            except FileNotFoundError:
                os.mkdir(part, 0o777, dir_fd=fd)
                self.made.append((fd, part))
                nxt = os.open(part, _DIR, dir_fd=fd)
            self.fds.append(nxt)
            fd = nxt
        return fd

    def write(self, root_fd: int, name: str, data: bytes) -> None:
        rel, _, base = name.rpartition("/")
        fd = self.folder(root_fd, rel)
        tmp = f".{base}.{secrets.token_hex(4)}.tmp"
        out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                      0o666, dir_fd=fd)
        self.temps.append((fd, tmp, base))
        with os.fdopen(out, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    def commit(self) -> None:
        for fd, tmp, base in self.temps:
            os.replace(tmp, base, src_dir_fd=fd, dst_dir_fd=fd)
        self.temps = []
        self.close()

    def undo(self) -> None:
        for fd, tmp, _base in reversed(self.temps):
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd)
        for fd, part in reversed(self.made):
            with contextlib.suppress(OSError):
                os.rmdir(part, dir_fd=fd)
        self.close()
        for path in self.top:
            with contextlib.suppress(OSError):
                os.rmdir(path)

    def close(self) -> None:
        for fd in reversed(self.fds):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []


@command()
@click.argument("directory", default=".", metavar="[DIR]",
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite files that are already there.")
@click.option("--list", "list_only", is_flag=True,
              help="List the files init would write (marking those that exist) and exit.")
@quiet_option
def init(directory: Path, force: bool, list_only: bool) -> None:
    """Write a starter project into DIR (default: here): the bundled configs, the example
    vocabularies, a pack config and a CI workflow.

    Every example of the README's tour and of each command's --help runs as written in
    the project (they name examples/... and configs/...). When wfkit was installed from a
    wheel file, the wheel is copied to wheels/ and the workflow installs it. Nothing is
    overwritten unless --force: when a file is already there, init writes nothing and
    exits 1 naming it.

    \b
    Examples:
      wfkit init --list
      wfkit init demo && cd demo
      wfkit init . --force
    """
    files = starter_files()
    root_fd = open_root(directory)
    try:
        targets = [probe(root_fd, name) for _source, name in files]
    finally:
        if root_fd is not None:
            os.close(root_fd)
    present = [t.name for t in targets if t.kind != "absent"]
    if list_only:
        for _source, name in files:
            echo(one_line(f"{directory / name}{'  (exists)' if name in present else ''}"))
        return
    blocked = next((t for t in targets if t.blocked), None)
    if blocked is not None:
        raise UsageError(blocked.blocked, path=directory / blocked.name.split("/")[0])
    if present and not force:
        more = f" and {len(present) - 1} more" if len(present) > 1 else ""
        raise CannotDo(f"{show_path(directory / present[0])}{more} already there; nothing "
                       "written (--force overwrites)")
    for target in targets:
        if target.kind == "dir":
            raise CannotDo("is a directory, not a file", path=directory / target.name)
        if target.kind in ("link", "special"):
            raise UsageError(f"is {_what(target.mode)}; init never writes through one (remove "
                             "it first)", path=directory / target.name)
    wheel = next((name for _source, name in files if name.startswith("wheels/")), None)
    writer = Writer(directory)
    try:
        fd = writer.root()
        for source, name in files:
            data = source.read_bytes()
            if name == WORKFLOW:
                data = workflow_text(data.decode("utf-8"), wheel).encode("utf-8")
            writer.write(fd, name, data)
        writer.commit()
    except OSError as exc:
        writer.undo()
        where = exc.filename if isinstance(exc.filename, str) and os.path.isabs(
            exc.filename) else directory
        raise CannotDo(f"cannot write the starter files: {_reason(exc)}; nothing written",
                       path=where) from None
    except BaseException:
        writer.undo()
        raise
    where = "" if str(directory) == "." else f"cd {show_path(directory)} && "
    if wheel is None:
        say("init: the workflow installs wfkit from PyPI, where it is not yet: "
            f"see the WFKIT line of {directory / WORKFLOW}")
    if quiet():
        return
    say(f"init: wrote {len(files)} files to {directory}/"
        f"{f' ({len(present)} overwritten)' if present else ''}; try: {where}"
        "wfkit pack build examples/pack.yaml --out pack/")
