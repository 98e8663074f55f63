"""Every documented command runs as written: the ``sh`` blocks of the README and of the pages
under docs/, in order, in a fresh ``wfkit init`` project (one project a page, as a reader who
opens that page starts).

A line whose comment says ``exit 1`` or ``exit 2`` must end with exactly that status, every
other line with 0, and no line may print a traceback. The lines of a page run in one shell, so
``cd`` carries over as it does for a reader. ``console`` blocks (installs, a shell's start-up
file) are not run here, so they may hold only such commands, never a wfkit example.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
EXIT = re.compile(r"\bexit (\d+)\b")
COMMENT = re.compile(r"\s#\s.*$|^#.*$")
# what a console block may run: set-up steps, never an example of wfkit itself
CONSOLE_PROGRAMS = {"pip", "pipx", "python", "python3", "git", "eval", "cd", ".", ".ci/run",
                    "ruff", "lint-imports", "mypy", "mkdocs"}


def blocks(page: Path, lang: str) -> list[str]:
    return [body for fence, body in FENCE.findall(page.read_text(encoding="utf-8"))
            if fence == lang]


def commands(page: Path) -> list[tuple[str, int]]:
    """(command, expected exit status) of every line of the page's sh blocks, in order; a
    line ending in a backslash continues on the next."""
    found = []
    for body in blocks(page, "sh"):
        joined = re.sub(r"\\\n\s*", " ", body)
        for line in joined.splitlines():
            comment = re.search(r"\s#\s(.*)$", line)
            command = COMMENT.sub("", line).strip()
            if not command:
                continue
            status = EXIT.search(comment.group(1)) if comment else None
            found.append((command, int(status.group(1)) if status else 0))
    return found


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


RUN_PAGES = [p for p in PAGES if commands(p)]


def test_the_pages_have_examples():
    names = {page_id(p) for p in RUN_PAGES}
    assert {"README.md", "docs/getting-started.md", "docs/guide/words.md",
            "docs/guide/crossword.md", "docs/guide/kanji.md", "docs/guide/packs.md"} <= names
    readme = commands(ROOT / "README.md")
    assert any(status == 2 for _c, status in readme) and any(s == 0 for _c, s in readme)


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_console_blocks_hold_only_set_up_steps(page):
    for body in blocks(page, "console"):
        for line in body.splitlines():
            command = COMMENT.sub("", line).strip()
            if not command:
                continue
            first = shlex.split(command)[0]
            assert first in CONSOLE_PROGRAMS or first.startswith("_WFKIT_COMPLETE="), (
                f"{page_id(page)}: a console block is not run by the tests, so it may hold "
                f"only set-up steps: put {command!r} in an sh block")


@pytest.mark.parametrize("page", RUN_PAGES, ids=page_id)
def test_every_sh_line_runs_as_written_in_a_fresh_project(page, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("WFKIT_DEBUG", "PYTHONPATH")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    init = subprocess.run(["wfkit", "init", "project"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert init.returncode == 0, init.stderr
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "stdin").write_bytes(b"")
    lines = commands(page)
    script = ["cd project"]
    for i, (command, _status) in enumerate(lines):
        script.append(f"{{ {command}\n}} >{logs}/{i}.out 2>{logs}/{i}.err <{logs}/stdin; "
                      f"echo $? >{logs}/{i}.rc")
    subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=env, timeout=900,
                   check=False)
    failures = []
    for i, (command, status) in enumerate(lines):
        rc_file = logs / f"{i}.rc"
        got = int(rc_file.read_text()) if rc_file.exists() else None
        err = (logs / f"{i}.err").read_text(encoding="utf-8", errors="replace") \
            if (logs / f"{i}.err").exists() else ""
        if got != status or "Traceback" in err:
            failures.append(f"{command}\n    expected exit {status}, got {got}: "
                            f"{err.strip()[-300:]}")
    assert not failures, (
        f"{page_id(page)}: documented commands that do not run as written in a fresh "
        "`wfkit init` project (say `# exit N` in the line's comment when it must fail):\n"
        + "\n".join(failures))
