"""Fair puzzles (``--unique``): does what the player sees admit exactly one filling?

The player sees the given letters (n == -2) and the shape of every word. A filling puts one
vocabulary word of the right length in every word slot, agreeing with the given letters and
with each other where slots share a cell, all words distinct. A board is fair when exactly one
filling exists; blanking styles like ``most`` can hide so much that several fit.
"""

from __future__ import annotations

from collections.abc import Sequence

from wordforge_cli.crossword.lexicon import Lexicon


def _by_length(lexicon: Lexicon) -> dict[int, tuple[str, ...]]:
    cache = lexicon.cache
    if "by_length" not in cache:
        groups: dict[int, list[str]] = {}
        for w in lexicon.words:
            groups.setdefault(len(w), []).append(w)
        cache["by_length"] = {n: tuple(ws) for n, ws in groups.items()}
    return cache["by_length"]


def count_fillings(lexicon: Lexicon, words: Sequence[tuple[str, int, int, str]],
                   cells: Sequence[tuple[int, int, str, int]], *, limit: int = 2) -> int:
    """How many fillings the visible letters admit, counting no further than ``limit``."""
    given = {(x, y): c for x, y, c, n in cells if n == -2}
    slots = []
    for word, x, y, d in words:
        dx, dy = (1, 0) if d == "across" else (0, 1)
        slots.append([(x + dx * k, y + dy * k) for k in range(len(word))])
    by_length = _by_length(lexicon)
    options: list[list[str]] = []
    for slot in slots:
        pattern = [given.get(p) for p in slot]
        fits = [w for w in by_length.get(len(slot), ())
                if all(pc is None or pc == wc for pc, wc in zip(pattern, w, strict=True))]
        if not fits:
            return 0
        options.append(fits)
    grid: dict[tuple[int, int], str] = {}
    held: dict[tuple[int, int], int] = {}
    chosen: set[str] = set()
    free = set(range(len(slots)))

    def consistent(i: int, w: str) -> bool:
        return w not in chosen and all(grid.get(p, c) == c for p, c in zip(slots[i], w,
                                                                           strict=True))

    def search() -> int:
        if not free:
            return 1
        best, best_fits = -1, None
        for i in sorted(free):
            fits = [w for w in options[i] if consistent(i, w)]
            if best_fits is None or len(fits) < len(best_fits):
                best, best_fits = i, fits
                if not fits:
                    return 0
        free.discard(best)
        total = 0
        for w in best_fits:
            chosen.add(w)
            for p, c in zip(slots[best], w, strict=True):
                if p not in grid:
                    grid[p] = c
                held[p] = held.get(p, 0) + 1
            total += search()
            for p in slots[best]:
                held[p] -= 1
                if not held[p]:
                    del held[p]
                    del grid[p]
            chosen.discard(w)
            if total >= limit:
                break
        free.add(best)
        return total

    return min(search(), limit)
