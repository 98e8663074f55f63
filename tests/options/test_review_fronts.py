"""Review of today's front-end slimming (one declaration per option, issue 11): the differential
fuzzer compared every command with 29909f7 byte for byte; what it checked that one build can
check on its own is pinned here as properties of the three front ends' *outputs*
(``tests/test_parity.py`` checks that they accept and refuse the same values):

- an option given on the command line, as a top-level key of a ``--config`` file, in a preset
  of that file (``--preset`` or the file's own ``preset:``) gives the same bytes: records,
  ``--stats``, stderr without its timings; the command line wins over the file;
- a pack section's keys given in the section or through the config file it names (a kanji
  preset, a crossword config) give the same section files;
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import yaml
from conftest import CONFIGS, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])
TIMING = re.compile(r"\d[\d,.]*\s?(?:[a-z]+/s|ms|s)\b")


def _cli(options: dict[str, Any]) -> list[str]:
    """Options as command-line words (``True`` is a bare flag)."""
    words: list[str] = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            for item in value:
                words += [flag, str(item)]
        else:
            words += [flag, str(value)]
    return words


def _made(run: Any, tmp_path: Path, *args: object) -> tuple[Any, ...]:
    out, stats = tmp_path / "out", tmp_path / "stats.json"
    out.unlink(missing_ok=True)
    stats.unlink(missing_ok=True)
    result = run(*args, "-o", out, "--stats", stats)
    summary = json.loads(stats.read_text(encoding="utf-8")) if stats.exists() else None
    if summary is not None:  # (where the values came from, a file or a preset, is the front's)
        summary.pop("timing", None)
        for key in ("config", "preset"):
            summary["request"].pop(key, None)
    err = TIMING.sub("T", result.stderr).replace(" (preset custom)", "")
    return (result.exit_code, out.read_bytes() if out.exists() else None, summary, err)


def _yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------ kanji
@st.composite
def kanji_options(draw: st.DrawFn) -> dict[str, Any]:
    """Valid POOLS values a small run meets quickly (the keys are the config's)."""
    pool: dict[str, Any] = {
        "base": st.integers(1, 6), "bring": st.integers(1, 30),
        "kanji": st.integers(10, 40).map(lambda low: f"{low}-{low + 25}"),
        "max_grade": st.integers(5, 9), "base_max_grade": st.integers(3, 9),
        "min_zipf": st.sampled_from([1.5, 2.5, 3.0]), "attempts": st.integers(1, 40),
        "hidden_examples": st.integers(0, 8), "self_play": st.just(True),
        "games": st.integers(1, 3),
    }
    keys = draw(st.lists(st.sampled_from(sorted(pool)), min_size=1, max_size=5, unique=True))
    return {key: draw(pool[key]) for key in keys}


@SETTINGS
@given(options=kanji_options(), count=st.integers(1, 3), seed=st.integers(0, 2**63 - 1))
def test_a_kanji_option_is_the_same_from_the_command_line_a_config_and_a_preset(
        run: Any, tmp_path: Path, options: dict[str, Any], count: int, seed: int) -> None:
    common = ["kanji", "-n", count, "--seed", seed]
    bundled = yaml.safe_load((CONFIGS / "kanji.yaml").read_text(encoding="utf-8"))
    cli = _made(run, tmp_path, *common, *_cli(options))
    top = _yaml(tmp_path / "top.yaml", {**bundled, **options})
    assert _made(run, tmp_path, *common, "--config", top) == cli
    presets = {**bundled, "presets": {**bundled["presets"], "custom": options}}
    preset = _yaml(tmp_path / "preset.yaml", presets)
    assert _made(run, tmp_path, *common, "--config", preset, "--preset", "custom") == cli
    default = _yaml(tmp_path / "default.yaml", {**presets, "preset": "custom"})
    assert _made(run, tmp_path, *common, "--config", default) == cli
    # the command line wins over a config that says otherwise
    wrong = _yaml(tmp_path / "wrong.yaml", {**bundled, **_others(options)})
    assert _made(run, tmp_path, *common, "--config", wrong, *_cli(options)) == cli


def _others(options: dict[str, Any]) -> dict[str, Any]:
    """Other valid values for the same keys (a flag's: off)."""
    def other(key: str, value: Any) -> Any:
        if value is True:
            return False
        if key in ("layout", "style", "styles"):
            return {"layout": "strict", "style": "most", "styles": "head"}[key] \
                if value != {"layout": "strict", "style": "most", "styles": "head"}[key] \
                else {"layout": "loose", "style": "tail", "styles": "alt"}[key]
        if key == "kanji":
            return "5-60"
        if isinstance(value, float):
            return value + 0.5
        return value + 1 if key not in ("max_grade", "base_max_grade") or value < 9 else 8
    return {key: other(key, value) for key, value in options.items()}


# -------------------------------------------------------------------------------- crossword
BOARD_KEYS: dict[str, Any] = {
    "budget": st.sampled_from([1, 40, 3000]), "layout": st.sampled_from(["loose", "strict"]),
    "max_width": st.integers(5, 12), "max_height": st.integers(5, 12),
    "styles": st.sampled_from(["all", "tail", "tail,alt"]), "difficulty": st.just(True),
    "no_redraw": st.just(True), "strict_vocab": st.just(True),
}
BATCH_KEYS: dict[str, Any] = {
    "style": st.sampled_from(["none", "tail", "head", "alt", "most"]),
    "redraws": st.integers(1, 20), "min_len": st.just(3), "max_len": st.integers(3, 6),
}


@st.composite
def crossword_options(draw: st.DrawFn) -> tuple[list[str], dict[str, Any]]:
    form = draw(st.sampled_from(["batch", "batch", "endless", "challenge"]))
    pool = {**BOARD_KEYS, **(BATCH_KEYS if form == "batch" else {})}
    if form == "challenge":
        pool["redraws"] = BATCH_KEYS["redraws"]
    if form == "endless":
        del pool["no_redraw"]
    keys = draw(st.lists(st.sampled_from(sorted(pool)), min_size=1, max_size=6, unique=True))
    options = {key: draw(pool[key]) for key in keys}
    if "max_len" in options:
        options["min_len"] = 3
    head = {"batch": [], "endless": ["endless"], "challenge": ["challenge"]}[form]
    count = {"batch": "120", "endless": "60", "challenge": "4"}[form]
    fold = draw(st.sampled_from([[], ["--keep-small"]]))
    return [*head, "--vocab", str(EXAMPLES / "tech.yaml"), "--count", count, *fold], options


@SETTINGS
@given(form=crossword_options(), seed=st.integers(0, 2**63 - 1))
def test_a_crossword_option_is_the_same_from_the_command_line_and_a_config(
        run: Any, tmp_path: Path, form: tuple[list[str], dict[str, Any]], seed: int) -> None:
    head, options = form
    bundled = yaml.safe_load((CONFIGS / "crossword.yaml").read_text(encoding="utf-8"))
    cli = _made(run, tmp_path, "crossword", *head, "--seed", seed, *_cli(options))
    # a tiny budget may make nothing at all (a challenge set needs all of its boards): the
    # documented could-not-do, which the config must give just the same
    assert cli[0] == 0 or (cli[0] == 1 and "ran out of their budget" in cli[3]), cli[3]
    config = _yaml(tmp_path / "cw.yaml", {**bundled, **options})  # (a group option)
    assert _made(run, tmp_path, "crossword", "--config", config, *head, "--seed", seed) == cli
    wrong = _yaml(tmp_path / "wrong.yaml", {**bundled, **_others(options)})
    assert _made(run, tmp_path, "crossword", "--config", wrong, *head, "--seed", seed,
                 *_cli(options)) == cli


# ------------------------------------------------------------------------------------- pack
def _section_files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != "manifest.json"}


def _build(run: Any, root: Path, name: str, sections: list[dict[str, Any]]) -> dict[str, bytes]:
    config = _yaml(root / f"{name}.yaml", {"name": "fronts", "seed": 11, "sections": sections})
    out = root / name
    result = run("pack", "build", config, "--out", out, "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    return _section_files(out)


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(kanji=kanji_options(), board=st.fixed_dictionaries(
    {}, optional={key: BOARD_KEYS[key] for key in ("budget", "layout", "max_width", "styles")}
    | {"style": BATCH_KEYS["style"], "redraws": BATCH_KEYS["redraws"]}))
def test_a_section_key_is_the_same_in_the_section_and_in_the_config_it_names(
        run: Any, tmp_path: Path, kanji: dict[str, Any], board: dict[str, Any]) -> None:
    root = tmp_path / "p"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    shutil.copy(EXAMPLES / "tech.yaml", root)
    kanji.pop("self_play", None)  # (a pack section plays with its own 'players' list)
    kanji.pop("games", None)
    crossword = {"name": "boards", "kind": "crossword", "vocab": "tech.yaml", "count": 40,
                 "render": ["text", "ipuz"], "render_limit": 3}
    pools = {"name": "pools", "kind": "kanji", "count": 2, "render": ["text"],
             "render_limit": 1}
    direct = _build(run, root, "direct", [{**crossword, **board}, {**pools, **kanji}])
    bundled_kanji = yaml.safe_load((CONFIGS / "kanji.yaml").read_text(encoding="utf-8"))
    bundled_kanji["presets"]["custom"] = kanji
    _yaml(root / "k.yaml", bundled_kanji)
    bundled_cw = yaml.safe_load((CONFIGS / "crossword.yaml").read_text(encoding="utf-8"))
    _yaml(root / "c.yaml", {**bundled_cw, **board})
    named = _build(run, root, "named", [{**crossword, "config": "c.yaml"},
                                        {**pools, "config": "k.yaml", "preset": "custom"}])
    assert named == direct
