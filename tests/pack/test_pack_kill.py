"""A build killed at any moment leaves the previous complete pack or the new complete pack.

Builds (the dice kind, worker processes) are killed with SIGKILL (the whole process group, as
a cancelled CI job is) at random moments, many times in a row, alternating two configs; after
each kill the directory must hold exactly the files of one of the two complete packs, every
one matching its manifest's sha256, and a file of the user's must still be there. Exact kill
points (just before and after the swap, half-way through clearing the old tree, between the
fallback's two renames) are hit too: the child is ``python -c`` that sets ``store.step_hook``
(and ``store.exchange_supported``) and calls wfkit's main, so production reads no test
environment variable.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_pack import tree, verify

FAKE = Path(__file__).with_name("test_pack_fake.py")
CONFIG = """\
seed: {seed}
sections:
  - name: a
    kind: dice
    count: 20000
    render: [text, svg]
    render_limit: 30
  - name: b
    kind: dice
    count: {count}
"""
ROUNDS = int(os.environ.get("WFKIT_KILL_ROUNDS", "30"))

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


CHILD = f"""
import os, signal, sys
sys.path.insert(0, {str(FAKE.parent)!r})
import test_pack_fake
from wordforge_cli.pack import store
point, exchange = sys.argv[1], sys.argv[2] == "exchange"
if point:
    store.step_hook = lambda at: os.kill(os.getpid(), signal.SIGKILL) if at == point else None
store.exchange_supported = exchange
from wordforge_cli.cli import main
main(sys.argv[3:])
"""


def build(config: Path, out: Path, *, kill_at: str = "", fallback: bool = False,
          jobs: int = 2) -> subprocess.Popen:
    """``wfkit pack build`` in its own process group, killed at ``kill_at`` if given."""
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, kill_at, "fallback" if fallback else "exchange",
         "pack", "build", str(config), "--out", str(out), "--jobs", str(jobs)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may have finished already
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def finish(proc: subprocess.Popen) -> None:
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """Two complete packs (seeds 1 and 2; the second has a section of another size)."""
    root = tmp_path_factory.mktemp("refs")
    configs, refs = {}, {}
    for seed, count in ((1, 500), (2, 700)):
        configs[seed] = CONFIG.format(seed=seed, count=count)
        config = root / "pack.yaml"
        config.write_text(configs[seed])
        started = time.perf_counter()
        finish(build(config, root / f"ref{seed}"))
        refs[seed] = tree(root / f"ref{seed}")
    return configs, refs, time.perf_counter() - started


@pytest.fixture
def packs(tmp_path, references):
    return (tmp_path / "pack.yaml", *references)


def assert_one_complete_pack(out: Path, refs: dict, allowed: set[int]) -> int:
    # .wfkit-staging: the marker of a build killed in the instant after its swap (the next
    # build removes it)
    files = {k: v for k, v in tree(out).items() if k not in ("notes.txt", ".wfkit-staging")} \
        if out.exists() else {}
    matches = [seed for seed, ref in refs.items() if files == ref and seed in allowed]
    assert matches, f"{out} holds neither complete pack {sorted(allowed)}: {sorted(files)[:8]}"
    verify(out)
    assert (out / "notes.txt").read_text() == "mine"
    return matches[0]


def test_sigkill_at_random_moments_many_times_in_a_row(tmp_path, packs):
    config, configs, refs, duration = packs
    out = tmp_path / "out"
    config.write_text(configs[1])
    finish(build(config, out))
    (out / "notes.txt").write_text("mine")
    rng = random.Random(20261130)
    current, outcomes = 1, []
    for _ in range(ROUNDS):
        target = 2 if current == 1 else 1
        config.write_text(configs[target])
        proc = build(config, out)
        time.sleep(rng.uniform(0, duration * 1.5))
        kill(proc)
        found = assert_one_complete_pack(out, refs, {current, target})
        outcomes.append(found == target)
        current = found
    # a build that is allowed to finish tidies whatever the kills left beside the pack
    config.write_text(configs[1])
    finish(build(config, out))
    assert assert_one_complete_pack(out, refs, {1}) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "pack.yaml"]
    print(f"{ROUNDS} kills: {sum(outcomes)} left the new pack, "
          f"{len(outcomes) - sum(outcomes)} the previous one")


@pytest.mark.parametrize(("point", "fallback"), [
    ("before-exchange", False), ("after-exchange", False), ("clearing-old-tree", False),
    ("between-renames", True), ("after-exchange", True),
])
def test_sigkill_at_each_step_of_the_swap(tmp_path, packs, point, fallback):
    config, configs, refs, _ = packs
    out = tmp_path / "out"
    config.write_text(configs[1])
    finish(build(config, out))
    (out / "notes.txt").write_text("mine")
    config.write_text(configs[2])
    proc = build(config, out, kill_at=point, fallback=fallback)
    proc.wait(timeout=120)
    assert proc.returncode == -signal.SIGKILL
    if point == "between-renames":  # the one moment without --out; the next run repairs it
        assert not out.exists()
        finish(build(config, out, fallback=True))
        assert assert_one_complete_pack(out, refs, {2}) == 2
    else:
        expected = 1 if point == "before-exchange" else 2
        assert assert_one_complete_pack(out, refs, {1, 2}) == expected
    config.write_text(configs[1])
    finish(build(config, out))
    assert assert_one_complete_pack(out, refs, {1}) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "pack.yaml"]
