"""What a WordForge hand can make: an exact search for its highest-scoring playable words.

The index holds the playable words no longer than the hand, sorted by their plain score (battle
rules, no power-ups, no wild tile): best first, ties by word. For each letter and count k it
keeps one big-int bitset, bit set for the words holding that letter more than k times. A hand's
unplayable words are then one OR of 26 bitsets (a few microseconds each, in C), and its best
word is the highest set bit of what is left; wild tiles add a small saturating counter over
the same bitsets (a word is made when its missing letters number no more than the wilds).

Scores always come from :func:`wordforge_cli.wordforge.rarity.score_word` (the code behind
``wfkit score``); a score depends only on (tile points, letters, tier, play), so each such
group is scored once, on its first word, and looked up after.

Pure: plain data in, plain data out; no files, no printing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from wordforge_cli.wordforge.rarity import (
    WILD,
    Play,
    Rating,
    Rules,
    Tables,
    hand_cover,
    rate_all,
    score_word,
)

_PLAIN = Play()
COMMON_LETTERS = 8  # letters that do not split the index into buckets
# translate tables: a count byte -> b"1" when it is above k, else b"0"
_LEVEL = [bytes(0x31 if v > k else 0x30 for v in range(256)) for k in range(256)]


@dataclass(frozen=True)
class Best:
    """One word a hand can make, with the score ``wfkit tiles --hand H --word W`` gives."""

    word: str
    score: int
    tier: int                      # battle tier (index into Rules.tiers)
    wild: tuple[int, ...] = ()     # 0-based positions played with a wild tile


@dataclass(frozen=True)
class Segment:
    """One bucket of the index: the words with the same uncommon letters (``ids``, ascending
    global indexes), with their own bitsets (bit ``len(ids) - 1 - j`` is ``ids[j]``)."""

    ids: tuple[int, ...]
    exceed: dict[str, tuple[int, ...]]  # letter -> [k] = words with that letter > k times
    all: int

    def makeable(self, have: dict[str, int], wilds: int) -> int:
        exceed = self.exceed
        if not wilds:
            bad = 0
            for letter, levels in exceed.items():
                k = have.get(letter, 0)
                if k < len(levels):
                    bad |= levels[k]
            return self.all & ~bad
        # missing letters counted per word, saturating at wilds + 1
        top = wilds + 1
        levels_at = [0] * (top + 1)  # levels_at[j]: words missing at least j letters
        levels_at[0] = self.all
        for letter, levels in exceed.items():
            k = have.get(letter, 0)
            for extra in range(k, min(k + top, len(levels))):
                term = levels[extra]
                for j in range(top, 0, -1):
                    levels_at[j] |= levels_at[j - 1] & term
        return self.all & ~levels_at[top]


def _bits(bits: int, ids: tuple[int, ...]) -> Iterator[int]:
    last = len(ids) - 1
    while bits:
        b = bits.bit_length() - 1
        bits ^= 1 << b
        yield ids[last - b]


def _have(hand: str) -> tuple[dict[str, int], int]:
    have: dict[str, int] = {}
    for ch in hand:
        have[ch] = have.get(ch, 0) + 1
    return have, have.pop(WILD, 0)


@dataclass
class HandIndex:
    """Playable words of at most ``max_length`` letters, best plain score first.

    The words are filed in buckets by their set of *uncommon* letters (all but the eight
    commonest of the table): a hand can only make the words of the buckets whose letter set
    is within its own, a few buckets of a few thousand words, so a search ORs bitsets over
    those instead of over the whole table.
    """

    rules: Rules
    max_length: int
    words: tuple[str, ...]
    ratings: tuple[Rating, ...]
    scores: tuple[int, ...]            # plain score (no power-up, no wild)
    products: tuple[Fraction, ...]     # the exact product before floor
    buckets: dict[int, Segment]        # uncommon-letter mask -> its words
    uncommon: dict[str, int]           # uncommon letter -> its bit in a bucket mask
    whole: Segment                     # every word in one bucket (for hands with wilds)
    tile_sums: tuple[int, ...] = ()
    gold_rush: bool = False
    # ("whole", id(mask)) -> its bitset, or a play's score key -> (score, product)
    _cache: dict[tuple[object, ...], tuple[int, Fraction]] = field(default_factory=dict,
                                                                   repr=False)

    def __len__(self) -> int:
        return len(self.words)

    # ---- masks -------------------------------------------------------------------------
    def mask(self, keep: Callable[[Rating], bool]) -> dict[int, int]:
        """Per bucket, the bitset of the words ``keep`` accepts (a player's vocabulary)."""
        out = {}
        ratings = self.ratings
        for key, seg in self.buckets.items():
            text = bytes(0x31 if keep(ratings[i]) else 0x30 for i in seg.ids)
            out[key] = int(text, 2)
        return out

    def mask_whole(self, mask: dict[int, int]) -> int:
        """A per-bucket mask as one bitset over every word."""
        key = ("whole", id(mask))
        if key not in self._cache:
            keep: set[int] = set()
            for k, seg in self.buckets.items():
                keep.update(i for i in _bits(mask[k], seg.ids))
            text = bytes(0x31 if i in keep else 0x30 for i in range(len(self.words)))
            self._cache[key] = (int(text, 2), Fraction(0))
        return self._cache[key][0]

    def candidates(self, hand: str, mask: dict[int, int] | None = None) -> Iterator[int]:
        """Indexes of the words ``hand`` (lower-case, ``?`` wild) can make, best plain score
        first, computed bucket by bucket as the caller reads on."""
        import heapq

        streams = list(self.streams(hand, mask))
        if len(streams) == 1:
            return streams[0]
        return heapq.merge(*streams)

    def reachable(self, hand: str) -> list[int]:
        """Keys of the buckets a hand without wilds can make words of, best bucket first
        (by the plain score of its best word)."""
        keys = self._bucket_keys(hand)
        keys.sort(key=lambda k: self.buckets[k].ids[0])
        return keys

    def _bucket_keys(self, letters: Iterable[str]) -> list[int]:
        """Keys of the buckets whose uncommon letters the given letters all hold: every subset
        of their uncommon-letter mask that has a bucket, in descending mask order."""
        uncommon, buckets = self.uncommon, self.buckets
        h = 0
        for ch in letters:
            h |= uncommon.get(ch, 0)
        keys = []
        sub = h
        while True:  # every subset of the hand's uncommon letters
            if sub in buckets:
                keys.append(sub)
            if not sub:
                break
            sub = (sub - 1) & h
        return keys

    def streams(self, hand: str, mask: dict[int, int] | None = None) -> Iterator[Iterator[int]]:
        """Per bucket the hand can reach, its makeable words best first (lazy)."""
        have, wilds = _have(hand)
        buckets = self.buckets
        if wilds:  # a wild can stand for any uncommon letter: one pass over every word
            bits = self.whole.makeable(have, wilds)
            if mask is not None:
                bits &= self.mask_whole(mask)
            yield _bits(bits, self.whole.ids)
            return
        for key in self._bucket_keys(have):
            seg = buckets[key]
            bits = seg.makeable(have, wilds)
            if mask is not None:
                bits &= mask[key]
            if bits:
                yield _bits(bits, seg.ids)

    # ---- scores ------------------------------------------------------------------------
    def score(self, i: int, play: Play = _PLAIN,
              tier: int | None = None) -> tuple[int, Fraction]:
        """(score, exact product) of word ``i`` under ``play`` (tier: its battle tier)."""
        word = self.words[i]
        tier = self.ratings[i].battle_tier if tier is None else tier
        if play.wild:
            points = self.rules.tiles.points
            wild = set(play.wild)
            tile_sum = sum(points.get(ch, 0) for p, ch in enumerate(word) if p not in wild)
        else:
            tile_sum = self.tile_sums[i]
        key = (tile_sum, len(word), tier, play.combo, play.double, play.link, play.overdrive,
               play.fortress)
        hit = self._cache.get(key)
        if hit is None:
            result = score_word(word, tier, self.rules, play)
            hit = self._cache[key] = (result.score, result.product)
        return hit

    def best(self, hand: str, k: int = 10,
             mask: dict[int, int] | None = None) -> list[Best]:
        """The ``k`` highest-scoring words ``hand`` can make (score, then word), exact.

        Words come in plain-score order; a wild tile only lowers a word's score, so once the
        plain score of the next word is below the k-th best found, nothing later can enter.
        """
        wilds = hand.count(WILD)
        found: list[tuple[int, str, int, tuple[int, ...]]] = []
        floor_score = -1
        for i in self.candidates(hand, mask):
            if len(found) >= k and self.scores[i] < floor_score:
                break
            word = self.words[i]
            positions: tuple[int, ...] = ()
            score = self.scores[i]
            if wilds:
                positions, _ = hand_cover(hand, word)
                if positions:
                    score = self.score(i, Play(wild=positions))[0]
            found.append((-score, word, i, positions))
            if len(found) >= k:
                found.sort()
                del found[k:]
                floor_score = -found[-1][0]
        found.sort()
        return [Best(w, -s, self.ratings[i].battle_tier, pos) for s, w, i, pos in found[:k]]


def build_index(rules: Rules, tables: Tables, max_length: int, *, use_lemma: bool = True,
                gold_rush: bool = False, words: Iterable[str] | None = None) -> HandIndex:
    """The index of the playable words of at most ``max_length`` letters.

    ``words``: the candidates (default: every word of ``tables.words``, which must then be a
    whole table, not one searched in place).
    """
    source: Iterable[str] = tables.words if words is None else words
    short = [w for w in source if len(w) <= max_length and tables.words.get(w) is not None]
    ratings = [r for r in rate_all(short, rules, tables, use_lemma=use_lemma,
                                   gold_rush=gold_rush) if r.playable]
    points = rules.tiles.points
    words_in = [r.word for r in ratings]
    # per-word figures through str.translate over one joined text (C loops, not Python ones)
    joined = "\n".join(words_in)
    sums = _lengths(joined.translate({ord(ch): "x" * p for ch, p in points.items()}),
                    "abcdefghijklmnopqrstuvwxyz", points)
    groups: dict[tuple[int, int, int], tuple[int, Fraction]] = {}
    keys = list(zip(sums, map(len, words_in), (r.battle_tier for r in ratings), strict=True))
    for key, r in zip(keys, ratings, strict=True):
        if key not in groups:
            result = score_word(r.word, r.battle_tier, rules, Play())
            groups[key] = (result.score, result.product)
    # groups ranked once (a few thousand exact comparisons), words then sorted by plain ints
    rank = {key: n for n, key in enumerate(sorted(groups, key=lambda g: -groups[g][1]))}
    ranks = [rank[key] for key in keys]
    order = sorted(range(len(ratings)), key=lambda i: (ranks[i], words_in[i]))
    ordered = tuple(ratings[i] for i in order)
    words_sorted = tuple(words_in[i] for i in order)
    scores = tuple(groups[keys[i]][0] for i in order)
    products = tuple(groups[keys[i]][1] for i in order)
    # the eight commonest letters of the table file nothing; the others name the buckets
    joined = "\n".join(words_sorted)
    letters = sorted(set(joined) - {"\n"}, key=lambda ch: (-joined.count(ch), ch))
    uncommon = {ch: 1 << n for n, ch in enumerate(sorted(letters[COMMON_LETTERS:]))}
    masks = [0] * len(words_sorted)
    for ch, bit in uncommon.items():
        has = joined.translate(_only(ch)).split("\n")
        for i, text in enumerate(has):
            if text:
                masks[i] |= bit
    members: dict[int, list[int]] = {}
    for i, bucket in enumerate(masks):
        members.setdefault(bucket, []).append(i)
    buckets = {}
    for bucket in sorted(members):
        ids = tuple(members[bucket])
        text = "\n".join(words_sorted[i] for i in ids)
        exceed: dict[str, tuple[int, ...]] = {}
        for letter in sorted(set(text) - {"\n"}):
            column = bytes(map(len, text.translate(_only(letter)).split("\n")))
            exceed[letter] = tuple(int(column.translate(_LEVEL[k]), 2)
                                   for k in range(max(column)))
        buckets[bucket] = Segment(ids, exceed, (1 << len(ids)) - 1)
    whole: dict[str, tuple[int, ...]] = {}
    for letter in letters:
        column = bytes(map(len, joined.translate(_only(letter)).split("\n")))
        whole[letter] = tuple(int(column.translate(_LEVEL[k]), 2) for k in range(max(column)))
    sums_sorted = tuple(sums[i] for i in order)
    return HandIndex(rules, max_length, words_sorted, ordered, scores, products, buckets,
                     uncommon, Segment(tuple(range(len(words_sorted))), whole,
                                       (1 << len(words_sorted)) - 1), sums_sorted, gold_rush)


def _lengths(text: str, letters: str, points: dict[str, int]) -> list[int]:
    """Lengths of the lines of ``text`` once its unpointed letters are dropped."""
    drop = {ord(ch): None for ch in letters if ch not in points}
    return list(map(len, text.translate(drop).split("\n"))) if text else []


_ONLY: dict[str, dict[int, int | None]] = {}


def _only(letter: str) -> dict[int, int | None]:
    """A translate table keeping ``letter`` and newlines, dropping every other a-z letter."""
    if letter not in _ONLY:
        _ONLY[letter] = {ord(ch): None for ch in "abcdefghijklmnopqrstuvwxyz" if ch != letter}
    return _ONLY[letter]


def brute_best(hand: str, k: int, candidates: Sequence[tuple[str, int]], rules: Rules,
               mask: Callable[[str], bool] | None = None) -> list[Best]:
    """The reference answer: score every candidate (word, battle tier) the hand can make."""
    found = []
    for word, tier in candidates:
        if mask is not None and not mask(word):
            continue
        positions, wilds = hand_cover(hand, word)
        if len(positions) > wilds:
            continue
        score = score_word(word, tier, rules, Play(wild=positions)).score
        found.append((-score, word, tier, positions))
    found.sort()
    return [Best(w, -s, t, p) for s, w, t, p in found[:k]]


def best_record(hand: str, rank: int, best: Best, rules: Rules) -> dict[str, Any]:
    """One line of ``wfkit tiles --best --json``."""
    tier = rules.tiers[best.tier]
    return {"hand": hand.upper(), "rank": rank, "word": best.word, "score": best.score,
            "rarity": tier.key, "label": tier.label, "letters": len(best.word),
            "wild_positions": [p + 1 for p in best.wild]}
