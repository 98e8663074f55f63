"""Every command of the CLI in hostile surroundings.

The commands are listed from the group itself, so a command added later is run too (with
``--help`` until it gets a real workload in ``WORKLOADS``). Three surroundings:

* a non-UTF-8 locale (``LC_ALL=C PYTHONUTF8=0``): stdout is UTF-8 regardless (the same bytes
  as under a UTF-8 locale), stderr escapes what the locale cannot show;
* a full disk (a 64 KiB tmpfs we mount and fill; skipped where mount is not allowed): stdout
  and ``-o`` there fail with one line, exit 1, and leave no temporary file;
* a read-only directory (a tmpfs remounted read-only: as root, chmod would not stop a write):
  ``-o``, ``--stats`` and ``--out`` there fail with one line before any work.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wordforge_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TECH = str(EXAMPLES / "tech.yaml")
WFKIT = [sys.executable, "-m", "wordforge_cli"]

PACK = """name: tiny
seed: 1
sections:
  - name: words
    kind: rarity
    vocab: words.yaml
"""

# command path -> argv after it; {dir} is a directory of inputs made by the fixture
WORKLOADS: dict[str, list[str]] = {
    "rarity": ["labyrinth", "cat", "--json"],
    "score": ["quaff", "--json"],
    "tiles": ["--hand", "QUAFF", "--word", "quaff"],
    "crossword": ["--vocab", TECH, "-n", "3", "--seed", "1"],
    "crossword endless": ["--vocab", TECH, "--count", "2", "--seed", "1"],
    "crossword challenge": ["--vocab", TECH, "--seed", "1"],
    "crossword plan": ["6"],
    "kanji": ["-n", "1", "--seed", "1", "-q"],
    "kanji check": ["熱帯", "--pool", "{dir}/pools.jsonl"],
    "kanji play": ["--pool", "{dir}/pools.jsonl", "--id", "0", "--seed", "1"],
    "balance": ["-n", "2", "--turns", "2", "--seed", "1"],
    "pack build": ["{dir}/pack.yaml", "--out", "{dir}/built"],
    "pack check": ["{dir}/pack.yaml", "--out", "{dir}/pack"],
    "pack merge": ["{dir}/pack.yaml", "{dir}/shard", "--out", "{dir}/merged"],
    "pack preview": ["{dir}/pack"],
    "schema": ["kanji-pool"],
}


def every_command() -> list[str]:
    """Every runnable command path of the group (groups that run on their own included)."""
    ctx = click.Context(cli)
    found: list[str] = []

    def walk(command: click.Command, path: list[str]) -> None:
        subs = getattr(command, "commands", None)
        if subs is None or getattr(command, "invoke_without_command", False):
            found.append(" ".join(path))
        for name, sub in (subs or {}).items():
            walk(sub, [*path, name])

    for name in cli.list_commands(ctx):
        walk(cli.get_command(ctx, name), [name])
    return found


COMMANDS = every_command()


def has_param(path: str, name: str) -> bool:
    command: click.Command = cli
    for part in path.split():
        command = command.get_command(click.Context(command), part)  # type: ignore[attr-defined]
    return any(p.name == name for p in command.params)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    here = tmp_path_factory.mktemp("inputs")
    shutil.copy(EXAMPLES / "words.yaml", here / "words.yaml")
    (here / "pack.yaml").write_text(PACK)
    runner = CliRunner()
    for argv in (["kanji", "-n", "1", "--seed", "1", "-q", "-o", str(here / "pools.jsonl")],
                 ["pack", "build", str(here / "pack.yaml"), "--out", str(here / "pack")],
                 ["pack", "build", str(here / "pack.yaml"), "--out", str(here / "shard"),
                  "--shard", "1/1"]):
        result = runner.invoke(cli, argv)
        assert result.exit_code == 0, (argv, result.stderr)
    return here


def argv_of(path: str, where: Path) -> list[str]:
    work = WORKLOADS.get(path, ["--help"])
    return [*path.split(), *(a.replace("{dir}", str(where)) for a in work)]


def wfkit(argv: list[str], *, env: dict[str, str] | None = None, stdout=subprocess.PIPE,
          cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*WFKIT, *argv], env=env, stdout=stdout, stderr=subprocess.PIPE,
                          cwd=cwd, timeout=120)


def c_locale() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))}
    return {**env, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


def assert_clean(done: subprocess.CompletedProcess, statuses=(0,)) -> str:
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode in statuses, f"exit {done.returncode}: {err[-2000:]}"
    assert "Traceback" not in err and "internal error" not in err, err
    assert "Exception ignored" not in err, err
    return err


def test_every_command_is_covered():
    assert {"rarity", "crossword", "kanji check", "pack build"} <= set(COMMANDS)
    missing = sorted(set(COMMANDS) - set(WORKLOADS))
    if missing:  # still run (with --help), but say which commands lack a real workload
        print(f"commands run with --help only: {missing}")


@pytest.mark.parametrize("path", COMMANDS)
def test_stdout_in_a_non_utf8_locale_is_utf8(path, inputs, tmp_path):
    argv = argv_of(path, inputs)
    if path == "pack build":
        argv = [a.replace(str(inputs / "built"), str(tmp_path / "built")) for a in argv]
    if path == "pack merge":
        argv = [a.replace(str(inputs / "merged"), str(tmp_path / "merged")) for a in argv]
    statuses = (0, 1) if path == "kanji check" else (0,)  # 1: "no, not a legal answer"
    c = wfkit(argv, env=c_locale(), cwd=tmp_path)
    assert_clean(c, statuses)
    c.stdout.decode("utf-8")  # strict: it is UTF-8
    if path in ("pack build", "pack merge"):
        shutil.rmtree(tmp_path / "built", ignore_errors=True)
        shutil.rmtree(tmp_path / "merged", ignore_errors=True)
    utf8 = CliRunner().invoke(cli, argv, prog_name="wfkit")  # the same run, in-process
    assert utf8.exit_code in statuses, utf8.stderr
    if path in WORKLOADS:  # --help wraps to the terminal's width: not compared
        assert c.stdout == utf8.stdout_bytes


def test_a_c_locale_error_is_one_escaped_line(tmp_path):
    done = wfkit(["kanji", "check", "熱帯", "--pool", str(tmp_path / "無い\x1b.jsonl")],
                 env=c_locale())
    err = assert_clean(done, (2,))
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: error: ") and "\\x1b" in lines[0]


@pytest.fixture
def full_disk(tmp_path):
    where = tmp_path / "disk"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("mount not permitted here")
    block = bytes(4096)
    try:
        with open(where / "filler", "wb", buffering=0) as fh:
            while True:
                fh.write(block)
    except OSError:
        pass
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_every_command_on_a_full_disk(full_disk, inputs, tmp_path):
    """stdout on the full disk for every command; -o there too for those that have it."""
    for path in COMMANDS:
        argv = argv_of(path, inputs)
        if path in ("pack build", "pack merge"):
            argv = [a.replace(str(inputs), str(full_disk)) if a.endswith(("built", "merged"))
                    else a for a in argv]
        with open(full_disk / "stdout.txt", "wb") as out:
            done = wfkit(argv, stdout=out, cwd=tmp_path)
        err = assert_clean(done, (1,) if path not in ("pack check",) else (0, 1))
        if done.returncode == 1:
            errors = [line for line in err.splitlines() if line.startswith("wfkit: error")]
            assert len(errors) == 1 and "no space left on device" in errors[0], (path, err)
        if has_param(path, "output") and path in WORKLOADS:  # (--help writes no file)
            target = full_disk / "out.txt"
            result = CliRunner().invoke(cli, [*argv, "-o", str(target)])
            assert isinstance(result.exception, SystemExit | None), (path, result.exception)
            assert result.exit_code == 1, (path, result.stderr)
            assert "no space left on device" in result.stderr, (path, result.stderr)
            assert not target.exists()
        left = [p.name for p in full_disk.iterdir() if p.name.endswith(".tmp")
                or p.name.startswith(".")]
        if path.startswith("pack "):  # the pack's staging and journal are the pack's own
            for name in left:
                subprocess.run(["rm", "-rf", str(full_disk / name)], check=True)
            continue
        assert not left, (path, left)


@pytest.fixture
def read_only_dir(tmp_path):
    where = tmp_path / "ro"
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("mount not permitted here")
    (where / "old.jsonl").write_text("old\n")
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True, capture_output=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_every_command_into_a_read_only_directory(read_only_dir, inputs, tmp_path):
    runner = CliRunner()
    tried = 0
    for path in COMMANDS:
        argv = argv_of(path, inputs)
        options = [o for o in ("output", "stats_path") if has_param(path, o)
                   and path in WORKLOADS]  # (--help writes no file)
        if path in ("pack build", "pack merge"):
            argv = [str(read_only_dir / "pack") if a.endswith(("built", "merged")) else a
                    for a in argv]
            options = ["out"]
        for option in options:
            flag = {"output": "-o", "stats_path": "--stats"}.get(option)
            run_argv = argv if flag is None else [*argv, flag, str(read_only_dir / "old.jsonl")]
            result = runner.invoke(cli, run_argv)
            assert isinstance(result.exception, SystemExit | None), (path, result.exception)
            assert result.exit_code == 1, (path, option, result.stderr)
            lines = result.stderr.splitlines()
            errors = [line for line in lines if line.startswith("wfkit: error")]
            assert len(errors) == 1, (path, result.stderr)
            assert "read-only" in errors[0] or "not writable" in errors[0], errors[0]
            tried += 1
    assert (read_only_dir / "old.jsonl").read_text() == "old\n"
    assert sorted(os.listdir(read_only_dir)) == ["old.jsonl"]
    assert tried >= 8


def test_records_are_json_under_the_c_locale(inputs, tmp_path):
    done = wfkit(["kanji", "-n", "2", "--seed", "3", "-q"], env=c_locale(), cwd=tmp_path)
    assert_clean(done)
    records = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert len(records) == 2 and all(len(r["kanji"][0]) == 1 for r in records)
