"""Review of today's pack build path (runner, workers, manifest and hashing): a pack of random
sections of the real kinds (crossword, endless, challenge, kanji, rarity; renders) is the same
bytes built with ``--jobs 1`` or ``--jobs 2`` and as N shards merged (given in any order), and
``pack check`` passes on the merged one. The fuzzer compared such packs with 29909f7; here one
build is held to its own promise.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pack import tree

BOARDS = {"layout": st.sampled_from(["loose", "strict"]), "budget": st.sampled_from([2, 3000]),
          "max_width": st.integers(6, 12), "difficulty": st.just(True)}
KINDS: dict[str, Any] = {
    "crossword": st.fixed_dictionaries(
        {"vocab": st.sampled_from(["tech.yaml", "animals-en.yaml"]),
         "count": st.integers(0, 90)},
        optional={**BOARDS, "style": st.sampled_from(["none", "tail", "most"]),
                  "render": st.lists(st.sampled_from(["text", "svg", "ipuz", "sheet"]),
                                     min_size=1, max_size=2, unique=True),
                  "render_limit": st.integers(0, 4)}),
    "endless": st.fixed_dictionaries({"vocab": st.just("tech.yaml"),
                                      "count": st.integers(1, 40)}, optional=BOARDS),
    "challenge": st.fixed_dictionaries({"vocab": st.just("animals-en.yaml"),
                                        "count": st.integers(1, 3)}, optional=BOARDS),
    "kanji": st.fixed_dictionaries(
        {"count": st.integers(1, 12)},
        optional={"preset": st.sampled_from(["easy", "normal", "hard"]),
                  "hidden_examples": st.integers(0, 3),
                  "render": st.just(["text", "svg"]), "render_limit": st.integers(1, 2)}),
    "rarity": st.fixed_dictionaries(
        {"vocab": st.just("words.yaml")},
        optional={"cefr": st.just("article-cefr.yaml"), "gold_rush": st.just(True),
                  "lemma": st.booleans()}),
}  # (balance: its word index costs 3 s of CPU a build; test_pack_engines covers its shards)


class _Plain(yaml.SafeDumper):
    """Two sections drawn with one shared list must not come out as a YAML alias (`&id001`):
    wfkit refuses aliases in its configs on purpose, so the test would fail on its own YAML."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@st.composite
def packs(draw: st.DrawFn) -> dict[str, Any]:
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=2, max_size=4))
    sections = [{"name": f"s{i}-{kind}", "kind": kind, **draw(KINDS[kind])}
                for i, kind in enumerate(kinds)]
    return {"name": "review", "seed": draw(st.integers(0, 2**63 - 1)), "sections": sections}


@settings(max_examples=3, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pack=packs(), n=st.integers(2, 3))
def test_a_pack_of_every_kind_is_the_same_for_jobs_and_shards(run: Any, tmp_path: Path,
                                                             pack: dict[str, Any],
                                                             n: int) -> None:
    root = tmp_path / "p"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    for name in ("tech.yaml", "animals-en.yaml", "words.yaml", "article-cefr.yaml"):
        shutil.copy(EXAMPLES / name, root)
    config = root / "pack.yaml"
    config.write_text(yaml.dump(pack, Dumper=_Plain, sort_keys=False), encoding="utf-8")

    def wfkit(*args: object) -> None:
        result = run("pack", *args)
        assert result.exit_code == 0, result.stderr

    wfkit("build", config, "--out", root / "one", "--jobs", "1")
    one = tree(root / "one")
    assert "manifest.json" in one
    wfkit("build", config, "--out", root / "two", "--jobs", "2")
    assert tree(root / "two") == one
    shards = [root / f"shard{i}" for i in range(1, n + 1)]
    for i, shard in enumerate(shards, 1):
        wfkit("build", config, "--out", shard, "--shard", f"{i}/{n}", "--jobs", "1")
    wfkit("merge", config, *reversed(shards), "--out", root / "merged")
    assert tree(root / "merged") == one
    wfkit("check", config, "--out", root / "merged", "--jobs", "2")
