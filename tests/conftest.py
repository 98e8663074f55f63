"""Shared test set-up: hypothesis profiles, and a CliRunner helper that drives ``wfkit``.

The tests live in one folder per area of the package (``tests/crossword/``, ``tests/pack/``,
...), with no ``__init__.py``: pytest imports each test file by its basename, so basenames are
unique across the tree, and a test file imports this module (``from conftest import EXAMPLES``),
the helpers beside it (``from wordforge_tables import write_table``) or another test file's
helpers (``from test_pack import tree``) by name, from any folder.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from wordforge_cli.batch import workers
from wordforge_cli.cli import cli

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = ROOT / "examples"
CONFIGS = ROOT / "configs"
REFERENCE = ROOT.parent / "shared" / "reference"

# pytest puts a test file's own folder on the path when it imports the file; every area folder is
# put there now, so an import of another folder's test module works whichever file is collected
# first, and for one file run alone.
for _area in sorted(TESTS.iterdir()):
    if _area.is_dir() and not _area.name.startswith((".", "_")) and str(_area) not in sys.path:
        sys.path.append(str(_area))

# A pytest started as a background job of a non-interactive shell inherits SIGINT ignored; its
# wfkit children would keep it ignored (as they must under nohup), so the Ctrl-C tests would
# wait out their timeouts and leave their runs going. The tests run as at a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# Under nohup SIGHUP (and in some runners SIGTERM) comes ignored the same way, and the SIGHUP
# tests' runs would finish with 0. A handler that does nothing keeps nohup's promise for pytest
# itself, while every program it starts begins with the default action (exec resets handlers,
# not ignored signals).
for _name in ("SIGHUP", "SIGTERM"):
    if signal.getsignal(getattr(signal, _name)) is signal.SIG_IGN:
        signal.signal(getattr(signal, _name), lambda signum, frame: None)

# "ci": derandomized, so every run of the README's test command (which names it) draws the
# same examples and a red run can be reproduced; "explore": new examples every run, to find
# what the fixed ones miss (``pytest --hypothesis-profile=explore``). Without the option the
# CI variable picks.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True,
                          database=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])


def pytest_configure(config: pytest.Config) -> None:
    # Loaded here, not when this module is imported: an import of it under another name
    # (``tests.conftest``) must never load a profile over the one the command line named.
    if config.getoption("hypothesis_profile", None) is None:
        settings.load_profile("ci" if os.environ.get("CI") else "explore")


def lexicon_from_words(words: list[str], language: str | None = None, name: str = "words"):
    """A crossword lexicon from plain strings; the same rules as ``lexicon.prepare``."""
    from wordforge_cli.crossword.lexicon import prepare
    from wordforge_cli.io.vocab import VocabEntry, Vocabulary

    return prepare(Vocabulary("<words>", name, language,
                              [VocabEntry(w, i + 1) for i, w in enumerate(words)]))


def schema_registry():
    """Every shipped schema, by its ``$id``, for ``jsonschema`` validators (``referencing``
    comes with jsonschema, a test extra)."""
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    from wordforge_cli import schemas

    return Registry().with_resources(
        (schemas.load(n)["$id"], DRAFT202012.create_resource(schemas.load(n)))
        for n in schemas.names())


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("xdg-cache")


@pytest.fixture(autouse=True)
def _cache_home(_session_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """wfkit's cache (the hand index) in a directory of this test session, never the user's
    own; shared by the tests (a test of the cache itself points it elsewhere)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(_session_cache))
    monkeypatch.delenv("WFKIT_NO_CACHE", raising=False)
    return _session_cache


@pytest.fixture
def run():
    """``run("rarity", "cat", "--json")`` -> click Result (stdout and stderr kept apart)."""

    def _run(*args: str, input: str | bytes | None = None, catch: bool = False):
        runner = CliRunner()
        result = runner.invoke(cli, [str(a) for a in args], input=input,
                               catch_exceptions=catch)
        return result

    return _run


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The jobs of each run that started worker processes (to know a run really used them)."""
    started: list[int] = []
    real = workers.ordered

    def spy(work, tasks, jobs, *args, **kwargs):  # type: ignore[no-untyped-def]
        started.append(jobs)
        return real(work, tasks, jobs, *args, **kwargs)

    monkeypatch.setattr(workers, "ordered", spy)
    return started
