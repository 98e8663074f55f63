"""A tiny fake section kind ("dice") so the pack machinery is tested apart from the engines.

Item i draws only from ``item_rng(seed, section, i)``; about one item in ten fails (as a
crossword board whose budget runs out), so counts of made and failed items are exercised.
``python tests/test_pack_fake.py ARGS`` runs wfkit with the kind registered (for the
subprocess tests).
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import click

from wordforge_cli.batch import kinds
from wordforge_cli.batch.kinds import Item, Kind, Section
from wordforge_cli.core.rng import derive_seed, item_rng
from wordforge_cli.options.spec import PACK, Field, Spec


def histogram_summary(hist: Counter[int]) -> dict[str, Any]:
    """Median, worst and mean of a histogram of whole numbers, computed exactly."""
    total = sum(hist.values())
    if not total:
        return {"median": None, "worst": None, "mean": None}
    values = sorted(hist)
    middle = (total - 1) // 2, total // 2
    picks, seen = [], 0
    for value in values:
        nxt = seen + hist[value]
        for m in middle:
            if seen <= m < nxt:
                picks.append(value)
        seen = nxt
    median = (picks[0] + picks[1]) / 2
    mean = sum(v * c for v, c in hist.items()) / total
    return {"median": median, "worst": values[-1], "mean": round(mean, 4)}


class DiceStats:
    """Made and failed items and the histogram of their sums (the engine.Statistics
    protocol): exact counts, so shards merge to the figures of one run."""

    def __init__(self) -> None:
        self.made = 0
        self.failed = 0
        self.sums: Counter[int] = Counter()

    def add(self, record: dict) -> None:
        self.made += 1
        self.sums[record["sum"]] += 1

    def fail(self, count: int = 1) -> None:
        self.failed += count

    def merge(self, other: DiceStats) -> DiceStats:
        self.made += other.made
        self.failed += other.failed
        self.sums.update(other.sums)
        return self

    def to_state(self) -> dict:
        return {"made": self.made, "failed": self.failed, "sums": sorted(self.sums.items())}

    @classmethod
    def from_state(cls, state: dict) -> DiceStats:
        stats = cls()
        stats.made, stats.failed = state["made"], state["failed"]
        stats.sums = Counter(dict(state["sums"]))
        return stats

    def summary(self) -> dict:
        return {"made": self.made, "failed": self.failed, "sum": histogram_summary(self.sums)}


class DiceSection(Section):
    kind = "dice"

    def new_stats(self) -> DiceStats:
        return DiceStats()

    def stats_from_state(self, state: dict) -> DiceStats:
        return DiceStats.from_state(state)

    def make(self, seed: int, index: int) -> Item:
        rng = item_rng(seed, self.name, index)
        rolls = [rng.randint(1, self.options["sides"]) for _ in range(self.options["dice"])]
        if rng.random() < 0.1:
            return Item([], failed=1)
        return Item([{"id": index, "seed": derive_seed(seed, self.name, index), "rolls": rolls,
                      "sum": sum(rolls)}])

    def render_item(self, fmt: str, record: dict) -> str:
        if fmt == "text":
            return " ".join(map(str, record["rolls"]))
        width = 30 * len(record["rolls"])
        rects = "".join(f'<rect x="{30 * i}" y="0" width="28" height="28"/>'
                        for i in range(len(record["rolls"])))
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="30">{rects}</svg>'


# the dice kind's options, declared once as an engine's are; ``table``: a data file, to test
# a missing one
DICE_SPEC = Spec(
    Field("sides", click.IntRange(1, 1000), 6),
    Field("dice", click.IntRange(1, 100), 3),
    Field("impossible", click.BOOL, False),
    Field("table", click.Path(dir_okay=False), what="dice table"),
)


def _prepare(ctx, count, render, render_limit):
    v = DICE_SPEC.resolve(ctx.read(DICE_SPEC))
    if v["impossible"]:
        raise ctx.error("can never succeed: asked to be impossible", "impossible")
    return DiceSection(ctx.spec.name, count, render, render_limit,
                       {"sides": v["sides"], "dice": v["dice"]})


DICE = Kind("dice", DICE_SPEC.keys(PACK), ("text", "svg"), _prepare)


def register() -> None:
    """Add the fake kind at run time, as the built-in ones are found (by name, loaded once);
    "<registered>" marks it for the tests that list only the built-in kinds."""
    kinds.KINDS[DICE.name] = "wordforge_cli.batch.kinds:<registered>"
    kinds._LOADED[DICE.name] = DICE


register()


def test_dice_items_depend_only_on_seed_section_and_index():
    section = DiceSection("d", 10, (), 0, {"sides": 6, "dice": 3})
    again = DiceSection("d", 99, (), 0, {"sides": 6, "dice": 3})
    assert [section.make(1, i).records for i in range(10)] == \
        [again.make(1, i).records for i in range(10)]
    assert [section.make(1, i).records for i in range(10)] != \
        [section.make(2, i).records for i in range(10)]


if __name__ == "__main__":  # run wfkit with the dice kind (used by the SIGKILL test)
    from wordforge_cli.cli import main

    main(sys.argv[1:])
