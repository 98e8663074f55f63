"""wfkit's command classes: every command is a :class:`Command` (a group a :class:`Group`), made
by :func:`command` or :func:`group`. Only Click here, so ``wfkit --help`` stays light."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

# every command's help option: each command holds these names itself (see Command), so a
# context made without the group's settings cannot give it Click's lone --help
HELP_OPTION_NAMES = ("-h", "--help")


def _help_names(command: click.Command) -> list[str]:
    """:data:`HELP_OPTION_NAMES` without any a parameter of ``command`` already takes."""
    taken = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
    return [name for name in HELP_OPTION_NAMES if name not in taken]


class Command(click.Command):
    """Every wfkit command: its help option is ``-h, --help`` whatever the context. Click
    makes it once, the first time any context asks, named by that context's
    ``help_option_names`` (a bare ``click.Context(command)`` says ``--help`` alone, and that
    option stayed for good): here the names are the command's own."""

    def get_help_option_names(self, ctx: click.Context) -> list[str]:
        return _help_names(self)


class Group(click.Group):
    """A wfkit command with subcommands (:class:`Command` and groups of this class)."""

    command_class = Command
    group_class = type  # (a subgroup is of its parent's class)

    def get_help_option_names(self, ctx: click.Context) -> list[str]:
        return _help_names(self)


def command(**settings: Any) -> Callable[[Callable[..., Any]], Command]:
    """``click.command`` making a :class:`Command` (every top-level command's decorator)."""
    made: Callable[[Callable[..., Any]], Command] = click.command(cls=Command, **settings)
    return made


def group(**settings: Any) -> Callable[[Callable[..., Any]], Group]:
    """``click.group`` making a :class:`Group`, whose subcommands are :class:`Command`."""
    made: Callable[[Callable[..., Any]], Group] = click.group(cls=Group, **settings)
    return made
