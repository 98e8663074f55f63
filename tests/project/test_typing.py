"""The package is typed: ``mypy --strict`` (config in pyproject.toml) reports no error over
every module of wordforge_cli/, so pack builders calling the public API get real types
(``py.typed`` ships in the wheel), and a new module or a change starts and stays clean.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_strict_reports_no_error_over_the_whole_package() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    checked = re.search(r"^Success: no issues found in (\d+) source files?$", done.stdout, re.M)
    assert checked, done.stdout + done.stderr
    modules = list((ROOT / "wordforge_cli").rglob("*.py"))
    assert int(checked.group(1)) == len(modules), "mypy did not check every module"


def test_every_type_ignore_names_its_error_and_why() -> None:
    """An ignore is for what a library forces: it names the error code and says why (on its
    line or in the comment line above), so a blanket ``# type: ignore`` never hides a bug."""
    bare = []
    for path in sorted((ROOT / "wordforge_cli").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            if "type: ignore" not in line:
                continue
            coded = re.search(r"# type: ignore\[[a-z-]+(, [a-z-]+)*\](.*)$", line)
            above = lines[number - 2].strip() if number > 1 else ""
            reason = coded is not None and (re.match(r"\s+#\s*\S", coded.group(2))
                                            or above.startswith("#"))
            if not reason:
                bare.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not bare, "\n".join(bare)


def test_the_config_is_strict_over_the_whole_package() -> None:
    import tomllib

    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True and mypy["files"] == ["wordforge_cli"]
    for override in mypy.get("overrides", []):  # only third-party modules without types
        modules = override["module"] if isinstance(override["module"], list) else [
            override["module"]]
        assert not any(m.startswith("wordforge_cli") for m in modules), override
        assert set(override) == {"module", "ignore_missing_imports"}, override


def test_the_wheel_says_the_package_is_typed() -> None:
    import tomllib

    assert (ROOT / "wordforge_cli" / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["wordforge_cli"]
    assert config["tool"]["mypy"]["strict"] is True
