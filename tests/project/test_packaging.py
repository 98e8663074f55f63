"""A wheel must carry every subpackage, the bundled data and the default configs."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_every_subpackage_is_listed():
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "wordforge_cli").rglob("__init__.py")
    }
    assert found <= set(SETUPTOOLS["packages"]), found - set(SETUPTOOLS["packages"])


def test_data_and_configs_are_shipped():
    assert SETUPTOOLS["package-dir"] == {"wordforge_cli.data": "data",
                                         "wordforge_cli.configs": "configs",
                                         "wordforge_cli.examples": "examples"}
    globs = SETUPTOOLS["package-data"]
    shipped_suffixes = {g.removeprefix("*") for g in globs["wordforge_cli.data"]}
    for path in (ROOT / "data").iterdir():
        if path.is_file():
            assert path.suffix in shipped_suffixes, f"data/{path.name} would not be installed"
    assert globs["wordforge_cli.configs"] == ["*.yaml"]
    assert list((ROOT / "configs").glob("*.yaml"))


def test_examples_and_schemas_are_shipped():
    """`wfkit init` copies the examples out of the installed package; schemas print from it."""
    globs = SETUPTOOLS["package-data"]
    for folder, package in (("examples", "wordforge_cli.examples"),
                            ("wordforge_cli/schemas", "wordforge_cli.schemas")):
        suffixes = {g.removeprefix("*") for g in globs[package]}
        for path in (ROOT / folder).iterdir():
            if path.is_file() and path.name != "__init__.py":
                assert path.suffix in suffixes, f"{folder}/{path.name} would not be installed"


def test_classifiers_say_posix_and_a_system_without_fork_is_refused_in_one_line(tmp_path):
    """The entry point handles SIGHUP and the workers fork: the classifiers say POSIX, and
    where there is no fork wfkit says so in one line, exit 1, before it imports anything."""
    import subprocess
    import sys

    classifiers = PYPROJECT["project"]["classifiers"]
    assert "Operating System :: POSIX" in classifiers
    assert not any("OS Independent" in c for c in classifiers)
    done = subprocess.run([sys.executable, "-c", "import os, runpy; del os.fork; "
                           "runpy.run_module('wordforge_cli', run_name='__main__')"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == "wfkit: error: wfkit runs on POSIX systems only (this one has no fork)\n"
