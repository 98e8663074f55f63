"""The tests mirror the package: one folder per area (a layer or engine of ``wordforge_cli``,
or ``commands`` and ``project``), every test file in one, no ``__init__.py`` and no basename
twice (pytest imports a test file by its basename), and the helpers beside conftest.py."""

from __future__ import annotations

from collections import Counter

from conftest import ROOT, TESTS

AREAS = {"core", "io", "options", "wordforge", "crossword", "kanji", "render", "batch", "pack",
         "commands", "project"}


def _folders() -> set[str]:
    return {p.name for p in TESTS.iterdir()
            if p.is_dir() and not p.name.startswith((".", "_"))}


def test_every_test_file_is_in_the_folder_of_an_area() -> None:
    assert sorted(p.name for p in TESTS.glob("test_*.py")) == []
    assert _folders() <= AREAS, sorted(_folders() - AREAS)
    package = {p.name for p in (ROOT / "wordforge_cli").iterdir() if (p / "__init__.py").exists()}
    assert AREAS - {"commands", "project"} <= package  # an area is a part of the package


def test_no_basename_twice_and_no_package() -> None:
    names = Counter(p.name for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)
    assert sorted(name for name, count in names.items() if count > 1) == []
    assert list(TESTS.rglob("__init__.py")) == []
