"""The errors wfkit reports as one line on stderr, each with its documented exit status.

Exit statuses (also in the README):
  0  done
  1  could not do it (a word that cannot be scored, a board whose budget ran out, a stale pack)
  2  usage or config error (bad option, bad YAML, unknown key, impossible request)
  128+N  stopped by signal N (SIGINT 130, SIGTERM 143, SIGHUP 129), temporary files removed

Every message is one line: :func:`~wordforge_cli.core.text.one_line` shows control characters
escaped (``\\n``, ``\\x1b``) and :func:`show_path` quotes a path that holds anything but plain
path characters.
"""

from __future__ import annotations

import re
from pathlib import Path

from wordforge_cli.core.text import CONTROLS as CONTROLS  # (where the set was read from)
from wordforge_cli.core.text import one_line as one_line

EXIT_CANNOT = 1
EXIT_USAGE = 2

_PLAIN_PATH = re.compile(r"[\w./+@%,=~-]+")


def show_path(path: str | Path) -> str:
    """A path as a message shows it: as is when plain, else in quotes with controls escaped."""
    text = str(path)
    if _PLAIN_PATH.fullmatch(text):
        return text
    return "'" + one_line(text.replace("\\", "\\\\").replace("'", "\\'")) + "'"


class WfkitError(Exception):
    """A problem the user can act on; printed as ``wfkit: [file:line: ]message``."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None,
                 field: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        # the option the message is about, as data: rendered ``--bring`` on the command line,
        # as the key (``bring``, ``sections[3].bring``) where a file gave it
        self.field = field

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            shown = show_path(self.path)
            where = f"{shown}:{self.line}: " if self.line else f"{shown}: "
        if self.field is not None:
            where += (self.field if self.path is not None
                      else "--" + self.field.replace("_", "-")) + ": "
        return one_line(where + self.message)


class UsageError(WfkitError):
    """Bad options or arguments (exit 2)."""


class ConfigError(WfkitError):
    """A config, vocabulary or data file that cannot be used (exit 2)."""


class CannotDo(WfkitError):
    """A well-formed request that could not be carried out (exit 1)."""

    exit_code = EXIT_CANNOT
