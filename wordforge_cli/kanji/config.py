"""The difficulty config (``configs/kanji.yaml``): option defaults and presets.

Shared by ``wfkit kanji`` and the pack builder's kanji sections; every value is checked with its
file and line, unknown keys and presets get a did-you-mean.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

INT_KEYS = ("count", "base", "bring", "max_grade", "base_max_grade", "attempts",
            "hidden_examples")
OPTION_KEYS = (*INT_KEYS, "kanji", "min_zipf")
CONFIG_KEYS = (*OPTION_KEYS, "preset", "presets")
PRESET_KEYS = tuple(k for k in OPTION_KEYS if k != "count") + ("count",)
RANGE_RE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


def _check_values(doc: Any, values: dict, *keys: str) -> None:
    from wordforge_cli.config import type_name

    for key, value in values.items():
        if key in INT_KEYS and (not isinstance(value, int) or isinstance(value, bool)):
            raise doc.error(f"'{key}' must be a whole number, not {type_name(value)}",
                            *keys, key)
        if key == "min_zipf" and value is not None and (
                not isinstance(value, int | float) or isinstance(value, bool)):
            raise doc.error(f"'min_zipf' must be a number or null, not {type_name(value)}",
                            *keys, key)
        if key == "kanji" and value is not None:
            if isinstance(value, int) and not isinstance(value, bool):
                values[key] = str(value)
            elif not isinstance(value, str) or not RANGE_RE.match(value):
                raise doc.error(f"'kanji' must be a range like \"30-50\" or null, not "
                                f"{value!r}", *keys, key)


def load_config(path: str | Path) -> dict:
    """A kanji config as {options, presets, preset}; unknown keys caught with file:line."""
    from wordforge_cli.config import check_mapping, load_mapping, type_name

    doc, data = load_mapping(path, CONFIG_KEYS)
    options = {k: v for k, v in data.items() if k in OPTION_KEYS}
    _check_values(doc, options)
    presets = data.get("presets") or {}
    check_mapping(doc, presets, list(presets), "presets")
    for name, values in presets.items():
        if values is None:
            values = presets[name] = {}
        check_mapping(doc, values, PRESET_KEYS, "presets", str(name))
        _check_values(doc, values, "presets", str(name))
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise doc.error(f"'preset' must be a preset name, not {type_name(preset)}", "preset")
    if preset is not None and preset not in presets:
        from wordforge_cli.config import did_you_mean

        raise doc.error(f"unknown preset '{preset}'{did_you_mean(preset, presets)}", "preset")
    return {"path": str(path), "options": options, "presets": presets, "preset": preset}


def parse_range(text: str | None) -> tuple[int, int] | None:
    from wordforge_cli.errors import UsageError

    if text is None or str(text).strip().lower() in ("", "any", "none", "null"):
        return None
    match = RANGE_RE.match(str(text))
    if not match:
        raise UsageError(f"--kanji {text}: expected LOW-HIGH (e.g. 30-50) or one number")
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) is not None else lo
    if lo > hi:
        raise UsageError(f"--kanji {text}: the low end is above the high end")
    return lo, hi
