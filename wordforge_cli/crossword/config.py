"""The crossword engine's options, declared once (:data:`BOARD`, :data:`BATCH`), and its
difficulty config (``configs/crossword.yaml``): option defaults, endless plan, challenge ramp.

The specs give ``wfkit crossword``'s options, the config's option keys and the pack sections'
keys (see :mod:`wordforge_cli.options.spec`); every value is checked with its file and line, unknown
keys get a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click

from wordforge_cli.crossword.blanks import BLANK_STYLES, LABELS, LANGUAGES, STYLES, label_language
from wordforge_cli.crossword.board import DEFAULT_BUDGET, LAYOUTS, Request
from wordforge_cli.crossword.sets import DEFAULT_RAMP, DEFAULT_REDRAWS, EndlessConfig, Step
from wordforge_cli.io.checks import check_mapping
from wordforge_cli.io.vocab import control_problem
from wordforge_cli.io.yamlio import YamlDoc
from wordforge_cli.options.spec import (
    CLI,
    CONFIG,
    PACK,
    Choice,
    Count,
    Field,
    Names,
    Options,
    Pair,
    Spec,
    read_options,
)

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
          "guesses, letters given), and with a player who knows each word with a "
          "probability from its frequency (familiar_score): in each record and in the "
          "statistics, per step for endless and challenge.", show_default=False),
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
    Field("style", Choice(STYLES), "none", "Blank style, and what it hides: " + "; ".join(
        f"{s.name} ({s.en}) {s.rule}" for s in BLANK_STYLES.values()) + "."),
)
# what the set forms add
ENDLESS = Spec(
    Field("count", click.IntRange(0, MAX_BOARDS), 10, "How many questions.",
          fronts=_NOT_CONFIG),
    Field("start", Count(0), 0, "Number of the first question.",
          fronts=frozenset((CLI,))),
)
CHALLENGE = Spec(
    Field("count", click.IntRange(0, MAX_SETS), 1, "How many sets of 10.",
          fronts=_NOT_CONFIG),
    Field("order_by_difficulty", click.BOOL, False,
          "Put each set's boards in the order of their measured difficulty (easiest first; "
          "see --difficulty) instead of the ramp's.", show_default=False),
)
# the config's own sections, not options: the endless plan and the challenge ramp, each value
# read by its kind (_value: a Click type as an option's value is, [kind] a non-empty list of it,
# each item at its own line, a mapping its keys' kinds, a function a step or a label)
BAND = Pair(low=2)
PLAN = {"bands": [BAND], "styles": [Choice(STYLES)], "unlock_start": click.IntRange(1),
        "unlock_every": click.IntRange(1), "redraws": click.IntRange(1, MAX_REDRAWS),
        "fallback": BAND}
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
    plan, the challenge ramp and the style labels (language -> style -> label, see
    :func:`labels_for`)."""

    endless: EndlessConfig = field(default_factory=EndlessConfig)
    ramp: tuple[Step, ...] = DEFAULT_RAMP
    labels: dict[str, dict[str, str]] = field(
        default_factory=lambda: {language: dict(names) for language, names in LABELS.items()})

    def labels_for(self, language: str | None) -> dict[str, str]:
        """The style labels a board of a ``language`` vocabulary shows (``blanks.label_language``:
        Japanese ones for a Japanese vocabulary, English ones for any other)."""
        return self.labels[label_language(language)]


def _value(doc: YamlDoc, kind: Any, value: Any, *keys: str | int) -> Any:
    """``value`` read as ``kind`` says (see :data:`PLAN`), a refusal at its line
    (``endless/bands/1: ...``)."""
    where = "/".join(map(str, keys))
    if isinstance(kind, dict):
        given = check_mapping(doc, value, kind, *keys)
        return {key: _value(doc, kind[key], item, *keys, key) for key, item in given.items()}
    if isinstance(kind, list):
        if not isinstance(value, list) or not value:
            raise doc.error(f"{where} must be a non-empty list", *keys)
        return tuple(_value(doc, kind[0], item, *keys, i) for i, item in enumerate(value))
    if not isinstance(kind, click.ParamType):
        return kind(doc, value, *keys)
    try:
        return Field("", kind).convert(value)
    except click.BadParameter as exc:
        raise doc.error(f"{where}: {exc.message}", *keys) from None


def _step(doc: YamlDoc, value: Any, *keys: str | int) -> Step:
    """One step of the challenge ramp: its band first, then its style (none unless given)."""
    if "band" not in check_mapping(doc, value, STEP, *keys):
        raise doc.error("a ramp step needs a band: [min, max]", *keys)
    lo, hi = _value(doc, BAND, value["band"], *keys, "band")
    return Step(lo, hi, _value(doc, STEP["style"], value.get("style", "none"), *keys, "style"))


def _label(doc: YamlDoc, value: Any, *keys: str | int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise doc.error(f"{'/'.join(map(str, keys))} must be a non-empty string, not {value!r}",
                        *keys)
    problem = control_problem(value, "/".join(map(str, keys)))  # a label reaches every render
    if problem:
        raise doc.error(problem, *keys)
    return value


# labels: a style's label for every language (``labels: {tail: ...}``) or for one
# (``labels: {en: {tail: ...}}``, which wins over the former for that language)
SECTIONS = {"labels": {**dict.fromkeys(STYLES, _label),
                       **{language: dict.fromkeys(STYLES, _label) for language in LANGUAGES}},
            "endless": PLAN, "challenge": {"ramp": [_step]}}


def load_config(path: str | Path | None = None) -> CrosswordConfig:
    """Read and check a crossword config (None: the bundled one)."""
    every = BATCH + BOARD + STYLED + Spec(CHALLENGE["order_by_difficulty"])
    options, data = read_options(path, "crossword", every, tuple(SECTIONS))
    cfg, doc = CrosswordConfig(**vars(options)), options.doc
    own = _value(doc, SECTIONS, {key: data[key] for key in SECTIONS if key in data})
    given = own.get("labels", {})
    for language, labels in cfg.labels.items():
        labels.update((style, given[style]) for style in STYLES if style in given)
        labels.update(given.get(language, {}))
    if "endless" in own:
        cfg.endless = EndlessConfig(**own["endless"])
    cfg.ramp = own.get("challenge", {}).get("ramp", DEFAULT_RAMP)
    return cfg
