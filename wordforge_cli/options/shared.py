"""Option definitions shared by every command (one place, as pip-tools keeps them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.core.messages import QUIET_META, say
from wordforge_cli.core.rng import fresh_seed
from wordforge_cli.options.spec import CLI, Field

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
F = TypeVar("F", bound=Callable[..., Any])


class Renders(click.Choice):  # type: ignore[type-arg]  # (generic from click 8.2 on)
    """A command's renders; the last release's names (``renamed``: old -> new) are still
    taken, said by the option's callback; --help shows the new ones only."""

    def __init__(self, renders: tuple[str, ...], renamed: dict[str, str]) -> None:
        super().__init__(renders)
        self.renamed = renamed

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        if value in self.renamed and ctx is not None:
            ctx.meta[RENAMED] = value
            return self.renamed[value]
        return super().convert(value, param, ctx)


RENAMED, OLD_FLAG = "wfkit.render_renamed", "wfkit.render_flag"
ASKED = "wfkit.render_asked"  # the command line named a format (--render or the old flag)


def render_option(renders: tuple[str, ...], help: str, renamed: dict[str, str] | None = None,
                  old_flag: str | None = None) -> Decorator:
    """``--render FORMAT``, every command's output flag (the first is the default; ``json``:
    JSON Lines where there are many records); the last release's values (``renamed``) and
    flag (``old_flag``) are still taken, with one deprecation line on stderr."""
    kind = Renders(renders, renamed or {})

    def deprecated(ctx: click.Context, flag: str, value: str) -> str:
        say(f"{flag} {ctx.meta.pop(RENAMED, value)} is deprecated (it goes in a later "
            f"release): use --render {value}")
        return value

    def old(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.meta[OLD_FLAG] = deprecated(ctx, param.opts[0], value)

    def render(ctx: click.Context, param: click.Parameter, value: str) -> str:
        if ctx.get_parameter_source("render") == click.core.ParameterSource.DEFAULT:
            if OLD_FLAG not in ctx.meta:
                return value
            ctx.meta[ASKED] = True
            return str(ctx.meta.pop(OLD_FLAG))
        ctx.meta[ASKED] = True
        return deprecated(ctx, "--render", value) if RENAMED in ctx.meta else value

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option("--render", type=kind, default=renders[0], show_default=True,
                         callback=render, help=help)(f)
        if old_flag is None:
            return f
        return click.option(old_flag, type=kind, hidden=True, expose_value=False,
                            callback=old)(f)

    return decorate


def one_format(ctx: click.Context, render: str, as_json: bool) -> str:
    """The format a command writes: ``--json`` is ``--render json``, so a command line that
    names another format beside it asks for two (a usage error, not JSON in silence)."""
    if as_json and render != "json" and ctx.meta.get(ASKED):
        raise UsageError(f"--json and --render {render} ask for two formats: give one "
                         "(--json is --render json)")
    return "json" if as_json else render


def output_options() -> Callable[[F], F]:
    """``-o/--output FILE`` and ``--json``."""

    def decorate(f: F) -> F:
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


def report_seed(ctx: click.Context, seed: int) -> None:
    """Tell the user which seed an unseeded run drew, so the run can be repeated."""
    if ctx.meta.get("wfkit.seed_was_drawn"):
        say(f"seed {seed} (pass --seed {seed} to repeat this run)")


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

# the statistics file of a batch (crossword, kanji, rarity, tiles -n; batch.sinks.write_stats):
# the section's request, the engine's summary (what a pack section records as its stats) and
# the run's timing; the command line only (a pack has its manifest)
STATS = Field("stats_path", click.Path(dir_okay=False), None,
              "Also write the statistics as JSON to FILE.", flags=("--stats",), key="stats",
              fronts=frozenset((CLI,)), metavar="FILE", what="statistics file")

# a batch's figures drawn as charts on one page (balance, kanji self-play): the command line only
REPORT = Field("report_path", click.Path(dir_okay=False), None,
               "Also write a report page to FILE (self-contained HTML, nothing fetched: the "
               "figures as charts with their 95% intervals, then the tables; kanji: its "
               "self-play's).", flags=("--report",),
               fronts=frozenset((CLI,)), metavar="FILE.html", what="report page",
               show_default=False)
# a sweep's chart on its own (an SVG image for a document)
CHART = Field("chart_path", click.Path(dir_okay=False), None,
              "With --sweep: also write the sweep's chart to FILE (SVG: each value's figure "
              "with its 95% interval).", flags=("--chart",), fronts=frozenset((CLI,)),
              metavar="FILE.svg", what="chart", show_default=False)

