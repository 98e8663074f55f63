"""Statistics of a batch of tile deals (``wfkit tiles -n N``): what hands a bag gives players.

Counts only (hand points, vowels per hand, hands a word game finds hard), mergeable and
deterministic like the other engines' statistics: the same deals summarise to the same bytes
however they are split.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from wordforge_cli.core.engine import describe  # min / p10 / median / p90 / max / mean
from wordforge_cli.wordforge.rarity import Deal

VOWELS = frozenset("aeiou")


@dataclass
class DealStats:
    """Figures of the hands dealt (``points``: letter -> points, from the tile rules)."""

    points: dict[str, int]
    deals: int = 0
    hand_points: Counter[int] = field(default_factory=Counter)
    vowels: Counter[int] = field(default_factory=Counter)
    q_without_u: int = 0

    def add(self, made: Deal) -> None:
        self.deals += 1
        for hand in made.hands:
            letters = hand.lower()
            self.hand_points[sum(self.points.get(ch, 0) for ch in letters)] += 1
            self.vowels[sum(ch in VOWELS for ch in letters)] += 1
            self.q_without_u += "q" in letters and "u" not in letters

    def fail(self, count: int = 1) -> None:
        """A deal cannot fail once the bag can fill every hand (checked before dealing)."""

    def merge(self, other: DealStats) -> DealStats:
        self.deals += other.deals
        self.hand_points.update(other.hand_points)
        self.vowels.update(other.vowels)
        self.q_without_u += other.q_without_u
        return self

    def to_state(self) -> dict[str, Any]:
        return {"deals": self.deals, "q_without_u": self.q_without_u,
                "hand_points": sorted(self.hand_points.items()),
                "vowels": sorted(self.vowels.items())}

    @classmethod
    def from_state(cls, state: dict[str, Any], points: dict[str, int]) -> DealStats:
        return cls(points, state["deals"], Counter(dict(state["hand_points"])),
                   Counter(dict(state["vowels"])), state["q_without_u"])

    def summary(self) -> dict[str, Any]:
        hands = sum(self.vowels.values())
        return {"deals": self.deals, "hands": hands,
                "hand_points": describe(self.hand_points),
                "vowels": describe(self.vowels),
                "hands_without_vowel": self.vowels.get(0, 0),
                "q_without_u": self.q_without_u}
