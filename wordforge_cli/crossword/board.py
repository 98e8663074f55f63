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
0 when the board is done. A chain moves at most (answer length x longest word) from the origin,
which :func:`check_request` keeps inside the key space.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from wordforge_cli.crossword.blanks import STYLES, blank
from wordforge_cli.crossword.lexicon import Lexicon
from wordforge_cli.errors import UsageError

LAYOUTS: tuple[str, ...] = ("loose", "strict")
DEFAULT_BUDGET = 3000
SLOT_TRIES = 8  # other words tried for one answer letter before the attempt is given up
PARTNER_CACHE_WORDS = 3000  # above this many words, crossings and partners are not cached
MEMO_BOARDS = 4096  # finished layouts kept per vocabulary (only when crossings are cached)

_BITS = 20
STRIDE = 1 << _BITS
_MASK = STRIDE - 1
ORIGIN = (STRIDE // 2) * STRIDE + STRIDE // 2
DOWN = STRIDE  # key step along a down word (y + 1)
ACROSS = 1  # key step along an across word (x + 1)
_FLIP = DOWN ^ ACROSS


@dataclass(frozen=True, slots=True)
class Request:
    """What a board must be: answer length band, blank style, layout, budget, fairness."""

    min_len: int = 4
    max_len: int = 5
    style: str = "none"
    layout: str = "loose"
    budget: int = DEFAULT_BUDGET
    unique: bool = False


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
    extra: dict | None = None


def check_request(lexicon: Lexicon, request: Request) -> tuple[int, ...]:
    """The candidate answers of ``request``, or UsageError saying why it can never succeed.

    Cheap (one pass over the band's words plus a tiny matching per candidate, cached per
    band), so an impossible request is answered at once instead of spending the budget.
    """
    if request.style not in STYLES:
        raise UsageError(f"unknown style '{request.style}' (one of {', '.join(STYLES)})")
    if request.layout not in LAYOUTS:
        raise UsageError(f"unknown layout '{request.layout}' (one of {', '.join(LAYOUTS)})")
    if request.budget < 1:
        raise UsageError("the attempt budget must be at least 1")
    lo, hi = request.min_len, request.max_len
    if lo > hi:
        raise UsageError(f"impossible request: min length {lo} > max length {hi}")
    longest = max(len(w) for w in lexicon.words)
    if min(hi, longest) * longest >= STRIDE // 2:
        raise UsageError(f"words too long for a board: answers up to {hi} letters and words "
                         f"of {longest} letters could reach past {STRIDE // 2} cells")
    cands = candidates(lexicon, lo, hi)
    if cands:
        return cands
    if not any(lo <= len(w) <= hi for w in lexicon.words):
        lengths = sorted({len(w) for w in lexicon.words})
        raise UsageError(f"impossible request: no word of {lo}-{hi} letters in the vocabulary "
                         f"(lengths there: {_ranges(lengths)})")
    raise UsageError(f"impossible request: no {lo}-{hi} letter word has, for every one of its "
                     "letters, another distinct word holding that letter, each crossing the "
                     "word before it")


def _ranges(values: list[int]) -> str:
    return ", ".join(str(v) for v in values[:20]) + (" ..." if len(values) > 20 else "")


def candidates(lexicon: Lexicon, lo: int, hi: int) -> tuple[int, ...]:
    """Ids of the words of length lo..hi that could be answers: every letter of the answer
    can be given its own distinct other word holding it (bipartite matching)."""
    cache = lexicon.cache
    key = ("cands", lo, hi)
    if key not in cache:
        chain = len(lexicon.words) <= PARTNER_CACHE_WORDS
        cache[key] = tuple(i for i, w in enumerate(lexicon.words)
                           if lo <= len(w) <= hi and _coverable(lexicon, i)
                           and (not chain or _chainable(lexicon, i)))
    return cache[key]


def _chainable(lexicon: Lexicon, answer: int) -> bool:
    """Is there a chain w0..wn, wi holding answer letter i, each sharing a letter with the one
    before (distinctness and geometry aside)? If not, no attempt can ever succeed."""
    word = lexicon.words[answer]
    positions = lexicon.positions
    reach: set[str] | None = None  # letters of the words that can end the chain so far
    for ch in word:
        ok = [q for q in lexicon.by_letter.get(ch, ()) if q != answer
              and (reach is None or not reach.isdisjoint(positions[q]))]
        if not ok:
            return False
        reach = {c for q in ok for c in positions[q]}
    return True


def _coverable(lexicon: Lexicon, answer: int) -> bool:
    """Can each letter of the answer be matched to a distinct other word holding it?"""
    owner: dict[int, int] = {}  # word id -> answer position
    word = lexicon.words[answer]

    def assign(pos: int, seen: set[int]) -> bool:
        for q in lexicon.by_letter.get(word[pos], ()):
            if q == answer or q in seen:
                continue
            seen.add(q)
            if q not in owner or assign(owner[q], seen):
                owner[q] = pos
                return True
        return False

    return all(assign(pos, set()) for pos in range(len(word)))


def _crossings(lexicon: Lexicon, p: int, q: int) -> tuple[tuple[int, int], ...]:
    """Pairs (a, b) with word p's letter a equal to word q's letter b (cached)."""
    pos_q = lexicon.positions[q]
    return tuple((a, b) for c, pa in lexicon.positions[p].items() if c in pos_q
                 for a in pa for b in pos_q[c])


def make_board(lexicon: Lexicon, request: Request, rng: random.Random,
               avoid: frozenset[int] | set[int] = frozenset()) -> Board | None:
    """A board for ``request`` drawn from ``rng`` alone, or None when the budget runs out.

    ``avoid``: answer ids not to use (a challenge set never repeats an answer). Raises
    UsageError at once for a request that can never succeed (see :func:`check_request`).
    """
    cands = lexicon.cache.get(request)
    if cands is None:
        cands = lexicon.cache[request] = check_request(lexicon, request)
    if avoid:
        cands = tuple(c for c in cands if c not in avoid)
        if not cands:
            return None
    return generate(lexicon, cands, request, rng)


def generate(lexicon: Lexicon, cands: tuple[int, ...], request: Request,
             rng: random.Random) -> Board | None:
    """:func:`make_board` once ``cands`` (from :func:`check_request`) are known: batches
    check the request once and call this per board."""
    strict = request.layout == "strict"
    checker = None
    if request.unique:
        from wordforge_cli.crossword.unique import count_fillings

        checker = count_fillings
    rejected = 0
    for attempt in range(1, request.budget + 1):
        board = _attempt(lexicon, cands, rng, strict)
        if board is None:
            continue
        board.attempts = attempt
        if request.style != "none":
            board.base = [c[3] for c in board.cells]
            types, count = blank(board.cells, request.style)
            board.cells = [(x, y, c, n) for (x, y, c, _), n in zip(board.cells, types,
                                                                     strict=True)]
            board.style, board.blanked = request.style, count
        if checker is not None and checker(lexicon, board.words, board.cells, limit=2) != 1:
            rejected += 1
            continue
        if rejected:
            board.extra = {"ambiguous_rejected": rejected}
        return board
    return None


def _partners(lex: Lexicon, prev: int, ch: str) -> tuple[int, ...]:
    """Words holding ``ch`` that share at least one letter with word ``prev`` (so can cross it)."""
    letters = lex.positions[prev]
    return tuple(q for q in lex.by_letter.get(ch, ()) if q != prev
                 and any(c in letters for c in lex.positions[q]))


def _partners_of(partners: dict, lex: Lexicon, q: int, ch: str) -> tuple[int, ...]:
    """``partners[q][ch]``, computed and cached on first use."""
    mine = partners.get(q)
    if mine is None:
        mine = partners[q] = {}
    pool = mine.get(ch)
    if pool is None:
        pool = mine[ch] = _partners(lex, q, ch)
    return pool


def _has_next(partners: dict, lex: Lexicon, q: int, ch: str, used: list[int]) -> bool:
    """Lookahead: can some unused word holding ``ch`` cross word q? (avoids dead ends)"""
    return not all(map(used.__contains__, _partners_of(partners, lex, q, ch)))


def _attempt(lex: Lexicon, cands: tuple[int, ...], rng: random.Random,
             strict: bool) -> Board | None:
    """One try at a whole board; None when some answer letter found no word that fits."""
    rand = rng.random
    words = lex.words
    positions = lex.positions
    by_letter = lex.by_letter
    small = len(words) <= PARTNER_CACHE_WORDS  # caches stay bounded for big vocabularies
    cross = lex.cross if small else {}
    partners = lex.partners if small else None
    nwords = len(words)
    a = cands[int(rand() * len(cands))]
    answer = words[a]
    letters: dict[int, str] = {}
    dirs: dict[int, int] = {}
    shared: set[int] = set()
    answer_at: dict[int, int] = {}
    # word 0: any other word holding the first letter, down from the origin (nothing to hit)
    ch = answer[0]
    pool = by_letter[ch]
    npool = len(pool)
    last = len(answer) - 1
    for _ in range(SLOT_TRIES):
        q = pool[int(rand() * npool)]
        if q != a and (partners is None or _has_next(partners, lex, q, answer[1], [a, q])):
            break
    else:
        return None
    wq = words[q]
    ps = positions[q][ch]
    answer_at[ORIGIN + ps[int(rand() * len(ps)) if len(ps) > 1 else 0] * DOWN] = 0
    k = ORIGIN
    for c in wq:
        letters[k] = c
        dirs[k] = DOWN
        k += DOWN
    used = [a, q]
    placed: list[tuple[int, int, int]] = [(q, ORIGIN, DOWN)]
    prev, prev_start, prev_step = q, ORIGIN, DOWN
    for i in range(1, len(answer)):
        ch = answer[i]
        if partners is None:
            pool = by_letter[ch]
        else:
            mine = partners.get(prev)
            pool = mine.get(ch) if mine is not None else None
            if pool is None:
                pool = _partners_of(partners, lex, prev, ch)
        npool = len(pool)
        if not npool:
            return None
        step = prev_step ^ _FLIP  # alternate down and across
        perp = prev_step
        pbase = 2 * prev * nwords + (step == ACROSS)  # cache key base of (prev, q, step)
        o = int(rand() * npool)
        for t in range(SLOT_TRIES if npool > SLOT_TRIES else npool):
            # small pools are walked from a random start; big ones drawn at random
            q = pool[(o + t) % npool] if npool <= SLOT_TRIES else pool[int(rand() * npool)]
            if q in used:
                continue
            wq = words[q]
            length = len(wq)
            ck = pbase + 2 * q
            opts = cross.get(ck)
            if opts is None:  # key offsets from word prev's start to word q's, per crossing
                opts = cross[ck] = tuple(pa * prev_step - pb * step
                                         for pa, pb in _crossings(lex, prev, q))
            nopts = len(opts)
            if not nopts:
                continue
            oo = int(rand() * nopts)
            ps = positions[q][ch]
            np_ = len(ps)
            for tt in range(nopts):
                start = prev_start + opts[(oo + tt) % nopts]
                k = start
                ok = True
                if strict:
                    if start - step in letters or start + length * step in letters:
                        continue
                    for c in wq:
                        g = letters.get(k)
                        if g is None:
                            if k - perp in letters or k + perp in letters:
                                ok = False
                                break
                        elif g != c or dirs[k] != perp:
                            ok = False
                            break
                        k += step
                else:
                    for c in wq:
                        g = letters.get(k)
                        if g is not None and g != c:
                            ok = False
                            break
                        k += step
                if not ok:
                    continue
                # the word fits here: its answer letter needs a cell no other index holds
                if np_ == 1:
                    spot = start + ps[0] * step
                    if spot not in answer_at:
                        break
                    continue
                o2 = int(rand() * np_)
                for t2 in range(np_):
                    spot = start + ps[(o2 + t2) % np_] * step
                    if spot not in answer_at:
                        break
                else:
                    continue
                break
            else:
                continue
            if partners is not None and i < last:  # lookahead, inlined (hot)
                mine = partners.get(q)
                nxt = mine.get(answer[i + 1]) if mine is not None else None
                if nxt is None:
                    nxt = _partners_of(partners, lex, q, answer[i + 1])
                used.append(q)
                ahead = not all(map(used.__contains__, nxt))
                used.pop()
                if not ahead:
                    continue
            answer_at[spot] = i
            k = start
            if strict:
                for c in wq:
                    if k in letters:
                        shared.add(k)
                        dirs[k] = 3
                    else:
                        letters[k] = c
                        dirs[k] = step
                    k += step
            else:
                for c in wq:
                    if k in letters:
                        shared.add(k)
                    else:
                        letters[k] = c
                    k += step
            used.append(q)
            placed.append((q, start, step))
            prev, prev_start, prev_step = q, start, step
            break
        else:
            return None
    if not small:
        return _finish(answer, words, letters, shared, answer_at, placed)
    # A small vocabulary makes the same few layouts again and again (a 3-3 batch from the
    # 50-word example repeats ~600 layouts): the answer, the placed words and the answer cells
    # fix the whole board, so a finished board is kept and copied (bounded, same bytes).
    memo = lex.cache.get("boards")
    if memo is None:
        memo = lex.cache["boards"] = {}
    key = (a, *placed, *answer_at)
    made = memo.get(key)
    if made is None:
        board = _finish(answer, words, letters, shared, answer_at, placed)
        if len(memo) < MEMO_BOARDS:
            memo[key] = (board.w, board.h, tuple(board.words), tuple(board.cells))
        return board
    w, h, out_words, cells = made
    return Board(answer, w, h, list(out_words), list(cells), None, 0)


def _finish(answer: str, words: tuple[str, ...], letters: dict[int, str], shared: set[int],
            answer_at: dict[int, int], placed: list[tuple[int, int, int]]) -> Board:
    """Normalise coordinates to start at 0 and type every cell."""
    order = sorted(letters)
    miny = order[0] >> _BITS
    maxy = order[-1] >> _BITS
    minx = maxx = ORIGIN & _MASK
    for q, start, step in placed:
        x = start & _MASK
        if x < minx:
            minx = x
        if step == ACROSS:
            x += len(words[q]) - 1
        if x > maxx:
            maxx = x
    types = dict.fromkeys(shared, -1)
    types.update(answer_at)  # an answer cell keeps its index even where words cross
    get = types.get
    cells = [((k & _MASK) - minx, (k >> _BITS) - miny, letters[k], get(k, -2)) for k in order]
    out_words = [(words[q], (s & _MASK) - minx, (s >> _BITS) - miny,
                  "down" if step == DOWN else "across") for q, s, step in placed]
    return Board(answer, maxx - minx + 1, maxy - miny + 1, out_words, cells, None, 0)


def record(board: Board, board_id: int | str, seed: int) -> dict:
    """The board's JSON object, with exactly the issue's fields in this order:
    id, seed, answer, w, h, words, cells, inputs, style, blanked, attempts.

    ``seed`` is the board's own stream seed: ``random.Random(seed)`` makes it again.
    """
    cells = [{"x": x, "y": y, "c": c, "n": n} for x, y, c, n in board.cells]
    return {
        "id": board_id,
        "seed": seed,
        "answer": board.answer,
        "w": board.w,
        "h": board.h,
        "words": [{"word": w, "x": x, "y": y, "dir": d} for w, x, y, d in board.words],
        "cells": cells,
        "inputs": [c for c in cells if c["n"] != -2],
        "style": board.style,
        "blanked": board.blanked,
        "attempts": board.attempts,
    }
