"""The errors wfkit reports as one line on stderr, each with its documented exit status.

Exit statuses (also in the README):
  0  done
  1  could not do it (a word that cannot be scored, a board whose budget ran out, a stale pack)
  2  usage or config error (bad option, bad YAML, unknown key, impossible request)
"""

from __future__ import annotations

from pathlib import Path

EXIT_OK = 0
EXIT_CANNOT = 1
EXIT_USAGE = 2


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
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        if self.field is not None:
            where += (self.field if self.path is not None
                      else "--" + self.field.replace("_", "-")) + ": "
        return where + self.message


class UsageError(WfkitError):
    """Bad options or arguments (exit 2)."""


class ConfigError(WfkitError):
    """A config, vocabulary or data file that cannot be used (exit 2)."""


class CannotDo(WfkitError):
    """A well-formed request that could not be carried out (exit 1)."""

    exit_code = EXIT_CANNOT
