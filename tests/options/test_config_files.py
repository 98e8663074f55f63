"""Whatever a config file says in any of its parts (top-level keys, the endless plan, the
challenge ramp, the labels, a kanji preset, any key of any section of a pack), the command runs
(exit 1 if no item could be made in its budget) or refuses it with exit 2 and one line naming
the file and line (or the option the file left nothing for): never an internal error, a
traceback or another exit status."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import CONFIGS, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VALUES = st.sampled_from([None, True, False, "x", "", -1, 0, 1, 3, 1.5, 13, 1001, 10**12,
                          "3", "4-5", [], {}, [1], [4, 5], [5, 4], [[3, 3]], [[4, 5], [6, 6]],
                          [[2, 2]], [[3, "x"]], ["none", "tail"], ["bogus"], {"a": 1}, "tail",
                          "none", "all", [None], [3, None], ["greedy", None], "greedy@x"])
CROSSWORD = yaml.safe_load((CONFIGS / "crossword.yaml").read_text(encoding="utf-8"))
KANJI = yaml.safe_load((CONFIGS / "kanji.yaml").read_text(encoding="utf-8"))


def _places(config: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every key path of a config, and one new key beside each."""
    found: list[tuple[str, ...]] = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if isinstance(node, dict):
            found.append((*path, "bogus_key"))
            for key, value in node.items():
                found.append((*path, str(key)))
                walk(value, (*path, str(key)))
        elif isinstance(node, list):
            for i, value in enumerate(node[:3]):
                found.append((*path, str(i)))
                walk(value, (*path, str(i)))

    walk(config, ())
    return found


def _set(config: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    config = copy.deepcopy(config)
    node: Any = config
    for key in path[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(path[-1])] = value
    else:
        node[path[-1]] = value
    return config


def _refused_or_run(result: Any, path: Path) -> None:
    if result.exit_code == 1 and "ran out of" in result.stderr:
        return  # valid values no item can meet within its budget: could not do it
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    if result.exit_code == 2:  # the file's line, or the option the file left nothing for
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith((f"wfkit: error: {path}:",
                                                        "wfkit: error: --")), lines


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(place=st.sampled_from(_places(CROSSWORD)), value=VALUES,
       form=st.sampled_from([["-n", "1"], ["endless", "--count", "1"],
                             ["challenge", "--count", "1"]]))
def test_any_value_anywhere_in_a_crossword_config_is_run_or_refused_in_one_line(
        run: Any, tmp_path: Path, place: tuple[str, ...], value: Any, form: list[str]) -> None:
    path = tmp_path / "crossword.yaml"
    path.write_text(yaml.safe_dump(_set(CROSSWORD, place, value)), encoding="utf-8")
    head = [] if form[0] == "-n" else form[:1]
    result = run("crossword", "--config", path, *head, "--vocab", EXAMPLES / "tech.yaml",
                 *form[-2:], "--seed", "1", "-o", tmp_path / "out")
    _refused_or_run(result, path)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(place=st.sampled_from([p for p in _places(KANJI) if p[-1] not in ("count", "attempts")]),
       value=VALUES, preset=st.sampled_from([[], ["--preset", "easy"]]))
def test_any_value_anywhere_in_a_kanji_config_is_run_or_refused_in_one_line(
        run: Any, tmp_path: Path, place: tuple[str, ...], value: Any,
        preset: list[str]) -> None:
    path = tmp_path / "kanji.yaml"
    path.write_text(yaml.safe_dump(_set(KANJI, place, value)), encoding="utf-8")
    result = run("kanji", "--config", path, *preset, "-n", "1", "--seed", "1", "-q",
                 "-o", tmp_path / "out")
    _refused_or_run(result, path)


# a null here once reached the engine: an internal TypeError, exit 1
@pytest.mark.parametrize("key", ["redraws", "unlock_start", "unlock_every", "fallback",
                                 "bands", "styles"])
def test_a_null_in_the_endless_plan_is_refused_at_its_line(run, tmp_path: Path,
                                                           key: str) -> None:
    path = tmp_path / "crossword.yaml"
    path.write_text(f"endless:\n  {key}: null\n", encoding="utf-8")
    result = run("crossword", "--config", path, "--vocab", EXAMPLES / "tech.yaml", "-n", "1")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"wfkit: error: {path}:2: endless/{key}")


def test_a_null_in_a_list_of_models_is_refused_at_its_line(run, tmp_path: Path) -> None:
    # was an internal AttributeError (the null reached the engine as a player or a seat)
    cfg = tmp_path / "kanji.yaml"
    cfg.write_text("self_play: true\nplayers: [greedy, null]\n", encoding="utf-8")
    result = run("kanji", "--config", cfg, "-n", "1", "--seed", "1", "-q", "-o", tmp_path / "o")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"wfkit: error: {cfg}:2: players: expected"), result.stderr
    pack = tmp_path / "pack.yaml"
    pack.write_text("seed: 1\nsections:\n  - name: a\n    kind: balance\n    count: 2\n"
                    "    players: [all, null]\n", encoding="utf-8")
    result = run("pack", "build", pack, "--out", tmp_path / "p")
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"wfkit: error: {pack}:6: sections[0].players: expected")
    assert not (tmp_path / "p").exists()


PACK = {"name": "any", "seed": 3, "sections": [
    {"name": "boards", "kind": "crossword", "vocab": "tech.yaml", "count": 3, "band": [4, 5],
     "style": "tail", "layout": "loose", "budget": 3000, "max_width": 12, "redraws": 12,
     "styles": "all", "render": ["text", "ipuz"], "render_limit": 2},
    {"name": "run", "kind": "endless", "vocab": "tech.yaml", "count": 3, "layout": "loose"},
    {"name": "sets", "kind": "challenge", "vocab": "tech.yaml", "count": 1,
     "order_by_difficulty": False},
    {"name": "pools", "kind": "kanji", "count": 1, "preset": "easy", "base": 4, "bring": 20,
     "kanji": "25-35", "hidden_examples": 2, "render": ["text"], "render_limit": 1},
    {"name": "words", "kind": "rarity", "vocab": "words.yaml", "cefr": "article-cefr.yaml",
     "lemma": True, "gold_rush": False},
]}  # (no balance section: its word index costs 1-3 s a build; test_parity probes its keys)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(place=st.sampled_from([p for p in _places(PACK) if p[-1] not in ("count", "turns")]),
       value=VALUES)
def test_any_value_anywhere_in_a_pack_config_is_built_or_refused_in_one_line(
        run: Any, tmp_path: Path, place: tuple[str, ...], value: Any) -> None:
    import shutil

    root = tmp_path / "p"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    for name in ("tech.yaml", "words.yaml", "article-cefr.yaml"):
        shutil.copy(EXAMPLES / name, root)
    path = root / "pack.yaml"
    path.write_text(yaml.safe_dump(_set(PACK, place, value), sort_keys=False), encoding="utf-8")
    result = run("pack", "build", path, "--out", root / "out", "--jobs", "1")
    _refused_or_run(result, path)
    if result.exit_code == 2:  # nothing is written until the whole config has been checked
        assert not (root / "out").exists()
