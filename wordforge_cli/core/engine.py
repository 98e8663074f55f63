"""What every engine shares with its front ends: the statistics protocol and the one policy for
an item whose attempt budget runs out.

An engine's statistics class (``crossword.stats.BatchStats``, ``kanji.stats.PoolStats``,
``rarity.Summary``) implements :class:`Statistics`; the command line and pack sections use it
as it is, so a batch's figures are the same whichever front end made it, and a pack's shards
merge to the figures of one whole run.

Out of budget: the item is counted as failed and the run goes on (the command line and the pack
alike); an engine iterator yields an :class:`OutOfBudget` in its place, saying why. A run that
makes nothing at all is a could-not-do (exit 1), reported with the first reason.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T", contravariant=True)
S = TypeVar("S", bound="Statistics[Any]")


class Statistics(Protocol[T]):
    """Exact, mergeable figures of a batch: counts only (no floats, no timings), so parts
    merged in any grouping give the same summary, byte for byte."""

    def add(self, made: T) -> None:
        """Count one made item (a board, a pool record, a rating)."""

    def fail(self, count: int = 1) -> None:
        """Count items whose budget ran out."""

    def merge(self: S, other: S) -> S:
        """Add another part's counts (a worker's, a shard's) to these."""

    def to_state(self) -> dict[str, Any]:
        """The counts as JSON-ready data; the class's ``from_state`` restores them exactly."""

    def summary(self) -> dict[str, Any]:
        """The JSON-ready figures."""


@dataclass(frozen=True, slots=True)
class OutOfBudget:
    """An item whose attempt budget ran out: counted as failed, the run goes on."""

    reason: str
    size: int = 1  # how many made things it stands for (a challenge set: its boards)


_N = TypeVar("_N", int, float)  # a figure's values: counts, or rates and means


def describe(counts: Counter[_N]) -> dict[str, Any]:
    """A figure's distribution from its counts: min, p10, median, p90, max (lower quantiles) and
    the mean, the same in any order of adding."""
    total = sum(counts.values())
    if not total:
        return {"min": None, "p10": None, "median": None, "p90": None, "max": None, "mean": None}
    ordered = sorted(counts.items())

    def quantile(q: float) -> _N:
        # lower quantile: the smallest value with at least q of the items at or below it
        need = max(1, -(-int(q * 1000) * total // 1000))
        seen = 0
        for value, count in ordered:
            seen += count
            if seen >= need:
                return value
        return ordered[-1][0]

    mean = sum(v * c for v, c in ordered) / total
    return {"min": ordered[0][0], "p10": quantile(0.1), "median": quantile(0.5),
            "p90": quantile(0.9), "max": ordered[-1][0],
            "mean": round(mean, 3) + 0.0}  # (+ 0.0: never -0.0, a mean just below zero)
