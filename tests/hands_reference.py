"""The reference answer ``tiles --best``'s hand index must give: every candidate word scored,
as the rules say (the hands tests hold the index to it; bench/bench_balance.py times it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wordforge_cli.wordforge.hands import Best
from wordforge_cli.wordforge.rarity import Play, Rules, hand_cover, score_word


def brute_best(hand: str, k: int, candidates: Sequence[tuple[str, int]], rules: Rules,
               mask: Callable[[str], bool] | None = None) -> list[Best]:
    """The reference answer: score every candidate (word, battle tier) the hand can make."""
    found = []
    for word, tier in candidates:
        if mask is not None and not mask(word):
            continue
        positions, wilds = hand_cover(hand, word)
        if len(positions) > wilds:
            continue
        score = score_word(word, tier, rules, Play(wild=positions)).score
        found.append((-score, word, tier, positions))
    found.sort()
    return [Best(w, -s, t, p) for s, w, t, p in found[:k]]
