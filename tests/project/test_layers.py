"""The house's shape: layers point down, no import circle, few modules at the top.

The layers are import-linter contracts in ``pyproject.toml`` (``[tool.importlinter]``): every
import at any depth, TYPE_CHECKING ones included, goes from a layer to one below it; the
engines (``wordforge``, ``crossword``, ``kanji``) import none of each other; a command imports
no other command; an engine's core imports no Click. A layers contract with every package in
it is also the no-circle rule between packages; inside a package, :func:`test_no_import_circle`
walks the modules' own imports.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "wordforge_cli"
LINT = Path(sys.executable).parent / "lint-imports"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path, name: str) -> set[str]:
    """The package's modules that ``path`` (module ``name``) imports anywhere in it (inside
    functions and TYPE_CHECKING blocks too), relative imports resolved."""
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
    return {m for m in found if m in SOURCES and m != name}


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
                          capture_output=True, text=True, cwd=root)


def test_the_layer_contracts_are_kept() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_a_planted_upward_import_breaks_a_contract(tmp_path: Path) -> None:
    """The contracts can fail: an engine that imports the batch layer inside a function is
    caught, as is a TYPE_CHECKING import of a render."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(PACKAGE, tmp_path / "wordforge_cli",
                    ignore=shutil.ignore_patterns("__pycache__"))
    planted = tmp_path / "wordforge_cli" / "kanji" / "check.py"
    planted.write_text(planted.read_text(encoding="utf-8")
                       + "\n\ndef _planted() -> None:\n"
                       "    from wordforge_cli.batch import kinds  # noqa: F401\n",
                       encoding="utf-8")
    typed = tmp_path / "wordforge_cli" / "crossword" / "stats.py"
    typed.write_text(typed.read_text(encoding="utf-8")
                     + "\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                     "    from wordforge_cli.render import svg  # noqa: F401\n",
                     encoding="utf-8")
    done = lint(tmp_path)
    assert done.returncode != 0
    assert "wordforge_cli.kanji.check -> wordforge_cli.batch.kinds" in done.stdout
    assert "wordforge_cli.crossword.stats -> wordforge_cli.render.svg" in done.stdout


def test_no_import_circle() -> None:
    """No module reaches itself through the modules it imports (inside a package too)."""
    graph = {name: imports(path, name) for name, path in SOURCES.items()}
    # a package's __init__ importing its own modules is its face, not a circle
    graph = {name: {m for m in found if not name.startswith(m + ".")}
             for name, found in graph.items()}
    state: dict[str, int] = {}
    circles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                circles.append(path[path.index(other):] + [other] if other in path
                               else [name, other])
            elif other not in state:
                visit(other, [*path, other])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not circles, circles


def test_few_modules_at_the_top() -> None:
    """Entry points only at the package's top; everything else lives in its layer's folder."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= 8, top


def test_every_module_imports_on_its_own() -> None:
    def try_import(name: str) -> tuple[str, str]:
        done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True,
                              text=True, cwd=PACKAGE.parent)
        return name, done.stderr.strip().splitlines()[-1] if done.returncode else ""

    with ThreadPoolExecutor(4) as pool:
        failed = {name: error for name, error in pool.map(try_import, sorted(SOURCES))
                  if error}
    assert not failed


@pytest.mark.parametrize("name", ["wordforge_cli.__main__", "wordforge_cli.docs"])
def test_only_the_entry_points_import_the_cli(name: str) -> None:
    importers = {m for m, path in SOURCES.items() if "wordforge_cli.cli" in imports(path, m)}
    assert importers <= {"wordforge_cli.__main__", "wordforge_cli.docs"}
    assert name in importers
