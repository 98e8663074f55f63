"""WordForge's fast paths against plain references on drawn cases: the hand filter's words
are the words a hand can make, ``Turns.best`` is the best word scored one by one with
``score_word``, a whole game and its tally are those of the plain game loop, players' masks
and tally merges are what the plain loops make."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli.wordforge import balance as B
from wordforge_cli.wordforge import hands as H
from wordforge_cli.wordforge.balance import (
    COUNTERS,
    FORTRESS,
    INTS,
    GameRules,
    Model,
    Seat,
    Tally,
    Turns,
    knows,
    play_game,
)
from wordforge_cli.wordforge.english import read_rules
from wordforge_cli.wordforge.hands import HandFilter, build_index, index_bytes, index_from_bytes
from wordforge_cli.wordforge.rarity import (
    LEVELS,
    WILD,
    Play,
    Tables,
    WordInfo,
    deal,
    score_word,
    shuffle,
)

RULES = read_rules()
LETTERS = "aaabcdeeeefghiiijklmnooopqrrsssttuuvwxyzeeesssooo"


def _table(seed: int, n: int) -> Tables:
    rng = random.Random(seed)
    words: dict[str, WordInfo] = {}
    zipf: dict[str, float] = {}
    while len(words) < n:
        w = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 10)))
        words[w] = WordInfo(w, rng.choice(("", "", *LEVELS)), "", "", "")
        if rng.random() < 0.85:
            zipf[w] = round(rng.uniform(0.5, 6.5), 2)
    return Tables(words=words, zipf=zipf)


INDEX = build_index(RULES, _table(5, 5000), RULES.tiles.hand_size)
WORD_COUNTS = [Counter(w) for w in INDEX.words]
# (zipf:6: a player who knows few words, and passes often)
MODELS = [Model("all"), Model("B1", level="B1"), Model("zipf:3", min_zipf=3.0),
          Model("zipf:6", min_zipf=6.0)]
MASKS = {m.name: INDEX.mask(knows(m, RULES)) for m in MODELS}
KNOWN = {m.name: [knows(m, RULES)(r) for r in INDEX.ratings] for m in MODELS}


@contextlib.contextmanager
def _constants(module: Any, **values: Any) -> Iterator[None]:
    old = {k: getattr(module, k) for k in values}
    for k, v in values.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def _turns(**filter_constants: Any) -> Turns:
    with _constants(H, **filter_constants):
        return Turns(INDEX, RULES)


# the shipped settings, and settings that make every path run on a small table: two parts
# from 500 words, tables that soon run out of room (then made again when asked), groups of 3
TURNS = {
    "shipped": _turns(),
    "parts": _turns(SPLIT_FROM=500, FIRST_PART=0.25),
    "no room": _turns(SPLIT_FROM=500, FIRST_PART=0.6, TABLE_BITS=40_000),
    "groups of 3": _turns(GROUP_LETTERS=3, SPLIT_FROM=1000),
}

bag_letters = sorted(RULES.tiles.counts)
hands = st.one_of(
    st.lists(st.sampled_from(bag_letters), max_size=10).map("".join),
    st.lists(st.sampled_from("aeiostrn"), max_size=10).map("".join),  # repeats
    st.lists(st.sampled_from([*bag_letters, WILD, "-"]), max_size=20).map("".join),
    st.lists(st.sampled_from("es"), min_size=6, max_size=15).map("".join),  # 8 of a letter
)


def _makeable(hand: str) -> list[int]:
    have = Counter(hand)
    return [i for i, need in enumerate(WORD_COUNTS) if all(have[c] >= n for c, n in need.items())]


def _reference_best(hand: str, model: str, counter: int, previous: str | None,
                    fortress: bool) -> tuple[int, int, int, bool] | None:
    """Every word the player knows and the hand makes, scored by score_word: the highest turn
    score, then plain score, then the word first in alphabetical order."""
    found = None
    for i in _makeable(hand):
        if not KNOWN[model][i]:
            continue
        word, tier = INDEX.words[i], INDEX.tiers[i]
        if previous is None:
            combo, link = 0, False
        else:
            combo = counter + 1 if len(word) > len(previous) else 0
            link = word[0] == previous[0]
        value = score_word(word, tier, RULES, Play(combo, False, link, False, fortress)).score
        plain = score_word(word, tier, RULES).score
        if found is None or (value, plain) > found[0] or (
                (value, plain) == found[0] and word < INDEX.words[found[1][1]]):
            found = ((value, plain), (value, i, combo, link))
    return None if found is None else found[1]


@settings(max_examples=400)
@given(hands, st.sampled_from([m.name for m in MODELS]), st.integers(0, 6),
       st.one_of(st.none(), st.integers(0, len(INDEX.words) - 1)), st.booleans(),
       st.sampled_from(sorted(TURNS)))
def test_best_is_the_best_word_scored_one_by_one(hand, model, counter, previous, fortress,
                                                 variant):
    before = None if previous is None else INDEX.words[previous]
    got = TURNS[variant].best(hand, MASKS[model], counter, before, fortress)
    assert got == _reference_best(hand, model, counter, before, fortress)


@settings(max_examples=300)
@given(hands, st.sampled_from(sorted(TURNS)), st.integers(1, 11))
def test_the_filter_lets_through_the_words_the_hand_makes(hand, variant, longest):
    """Tables (one AND a group) and then fits(): exactly the words the hand makes, in the
    whole filter and in a filter of the shorter words."""
    turns = TURNS[variant]
    with _constants(H, SPLIT_FROM=500) if variant != "shipped" else contextlib.nullcontext():
        filter = turns.filter if longest > 10 else HandFilter.shorter(INDEX, longest)
    keys = filter.keys(hand)
    through = []
    for part in filter.parts:
        bits = -1
        for table, key in zip(part.tables, keys, strict=True):
            bits &= table[key]
        through += [j for j in range(part.lo, part.hi)
                    if bits >> (part.hi - 1 - j) & 1 and filter.fits(j, hand)]
    ids = filter.ids if filter.ids is not None else range(len(INDEX.words))
    assert [ids[j] for j in through] == [i for i in _makeable(hand)
                                         if len(INDEX.words[i]) <= longest]


@given(hands)
def test_a_hands_keys_are_its_counts_capped_at_two(hand):
    filter = TURNS["shipped"].filter
    assert filter.keys(hand) == [
        sum(min(hand.count(ch), 2) << (H.COUNT_BITS * n) for n, ch in enumerate(group))
        for group in filter.groups]


@settings(max_examples=200)
@given(st.integers(0, len(INDEX.words) - 1), st.integers(0, 8), st.booleans(),
       st.booleans())
def test_turn_scores_and_power_ups_are_score_words(i, combo, link, fortress):
    turns = TURNS["shipped"]
    word, tier = INDEX.words[i], INDEX.tiers[i]
    fn, fd = turns._factor(combo, link, fortress)
    assert turns.num[i] * fn // (turns.den[i] * fd) == score_word(
        word, tier, RULES, Play(combo, False, link, False, fortress)).score
    for powerup in (None, *B.POWERUPS):
        up = min(tier + RULES.gold_rush_tiers, len(RULES.tiers) - 1) if (
            powerup == "gold_rush") else tier
        play = Play(combo, powerup == "double", link, powerup == "overdrive", fortress)
        assert turns.value(i, combo, link, fortress, powerup) == score_word(
            word, up, RULES, play).score


def test_masks_are_the_plain_per_bucket_masks_built_or_stored():
    stored = index_from_bytes(index_bytes(INDEX), RULES)
    for model in MODELS:
        keep = knows(model, RULES)
        plain = {key: int(bytes(0x31 if keep(INDEX.ratings[i]) else 0x30 for i in seg.ids), 2)
                 for key, seg in INDEX.buckets.items()}
        assert INDEX.mask(keep) == plain
        assert stored.mask(keep) == plain
        whole = sum(1 << (len(INDEX.words) - 1 - i) for i, k in enumerate(KNOWN[model.name])
                    if k)
        assert INDEX.mask_whole(INDEX.mask(keep)) == whole
        assert INDEX.mask_whole(dict(plain)) == whole  # a mask made elsewhere
    assert INDEX.mask(H.every_word) == INDEX.mask(lambda r: True)


@given(st.integers(0, 2**64), st.integers(0, 300))
def test_a_deals_shuffle_is_the_generators_own(seed, n):
    mine, theirs = list(range(n)), list(range(n))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(mine, a)
    b.shuffle(theirs)
    assert mine == theirs and a.getstate() == b.getstate()


counts = st.dictionaries(st.integers(-3, 30) | st.sampled_from(["0>1", "double", "2:rare"]),
                         st.integers(1, 50), max_size=8)


@given(st.lists(st.fixed_dictionaries({name: counts for name in COUNTERS}), min_size=2,
                max_size=5))
def test_merged_tallies_are_counter_updates_in_the_same_order(parts):
    merged, plain = Tally(), Tally()
    for part in parts:
        one = Tally(**{name: Counter(c) for name, c in part.items()})
        merged.merge(one)
        for name in COUNTERS:
            getattr(plain, name).update(getattr(one, name))
    for name in COUNTERS:
        assert list(getattr(merged, name).items()) == list(getattr(plain, name).items())


# ---- a whole game against the plain loop ------------------------------------------------------

def _plain_best(turns: Turns, hand: str, mask: dict[int, int], counter: int,
                previous: str | None, fortress: bool) -> tuple[int, int, int, bool] | None:
    """The words the hand makes from the whole index's per-letter bitsets (Segment.makeable),
    each scored by score_word: the best as _reference_best picks it."""
    have = Counter(hand)
    have.pop(WILD, None)
    bits = INDEX.whole.makeable(dict(have), 0) & INDEX.mask_whole(mask)
    found = None
    n = len(INDEX.words)
    for i in range(n):
        if not bits >> (n - 1 - i) & 1:
            continue
        word, tier = INDEX.words[i], INDEX.tiers[i]
        if previous is None:
            combo, link = 0, False
        else:
            combo = counter + 1 if len(word) > len(previous) else 0
            link = word[0] == previous[0]
        value = turns.index.score(i, Play(combo, False, link, False, fortress), tier)[0]
        key = (value, INDEX.scores[i])
        if found is None or key > found[0] or (key == found[0]
                                                and word < INDEX.words[found[1][1]]):
            found = (key, (value, i, combo, link))
    return None if found is None else found[1]


def _plain_game(turns: Turns, masks: list[dict[int, int]], rng: random.Random, game: GameRules,
                tally: Tally, trace: list[dict[str, Any]]) -> list[int]:
    """The game loop as the rules say it, counting into the tally turn by turn."""
    rules, index = RULES, INDEX
    size = rules.tiles.hand_size
    dealt = deal(rules.tiles, len(masks), rng)
    bag = list(dealt.bag)
    seats = [Seat(list(h), m) for h, m in zip(dealt.hands, masks, strict=True)]
    guard = [False] * len(seats)
    longest = [0] * len(seats)
    gains: list[dict[str, int]] = [{} for _ in seats]
    last_turn = game.turns - 1
    passes_before = tally.passes
    for t in range(game.turns):
        for s, seat in enumerate(seats):
            hand = "".join(seat.hand)
            found = _plain_best(turns, hand, seat.mask, seat.counter, seat.previous, guard[s])
            tally.turns += 1
            trace.append({"seat": s, "turn": t, "hand": hand, "word": None, "score": 0,
                          "combo": 0, "link": False, "powerup": None, "fortress": guard[s]})
            if found is None:
                tally.passes += 1
                tally.seat_passes[s] += 1
                tally.turn_scores[0] += 1
                seat.counter = 0
                bag.extend(seat.hand)
                seat.hand = bag[:size]
                del bag[:size]
                guard[s] = False
                seat.last = 0
                continue
            value, i, combo, link = found
            spent, gain = None, 0
            word, tier = index.words[i], index.tiers[i]

            def scored(powerup: str | None, fortress: bool, word: str = word,
                       tier: int = tier, combo: int = combo, link: bool = link) -> int:
                up = min(tier + rules.gold_rush_tiers, len(rules.tiers) - 1) if (
                    powerup == "gold_rush") else tier
                return score_word(word, up, rules, Play(combo, powerup == "double", link,
                                                        powerup == "overdrive",
                                                        fortress)).score
            if game.powerups:
                for o in seat.held:
                    extra = scored(o, guard[s]) - value
                    if extra > gain:
                        spent, gain = o, extra
                if spent is not None and (gain >= game.use_at or t == last_turn):
                    seat.held.remove(spent)
                    tally.uses[spent] += 1
                    tally.gains[spent] += gain
                    gains[s][spent] = gains[s].get(spent, 0) + gain
                    value += gain
                else:
                    spent = None
            if guard[s]:
                cut = scored(spent, False) - value
                tally.fortress_cut += cut
                for rival in range(len(seats)):
                    if rival != s:
                        gains[rival][FORTRESS] = gains[rival].get(FORTRESS, 0) + cut
                guard[s] = False
            trace[-1].update(word=word, score=value, combo=combo, link=link, powerup=spent)
            seat.total += value
            seat.last = value
            seat.counter = combo
            seat.previous = word
            longest[s] = max(longest[s], combo)
            if spent == "gold_rush":
                tier = min(tier + rules.gold_rush_tiers, len(rules.tiers) - 1)
            tally.turn_scores[value] += 1
            tally.tiers[rules.keys[tier]] += 1
            tally.seat_tiers[f"{s}:{rules.keys[tier]}"] += 1
            tally.lengths[len(word)] += 1
            tally.combos[combo] += 1
            tally.links += link
            for ch in word:
                seat.hand.remove(ch)
            need = size - len(seat.hand)
            seat.hand.extend(bag[:need])
            del bag[:need]
        if game.powerups:
            for s, seat in enumerate(seats):
                if not seat.fortress:
                    continue
                rivals = [o for o in range(len(seats)) if o != s]
                if any(seats[o].last >= game.use_at for o in rivals) or t == last_turn - 1:
                    seat.fortress = False
                    tally.uses[FORTRESS] += 1
                    for rival in rivals:
                        guard[rival] = True
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
    tally.passes_sq += (tally.passes - passes_before) ** 2
    winners = B._winners(totals)
    if len(winners) == 1:
        tally.wins[winners[0]] += 1
    else:
        tally.draws += 1
    if len(totals) >= 2:
        tally.margins[totals[0] - totals[1]] += 1
    for s in range(len(seats)):
        for o, points in gains[s].items():
            without = list(totals)
            without[s] -= points
            if B._winners(without) != winners:
                tally.decisive[o] += 1
    return totals


def _counts(tally: Tally) -> dict[str, Any]:
    """Every count, each counter's keys in the order first counted."""
    return {**{name: list(getattr(tally, name).items()) for name in COUNTERS},
            **{name: getattr(tally, name) for name in INTS}}


@pytest.mark.parametrize("variant", ["shipped", "parts", "no room"])
@settings(max_examples=25)
@given(st.integers(0, 2**32), st.lists(st.sampled_from([m.name for m in MODELS]), min_size=1,
                                       max_size=4),
       st.integers(1, 14), st.booleans(), st.integers(0, 120))
def test_games_and_their_tally_are_the_plain_loops(variant, seed, seats, turns, powerups,
                                                   use_at):
    engine = TURNS[variant]
    game = GameRules(turns=turns, powerups=powerups, use_at=use_at)
    masks = [MASKS[name] for name in seats]
    fast, plain = Tally(), Tally()
    fast_trace: list[dict[str, Any]] = []
    plain_trace: list[dict[str, Any]] = []
    for g in range(3):  # one tally over several games: the counts pile up in order
        totals = play_game(INDEX, engine, RULES, masks, random.Random(seed + g), game, fast,
                           fast_trace)
        again = _plain_game(engine, masks, random.Random(seed + g), game, plain, plain_trace)
        assert totals == again
    assert fast_trace == plain_trace
    assert _counts(fast) == _counts(plain)
