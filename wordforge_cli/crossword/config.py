"""The difficulty config (``configs/crossword.yaml``): option defaults, endless plan, challenge.

Every value is checked with its file and line; unknown keys get a did-you-mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from wordforge_cli.config import check_mapping, load_mapping, type_name
from wordforge_cli.crossword.blanks import STYLES
from wordforge_cli.crossword.board import LAYOUTS
from wordforge_cli.crossword.sets import DEFAULT_RAMP, EndlessConfig, Step
from wordforge_cli.yamlio import YamlDoc

TOP_KEYS = ("budget", "min_len", "max_len", "style", "layout", "styles", "fold_small",
            "endless", "challenge")
ENDLESS_KEYS = ("bands", "styles", "unlock_start", "unlock_every", "redraws", "fallback")
CHALLENGE_KEYS = ("ramp",)
STEP_KEYS = ("band", "style")
OPTION_KEYS = ("budget", "min_len", "max_len", "style", "layout", "styles", "fold_small")


@dataclass
class CrosswordConfig:
    """A loaded config: ``options`` are the batch command's option defaults."""

    path: str
    options: dict = field(default_factory=dict)
    endless: EndlessConfig = field(default_factory=EndlessConfig)
    ramp: tuple[Step, ...] = DEFAULT_RAMP


MAX_BUDGET = 10**6  # attempts; at ~10-100 us each a run out budget still answers in seconds
MAX_REDRAWS = 1000


def _int(doc: YamlDoc, value, *keys, low: int = 1, high: int | None = None) -> int:
    if (not isinstance(value, int) or isinstance(value, bool) or value < low
            or (high is not None and value > high)):
        bound = f"between {low} and {high}" if high is not None else f">= {low}"
        raise doc.error(f"{'/'.join(map(str, keys))} must be a whole number {bound}, "
                        f"not {value!r}", *keys)
    return value


def _style(doc: YamlDoc, value, *keys) -> str:
    if value not in STYLES:
        raise doc.error(f"unknown style {value!r} (one of {', '.join(STYLES)})", *keys)
    return value


def _band(doc: YamlDoc, value, *keys) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise doc.error(f"a band is [min, max] letters, not {type_name(value)} {value!r}", *keys)
    lo, hi = value
    if lo < 2 or lo > hi:
        raise doc.error(f"band {value} needs 2 <= min <= max", *keys)
    return lo, hi


def load_config(path: str | Path) -> CrosswordConfig:
    """Read and check a crossword config."""
    doc, data = load_mapping(path, TOP_KEYS)
    options: dict = {}
    for key in ("budget", "min_len", "max_len"):
        if key in data:
            options[key] = (_int(doc, data[key], key, high=MAX_BUDGET) if key == "budget"
                            else _int(doc, data[key], key, low=2))
    if "style" in data:
        options["style"] = _style(doc, data["style"], "style")
    if "layout" in data:
        if data["layout"] not in LAYOUTS:
            raise doc.error(f"unknown layout {data['layout']!r} (loose or strict)", "layout")
        options["layout"] = data["layout"]
    if "styles" in data:
        value = data["styles"]
        if value != "all":
            if not isinstance(value, list) or not value:
                raise doc.error("styles must be 'all' or a list of styles", "styles")
            value = ",".join(_style(doc, s, "styles", i) for i, s in enumerate(value))
        options["styles"] = value
    if "fold_small" in data:
        if not isinstance(data["fold_small"], bool):
            raise doc.error("fold_small must be true or false", "fold_small")
        options["fold_small"] = data["fold_small"]
    if options.get("min_len", 0) > options.get("max_len", 99):
        raise doc.error("min_len is greater than max_len", "min_len")
    endless = EndlessConfig()
    if "endless" in data:
        e = check_mapping(doc, data["endless"], ENDLESS_KEYS, "endless")
        kw: dict = {}
        if "bands" in e:
            if not isinstance(e["bands"], list) or not e["bands"]:
                raise doc.error("endless/bands must be a non-empty list", "endless", "bands")
            kw["bands"] = tuple(_band(doc, b, "endless", "bands", i)
                                for i, b in enumerate(e["bands"]))
        if "styles" in e:
            if not isinstance(e["styles"], list) or not e["styles"]:
                raise doc.error("endless/styles must be a non-empty list", "endless", "styles")
            kw["styles"] = tuple(_style(doc, s, "endless", "styles", i)
                                 for i, s in enumerate(e["styles"]))
        for key in ("unlock_start", "unlock_every", "redraws"):
            if key in e:
                kw[key] = _int(doc, e[key], "endless", key,
                               high=MAX_REDRAWS if key == "redraws" else None)
        if "fallback" in e:
            kw["fallback"] = _band(doc, e["fallback"], "endless", "fallback")
        endless = EndlessConfig(**kw)
    ramp = DEFAULT_RAMP
    if "challenge" in data:
        c = check_mapping(doc, data["challenge"], CHALLENGE_KEYS, "challenge")
        if "ramp" in c:
            if not isinstance(c["ramp"], list) or not c["ramp"]:
                raise doc.error("challenge/ramp must be a non-empty list", "challenge", "ramp")
            steps = []
            for i, item in enumerate(c["ramp"]):
                keys = ("challenge", "ramp", i)
                item = check_mapping(doc, item, STEP_KEYS, *keys)
                if "band" not in item:
                    raise doc.error("a ramp step needs a band: [min, max]", *keys)
                lo, hi = _band(doc, item["band"], *keys, "band")
                style = _style(doc, item.get("style", "none"), *keys, "style")
                steps.append(Step(lo, hi, style))
            ramp = tuple(steps)
    return CrosswordConfig(str(path), options, endless, ramp)
