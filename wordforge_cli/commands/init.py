"""``wfkit init``: a starter project, so the README tour and every help example run as written.

The files come from the package itself (the bundled configs and examples ship in the wheel),
so a project made from an installed wfkit holds exactly what the documentation names.
"""

from __future__ import annotations

from pathlib import Path

import click

# (folder in the package, file, where it goes in the project); the workflow goes where
# GitHub Actions finds it
WORKFLOW = ".github/workflows/wfkit-pack.yml"


def starter_files() -> list[tuple[Path, str]]:
    """(source, path in the project) of every file init writes, in the order written."""
    from wordforge_cli.paths import resource_dir

    files: list[tuple[Path, str]] = []
    configs = resource_dir("configs")
    files += [(path, f"configs/{path.name}") for path in sorted(configs.glob("*.yaml"))]
    examples = resource_dir("examples")
    for path in sorted(examples.iterdir()):
        if path.is_file() and path.suffix in (".yaml", ".txt", ".jsonl"):
            files.append((path, f"examples/{path.name}"))
    files.append((examples / "ci-pack-check.yml", WORKFLOW))
    return files


def workflow_text(text: str) -> str:
    """The example workflow for a user's project: wfkit pinned to this version, not a checkout."""
    from wordforge_cli import __version__

    return text.replace("  WFKIT: .  #", f"  WFKIT: wfkit=={__version__}  #", 1)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("directory", default=".", metavar="[DIR]",
                type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite files that are already there.")
@click.option("--list", "list_only", is_flag=True,
              help="List the files init would write (marking those that exist) and exit.")
def init(directory: Path, force: bool, list_only: bool) -> None:
    """Write a starter project into DIR (default: here): the bundled configs, the example
    vocabularies, a pack config and a CI workflow.

    Every example of the README's tour and of each command's --help runs as written in
    the project (they name examples/... and configs/...). Nothing is overwritten unless
    --force: when a file is already there, init writes nothing and exits 1 naming it.

    \b
    Examples:
      wfkit init --list
      wfkit init demo && cd demo
      wfkit init . --force
    """
    from wordforge_cli.errors import CannotDo, UsageError
    from wordforge_cli.output import atomic_write

    files = starter_files()
    if list_only:
        for _source, name in files:
            there = (directory / name).exists() or (directory / name).is_symlink()
            click.echo(f"{directory / name}{'  (exists)' if there else ''}")
        return
    if directory.exists() and not directory.is_dir():
        raise UsageError("not a directory", path=directory)
    present = [name for _source, name in files
               if (directory / name).exists() or (directory / name).is_symlink()]
    if present and not force:
        more = f" and {len(present) - 1} more" if len(present) > 1 else ""
        raise CannotDo(f"{directory / present[0]}{more} already there; nothing written "
                       "(--force overwrites)")
    for _source, name in files:
        target = directory / name
        if target.is_dir() and not target.is_symlink():
            raise CannotDo("is a directory, not a file", path=target)
    for source, name in files:
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = source.read_text(encoding="utf-8")
        if name == WORKFLOW:
            text = workflow_text(text)
        with atomic_write(target) as fh:
            fh.write(text)
    where = "" if str(directory) == "." else f"cd {directory} && "
    click.echo(f"wfkit init: wrote {len(files)} files to {directory}/"
               f"{f' ({len(present)} overwritten)' if present else ''}; try: {where}"
               "wfkit pack build examples/pack.yaml --out pack/", err=True)
