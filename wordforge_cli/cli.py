"""The ``wfkit`` command group. Subcommands are imported only when run, so start-up stays fast."""

from __future__ import annotations

import importlib
import os
import sys

import click

from wordforge_cli import __version__
from wordforge_cli.errors import EXIT_CANNOT, WfkitError

# name -> "module:attribute"; one module per command (wordforge_cli/commands/NAME.py)
COMMANDS: dict[str, str] = {
    "rarity": "wordforge_cli.commands.rarity:rarity",
    "score": "wordforge_cli.commands.score:score",
    "tiles": "wordforge_cli.commands.tiles:tiles",
    "crossword": "wordforge_cli.commands.crossword:crossword",
    "kanji": "wordforge_cli.commands.kanji:kanji",
    "pack": "wordforge_cli.commands.pack:pack",
    "schema": "wordforge_cli.commands.schema:schema",
    "init": "wordforge_cli.commands.init:init",
}

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class ReportedError(click.ClickException):
    """A WfkitError shown the wfkit way: one line, its own exit status."""

    def __init__(self, error: WfkitError):
        super().__init__(str(error))
        self.exit_code = error.exit_code

    def show(self, file=None) -> None:
        click.echo(f"wfkit: error: {self.format_message()}", err=True)


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (Click docs' lazy-loading pattern)."""

    def __init__(self, *args, lazy_commands: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands:
            module_name, attr = self.lazy_commands[cmd_name].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except WfkitError as error:
            raise ReportedError(error) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Click's main, but a usage error is one line too (Click's own takes four)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            # `wfkit` or `wfkit pack` alone asks for help: give it on stdout, exit 0
            click.echo(error.ctx.get_help() if error.ctx is not None else error.format_message())
            sys.exit(0)
        except click.UsageError as error:
            hint = ""
            if error.ctx is not None:
                hint = f" (see '{error.ctx.command_path} -h')"
            click.echo(f"wfkit: error: {error.format_message()}{hint}", err=True)
            sys.exit(error.exit_code)
        except click.ClickException as error:
            error.show()
            sys.exit(error.exit_code)
        except click.Abort:
            click.echo("wfkit: aborted", err=True)
            sys.exit(EXIT_CANNOT)
        sys.exit(status if isinstance(status, int) else 0)


def _show_version(ctx: click.Context) -> None:
    """The code's version and the bundled data's (a hash of its files: see dataversion.py)."""
    from wordforge_cli.dataversion import data_version

    click.echo(f"wfkit, version {__version__} (data {data_version()})")
    ctx.exit()


@click.group(cls=LazyGroup, lazy_commands=COMMANDS, context_settings=CONTEXT_SETTINGS)
@click.option("-V", "--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _param, value: _show_version(ctx) if value else None,
              help="Show the version of wfkit and of its bundled data, and exit.")
def cli() -> None:
    """Generate word-game content in batches: word rarity and scores, crossword boards,
    kanji pools, and reproducible puzzle packs.

    \b
    Examples:
      wfkit rarity labyrinth
      wfkit score quaff --json
      wfkit crossword --vocab examples/tech.yaml -n 1000 -o boards.jsonl
      wfkit kanji -n 100 --seed 1 -o pools.jsonl
      wfkit pack check examples/pack.yaml --out pack/
      wfkit init my-game && cd my-game    # a project where every example runs

    Shell completion (bash, zsh, fish): eval "$(_WFKIT_COMPLETE=bash_source wfkit)"
    in ~/.bashrc (zsh_source in ~/.zshrc; fish: see the README).

    Exit status: 0 done, 1 could not do it, 2 usage or config error.
    """


def main(argv: list[str] | None = None) -> None:
    """Console entry point: never a traceback for the user (WFKIT_DEBUG=1 shows one)."""
    try:
        cli.main(args=argv, prog_name="wfkit")
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("wfkit: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(EXIT_CANNOT)
    except MemoryError:
        click.echo("wfkit: error: out of memory", err=True)
        sys.exit(EXIT_CANNOT)
    except Exception as exc:  # a bug: say so in one line, never a traceback
        if os.environ.get("WFKIT_DEBUG"):
            raise
        click.echo(f"wfkit: internal error: {type(exc).__name__}: {exc} "
                   "(set WFKIT_DEBUG=1 for a traceback)", err=True)
        sys.exit(EXIT_CANNOT)
