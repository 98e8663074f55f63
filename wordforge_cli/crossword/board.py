"""One board: generate-and-test within an attempt budget (the article's method, made cheap).

The article shuffles the whole vocabulary for every attempt. Here an attempt draws the answer
from the precomputed candidates of the band, then for answer letter i draws word i from the
words holding that letter (``Lexicon.by_letter``), crossing word i-1 at one of their shared
letters (pairs precomputed once per word pair), checking only the cells the word covers.
A word is kept only if some unused word holding the next answer letter could still cross it
(one-step lookahead); a failed slot retries a few other words before the attempt is given up.
Every attempt counts against one budget shared by all retries of the board (default 3000, the
article's figure). Answers that no chain of crossing words can spell are never drawn.

Coordinates while building are integer keys ``y * STRIDE + x`` (so sorting keys sorts cells
by y then x) around a far-away origin (the article's [100, 100] margin), normalised to start at
0 when the board is done. A chain moves at most :data:`ATTEMPT_WORK` cells from the origin
(an attempt pays for every cell it places), far inside the key space.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import reduce
from itertools import repeat
from math import floor
from operator import or_
from typing import Any

from wordforge_cli.core.errors import UsageError
from wordforge_cli.core.rng import derive_seed
from wordforge_cli.crossword.blanks import STYLES, blank
from wordforge_cli.crossword.layout import (
    ACROSS,
    ATTEMPT_WORK,
    BITS,
    DOWN,
    MASK,
    ORIGIN,
    STRIDE,
    AnswerPlan,
    Candidate,
    CandidatePool,
    Partners,
    Pools,
    Slot,
)
from wordforge_cli.crossword.lexicon import Lexicon

LAYOUTS: tuple[str, ...] = ("loose", "strict")
DEFAULT_BUDGET = 3000
SLOT_TRIES = 8  # other words tried for one answer letter before the attempt is given up
# Partner pools (the words holding a letter that can cross a given word) are computed by a scan
# of that letter's words: only for letters held by at most this many words, so one scan is
# cheap; a commoner letter's words are drawn from all of them (the crossing check sorts them).
# Every lookup of a pool, cached or not, is charged its scan to the attempt's work, so the
# work stays a function of the draws alone (the same in every process), never of the cache.
PARTNER_POOL_MAX = 64
# Words of at most this many letters keep their letter tuple (_spelt) and their cells down from
# the origin (AttemptTables.down0) for the next attempt; a longer word's would take memory by
# the letter (a few thousand words of thousands of letters: hundreds of MB) and is made again.
SHORT_WORD = 64
PROBE_ATTEMPTS = 64  # attempts a candidate answer gets to show it can be made at all
PROBE_CANDIDATES = 2000  # above this many candidates answers are not probed (see dealable)
PARTNER_CACHE_WORDS = 3000  # above this many words, crossings and partners are not cached
PLANS_MAX = 4096  # answers whose plan (AttemptTables.plan: a few hundred bytes) is kept
# answers of more letters keep neither their plan nor their slots: they would take memory by the
# letter (3,000 answers of 3,000 letters: about 700 MB of slots) and are made again each attempt
PLAN_LETTERS_MAX = SHORT_WORD
MEMO_BOARDS = 2048  # finished layouts kept per vocabulary (only when crossings are cached);
# with their record parts and JSON (2x this) they cost ~30 KB a layout: 8192 took a 100,000-board
# run to 227 MB, 2048 keeps it at 92 MB for 2% more CPU (tech.yaml, answers of 4-5)

@dataclass(frozen=True, slots=True)
class Request:
    """What a board must be: answer length band, blank style, layout, budget, fairness."""

    min_len: int = 4
    max_len: int = 5
    style: str = "none"
    layout: str = "loose"
    budget: int = DEFAULT_BUDGET
    unique: bool = False
    max_width: int | None = None  # cells across the board may span (None: no limit)
    max_height: int | None = None  # cells down


@dataclass(slots=True)
class Board:
    """A made board. ``cells`` are (x, y, letter, n) sorted by y then x, n after blanking;
    ``base`` holds each cell's n before blanking (None when the style is ``none``: the same as
    the cells'); ``words`` are (word, x, y, dir) in chain order, word i holding answer letter i.
    """

    answer: str
    w: int
    h: int
    words: list[tuple[str, int, int, str]]
    cells: list[tuple[int, int, str, int]]
    base: list[int] | None
    attempts: int
    style: str = "none"
    blanked: int = 0
    extra: dict[str, Any] | None = None
    ids: tuple[int, ...] = ()  # lexicon ids of the answer and the words in chain order
    label: str | None = None  # the style's name in the game's words (config ``labels``)
    fallback: bool = False  # made by the fallback band, not the one asked for
    redraws: int = 0  # boards drawn and put back because the style blanked nothing
    # the layout's identity (small vocabularies): caches key on it
    key: tuple[object, ...] | None = None
    first: list[tuple[int, int, str, int]] | None = None  # first draw's unblanked cells, kept
    # when redraws replaced it: the statistics' first-draw blank-failure rate counts it


def check_request(lexicon: Lexicon, request: Request) -> tuple[int, ...]:
    """The candidate answers of ``request``, or UsageError saying why it can never succeed.

    Cheap (one pass over the band's words plus a tiny matching per candidate, cached per
    band and size limit), so an impossible request is answered at once instead of spending
    the budget.
    """
    if request.style not in STYLES:
        raise UsageError(f"unknown style '{request.style}' (one of {', '.join(STYLES)})",
                         field="style")
    if request.layout not in LAYOUTS:
        raise UsageError(f"unknown layout '{request.layout}' (one of {', '.join(LAYOUTS)})",
                         field="layout")
    if request.budget < 1:
        raise UsageError("the attempt budget must be at least 1", field="budget")
    lo, hi = request.min_len, request.max_len
    if lo > hi:
        raise UsageError(f"impossible request: min length {lo} > max length {hi}",
                         field="min_len")
    if lo < 2:
        raise UsageError("impossible request: an answer needs at least 2 letters (its first "
                         "word runs down, its second across)", field="min_len")
    mw, mh = request.max_width, request.max_height
    for name, limit in (("width", mw), ("height", mh)):
        if limit is not None and limit < 2:
            raise UsageError(f"impossible request: max {name} {limit}: every board has a word "
                             f"down and a word across, each of 2 letters or more",
                             field=f"max_{name}")
    cands = candidates(lexicon, lo, hi, mw, mh)
    if cands:
        return cands
    if not any(lo <= len(w) <= hi for w in lexicon.words):
        lengths = sorted({len(w) for w in lexicon.words})
        raise UsageError(f"impossible request: no word of {lo}-{hi} letters in the vocabulary "
                         f"(lengths there: {_ranges(lengths)})", field="min_len")
    if (mw is not None or mh is not None) and candidates(lexicon, lo, hi):
        raise UsageError(f"impossible request: no {lo}-{hi} letter answer fits a board of at "
                         f"most {mw or 'any'} x {mh or 'any'} cells: its words run down and "
                         f"across in turn, so words down may have at most {mh or 'any'} "
                         f"letters and words across at most {mw or 'any'}, and not enough "
                         "such words hold the answers' letters",
                         field="max_width" if mw is not None else "max_height")
    raise UsageError(f"impossible request: no {lo}-{hi} letter word has, for every one of its "
                     "letters, another distinct word holding that letter, each crossing the "
                     "word before it")


def _ranges(values: list[int]) -> str:
    return ", ".join(str(v) for v in values[:20]) + (" ..." if len(values) > 20 else "")


def pools(lexicon: Lexicon, max_width: int | None, max_height: int | None) -> tuple[Pools,
                                                                                     Pools]:
    """(words down, words across) by letter: ``lexicon.by_letter`` cut to the words whose
    length fits the height (down) or the width (across). The size limit is kept while words
    are placed; this is its part that can be known before (cached per limit)."""
    if max_width is None and max_height is None:
        return lexicon.by_letter, lexicon.by_letter
    key = (max_width, max_height)
    made = lexicon.cache.pools.get(key)
    if made is None:
        words = lexicon.words

        def cut(limit: int | None) -> Pools:
            if limit is None:
                return lexicon.by_letter
            return {c: kept for c, ids in lexicon.by_letter.items()
                    if (kept := tuple(q for q in ids if len(words[q]) <= limit))}

        made = lexicon.cache.pools[key] = (cut(max_height), cut(max_width))
    return made


def candidates(lexicon: Lexicon, lo: int, hi: int, max_width: int | None = None,
               max_height: int | None = None) -> tuple[int, ...]:
    """Ids of the words of length lo..hi that could be answers: every letter of the answer
    can be given its own distinct other word holding it (bipartite matching), of a length
    that fits the size limit in the direction that letter's word runs.

    An answer of more than SHORT_WORD letters is taken unchecked: its matching costs about
    the square of its letters times the words holding them (9,000 answers of 3,000 letters
    would not finish) and its search paths grow as long as the answer; the attempts' budget
    bounds such an answer instead. No real vocabulary has one."""
    cache = lexicon.cache.candidates
    key = (lo, hi, max_width, max_height)
    if key not in cache:
        chain = len(lexicon.words) <= PARTNER_CACHE_WORDS
        by_dir = pools(lexicon, max_width, max_height)
        cache[key] = tuple(i for i, w in enumerate(lexicon.words)
                           if lo <= len(w) <= hi and (
                               len(w) > SHORT_WORD or _coverable(lexicon, i, by_dir)
                               and (not chain or _chainable(lexicon, i, by_dir))))
    return cache[key]


def _chainable(lexicon: Lexicon, answer: int, by_dir: tuple[Pools, Pools]) -> bool:
    """Is there a chain w0..wn, wi holding answer letter i, each sharing a letter with the one
    before (distinctness and geometry aside)? If not, no attempt can ever succeed.

    Letter sets are bit masks (one bit a letter of the vocabulary), so the sets of a 3,000-word
    list's pools are joined by C-level ``|`` instead of set building (0.27 s to 0.04 s)."""
    masks = lexicon.cache.letter_masks
    if len(masks) != len(lexicon.words):
        masks = lexicon.cache.letter_masks = _letter_masks(lexicon)
    reach = -1  # letters of the words that can end the chain so far (at first: any)
    for i, ch in enumerate(lexicon.words[answer]):
        ok = [m for q in by_dir[i % 2].get(ch, ()) if (m := masks[q]) & reach and q != answer]
        if not ok:
            return False
        reach = reduce(or_, ok)
    return True


def _letter_masks(lexicon: Lexicon) -> tuple[int, ...]:
    """Each word's letters as a bit mask (bit k: the k-th letter of ``by_letter``). A word of
    many distinct letters is written as binary digits and read at once: a sum of its letters'
    powers of two costs each letter the size of the mask (3,000 words of 2,000 kanji: 2 s)."""
    bits = {c: 1 << k for k, c in enumerate(lexicon.by_letter)}
    index = {c: k for k, c in enumerate(lexicon.by_letter)}
    zeros = bytearray(b"0") * len(index)
    made = []
    eager = isinstance(lexicon.positions, list)  # (its keys: the word's letters, found once)
    for i, w in enumerate(lexicon.words):
        letters = lexicon.positions[i].keys() if eager else set(w)
        if len(letters) <= SHORT_WORD:
            made.append(sum(bits[c] for c in letters))
            continue
        digits = zeros.copy()  # digit k: letter k, lowest first
        deque(map(digits.__setitem__, map(index.__getitem__, letters), repeat(ord("1"))), 0)
        made.append(int(digits[::-1], 2))
    return tuple(made)


def _coverable(lexicon: Lexicon, answer: int, by_dir: tuple[Pools, Pools]) -> bool:
    """Can each letter of the answer be matched to a distinct other word holding it?"""
    owner: dict[int, int] = {}  # word id -> answer position
    word = lexicon.words[answer]

    def assign(pos: int, seen: set[int]) -> bool:
        for q in by_dir[pos % 2].get(word[pos], ()):
            if q == answer or q in seen:
                continue
            seen.add(q)
            if q not in owner or assign(owner[q], seen):
                owner[q] = pos
                return True
        return False

    return all(assign(pos, set()) for pos in range(len(word)))


def _crossings(lexicon: Lexicon, p: int, q: int) -> tuple[tuple[int, int], ...]:
    """Pairs (a, b) with word p's letter a equal to word q's letter b, by p's letters in
    their order, then a, then b."""
    pos_p, pos_q = lexicon.positions[p], lexicon.positions[q]
    if len(pos_p) <= SHORT_WORD or len(pos_q) >= len(pos_p):
        return tuple((a, b) for c, pa in pos_p.items() if c in pos_q
                     for a in pa for b in pos_q[c])
    # a word p of many letters is walked only at the letters q has (its pairs are at most
    # the work left: _over), and the pairs put in p's order again (its letters come in the
    # order of their first place in p)
    found = sorted((pa[0], a, b) for c, qb in pos_q.items() if (pa := pos_p.get(c))
                   for a in pa for b in qb)
    return tuple((a, b) for _first, a, b in found)


def make_board(lexicon: Lexicon, request: Request, rng: random.Random,
               avoid: frozenset[int] | set[int] = frozenset(),
               answer: int | None = None) -> Board | None:
    """A board for ``request`` drawn from ``rng`` alone, or None when the budget runs out.

    ``avoid``: answer ids not to use (a challenge set never repeats an answer); ``answer``:
    the answer id to use (a schedule dealt it; it must be one of the request's candidates).
    Raises UsageError at once for a request that can never succeed (see
    :func:`check_request`).
    """
    cands = lexicon.cache.checked.get(request)
    if cands is None:
        cands = lexicon.cache.checked[request] = check_request(lexicon, request)
    if avoid:
        cands = tuple(c for c in cands if c not in avoid)
        if not cands:
            return None
    return generate(lexicon, cands, request, rng, answer)


def generate(lexicon: Lexicon, cands: tuple[int, ...], request: Request,
             rng: random.Random, answer: int | None = None, *,
             dealt_only: bool = False) -> Board | None:
    """:func:`make_board` once ``cands`` (from :func:`check_request`) are known.

    ``answer``: the dealt answer, used for the first half of the budget (the whole of it
    with ``dealt_only``); then any candidate, so an answer that cannot be made costs half
    a budget, never the board."""
    return generator(lexicon, cands, request, dealt_only=dealt_only)(rng, answer)


def generator(lexicon: Lexicon, cands: tuple[int, ...], request: Request, *,
              dealt_only: bool = False) -> Callable[[random.Random, int | None], Board | None]:
    """``(rng, answer) -> generate(lexicon, cands, request, rng, answer)``, with what every
    board of the request looks up (its tables, layout, budget, style) worked out once: a
    batch checks the request once and makes thousands of boards with this."""
    strict = request.layout == "strict"
    t = tables(lexicon, request.max_width, request.max_height)
    checker = None
    if request.unique:
        from wordforge_cli.crossword.unique import count_fillings

        checker = count_fillings
    budget = range(1, request.budget + 1)
    half = request.budget if dealt_only else request.budget // 2
    style = request.style

    def make(rng: random.Random, answer: int | None) -> Board | None:
        rejected = 0
        a = -1 if answer is None else answer
        dealt = 0 if answer is None else half
        rand = rng.random
        for attempt in budget:
            if attempt > dealt:  # a dealt answer that has not come in half the budget: any
                a = -1
            board = _attempt(t, cands, rand, strict, a)
            if board is None:
                continue
            board.attempts = attempt
            if style != "none":
                board.base = [c[3] for c in board.cells]
                types, count = blank(board.cells, style)
                board.cells = [(x, y, c, n) for (x, y, c, _), n in zip(board.cells, types,
                                                                         strict=True)]
                board.style, board.blanked = style, count
            if checker is not None and checker(lexicon, board.words, board.cells,
                                               limit=2) != 1:
                rejected += 1
                continue
            if rejected:
                board.extra = {"ambiguous_rejected": rejected}
            return board
        return None

    return make


def dealable(lexicon: Lexicon, request: Request, cands: tuple[int, ...]) -> tuple[int, ...]:
    """The candidates a schedule may deal: those a board can be made of.

    The candidate check works on letters, not on the grid, so an answer can pass it and
    still never fit (タイムアウト among the tech words, 3-6 letters: its ウ and ム words
    cannot all cross). Each candidate gets :data:`PROBE_ATTEMPTS` attempts from a stream
    seeded by the word itself, so the answer is a pure function of (vocabulary, request,
    word): cached, and the same in every process and shard. Above
    :data:`PROBE_CANDIDATES` candidates nothing is probed (a big vocabulary's answers are
    nearly all makeable; a dealt answer that fails still gives way after half the budget,
    see :func:`generate`), nor in a vocabulary holding a word of more than
    :data:`SHORT_WORD` letters (an attempt there is worth up to :data:`ATTEMPT_WORK` cell
    checks, and 64 of them for each of up to 2,000 answers would cost dozens of budgets
    before the first board; no real vocabulary has such a word).
    """
    if len(cands) > PROBE_CANDIDATES:
        return cands
    key = (request.min_len, request.max_len, request.layout, request.unique,
           request.max_width, request.max_height, cands)
    made = lexicon.cache.dealable.get(key)
    if made is None and max(map(len, lexicon.words)) > SHORT_WORD:  # (see above)
        made = lexicon.cache.dealable[key] = cands
    if made is None:
        probe = replace(request, style="none", budget=PROBE_ATTEMPTS)
        kept = tuple(a for a in cands
                     if generate(lexicon, cands, probe,
                                 random.Random(derive_seed(0, "probe", lexicon.words[a])),
                                 a, dealt_only=True) is not None)
        made = lexicon.cache.dealable[key] = kept or cands
    return made


def _limited_partners(lex: Lexicon, max_width: int | None, max_height: int | None
                      ) -> tuple[Partners | None, Partners | None]:
    """Partner caches (next word down, next word across) for one size limit."""
    if len(lex.words) > PARTNER_CACHE_WORDS:
        return None, None
    key = (max_width, max_height)
    made = lex.cache.partners.get(key)
    if made is None:
        made = lex.cache.partners[key] = ({}, {})
    return made


def _partners(lex: Lexicon, prev: int, ch: str, source: Pools) -> tuple[int, ...]:
    """Words holding ``ch`` (from ``source``) that share a letter with word ``prev``, so can
    cross it."""
    letters = lex.positions[prev].keys()
    positions = lex.positions
    return tuple(q for q in source.get(ch, ()) if q != prev
                 and not letters.isdisjoint(positions[q]))


def _partner_pool(pools: dict[int, tuple[int, ...]], lex: Lexicon, q: int, ch: str,
                  source: Pools) -> tuple[int, ...]:
    """``pools[q]`` (``pools``: one letter's part of a :data:`Partners` cache), computed and
    kept on first use."""
    pool = pools.get(q)
    if pool is None:
        pool = pools[q] = _partners(lex, q, ch, source)
    return pool


def _pool(pool: tuple[int, ...], entries: bool) -> CandidatePool:
    return pool, [None] * len(pool) if entries else None, len(pool)


CYCLE_MAX = 16
# CYCLES[n][o]: the indices 0..n-1 from o on, wrapping (o, o+1, ..., n-1, 0, ..., o-1): the
# order a small pool's words, or a word's crossings, are tried in from a random start (a
# tuple walked instead of a range made and an index worked out at every step)
CYCLES = tuple(tuple(tuple((o + k) % n for k in range(n)) for o in range(n))
               for n in range(CYCLE_MAX + 1))
DRAWN = (-1,) * SLOT_TRIES  # a big pool's tries: each word drawn at random


def _cycle(n: int, o: int) -> tuple[int, ...]:
    """``CYCLES[n][o]`` for any n."""
    return CYCLES[n][o] if n <= CYCLE_MAX else (*range(o, n), *range(o))


class AttemptTables:
    """What every attempt on one lexicon and size limit looks up, worked out once: the pools,
    the partner and crossing caches, and per answer its plan (each answer letter's direction,
    pools and lookahead, which depend on the answer alone), so a step of an attempt does one
    lookup where it did five to eight."""

    __slots__ = ("lex", "small", "nwords", "max_w", "max_h", "by_down", "by_across",
                 "part_down", "part_across", "ents_down", "ents_across", "plans",
                 "down0", "pairs", "slots", "glyphs", "spelt", "crossings")

    def __init__(self, lex: Lexicon, max_width: int | None, max_height: int | None):
        self.lex = lex
        self.nwords = len(lex.words)
        self.small = self.nwords <= PARTNER_CACHE_WORDS  # caches stay bounded
        self.pairs: dict[int, Candidate] = {}  # (word before, word, step) -> entry
        self.crossings: dict[int, int] = {}  # (word before, word) -> how many (_pair_count)
        self.plans: dict[int, AnswerPlan] = {}
        self.slots: dict[tuple[int, str, str], Slot] = {}  # (index, letter, next letter)
        self.down0: dict[int, dict[int, str]] = {}  # word id -> its cells down from the origin
        self.glyphs = {c: c for c in lex.by_letter}  # one str object a letter
        self.spelt: dict[int, tuple[str, ...]] = {}  # word id -> its letters (see _spelt)
        # letter -> word before -> its pool (one direction each)
        self.ents_down: dict[str, dict[int, CandidatePool]] = {}
        self.ents_across: dict[str, dict[int, CandidatePool]] = {}
        if max_width is None and max_height is None:
            self.max_w = self.max_h = 0
            self.by_down = self.by_across = lex.by_letter
            self.part_down = self.part_across = lex.partners if self.small else None
        else:
            self.max_w, self.max_h = max_width or STRIDE, max_height or STRIDE
            self.by_down, self.by_across = pools(lex, max_width, max_height)
            self.part_down, self.part_across = _limited_partners(lex, max_width, max_height)

    def plan(self, a: int) -> AnswerPlan:
        """Answer ``a``'s plan (kept, for up to :data:`PLANS_MAX` answers; its slots are
        shared by every answer with the same letters at the same places)."""
        made = self.plans.get(a)
        if made is not None:
            return made
        answer = self.lex.words[a]
        last = len(answer) - 1
        keep = last < PLAN_LETTERS_MAX  # (see PLAN_LETTERS_MAX)
        slots = []
        for i in range(1, last + 1):
            nch = answer[i + 1] if i < last else ""
            slot = self.slots.get((i, answer[i], nch)) if keep else None
            if slot is None:
                slot = self._slot(i, answer[i], nch)
                if keep:
                    self.slots[i, answer[i], nch] = slot
            slots.append(slot)
        nsrc = len(self.by_across.get(answer[1], ()))
        look = self.part_across is not None and nsrc <= PARTNER_POOL_MAX
        if look:
            nsrc = _scan_work(self.lex, self.by_across.get(answer[1], ()))
        first = self.by_down[answer[0]]
        made = (answer, answer[0], first, len(first), nsrc if look else -1, answer[1],
                self.part_across.setdefault(answer[1], {})
                if look and self.part_across is not None else None,
                self.by_across, tuple(slots))
        if keep and len(self.plans) < PLANS_MAX:
            self.plans[a] = made
        return made

    def _slot(self, i: int, ch: str, nch: str) -> Slot:
        """Answer letter i, ``ch``, followed by ``nch`` ("" for the last)."""
        across = i % 2  # word 0 runs down, then across and down in turn
        step, perp = (ACROSS, DOWN) if across else (DOWN, ACROSS)
        partners, ents, source, nxt_partners, nxt_source = (
            (self.part_across, self.ents_across, self.by_across, self.part_down,
             self.by_down) if across
            else (self.part_down, self.ents_down, self.by_down, self.part_across,
                  self.by_across))
        whole = source.get(ch, ())
        kept = partners is not None and len(whole) <= PARTNER_POOL_MAX
        nsrc = len(nxt_source.get(nch, ()))
        look = nxt_partners is not None and nch != "" and nsrc <= PARTNER_POOL_MAX
        if look:
            nsrc = _scan_work(self.lex, nxt_source.get(nch, ()))
        return (i, ch, step, perp, across,
                ents.setdefault(ch, {}) if kept else None,
                partners.setdefault(ch, {}) if kept and partners is not None else None,
                source, _scan_work(self.lex, whole) if kept else -1, _pool(whole, False),
                nxt_partners.setdefault(nch, {}) if look and nxt_partners is not None
                else None, nxt_source, nch, nsrc if look else -1)


def _scan_work(lex: Lexicon, pool: tuple[int, ...]) -> int:
    """The work of a partner-pool scan of ``pool`` (:func:`_partners`): 1 a word, and a long
    word's letters besides, since whether it shares one with a word is looked up letter by
    letter (the short words of any real vocabulary cost 1 each, as they always have)."""
    words = lex.words
    return len(pool) + sum(n for q in pool if (n := len(words[q])) > SHORT_WORD)


def tables(lex: Lexicon, max_width: int | None = None,
           max_height: int | None = None) -> AttemptTables:
    """The lexicon's :class:`AttemptTables` for one size limit (cached)."""
    key = (max_width, max_height)
    made = lex.cache.tables.get(key)
    if made is None:
        made = lex.cache.tables[key] = AttemptTables(lex, max_width, max_height)
    return made


def _spelt(t: AttemptTables, q: int) -> str | tuple[str, ...]:
    """Word q's letters, each the one object :attr:`AttemptTables.glyphs` holds for it (kept for a
    small vocabulary): a tuple is walked without a new string made for every letter, and equal
    letters are the same object, which a comparison sees at once. An ASCII word is its own
    string: CPython keeps one object per ASCII letter already (not per kana)."""
    word = t.lex.words[q]
    if word.isascii() or len(word) > SHORT_WORD:  # (a long word's tuple: 8 bytes a letter)
        return word
    made = t.spelt.get(q)
    if made is None:
        glyph = t.glyphs
        made = tuple([glyph[c] for c in word])
        if t.small:
            t.spelt[q] = made
    return made


def _over(t: AttemptTables, counts: dict[int, int], work: int, prev: int, q: int) -> bool:
    """Whether trying word q after ``prev`` takes the attempt past its work before its first
    placement is checked: an entry is charged 1 + its crossings, then the placement the
    length of q, and the attempt stops past :data:`ATTEMPT_WORK`. So the entry, whose letter
    pairs of two long words can number millions, is never made for an attempt that stops
    there: the same outcome, the same draws, none of the time. The letters the two words
    share (a set intersection) are a lower bound of the crossings, enough to decide most
    such pairs; the count is summed only until it passes the work left."""
    words = t.lex.words
    left = ATTEMPT_WORK - work - 1 - len(words[q])
    if left < 0:  # q's cells alone are past the work left: its letters are never read
        return True
    if len(words[prev]) * len(words[q]) <= left:  # (no more crossings than letter pairs:
        return False  # every pair of a small vocabulary's words, read at no cost)
    key = prev * t.nwords + q
    n = counts.get(key)  # the crossings, or minus a lower bound of them
    if n is None or n < 0 and -n <= left:
        pos_p, pos_q = t.lex.positions[prev], t.lex.positions[q]
        shared = pos_p.keys() & pos_q.keys()
        if shared and len(shared) > left:  # (each shared letter is a crossing at least)
            counts[key] = -len(shared)
            return True
        n = 0
        for c in shared:  # summed only until past the work left (then a lower bound)
            n += len(pos_p[c]) * len(pos_q[c])
            if n > left:
                counts[key] = -n
                return True
        counts[key] = n
    return n != 0 and (n < 0 or n > left)


def _down(t: AttemptTables, q: int, small: bool) -> dict[int, str]:
    """Word q's cells down from the origin (a new dict: the attempt writes into it); kept
    for the next attempt when the vocabulary is small and the word short."""
    first = t.down0.get(q)
    if first is not None:
        return first.copy()
    wq = _spelt(t, q)
    cells = dict(zip(range(ORIGIN, ORIGIN + len(wq) * DOWN, DOWN), wq, strict=True))
    if small and len(wq) <= SHORT_WORD:  # (a long word's cells would fill memory)
        t.down0[q] = cells.copy()
    return cells


def _entry(t: AttemptTables, prev: int, q: int, prev_step: int, step: int) -> Candidate:
    """Word q crossing word ``prev`` (which runs along ``prev_step``)."""
    lex = t.lex
    opts = tuple([pa * prev_step - pb * step for pa, pb in _crossings(lex, prev, q)])
    if not opts:  # a word that cannot cross: never placed (a long one's letters were read)
        n = len(lex.words[q])
        return (prev, 1 + n if n > SHORT_WORD else 1, 0, opts, "", 0, 0, {})
    wq = _spelt(t, q)
    # (positions of a big vocabulary are worked out on each look: not for a word that
    # cannot cross)
    return (q if opts else prev, 1 + len(opts), len(opts), opts, wq, len(wq), len(wq) * step,
            lex.positions[q] if opts else {})


def _attempt(t: AttemptTables, cands: tuple[int, ...], rand: Callable[[], float], strict: bool,
             a: int = -1) -> Board | None:
    """One try at a whole board; None when some answer letter found no word that fits, or
    the attempt spent its :data:`ATTEMPT_WORK`.

    ``a``: the answer id (-1: drawn from ``cands``); ``t``: the lexicon's tables for the
    request's size limit; ``rand``: the board's ``random.Random().random``.
    """
    # a draw is floor(random() * n), as int() gives it for these non-negative floats (the same
    # numbers; math.floor is a plain call where int() goes through the type's construction)
    lex = t.lex
    small = t.small
    pairs = t.pairs if small else {}  # (a big vocabulary's: kept for one attempt)
    counts = t.crossings if small else {}
    max_w = t.max_w
    if a < 0:
        a = cands[floor(rand() * len(cands))]
    plan = t.plans.get(a)
    if plan is None:
        plan = t.plan(a)
    answer, ch, pool, npool, nsrc, nch, nxt, by_across, slots = plan
    work = 0
    # word 0: any other word holding the first letter, down from the origin (nothing to hit)
    for _ in DRAWN:  # SLOT_TRIES tries
        q = pool[floor(rand() * npool)]
        if q == a:
            continue
        if nxt is None:  # no lookahead (nsrc < 0)
            break
        work += nsrc
        if work > ATTEMPT_WORK:  # (a scan of long words: paid before it is made)
            return None
        got = nxt.get(q)  # lookahead (as for the later words, below)
        if got is None:
            got = _partner_pool(nxt, lex, q, nch, by_across)
        # a pool holds distinct words other than q: more than one, and one is not a
        if len(got) > 1 or got and got[0] != a:
            break
    else:
        return None
    # word 0's cells cost their number, as every other word's placement does (a word of
    # thousands of letters would otherwise be laid down, uncounted, by every attempt)
    work += len(lex.words[q])
    if work > ATTEMPT_WORK:
        return None
    ps = lex.positions[q][ch]
    answer_at = {ORIGIN + ps[floor(rand() * len(ps)) if len(ps) > 1 else 0] * DOWN: 0}
    # a long word 0 is laid down only when a word is about to be checked against it (most
    # attempts on long words stop before: the next word's crossings are past the work)
    lazy = len(lex.words[q]) > SHORT_WORD
    letters = {} if lazy else _down(t, q, small)
    put = letters.setdefault
    drop = letters.popitem
    if strict:  # each cell's direction (3: crossed), for the strict layout's checks
        get = letters.get
        dirs = dict.fromkeys(letters, DOWN)
    if max_w:  # the bounding box so far, kept only under a size limit
        max_h = t.max_h
        minx = maxx = ORIGIN & MASK
        miny = ORIGIN >> BITS
        maxy = miny + len(lex.words[q]) - 1
    used = [a, q]
    starts = [ORIGIN]  # where word i starts (word i runs down for even i, across for odd)
    prev, prev_start = q, ORIGIN
    for slot in slots:
        i, ch, step, perp, across, ents, partners, source, pwork, whole, nxt, \
            nxt_source, nch, nwork = slot
        if ents is None:  # a pool too big to keep per word: entries kept by (prev, q, step)
            pool, found, npool = whole
        else:  # the partner pool of prev, its entries made as they are first tried
            work += pwork
            if work > ATTEMPT_WORK:  # (a scan of long words: paid before it is made)
                return None
            got_pool = ents.get(prev)
            if got_pool is None:
                got_pool = ents[prev] = _pool(
                    _partner_pool(partners or {}, lex, prev, ch, source), True)
            pool, found, npool = got_pool
        if not npool:
            return None
        n0 = len(letters)  # loose: a word is written while it is checked, undone on failure
        o = floor(rand() * npool)
        # small pools are walked from a random start; big ones drawn at random
        for j in CYCLES[npool][o] if npool <= SLOT_TRIES else DRAWN:
            if j < 0:
                j = floor(rand() * npool)
            if found is not None:
                e = found[j]
                if e is None:
                    q = pool[j]
                    pk = 2 * (prev * t.nwords + q) + across
                    e = pairs.get(pk)
                    if e is None:
                        if q in used:  # charged 1 and skipped, as always (no entry made)
                            work += 1
                            continue
                        if _over(t, counts, work, prev, q):
                            rand()  # (the draw of its first crossing, as it would be made)
                            return None
                        e = pairs[pk] = _entry(t, prev, q, perp, step)
                    found[j] = e
            else:
                pk = 2 * (prev * t.nwords + pool[j]) + across
                e = pairs.get(pk)
                if e is None:
                    if pool[j] in used:  # (as above)
                        work += 1
                        continue
                    if _over(t, counts, work, prev, pool[j]):
                        rand()  # (as above)
                        return None
                    e = pairs[pk] = _entry(t, prev, pool[j], perp, step)
            q, cost, nopts, opts, wq, length, span, qpos = e
            if q in used:  # (a word that cannot cross comes as prev: see Candidate)
                work += 1 if nopts else cost
                continue
            if lazy:  # word 0's cells, now that a word is checked against them (see above)
                lazy = False
                letters = _down(t, prev, small)
                n0 = len(letters)
                put = letters.setdefault
                drop = letters.popitem
                if strict:
                    get = letters.get
                    dirs = dict.fromkeys(letters, DOWN)
            work += cost
            ps = qpos[ch]
            oo = floor(rand() * nopts)
            for x in CYCLES[nopts][oo] if nopts <= CYCLE_MAX else _cycle(nopts, oo):
                work += length
                if work > ATTEMPT_WORK:
                    return None
                start = prev_start + opts[x]
                if max_w:  # the size limit, kept while placing
                    sx = start & MASK
                    sy = start >> BITS
                    if step == ACROSS:
                        if (max(maxx, sx + length - 1) - min(minx, sx) >= max_w
                                or max(maxy, sy) - min(miny, sy) >= max_h):
                            continue
                    elif (max(maxy, sy + length - 1) - min(miny, sy) >= max_h
                          or max(maxx, sx) - min(minx, sx) >= max_w):
                        continue
                k = start
                if strict:
                    if start - step in letters or start + span in letters:
                        continue
                    for c in wq:
                        g = get(k)
                        if g is None:
                            if k - perp in letters or k + perp in letters:
                                break
                        elif g != c or dirs[k] != perp:
                            break
                        k += step
                else:
                    for c in wq:
                        if put(k, c) != c:
                            break
                        k += step
                if k == start + span:  # every cell fits
                    # its answer letter needs a cell no other index holds
                    if len(ps) == 1:
                        spot = start + ps[0] * step
                        if spot not in answer_at:
                            break
                    else:
                        o2 = floor(rand() * len(ps))
                        for t2 in range(len(ps)):
                            spot = start + ps[(o2 + t2) % len(ps)] * step
                            if spot not in answer_at:
                                break
                        else:
                            spot = -1
                        if spot >= 0:
                            break
                while len(letters) > n0:  # (loose) undo what this try wrote
                    drop()
            else:
                continue
            if nxt is not None:  # lookahead (nwork >= 0), inlined (hot)
                work += nwork
                if work > ATTEMPT_WORK:  # (as above)
                    return None
                got = nxt.get(q)
                if got is None:
                    got = _partner_pool(nxt, lex, q, nch, nxt_source)
                # distinct words other than q: more of them than used words, so one is free
                if len(got) <= len(used):
                    for x in got:
                        if x not in used:
                            break
                    else:  # every word that could come next is taken
                        while len(letters) > n0:
                            drop()
                        continue
            answer_at[spot] = i
            if strict:
                k = start
                for c in wq:
                    if k in letters:
                        dirs[k] = 3
                    else:
                        letters[k] = c
                        dirs[k] = step
                    k += step
            if max_w:
                sx = start & MASK
                sy = start >> BITS
                ex, ey = (sx + length - 1, sy) if step == ACROSS else (sx, sy + length - 1)
                minx, maxx = min(minx, sx), max(maxx, ex)
                miny, maxy = min(miny, sy), max(maxy, ey)
            used.append(q)
            starts.append(start)
            prev, prev_start = q, start
            break
        else:
            return None
    ids = tuple(used)
    if not small:
        board = _finish(answer, lex.words, letters, answer_at, ids, starts)
        board.ids = ids
        return board
    # A small vocabulary makes the same few layouts again and again (a 3-3 batch from the
    # 50-word example repeats ~600 layouts): the answer, the placed words and the answer cells
    # fix the whole board, so a finished board is kept and copied (bounded, same bytes).
    memo = lex.cache.boards
    key = (*ids, *starts, *answer_at)
    made = memo.get(key)
    if made is None:
        board = _finish(answer, lex.words, letters, answer_at, ids, starts)
        board.ids = ids
        board.key = key
        if len(memo) < MEMO_BOARDS:
            memo[key] = (board.w, board.h, tuple(board.words), tuple(board.cells))
        return board
    w, h, out_words, cells = made
    return Board(answer, w, h, list(out_words), list(cells), None, 0, ids=ids, key=key)


_DIRS = ("down", "across")  # word i runs _DIRS[i % 2]


def _finish(answer: str, words: tuple[str, ...], letters: dict[int, str],
            answer_at: dict[int, int], ids: tuple[int, ...], starts: list[int]) -> Board:
    """Normalise coordinates to start at 0 and type every cell (a cell two words cover is a
    crossing: -1; an answer cell keeps its index even where words cross)."""
    order = sorted(letters)
    miny = order[0] >> BITS
    maxy = order[-1] >> BITS
    minx = maxx = ORIGIN & MASK  # word 0 runs down from the origin
    # word i crosses word i-1 where the down one's column meets the across one's row; when
    # the words cover no more cells than that many times over, those are all the crossings
    crossed: set[int] = set()
    covers = len(words[ids[1]]) - len(letters)  # cells covered again, with repeats
    last = ORIGIN
    for j in range(1, len(starts)):  # (by index: a zip with strict=True costs a dict a call)
        start = starts[j]
        length = len(words[ids[j + 1]])
        covers += length
        x = start & MASK
        if x < minx:
            minx = x
        if j % 2:  # word j runs across
            crossed.add((start & ~MASK) | (last & MASK))
            x += length - 1
        else:
            crossed.add((last & ~MASK) | x)
        if x > maxx:
            maxx = x
        last = start
    if covers != len(crossed):  # a word runs over some other cell already held: count them
        covered: set[int] = set()
        crossed = set()
        for i, (q, start) in enumerate(zip(ids[1:], starts, strict=True)):
            step = ACROSS if i % 2 else DOWN
            cells = range(start, start + len(words[q]) * step, step)
            crossed.update(covered.intersection(cells))
            covered.update(cells)
    types = dict.fromkeys(crossed, -1)
    types.update(answer_at)
    get = types.get
    off = miny * STRIDE + minx  # key - off: the key of the cell's place on the board
    out_cells = [(r & MASK, r >> BITS, letters[k], get(k, -2)) for k in order
                 for r in (k - off,)]
    out_words = [(words[ids[i + 1]], r & MASK, r >> BITS, _DIRS[i % 2])
                 for i, s in enumerate(starts) for r in (s - off,)]
    return Board(answer, maxx - minx + 1, maxy - miny + 1, out_words, out_cells, None, 0)
