"""The territory game's players as the rules say them, every word known looked at: the plain
reference the self-play's index (``territory.Index``, what a game plays through) must agree
with, choice by choice and draw by draw (``test_territory``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from wordforge_cli.kanji.territory import KanjiBoard, Player, State


def choose(board: KanjiBoard, state: State, p: int, player: Player, known: Sequence[int],
           rng: random.Random, opponent_known: Sequence[int] = ()) -> int | None:
    """The word ``player`` names, or None (a pass): every word known looked at, as the
    rules say (the reference ``territory.Index`` must agree with; a game plays through it)."""
    held = state.held[0] | state.held[1]
    opp = state.held[1 - p]
    masks = board.masks
    options = []
    for i in known:
        m = masks[i]
        free = m & ~held
        if free:
            options.append((free.bit_count() + 2 * (m & opp).bit_count(), i))
    if not options:
        return None
    if player.kind == "lookahead":
        options.sort(key=lambda t: -t[0])
        cut = options[min(player.width, len(options)) - 1][0]
        scored: list[tuple[int, int]] = []
        for g, i in options:
            if g < cut and len(scored) >= player.width:
                break
            m = masks[i]
            after_held = held | m
            mine = state.held[p] | m
            reply = 0
            for j in opponent_known:
                mj = masks[j]
                free = mj & ~after_held
                if free:
                    r = free.bit_count() + 2 * (mj & mine).bit_count()
                    if r > reply:
                        reply = r
            scored.append((g - reply, i))
        options = scored
    top = max(g for g, _ in options)
    ties = [i for g, i in options if g == top]
    return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]
