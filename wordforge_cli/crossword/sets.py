"""Many boards: a batch, the endless run's questions, challenge sets, and the endless plan.

Independence: batch item i draws only from ``item_rng(seed, *scope, i)``, endless question k
from ``item_rng(seed, *scope, "endless", k)`` and challenge set i from
``item_rng(seed, *scope, "challenge", i)``, so any item is the same whether made first or
last, alone, in a worker process or in a shard. A record's ``seed`` is that stream's seed:
``random.Random(seed)`` makes the item again.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from wordforge_cli.crossword.board import (
    Board,
    Request,
    candidates,
    check_request,
    generate,
    make_board,
)
from wordforge_cli.crossword.lexicon import Lexicon
from wordforge_cli.engine import OutOfBudget
from wordforge_cli.errors import CannotDo, UsageError
from wordforge_cli.rng import SEED_MAX, derive_seed

SCOPE = ("crossword",)


def batch(lexicon: Lexicon, request: Request, seed: int, count: int, *,
          scope: tuple = SCOPE, start: int = 0) -> Iterator[tuple[int, int, Board | None]]:
    """Yield (i, item seed, board or None) for i in start..start+count-1.

    An impossible request raises UsageError before anything is yielded.
    """
    cands = check_request(lexicon, request)
    rng = random.Random()
    reseed = _random.Random.seed  # Random.seed minus its Python wrapper: same state for ints
    seeds = _seeds(seed, scope)
    for i in range(start, start + count):
        item_seed = seeds(i)
        reseed(rng, item_seed)  # the same stream as item_rng(seed, *scope, i), object reused
        yield i, item_seed, generate(lexicon, cands, request, rng)


def _seeds(seed: int, scope: tuple):
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
class Plan:
    """What endless question k asks for; decided from k alone, no randomness."""

    question: int
    min_len: int
    max_len: int
    style: str
    unlocked: int


def unlocked(cfg: EndlessConfig, k: int) -> int:
    """How many styles question k may use (1 = plain only)."""
    return max(1, min(len(cfg.styles), cfg.unlock_start + k // cfg.unlock_every))


def plan(cfg: EndlessConfig, k: int) -> Plan:
    """Question k's band and style (the article's endlessPlan, growth rule from the config)."""
    k = max(0, int(k))
    lo, hi = cfg.bands[k % len(cfg.bands)]
    u = unlocked(cfg, k)
    return Plan(k, lo, hi, cfg.styles[(k // 2) % u], u)


def _try(lexicon: Lexicon, request: Request, rng: random.Random) -> tuple[Board | None, int]:
    """A board or None, and the attempts it cost (an impossible band costs none)."""
    try:
        board = make_board(lexicon, request, rng)
    except UsageError:
        return None, 0
    return board, (board.attempts if board is not None else request.budget)


def endless_question(lexicon: Lexicon, cfg: EndlessConfig, k: int, seed: int, base: Request,
                     *, scope: tuple = SCOPE) -> tuple[int, Board | None]:
    """(item seed, board) of endless question k; ``base`` gives layout, budget, unique.

    ``attempts`` of the board counts every attempt the question spent, redraws included.
    """
    p = plan(cfg, k)
    item_seed = derive_seed(seed, *scope, "endless", k)
    rng = random.Random(item_seed)
    want = replace(base, min_len=p.min_len, max_len=p.max_len, style=p.style)
    fallback = replace(want, min_len=cfg.fallback[0], max_len=cfg.fallback[1])
    kept: Board | None = None
    spent = 0
    for _ in range(cfg.redraws):
        board, cost = _try(lexicon, want, rng)
        spent += cost
        if board is None:
            board, cost = _try(lexicon, fallback, rng)
            spent += cost
        if board is None:
            continue
        kept = board
        if p.style == "none" or board.blanked > 0:
            break
    if kept is not None:
        kept.attempts = spent
    return item_seed, kept


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
                  base: Request, *, scope: tuple = SCOPE) -> tuple[int, list[Board]]:
    """(item seed, boards) of challenge set ``index``: one board per ramp step, no answer
    twice. CannotDo when a step cannot be made (its message says which and why)."""
    item_seed = derive_seed(seed, *scope, "challenge", index)
    rng = random.Random(item_seed)
    used: set[int] = set()
    boards = []
    for j, step in enumerate(ramp):
        request = replace(base, min_len=step.min_len, max_len=step.max_len, style=step.style)
        try:
            board = make_board(lexicon, request, rng, avoid=frozenset(used))
        except UsageError as exc:
            raise UsageError(f"challenge question {j + 1}: {exc.message}") from None
        if board is None:
            where = (f"challenge set {index}, question {j + 1} ({step.min_len}-{step.max_len} "
                     f"letters, {step.style})")
            if all(c in used for c in candidates(lexicon, step.min_len, step.max_len)):
                raise CannotDo(f"{where}: every possible answer is already used in the set")
            raise CannotDo(f"{where}: no board within the budget of {request.budget} attempts "
                           "without repeating an answer")
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
            start: int = 0, scope: tuple = SCOPE) -> Iterator[tuple[int, int, Board | None]]:
    """(k, item seed, board or None when its budget ran out) for questions start..start+count-1.

    An endless plan none of whose bands can be made raises UsageError before anything is
    yielded."""
    check_endless(lexicon, cfg, base)
    for k in range(start, start + count):
        item_seed, board = endless_question(lexicon, cfg, k, seed, base, scope=scope)
        yield k, item_seed, board


def check_challenge(lexicon: Lexicon, ramp: tuple[Step, ...], base: Request) -> None:
    """UsageError naming the first step of the ramp that can never be made."""
    for j, step in enumerate(ramp):
        try:
            check_request(lexicon, replace(base, min_len=step.min_len, max_len=step.max_len,
                                           style=step.style))
        except UsageError as exc:
            raise UsageError(f"challenge question {j + 1}: {exc.message}") from None


def challenges(lexicon: Lexicon, ramp: tuple[Step, ...], base: Request, seed: int, count: int,
               *, start: int = 0, scope: tuple = SCOPE
               ) -> Iterator[tuple[int, int, list[Board] | OutOfBudget]]:
    """(set index, item seed, boards) for sets start..start+count-1; a set with a step whose
    budget ran out is an :class:`OutOfBudget` standing for its ``len(ramp)`` boards (counted
    as failed, the run goes on). An impossible step raises UsageError before anything."""
    check_challenge(lexicon, ramp, base)
    for index in range(start, start + count):
        try:
            item_seed, boards = challenge_set(lexicon, ramp, index, seed, base, scope=scope)
        except CannotDo as exc:
            yield (index, derive_seed(seed, *scope, "challenge", index),
                   OutOfBudget(exc.message, len(ramp)))
            continue
        yield index, item_seed, boards
