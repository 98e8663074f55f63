"""Many boards: a batch, the endless run's questions, challenge sets, and the endless plan.

Independence: batch item i draws only from ``item_rng(seed, *scope, i)``, endless question k
from ``item_rng(seed, *scope, "endless", k)`` and challenge set i from
``item_rng(seed, *scope, "challenge", i)``, so any item is the same whether made first or
last, alone, in a worker process or in a shard. A record's ``seed`` is that stream's seed:
``random.Random(seed)`` makes the item again (given the answer its schedule dealt).

Answer spread: answers are dealt from a :class:`Deck` (the candidates shuffled, dealt in
order, reshuffled when used up), so no answer comes back within a round before every other
candidate has been used, nor twice in a row across a reshuffle. Card j is
``deck(j // n)[j % n]``, deck k shuffled by ``derive_seed(seed, *scope, "deck", ..., k)``: a
function of (seed, index) alone, the same bytes whatever ``--jobs`` or ``--shard``.

Styles that hold: a styled board is redrawn (same dealt answer, the item's stream going on)
up to ``redraws`` draws in all until its style blanks a cell, as the article's endless run
does; ``redraws=1`` is the first draw only (``--no-redraw``). The board keeps the first
draw's cells for the statistics' first-draw blank-failure rate.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace

from wordforge_cli.core.engine import OutOfBudget
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.rng import SEED_MAX, derive_seed
from wordforge_cli.crossword.blanks import LABELS, label_language
from wordforge_cli.crossword.board import (
    Board,
    Request,
    check_request,
    dealable,
    generator,
)
from wordforge_cli.crossword.lexicon import Lexicon

SCOPE = ("crossword",)


DEFAULT_REDRAWS = 12  # the article's makeEndless redraws; config ``redraws``


class Deck:
    """The answer schedule of one run: card j is ``deck(j // n)[j % n]`` where deck k is the
    n candidates shuffled by ``Random(derive_seed(seed, *scope, "deck", k))``.

    A round never begins with the card the round before ended on (the same answer twice in a
    row): such a round's first card changes places with one drawn from its middle (the next
    draw of the same stream), so its last card stays the shuffle's own and each round still
    depends on (seed, k) alone, its shuffle and the one before it. Two candidates simply
    alternate; one is dealt every time."""

    __slots__ = ("cands", "scope", "seed", "_k", "_order")

    def __init__(self, cands: tuple[int, ...], seed: int, scope: tuple[object, ...]):
        self.cands = cands
        self.seed = seed
        self.scope = scope
        self._k = -1
        self._order: list[int] = []

    def card(self, j: int) -> int:
        n = len(self.cands)
        k = j // n
        if k != self._k:  # runs deal in order: one shuffle per round
            order, rng = self._shuffled(k)
            if k and n > 1:
                # the card round k-1 ended on: its shuffle's own last one (the swap below
                # never moves it), but for two candidates, which alternate from round 0 on
                ended = (self._order[-1] if self._k == k - 1
                         else self._shuffled(0 if n == 2 else k - 1)[0][-1])
                if order[0] == ended:
                    other = rng.randrange(1, n - 1) if n > 2 else 1
                    order[0], order[other] = order[other], order[0]
            self._k, self._order = k, order
        return self._order[j % n]

    def _shuffled(self, k: int) -> tuple[list[int], random.Random]:
        """Round k's shuffle, and its stream (to draw on from)."""
        order = list(self.cands)
        rng = random.Random(derive_seed(self.seed, *self.scope, "deck", k))
        rng.shuffle(order)
        return order, rng

    def deal(self, start: int, stop: int) -> list[int]:
        """Cards start..stop-1 (a round's slice at a time, not a call a card)."""
        n = len(self.cands)
        cards: list[int] = []
        j = start
        while j < stop:
            self.card(j)  # (its round shuffled)
            offset = j % n
            take = min(stop - j, n - offset)
            cards.extend(self._order[offset:offset + take])
            j += take
        return cards


def batch(lexicon: Lexicon, request: Request, seed: int, count: int, *,
          scope: tuple[object, ...] = SCOPE, start: int = 0, redraws: int = DEFAULT_REDRAWS,
          labels: Mapping[str, str] | None = None, indices: Iterable[int] | None = None,
          ) -> Iterator[tuple[int, int, Board | None]]:
    """Yield (i, item seed, board or None) for i in start..start+count-1 (or for each i of
    ``indices``: a worker's share of a run); item i's answer is card i of the run's
    :class:`Deck`.

    An impossible request raises UsageError before anything is yielded.
    """
    cands = check_request(lexicon, request)
    deck = Deck(dealable(lexicon, request, cands), seed, scope)
    rng = random.Random()
    reseed = _random.Random.seed  # Random.seed minus its Python wrapper: same state for ints
    seeds = _seeds(seed, scope)
    plain = request.style == "none" or redraws <= 1
    make = generator(lexicon, cands, request)
    labels = _labels(lexicon, labels)
    label = labels.get(request.style)
    for i in range(start, start + count) if indices is None else indices:
        item_seed = seeds(i)
        reseed(rng, item_seed)  # the same stream as item_rng(seed, *scope, i), object reused
        if plain:
            board = make(rng, deck.card(i))
            if board is not None:
                board.label = label
        else:
            board = _dealt(lexicon, cands, request, rng, deck.card(i), redraws, labels,
                           make=make)
        yield i, item_seed, board


def batch_deck(lexicon: Lexicon, request: Request, seed: int, *,
               scope: tuple[object, ...] = SCOPE) -> Deck:
    """The deck a batch's answers are dealt from (card i: item i's answer): what the layouts
    a worker finishes and keeps depend on, so ``--jobs`` can deal each worker its own."""
    return Deck(dealable(lexicon, request, check_request(lexicon, request)), seed, scope)


def _seeds(seed: int, scope: tuple[object, ...]) -> Callable[[int], int]:
    """``i -> derive_seed(seed, *scope, i)``, hashing the common prefix once (a test holds it
    equal to :func:`derive_seed`)."""
    probe = derive_seed(seed, *scope, 0)
    prefix = hashlib.blake2b("\x1f".join([str(int(seed)), *map(str, scope), ""]).encode(),
                             digest_size=8)

    def item_seed(i: int) -> int:
        h = prefix.copy()
        h.update(str(i).encode())
        return int.from_bytes(h.digest(), "big") & SEED_MAX

    if item_seed(0) != probe:  # derive_seed changed its recipe: follow it, slower
        return lambda i: derive_seed(seed, *scope, i)
    return item_seed


@dataclass(frozen=True, slots=True)
class EndlessConfig:
    """The endless run (config ``endless``). Question k: band ``bands[k % len(bands)]``, style
    ``styles[(k // 2) % unlocked(k)]`` with ``unlocked(k) = min(len(styles), unlock_start +
    k // unlock_every)``; redrawn up to ``redraws`` times until the style blanks a cell, a
    draw whose band fails falling back to ``fallback`` (the article's ``make(3, 4)``)."""

    bands: tuple[tuple[int, int], ...] = ((3, 3), (4, 4), (5, 5))
    styles: tuple[str, ...] = ("none", "tail", "head", "alt", "most")
    unlock_start: int = 2
    unlock_every: int = 12
    redraws: int = 12
    fallback: tuple[int, int] = (3, 4)


@dataclass(frozen=True, slots=True)
class QuestionPlan:
    """What endless question k asks for; decided from k alone, no randomness."""

    question: int
    min_len: int
    max_len: int
    style: str
    unlocked: int
    label: str | None = None


def plan(cfg: EndlessConfig, k: int, labels: Mapping[str, str] | None = None) -> QuestionPlan:
    """Question k's band and style (the article's endlessPlan, growth rule from the config);
    its label from ``labels`` (None: the article's Japanese names)."""
    k = max(0, int(k))
    lo, hi = cfg.bands[k % len(cfg.bands)]
    u = max(1, min(len(cfg.styles), cfg.unlock_start + k // cfg.unlock_every))  # styles unlocked
    style = cfg.styles[(k // 2) % u]
    names = LABELS["ja"] if labels is None else labels
    return QuestionPlan(k, lo, hi, style, u, names.get(style))


def _labels(lexicon: Lexicon, labels: Mapping[str, str] | None) -> Mapping[str, str]:
    """The style labels boards of ``lexicon`` show: ``labels``, or (None) the table's names in
    the vocabulary's language (English for a language the table has no names in)."""
    return LABELS[label_language(lexicon.language)] if labels is None else labels


def _cands(lexicon: Lexicon, request: Request) -> tuple[int, ...]:
    """The request's candidates, or () when it can never be made (then it falls back)."""
    try:
        return check_request(lexicon, request)
    except UsageError:
        return ()


def _occurrence(items: tuple[object, ...], j: int, period_index: int) -> int:
    """How many earlier places of a repeating list of ``items`` (this period and the ones
    before) hold the same item as place j: its card number in that item's deck."""
    same = [p for p, it in enumerate(items) if it == items[j]]
    return period_index * len(same) + same.index(j)


def _dealt(lexicon: Lexicon, cands: tuple[int, ...], request: Request, rng: random.Random,
           answer: int | None, redraws: int, labels: Mapping[str, str],
           back: tuple[int, ...] = (), fallback: Request | None = None, *,
           persist: bool = False,
           make: Callable[[random.Random, int | None], Board | None] | None = None,
           ) -> Board | None:
    """The article's draw: the asked band (answer ``answer`` when dealt, else drawn from
    ``cands``), else the fallback band (answer drawn from ``back``), redrawn until the style
    blanks a cell, up to ``redraws`` draws in all.

    Each draw tries the band and then, if it fails, the fallback, as makeEndless does
    (``make(minL, maxL) || make(3, 4)``). A draw that makes nothing ends the board unless
    ``persist`` (the endless run draws again, as the article's loop does). The board's
    ``attempts`` count every attempt spent, redraws and fallbacks included. ``make``: the
    band's :func:`generator`, when the caller keeps one.
    """
    if cands and make is None:
        make = generator(lexicon, cands, request)
    make_back = generator(lexicon, back, fallback) if back and fallback is not None else None
    kept: Board | None = None
    first = None
    spent = 0
    draws = 0
    for _ in range(max(1, redraws)):
        board = None
        if make is not None:
            board = make(rng, answer)
            spent += board.attempts if board is not None else request.budget
        if board is None and make_back is not None and fallback is not None:
            board = make_back(rng, None)
            spent += board.attempts if board is not None else fallback.budget
            if board is not None:
                board.fallback = True
        draws += 1
        if board is None:
            if persist:
                continue
            break
        if first is None and board.base is not None:
            first = [(x, y, c, n) for (x, y, c, _), n in zip(board.cells, board.base,
                                                               strict=True)]
        kept = board
        if request.style == "none" or board.blanked > 0:
            break
    if kept is not None:
        kept.attempts = spent
        kept.redraws = draws - 1
        if kept.redraws:
            kept.first = first
        kept.label = labels.get(kept.style)
    return kept


def endless_question(lexicon: Lexicon, cfg: EndlessConfig, k: int, seed: int, base: Request,
                     *, scope: tuple[object, ...] = SCOPE,
                     labels: Mapping[str, str] | None = None) -> tuple[int, Board | None]:
    """(item seed, board) of endless question k; ``base`` gives layout, budget, unique and
    the size limit.

    The answer is dealt from the deck of the question's band (card: how many questions of
    that band came before); ``attempts`` of the board counts every attempt the question
    spent, redraws and fallbacks included.
    """
    labels = _labels(lexicon, labels)
    p = plan(cfg, k, labels)
    item_seed = derive_seed(seed, *scope, "endless", k)
    rng = random.Random(item_seed)
    want = replace(base, min_len=p.min_len, max_len=p.max_len, style=p.style)
    fallback = replace(want, min_len=cfg.fallback[0], max_len=cfg.fallback[1])
    cands = _cands(lexicon, want)
    answer = None
    if cands:
        card = _occurrence(cfg.bands, k % len(cfg.bands), k // len(cfg.bands))
        answer = Deck(dealable(lexicon, want, cands), seed,
                      (*scope, "endless", p.min_len, p.max_len)).card(card)
    board = _dealt(lexicon, cands, want, rng, answer, cfg.redraws, labels,
                   _cands(lexicon, fallback), fallback, persist=True)
    return item_seed, board


@dataclass(frozen=True, slots=True)
class Step:
    """One question of the challenge ramp."""

    min_len: int
    max_len: int
    style: str = "none"


DEFAULT_RAMP: tuple[Step, ...] = (
    Step(3, 3), Step(3, 3), Step(4, 4), Step(4, 4, "tail"), Step(4, 5, "head"),
    Step(4, 5, "tail"), Step(5, 5, "alt"), Step(5, 5, "head"), Step(5, 6, "alt"),
    Step(5, 6, "most"),
)


def challenge_set(lexicon: Lexicon, ramp: tuple[Step, ...], index: int, seed: int,
                  base: Request, *, scope: tuple[object, ...] = SCOPE,
                  redraws: int = DEFAULT_REDRAWS,
                  fallback: tuple[int, int] | None = (3, 4),
                  labels: Mapping[str, str] | None = None) -> tuple[int, list[Board]]:
    """(item seed, boards) of challenge set ``index``: one board per ramp step, no answer
    twice.

    Step j's answer is dealt from its band's deck (card: set index x the steps of that band
    + its place among them; an answer already in the set passes to the next card). A step
    whose band cannot be made falls back to ``fallback`` like an endless question (the
    board says ``fallback``); CannotDo only when neither can (its message says which and
    why).
    """
    item_seed = derive_seed(seed, *scope, "challenge", index)
    rng = random.Random(item_seed)
    labels = _labels(lexicon, labels)
    used: set[int] = set()
    bands = tuple((s.min_len, s.max_len) for s in ramp)
    boards = []
    for j, step in enumerate(ramp):
        request = replace(base, min_len=step.min_len, max_len=step.max_len, style=step.style)
        back = (None if fallback is None
                else replace(request, min_len=fallback[0], max_len=fallback[1]))
        cands = _cands(lexicon, request)
        if not cands and back is None:
            check_request(lexicon, request)  # raises the reason
        answer = None
        if cands:
            deck = Deck(dealable(lexicon, request, cands), seed,
                        (*scope, "challenge", step.min_len, step.max_len))
            card = _occurrence(bands, j, index)
            for t in range(len(deck.cands)):
                if deck.card(card + t) not in used:
                    answer = deck.card(card + t)
                    break
        board = _dealt(lexicon, tuple(c for c in cands if c not in used), request, rng, answer,
                       redraws, labels,
                       () if back is None else tuple(c for c in _cands(lexicon, back)
                                                     if c not in used), back)
        if board is None:
            where = (f"challenge set {index}, question {j + 1} ({step.min_len}-{step.max_len} "
                     f"letters, {step.style})")
            if cands and all(c in used for c in cands):
                raise CannotDo(f"{where}: every possible answer is already used in the set, "
                               "and the fallback band gave none either")
            raise CannotDo(f"{where}: no board within the budget of {request.budget} attempts "
                           "without repeating an answer, in its band or the fallback's")
        used.add(lexicon.index[board.answer])
        boards.append(board)
    return item_seed, boards


# ---- the forms' iterators: impossible requests refused first, then one item per index -------
# (the command line and pack sections both call these: one policy, written once)

def check_endless(lexicon: Lexicon, cfg: EndlessConfig, base: Request) -> None:
    """UsageError when no band of the endless plan (its fallback included) can ever be made:
    every question would fail, so nothing is spent trying."""
    bands = [*cfg.bands, cfg.fallback]
    problems = []
    for lo, hi in bands:
        try:
            check_request(lexicon, replace(base, min_len=lo, max_len=hi))
        except UsageError as exc:
            problems.append(exc.message)
    if len(problems) == len(bands):
        raise UsageError(f"no band of the endless plan can be made ({problems[-1]})")


def endless(lexicon: Lexicon, cfg: EndlessConfig, base: Request, seed: int, count: int, *,
            start: int = 0, scope: tuple[object, ...] = SCOPE,
            labels: Mapping[str, str] | None = None,
            ) -> Iterator[tuple[int, int, Board | None]]:
    """(k, item seed, board or None when its budget ran out) for questions start..start+count-1.

    An endless plan none of whose bands can be made raises UsageError before anything is
    yielded."""
    check_endless(lexicon, cfg, base)
    for k in range(start, start + count):
        item_seed, board = endless_question(lexicon, cfg, k, seed, base, scope=scope,
                                            labels=labels)
        yield k, item_seed, board


def check_challenge(lexicon: Lexicon, ramp: tuple[Step, ...], base: Request,
                    fallback: tuple[int, int] | None = None) -> None:
    """UsageError naming the first step of the ramp that can never be made, in its band or
    (given) the fallback band its boards fall back to."""
    for j, step in enumerate(ramp):
        try:
            check_request(lexicon, replace(base, min_len=step.min_len, max_len=step.max_len,
                                           style=step.style))
        except UsageError as exc:
            if fallback is not None and _cands(lexicon, replace(
                    base, min_len=fallback[0], max_len=fallback[1], style=step.style)):
                continue
            raise UsageError(f"challenge question {j + 1}: {exc.message}") from None


def challenges(lexicon: Lexicon, ramp: tuple[Step, ...], base: Request, seed: int, count: int,
               *, start: int = 0, scope: tuple[object, ...] = SCOPE, redraws: int = DEFAULT_REDRAWS,
               fallback: tuple[int, int] | None = (3, 4),
               labels: Mapping[str, str] | None = None,
               ) -> Iterator[tuple[int, int, list[Board] | OutOfBudget]]:
    """(set index, item seed, boards) for sets start..start+count-1; a set with a step whose
    budget ran out is an :class:`OutOfBudget` standing for its ``len(ramp)`` boards (counted
    as failed, the run goes on). An impossible step raises UsageError before anything."""
    check_challenge(lexicon, ramp, base, fallback)
    for index in range(start, start + count):
        try:
            item_seed, boards = challenge_set(lexicon, ramp, index, seed, base, scope=scope,
                                              redraws=redraws, fallback=fallback,
                                              labels=labels)
        except CannotDo as exc:
            yield (index, derive_seed(seed, *scope, "challenge", index),
                   OutOfBudget(exc.message, len(ramp)))
            continue
        yield index, item_seed, boards
