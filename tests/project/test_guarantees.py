"""docs/guarantees.md names, for each promise, the test that holds it: every test it names
exists, and every test of the hostile-file suites is named there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "guarantees.md").read_text(encoding="utf-8")
# (the file's path under tests/, the test): tests/AREA/test_x.py
NAMED = set(re.findall(r"`tests/(\w+/test_\w+\.py)::(test_\w+)`", PAGE))
SUITES = ("pack/test_hostile_paths.py", "io/test_hostile_values.py", "io/test_hostile_bounds.py",
          "io/test_hostile_text.py", "io/test_hostile_runs.py", "io/test_hostile_fuzz.py",
          "core/test_text_escape.py", "render/test_render_shows_controls.py",
          "commands/test_controls_in_every_output.py", "io/test_special_files.py",
          "io/test_output_onto_input.py", "io/test_vocabulary_memory.py",
          "pack/test_out_link.py", "kanji/test_whole_dictionary_pool.py",
          "wordforge/test_tile_counts_bounded.py", "io/test_yaml_events.py",
          "io/test_text_lines.py", "kanji/test_dict_messages.py",
          "pack/test_preview_oversized_items.py", "io/test_config_size.py")


def defined_tests(name: str) -> set[str]:
    tree = ast.parse((ROOT / "tests" / name).read_text(encoding="utf-8"))
    return {node.name for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def test_every_test_the_page_names_exists():
    missing = sorted(f"{f}::{t}" for f, t in NAMED if t not in defined_tests(f))
    assert not missing and NAMED


def test_every_hostile_test_holds_a_promise_on_the_page():
    unnamed = sorted(f"{f}::{t}" for f in SUITES for t in defined_tests(f) if (f, t) not in NAMED)
    assert not unnamed, unnamed
