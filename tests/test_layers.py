"""Layers point down: engines under renders under commands and pack; checked on the source.

- every module imports on its own, in a fresh interpreter (no import-order luck);
- an engine (``rarity.py``, ``english.py``, ``hands.py``, ``balance.py``, ``crossword/``,
  ``kanji/``) imports
  nothing from ``commands``, ``pack``, ``render`` or ``cli``, and its core (all but the
  ``config.py`` front end that declares its options) not even Click;
- a render imports nothing from ``pack``, ``commands`` or ``cli``;
- a command imports no other command, and nothing but the entry points (``__main__``,
  ``signals``, the console script's, and ``docs``, which walks the command tree for the README)
  imports ``cli``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "wordforge_cli"
ENGINES = ("wordforge_cli.rarity", "wordforge_cli.english", "wordforge_cli.hands",
           "wordforge_cli.balance", "wordforge_cli.crossword", "wordforge_cli.kanji")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(module_name(p) for p in PACKAGE.rglob("*.py"))


def imports(path: Path, name: str | None = None) -> set[str]:
    """Every module ``path`` (module ``name``) imports, anywhere in it (inside functions
    too), relative imports resolved."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def under(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


SOURCES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def test_every_module_imports_on_its_own() -> None:
    def try_import(name: str) -> tuple[str, str]:
        done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True,
                              text=True, cwd=PACKAGE.parent)
        return name, done.stderr.strip().splitlines()[-1] if done.returncode else ""

    with ThreadPoolExecutor(4) as pool:
        failed = {name: error for name, error in pool.map(try_import, MODULES) if error}
    assert not failed


@pytest.mark.parametrize("name", sorted(n for n in SOURCES if under(n, *ENGINES)))
def test_an_engine_imports_no_front_end_and_no_render(name: str) -> None:
    bad = {m for m in imports(SOURCES[name])
           if under(m, "wordforge_cli.commands", "wordforge_cli.pack", "wordforge_cli.render",
                    "wordforge_cli.cli", "wordforge_cli.words", "wordforge_cli.options")}
    assert not bad, f"{name} imports {sorted(bad)}"
    if not name.endswith(".config"):  # the front end declaring the options may use Click
        assert not {m for m in imports(SOURCES[name]) if under(m, "click")}, name


@pytest.mark.parametrize("name", sorted(n for n in SOURCES if under(n, "wordforge_cli.render")))
def test_a_render_imports_no_pack_and_no_command(name: str) -> None:
    bad = {m for m in imports(SOURCES[name])
           if under(m, "wordforge_cli.pack", "wordforge_cli.commands", "wordforge_cli.cli")}
    assert not bad, f"{name} imports {sorted(bad)}"


def test_commands_import_no_other_command_and_nothing_imports_cli() -> None:
    for name, path in SOURCES.items():
        found = imports(path)
        if under(name, "wordforge_cli.commands"):
            others = {m for m in found if under(m, "wordforge_cli.commands") and m != name
                      and m != "wordforge_cli.commands"}
            assert not others, f"{name} imports {sorted(others)}"
        if name not in ("wordforge_cli.__main__", "wordforge_cli.signals", "wordforge_cli.docs",
                        "wordforge_cli.cli"):
            assert not {m for m in found if under(m, "wordforge_cli.cli")}, name


def test_the_checker_sees_a_bad_import(tmp_path: Path) -> None:
    """The checks above can fail: a planted import is found, inside a function too."""
    planted = tmp_path / "planted.py"
    planted.write_text("def f():\n    from ..pack import kinds\n    import wordforge_cli.cli\n",
                       encoding="utf-8")
    found = imports(planted, "wordforge_cli.kanji.planted")
    assert "wordforge_cli.pack.kinds" in found and "wordforge_cli.cli" in found
