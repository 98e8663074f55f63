"""Option definitions shared by every command (one place, as pip-tools keeps them)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from wordforge_cli.errors import WfkitError, one_line
from wordforge_cli.rng import fresh_seed
from wordforge_cli.spec import CLI, Field

MAX_MESSAGE = 1000


def say(message: str) -> None:
    """Every message of wfkit's own goes out here: ``wfkit: `` and one line, controls escaped,
    and a message that quotes a huge value (a 5,000-digit number) cut in its middle."""
    line = one_line(message)
    if len(line) > MAX_MESSAGE:
        cut = len(line) - MAX_MESSAGE
        line = f"{line[:MAX_MESSAGE // 2]}...({cut:,} characters)...{line[-MAX_MESSAGE // 2:]}"
    click.echo(f"wfkit: {line}", err=True)


class ReportedError(click.ClickException):
    """A WfkitError shown the wfkit way: one line, its own exit status (also from inside
    Click's parsing, e.g. an eager ``--config`` callback)."""

    def __init__(self, error: WfkitError):
        super().__init__(str(error))
        self.exit_code = error.exit_code  # type: ignore[misc]  # Click reads it per instance

    def show(self) -> None:  # type: ignore[override]  # always stderr, never a file
        say(f"error: {self.format_message()}")


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
        from wordforge_cli.workers import default_jobs

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
    return click.option("--vocab", type=click.Path(dir_okay=False), help=help)


SKIPPED_SHOWN = 20  # entries named one by one before the rest are only counted

def warn_skipped(source: str, skipped: Any) -> None:
    """The intake policy's one wording, shared by every engine: each unusable entry skipped
    names its file:line and why (the first :data:`SKIPPED_SHOWN`), then how many more.

    ``skipped``: entries with ``line``, ``word`` and ``reason``."""
    entries = list(skipped)
    for entry in entries[:SKIPPED_SHOWN]:
        click.echo(f"wfkit: warning: {source}:{entry.line}: '{entry.word}' skipped: "
                   f"{entry.reason}", err=True)
    if len(entries) > SKIPPED_SHOWN:
        click.echo(f"wfkit: warning: {source}: {len(entries) - SKIPPED_SHOWN} more entries "
                   "skipped", err=True)


def intake(source: str, skipped: Any, *, strict: bool) -> None:
    """The intake policy for an engine that skips as it reads (kanji ``--dict``): warn about
    each skipped entry (:func:`warn_skipped`), or with ``strict`` (``--strict-vocab``) refuse
    the first unusable one, exit 2 with its file:line. A repeated entry is only warned about
    (a duplicate is not unusable), as the crossword engine reports duplicates."""
    entries = list(skipped)
    bad = [e for e in entries if e.reason != "repeated"]
    if strict and bad:
        from wordforge_cli.errors import ConfigError

        raise ConfigError(f"word '{bad[0].word}' skipped: {bad[0].reason} (--strict-vocab "
                          "refuses entries that cannot be used)", path=source, line=bad[0].line)
    warn_skipped(source, entries)


# the statistics file of a batch (crossword, kanji, rarity --vocab, tiles -n): the engine's
# summary, the object a pack section records as its stats; the command line only (a pack has
# its manifest)
STATS = Field("stats_path", click.Path(dir_okay=False), None,
              "Also write the statistics as JSON to FILE.", flags=("--stats",), key="stats",
              fronts=frozenset((CLI,)), metavar="FILE", what="statistics file")


def write_stats(path: str, summary: dict[str, Any]) -> None:
    """The statistics file: one JSON object (pretty, keys in the summary's order)."""
    from wordforge_cli.output import atomic_write, dumps_pretty

    with atomic_write(path) as fh:
        fh.write(dumps_pretty(summary) + "\n")
