"""Batch figures: the distribution of every pool-quality figure over all pools of a batch.

Fed one record at a time, mergeable (shards, workers), and its summary is deterministic: exact
value counts are kept, so merged stats equal the stats of the whole batch. Timings are not
kept here (the CLI adds them), so two runs of the same batch summarise to the same bytes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from wordforge_cli.core.engine import describe

FIGURES = ("kanji_count", "chars", "index_a", "pass_score", "orphan_count", "hardest_grade",
           "hidden_count", "attempts")
# each pool-quality figure's English name, as the tables and renders show it (index_a, the
# characters of a pool's words minus its distinct kanji, was named 指標A in Japanese)
FIGURE_NAMES = {"kanji_count": "kanji", "chars": "characters", "index_a": "index A",
                "pass_score": "pass score", "picked_scores": "picked score",
                "orphan_count": "orphans", "hardest_grade": "hardest grade",
                "hidden_count": "hidden", "attempts": "attempts"}


@dataclass
class PoolStats:
    """The batch figures (the :class:`wordforge_cli.core.engine.Statistics` protocol): pools made,
    pools whose kanji-count budget ran out, the value counts of every figure."""

    pools: int = 0
    values: dict[str, Counter[int]] = field(
        default_factory=lambda: {f: Counter() for f in FIGURES})
    scores: Counter[int] = field(default_factory=Counter)   # score of every picked word
    failed: int = 0

    def add(self, record: dict[str, Any]) -> None:
        self.pools += 1
        for name in FIGURES:
            self.values[name][record[name]] += 1
        self.scores.update(record["scores"])

    def fail(self, count: int = 1) -> None:
        self.failed += count

    def merge(self, other: PoolStats) -> PoolStats:
        self.pools += other.pools
        self.failed += other.failed
        for name in FIGURES:
            self.values[name].update(other.values[name])
        self.scores.update(other.scores)
        return self

    def to_state(self) -> dict[str, Any]:
        """A JSON-able state (value counts) that ``from_state`` restores exactly."""
        return {"failed": self.failed, "pools": {
            "pools": self.pools,
            "values": {f: [[v, c] for v, c in sorted(self.values[f].items())] for f in FIGURES},
            "scores": [[v, c] for v, c in sorted(self.scores.items())]}}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> PoolStats:
        pools = state["pools"]
        stats = cls(pools=int(pools["pools"]), failed=int(state["failed"]))
        for f in FIGURES:
            stats.values[f] = Counter({v: c for v, c in pools["values"][f]})
        stats.scores = Counter({v: c for v, c in pools["scores"]})
        return stats

    def summary(self) -> dict[str, Any]:
        """Pools made and failed; min / p10 / median / p90 / max / mean of each figure, plus
        the picked-score histogram."""
        out: dict[str, Any] = {"made": self.pools, "failed": self.failed, "pools": self.pools}
        for name in FIGURES:
            out[name] = describe(self.values[name])
        out["picked_scores"] = {**describe(self.scores),
                                "histogram": {str(v): c for v, c in sorted(self.scores.items())}}
        return out


