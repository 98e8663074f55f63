"""WordForge played by simulated players: what a designer tunes the rules by.

The article gives the rule of one word; the game loop around it is decided here (and in the
guide, docs/guide/playing.md):

- **Deal**: the tiles engine's :func:`~wordforge_cli.wordforge.rarity.deal` (one shuffled bag,
  hands of ``hand_size`` from its front); game i draws only from ``item_rng(seed, "balance", i)``.
- **Turns**: players play in seat order, ``turns`` words each. A turn is one word from the hand;
  its tiles leave the hand and the player draws from the bag's front back up to the hand size
  (fewer when the bag runs low).
- **Pass**: a player whose hand makes no word they know scores 0, their combo resets (as an
  unplayable word resets it), and they swap: the hand goes to the bag's back, a new hand is
  drawn from its front.
- **Combo and link** follow :func:`~wordforge_cli.wordforge.rarity.turn_plays` (a test holds
  them equal).
- **Power-ups**: each player holds one charge of Double, Overdrive and Gold Rush, and one of
  Fortress, per game; a charge costs nothing but itself and one power-up at most is spent a
  turn. The word comes first, then the power-up: a player plays the best word without one,
  then spends the charge that adds the most points *to that word* when that gain reaches
  ``use_at`` points, or on their last turn (a charge kept is a charge wasted). Fortress is
  raised after an opponent's turn of ``use_at`` points or more (or on the second-to-last
  round) and cuts each opponent's next word by the config's factor.
- **Choice**: the player plays the word that scores the most *this* turn among the words they
  know, without a power-up: greedy, exact (the hand index). Ties between words of the same
  turn score go to the higher plain score (the word alone: no combo, link, power-up or
  Fortress), then to the word first in alphabetical order. The article scores one word and
  leaves ties open; this rule is one a person can apply by hand (the index's own order, by
  scoring group, is not).
- **Why the word first** (measured, bundled rules, two ``all`` players, seed 1): choosing
  word and power-up together (each charge's own best word) scores more on the turn itself on
  29 of 1,165 power-up turns in 200 games, by 19.2 points on average; but over whole games it
  scores 1.28 points a turn *less* (95% interval 0.87-1.70, paired on the same 2,000 deals:
  it spends charges on weaker words sooner) and takes 1.8 times the CPU. The greedy player
  keeps the simpler rule that plays better.
- **Winner**: the highest total after the last turn; equal totals are a draw.

Player models know words by vocabulary: ``all`` (every playable word), a CEFR level (words of
that level or below; a word with no level is known when its Zipf value reaches the minimum of
the tier the level maps to, e.g. B1 -> rare -> Zipf 2.5), or ``zipf:X`` (Zipf >= X).

Pure: records and a seeded ``random.Random`` in, counts out.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from itertools import repeat
from operator import add, and_, getitem
from typing import Any

from wordforge_cli.core.errors import UsageError
from wordforge_cli.core.rng import derive_seed
from wordforge_cli.wordforge.hands import HandFilter, HandIndex, Part, every_word
from wordforge_cli.wordforge.rarity import LEVELS, Play, Rating, Rules, deal

POWERUPS = ("double", "overdrive", "gold_rush")
SHORT_HANDS = (3, 6)  # a hand of at most this many tiles searches the words this short
_POWERUP = {None: 0, "double": 1, "overdrive": 2, "gold_rush": 3}  # (a score cache's keys)
FORTRESS = "fortress"
SCOPE = ("balance",)


# ---- player models -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Model:
    """Which words a simulated player knows."""

    name: str
    level: str | None = None
    min_zipf: float | None = None


def parse_model(text: str) -> Model:
    """``all``, ``A1``..``C2``, ``zipf:3.5`` (ValueError otherwise)."""
    t = text.strip()
    if t.lower() == "all":
        return Model("all")
    if t.upper() in LEVELS:
        return Model(t.upper(), level=t.upper())
    if t.lower().startswith("zipf:"):
        try:
            value = float(t[5:])
        except ValueError:
            value = float("nan")
        if value == value and value >= 0:
            return Model(f"zipf:{value:g}", min_zipf=value)
    raise ValueError(f"unknown player '{text}' (all, a CEFR level A1..C2, or zipf:X)")


def zipf_floor(rules: Rules, level: str) -> float:
    """The lowest Zipf value of the tier ``level`` maps to (0: any word with data)."""
    tier = rules.cefr[level]
    floors = [float(minimum) for minimum, t in rules.thresholds if t == tier]
    return min(floors) if floors else 0.0


def knows(model: Model, rules: Rules) -> Callable[[Rating], bool]:
    """A predicate over ratings: does a player of ``model`` know this word?"""
    if model.level is None and model.min_zipf is None:
        return every_word
    if model.level is not None:
        top = LEVELS.index(model.level)
        rank = {level: i for i, level in enumerate(LEVELS)}
        floor = zipf_floor(rules, model.level)

        def by_level(r: Rating) -> bool:
            if r.cefr:
                return rank[r.cefr] <= top
            return r.zipf > 0 and r.zipf >= floor

        return by_level
    minimum = model.min_zipf
    assert minimum is not None  # both unset returned `all` above

    def by_zipf(r: Rating) -> bool:
        return r.zipf > 0 and r.zipf >= minimum

    return by_zipf


# ---- one turn ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameRules:
    """The game loop's own numbers (see the module docstring)."""

    turns: int = 10
    powerups: bool = True
    use_at: int = 30


class Turns:
    """The exact best word of one turn, and what a power-up would make of it."""

    def __init__(self, index: HandIndex, rules: Rules):
        self.index = index
        self.rules = rules
        self.top = len(rules.tiers) - 1
        sr = rules.score
        self.link = max(Fraction(1), sr.link)
        self.step = sr.combo_step
        # each plain product as a float (the search's bound) and as an exact fraction's
        # numerator and denominator (its score), converted once a distinct product
        self.products, self.num, self.den = _columns(index.products)
        self.words, self.plain = index.words, index.scores
        self._bound_cache: dict[tuple[int, bool], float] = {}
        # id(mask) -> (the mask, per hand length its filter and parts)
        self._known: dict[int, tuple[dict[int, int],
                                     list[tuple[HandFilter, tuple[Part, ...]]]]] = {}
        self.filter = HandFilter.of(index)
        self._shorter: dict[int, HandFilter] = {}
        self.size = len(index.words)
        self._falling = [-p for p in self.products]  # ascending, for bisection
        self._stops: dict[tuple[int, float], int] = {}
        self._factors: dict[tuple[int, bool, bool], tuple[int, int]] = {}
        self._turns: dict[tuple[int, bool, bool],
                          tuple[float, list[tuple[int, bool, int, int]]]] = {}
        self._values: dict[int, int] = {}

    def _filter(self, tiles: int) -> HandFilter:
        """The filter of the words a hand of ``tiles`` tiles can be long enough for (a hand
        near the end of a game, the bag run out, is short: it reads a filter of the short
        words only, a small part of the index)."""
        for longest in SHORT_HANDS:
            if tiles <= longest < self.index.max_length:
                made = self._shorter.get(longest)
                if made is None:
                    made = self._shorter[longest] = HandFilter.shorter(self.index, longest)
                return made
        return self.filter

    def _parts(self, mask: dict[int, int], filter: HandFilter) -> tuple[Part, ...]:
        """A player's filter parts (their mask folded in; a player who knows every word
        reads the filter's own)."""
        whole = self.index.mask_whole(mask)
        mine = filter.narrow(whole, self.size)
        return filter.parts if mine == filter.full else filter.known(mine)

    def _plan(self, mask: dict[int, int]) -> list[tuple[HandFilter, tuple[Part, ...]]]:
        """Per hand length (the last: any longer), the filter a player's hand searches and
        its parts for the player, kept with the mask itself, so a mask freed and its id
        reused is never mistaken for it."""
        hit = self._known.get(id(mask))
        if hit is None or hit[0] is not mask:
            made: dict[int, tuple[HandFilter, tuple[Part, ...]]] = {}
            plan = []
            for tiles in range(self.index.max_length + 1):
                filter = self._filter(tiles)
                if id(filter) not in made:
                    made[id(filter)] = (filter, self._parts(mask, filter))
                plan.append(made[id(filter)])
            hit = self._known[id(mask)] = (mask, plan)
        return hit[1]

    def best(self, hand: str, mask: dict[int, int], counter: int, previous: str | None,
             fortress: bool) -> tuple[int, int, int, bool] | None:
        """(score, word, combo, link) of the best known word of ``hand`` this turn without a
        power-up (exact), or None when it makes none.

        Ties: the higher plain score (no combo, link, power-up or Fortress), then the word
        in alphabetical order.

        The words the hand can nearly make come from the index's :class:`HandFilter` (one
        AND a group of letters), read best plain product first; each is checked for the
        letters it holds three times, then scored (its plain product times the turn's
        factors, floored: exact). A word's turn score is at most its plain product times the
        combo, link and Fortress factors it could get (a float bound nudged up, so the
        search never stops early), so no word after the first one whose bound is below the
        best found can beat it: products only fall from there. Once a word is found, only
        the words before that stop are kept in the bitset (small ints, not the index's
        width), and the filter's second part is not read when the stop falls in the first.
        """
        hit = self._known.get(id(mask))
        plan = hit[1] if hit is not None and hit[0] is mask else self._plan(mask)
        filter, parts = plan[min(len(hand), len(plan) - 1)]
        keys = filter.keys(hand)
        ids = filter.ids  # a filter's word j is the index's word ids[j] (None: j)
        words, plain, num, den = self.words, self.plain, self.num, self.den
        triple, fits = filter.triple, filter.fits
        best: tuple[int, int, int, bool] | None = None
        top, at = -1, -1  # the best turn score and its word (a value equal to top has one)
        # the turn's bound, and its factors on a plain product by (longer than the previous
        # word) + 2 x (same first letter): (combo, link, numerator, denominator)
        turn = self._turns.get((counter, fortress, previous is not None))
        if turn is None:
            turn = self._turn(counter, fortress, previous is not None)
        bound, f = turn
        plen = len(previous) if previous is not None else 0
        first = previous[0] if previous else ""
        stop = filter.size  # no word of the filter from here on can beat the best found
        for part in parts:
            if part.lo >= stop:
                break
            bits = reduce(and_, map(getitem, part.tables, keys))
            end = part.hi  # bits holds words j < end: bit (end - 1 - j) is the filter's j
            if stop < end:
                bits >>= end - stop
                end = stop
            while bits > 0:
                b = bits.bit_length() - 1
                j = end - 1 - b
                if not triple[j] or fits(j, hand):
                    i = j if ids is None else ids[j]
                    word = words[i]
                    combo, link, fn, fd = f[(len(word) > plen) + 2 * (word[0] == first)]
                    value = num[i] * fn // (den[i] * fd)
                    if value > top or (value == top and (
                            plain[i] > plain[at]
                            or (plain[i] == plain[at] and word < words[at]))):
                        best = (value, i, combo, link)
                        top, at = value, i
                        # what may still beat it: the words after it, before the stop
                        stop = self._stops.get((top, bound)) or self._stop(top, bound)
                        if ids is not None:
                            stop = bisect_left(ids, stop)
                        if stop <= j + 1:
                            return best
                        if stop < end:
                            # (word j's bit is the highest left: XOR drops it)
                            bits = bits >> (end - stop) ^ 1 << (stop - 1 - j)
                            end = stop
                            continue
                bits ^= 1 << b
        return best

    def _turn(self, counter: int, fortress: bool,
              after: bool) -> tuple[float, list[tuple[int, bool, int, int]]]:
        """The turn's bound, and per (longer than the previous word) + 2 x (same first
        letter): the word's combo, link and the turn's factors on its plain product
        (numerator, denominator); the first word of a player (``after`` False) has
        neither."""
        factors = []
        for n in range(4):
            combo = counter + 1 if after and n & 1 else 0
            link = after and n >= 2
            fn, fd = self._factor(combo, link, fortress)
            factors.append((combo, link, fn, fd))
        # (a player's first word has no combo and no link: its score is at most its plain
        # product times Fortress's cut)
        cut = self.rules.score.fortress if fortress else 1
        bound = (self._bound(counter, fortress) if after
                 else float(cut) * (1 + 1e-9))
        hit = self._turns[(counter, fortress, after)] = (bound, factors)
        return hit

    def _factor(self, combo: int, link: bool, fortress: bool) -> tuple[int, int]:
        """The turn's factors on a word's plain product, as (numerator, denominator): what
        :func:`~wordforge_cli.wordforge.rarity.score_word` multiplies the product by for a
        combo, a link and Fortress (exact: a test holds the two equal)."""
        sr = self.rules.score
        factor = (1 + combo * sr.combo_step) * (sr.link if link else 1) * (
            sr.fortress if fortress else 1)
        fraction = Fraction(factor)
        self._factors[(combo, link, fortress)] = (fraction.numerator, fraction.denominator)
        return fraction.numerator, fraction.denominator

    def _stop(self, top: int, bound: float) -> int:
        """The first word ``i`` with ``products[i] * bound < top``, the search's stop: every
        later word's bound is no higher (products never rise along the index, nor does their
        float product with a positive bound)."""
        key = (top, bound)
        hit = self._stops.get(key)
        if hit is None:
            products, falling = self.products, self._falling
            stop = bisect_left(falling, -top / bound)  # near it: the test decides, by runs
            while stop > 0 and products[stop - 1] * bound < top:
                stop = bisect_left(falling, falling[stop - 1])
            while stop < len(products) and not products[stop] * bound < top:
                stop = bisect_right(falling, falling[stop])
            hit = self._stops[key] = stop
        return hit

    def value(self, i: int, combo: int, link: bool, fortress: bool,
              powerup: str | None = None) -> int:
        """Word ``i``'s score this turn with ``powerup`` spent on it: scored by
        :func:`~wordforge_cli.wordforge.rarity.score_word` through the index (once a scoring
        group and play), kept by word and turn (an int key: a game makes many)."""
        key = (((i << 24 | combo) << 4) | link << 3 | fortress << 2 | _POWERUP[powerup]
               if combo < 1 << 24 else None)
        hit = self._values.get(key) if key is not None else None
        if hit is None:
            tier = self.index.tiers[i]
            if powerup == "gold_rush":
                tier = min(tier + self.rules.gold_rush_tiers, self.top)
            play = Play(combo, powerup == "double", link, powerup == "overdrive", fortress)
            hit = self.index.score(i, play, tier)[0]
            if key is not None:
                self._values[key] = hit
        return hit

    def _bound(self, counter: int, fortress: bool) -> float:
        key = (counter, fortress)
        hit = self._bound_cache.get(key)
        if hit is None:
            combo_up = 1 + (counter + 1) * self.step
            cut = self.rules.score.fortress if fortress else 1
            hit = self._bound_cache[key] = float(combo_up * self.link * cut) * (1 + 1e-9)
        return hit


def _columns(products: Sequence[Fraction]) -> tuple[list[float], list[int], list[int]]:
    """Each product as a float, its numerator and its denominator (the products of an index
    are a few thousand distinct objects, one per scoring group: each converted once)."""
    ids = list(map(id, products))
    seen = dict(zip(ids, products, strict=True))
    floats = {k: float(p) for k, p in seen.items()}
    nums = {k: p.numerator for k, p in seen.items()}
    dens = {k: p.denominator for k, p in seen.items()}
    return (list(map(floats.__getitem__, ids)), list(map(nums.__getitem__, ids)),
            list(map(dens.__getitem__, ids)))


# ---- games -------------------------------------------------------------------------------------

@dataclass
class Seat:
    hand: list[str]
    mask: dict[int, int]  # per bucket, the words this seat's player knows
    total: int = 0
    counter: int = 0
    previous: str | None = None
    held: list[str] = field(default_factory=lambda: list(POWERUPS))
    fortress: bool = True
    last: int = 0  # the score of this seat's latest turn


COUNTERS = ("turn_scores", "tiers", "lengths", "combos", "longest_combo", "uses", "gains",
            "decisive", "wins", "totals", "margins", "seat_passes", "seat_tiers", "totals_sq",
            "pair_wins")
INTS = ("games", "passes", "turns", "links", "fortress_cut", "draws", "points_sq", "passes_sq")


@dataclass
class Tally:
    """Everything a batch reports: exact counts (mergeable, the same in any order)."""

    players: tuple[str, ...] = ()
    games: int = 0
    turn_scores: Counter[int] = field(default_factory=Counter)
    tiers: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    combos: Counter[int] = field(default_factory=Counter)
    longest_combo: Counter[int] = field(default_factory=Counter)
    passes: int = 0
    turns: int = 0
    links: int = 0
    uses: Counter[str] = field(default_factory=Counter)
    gains: Counter[str] = field(default_factory=Counter)
    decisive: Counter[str] = field(default_factory=Counter)  # games a power-up's points decided
    fortress_cut: int = 0
    wins: Counter[int] = field(default_factory=Counter)      # seat -> games won
    draws: int = 0
    totals: Counter[int] = field(default_factory=Counter)    # seat -> points summed
    margins: Counter[int] = field(default_factory=Counter)   # seat 0's margin over seat 1 -> games
    seat_passes: Counter[int] = field(default_factory=Counter)  # seat -> turns it passed
    seat_tiers: Counter[str] = field(default_factory=Counter)   # "seat:tier key" -> words played
    # per game, for the intervals of the means: squares of each seat's total, of the game's
    # points (every seat's) and of its passes, summed over the games
    totals_sq: Counter[int] = field(default_factory=Counter)
    # "i>j": games seat i ended above seat j; "i=j" (i < j): level (what the ratings read)
    pair_wins: Counter[str] = field(default_factory=Counter)
    points_sq: int = 0
    passes_sq: int = 0

    def merge(self, other: Tally) -> Tally:
        for name in COUNTERS:
            theirs = getattr(other, name)
            if theirs:
                # Counter.update's sums (its keys first seen in the same order), in C
                mine = getattr(self, name)
                dict.update(mine, zip(theirs, map(add, theirs.values(),
                                                  map(mine.get, theirs, repeat(0))),
                                      strict=True))
        for name in INTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self


def play_game(index: HandIndex, turns: Turns, rules: Rules, masks: Sequence[dict[int, int]],
              rng: random.Random, game: GameRules, tally: Tally,
              trace: list[dict[str, Any]] | None = None) -> list[int]:
    """One game; returns each seat's total and counts it into ``tally`` (and each turn into
    ``trace`` when given: seat, hand, word or None, score, combo, link, power-up, guarded)."""
    size = rules.tiles.hand_size
    dealt = deal(rules.tiles, len(masks), rng)
    bag = list(dealt.bag)
    seats = [Seat(list(h), m) for h, m in zip(dealt.hands, masks, strict=True)]
    guard = [False] * len(seats)  # an opponent's Fortress waits for this seat's next word
    keys = rules.keys
    longest = [0] * len(seats)
    gains: list[dict[str, int]] = [{} for _ in seats]  # points each power-up won, per seat
    last_turn = game.turns - 1
    powerups, use_at = game.powerups, game.use_at
    words, tiers = index.words, index.tiers
    best, value_of = turns.best, turns.value
    # the game's counts, kept here in the order they happen and added to the tally at the
    # end (the same counts, each counter's keys first seen in the same order)
    scores: list[int] = []
    tier_keys: list[str] = []
    seat_tiers: list[str] = []
    lengths: list[int] = []
    combos: list[int] = []
    seat_passes: list[int] = []
    uses: list[str] = []
    used_gains: dict[str, int] = {}
    played = passes = links = fortress_cut = 0
    for t in range(game.turns):
        for s, seat in enumerate(seats):
            hand = "".join(seat.hand)
            guarded = guard[s]
            found = best(hand, seat.mask, seat.counter, seat.previous, guarded)
            played += 1
            if trace is not None:
                trace.append({"seat": s, "turn": t, "hand": hand, "word": None, "score": 0,
                              "combo": 0, "link": False, "powerup": None,
                              "fortress": guarded})
            if found is None:
                passes += 1
                seat_passes.append(s)
                scores.append(0)
                seat.counter = 0
                bag.extend(seat.hand)
                seat.hand = bag[:size]
                del bag[:size]
                guard[s] = False
                seat.last = 0
                continue
            value, i, combo, link = found
            spent, gain = None, 0
            if powerups:
                # the word first, then the charge that adds most to it (module docstring)
                for o in seat.held:
                    extra = value_of(i, combo, link, guarded, o) - value
                    if extra > gain:
                        spent, gain = o, extra
                if spent is not None and (gain >= use_at or t == last_turn):
                    seat.held.remove(spent)
                    uses.append(spent)
                    used_gains[spent] = used_gains.get(spent, 0) + gain
                    gains[s][spent] = gains[s].get(spent, 0) + gain
                    value += gain
                else:
                    spent = None
            if guarded:
                cut = value_of(i, combo, link, False, spent) - value
                fortress_cut += cut
                for rival in range(len(seats)):
                    if rival != s:
                        gains[rival][FORTRESS] = gains[rival].get(FORTRESS, 0) + cut
                guard[s] = False
            word = words[i]
            if trace is not None:
                trace[-1].update(word=word, score=value, combo=combo, link=link, powerup=spent)
            seat.total += value
            seat.last = value
            seat.counter = combo
            seat.previous = word
            if combo > longest[s]:
                longest[s] = combo
            tier = tiers[i]
            if spent == "gold_rush":
                tier = min(tier + rules.gold_rush_tiers, turns.top)
            key = keys[tier]
            scores.append(value)
            tier_keys.append(key)
            seat_tiers.append(f"{s}:{key}")
            lengths.append(len(word))
            combos.append(combo)
            links += link
            kept = seat.hand
            for ch in word:
                kept.remove(ch)
            need = size - len(kept)
            kept.extend(bag[:need])
            del bag[:need]
        if powerups:
            for s, seat in enumerate(seats):
                if not seat.fortress:
                    continue
                rivals = [o for o in range(len(seats)) if o != s]
                if any(seats[o].last >= use_at for o in rivals) or t == last_turn - 1:
                    seat.fortress = False
                    uses.append(FORTRESS)
                    for rival in rivals:
                        guard[rival] = True
    tally.turns += played
    tally.passes += passes
    tally.links += links
    tally.fortress_cut += fortress_cut
    # (Counter.update of a list counts in C, in the list's order)
    tally.turn_scores.update(scores)
    tally.tiers.update(tier_keys)
    tally.seat_tiers.update(seat_tiers)
    tally.lengths.update(lengths)
    tally.combos.update(combos)
    tally.seat_passes.update(seat_passes)
    tally.uses.update(uses)
    tally.gains.update(used_gains)
    totals = [seat.total for seat in seats]
    tally.games += 1
    for s, total in enumerate(totals):
        tally.totals[s] += total
        tally.totals_sq[s] += total * total
        tally.longest_combo[longest[s]] += 1
    tally.points_sq += sum(totals) ** 2
    for a in range(len(totals)):
        for b in range(a + 1, len(totals)):
            key = f"{a}>{b}" if totals[a] > totals[b] else (
                f"{b}>{a}" if totals[b] > totals[a] else f"{a}={b}")
            tally.pair_wins[key] += 1
    tally.passes_sq += passes ** 2
    winners = _winners(totals)
    if len(winners) == 1:
        tally.wins[winners[0]] += 1
    else:
        tally.draws += 1
    if len(totals) >= 2:
        tally.margins[totals[0] - totals[1]] += 1
    # a power-up decided the game when the result changes without the points it won
    for s in range(len(seats)):
        for o, points in gains[s].items():
            without = list(totals)
            without[s] -= points
            if _winners(without) != winners:
                tally.decisive[o] += 1
    return totals


def _winners(totals: Sequence[int]) -> list[int]:
    best = max(totals)
    return [s for s, total in enumerate(totals) if total == best]


def simulate(index: HandIndex, rules: Rules, models: Sequence[Model], seed: int,
             games: Iterable[int], game: GameRules = GameRules(),
             outcomes: list[list[int]] | None = None) -> Tally:
    """Games ``games`` of seats playing ``models``; game i draws from (seed, "balance", i).
    Each game's seat totals are appended to ``outcomes`` when given (what a paired comparison
    of two rule sets reads, game by game)."""
    turns = Turns(index, rules)
    masks = [index.mask(knows(m, rules)) for m in models]
    tally = Tally(players=tuple(m.name for m in models))
    for g in games:
        totals = play_game(index, turns, rules, masks,
                           random.Random(derive_seed(seed, *SCOPE, g)), game, tally)
        if outcomes is not None:
            outcomes.append(totals)
    return tally


# ---- one game's record (a pack balance section's) -----------------------------------------------

@dataclass(frozen=True)
class RecordField:
    """One field of a record: its name, its JSON Schema (draft 2020-12) and what it means."""

    name: str
    schema: dict[str, Any]
    description: str


_ZIPF = r"zipf:([0-9]+(\.[0-9]+)?(e[+-][0-9]+)?|inf)"  # parse_model's f"zipf:{value:g}"
# the fields of a game's record, in record order: the one table game_record and the shipped
# schema (schemas/balance-game.json, held equal to it by a test) follow
GAME_FIELDS: tuple[RecordField, ...] = (
    RecordField("game", {"type": "integer", "minimum": 0},
                "The game's number in its section, from 0: game i is dealt from its own "
                "random stream (the pack's seed, the section's name and i)."),
    RecordField("players", {"type": "array", "minItems": 1, "items": {
                    "type": "string", "pattern": f"^(all|{'|'.join(LEVELS)}|{_ZIPF})$"}},
                "Each seat's player model, in seat order (the first plays first): all, a "
                "CEFR level A1..C2 (the words of that level or below), or zipf:X."),
    RecordField("totals", {"type": "array", "minItems": 1,
                           "items": {"type": "integer", "minimum": 0}},
                "Each seat's points after the last turn, in seat order."),
    RecordField("winner", {"type": ["integer", "null"], "minimum": 1},
                "The seat (from 1) with the highest total; null when seats share it (a draw)."),
)


def game_record(game: int, players: Sequence[str], totals: Sequence[int]) -> dict[str, Any]:
    """The record of game ``game``: the fields of :data:`GAME_FIELDS`, in their order."""
    winners = _winners(totals)
    values = (game, list(players), list(totals), winners[0] + 1 if len(winners) == 1 else None)
    return dict(zip((f.name for f in GAME_FIELDS), values, strict=True))


# ---- the report --------------------------------------------------------------------------------

def _histogram(counts: Counter[int], width: int) -> dict[str, int]:
    bins: Counter[int] = Counter()
    for value, n in counts.items():
        bins[value // width * width] += n
    return {str(k): bins[k] for k in sorted(bins)}




class GameStats:
    """A batch's :class:`Tally` under the statistics protocol of ``engine.py`` (what a pack's
    balance section keeps, ships between workers and shards, and summarises)."""

    def __init__(self, rules: Rules, game: GameRules, players: tuple[str, ...] = ()) -> None:
        self.rules = rules
        self.game = game
        self.tally = Tally(players=tuple(players))

    def add(self, made: Tally) -> None:
        """Count one game (its own Tally)."""
        self.tally.merge(made)

    def fail(self, count: int = 1) -> None:  # a game always finishes
        raise ValueError("a balance game cannot run out of budget")

    def merge(self, other: GameStats) -> GameStats:
        self.tally.merge(other.tally)
        return self

    def to_state(self) -> dict[str, Any]:
        t = self.tally
        return {**{name: [[k, v] for k, v in sorted(getattr(t, name).items(),
                                                     key=lambda kv: (str(type(kv[0])), kv[0]))]
                   for name in COUNTERS},
                **{name: getattr(t, name) for name in INTS}}

    def load(self, state: dict[str, Any]) -> GameStats:
        """These statistics with the counts of ``to_state``'s ``state``."""
        for name in COUNTERS:
            setattr(self.tally, name, Counter({k: v for k, v in state[name]}))
        for name in INTS:
            setattr(self.tally, name, int(state[name]))
        return self

    def summary(self) -> dict[str, Any]:
        return summarize(self.tally, self.rules, self.game)


def check_seats(rules: Rules, seats: int) -> None:
    """Refuse a table the rules cannot deal (UsageError naming the ``players`` field), on the
    command line and in a pack alike."""
    tiles = rules.tiles
    if seats > tiles.max_players:
        raise UsageError(f"this config allows at most {tiles.max_players} players, not {seats}",
                         field="players")
    bag = sum(tiles.counts.values()) * (2 if seats >= tiles.two_sets_from else 1)
    if bag < seats * tiles.hand_size:
        raise UsageError(f"the bag cannot fill {seats} hands of {tiles.hand_size}",
                         field="players")


def summarize(tally: Tally, rules: Rules, game: GameRules) -> dict[str, Any]:
    """The figures a designer tunes by, from exact counts (the same bytes on every run)."""
    from wordforge_cli.core.engine import describe

    g = tally.games or 1
    plays = sum(tally.lengths.values()) or 1
    seats = len(tally.players)
    labels = [f"{s + 1}:{name}" for s, name in enumerate(tally.players)]
    powerups = {}
    for name in (*POWERUPS, FORTRESS):
        uses = tally.uses[name]
        gained = tally.fortress_cut if name == FORTRESS else tally.gains[name]
        powerups[name] = {"uses_per_game": round(uses / g, 4),
                          "mean_points": round(gained / uses, 2) if uses else 0.0,
                          "decided_games": round(tally.decisive[name] / g, 4)}
    margins = tally.margins
    return {
        "games": tally.games,
        "players": labels,
        "turns": game.turns,
        "powerups": game.powerups,
        "use_at": game.use_at,
        "score_per_turn": {**describe(tally.turn_scores),
                           "histogram": _histogram(tally.turn_scores, 25)},
        "tiers": {key: round(tally.tiers[key] / plays, 4) for key in rules.keys},
        "lengths": {str(n): round(tally.lengths[n] / plays, 4) for n in sorted(tally.lengths)},
        "combos": {str(n): round(tally.combos[n] / plays, 4) for n in sorted(tally.combos)},
        "longest_combo": describe(tally.longest_combo),
        "link_share": round(tally.links / plays, 4),
        "pass_share": round(tally.passes / (tally.turns or 1), 4),
        "powerup_effect": powerups,
        "wins": {**{label: round(tally.wins[s] / g, 4) for s, label in enumerate(labels)},
                 "draw": round(tally.draws / g, 4)},
        "mean_score": {label: round(tally.totals[s] / g, 2) for s, label in enumerate(labels)},
        "margin": describe(margins) if seats >= 2 else None,
        "seats": {label: _seat(tally, s, rules) for s, label in enumerate(labels)},
        "intervals": intervals(tally, game),
        "models": models(tally),
    }


def models(tally: Tally) -> dict[str, Any] | None:
    """Figures by player model, whatever seats it sat in (None: one model at the table).

    ``wins``: the games a seat of the model won, of the decided games, against its fair share
    (its seats / seats). ``elo``: a Bradley-Terry rating on the Elo scale from every pair of
    seats of different models (who ended above whom, level counting half each way). The
    seats are fixed, so with one seat each a model's figures carry its seat's edge too:
    ``round_robin`` plays each model in every seat.
    """
    from wordforge_cli.core import intervals as ci

    names = list(dict.fromkeys(tally.players))
    if len(names) < 2:
        return None
    of = [names.index(p) for p in tally.players]
    seats = len(tally.players)
    decided = tally.games - tally.draws
    results: dict[tuple[int, int], float] = {}
    for key, n in sorted(tally.pair_wins.items()):
        level = "=" in key
        a, b = (int(x) for x in key.replace("=", ">").split(">"))
        ma, mb = of[a], of[b]
        if ma == mb:
            continue
        for x, y, w in ((ma, mb, n / 2 if level else n), (mb, ma, n / 2 if level else 0)):
            if w:
                results[(x, y)] = results.get((x, y), 0) + w
    elo = ci.elo_scale(ci.bradley_terry(names, results))
    return {name: {"seats": of.count(m),
                   "wins": ci.rate(sum(tally.wins[s] for s in range(seats) if of[s] == m),
                                   decided, fair=of.count(m) / seats),
                   "elo": elo[m]}
            for m, name in enumerate(names)}


def round_robin(index: HandIndex, rules: Rules, models: Sequence[Model], seed: int,
                games: int, game: GameRules = GameRules(),
                play: Callable[[list[Model]], Tally] | None = None) -> dict[str, Any]:
    """Every ordered pair of ``models`` at a two-seat table (each model in each seat), the
    same ``games`` deals for every pair (game i from (seed, "balance", i)): per model its
    share of its decided games (fair 0.5) and its Bradley-Terry rating on the Elo scale, per
    pair the first-named model's share. ``play(pair)``: the pair's games played elsewhere
    (in worker processes), the same games as :func:`simulate` plays."""
    from wordforge_cli.core import intervals as ci

    names = [m.name for m in models]
    if len(set(names)) != len(names) or len(names) < 2:
        raise ValueError("a round robin needs two or more different models")
    results: dict[tuple[int, int], float] = {}
    won = [0] * len(names)
    played = [0] * len(names)
    pairs = []
    for a in range(len(models)):
        for b in range(len(models)):
            if a == b:
                continue
            pair = [models[a], models[b]]
            tally = (play(pair) if play is not None
                     else simulate(index, rules, pair, seed, range(games), game))
            level = tally.draws
            results[(a, b)] = results.get((a, b), 0) + tally.wins[0] + level / 2
            results[(b, a)] = results.get((b, a), 0) + tally.wins[1] + level / 2
            for m, seat in ((a, 0), (b, 1)):
                won[m] += tally.wins[seat]
                played[m] += tally.games - tally.draws
            pairs.append({"seat_1": names[a], "seat_2": names[b],
                          "wins": ci.rate(tally.wins[0], tally.games - tally.draws,
                                          fair=0.5),
                          "draws": tally.draws})
    elo = ci.elo_scale(ci.bradley_terry(names, results))
    return {"games_per_pair": games, "turns": game.turns, "powerups": game.powerups,
            "use_at": game.use_at,
            "models": {name: {"wins": ci.rate(won[m], played[m], fair=0.5), "elo": elo[m]}
                       for m, name in enumerate(names)},
            "pairs": pairs}


def intervals(tally: Tally, game: GameRules) -> dict[str, Any]:
    """The 95% intervals of the figures a designer acts on (``core.intervals``; n = games).

    ``wins``: each seat's share of the decided games (draws left out), fair = 1 / seats, and
    ``distinguishable`` when the interval leaves the fair share out; ``draw``: the share of
    drawn games; ``mean_score`` per seat and ``margin`` (seat 1 minus seat 2, fair 0): means
    over games; ``score_per_turn`` and ``pass_share``: each game's mean first, then their mean
    over games (the turns of one game are not independent draws).
    """
    from wordforge_cli.core import intervals as ci

    g = tally.games
    seats = len(tally.players)
    labels = [f"{s + 1}:{name}" for s, name in enumerate(tally.players)]
    decided = g - tally.draws
    per_game = (game.turns * seats) or 1
    points = sum(tally.totals.values())
    margins = tally.margins
    return {
        "method": ci.METHOD,
        "wins": {label: ci.rate(tally.wins[s], decided, fair=1 / seats if seats else None)
                 for s, label in enumerate(labels)},
        "draw": ci.rate(tally.draws, g),
        "mean_score": {label: ci.mean(tally.totals[s], tally.totals_sq[s], g, digits=2,
                                      within=ci.SCORE)
                       for s, label in enumerate(labels)},
        "margin": ci.mean_of(margins, fair=0.0, digits=2) if seats >= 2 else None,
        "score_per_turn": ci.mean(points / per_game, tally.points_sq / per_game ** 2, g,
                                  within=ci.SCORE),
        "pass_share": ci.mean(tally.passes / per_game, tally.passes_sq / per_game ** 2, g,
                              digits=4, within=ci.SHARE),
    }


def paired(first: Sequence[Sequence[int]], second: Sequence[Sequence[int]],
           game: GameRules) -> dict[str, Any]:
    """Two rule sets on the same deals and seeds, game by game: ``second`` minus ``first``.

    ``score_per_turn`` and each seat's ``mean_score``: the mean of the per-game differences
    with its normal 95% interval (pairing removes the deal's own luck from the spread);
    ``first_seat_wins``: the difference in seat 1's win share (a game counts 1 won, 0 else);
    ``winner_changed``: the games whose winner (or draw) differs, with their Wilson interval.
    """
    from wordforge_cli.core import intervals as ci

    if len(first) != len(second):
        raise ValueError("a paired comparison needs the same games under both rules")
    n = len(first)
    seats = len(first[0]) if first else 0
    per_game = (game.turns * seats) or 1
    changed = sum(1 for a, b in zip(first, second, strict=True) if _winners(a) != _winners(b))

    def won(totals: Sequence[int]) -> int:
        return int(_winners(totals) == [0])

    return {
        "games": n,
        "score_per_turn": ci.mean_of_values(((sum(b) - sum(a)) / per_game
                                             for a, b in zip(first, second, strict=True)),
                                            fair=0.0),
        "mean_score": {str(s + 1): ci.mean_of_values((b[s] - a[s] for a, b in
                                                      zip(first, second, strict=True)),
                                                     fair=0.0, digits=2)
                       for s in range(seats)},
        "first_seat_wins": ci.mean_of_values((won(b) - won(a) for a, b in
                                              zip(first, second, strict=True)),
                                             fair=0.0, digits=4),
        "winner_changed": {"games": changed, **ci.rate(changed, n)},
    }


def _seat(tally: Tally, s: int, rules: Rules) -> dict[str, Any]:
    """One seat's own figures: why a model wins or loses (does it pass, which tiers does it
    reach, how much is a word worth to it)."""
    turns = tally.turns // (len(tally.players) or 1)
    words = sum(tally.seat_tiers[f"{s}:{key}"] for key in rules.keys)
    return {"pass_share": round(tally.seat_passes[s] / turns, 4) if turns else 0.0,
            "points_per_word": round(tally.totals[s] / words, 2) if words else 0.0,
            "tiers": {key: round(tally.seat_tiers[f"{s}:{key}"] / (words or 1), 4)
                      for key in rules.keys}}
