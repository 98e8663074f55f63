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

Simulated games ask one best word a turn, millions of times: :class:`HandFilter` answers
"which words can this hand nearly make" with one AND per group of five letters (the bitset of
a group's letter counts, capped at 2, made on first use), over the best part of the index
first; ``balance.Turns`` reads it.

Pure: plain data in, plain data out; no files, no printing.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, compress, repeat
from operator import and_, itemgetter, rshift
from typing import Any, overload

from wordforge_cli.wordforge.rarity import (
    LEVELS,
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
            # (bad is within all: XOR of two positive ints, not AND-NOT, which copies
            # a negative number of the index's width)
            return self.all ^ (bad & self.all)
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
        return self.all ^ (levels_at[top] & self.all)


def every_word(rating: Rating) -> bool:
    """The vocabulary of a player who knows every word (a mask of it asks no rating)."""
    return True


def _bits(bits: int, ids: Sequence[int]) -> Iterator[int]:
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


GROUP_LETTERS = 5   # letters per table of a HandFilter (3**5 keys at most)
COUNT_BITS = 4      # a letter's count in a hand's code (hands of up to 15 tiles: 4 bits)
TABLE_BITS = 2**28  # a HandFilter keeps at most this many bits of tables (32 MB), then makes
FIRST_PART = 0.4    # the share of the index (best first) a search ANDs before the rest
SPLIT_FROM = 20_000  # words from which a filter is read in two parts
_BINARY = bytes.maketrans(b"01", b"\0\1")


class _Table(dict[int, int]):
    """One group's bitsets by key, each made on first use and kept while its filter has
    room (after that made again when asked: slower, never different)."""

    def __init__(self, make: Callable[[int], int], room: list[int]):
        super().__init__()
        self._make = make
        self._room = room  # bits still to keep, shared by a filter's tables

    def __missing__(self, key: int) -> int:
        bits = self._make(key)
        if self._room[0] > 0:
            self._room[0] -= bits.bit_length() or 1
            self[key] = bits
        return bits


@dataclass(frozen=True)
class Part:
    """The words ``lo <= i < hi`` of an index: bit ``hi - 1 - i`` of a part's bitset is
    word ``i``; ``tables[g][key]``: group g's bitset for a hand's key."""

    lo: int
    hi: int
    tables: tuple[_Table, ...]


def _masked(table: _Table, mask: int) -> Callable[[int], int]:
    """What makes a table's bitset of a key cut to ``mask``."""
    return lambda key: table[key] & mask


class HandFilter:
    """The words of an index a hand can nearly make, as bitsets over the index in order
    (best plain score first), in two parts: the first ``FIRST_PART`` of the words, then the
    rest, which a search reads only when the first part cannot settle it.

    The letters are split in groups of ``GROUP_LETTERS`` (by their count in the tile bag,
    most first, so the keys of a group repeat). A group's key is the hand's count of each of
    its letters capped at 2; its bitset holds the words with none of the group's letters the
    hand lacks and at most one of each it holds once. A hand's words are then one AND per
    group (five for 26 letters) instead of one OR per letter and count. What the cap at 2
    leaves (a word holding a letter three times or more, the hand two or more) is checked
    per word by :meth:`fits`, on the few words a search reads.
    """

    def __init__(self, words: Sequence[str], exceed: Mapping[str, Sequence[int]],
                 bag: Mapping[str, int], ids: Sequence[int] | None = None) -> None:
        """A filter of ``words`` (in index order), ``exceed`` their bitsets by letter as a
        :class:`Segment` keeps them (at least levels 0-2), ``bag`` the tile counts (which
        letters a hand holds often); ``ids``: the words' places in the whole index when
        they are a part of it (None: they are the whole index)."""
        n = len(words)
        self.words = words
        self.ids = ids
        self.size = n
        self.full = (1 << n) - 1
        letters = sorted(exceed, key=lambda ch: (-bag.get(ch, 0), ch))
        groups = [letters[i:i + GROUP_LETTERS] for i in range(0, len(letters), GROUP_LETTERS)]
        if len(groups) > 1 and len(groups[-1]) < 3:
            groups[-2:] = [groups[-2] + groups[-1]]
        self.groups = groups
        # a hand's code: COUNT_BITS per letter, in group order; group g from bit shift[g]
        self.weight: dict[str, int] = {ch: 0 for ch in (WILD, *bag)}
        self.shift: list[int] = []
        self.width: list[int] = []
        at = 0
        for group in groups:
            self.shift.append(at)
            self.width.append((1 << COUNT_BITS * len(group)) - 1)
            for ch in group:
                self.weight[ch] = 1 << at
                at += COUNT_BITS
        self._ones = sum(1 << b for b in range(0, at, COUNT_BITS))
        self._room = [TABLE_BITS]
        cut = int(n * FIRST_PART) if n >= SPLIT_FROM else 0
        self.cuts = [(0, cut), (cut, n)] if 0 < cut < n else [(0, n)]
        self.parts = tuple(Part(lo, hi, tuple(_Table(self._maker(exceed, group, lo, hi),
                                                     self._room) for group in groups))
                           for lo, hi in self.cuts)
        # the words holding some letter three times or more: those fits() has to read
        triple = 0
        for levels in exceed.values():
            if len(levels) > 2:
                triple |= levels[2]
        self.triple = f"{triple:0{n}b}".encode("ascii").translate(_BINARY) if n else b""
        self._repeats: dict[int, tuple[tuple[str, int], ...]] = {}

    @classmethod
    def of(cls, index: HandIndex) -> HandFilter:
        """The filter of every word of ``index``."""
        return cls(index.words, index.whole.exceed, index.rules.tiles.counts)

    @classmethod
    def shorter(cls, index: HandIndex, longest: int) -> HandFilter:
        """The filter of the words of ``index`` no longer than ``longest`` letters (what a
        hand of that many tiles can make), in index order."""
        ids = tuple(compress(range(len(index.words)), map(longest.__ge__,
                                                          map(len, index.words))))
        words = [index.words[i] for i in ids]
        return cls(words, _letter_levels(words, 3), index.rules.tiles.counts, ids)

    def narrow(self, whole: int, n: int) -> int:
        """A bitset over the whole index (``n`` words, bit ``n - 1 - i``: word i) cut to this
        filter's words, in its order."""
        if self.ids is None:
            return whole
        if not self.ids:
            return 0
        bits = f"{whole:0{n}b}"
        return int("".join(itemgetter(*self.ids)(bits)) if len(self.ids) > 1
                   else bits[self.ids[0]], 2)

    def _maker(self, exceed: Mapping[str, Sequence[int]], group: list[str], lo: int,
               hi: int) -> Callable[[int], int]:
        """What makes group ``group``'s bitset of a key, over the words ``lo..hi``."""
        n, width = self.size, hi - lo
        full = (1 << width) - 1
        levels = [[level >> (n - hi) & full for level in exceed[ch][:2]] for ch in group]

        def make(key: int) -> int:
            bad = 0
            for j, counts in enumerate(levels):
                held = key >> COUNT_BITS * j & 3  # 0, 1, or 2 (two or more)
                if held < len(counts):  # (held 2: no word is cut here)
                    bad |= counts[held]  # the words with more of the letter than held
            return full ^ bad

        return make

    def known(self, mask: int) -> tuple[Part, ...]:
        """The parts with a player's vocabulary (a bitset over the index, bit ``n - 1 - i``
        word i) folded into each part's first table."""
        out = []
        for part in self.parts:
            mine = mask >> (self.size - part.hi) & ((1 << (part.hi - part.lo)) - 1)
            out.append(Part(part.lo, part.hi, (_Table(_masked(part.tables[0], mine),
                                                      self._room), *part.tables[1:])))
        return tuple(out)

    def keys(self, hand: str) -> list[int]:
        """Per group, the hand's key (its count of each letter of the group, capped at 2)."""
        weight = self.weight
        if len(hand) < 1 << COUNT_BITS:
            try:
                code = sum(map(weight.__getitem__, hand))
            except KeyError:  # a tile no word or bag holds: it counts for nothing
                code = sum(weight.get(ch, 0) for ch in hand)
            ones = self._ones
            low = code & ones
            two = (code >> 1 | code >> 2 | code >> 3) & ones  # (COUNT_BITS = 4)
            code = low ^ (low & two) | two << 1
        else:  # a hand too long for the packed counts
            code = 0
            for ch in set(hand):
                if weight.get(ch):
                    code |= min(hand.count(ch), 2) * weight[ch]
        return list(map(and_, map(rshift, repeat(code), self.shift), self.width))

    def fits(self, i: int, hand: str) -> bool:
        """Does the hand hold each letter word ``i`` has three times or more as often (what
        the tables leave to check: they let a hand holding a letter twice through)?"""
        if not self.triple[i]:
            return True
        repeats = self._repeats.get(i)
        if repeats is None:
            word = self.words[i]
            repeats = self._repeats[i] = tuple(
                (ch, c) for ch in dict.fromkeys(word) if (c := word.count(ch)) > 2)
        return all(hand.count(ch) >= c for ch, c in repeats)


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
    ratings: Sequence[Rating]
    scores: Sequence[int]              # plain score (no power-up, no wild)
    products: Sequence[Fraction]       # the exact product before floor
    buckets: Mapping[int, Segment]     # uncommon-letter mask -> its words
    uncommon: dict[str, int]           # uncommon letter -> its bit in a bucket mask
    whole: Segment                     # every word in one bucket (for hands with wilds)
    tile_sums: Sequence[int] = ()
    gold_rush: bool = False
    tiers: Sequence[int] = ()          # each word's battle tier (its rating's), for searches
    # a play's score key -> (score, product)
    _cache: dict[tuple[object, ...], tuple[int, Fraction]] = field(default_factory=dict,
                                                                   repr=False, compare=False)
    # id(mask) -> (the mask, its bitset over the whole index)
    _wholes: dict[int, tuple[dict[int, int], int]] = field(default_factory=dict, repr=False,
                                                           compare=False)

    def __len__(self) -> int:
        return len(self.words)

    # ---- masks -------------------------------------------------------------------------
    def mask(self, keep: Callable[[Rating], bool]) -> dict[int, int]:
        """Per bucket, the bitset of the words ``keep`` accepts (a player's vocabulary).

        ``keep`` is asked once a word, in index order; :func:`every_word` is not asked (nor
        are the ratings made). The mask's bitset over the whole index is kept beside it
        (:meth:`mask_whole`)."""
        n = len(self.words)
        out = {}
        if keep is every_word:
            whole = (1 << n) - 1
            buckets = self.buckets
            sizes = (buckets.sizes() if isinstance(buckets, _StoredBuckets)
                     else {key: len(seg.ids) for key, seg in buckets.items()})
            for key, size in sizes.items():
                out[key] = (1 << size) - 1
        else:
            flags = bytes(0x31 if keep(r) else 0x30 for r in self.ratings)
            whole = int(flags, 2) if n else 0
            for key, ids in self._bucket_ids():
                # bit (len(ids) - 1 - j) is ids[j], as in the bucket's own bitsets
                picked = itemgetter(*ids)(flags) if len(ids) > 1 else (flags[ids[0]],)
                out[key] = int(bytes(picked), 2)
        self._wholes[id(out)] = (out, whole)
        return out

    def mask_whole(self, mask: dict[int, int]) -> int:
        """A per-bucket mask as one bitset over every word (bit ``n - 1 - i``: word i), kept
        with the mask itself, so a mask freed and its id reused is never mistaken for it."""
        hit = self._wholes.get(id(mask))
        if hit is None or hit[0] is not mask:
            text = bytearray(b"0" * len(self.words))
            for key, ids in self._bucket_ids():
                for i in _bits(mask[key], ids):
                    text[i] = 0x31
            hit = self._wholes[id(mask)] = (mask, int(text, 2) if text else 0)
        return hit[1]

    def _bucket_ids(self) -> Iterator[tuple[int, Sequence[int]]]:
        """Each bucket's key and word ids, in bucket order (a stored index's bitsets are not
        read for it)."""
        buckets = self.buckets
        if isinstance(buckets, _StoredBuckets):
            for key in buckets:
                yield key, buckets.ids(key)
        else:
            for key, seg in buckets.items():
                yield key, seg.ids

    def candidates(self, hand: str, mask: dict[int, int] | None = None) -> Iterator[int]:
        """Indexes of the words ``hand`` (lower-case, ``?`` wild) can make, best plain score
        first, computed bucket by bucket as the caller reads on."""
        import heapq

        streams = list(self.streams(hand, mask))
        if len(streams) == 1:
            return streams[0]
        return heapq.merge(*streams)

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
        tier = self.tiers[i] if tier is None else tier
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
        return [Best(w, -s, self.tiers[i], pos) for s, w, i, pos in found[:k]]


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
                                       (1 << len(words_sorted)) - 1), sums_sorted, gold_rush,
                     tuple(r.battle_tier for r in ordered))


def _lengths(text: str, letters: str, points: dict[str, int]) -> list[int]:
    """Lengths of the lines of ``text`` once its unpointed letters are dropped."""
    drop = {ord(ch): None for ch in letters if ch not in points}
    return list(map(len, text.translate(drop).split("\n"))) if text else []


def _letter_levels(words: Sequence[str], most: int) -> dict[str, tuple[int, ...]]:
    """Per letter of ``words``, as a :class:`Segment`'s ``exceed`` (bit ``len - 1 - j`` is
    word j): [k] = the words holding the letter more than k times, for k < ``most``."""
    joined = "\n".join(words)
    out: dict[str, tuple[int, ...]] = {}
    for letter in sorted(set(joined) - {"\n"}):
        column = bytes(map(len, joined.translate(_only(letter)).split("\n")))
        out[letter] = tuple(int(column.translate(_LEVEL[k]), 2)
                            for k in range(min(max(column), most)))
    return out


_ONLY: dict[str, dict[int, int | None]] = {}


def _only(letter: str) -> dict[int, int | None]:
    """A translate table keeping ``letter`` and newlines, dropping every other a-z letter."""
    if letter not in _ONLY:
        _ONLY[letter] = {ord(ch): None for ch in "abcdefghijklmnopqrstuvwxyz" if ch != letter}
    return _ONLY[letter]


def best_record(hand: str, rank: int, best: Best, rules: Rules) -> dict[str, Any]:
    """One line of ``wfkit tiles --best --json``."""
    tier = rules.tiers[best.tier]
    return {"hand": hand.upper(), "rank": rank, "word": best.word, "score": best.score,
            "rarity": tier.key, "label": tier.label, "letters": len(best.word),
            "wild_positions": [p + 1 for p in best.wild]}




# ---- the index as bytes (what the index cache stores) --------------------------------------
# Plain arrays and UTF-8 text in length-prefixed chunks, never pickled objects. Reading checks
# every count, offset and range against the words the index holds (and cuts each bitset to its
# bucket's width), so a damaged or crafted file is a ValueError while it is read (the caller
# then builds the index), never an index out of range later in a search. What a search does
# not need is made on first use: the ratings (a balance player's vocabulary reads them), and
# a bucket's bitsets when a hand reaches it.
INDEX_FORMAT = 1
_CHUNK = struct.Struct("<Q")
_U8, _U32, _I64 = "B", next(c for c in "IL" if array(c).itemsize == 4), "q"
_CEFR = frozenset(("", *LEVELS))


class _Chunks:
    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def raw(self, data: bytes) -> None:
        self.parts += [_CHUNK.pack(len(data)), data]

    def ints(self, values: Iterable[int], code: str = _I64) -> None:
        try:
            self.raw(array(code, values).tobytes())
        except OverflowError:
            raise ValueError("a number too large for the index") from None

    def floats(self, values: Iterable[float]) -> None:
        self.raw(array("d", values).tobytes())

    def lines(self, values: Iterable[str | None], *, optional: bool = False) -> None:
        """Strings one a line; ``optional``: None as an empty line (so "" cannot be stored)."""
        texts = []
        for v in values:
            if v is None and optional:
                v = ""
            elif not isinstance(v, str) or (optional and not v):
                raise ValueError(f"cannot store the field {v!r}")
            if "\n" in v:
                raise ValueError(f"cannot store a line break in {v!r}")
            texts.append(v)
        self.raw("\n".join(texts).encode("utf-8"))


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.at = 0

    def raw(self) -> bytes:
        if self.at + _CHUNK.size > len(self.data):
            raise ValueError("index data cut short")
        (size,) = _CHUNK.unpack_from(self.data, self.at)
        start = self.at + _CHUNK.size
        if size > len(self.data) - start:
            raise ValueError("index data cut short")
        self.at = start + size
        return self.data[start:self.at]

    def ints(self, count: int, low: int = 0, high: int | None = None,
             code: str = _I64) -> array[int]:
        """``count`` numbers in ``low..high`` (None: any; the range checks cost a pass each)."""
        values = array(code)
        values.frombytes(self.raw())
        if len(values) != count:
            raise ValueError("index numbers out of place")
        if code == _U8 and high is not None:  # (one C pass: drop the bytes in range)
            if values.tobytes().translate(None, bytes(range(low, min(high, 255) + 1))):
                raise ValueError("index numbers out of range")
        elif values and ((low > 0 or code == _I64) and min(values) < low
                         or high is not None and max(values) > high):
            raise ValueError("index numbers out of range")
        return values

    def floats(self, count: int) -> array[float]:
        values = array("d")
        values.frombytes(self.raw())
        if len(values) != count:
            raise ValueError("index numbers out of range")
        return values

    def text(self, count: int) -> str:
        """``count`` lines joined (split on use)."""
        text = self.raw().decode("utf-8")
        if text.count("\n") != count - 1 and (count or text):
            raise ValueError("index text out of place")
        return text

    def end(self) -> None:
        if self.at != len(self.data):
            raise ValueError("index data runs on")


def _lines(text: str, count: int, *, optional: bool = False) -> list[Any]:
    values = text.split("\n") if count else []
    return [v or None for v in values] if optional else values


class _StoredRatings(Sequence[Rating]):
    """The ratings of a stored index, made from its columns on first use."""

    def __init__(self, make: Callable[[], tuple[Rating, ...]], count: int):
        self._make: Callable[[], tuple[Rating, ...]] | None = make
        self._rows: tuple[Rating, ...] = ()
        self._count = count

    def _all(self) -> tuple[Rating, ...]:
        if self._make is not None:
            self._rows, self._make = self._make(), None
        return self._rows

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, i: int) -> Rating: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Rating, ...]: ...

    def __getitem__(self, i: int | slice) -> Rating | tuple[Rating, ...]:
        return self._all()[i]

    def __iter__(self) -> Iterator[Rating]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self._all() == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list: equality by content


class _StoredBuckets(Mapping[int, Segment]):
    """The buckets of a stored index: each read from the stored bytes when first used
    (segment ``len(keys)``, after the buckets, is the whole index's)."""

    def __init__(self, keys: Sequence[int], sizes: Sequence[int], ids: array[int],
                 letters: list[str], bits: list[int], blob: list[int], data: bytes):
        self._at = {key: n for n, key in enumerate(keys)}
        self._keys = keys
        self._sizes = sizes
        self._ids = ids
        self._letters = letters
        self._id_at = [0, *accumulate(sizes)]
        self._entry_at = [0, *accumulate(map(len, letters))]
        self._bits = bits      # entry -> its first bitset (and the next entry's: its end)
        self._blob = blob      # bitset -> its first byte in data
        self._data = data
        self._made: dict[int, Segment] = {}

    def segment(self, n: int) -> Segment:
        size, start = self._sizes[n], self._id_at[n]
        full = (1 << size) - 1
        data, blob, bits, from_bytes = self._data, self._blob, self._bits, int.from_bytes
        exceed: dict[str, tuple[int, ...]] = {}
        for entry, letter in enumerate(self._letters[n], start=self._entry_at[n]):
            exceed[letter] = tuple(from_bytes(data[blob[b]:blob[b + 1]], "little") & full
                                   for b in range(bits[entry], bits[entry + 1]))
        return Segment(tuple(self._ids[start:start + size]), exceed, full)

    def sizes(self) -> dict[int, int]:
        """Each bucket's number of words, in bucket order."""
        return dict(zip(self._keys, self._sizes, strict=False))

    def ids(self, key: int) -> tuple[int, ...]:
        """A bucket's word ids, without reading its bitsets."""
        n = self._at[key]
        start = self._id_at[n]
        return tuple(self._ids[start:start + self._sizes[n]])

    def __getitem__(self, key: int) -> Segment:
        seg = self._made.get(key)
        if seg is None:
            seg = self._made[key] = self.segment(self._at[key])
        return seg

    def __contains__(self, key: object) -> bool:
        return key in self._at

    def __iter__(self) -> Iterator[int]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _segment_chunks(out: _Chunks, segments: Sequence[Segment]) -> None:
    """The segments, the last one (the whole index's: every word in order) without its ids."""
    out.ints((len(seg.ids) for seg in segments), _U32)
    out.ints((i for seg in segments[:-1] for i in seg.ids), _U32)
    out.lines("".join(seg.exceed) for seg in segments)
    out.ints((len(levels) for seg in segments for levels in seg.exceed.values()), _U8)
    blobs = [b.to_bytes((b.bit_length() + 7) // 8, "little")
             for seg in segments for levels in seg.exceed.values() for b in levels]
    out.ints(map(len, blobs), _U32)
    out.raw(b"".join(blobs))


def _read_segments(src: _Reader, keys: Sequence[int], words: int) -> tuple[_StoredBuckets,
                                                                           Segment]:
    """The buckets (lazy) and the whole index's segment (the last one stored)."""
    count = len(keys) + 1
    sizes = src.ints(count, 1 if words else 0, words, _U32)  # (no word: one empty segment)
    ids = src.ints(sum(sizes) - words, 0, words - 1, _U32)
    letters = _lines(src.text(count), count)
    levels = src.ints(sum(map(len, letters)), 1, words, _U8)
    widths = src.ints(sum(levels), 0, (words + 7) // 8, _U32)
    blob = src.raw()
    # every word in the buckets once (by count), and in the whole index's segment
    if len(blob) != sum(widths) or sizes[-1] != words or sum(sizes) != 2 * words:
        raise ValueError("index buckets out of place")
    ids.extend(range(words))
    buckets = _StoredBuckets(keys, sizes, ids, letters, [0, *accumulate(levels)],
                             [0, *accumulate(widths)], blob)
    return buckets, buckets.segment(len(keys))


def index_bytes(index: HandIndex) -> bytes:
    """The index as bytes, read back by :func:`index_from_bytes` (its rules are not stored:
    the reader gives them). ValueError when a rating holds text a line cannot (a line break,
    or an empty optional field, which reads back as None)."""
    n = len(index.words)
    ratings = index.ratings
    if [r.word for r in ratings] != list(index.words) or not all(r.playable for r in ratings):
        raise ValueError("the ratings are not the index's playable words")
    if list(index.tiers) != [r.battle_tier for r in ratings]:
        raise ValueError("the tiers are not the ratings' battle tiers")
    if index.whole.ids != tuple(range(n)):
        raise ValueError("the whole segment is not every word in order")
    groups: dict[tuple[int, Fraction], int] = {}
    of = [groups.setdefault((s, p), len(groups))
          for s, p in zip(index.scores, index.products, strict=True)]
    out = _Chunks()
    out.ints((INDEX_FORMAT, index.max_length, index.gold_rush, n, len(index.buckets),
              len(groups)))
    out.lines(index.words)
    out.floats(r.zipf for r in ratings)
    out.lines((r.cefr for r in ratings), optional=True)
    out.ints((r.tier for r in ratings), _U8)
    out.lines(r.source for r in ratings)
    out.ints(index.tiers, _U8)
    out.lines((r.cefr_lemma for r in ratings), optional=True)
    out.lines((r.pos for r in ratings), optional=True)
    out.lines((r.gloss for r in ratings), optional=True)
    out.lines(f"{score} {product}" for score, product in groups)
    out.ints(of, _U32)
    out.ints(index.tile_sums, _U32)
    out.lines(["".join(index.uncommon)])
    out.ints(index.uncommon.values())
    out.ints(index.buckets)
    _segment_chunks(out, [*index.buckets.values(), index.whole])
    return b"".join(out.parts)


def index_from_bytes(data: bytes, rules: Rules) -> HandIndex:
    """The index :func:`index_bytes` wrote, under ``rules`` (those it was built with); a
    ValueError for anything else."""
    try:
        return _index_from_bytes(data, rules)
    except (IndexError, KeyError, ZeroDivisionError, OverflowError) as exc:
        raise ValueError(f"not an index: {type(exc).__name__}") from None


def _index_from_bytes(data: bytes, rules: Rules) -> HandIndex:
    src = _Reader(data)
    form, max_length, gold_rush, n, nb, ng = src.ints(6, 0, 2**62)
    if form != INDEX_FORMAT or gold_rush > 1:
        raise ValueError("not an index of this format")
    words = tuple(_lines(src.text(n), n))
    if n and (not all(words) or max(map(len, words)) > max_length):
        raise ValueError("index words out of place")
    zipf = src.floats(n)
    cefr = src.text(n)
    if not set(_lines(cefr, n)) <= _CEFR:
        raise ValueError("unknown CEFR level in the index")
    top = len(rules.tiers) - 1
    tier = src.ints(n, 0, top, _U8)
    source = src.text(n)
    battle = src.ints(n, 0, top, _U8)
    lemma, pos, gloss = (src.text(n) for _ in range(3))

    def ratings() -> tuple[Rating, ...]:
        return tuple(map(Rating._make, zip(
            words, zipf, _lines(cefr, n, optional=True), tier, _lines(source, n), battle,
            (True,) * n, *(_lines(t, n, optional=True) for t in (lemma, pos, gloss)),
            strict=True)))

    groups = []
    for line in _lines(src.text(ng), ng):
        score, product = line.split(" ")
        groups.append((int(score), Fraction(product)))
    of = src.ints(n, code=_U32)  # (a group out of range fails its look-up below)
    tile_sums = src.ints(n, code=_U32)
    letters = src.text(1)
    bits = src.ints(len(letters), 1, 2**62)
    uncommon = dict(zip(letters, bits, strict=True))
    if len(uncommon) != len(letters) or any(b & (b - 1) for b in bits):
        raise ValueError("index letters out of place")
    keys = src.ints(nb, 0, 2**62)
    if len(set(keys)) != nb:
        raise ValueError("index buckets out of place")
    buckets, whole = _read_segments(src, keys, n)
    src.end()
    scores = tuple(map([s for s, _ in groups].__getitem__, of))
    products = tuple(map([p for _, p in groups].__getitem__, of))
    return HandIndex(rules, max_length, words, _StoredRatings(ratings, n), scores, products,
                     buckets, uncommon, whole, tuple(tile_sums), bool(gold_rush), tuple(battle))
