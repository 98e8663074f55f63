"""Checks shared by every YAML config and vocabulary: known keys (with did-you-mean) and types."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wordforge_cli.core.errors import ConfigError
from wordforge_cli.io.yamlio import YamlDoc


def bundled_config(name: str) -> Path:
    """Path of a bundled default config (``configs/NAME.yaml``), installed or in a checkout."""
    from wordforge_cli.io.paths import resource_dir

    return resource_dir("configs") / f"{name}.yaml"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def check_mapping(doc: YamlDoc, value: Any, known: Iterable[str], *keys: str | int,
                  what: str = "key") -> dict[Any, Any]:
    """``value`` must be a mapping whose keys are all in ``known``; returns it."""
    if not isinstance(value, dict):
        where = "/".join(str(k) for k in keys) or "the file"
        raise doc.error(f"{where} must be a mapping, not {type_name(value)}", *keys)
    known = list(known)
    for key in value:
        if str(key) not in known:
            raise ConfigError(
                f"unknown {what} '{key}'{did_you_mean(str(key), known)}",
                path=doc.path,
                line=doc.key_line(*keys, str(key)),
            )
    return value


def type_name(value: Any) -> str:
    if value is None:
        return "empty"
    return {
        bool: "a boolean", int: "a number", float: "a number", str: "a string",
        list: "a list", dict: "a mapping",
    }.get(type(value), type(value).__name__)

