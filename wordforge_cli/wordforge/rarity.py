"""WordForge's word rules as pure functions: tiers, the three-step rarity rule, battle upgrade,
the score formula (exact), combo and link over turns, and the tile bag.

Spec: the WordForge article. Every number comes from a ``Rules`` built from
``configs/rarity.yaml`` by :func:`rules_from_config`; tables come in as plain mappings
(:class:`Tables`), so the core never touches a file, a clock or a global random stream.

Arithmetic is exact: config numbers become ``Fraction`` from the decimal the user wrote, so
``4 x 5 x (1 + 9 x 0.15)`` is exactly 47 and ``floor`` never loses a point to binary floats.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from wordforge_cli.core.errors import ConfigError

if TYPE_CHECKING:
    from wordforge_cli.io.vocab import Vocabulary
    from wordforge_cli.io.yamlio import YamlDoc

LEVELS = ("A1", "A2", "B1", "B2", "C1", "C2")
SOURCES = ("override", "cefr", "zipf")
RECORD_FIELDS = ("word", "zipf", "cefr", "rarity", "label", "multiplier", "source",
                 "battle_rarity", "playable", "cefr_lemma", "pos", "gloss")
WILD = "?"

_WORD = re.compile(r"[a-z]+")


# --------------------------------------------------------------------------- words

def word_problem(text: str) -> str | None:
    """Why ``text`` is not a word the tiles can spell (letters a-z, any case), or None."""
    if not text or not text.strip():
        return "empty word"
    if _WORD.fullmatch(text.lower()):
        return None
    for char in text:
        if not ("a" <= char.lower() <= "z"):
            what = "a digit" if char.isdigit() else "a space" if char.isspace() else (
                f"'{char}' (U+{ord(char):04X})")
            return f"'{text}' has {what}: a word is letters a-z only"
    return f"'{text}' is not letters a-z only"  # pragma: no cover - lower() changed it


def normal_word(text: str) -> str:
    """The form every table is keyed by (lower case); call :func:`word_problem` first."""
    return text.lower()


_ALL_WORDS = re.compile(r"[a-z]+(?:\n[a-z]+)*")


def vocabulary_words(vocab: Vocabulary) -> list[str]:
    """The words of a vocabulary, normalised, for the command line and pack sections alike:
    an English vocabulary only (``language`` absent or ``en``), every word letters a-z, the
    first bad one a ConfigError at its file and line."""
    if vocab.language not in (None, "en"):
        raise ConfigError(f"language '{vocab.language}': WordForge rates English words (en)",
                          path=vocab.path)
    words = [entry.word.lower() for entry in vocab.entries]
    if not _ALL_WORDS.fullmatch("\n".join(words)):  # one C-speed pass; then find the bad one
        for entry in vocab.entries:
            problem = word_problem(entry.word)
            if problem:
                raise ConfigError(problem, path=vocab.path, line=entry.line)
    return words


# --------------------------------------------------------------------------- rules

@dataclass(frozen=True, slots=True)
class Tier:
    key: str
    label: str
    multiplier: Fraction


@dataclass(frozen=True)
class ScoreRules:
    base_length: int
    per_letter: Fraction
    length_bonus: tuple[tuple[int, Fraction], ...]  # (min letters, bonus), longest first
    overdrive: Fraction
    combo_step: Fraction
    double: Fraction
    link: Fraction
    fortress: Fraction


@dataclass(frozen=True)
class TileRules:
    points: dict[str, int]  # lower-case letter -> points
    counts: dict[str, int]  # lower-case letter -> tiles in one set
    hand_size: int
    max_players: int
    two_sets_from: int


@dataclass(frozen=True)
class Rules:
    tiers: tuple[Tier, ...]
    thresholds: tuple[tuple[Fraction, int], ...]  # (minimum zipf, tier index), descending
    zipf_below: int
    zipf_no_data: int
    short_max_length: int
    short_cap: int
    cefr: dict[str, int]  # level -> tier index
    battle_length: int
    battle_tiers: int
    gold_rush_tiers: int
    score: ScoreRules
    tiles: TileRules
    _centi: tuple[tuple[int, int], ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        # zipf values have two decimals: zipf >= t  <=>  round(zipf * 100) >= ceil(100 t)
        centi = tuple((math.ceil(t * 100), tier) for t, tier in self.thresholds)
        object.__setattr__(self, "_centi", centi)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(t.key for t in self.tiers)

    def index(self, key: str) -> int:
        return self.keys.index(key)

    def zipf_tier(self, zipf: float, length: int) -> int:
        """Step 3: the tier a Zipf value gives (no data -> ``no_data``; short words capped)."""
        if not zipf > 0 or not math.isfinite(zipf):
            return self.zipf_no_data
        centi = round(zipf * 100)
        tier = self.zipf_below
        for minimum, candidate in self._centi:
            if centi >= minimum:
                tier = candidate
                break
        if length <= self.short_max_length and tier > self.short_cap:
            tier = self.short_cap
        return tier

    def battle_tier(self, tier: int, zipf: float, length: int, gold_rush: bool = False) -> int:
        """Long words with frequency data go up in a battle; Gold Rush adds more; LG caps."""
        up = self.battle_tiers if length >= self.battle_length and zipf > 0 else 0
        if gold_rush:
            up += self.gold_rush_tiers
        return min(tier + up, len(self.tiers) - 1)


def exact(value: int | float) -> Fraction:
    """The number the user wrote: 0.15 -> 3/20 (repr is the shortest round-trip decimal)."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


MAX_RULE_NUMBER = 10**12  # larger is a typo, and a float of 10**309 overflows
# tiles of one letter in a set, a hand's size, players at one table: each bag and hand is
# built tile by tile, so a count of 10**9 would be gigabytes
MAX_TILES = 1000

RULE_KEYS = ("tiers", "zipf", "short_words", "cefr", "battle", "score", "tiles")


class _Checker:
    """Reads one config mapping, reporting each problem at its file:line (``doc``: YamlDoc)."""

    def __init__(self, doc: YamlDoc):
        self.doc = doc

    def fail(self, message: str, *keys: Any) -> ConfigError:
        return self.doc.error(message, *keys)

    def mapping(self, value: Any, known: tuple[str, ...] | None, *keys: Any) -> dict[Any, Any]:
        """``value`` as a mapping: with ``known``, exactly those keys (each one required)."""
        from wordforge_cli.io.checks import check_mapping, type_name

        if known is None:
            if not isinstance(value, dict):
                raise self.fail(f"{'/'.join(map(str, keys))} must be a mapping, "
                                f"not {type_name(value)}", *keys)
        else:
            check_mapping(self.doc, value, known, *keys)
        for key in known or ():
            if key not in value:
                raise self.fail(f"'{'/'.join(map(str, keys))}' has no '{key}'", *keys)
        checked: dict[Any, Any] = value
        return checked

    def number(self, value: Any, *keys: Any, minimum: float | None = None,
               integer: bool = False, positive: bool = False,
               maximum: int | None = None) -> Fraction:
        from wordforge_cli.io.checks import type_name

        where = "/".join(map(str, keys))
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(f"{where} must be a number, not {type_name(value)}", *keys)
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(f"{where} must be a finite number, not {value}", *keys)
        if abs(value) > MAX_RULE_NUMBER:  # (a float of it would overflow, or a score)
            raise self.fail(f"{where} must be at most {MAX_RULE_NUMBER:,}, not a number of "
                            f"{len(str(int(abs(value))))} digits", *keys)
        if integer and not isinstance(value, int):
            raise self.fail(f"{where} must be a whole number, not {value}", *keys)
        number = exact(value)
        if positive and number <= 0:
            raise self.fail(f"{where} must be above 0, not {value}", *keys)
        if minimum is not None and number < minimum:
            raise self.fail(f"{where} must be at least {minimum}, not {value}", *keys)
        if maximum is not None and number > maximum:
            raise self.fail(f"{where} must be at most {maximum:,}, not {value}", *keys)
        return number

    def tier(self, value: Any, keys_known: tuple[str, ...], *keys: Any) -> int:
        from wordforge_cli.io.checks import did_you_mean

        if not isinstance(value, str) or value not in keys_known:
            raise self.fail(f"unknown tier '{value}'{did_you_mean(str(value), keys_known)} "
                            f"(tiers: {', '.join(keys_known)})", *keys)
        return keys_known.index(value)


def _no_duplicate_keys(node: Any, doc: Any) -> None:
    """YAML keeps the last of two equal keys silently; a rule file must not say a thing twice."""
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if getattr(current, "id", None) == "mapping":
            seen: set[str] = set()
            for key, value in current.value:
                if key.value in seen:
                    raise ConfigError(f"'{key.value}' is given twice", path=doc.path,
                                      line=key.start_mark.line + 1)
                seen.add(key.value)
                stack.append(value)
        elif getattr(current, "id", None) == "sequence":
            stack.extend(current.value)


def rules_from_config(data: Any, doc: Any) -> Rules:
    """Check a parsed ``rarity.yaml`` (``doc`` gives file:line) and build its ``Rules``."""
    c = _Checker(doc)
    if data is None:
        raise c.fail("the config is empty")
    _no_duplicate_keys(getattr(doc, "node", None), doc)
    top = c.mapping(data, RULE_KEYS)

    raw_tiers = c.mapping(top["tiers"], None, "tiers")
    if not raw_tiers:
        raise c.fail("'tiers' must name at least one tier", "tiers")
    tiers = []
    labels: set[str] = set()
    for key, spec in raw_tiers.items():
        if not isinstance(key, str) or not key:
            raise c.fail(f"a tier key must be a name, not {key!r}", "tiers", key)
        c.mapping(spec, ("label", "multiplier"), "tiers", key)
        label = spec["label"]
        if not isinstance(label, str) or not label:
            raise c.fail(f"tiers/{key}/label must be a text", "tiers", key, "label")
        if label in labels:
            raise c.fail(f"label '{label}' is used twice", "tiers", key, "label")
        labels.add(label)
        multiplier = c.number(spec["multiplier"], "tiers", key, "multiplier", positive=True)
        tiers.append(Tier(key, label, multiplier))
    keys = tuple(t.key for t in tiers)

    zipf = c.mapping(top["zipf"], ("thresholds", "below", "no_data"), "zipf")
    raw = c.mapping(zipf["thresholds"], None, "zipf", "thresholds")
    thresholds: list[tuple[Fraction, int]] = []
    for key, value in raw.items():
        tier = c.tier(key, keys, "zipf", "thresholds", key)
        minimum = c.number(value, "zipf", "thresholds", key)
        if thresholds and minimum >= thresholds[-1][0]:
            previous = keys[thresholds[-1][1]]
            raise c.fail(f"zipf thresholds must descend: {key} {value} is not below "
                         f"{previous} {float(thresholds[-1][0]):g}", "zipf", "thresholds", key)
        thresholds.append((minimum, tier))
    below = c.tier(zipf["below"], keys, "zipf", "below")
    no_data = c.tier(zipf["no_data"], keys, "zipf", "no_data")

    short = c.mapping(top["short_words"], ("max_length", "cap"), "short_words")
    short_max = int(c.number(short["max_length"], "short_words", "max_length", integer=True,
                             minimum=0))
    short_cap = c.tier(short["cap"], keys, "short_words", "cap")

    cefr_raw = c.mapping(top["cefr"], LEVELS, "cefr")
    cefr = {level: c.tier(cefr_raw[level], keys, "cefr", level) for level in LEVELS}

    battle = c.mapping(top["battle"], ("upgrade_length", "upgrade_tiers", "gold_rush_tiers"),
                       "battle")
    battle_length = int(c.number(battle["upgrade_length"], "battle", "upgrade_length",
                                 integer=True, minimum=1))
    battle_tiers = int(c.number(battle["upgrade_tiers"], "battle", "upgrade_tiers",
                                integer=True, minimum=0))
    gold_rush = int(c.number(battle["gold_rush_tiers"], "battle", "gold_rush_tiers",
                             integer=True, minimum=0))

    score_keys = ("base_length", "per_letter", "length_bonus", "overdrive", "combo_step",
                  "double", "link", "fortress")
    s = c.mapping(top["score"], score_keys, "score")
    bonus_raw = c.mapping(s["length_bonus"], None, "score", "length_bonus")
    bonus = []
    for length, value in bonus_raw.items():
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise c.fail(f"score/length_bonus: '{length}' is not a number of letters",
                         "score", "length_bonus", length)
        bonus.append((length, c.number(value, "score", "length_bonus", length, minimum=0)))
    score = ScoreRules(
        base_length=int(c.number(s["base_length"], "score", "base_length", integer=True,
                                 minimum=0)),
        per_letter=c.number(s["per_letter"], "score", "per_letter", minimum=0),
        length_bonus=tuple(sorted(bonus, reverse=True)),
        overdrive=c.number(s["overdrive"], "score", "overdrive", positive=True),
        combo_step=c.number(s["combo_step"], "score", "combo_step", minimum=0),
        double=c.number(s["double"], "score", "double", positive=True),
        link=c.number(s["link"], "score", "link", positive=True),
        fortress=c.number(s["fortress"], "score", "fortress", minimum=0),
    )

    t = c.mapping(top["tiles"], ("hand_size", "max_players", "two_sets_from", "letters"),
                  "tiles")
    letters = c.mapping(t["letters"], None, "tiles", "letters")
    points: dict[str, int] = {}
    counts: dict[str, int] = {}
    for letter, spec in letters.items():
        if not (isinstance(letter, str) and len(letter) == 1 and _WORD.fullmatch(letter.lower())):
            raise c.fail(f"tiles/letters: '{letter}' is not a letter a-z", "tiles", "letters",
                         letter)
        if (not isinstance(spec, list) or len(spec) != 2):
            raise c.fail(f"tiles/letters/{letter} must be [points, count]", "tiles", "letters",
                         letter)
        low = letter.lower()
        if low in points:
            raise c.fail(f"letter {letter} is listed twice", "tiles", "letters", letter)
        points[low] = int(c.number(spec[0], "tiles", "letters", letter, integer=True, minimum=0))
        counts[low] = int(c.number(spec[1], "tiles", "letters", letter, integer=True, minimum=0,
                                   maximum=MAX_TILES))
    tiles = TileRules(
        points=dict(sorted(points.items())), counts=dict(sorted(counts.items())),
        hand_size=int(c.number(t["hand_size"], "tiles", "hand_size", integer=True, minimum=1,
                               maximum=MAX_TILES)),
        max_players=int(c.number(t["max_players"], "tiles", "max_players", integer=True,
                                 minimum=1, maximum=MAX_TILES)),
        two_sets_from=int(c.number(t["two_sets_from"], "tiles", "two_sets_from", integer=True,
                                   minimum=1)),
    )
    if sum(counts.values()) < tiles.hand_size:
        raise c.fail("the bag holds fewer tiles than one hand", "tiles", "letters")

    return Rules(tuple(tiers), tuple(thresholds), below, no_data, short_max, short_cap, cefr,
                 battle_length, battle_tiers, gold_rush, score, tiles)


# --------------------------------------------------------------------------- rating

class WordInfo(NamedTuple):
    """One playable word's line of the word table; an empty field is "" (or None)."""

    word: str
    cefr: str | None = None
    lemma: str | None = None
    pos: str | None = None
    gloss: str | None = None


class ZipfLookup(Protocol):
    """Word -> Zipf value: a dict, or one looked up in wordfreq's bands word by word."""

    def get(self, word: str, default: float, /) -> float: ...


@dataclass
class Tables:
    """Everything the rule looks words up in, as plain mappings (``.get`` is all it uses).

    ``words``: the playable words (a word is playable iff it is here) -> their line as a
    :class:`WordInfo` or a plain 5-tuple in its order (word, default CEFR level, lemma, part of
    speech, gloss; empty fields falsy). ``zipf``: word -> Zipf value (missing: no
    data). ``cefr``: the user's CEFR table, which replaces the words' own levels when given.
    ``overrides``: word -> tier key, the article's per-form table; wins over everything.
    ``lemmatize``: lemma of a word the table does not know (None: no lemma step for those).
    """

    words: Mapping[str, WordInfo]
    zipf: ZipfLookup
    cefr: Mapping[str, str] | None = None
    overrides: Mapping[str, str] = field(default_factory=dict)
    lemmatize: Callable[[str], str | None] | None = None


class Rating(NamedTuple):
    """One word's rating (tiers as indexes into ``Rules.tiers``)."""

    word: str
    zipf: float
    cefr: str | None
    tier: int
    source: str
    battle_tier: int
    playable: bool
    cefr_lemma: str | None = None  # the CEFR level came from this lemma
    pos: str | None = None
    gloss: str | None = None


def rate_all(words: Iterable[str], rules: Rules, tables: Tables, *, use_lemma: bool = True,
             gold_rush: bool = False) -> Iterator[Rating]:
    """The article's rule for each normal (lower-case a-z) word, in order.

    override (the form) > CEFR (the form, then its lemma unless ``use_lemma`` is off) > Zipf;
    plus the battle tier. One tight loop: a 100,000-word table is rated in well under a second.
    """
    word_info = tables.words.get
    zipf_of = tables.zipf.get
    user_cefr = tables.cefr.get if tables.cefr is not None else None
    override_of = tables.overrides.get if tables.overrides else None
    lemmatize = tables.lemmatize if use_lemma else None
    tier_of_key = {key: i for i, key in enumerate(rules.keys)}
    tier_of_level = rules.cefr
    zipf_tier = rules.zipf_tier
    tier_cache: tuple[dict[float, int], dict[float, int]] = ({}, {})  # long, short words
    short = rules.short_max_length
    make = tuple.__new__  # Rating(...) without the Python-level __new__: batches are hot
    top = len(rules.tiers) - 1
    battle_length, battle_up = rules.battle_length, rules.battle_tiers
    gold = rules.gold_rush_tiers if gold_rush else 0
    for word in words:
        info = word_info(word)  # (word, cefr, lemma, pos, gloss)
        zipf = zipf_of(word, 0.0)
        lemma = None
        if use_lemma:
            if info is not None:
                lemma = info[2]
            elif lemmatize is not None:
                lemma = lemmatize(word)
            if lemma == word:
                lemma = None
        via = None
        if user_cefr is None:
            level = info[1] if info is not None else None
            if not level and lemma:
                lemma_info = word_info(lemma)
                if lemma_info is not None and lemma_info[1]:
                    level, via = lemma_info[1], lemma
        else:
            level = user_cefr(word)
            if level is None and lemma:
                level = user_cefr(lemma)
                via = lemma if level else None
        override = override_of(word) if override_of is not None else None
        if override is not None:
            tier, source = tier_of_key[override], "override"
        elif level:
            tier, source = tier_of_level[level], "cefr"
        else:
            cache = tier_cache[len(word) <= short]
            cached = cache.get(zipf)
            if cached is None:
                cached = cache[zipf] = zipf_tier(zipf, len(word))
            tier = cached
            source = "zipf"
        up = gold + (battle_up if zipf > 0 and len(word) >= battle_length else 0)
        battle = tier + up if tier + up < top else top
        if info is None:
            yield make(Rating, (word, zipf, level or None, tier, source, battle, False, via,
                                None, None))
        else:
            yield make(Rating, (word, zipf, level or None, tier, source, battle, True, via,
                                info[3] or None, info[4] or None))


def rate(word: str, rules: Rules, tables: Tables, *, use_lemma: bool = True,
         gold_rush: bool = False) -> Rating:
    """One word's rating (see :func:`rate_all`)."""
    return next(rate_all((word,), rules, tables, use_lemma=use_lemma, gold_rush=gold_rush))


def number(value: Fraction) -> int | float:
    """A multiplier for JSON: 1 stays 1, 3/2 becomes 1.5."""
    return value.numerator if value.denominator == 1 else float(value)


def record(rating: Rating, rules: Rules) -> dict[str, Any]:
    """One row of a rarity table; the first nine fields are the issue's, in its order."""
    tier = rules.tiers[rating.tier]
    return {
        "word": rating.word,
        "zipf": rating.zipf,
        "cefr": rating.cefr,
        "rarity": tier.key,
        "label": tier.label,
        "multiplier": number(tier.multiplier),
        "source": rating.source,
        "battle_rarity": rules.tiers[rating.battle_tier].key,
        "playable": rating.playable,
        "cefr_lemma": rating.cefr_lemma,
        "pos": rating.pos,
        "gloss": rating.gloss,
    }


def rate_words(words: Iterable[str], rules: Rules, tables: Tables, *, use_lemma: bool = True,
               gold_rush: bool = False) -> Iterator[dict[str, Any]]:
    """Records of a rarity table for normal words, in order (for pack builders too)."""
    for rating in rate_all(words, rules, tables, use_lemma=use_lemma, gold_rush=gold_rush):
        yield record(rating, rules)


class Summary:
    """Counts of a rarity table: per tier, per deciding rule, not playable (no timings); the
    statistics protocol of :mod:`wordforge_cli.core.engine` (``add``, ``merge``,
    ``to_state``/``from_state``, ``summary``), so shards of a table merge exactly."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self._counts: dict[tuple[int, int, str, bool, bool], int] = {}

    def add(self, rating: Rating, count: int = 1) -> None:
        """Count ``rating`` (``count`` times: merging the counts of shards is exact)."""
        # (by position: a batch adds every word, and a NamedTuple's names cost more)
        key = (rating[3], rating[5], rating[4], rating[6],
               rating[7] is not None and rating[4] == "cefr")
        self._counts[key] = self._counts.get(key, 0) + count

    def fail(self, count: int = 1) -> None:
        """Every word gets a tier: a rating never runs out of budget."""
        if count:
            raise ValueError("a rarity table has no failed words")

    def merge(self, other: Summary) -> Summary:
        for key, n in other._counts.items():
            self._counts[key] = self._counts.get(key, 0) + n
        return self

    def to_state(self) -> dict[str, Any]:
        """The counts as JSON-ready data (``from_state`` restores them exactly)."""
        return {"keys": [[list(k), n] for k, n in sorted(self._counts.items())]}

    @classmethod
    def from_state(cls, state: dict[str, Any], rules: Rules) -> Summary:
        summary = cls(rules)
        summary._counts = {tuple(k): n for k, n in state["keys"]}
        return summary

    def summary(self) -> dict[str, Any]:
        keys = self.rules.keys
        tiers = dict.fromkeys(keys, 0)
        battle = dict.fromkeys(keys, 0)
        sources = dict.fromkeys(SOURCES, 0)
        words = via_lemma = not_playable = 0
        for (tier, battle_tier, source, playable, via), n in self._counts.items():
            words += n
            tiers[keys[tier]] += n
            battle[keys[battle_tier]] += n
            sources[source] += n
            via_lemma += n if via else 0
            not_playable += 0 if playable else n
        return {"words": words, "tiers": tiers, "battle_tiers": battle, "sources": sources,
                "cefr_via_lemma": via_lemma, "not_playable": not_playable}


def compare_record(mine: Mapping[str, Any], other: Mapping[str, Any],
                   rules: Rules, other_rules: Rules) -> dict[str, Any] | None:
    """How one word moves between two configs (None when neither tier changes).

    ``direction`` compares tier positions: up, down, or ``same`` (only the battle tier moved).
    """
    if (mine["rarity"], mine["battle_rarity"]) == (other["rarity"], other["battle_rarity"]):
        return None
    a = rules.index(mine["rarity"])
    b = other_rules.index(other["rarity"]) if other["rarity"] in other_rules.keys else a
    direction = "up" if b > a else "down" if b < a else "same"
    return {
        "word": mine["word"], "zipf": mine["zipf"], "cefr": mine["cefr"],
        "rarity": mine["rarity"], "other_rarity": other["rarity"],
        "battle_rarity": mine["battle_rarity"], "other_battle_rarity": other["battle_rarity"],
        "source": mine["source"], "other_source": other["source"], "direction": direction,
    }


# --------------------------------------------------------------------------- score

@dataclass(frozen=True)
class Play:
    """The circumstances of one play (power-ups and carried state)."""

    combo: int = 0
    double: bool = False
    link: bool = False
    overdrive: bool = False
    fortress: bool = False
    wild: tuple[int, ...] = ()  # 0-based positions played with a wild tile


@dataclass(frozen=True)
class Score:
    word: str
    tiles: tuple[tuple[str, int, bool], ...]  # (letter, points, wild)
    tile_sum: int
    length_term: Fraction
    base: Fraction
    length_bonus: Fraction
    subtotal: Fraction
    tier: int
    multipliers: tuple[tuple[str, Fraction], ...]  # (name, factor), rarity first
    product: Fraction
    score: int


def length_bonus(length: int, rules: ScoreRules) -> Fraction:
    for minimum, bonus in rules.length_bonus:
        if length >= minimum:
            return bonus
    return Fraction(0)


def score_word(word: str, tier: int, rules: Rules, play: Play = Play()) -> Score:
    """floor((max(0, tiles + (n - 3) x 2) + length bonus) x rarity x combo x others)."""
    sr = rules.score
    wild = set(play.wild)
    tiles = tuple((ch, 0 if i in wild else rules.tiles.points.get(ch, 0), i in wild)
                  for i, ch in enumerate(word))
    tile_sum = sum(points for _, points, _ in tiles)
    length_term = (len(word) - sr.base_length) * sr.per_letter
    base = max(Fraction(0), tile_sum + length_term)
    bonus = length_bonus(len(word), sr)
    if play.overdrive:
        bonus *= sr.overdrive
    subtotal = base + bonus
    multipliers: list[tuple[str, Fraction]] = [("rarity", rules.tiers[tier].multiplier),
                                               ("combo", 1 + play.combo * sr.combo_step)]
    if play.double:
        multipliers.append(("double", sr.double))
    if play.link:
        multipliers.append(("link", sr.link))
    if play.fortress:
        multipliers.append(("fortress", sr.fortress))
    product = subtotal
    for _, factor in multipliers:
        product *= factor
    return Score(word, tiles, tile_sum, length_term, base, bonus, subtotal, tier,
                 tuple(multipliers), product, math.floor(product))


def decimal_text(value: Fraction) -> str:
    """An exact decimal for a fraction of decimals (47, 94.6); other fractions as a/b."""
    if value.denominator == 1:
        return str(value.numerator)
    for places in range(1, 40):
        scaled = value * 10**places
        if scaled.denominator == 1:
            sign = "-" if scaled < 0 else ""
            digits = str(abs(scaled.numerator)).rjust(places + 1, "0")
            return f"{sign}{digits[:-places]}.{digits[-places:]}"
    return f"{value.numerator}/{value.denominator}"


def turn_plays(words: list[str], playable: list[bool], *, combo: int = 0,
               link: bool = False) -> list[tuple[int, bool]]:
    """Combo and link of each of one player's successive words.

    A word longer than the player's previous played word adds one to the combo; the same length
    or shorter resets it, and so does an unplayable word (which scores nothing and is not a
    "previous word" for the next turn). Link: same first letter as the previous played word.
    The first word gets ``combo`` and ``link`` as given (the turns before it are unknown).
    """
    states: list[tuple[int, bool]] = []
    previous: str | None = None
    counter = combo
    for index, (word, ok) in enumerate(zip(words, playable, strict=True)):
        if not ok:
            counter = 0
            states.append((0, False))
            continue
        if index == 0 or previous is None:
            this_combo, this_link = (counter, link) if index == 0 else (0, False)
        else:
            this_combo = counter + 1 if len(word) > len(previous) else 0
            this_link = word[0] == previous[0]
        counter = this_combo
        previous = word
        states.append((this_combo, this_link))
    return states


# --------------------------------------------------------------------------- tiles

def shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same draws and order. For a plain ``random.Random`` its
    loop runs here with ``_randbelow`` written in (a game's deal is a good share of a
    simulated game's time); any other generator shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1  # (Random._randbelow_with_getrandbits(n), as the standard library has it)
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def tile_bag(rules: TileRules, players: int) -> list[str]:
    """The bag for ``players`` players, in letter order (one set, or two from 3 players)."""
    sets = 2 if players >= rules.two_sets_from else 1
    return [letter for letter, count in rules.counts.items() for _ in range(count * sets)]


@dataclass(frozen=True)
class Deal:
    players: int
    sets: int
    hands: tuple[str, ...]
    bag: str  # the tiles left, in draw order


def deal(rules: TileRules, players: int, rng: random.Random) -> Deal:
    """Shuffle the bag with ``rng`` and give each player the next ``hand_size`` tiles."""
    bag = tile_bag(rules, players)
    shuffle(bag, rng)
    size = rules.hand_size
    hands = tuple("".join(bag[p * size:(p + 1) * size]) for p in range(players))
    sets = 2 if players >= rules.two_sets_from else 1
    return Deal(players, sets, hands, "".join(bag[players * size:]))


def hand_cover(hand: str, word: str) -> tuple[tuple[int, ...], int]:
    """Positions of ``word`` the hand's letters cannot cover, and the hand's wild tiles.

    ``hand`` and ``word`` are lower-case; ``?`` is a wild tile. The word can be made iff there
    are no more uncovered positions than wilds. A short letter's wilds go on its last
    occurrences.
    """
    have: dict[str, int] = {}
    for ch in hand:
        have[ch] = have.get(ch, 0) + 1
    wilds = have.pop(WILD, 0)
    short: dict[str, int] = {}
    for ch in word:
        if have.get(ch, 0) > 0:
            have[ch] -= 1
        else:
            short[ch] = short.get(ch, 0) + 1
    positions: list[int] = []
    for letter, count in short.items():
        occurrences = [i for i, ch in enumerate(word) if ch == letter]
        positions.extend(occurrences[-count:])
    return tuple(sorted(positions)), wilds
