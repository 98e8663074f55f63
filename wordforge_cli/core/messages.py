"""Every message of wfkit's own on stderr (the entry point's before Click is imported aside):
one prefix (``wfkit: ``, then ``warning: `` or ``error: ``), one line, controls escaped; and
the lines a command prints on stdout itself (:func:`echo`), controls escaped the same way."""

from __future__ import annotations

from typing import Any

import click

from wordforge_cli.core.errors import ConfigError, WfkitError, one_line
from wordforge_cli.core.text import shown

MAX_MESSAGE = 1000


def say(message: str) -> None:
    """Every message of wfkit's own goes out here: ``wfkit: `` and one line, controls escaped,
    and a message that quotes a huge value (a 5,000-digit number) cut in its middle."""
    line = one_line(message)
    if len(line) > MAX_MESSAGE:
        cut = len(line) - MAX_MESSAGE
        line = f"{line[:MAX_MESSAGE // 2]}...({cut:,} characters)...{line[-MAX_MESSAGE // 2:]}"
    click.echo(f"wfkit: {line}", err=True)


def warn(message: str) -> None:
    """A warning: the run goes on."""
    say(f"warning: {message}")


def detail(line: str) -> None:
    """A line under the message before it (a table of figures): no prefix, never cut."""
    click.echo(one_line(line), err=True)


def echo(text: str = "", *, nl: bool = True) -> None:
    """What a command prints on stdout itself (a report, a verdict, a game's moves, a JSON
    record): every control character but the line break shown escaped, whatever road a
    name or word took to it."""
    click.echo(shown(text), nl=nl)


class ReportedError(click.ClickException):
    """A WfkitError shown the wfkit way: one line, its own exit status (also from inside
    Click's parsing, e.g. an eager ``--config`` callback)."""

    def __init__(self, error: WfkitError):
        super().__init__(str(error))
        self.exit_code = error.exit_code  # type: ignore[misc]  # Click reads it per instance

    def show(self) -> None:  # type: ignore[override]  # always stderr, never a file
        say(f"error: {self.format_message()}")


QUIET_META = "wfkit.quiet"  # set by --quiet (options.shared): in the context every command shares


def quiet() -> bool:
    """Whether the running command was given ``--quiet``: no statistics, summaries or
    progress on stderr (errors, warnings and each missing item's reason still go out)."""
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(QUIET_META))


SKIPPED_SHOWN = 20  # entries named one by one before the rest are only counted

def warn_skipped(source: str, skipped: Any) -> None:
    """The intake policy's one wording, shared by every engine: each unusable entry skipped
    names its file:line and why (the first :data:`SKIPPED_SHOWN`), then how many more.

    ``skipped``: entries with ``line``, ``word`` and ``reason``."""
    entries = list(skipped)
    for entry in entries[:SKIPPED_SHOWN]:
        warn(f"{source}:{entry.line}: '{entry.word}' skipped: {entry.reason}")
    if len(entries) > SKIPPED_SHOWN:
        warn(f"{source}: {len(entries) - SKIPPED_SHOWN} more entries skipped")


def intake(source: str, skipped: Any, *, strict: bool) -> None:
    """The intake policy for an engine that skips as it reads (kanji ``--dict``): warn about
    each skipped entry (:func:`warn_skipped`), or with ``strict`` (``--strict-vocab``) refuse
    the first unusable one, exit 2 with its file:line. A repeated entry is only warned about
    (a duplicate is not unusable), as the crossword engine reports duplicates."""
    entries = list(skipped)
    bad = [e for e in entries if e.reason != "repeated"]
    if strict and bad:
        raise ConfigError(f"word '{bad[0].word}' skipped: {bad[0].reason} (--strict-vocab "
                          "refuses entries that cannot be used)", path=source, line=bad[0].line)
    warn_skipped(source, entries)
