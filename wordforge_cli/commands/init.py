"""``wfkit init``: a starter project, so the README tour and every help example run as written.

The files come from the package itself (the bundled configs and examples ship in the wheel),
so a project made from an installed wfkit holds exactly what the documentation names.
"""

from __future__ import annotations

from pathlib import Path

import click

from wordforge_cli.core.messages import quiet
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
    from urllib.parse import unquote, urlparse

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
    from wordforge_cli import __version__

    requirement = wheel or f"wfkit=={__version__}"
    return text.replace("  WFKIT: .  #", f"  WFKIT: {requirement}  #", 1)


@click.command()
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
    from wordforge_cli.core.errors import CannotDo, UsageError
    from wordforge_cli.core.messages import say
    from wordforge_cli.io.output import atomic_write

    files = starter_files()
    present = [name for _source, name in files
               if (directory / name).exists() or (directory / name).is_symlink()]
    if list_only:
        for _source, name in files:
            click.echo(f"{directory / name}{'  (exists)' if name in present else ''}")
        return
    if directory.exists() and not directory.is_dir():
        raise UsageError("not a directory", path=directory)
    if present and not force:
        more = f" and {len(present) - 1} more" if len(present) > 1 else ""
        raise CannotDo(f"{directory / present[0]}{more} already there; nothing written "
                       "(--force overwrites)")
    for _source, name in files:
        target = directory / name
        if target.is_dir() and not target.is_symlink():
            raise CannotDo("is a directory, not a file", path=target)
    wheel = next((name for _source, name in files if name.startswith("wheels/")), None)
    for source, name in files:
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        data = source.read_bytes()
        if name == WORKFLOW:
            data = workflow_text(data.decode("utf-8"), wheel).encode("utf-8")
        with atomic_write(target, binary=True) as fh:
            fh.write(data)
    where = "" if str(directory) == "." else f"cd {directory} && "
    if wheel is None:
        say("init: the workflow installs wfkit from PyPI, where it is not yet: "
            f"see the WFKIT line of {directory / WORKFLOW}")
    if quiet():
        return
    say(f"init: wrote {len(files)} files to {directory}/"
        f"{f' ({len(present)} overwritten)' if present else ''}; try: {where}"
        "wfkit pack build examples/pack.yaml --out pack/")
