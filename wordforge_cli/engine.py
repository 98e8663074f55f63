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
