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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from wordforge_cli.crossword.lexicon import Lexicon
from wordforge_cli.crossword.unique import _length_index

GUESS_WEIGHT = 3


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


def measure(lexicon: Lexicon, words: Sequence[tuple[str, int, int, str]],
            cells: Iterable[tuple[int, int, str, int]]) -> Difficulty:
    """The difficulty of a board: ``words`` (word, x, y, dir), ``cells`` (x, y, letter, n)."""
    cells = list(cells)
    known = {(x, y): c for x, y, c, n in cells if n == -2}
    given = len(known)
    slots = []
    for word, x, y, d in words:
        dx, dy = (1, 0) if d == "across" else (0, 1)
        slots.append((word, [(x + dx * k, y + dy * k) for k in range(len(word))]))
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
            options.append((len(found) or 10**9, n))
            if len(found) == 1:
                finished.append((n, words_of[next(iter(found))]))
            elif found:
                for pos, p in enumerate(path):
                    if p in known:
                        continue
                    seen = {words_of[i][pos] for i in found}
                    if len(seen) == 1:
                        letters[p] = seen.pop()
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
    hidden = len({(x, y) for x, y, _c, n in cells if n != -2})
    return Difficulty(rounds, guesses, given, hidden, len(slots))


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
    :class:`wordforge_cli.core.engine.Statistics` protocol over (difficulty, step) pairs)."""

    def __init__(self) -> None:
        self.scores: dict[int, int] = {}
        self.guesses: dict[int, int] = {}
        self.steps: dict[int, dict[int, int]] = {}

    def add(self, d: Difficulty, step: int | None = None) -> None:
        self.scores[d.score] = self.scores.get(d.score, 0) + 1
        self.guesses[d.guesses] = self.guesses.get(d.guesses, 0) + 1
        if step is not None:
            counts = self.steps.setdefault(step, {})
            counts[d.score] = counts.get(d.score, 0) + 1

    def fail(self, count: int = 1) -> None:
        """A board that was not made has no difficulty (the board statistics count it)."""

    def merge(self, other: DifficultyStats) -> DifficultyStats:
        for mine, theirs in ((self.scores, other.scores), (self.guesses, other.guesses)):
            for v, c in theirs.items():
                mine[v] = mine.get(v, 0) + c
        for step, counts in other.steps.items():
            into = self.steps.setdefault(step, {})
            for v, c in counts.items():
                into[v] = into.get(v, 0) + c
        return self

    def to_state(self) -> dict[str, Any]:
        return {"scores": sorted(self.scores.items()), "guesses": sorted(self.guesses.items()),
                "steps": [[step, sorted(counts.items())]
                          for step, counts in sorted(self.steps.items())]}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> DifficultyStats:
        """The counts ``to_state`` wrote; ValueError/KeyError/TypeError for anything else."""
        stats = cls()
        stats.scores = _counts(state["scores"])
        stats.guesses = _counts(state["guesses"])
        for step, counts in state["steps"]:
            stats.steps[_whole(step)] = _counts(counts)
        return stats

    def summary(self) -> dict[str, Any]:
        from collections import Counter

        from wordforge_cli.core.engine import describe

        out: dict[str, Any] = {"score": describe(Counter(self.scores)),
                               "guesses": describe(Counter(self.guesses)),
                               "histogram": {str(v): c for v, c in sorted(self.scores.items())}}
        if self.steps:
            means = []
            for step in sorted(self.steps):
                counts = self.steps[step]
                total = sum(counts.values())
                means.append(round(sum(v * c for v, c in counts.items()) / total, 3))
            out["per_step"] = means
            out["rises"] = rises(means)
        return out


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
