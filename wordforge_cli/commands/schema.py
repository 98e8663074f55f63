"""``wfkit schema``: print the JSON Schema of a record kind, for game clients to validate with."""

from __future__ import annotations

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.core.messages import echo
from wordforge_cli.options.command import command
from wordforge_cli.options.shared import quiet_option


def _names(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The schema names that start with what was typed: the shell's completions of NAME."""
    from wordforge_cli import schemas

    return [name for name in schemas.names() if name.startswith(incomplete)]


@command()
@click.argument("name", required=False, metavar="NAME", shell_complete=_names)
@click.option("--list", "list_names", is_flag=True, help="List the record kinds and exit.")
@quiet_option
def schema(name: str | None, list_names: bool) -> None:
    """Print the JSON Schema (draft 2020-12) of one kind of record wfkit writes.

    Every record wfkit writes has a schema shipped in the package: boards, pools, rarity
    rows, score breakdowns, deals, statistics files and the pack manifest. The schema
    printed is self-contained (a schema it refers to is embedded under $defs), so a game
    client can validate what it loads with any 2020-12 validator and no network. Records
    are strict: an unknown field or a missing one is an error.

    \b
    Examples:
      wfkit schema --list
      wfkit schema crossword-board > crossword-board.schema.json
      wfkit schema pack-manifest
    """
    from wordforge_cli import schemas
    from wordforge_cli.io.output import dumps_pretty

    if list_names:
        width = max(map(len, schemas.names()))
        for known in schemas.names():
            echo(f"{known:<{width}}  {schemas.load(known)['title']}")
        return
    if name is None:
        raise UsageError("name a record kind (wfkit schema --list shows them)")
    if name not in schemas.names():
        from difflib import get_close_matches

        close = get_close_matches(name, schemas.names(), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UsageError(f"no schema '{name}'{hint}; kinds: {', '.join(schemas.names())}")
    echo(dumps_pretty(schemas.bundled(name)))
