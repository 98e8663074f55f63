"""Instructions executed by the user's whole commands at a row of commits, step by step.

Each commit is installed (not editable, bytecode compiled) in a virtual environment of its own
under ``--venvs``, and the commands of ``bench_ab.py`` run under valgrind's cachegrind with
``PYTHONHASHSEED=0`` (``--repeat`` times, the median kept: the workers of a default ``--jobs``
run vary by about 1%). Each step gives the ratio previous / this (under 1: this commit executes
more) and whether it wrote the same bytes as the previous one, so a change's own cost can be
told from the cost of other changes merged between two points that are far apart.

    python bench/instructions_by_commit.py 91b1b40 3628e5a 6cc9b45 ae8dbff 0967c75
    python bench/instructions_by_commit.py A B --only crossword-ipuz --boards 5000 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_ab import ROOT, commands, instructions, written

DEFAULT = ("crossword-json", "crossword-json-jobs1", "crossword-ipuz", "pack-build")


def install(commit: str, venvs: Path) -> str:
    """The ``wfkit`` of ``commit``, installed once in ``venvs/COMMIT``."""
    venv = venvs / commit
    exe = venv / "bin" / "wfkit"
    if exe.exists():
        return str(exe)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(src),
                        commit], check=True)
        try:
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(src)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(src)],
                           check=True)
    return str(exe)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commits", nargs="+", help="commits, oldest first")
    parser.add_argument("--only", action="append", default=[], help="a command's name")
    parser.add_argument("--boards", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--venvs", type=Path, default=Path(tempfile.gettempdir()) / "wfkit-venvs")
    args = parser.parse_args()
    os.environ["PYTHONHASHSEED"] = "0"
    args.venvs.mkdir(parents=True, exist_ok=True)
    exes = {c: install(c, args.venvs) for c in args.commits}
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        table = commands(tmp, args.boards)
        for key in args.only or DEFAULT:
            argv = table[key]
            print(f"{key} ({args.boards} boards; instructions, median of {args.repeat})")
            before: tuple[int, dict[str, bytes]] | None = None
            first = 0
            for commit, exe in exes.items():
                out = tmp / commit / key
                counts = []
                for _ in range(args.repeat):
                    out.mkdir(parents=True, exist_ok=True)
                    counts.append(instructions([exe, *(a.replace("{out}", str(out))
                                                       for a in argv)]))
                n = int(statistics.median(counts))
                files = written(out)
                line = f"  {commit:<12} {n:>15,}"
                if before is None:
                    first = n
                else:
                    same = "same bytes" if files == before[1] else "OTHER BYTES"
                    line += (f"  step {before[0] / n:.3f}  from the first {first / n:.3f}"
                             f"  {same}")
                print(line, flush=True)
                before = (n, files)


if __name__ == "__main__":
    main()
