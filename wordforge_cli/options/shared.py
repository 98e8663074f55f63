"""Option definitions shared by every command (one place, as pip-tools keeps them)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from wordforge_cli.core.messages import QUIET_META
from wordforge_cli.core.rng import fresh_seed
from wordforge_cli.options.spec import CLI, Field

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def output_options(formats: tuple[str, ...] = ()) -> Callable[[F], F]:
    """``-o/--output FILE`` and ``--json`` (plus ``--format`` when a command has several: the
    first is the default)."""

    def decorate(f: F) -> F:
        if formats:
            f = click.option("--format", "fmt", type=click.Choice(formats),
                             default=formats[0], show_default=True,
                             help="Output format.")(f)
        f = click.option("--json", "as_json", is_flag=True,
                         help="Print records as JSON (JSON Lines when there are many).")(f)
        f = click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
                         default=None,
                         help="Write to FILE (atomically) instead of stdout.")(f)
        return f

    return decorate


def _resolve_seed(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    if value is None:
        value = fresh_seed()
        ctx.meta["wfkit.seed_was_drawn"] = True
    return value


class SeedType(click.IntRange):
    """A seed: a whole number from 0 to 2**63-1, said so in the message ("abc" is not one;
    Click's own says "not a valid integer range")."""

    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                int(value.strip())
            except ValueError:
                self.fail(f"{value!r} is not a seed (a whole number from 0 to 2**63-1)",
                          param, ctx)
        return super().convert(value, param, ctx)


seed_option = click.option(
    "--seed", type=SeedType(0, 2**63 - 1), default=None, callback=_resolve_seed,
    help="Seed of the random draws; the same seed and options give the same bytes. "
         "Without it a seed is drawn and reported on stderr.",
)


def _jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int:
    if not value:
        from wordforge_cli.core.machine import default_jobs

        return default_jobs()
    return value


jobs_option = click.option(
    "-j", "--jobs", type=click.IntRange(0, 256), default=None, callback=_jobs,
    help="Worker processes (default: every core; 0 too). The bytes do not depend on it.")


def first_drawn(items: Iterator[T]) -> Iterator[T]:
    """``items`` with its first one drawn now: an impossible request (the engine's check)
    fails here, before the output file is opened."""
    first = next(items, None)
    return itertools.chain([] if first is None else [first], items)


def report_seed(ctx: click.Context, seed: int) -> None:
    """Tell the user which seed an unseeded run drew, so the run can be repeated."""
    if ctx.meta.get("wfkit.seed_was_drawn"):
        click.echo(f"wfkit: seed {seed} (pass --seed {seed} to repeat this run)", err=True)


def vocab_option(help: str = "Vocabulary file (YAML or one word a line).") -> Decorator:
    return click.option("--vocab", type=click.Path(dir_okay=False, allow_dash=True),
                        help=help + " - reads standard input (YAML when a line starts with "
                                    "words:, else one word a line).")


QUIET_HELP = ("Print no statistics or summaries on stderr (errors, warnings and the reason "
              "of each missing board or pool are still printed).")


def _quiet(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[QUIET_META] = True


# every command's --quiet: read where it prints with core.messages.quiet()
quiet_option = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_quiet,
                            help=QUIET_HELP)

# a batch that must be whole (a CI job): any board or pool missing (its budget ran out) makes
# the run exit 1 with nothing written; a pack section's key too
REQUIRE_ALL = Field("require_all", click.BOOL, False,
                    "Exit 1, writing nothing, when any board or pool of the batch is missing "
                    "(its budget ran out); without it a partial batch exits 0.",
                    show_default=False)

# the statistics file of a batch (crossword, kanji, rarity --vocab, tiles -n): the engine's
# summary, the object a pack section records as its stats; the command line only (a pack has
# its manifest)
STATS = Field("stats_path", click.Path(dir_okay=False), None,
              "Also write the statistics as JSON to FILE.", flags=("--stats",), key="stats",
              fronts=frozenset((CLI,)), metavar="FILE", what="statistics file")


def write_stats(path: str, summary: dict[str, Any]) -> None:
    """The statistics file: one JSON object (pretty, keys in the summary's order)."""
    from wordforge_cli.io.output import atomic_write, dumps_pretty

    with atomic_write(path) as fh:
        fh.write(dumps_pretty(summary) + "\n")
