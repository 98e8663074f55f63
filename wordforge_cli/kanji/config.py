"""The kanji engine's options, declared once (:data:`POOLS`), and its difficulty config
(``configs/kanji.yaml``): option defaults and presets.

The spec gives ``wfkit kanji``'s options, the config's keys (top level and every preset) and
the pack sections' keys (see :mod:`wordforge_cli.options.spec`); every value is checked with
its file and line, unknown keys and presets get a did-you-mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.kanji.dictionary import GRADE_OTHER
from wordforge_cli.kanji.pool import PoolRequest
from wordforge_cli.kanji.territory import MOVE_LIMIT, Player, SelfPlay, parse_player
from wordforge_cli.options.spec import (
    CLI,
    PACK,
    Count,
    Field,
    FiniteFloat,
    FiniteRange,
    Options,
    Pair,
    Parsed,
    Spec,
    Sweep,
    read_options,
)

MAX_POOLS = 10**9       # ~6 days at the measured speed: anything above is a typo
MAX_ATTEMPTS = 100_000  # ~40 s for one pool whose kanji range is out of reach

POOLS = Spec(
    Field("count", click.IntRange(0, MAX_POOLS), 10, "How many pools.",
          flags=("-n", "--count")),
    Field("base", click.IntRange(1, 10_000), 5, "n: base words per pool."),
    Field("bring", click.IntRange(1, 100_000), 25,
          "m: words drawn for their overlap with the base."),
    Field("kanji", Pair(), None,
          "Distinct kanji wanted per pool: LOW-HIGH (e.g. 30-50) or one number.",
          show_default=False),
    Field("max_grade", click.IntRange(1, GRADE_OTHER), GRADE_OTHER,
          "Keep out words with a kanji above this grade (1-6 school, 7 joyo, 8 jinmeiyo, "
          "9 any)."),
    Field("base_max_grade", click.IntRange(1, GRADE_OTHER), GRADE_OTHER,
          "Stricter grade for base words."),
    Field("min_zipf", FiniteFloat(), None,
          "Keep out words rarer than this (wordfreq zipf, e.g. 3).", show_default=False),
    Field("attempts", click.IntRange(1, MAX_ATTEMPTS), 200,
          "Pools drawn at most per pool to reach the --kanji range."),
    Field("hidden_examples", click.IntRange(0, 1000), 5, "Hidden compounds listed per pool."),
    # self-play (kanji/territory.py): the command line, configs (a preset may say
    # balanced: true) and pack sections (with their own 'players' list, pack/kanji.py)
    Field("self_play", click.BOOL, False,
          "Play each pool (--games games between the --player models) and add its balance "
          "figures to the record and the batch figures.", show_default=False),
    Field("balanced", click.BOOL, False,
          "Keep only pools whose first-player advantage (mean margin per board kanji) stays "
          "inside +-BAND; others are redrawn (implies --self-play).", show_default=False),
    Field("band", FiniteRange(0, 1), 0.03,
          "--balanced: the largest first-player advantage kept, as a share of the board's "
          "kanji."),
    Field("games", click.IntRange(1, 1000), 4,
          "Self-play games per pool (each player moves first in half of them)."),
    Field("balance_attempts", click.IntRange(1, 100_000), 20,
          "--balanced: pools drawn at most per kept pool."),
    Field("fresh_games", click.IntRange(0, 1000), 4,
          "--balanced: games each kept pool is played again on seeds its selection never saw "
          "(what it plays like, not what it was picked for; 0: none)."),
)
# the territory game's end rules: self-play of a batch (configs, presets, packs) and kanji play
LIMIT = Field("limit", click.IntRange(0, 10_000), MOVE_LIMIT,
              "Move limit (0: play until neither player knows a legal word). The default 30 is "
              "the article's 5 + 25 shown words (計30手で決着), not a rule of the game.")
HIDDEN_WORDS = Field("hidden_words", click.BOOL, False,
                     "The classic variant: the pool's words are not shown (players know only "
                     "what their Zipf floor lets them).", show_default=False)
# who plays: self-play of a batch (a preset may name its players) and kanji play
PLAYERS = Field("players", Parsed(parse_player, "KIND[@ZIPF]"), None,
                "A simulated player: greedy (the biggest swing now) or lookahead (after the "
                "opponent's reply), @ZIPF: knows only the hidden words that common (@shown: "
                "none). Twice: first and second player (default: greedy).",
                flags=("--player",), multiple=True, show_default=False, metavar="KIND[@ZIPF]")
# the dictionary the pools draw from (check and play: the one they were drawn from)
DICT = Field("dict_path", click.Path(dir_okay=False), None,
             "Dictionary replacing the bundled one (check, play: the one the pools were made "
             "from): one word a line, YAML vocabulary, or word<TAB>zipf .tsv.",
             flags=("--dict",), key="dict", fronts=frozenset((CLI, PACK)), show_default=False,
             what="dictionary file")
POOLS += Spec(
    PLAYERS, LIMIT, HIDDEN_WORDS, DICT,
    Field("strict_vocab", click.BOOL, False,
          "Refuse (exit 2, file:line) a --dict entry that cannot be used, instead of skipping "
          "it with a warning (for CI).", show_default=False, fronts=frozenset((CLI, PACK))),
)
# what a self-play batch runs besides itself: a sweep of one setting, or one pool's games
# replayed (the command line only; kanji/sweep.py reads the sweep's keys)
RUNS = Spec(
    Field("sweep", Sweep(), None,
          "With --self-play or --balanced: play the batch once per value of KEY, one row per "
          "value with its 95% intervals: preset, limit, hidden_words, base, bring, kanji, "
          "max_grade, min_zipf, games, band, player (both seats).",
          fronts=frozenset((CLI,)), metavar="KEY=V1,V2,...", show_default=False),
    Field("trace", Count(0, digits=9), None,
          "With --self-play or --balanced: replay pool INDEX's games (0 to -n minus 1) move "
          "by move: claims, steals, passes; its figures are the batch's own record of the "
          "pool.", fronts=frozenset((CLI,)), metavar="INDEX", show_default=False),
)
# what kanji play adds (one game on the command line: no config, no pack section)
PLAY = Spec(PLAYERS, LIMIT, HIDDEN_WORDS, DICT)


def pair(players: Sequence[Player]) -> tuple[Player, Player]:
    """The two players of ``players`` (one: both play it; none: greedy); UsageError naming
    the field for more than two."""
    if len(players) > 2:
        raise UsageError("at most two players (the first moves first)", field="players")
    chosen = list(players) or [Player()]
    return (chosen[0], chosen[-1])


def self_play(v: Mapping[str, Any]) -> SelfPlay | None:
    """The self-play the values of :data:`POOLS` ask for (``self_play``, ``balanced``, their
    numbers, ``players``), or None when none is asked."""
    if not (v["self_play"] or v["balanced"]):
        return None
    return SelfPlay(players=pair(v["players"]), games=v["games"], limit=v["limit"] or None,
                    shown_variant=not v["hidden_words"],
                    band=v["band"] if v["balanced"] else None, budget=v["balance_attempts"],
                    fresh=v["fresh_games"])


def pool_request(v: Mapping[str, Any]) -> PoolRequest:
    """The engine's request from the values of :data:`POOLS` (``name -> value``)."""
    return PoolRequest(base=v["base"], bring=v["bring"], kanji=v["kanji"],
                       max_grade=v["max_grade"], base_max_grade=v["base_max_grade"],
                       min_zipf=v["min_zipf"], budget=v["attempts"],
                       examples=v["hidden_examples"])


def load_config(path: str | Path | None = None) -> Options:
    """Read and check a kanji config (None: the bundled one) and its presets."""
    return read_options(path, "kanji", POOLS, presets=True)[0]
