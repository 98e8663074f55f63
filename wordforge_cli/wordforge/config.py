"""What the word commands (``rarity``, ``score``, ``tiles``) and rarity pack sections share:
the rarity engine's options declared once (:data:`RULE`, :data:`RATING`; see
:mod:`wordforge_cli.options.spec`), loading the rule they choose, checking words, one play's score.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import ConfigError, UsageError
from wordforge_cli.options.spec import CLI, PACK, Count, Field, Parsed, Spec, Sweep

if TYPE_CHECKING:
    from wordforge_cli.wordforge.balance import Model
    from wordforge_cli.wordforge.hands import HandIndex
    from wordforge_cli.wordforge.rarity import Play, Rating, Rules, Score, Tables

_FILE = click.Path(dir_okay=False)
_FRONTS = frozenset((CLI, PACK))  # the rarity engine has no option defaults file (--config is
# its rules)

# the rule and its tables (every word command)
RULE = Spec(
    Field("config_path", _FILE, None, "Rules file (default: the bundled configs/rarity.yaml).",
          flags=("--config",), key="config", fronts=_FRONTS, what="rarity config"),
    Field("cefr_path", _FILE, None,
          "CEFR table replacing the bundled levels: YAML 'word: A1..C2' or CSV 'word,level'.",
          flags=("--cefr",), key="cefr", fronts=_FRONTS, what="CEFR table"),
    Field("overrides_path", _FILE, None,
          "Per-form table, YAML 'word: tier' (e.g. 'cats: normal'); wins over CEFR and Zipf.",
          flags=("--overrides",), key="overrides", fronts=_FRONTS, what="overrides table"),
    Field("lemma", click.BOOL, True,
          "Look CEFR levels up for the word's lemma too; --no-lemma: the form only (the "
          "article's rule exactly).", flags=("--lemma/--no-lemma",), fronts=_FRONTS),
    Field("data_path", _FILE, None,
          "Word table (sorted TSV: word, cefr, lemma, pos, gloss; default: the bundled "
          "data/english.tsv).", flags=("--data",), key="data", fronts=_FRONTS, what="word table"),
)
# what a rarity table adds
RATING = RULE + Spec(
    Field("gold_rush", click.BOOL, False, "Battle rarity with the Gold Rush power-up.",
          fronts=_FRONTS),
)

# a hand's best words (tiles --hand H --best; hands.HandIndex.best): the command line only
BEST = Spec(
    Field("best", click.BOOL, False,
          "With --hand: the highest-scoring playable words the hand can make (exact search; "
          "the scores of --word and wfkit score).", fronts=frozenset((CLI,))),
    Field("top", click.IntRange(1, 1000), 10, "With --best: how many words.",
          flags=("-k", "--top"), fronts=frozenset((CLI,))),
)


def _model(text: str) -> Model:
    from wordforge_cli.wordforge.balance import parse_model

    return parse_model(text)


MAX_GAMES = 10_000_000  # ~1.5 hours on one core at the measured speed: more is a typo
# WordForge games between simulated players (wfkit balance, pack balance sections; the engine's
# balance.GameRules and player models); the rules file and tables come from RULE
GAME = Spec(
    Field("games", click.IntRange(1, MAX_GAMES), 1000,
          "Games to play (game i is dealt from its own stream).", flags=("-n", "--games"),
          key="count", fronts=_FRONTS),
    Field("players", click.IntRange(1, 8), 2, "Seats per game (a pack section: one per "
          "model of 'players').", key="seats", fronts=frozenset((CLI,))),
    Field("turns", click.IntRange(1, 1000), 10, "Words each player plays per game.",
          fronts=_FRONTS),
    Field("models", Parsed(_model, "MODEL"), None,
          "What a seat's player knows: all (default), a CEFR level A1..C2, or zipf:X. Once: "
          "every seat; once per seat: in seat order.", flags=("--player",), key="players",
          multiple=True, metavar="MODEL", fronts=_FRONTS),
    Field("compare_path", _FILE, None,
          "Play the same deals under OTHER_CONFIG too and show both side by side.",
          flags=("--compare",), key="compare", fronts=frozenset((CLI,)), metavar="OTHER_CONFIG",
          what="rarity config"),
    Field("powerups", click.BOOL, True,
          "Play with Double, Overdrive, Gold Rush and Fortress (--no-powerups: without).",
          flags=("--powerups/--no-powerups",), fronts=_FRONTS),
    Field("use_at", click.IntRange(0, 10**9), 30,
          "A player spends a power-up when it adds at least this many points (or on the last "
          "turn), and raises Fortress after an opponent's turn this good.", fronts=_FRONTS),
)


# what wfkit balance plays besides one batch: a sweep of one setting, or one game replayed
# (the command line only; wordforge/sweep.py reads the sweep's keys)
RUNS = Spec(
    Field("sweep", Sweep(), None,
          "Play the batch once per value of KEY (the same deals for each), one row per value "
          "with its 95% intervals: turns, players, powerups, use_at, player (every seat), or "
          "a value of the rules file by its path (score.double, tiers.legendary.multiplier, "
          "short_words.cap, tiles.two_sets_from, ...).", fronts=frozenset((CLI,)),
          metavar="KEY=V1,V2,...", show_default=False),
    Field("trace", Count(0, digits=9), None,
          "Replay game INDEX of the batch (0 to -n minus 1) turn by turn: hand, word, "
          "power-up, pass, score; its result is the batch's own record of that game.",
          fronts=frozenset((CLI,)), metavar="INDEX", show_default=False),
)


@dataclass(frozen=True)
class RuleFiles:
    """The rule and tables a word command or pack section chose (the :data:`RULE` fields;
    None: the bundled file)."""

    config_path: str | Path | None = None
    cefr_path: str | Path | None = None
    overrides_path: str | Path | None = None
    lemma: bool = True
    data_path: str | Path | None = None

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> RuleFiles:
        """The :data:`RULE` fields of ``values`` (a section's, by field name)."""
        return cls(**{f.name: values[f.name] for f in RULE})

    def load(self, *, whole: bool = False) -> tuple[Rules, Tables]:
        """(rules, tables); ``whole``: read the whole word table now (many look-ups)."""
        from wordforge_cli.wordforge.english import read_rules

        rules = read_rules(self.config_path)
        return rules, self.tables(rules, whole=whole)

    def tables(self, rules: Rules, *, whole: bool = False) -> Tables:
        """The tables of these files under ``rules`` (a pack worker opens them again)."""
        from wordforge_cli.wordforge.english import open_tables

        return open_tables(rules, data=self.data_path, cefr=self.cefr_path,
                           overrides=self.overrides_path, whole=whole)

    def hand_index(self, rules: Rules, max_length: int) -> HandIndex:
        """The hand index of these files under ``rules`` (words of at most ``max_length``
        letters): the one the user's cache holds for exactly these inputs, else built (and
        stored there). Built or read, it is the same index (a test compares them)."""
        from wordforge_cli.io import cache
        from wordforge_cli.wordforge.hands import build_index, index_bytes, index_from_bytes

        key = self._index_key(rules, max_length)
        if key is not None:
            data = cache.read("hands", key, INDEX_CAP)
            if data is not None:
                try:
                    return index_from_bytes(data, rules)
                except ValueError:
                    pass  # a damaged or foreign file: build the index, store it anew
        index = build_index(rules, self.tables(rules, whole=True), max_length,
                            use_lemma=self.lemma)
        # stored only when the inputs read now are still those the key was taken from
        if key is not None and key == self._index_key(rules, max_length):
            try:
                payload = index_bytes(index)
            except ValueError:  # a table whose text a stored index cannot hold
                return index
            cache.write("hands", key, payload)
        return index

    def _index_key(self, rules: Rules, max_length: int) -> bytes | None:
        """sha256 of everything the hand index is made from: the code that makes it, the
        rules (their full repr), the word table (the bundled data version, or the bytes of
        the user's table), wordfreq's English lists, the user's CEFR and overrides files,
        the lemma switch and the length. None when a file cannot be read (the build then
        reports it)."""
        parts = [f"hand index {max_length} {self.lemma} {sys.byteorder}", repr(rules),
                 _code_digest()]
        for kind, path in (("word table", self.data_path), ("CEFR table", self.cefr_path),
                           ("overrides table", self.overrides_path)):
            if path is None:
                parts.append(f"{kind}: bundled {_bundled_data()}" if kind == "word table"
                             else f"{kind}: none")
                continue
            digest = _file_digest(path, kind)
            if digest is None:
                return None
            # the suffix too: it chooses how a CEFR table is parsed
            parts.append(f"{kind}: {Path(path).suffix.lower()!r} {digest}")
        zipf = _zipf_digest()
        if zipf is None:
            return None
        parts.append(f"zipf: {zipf}")
        return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).digest()


INDEX_CAP = 1024 * 1024 * 1024  # a stored hand index read back (the bundled table's: ~11 MB)


def _file_digest(path: str | Path, kind: str) -> str | None:
    """sha256 of a regular file's bytes (opened as the table readers open it), or None."""
    from wordforge_cli.io.inputs import open_regular

    try:
        fd, _ = open_regular(path, kind)
    except ConfigError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


@functools.cache
def _bundled_data() -> str:
    from wordforge_cli.io.dataversion import data_version

    return data_version()


@functools.cache
def _code_digest() -> str:
    """sha256 of the modules whose code decides what the hand index holds."""
    from wordforge_cli.wordforge import english, hands, rarity

    digest = hashlib.sha256()
    for module in (english, hands, rarity):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


@functools.cache
def _zipf_digest() -> str | None:
    """sha256 of wordfreq's code and English frequency lists (the Zipf values' source),
    found without importing it; None when they cannot be read."""
    import importlib.util

    spec = importlib.util.find_spec("wordfreq")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(spec.submodule_search_locations[0])
    files = [folder / "__init__.py", *sorted((folder / "data").glob("*_en.msgpack.gz"))]
    digest = hashlib.sha256()
    for path in files:
        file = _file_digest(path, "file")
        if file is None:
            return None
        digest.update(f"{path.name} {file}\n".encode())
    return digest.hexdigest()


def rule_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options that choose the rule and its tables (rarity, score, tiles, balance), given
    to the command as one keyword, ``rule`` (a :class:`RuleFiles`)."""

    @functools.wraps(func)
    def command(*args: Any, **kwargs: Any) -> Any:
        kwargs["rule"] = RuleFiles.of({f.name: kwargs.pop(f.name) for f in RULE})
        return func(*args, **kwargs)

    return RULE.options()(command)


def checked_words(words: Iterable[str]) -> list[str]:
    """Command-line words, normalised; the first bad one is a usage error (exit 2)."""
    from wordforge_cli.wordforge.rarity import normal_word, word_problem

    checked = []
    for word in words:
        problem = word_problem(word)
        if problem:
            raise UsageError(f"bad word: {problem}")
        checked.append(normal_word(word.strip()))
    return checked


def play_one(word: str, rules: Rules, tables: Tables, *, use_lemma: bool, battle: bool,
             gold_rush: bool, play: Play) -> tuple[Rating, Score]:
    """(rating, score) of one play of a playable word."""
    from wordforge_cli.wordforge.rarity import rate, score_word

    rating = rate(word, rules, tables, use_lemma=use_lemma, gold_rush=gold_rush)
    # catalogue rarity without battle rules (Gold Rush still lifts it)
    tier = rating.battle_tier if battle else rules.battle_tier(rating.tier, 0.0, 0, gold_rush)
    return rating, score_word(word, tier, rules, play)


def score_record(rating: Rating, result: Score, rules: Rules, play: Play, *, battle: bool,
                 gold_rush: bool) -> dict[str, Any]:
    """The breakdown of one play as a JSON-ready record (``score`` last)."""
    from wordforge_cli.wordforge.rarity import decimal_text, number

    tier = rules.tiers[result.tier]
    return {
        "word": result.word,
        "playable": rating.playable,
        "letters": len(result.word),
        "tiles": [{"letter": letter, "points": points, "wild": wild}
                  for letter, points, wild in result.tiles],
        "tile_sum": result.tile_sum,
        "length_term": number(result.length_term),
        "base": number(result.base),
        "length_bonus": number(result.length_bonus),
        "overdrive": play.overdrive,
        "subtotal": number(result.subtotal),
        "battle": battle,
        "gold_rush": gold_rush,
        "catalogue_rarity": rules.tiers[rating.tier].key,
        "rarity": tier.key,
        "label": tier.label,
        "source": rating.source,
        "cefr": rating.cefr,
        "zipf": rating.zipf,
        "combo": play.combo,
        "link": play.link,
        "multipliers": {name: number(factor) for name, factor in result.multipliers},
        "exact": decimal_text(result.product),
        "score": result.score,
    }
