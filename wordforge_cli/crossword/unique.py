"""Fair puzzles (``--unique``): does what the player sees admit exactly one filling?

The player sees the given letters (n == -2) and the shape of every word. A filling puts one
vocabulary word of the right length in every word slot, agreeing with the given letters and
with each other where slots share a cell, all words distinct. A board is fair when exactly one
filling exists; blanking styles like ``most`` can hide so much that several fit.

The search fills the most constrained slot first; a slot's candidates are the intersection of
per-length (position, letter) index sets, so big vocabularies stay quick.
"""

from __future__ import annotations

from collections.abc import Sequence

from wordforge_cli.crossword.lexicon import Lexicon


def _length_index(lexicon: Lexicon, length: int
                  ) -> tuple[frozenset[int], dict[tuple[int, str], frozenset[int]]]:
    """(ids of the words of this length, {(position, letter): ids}), built once per length."""
    cache = lexicon.cache.unique_index
    if length not in cache:
        ids = [i for i, w in enumerate(lexicon.words) if len(w) == length]
        index: dict[tuple[int, str], set[int]] = {}
        for i in ids:
            for pos, ch in enumerate(lexicon.words[i]):
                index.setdefault((pos, ch), set()).add(i)
        cache[length] = (frozenset(ids), {k: frozenset(v) for k, v in index.items()})
    return cache[length]


_NONE: frozenset[int] = frozenset()


def count_fillings(lexicon: Lexicon, words: Sequence[tuple[str, int, int, str]],
                   cells: Sequence[tuple[int, int, str, int]], *, limit: int = 2) -> int:
    """How many fillings the visible letters admit, counting no further than ``limit``."""
    known = {(x, y): c for x, y, c, n in cells if n == -2}  # letters fixed so far
    slots = []
    for word, x, y, d in words:
        dx, dy = (1, 0) if d == "across" else (0, 1)
        slots.append([(x + dx * k, y + dy * k) for k in range(len(word))])
    indexes = [_length_index(lexicon, len(slot)) for slot in slots]
    chosen: set[int] = set()
    free = list(range(len(slots)))
    words_of = lexicon.words

    def fits(i: int) -> frozenset[int] | set[int]:
        ids, index = indexes[i]
        sets = [index.get((pos, known[p]), _NONE) for pos, p in enumerate(slots[i])
                if p in known]
        if not sets:
            return ids - chosen if chosen else ids
        sets.sort(key=len)
        found = sets[0].intersection(*sets[1:]) if len(sets) > 1 else sets[0]
        return found - chosen if chosen else found

    def search() -> int:
        if not free:
            return 1
        best = -1
        best_fits: frozenset[int] | set[int] | None = None
        for i in free:
            f = fits(i)
            if best_fits is None or len(f) < len(best_fits):
                best, best_fits = i, f
                if not f:
                    return 0
        assert best_fits is not None  # free is not empty: some slot was chosen
        free.remove(best)
        total = 0
        slot = slots[best]
        for w in sorted(best_fits):  # sorted: the same search order on every run
            added = [p for p in slot if p not in known]
            for p, c in zip(slot, words_of[w], strict=True):
                if p not in known:
                    known[p] = c
            chosen.add(w)
            total += search()
            chosen.discard(w)
            for p in added:
                del known[p]
            if total >= limit:
                break
        free.append(best)
        free.sort()
        return total

    return min(search(), limit)
