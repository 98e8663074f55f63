"""The release a stranger installs: build the sdist and the wheel, `twine check` them, install
the wheel in a fresh virtual environment, then in `wfkit init demo && cd demo` run the README's
tour and every example of every command's --help exactly as written, and the example CI
workflow's commands as a script.

One build, one venv for the whole module. It costs about two minutes on this project's
2-core machine (building ~15 s, installing the wheel and its dependencies from the local
mirrors ~20 s, the tour and the ~40 help examples ~60 s, the workflow's pack builds ~30 s).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml

from wordforge_cli import __version__
from wordforge_cli.cli import cli
from wordforge_cli.docs import command_paths

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".ruff_cache",
        ".hypothesis"}
SKIP_TOP = {"pack", "bench"}  # a built pack, the benchmarks: not part of a release


def sh(command: str, cwd: Path, env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


def must(result: subprocess.CompletedProcess, what: str) -> subprocess.CompletedProcess:
    assert result.returncode == 0, (
        f"{what}: exit {result.returncode}\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return result


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    """(dist dir, the venv's bin dir, a clean environment) after building and installing."""
    work = tmp_path_factory.mktemp("release")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=lambda folder, names: [
        n for n in names if n in SKIP or n.endswith(".egg-info")
        or (Path(folder) == ROOT and n in SKIP_TOP)])
    dist = work / "dist"
    must(subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                        capture_output=True, text=True, timeout=600), "python -m build")
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / "bin"
    wheel = next(dist.glob("wfkit-*.whl"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env.pop("WFKIT_DEBUG", None)
    must(sh(f"pip install -q {wheel}", work, env, timeout=600), "pip install the wheel")
    return dist, bin_dir, env, work


def test_sdist_and_wheel_pass_twine_check(release):
    dist, _bin, _env, _work = release
    files = sorted(p.name for p in dist.iterdir())
    assert files == [f"wfkit-{__version__}-py3-none-any.whl", f"wfkit-{__version__}.tar.gz"]
    result = must(subprocess.run([sys.executable, "-m", "twine", "check", "--strict",
                                  *map(str, dist.iterdir())], capture_output=True, text=True),
                  "twine check")
    assert result.stdout.count("PASSED") == 2, result.stdout


def test_the_wheel_carries_the_package_data(release):
    import zipfile

    dist, _bin, _env, _work = release
    names = set(zipfile.ZipFile(next(dist.glob("*.whl"))).namelist())
    for wanted in ("wordforge_cli/data/english.tsv", "wordforge_cli/configs/pack.yaml",
                   "wordforge_cli/examples/tech.yaml", "wordforge_cli/examples/ci-pack-check.yml",
                   "wordforge_cli/schemas/pack-manifest.json",
                   "wordforge_cli/py.typed"):  # the package's types reach pack builders
        assert wanted in names, wanted
    licences = {n.rsplit("/", 1)[-1] for n in names if "/licenses/" in n}
    assert {"LICENSE", "english.md", "jukugo.md"} <= licences, licences


def tour() -> list[str]:
    """The commands of the README's "A quick tour" block, as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A quick tour", 1)[1].split("```sh\n", 1)[1].split("\n```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def help_examples(bin_dir: Path, env: dict, cwd: Path) -> list[tuple[str, str]]:
    """(command, example) of every command's --help, read from the installed wfkit."""
    found = []
    for path in [(), *command_paths(cli)]:
        text = must(sh(" ".join(["wfkit", *path, "--help"]), cwd, env), "help").stdout
        block = re.search(r"\n  Examples?[^:\n]*:\n((?:    .*\n)+)", text)
        assert block, f"wfkit {' '.join(path)} --help has no examples"
        found += [(" ".join(path), line.strip()) for line in block.group(1).splitlines()]
    return found


@pytest.fixture(scope="module")
def demo(release):
    _dist, bin_dir, env, work = release
    must(sh("wfkit init demo", work, env), "wfkit init demo")
    return work / "demo"


def test_in_a_fresh_project_the_tour_and_every_help_example_run_as_written(release, demo):
    _dist, bin_dir, env, work = release
    commands = tour()
    assert len(commands) >= 8 and all(c.startswith("wfkit ") for c in commands), commands
    examples = help_examples(bin_dir, env, work)
    assert len(examples) >= 30
    failures = []
    for where, command in [("README tour", c) for c in commands] + examples:
        result = sh(command, demo, env)
        if result.returncode != 0 or "Traceback" in result.stderr:
            failures.append(f"[{where}] {command}\n    exit {result.returncode}: "
                            f"{result.stderr.strip()[-400:]}")
    assert not failures, (
        "run as written in `wfkit init demo && cd demo` (the README tour first, then each "
        "command's --help examples in reference order; an example may only name files that "
        "`wfkit init --list` writes or that an earlier example makes, e.g. "
        "--config configs/rarity.yaml, not my-rarity.yaml):\n" + "\n".join(failures))


def test_the_example_workflow_runs_as_a_script(release, demo):
    """Every `run:` of the workflow init wrote, job by job (the matrix expanded), in the
    project: the pack is built and committed first, as its user does."""
    _dist, _bin, env, _work = release
    workflow = yaml.safe_load((demo / ".github/workflows/wfkit-pack.yml").read_text("utf-8"))
    step_env = {**env, **{k: str(v) for k, v in workflow["env"].items()}}
    assert step_env["WFKIT"].startswith("wheels/wfkit-") and (demo / step_env["WFKIT"]).is_file()
    must(sh("wfkit pack build examples/pack.yaml --out pack/", demo, env), "build the pack")
    script = []
    for job in workflow["jobs"].values():
        shards = job.get("strategy", {}).get("matrix", {}).get("shard", [None])
        for shard in shards:
            for step in job["steps"]:
                if "run" in step:
                    script.append(step["run"].replace("${{ matrix.shard }}", str(shard)))
    assert any("pip install" in line for line in script)
    assert any("pack merge" in line for line in script)
    for line in script:
        must(sh(line, demo, step_env, timeout=600), f"workflow step: {line}")
