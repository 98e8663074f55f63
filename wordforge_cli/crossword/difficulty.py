"""How hard a board is to solve, measured by a solver that deduces cells the way a player does.

The player sees the board's shape and its given letters (n == -2); every other cell is empty.
The solver works in rounds. In a round it looks at every unsolved word slot with what was known
when the round began: the vocabulary words of the slot's length that fit the known letters and
are not already used elsewhere. A slot with exactly one such word is solved (its letters are
written in); a cell on which all of a slot's words agree is written in too (a player who
sees that every "?A?E" word ends in E writes the E). The deductions of a round are applied
together at its end, so ``rounds`` counts the steps of reasoning, not the slots.

When a round deduces nothing and slots are left, the player must guess: the slot with the fewest
fitting words is filled with its true word (as a player does after trying), counted in
``guesses``, and deduction resumes. A slot no vocabulary word fits (the board uses a word the
vocabulary lacks) is guessed the same way.

The figures: ``rounds`` (of deduction), ``guesses``, ``given`` (letters shown), ``hidden`` (cells
to fill), and ``score = rounds + GUESS_WEIGHT x guesses``: a guess is worth as much reasoning as
several rounds. Pure: a record and a lexicon in, numbers out.

That solver knows every vocabulary word, so how common the board's words are changes nothing,
though it is much of what makes a board hard for a person. :func:`measure_familiar` is the same
solver for a player who knows each word with a probability (:func:`known_probability` of its
Zipf frequency, given by the caller: the core reads no word list). Such a player considers only
the words they know: fewer rivals in a slot, but a slot whose own word they do not know gives
them nothing until its cells are filled from its crossings, or they guess it (look it up). The
figures are expectations over :data:`FAMILIAR_DRAWS` draws of what the player knows, from a
stream seeded by the board's own words and cells: the same board always scores the same.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from wordforge_cli.core.rng import derive_seed
from wordforge_cli.crossword.lexicon import Lexicon
from wordforge_cli.crossword.unique import _length_index

GUESS_WEIGHT = 3

# The familiarity-aware player. The chance that a player knows a word rises with its Zipf
# frequency (log10 of its uses per billion words) along a logistic curve: half of players know
# a word met once per million words (Zipf 3, where word lists start calling words rare), and
# the odds grow e-fold every half Zipf (Zipf 4: 88%, 5: 98%; 2: 12%). A word with a CEFR
# level in the bundled word table counts at its level's median Zipf among the table's words
# (the level says how early a word is learnt, which its frequency in text only suggests).
KNOWN_MIDPOINT = 3.0
KNOWN_SCALE = 0.5
LEVEL_ZIPF = {"A1": 4.97, "A2": 4.49, "B1": 4.08, "B2": 3.66, "C1": 3.21, "C2": 2.8}
FAMILIAR_DRAWS = 20  # draws of what the player knows (stratified: each word is known in
# round(p x 20) of them, within one), so a score is a multiple of 0.05


@dataclass(frozen=True)
class Difficulty:
    rounds: int
    guesses: int
    given: int
    hidden: int
    slots: int

    @property
    def score(self) -> int:
        return self.rounds + GUESS_WEIGHT * self.guesses

    def record(self) -> dict[str, int]:
        return {"score": self.score, "rounds": self.rounds, "guesses": self.guesses,
                "given": self.given, "hidden": self.hidden}


def _slots(words: Sequence[tuple[str, int, int, str]]
           ) -> list[tuple[str, list[tuple[int, int]]]]:
    slots = []
    for word, x, y, d in words:
        dx, dy = (1, 0) if d == "across" else (0, 1)
        slots.append((word, [(x + dx * k, y + dy * k) for k in range(len(word))]))
    return slots


def measure(lexicon: Lexicon, words: Sequence[tuple[str, int, int, str]],
            cells: Iterable[tuple[int, int, str, int]]) -> Difficulty:
    """The difficulty of a board: ``words`` (word, x, y, dir), ``cells`` (x, y, letter, n)."""
    cells = list(cells)
    known = {(x, y): c for x, y, c, n in cells if n == -2}
    given = len(known)
    slots = _slots(words)
    rounds, guesses = _solve(lexicon, slots, known)
    hidden = len({(x, y) for x, y, _c, n in cells if n != -2})
    return Difficulty(rounds, guesses, given, hidden, len(slots))


def _solve(lexicon: Lexicon, slots: list[tuple[str, list[tuple[int, int]]]],
           known: dict[tuple[int, int], str],
           knows: Callable[[set[int] | frozenset[int]], set[int]] | None = None,
           truth: Sequence[bool] = ()) -> tuple[int, int]:
    """(rounds, guesses) of the solver from the given letters ``known`` (filled in place).

    ``knows`` (word ids -> those the player knows) and ``truth`` (per slot: does the player
    know its word) make the familiarity-aware player; without them every word is known."""
    indexes = [_length_index(lexicon, len(word)) for word, _ in slots]
    words_of = lexicon.words
    used: set[str] = set()
    solved = [False] * len(slots)
    rounds = guesses = 0

    def fits(n: int) -> set[int] | frozenset[int]:
        ids, index = indexes[n]
        path = slots[n][1]
        sets = [index.get((pos, known[p]), frozenset()) for pos, p in enumerate(path)
                if p in known]
        found = ids if not sets else frozenset.intersection(*sorted(sets, key=len))
        return {i for i in found if words_of[i] not in used}

    def write(n: int, word: str) -> None:
        for p, ch in zip(slots[n][1], word, strict=True):
            known[p] = ch
        solved[n] = True
        used.add(word)

    while not all(solved):
        progress = False
        letters: dict[tuple[int, int], str] = {}
        finished: list[tuple[int, str]] = []
        options: list[tuple[int, int]] = []
        for n, (_word, path) in enumerate(slots):
            if solved[n]:
                continue
            if all(p in known for p in path):
                finished.append((n, "".join(known[p] for p in path)))
                continue
            found = fits(n)
            if knows is not None:
                found = knows(found)  # the words the player knows
                if not truth[n]:  # its own word unknown: nothing deduced, one more option
                    options.append((len(found) + 1, n))
                    continue
            options.append((len(found) or 10**9, n))
            if len(found) == 1:
                finished.append((n, words_of[next(iter(found))]))
            elif found:
                first = words_of[next(iter(found))]
                for pos, p in enumerate(path):
                    if p in known:
                        continue
                    ch = first[pos]  # written when every fitting word has it (stop at one not)
                    if all(words_of[i][pos] == ch for i in found):
                        letters[p] = ch
        for n, word in finished:
            if not solved[n]:
                write(n, word)
                progress = True
        for p, ch in letters.items():
            if p not in known:
                known[p] = ch
                progress = True
        if progress:
            rounds += 1
            continue
        if not options:
            break
        _, n = min(options)  # the slot with the fewest fitting words (ties: chain order)
        guesses += 1
        write(n, slots[n][0])
    return rounds, guesses


def known_probability(zipf: float | None) -> float:
    """The chance that a player knows a word of this Zipf frequency (None: no frequency data
    for the vocabulary's language: every word counts as known, and the familiarity-aware
    score is the plain one)."""
    if zipf is None:
        return 1.0
    return 1.0 / (1.0 + math.exp(-(zipf - KNOWN_MIDPOINT) / KNOWN_SCALE))


@dataclass(frozen=True)
class Familiar:
    """What a familiarity-aware player expects of a board: the score and guesses averaged
    over the draws of what they know, and ``known``, the mean chance that they know one of
    its placed words. Each to 2 decimals."""

    score: float
    guesses: float
    known: float

    def record(self) -> dict[str, float]:
        return {"familiar_score": self.score, "familiar_guesses": self.guesses,
                "known": self.known}


def board_seed(words: Sequence[tuple[str, int, int, str]],
               cells: Sequence[tuple[int, int, str, int]]) -> int:
    """The seed of a board's draws: a stable digest of its words and cells (never its id or
    stream), so the same board draws the same whichever batch it is in."""
    return derive_seed(0, "familiar", repr([tuple(w) for w in words]),
                       repr([tuple(c) for c in cells]))


def measure_familiar(lexicon: Lexicon, words: Sequence[tuple[str, int, int, str]],
                     cells: Iterable[tuple[int, int, str, int]], known: Sequence[float],
                     draws: int = FAMILIAR_DRAWS) -> Familiar:
    """:func:`measure` for a player who knows word ``i`` of the lexicon with probability
    ``known[i]`` (:func:`known_probability`; a word the lexicon lacks counts as known).

    The draws are stratified: each word ``i`` of the slots' lengths gets one uniform ``u``
    (drawn from :func:`board_seed`'s stream in the order of length, then id: never in the
    order the solver meets them) and is known in draw ``d`` when ``(u + d / draws) mod 1 <
    known[i]``, so each word is known in its share of the draws within one; every word is
    still known or not independently in any one draw.
    """
    cells = list(cells)
    given = {(x, y): c for x, y, c, n in cells if n == -2}
    slots = _slots(words)
    draw = random.Random(board_seed(words, cells)).random
    offsets = {i: draw() for length in sorted({len(word) for word, _path in slots})
               for i in _ids_of_length(lexicon, length)}
    index = lexicon.index
    ids = [index.get(word) for word, _path in slots]
    total_score = total_guesses = 0
    for d in range(draws):
        shift = d / draws

        def knows(found: set[int] | frozenset[int], shift: float = shift) -> set[int]:
            return {i for i in found if (offsets[i] + shift) % 1.0 < known[i]}

        truth = [i is None or bool(knows({i})) for i in ids]
        rounds, guesses = _solve(lexicon, slots, dict(given), knows, truth)
        total_score += rounds + GUESS_WEIGHT * guesses
        total_guesses += guesses
    placed = [known[i] if i is not None else 1.0 for i in ids]
    return Familiar(round(total_score / draws, 2), round(total_guesses / draws, 2),
                    round(sum(placed) / len(placed), 2) if placed else 1.0)


def _ids_of_length(lexicon: Lexicon, length: int) -> tuple[int, ...]:
    """The ids of the lexicon's words of ``length`` letters, ascending (kept per length)."""
    kept = lexicon.cache.length_ids
    made = kept.get(length)
    if made is None:
        made = kept[length] = tuple(sorted(_length_index(lexicon, length)[0]))
    return made


def measure_familiar_record(lexicon: Lexicon, rec: dict[str, Any],
                            known: Sequence[float]) -> Familiar:
    """:func:`measure_familiar` of a board's JSON record."""
    words = [(w["word"], w["x"], w["y"], w["dir"]) for w in rec["words"]]
    cells = [(c["x"], c["y"], c["c"], c["n"]) for c in rec["cells"]]
    return measure_familiar(lexicon, words, cells, known)


def measure_record(lexicon: Lexicon, rec: dict[str, Any]) -> Difficulty:
    """:func:`measure` of a board's JSON record."""
    words = [(w["word"], w["x"], w["y"], w["dir"]) for w in rec["words"]]
    cells = [(c["x"], c["y"], c["c"], c["n"]) for c in rec["cells"]]
    return measure(lexicon, words, cells)


def easiest_first(lexicon: Lexicon, boards: Sequence[Any]) -> list[Any]:
    """A challenge set's boards, easiest first by the solver's score (ramp order among
    equals; a board that could not be made stays last): ``--order-by-difficulty``."""
    made = [(measure(lexicon, b.words, b.cells).score, j, b) for j, b in enumerate(boards)
            if b is not None]
    made.sort(key=lambda t: (t[0], t[1]))
    return [b for _, _, b in made] + [b for b in boards if b is None]


def rises(means: Sequence[float]) -> bool:
    """Does a ramp get harder: its last third harder than its first third on average, and at
    least 70% of the pairs of steps with different means ordered the way the steps are?"""
    if len(means) < 2:
        return True
    third = max(1, len(means) // 3)
    head = sum(means[:third]) / third
    tail = sum(means[-third:]) / third
    pairs = [(a < b) for i, a in enumerate(means) for b in means[i + 1:] if a != b]
    return tail > head and (not pairs or sum(pairs) / len(pairs) >= 0.7)


def endless_step(question: int, unlock_every: int) -> int:
    """The step of endless question k: its phase of the plan (a new style unlocks each)."""
    return question // unlock_every


def challenge_step(board_id: int, size: int) -> int:
    """The ramp step of a challenge board (its place in its set of ``size``)."""
    return board_id % size


class DifficultyStats:
    """Difficulty scores of a batch, overall and per step (an endless question's place in
    its plan cycle, a challenge question's ramp step): exact counts, mergeable (the
    :class:`wordforge_cli.core.engine.Statistics` protocol over (difficulty, step, familiar)
    triples). The familiarity-aware figures are counted in hundredths (they have 2
    decimals), so they stay exact too; ``source`` says where the word frequencies came from.
    """

    def __init__(self, source: str = "none") -> None:
        self.source = source
        self.scores: dict[int, int] = {}
        self.guesses: dict[int, int] = {}
        self.steps: dict[int, dict[int, int]] = {}
        self.familiar: dict[int, int] = {}  # hundredths of a familiarity-aware score
        self.familiar_guesses: dict[int, int] = {}
        self.known: dict[int, int] = {}
        self.familiar_steps: dict[int, dict[int, int]] = {}

    def add(self, d: Difficulty, step: int | None = None,
            familiar: Familiar | None = None) -> None:
        self.scores[d.score] = self.scores.get(d.score, 0) + 1
        self.guesses[d.guesses] = self.guesses.get(d.guesses, 0) + 1
        if step is not None:
            counts = self.steps.setdefault(step, {})
            counts[d.score] = counts.get(d.score, 0) + 1
        if familiar is not None:
            score = round(familiar.score * 100)
            for counts, value in ((self.familiar, score),
                                  (self.familiar_guesses, round(familiar.guesses * 100)),
                                  (self.known, round(familiar.known * 100))):
                counts[value] = counts.get(value, 0) + 1
            if step is not None:
                counts = self.familiar_steps.setdefault(step, {})
                counts[score] = counts.get(score, 0) + 1

    def fail(self, count: int = 1) -> None:
        """A board that was not made has no difficulty (the board statistics count it)."""

    def merge(self, other: DifficultyStats) -> DifficultyStats:
        for mine, theirs in ((self.scores, other.scores), (self.guesses, other.guesses),
                             (self.familiar, other.familiar),
                             (self.familiar_guesses, other.familiar_guesses),
                             (self.known, other.known)):
            for v, c in theirs.items():
                mine[v] = mine.get(v, 0) + c
        for steps, theirs_steps in ((self.steps, other.steps),
                                    (self.familiar_steps, other.familiar_steps)):
            for step, counts in theirs_steps.items():
                into = steps.setdefault(step, {})
                for v, c in counts.items():
                    into[v] = into.get(v, 0) + c
        return self

    def to_state(self) -> dict[str, Any]:
        return {"scores": sorted(self.scores.items()), "guesses": sorted(self.guesses.items()),
                "steps": [[step, sorted(counts.items())]
                          for step, counts in sorted(self.steps.items())],
                "source": self.source,
                "familiar": sorted(self.familiar.items()),
                "familiar_guesses": sorted(self.familiar_guesses.items()),
                "known": sorted(self.known.items()),
                "familiar_steps": [[step, sorted(counts.items())]
                                   for step, counts in sorted(self.familiar_steps.items())]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> DifficultyStats:
        """The counts ``to_state`` wrote; ValueError/KeyError/TypeError for anything else."""
        source = state["source"]
        if not isinstance(source, str):
            raise ValueError(f"not a source name: {source!r}")
        stats = cls(source)
        stats.scores = _counts(state["scores"])
        stats.guesses = _counts(state["guesses"])
        for step, counts in state["steps"]:
            stats.steps[_whole(step)] = _counts(counts)
        stats.familiar = _counts(state["familiar"])
        stats.familiar_guesses = _counts(state["familiar_guesses"])
        stats.known = _counts(state["known"])
        for step, counts in state["familiar_steps"]:
            stats.familiar_steps[_whole(step)] = _counts(counts)
        return stats

    def summary(self) -> dict[str, Any]:

        from wordforge_cli.core.engine import describe

        out: dict[str, Any] = {"score": describe(Counter(self.scores)),
                               "guesses": describe(Counter(self.guesses)),
                               "histogram": {str(v): c for v, c in sorted(self.scores.items())}}
        if self.steps:
            means = _step_means(self.steps)
            out["per_step"] = means
            out["rises"] = rises(means)
        out["familiarity"] = self.source
        out["familiar_score"] = _hundredths(describe(Counter(self.familiar)))
        out["familiar_guesses"] = _hundredths(describe(Counter(self.familiar_guesses)))
        out["known"] = _hundredths(describe(Counter(self.known)))
        if self.familiar_steps:
            means = [round(m / 100, 3) for m in _step_means(self.familiar_steps)]
            out["familiar_per_step"] = means
            out["familiar_rises"] = rises(means)
        return out


def _step_means(steps: dict[int, dict[int, int]]) -> list[float]:
    means = []
    for step in sorted(steps):
        counts = steps[step]
        total = sum(counts.values())
        means.append(round(sum(v * c for v, c in counts.items()) / total, 3))
    return means


def _hundredths(figures: dict[str, Any]) -> dict[str, Any]:
    """A distribution counted in hundredths, in units again."""
    return {k: None if v is None else round(v / 100, 3 if k == "mean" else 2)
            for k, v in figures.items()}


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a whole number >= 0: {value!r}")
    return value


def _counts(pairs: object) -> dict[int, int]:
    if not isinstance(pairs, list):
        raise ValueError("not a list of [value, count] pairs")
    out: dict[int, int] = {}
    for value, count in pairs:
        out[_whole(value)] = _whole(count)
    return out
