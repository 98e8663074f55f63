"""Option definitions shared by every command (one place, as pip-tools keeps them)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from wordforge_cli.core.messages import say
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


seed_option = click.option(
    "--seed", type=click.IntRange(0, 2**63 - 1), default=None, callback=_resolve_seed,
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
        say(f"seed {seed} (pass --seed {seed} to repeat this run)")


def vocab_option(help: str = "Vocabulary file (YAML or one word a line).") -> Decorator:
    return click.option("--vocab", type=click.Path(dir_okay=False), help=help)


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
