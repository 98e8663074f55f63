"""The crossword engine's options, declared once (:data:`BOARD`, :data:`BATCH`), and its
difficulty config (``configs/crossword.yaml``): option defaults, endless plan, challenge ramp.

The specs give ``wfkit crossword``'s options, the config's option keys and the pack sections'
keys (see :mod:`wordforge_cli.spec`); every value is checked with its file and line, unknown
keys get a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click

from wordforge_cli.config import check_mapping
from wordforge_cli.crossword.blanks import LABELS, STYLES
from wordforge_cli.crossword.board import DEFAULT_BUDGET, LAYOUTS, Request
from wordforge_cli.crossword.sets import DEFAULT_RAMP, DEFAULT_REDRAWS, EndlessConfig, Step
from wordforge_cli.spec import (
    CLI,
    CONFIG,
    PACK,
    Choice,
    Field,
    Names,
    Options,
    Pair,
    ParamType,
    Spec,
    read_options,
)
from wordforge_cli.yamlio import YamlDoc

MAX_BUDGET = 10**6  # attempts; at ~10-100 us each a run out budget still answers in seconds
MAX_REDRAWS = 1000
MAX_SIDE = 10_000  # cells; a board wider than this is no screen's
# One limit for every front end, in boards: ~40 hours at the measured speed, anything above is
# a typo. A challenge set is one board per ramp step (10 bundled), so its count of sets is
# capped at a tenth: 10**9 boards either way (and a pack section's 10**9 items per section).
MAX_BOARDS = 10**9
MAX_SETS = MAX_BOARDS // 10
_NOT_CONFIG = frozenset((CLI, PACK))  # a count is the run's, not the difficulty config's

# what every form (batch, endless, challenge) takes
BOARD = Spec(
    Field("layout", Choice(LAYOUTS), "loose",
          "loose: the article's (runs may join); strict: every run of 2+ cells is exactly "
          "one word."),
    Field("budget", click.IntRange(1, MAX_BUDGET), DEFAULT_BUDGET,
          "Attempts shared by all retries of one board."),
    Field("unique", click.BOOL, False,
          "Keep a board only if its visible letters admit exactly one filling from the "
          "vocabulary.", show_default=False),
    Field("fold_small", click.BOOL, True, "Japanese: print small kana full size (ッ->ツ).",
          flags=("--fold-small/--keep-small",)),
    Field("styles", Names(STYLES, what="style"), "all",
          "Styles whose blank-failure rate the statistics report: 'all' or a comma list.",
          metavar="STYLES"),
    Field("difficulty", click.BOOL, False,
          "Measure each board with a solver that deduces cells as a player does (rounds, "
          "guesses, letters given): in each record and in the statistics, per step for "
          "endless and challenge.", show_default=False),
    Field("max_width", click.IntRange(2, MAX_SIDE), None,
          "Widest board, in cells (kept while words are placed; a request no board can "
          "meet is refused at once)."),
    Field("max_height", click.IntRange(2, MAX_SIDE), None, "Tallest board, in cells."),
    Field("no_redraw", click.BOOL, False,
          "Ship a styled board's first draw even when its style blanks nothing (no redraws).",
          show_default=False),
    Field("strict_vocab", click.BOOL, False,
          "Refuse (exit 2, file:line) a vocabulary entry that cannot be used, instead of "
          "skipping it with a warning (for CI).", show_default=False),
)
# what batches and challenge sets add (an endless run redraws by its own endless/redraws)
STYLED = Spec(
    Field("redraws", click.IntRange(1, MAX_REDRAWS), DEFAULT_REDRAWS,
          "Draws a styled board may take until its style blanks a cell (the article's "
          "endless rule; 1 = the first draw only)."),
)
# what a batch adds: how many, one answer band (a pack section says band: [min, max]) and one
# style
BATCH = Spec(
    Field("count", click.IntRange(0, MAX_BOARDS), 1, "How many boards.",
          flags=("-n", "--count"), fronts=_NOT_CONFIG),
    Field("min_len", click.IntRange(1), 4, "Shortest answer.", fronts=frozenset((CLI, CONFIG))),
    Field("max_len", click.IntRange(1), 5, "Longest answer.", fronts=frozenset((CLI, CONFIG))),
    Field("band", Pair(ordered=False), None, "Answer length band: [min, max] or 'min-max'.",
          fronts=frozenset((PACK,))),
    Field("style", Choice(STYLES), "none",
          "Blank style: tail/head hide the last/first cell of runs, alt cells with x+y even, "
          "most every given cell not beside an answer cell."),
)
# what the set forms add
ENDLESS = Spec(
    Field("count", click.IntRange(0, MAX_BOARDS), 10, "How many questions.",
          fronts=_NOT_CONFIG),
    Field("start", click.IntRange(0), 0, "Number of the first question.",
          fronts=frozenset((CLI,))),
)
CHALLENGE = Spec(
    Field("count", click.IntRange(0, MAX_SETS), 1, "How many sets of 10.",
          fronts=_NOT_CONFIG),
    Field("order_by_difficulty", click.BOOL, False,
          "Put each set's boards in the order of their measured difficulty (easiest first; "
          "see --difficulty) instead of the ramp's.", show_default=False),
)
SECTIONS = ("labels", "endless", "challenge")  # the config's own sections, not options
# the values of the endless plan and of a challenge ramp's steps, each checked by its type as an
# option's is (a list: each item, at its own line)
BAND = Pair(low=2)
PLAN = {"bands": BAND, "styles": Choice(STYLES), "unlock_start": click.IntRange(1),
        "unlock_every": click.IntRange(1), "redraws": click.IntRange(1, MAX_REDRAWS),
        "fallback": BAND}
PLAN_LISTS = ("bands", "styles")
STEP = {"band": BAND, "style": Choice(STYLES)}


def board_request(v: Mapping[str, Any], band: tuple[int, int] | None = None,
                  style: str = "none") -> Request:
    """The engine's request from the values of :data:`BOARD` (``name -> value``); a batch
    adds its answer band and style (a set's steps bring their own)."""
    board = Request(style=style, layout=v["layout"], budget=v["budget"], unique=v["unique"],
                    max_width=v["max_width"], max_height=v["max_height"])
    return board if band is None else replace(board, min_len=band[0], max_len=band[1])


@dataclass
class CrosswordConfig(Options):
    """A loaded config: ``options`` are the batch command's option defaults; the endless
    plan, the challenge ramp and the style labels."""

    endless: EndlessConfig = field(default_factory=EndlessConfig)
    ramp: tuple[Step, ...] = DEFAULT_RAMP
    labels: dict[str, str] = field(default_factory=lambda: dict(LABELS))


def _value(doc: YamlDoc, kind: ParamType, value: Any, *keys: str | int) -> Any:
    """``value`` parsed by its type, a refusal at its line (``endless/bands/1: ...``)."""
    try:
        return Field("", kind).convert(value)
    except click.BadParameter as exc:
        raise doc.error(f"{'/'.join(map(str, keys))}: {exc.message}", *keys) from None


def _items(doc: YamlDoc, value: Any, *keys: str) -> list[tuple[int, Any]]:
    """The numbered items of a list the config must give at least one of."""
    if not isinstance(value, list) or not value:
        raise doc.error(f"{'/'.join(keys)} must be a non-empty list", *keys)
    return list(enumerate(value))


def load_config(path: str | Path | None = None) -> CrosswordConfig:
    """Read and check a crossword config (None: the bundled one)."""
    every = BATCH + BOARD + STYLED + Spec(CHALLENGE["order_by_difficulty"])
    options, data = read_options(path, "crossword", every, SECTIONS)
    cfg, doc = CrosswordConfig(**vars(options)), options.doc
    if "labels" in data:
        given = check_mapping(doc, data["labels"], STYLES, "labels")
        for style, name in given.items():
            if not isinstance(name, str) or not name.strip():
                raise doc.error(f"labels/{style} must be a non-empty string, not {name!r}",
                                "labels", style)
            cfg.labels[style] = name
    if "endless" in data:
        kw: dict[str, Any] = {}
        for key, value in check_mapping(doc, data["endless"], PLAN, "endless").items():
            where = ("endless", key)
            kw[key] = (tuple(_value(doc, PLAN[key], item, *where, i)
                             for i, item in _items(doc, value, *where))
                       if key in PLAN_LISTS else _value(doc, PLAN[key], value, *where))
        cfg.endless = EndlessConfig(**kw)
    if "challenge" in data:
        c = check_mapping(doc, data["challenge"], ("ramp",), "challenge")
        if "ramp" in c:
            steps = []
            for i, item in _items(doc, c["ramp"], "challenge", "ramp"):
                keys = ("challenge", "ramp", i)
                item = check_mapping(doc, item, STEP, *keys)
                if "band" not in item:
                    raise doc.error("a ramp step needs a band: [min, max]", *keys)
                lo, hi = _value(doc, BAND, item["band"], *keys, "band")
                steps.append(Step(lo, hi, _value(doc, STEP["style"], item.get("style", "none"),
                                                 *keys, "style")))
            cfg.ramp = tuple(steps)
    return cfg
