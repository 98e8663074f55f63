"""Pool selection: the article's overlap method, indexed by kanji, with its two wishes.

Overlap of two words = the number of distinct kanji they share; a candidate's score = the sum of
its overlaps with the n base words. The pass mark is the m-th highest score among the non-base
candidates of the filtered dictionary (words scoring 0 included); m words are drawn at random
among those scoring at least the pass mark. Base + drawn words make the pool.

Only words sharing a kanji with the base are ever scored (through the kanji index). When fewer
than m of them score above 0, the m-th highest score is 0 and, as the rule says, every filtered
non-base word is eligible: m words are then drawn from the whole filtered list without scoring it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from operator import countOf
from typing import Any

from wordforge_cli.core.engine import OutOfBudget
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.rng import derive_seed, item_rng
from wordforge_cli.kanji.dictionary import GRADE_OTHER, MAX_KANJI, Dictionary, View

DEFAULT_SCOPE = ("kanji",)


@dataclass(frozen=True)
class PoolRequest:
    """What one pool must be: sizes, kanji-count range, difficulty filters, retry budget."""

    base: int = 5                      # n: base words
    bring: int = 25                    # m: words drawn for their overlap with the base
    kanji: tuple[int, int] | None = None  # distinct kanji wanted, inclusive range
    max_grade: int = GRADE_OTHER       # no word with a kanji above this grade
    base_max_grade: int = GRADE_OTHER  # base words held to this (stricter) grade
    min_zipf: float | None = None      # no word rarer than this
    budget: int = 200                  # pools drawn at most to reach the kanji range
    examples: int = 5                  # hidden compounds listed per pool

    def view(self, dictionary: Dictionary) -> View:
        return dictionary.view(self.max_grade, self.base_max_grade, self.min_zipf)


@dataclass(frozen=True)
class Pool:
    base: tuple[int, ...]
    picked: tuple[int, ...]
    scores: tuple[int, ...]   # score of each picked word
    pass_score: int
    kanji: tuple[str, ...]    # distinct kanji, shuffled
    attempts: int


def check_request(dictionary: Dictionary, request: PoolRequest) -> View:
    """Refuse at once a request no pool can meet (exit 2), before any pool is drawn."""
    n, m = request.base, request.bring
    if n < 1:
        raise UsageError(f"must be at least 1, not {n}", field="base")
    if m < 1:
        raise UsageError(f"must be at least 1, not {m}", field="bring")
    for name, value in (("max_grade", request.max_grade),
                        ("base_max_grade", request.base_max_grade)):
        if not 1 <= value <= GRADE_OTHER:
            raise UsageError(f"must be 1 to {GRADE_OTHER}, not {value}", field=name)
    if request.budget < 1:
        raise UsageError(f"must be at least 1, not {request.budget}", field="attempts")
    if request.examples < 0:
        raise UsageError(f"must be 0 or more, not {request.examples}", field="hidden_examples")
    if not len(dictionary):
        raise UsageError("the dictionary is empty", field="dict")
    if request.min_zipf is not None and request.min_zipf != request.min_zipf:
        raise UsageError("must be a number, not nan", field="min_zipf")
    if request.min_zipf is not None and all(z is None for z in dictionary.zipf):
        raise UsageError(f"{request.min_zipf:g}: the dictionary has no frequencies "
                         "(a word<TAB>zipf .tsv has them; a word list does not)",
                         field="min_zipf")
    view = request.view(dictionary)
    if len(view.ids) < n + m:
        # the field refused: the count, unless no pool of any bring is left (n + 1 words):
        # then the filter without which this one could be made
        without = {"min_zipf": (request.max_grade, None),
                   "max_grade": (GRADE_OTHER, request.min_zipf)}
        culprit = next((name for name, (grade, zipf) in without.items()
                        if len(view.ids) <= n
                        and len(dictionary.view(grade, GRADE_OTHER, zipf).ids) >= n + m), "bring")
        raise UsageError(
            f"base {n} + bring {m} needs {n + m} words; the filters leave {len(view.ids)} "
            f"of {len(dictionary)} (loosen max_grade/min_zipf or ask for fewer)", field=culprit)
    if len(view.base_ids) < n:
        raise UsageError(
            f"base {n} needs {n} base words; base_max_grade {request.base_max_grade} "
            f"leaves {len(view.base_ids)}", field="base")
    if request.kanji is not None:
        lo, hi = request.kanji
        if lo < 1 or lo > hi:
            raise UsageError(f"{lo}-{hi}: need 1 <= low <= high", field="kanji")
        most = min(view.kanji_count, (n + m) * MAX_KANJI)
        if lo > most:
            raise UsageError(f"{lo}-{hi}: a pool of {n + m} words from this dictionary has "
                             f"at most {most} distinct kanji", field="kanji")
    return view


def make_pool(dictionary: Dictionary, request: PoolRequest, rng: random.Random,
              view: View | None = None) -> Pool:
    """One pool drawn from ``rng`` alone; redrawn (new base) until its kanji count is in range.

    Raises CannotDo when the budget runs out, saying which counts it saw and what to change.
    """
    if view is None:
        view = check_request(dictionary, request)
    if request.kanji is None:
        return _draw(dictionary, request, view, rng, 1)
    lo, hi = request.kanji
    low_seen, high_seen = MAX_KANJI * (request.base + request.bring) + 1, -1
    for attempt in range(1, request.budget + 1):
        pool = _draw(dictionary, request, view, rng, attempt)
        count = len(pool.kanji)
        if lo <= count <= hi:
            return pool
        low_seen = min(low_seen, count)
        high_seen = max(high_seen, count)
    if high_seen < lo:
        hint = "raise --bring or --base, or lower the range"
    elif low_seen > hi:
        hint = "lower --bring or --base, or raise the range"
    else:
        hint = "widen the range or raise the budget (attempts)"
    raise CannotDo(f"no pool with {lo}-{hi} kanji in {request.budget} attempts "
                   f"(pools of {request.base}+{request.bring} words had {low_seen}-{high_seen}); "
                   f"{hint}")


def _draw(dictionary: Dictionary, request: PoolRequest, view: View, rng: random.Random,
          attempt: int) -> Pool:
    n, m = request.base, request.bring
    base = rng.sample(view.base_ids, n)
    order = dictionary.kanji_order
    postings = view.postings
    # score = sum over base words of shared distinct kanji = how often a word turns up in the
    # postings of the base words' distinct kanji (C-speed counting)
    scores = Counter(chain.from_iterable(postings[ch] for b in base for ch in order[b]))
    for b in base:
        scores.pop(b, None)
    if len(scores) >= m:
        pass_score = _mth_highest(scores, m)
        # the candidates in first-scored order: a dict's order is its insertion order, which
        # follows the postings, so this is the same on every run and machine without sorting
        if pass_score == 1:  # the common case: every scored word is eligible
            eligible = list(scores)
        else:
            eligible = [i for i, s in scores.items() if s >= pass_score]
        picked = rng.sample(eligible, m)
    else:
        # fewer than m words score above 0: the pass mark is 0 and every word is eligible
        pass_score = 0
        taken = set(base)
        picked = [i for i in rng.sample(view.ids, m + n) if i not in taken][:m]
    kanji = list(dict.fromkeys(chain.from_iterable(order[i] for i in chain(base, picked))))
    rng.shuffle(kanji)
    return Pool(tuple(base), tuple(picked), tuple(scores.get(i, 0) for i in picked),
                pass_score, tuple(kanji), attempt)


def _mth_highest(scores: Counter[int], m: int) -> int:
    """The m-th highest of the scores (all >= 1, at least m of them)."""
    if len(scores) - countOf(scores.values(), 1) < m:  # fewer than m score 2+: the mark is 1
        return 1
    hist = Counter(scores.values())
    seen = 0
    for score in sorted(hist, reverse=True):
        seen += hist[score]
        if seen >= m:
            return score
    return 0  # unreachable when len(scores) >= m


def hidden_compounds(dictionary: Dictionary, kanji: Iterable[str],
                     exclude: Iterable[int] = ()) -> list[int]:
    """Ids (ascending: commonest first in the default list) of words built from ``kanji`` alone.

    Every word is filed under its least common kanji, so only those short lists are read.
    """
    board = frozenset(kanji)
    on_board, common = board.issuperset, board.intersection
    none: dict[str, list[int]] = {}
    pairs, longer = dictionary.by_rarest, dictionary.by_rarest_long
    # flat comprehensions, no call per kanji. 2-kanji words (most of them): the board's kanji
    # met with the other kanji of the words filed under each board kanji, a C-level set
    # intersection; longer words: one subset test each.
    found = [i for ch in board for others in (pairs.get(ch, none),)
             for other in common(others) for i in others[other]]
    found += [i for ch in board for i, rest in longer.get(ch, ()) if on_board(rest)]
    skip = set(exclude)
    return sorted([i for i in found if i not in skip])


def pool_record(dictionary: Dictionary, request: PoolRequest, pool: Pool, index: int,
                seed: int) -> dict[str, Any]:
    """The JSON record of a pool (keys in a fixed order), quality figures included.

    ``seed`` is the pool's own seed: ``random.Random(seed)`` redraws it with ``make_pool``.
    """
    words = dictionary.words
    ids = pool.base + pool.picked
    pool_words = [words[i] for i in ids]
    n = len(pool.base)
    uses = Counter(chain.from_iterable(map(dictionary.kanji_order.__getitem__, ids)))
    orphans = sorted([ch for ch, c in uses.items() if c == 1])
    chars = sum(map(len, pool_words))
    hidden = hidden_compounds(dictionary, pool.kanji, ids)
    grades = dictionary.grades
    return {
        "id": index,
        "seed": seed,
        "base": pool_words[:n],
        "picked": pool_words[n:],
        "words": pool_words,
        "kanji": list(pool.kanji),
        "pass_score": pool.pass_score,
        "scores": list(pool.scores),
        "kanji_count": len(pool.kanji),
        "chars": chars,
        "index_a": chars - len(pool.kanji),
        "orphans": orphans,
        "orphan_count": len(orphans),
        "hardest_grade": max([grades.get(ch, GRADE_OTHER) for ch in pool.kanji]),
        "hidden_count": len(hidden),
        "hidden": [words[i] for i in hidden[: request.examples]],
        "attempts": pool.attempts,
    }


def pool_items(dictionary: Dictionary, request: PoolRequest, seed: int,
               indices: Iterable[int], scope: tuple[str, ...] = DEFAULT_SCOPE
               ) -> Iterator[dict[str, Any] | OutOfBudget]:
    """The record of each pool of ``indices``, or an :class:`OutOfBudget` (saying which counts
    it saw) for one whose kanji-count budget ran out: the engine's policy, for the command
    line and pack sections alike, is to count it as failed and go on. Pool i draws only from
    ``item_rng(seed, *scope, i)``. The request is checked once, before the first pool."""
    view = check_request(dictionary, request)
    for index in indices:
        try:
            pool = make_pool(dictionary, request, item_rng(seed, *scope, index), view)
        except CannotDo as exc:
            yield OutOfBudget(exc.message)
            continue
        yield pool_record(dictionary, request, pool, index, derive_seed(seed, *scope, index))


def iter_pools(dictionary: Dictionary, request: PoolRequest, seed: int, indices: Iterable[int],
               scope: tuple[str, ...] = DEFAULT_SCOPE) -> Iterator[dict[str, Any]]:
    """Records of pools ``indices`` (as :func:`pool_items`), CannotDo at the first pool whose
    budget runs out: for callers that need every pool."""
    for item in pool_items(dictionary, request, seed, indices, scope):
        if isinstance(item, OutOfBudget):
            raise CannotDo(item.reason)
        yield item
