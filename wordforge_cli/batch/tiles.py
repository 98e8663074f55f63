"""Deals of WordForge's bag as a section (``wfkit tiles -n``): deal i is shuffled only from
``item_rng(seed, "tiles", i)``; one record a deal, the hands' figures as its statistics.
Not a pack kind (a deal is a test of the bag, not content a pack ships)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wordforge_cli.batch.kinds import Item, Section

if TYPE_CHECKING:
    from wordforge_cli.wordforge.deal_stats import DealStats
    from wordforge_cli.wordforge.rarity import Rules


@dataclass(eq=False, kw_only=True)
class DealSection(Section):
    kind = "tiles"
    rules: Rules
    players: int

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.core.errors import CannotDo
        from wordforge_cli.core.rng import item_rng
        from wordforge_cli.wordforge.rarity import deal

        tiles = self.rules.tiles
        for index in range(start, stop):
            result = deal(tiles, self.players, item_rng(seed, self.name, index))
            if len(result.hands[-1]) < tiles.hand_size:
                raise CannotDo(f"the bag cannot fill {self.players} hands of {tiles.hand_size}")
            yield Item([{"deal": index, "seed": seed, "players": self.players,
                         "sets": result.sets,
                         "bag_size": len(result.bag) + sum(len(h) for h in result.hands),
                         "hands": [h.upper() for h in result.hands],
                         "bag": result.bag.upper()}], made=(result,))

    def new_stats(self) -> DealStats:
        from wordforge_cli.wordforge.deal_stats import DealStats

        return DealStats(self.rules.tiles.points)

    def stats_from_state(self, state: dict[str, Any]) -> DealStats:
        from wordforge_cli.wordforge.deal_stats import DealStats

        return DealStats.from_state(state, self.rules.tiles.points)
