"""Every message of wfkit's own on stderr: one prefix, one line, controls escaped."""

from __future__ import annotations

from typing import Any

import click

from wordforge_cli.core.errors import ConfigError, WfkitError, one_line

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


SKIPPED_SHOWN = 20  # entries named one by one before the rest are only counted

def warn_skipped(source: str, skipped: Any) -> None:
    """The intake policy's one wording, shared by every engine: each unusable entry skipped
    names its file:line and why (the first :data:`SKIPPED_SHOWN`), then how many more.

    ``skipped``: entries with ``line``, ``word`` and ``reason``."""
    entries = list(skipped)
    for entry in entries[:SKIPPED_SHOWN]:
        say(f"warning: {source}:{entry.line}: '{entry.word}' skipped: {entry.reason}")
    if len(entries) > SKIPPED_SHOWN:
        say(f"warning: {source}: {len(entries) - SKIPPED_SHOWN} more entries skipped")


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
