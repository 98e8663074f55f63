"""What the two crossword difficulty scores follow: Spearman correlations, over boards of the
bundled English and Japanese vocabularies, of the plain score (a solver that knows every word)
and the familiarity-aware score (a player who knows each word with a probability from its
frequency) with three things that make a board hard: how common its words are (the mean
wordfreq Zipf of its placed words: a higher mean, an easier board, so a negative correlation
is the one a person would expect), how many cells it hides, and how ambiguous its slots are
(the mean over its slots of log2 of the vocabulary words of the slot's length that fit its
given letters).

    .venv/bin/python bench/difficulty_correlations.py            # 2,000 boards a vocabulary
    .venv/bin/python bench/difficulty_correlations.py -n 500     # quicker

The boards: equal shares of the five blank styles, answers of 3-6 letters, the loose layout,
seed 1. Deterministic: the same table on every run.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wordforge_cli.batch.familiarity import word_zipfs  # noqa: E402
from wordforge_cli.crossword.blanks import STYLES  # noqa: E402
from wordforge_cli.crossword.board import Request  # noqa: E402
from wordforge_cli.crossword.difficulty import (  # noqa: E402
    known_probability,
    measure,
    measure_familiar,
)
from wordforge_cli.crossword.lexicon import Lexicon, prepare  # noqa: E402
from wordforge_cli.crossword.sets import batch  # noqa: E402
from wordforge_cli.crossword.unique import _length_index  # noqa: E402
from wordforge_cli.io.vocab import read_vocab  # noqa: E402

VOCABULARIES = (("English", "examples/animals-en.yaml"), ("Japanese", "examples/tech.yaml"))


def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties given their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rho: Pearson's correlation of the ranks."""
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx and vy else float("nan")


def ambiguity(lexicon: Lexicon, words, cells) -> float:
    """Mean over the slots of log2 of the words of its length fitting its given letters."""
    given = {(x, y): c for x, y, c, n in cells if n == -2}
    total = 0.0
    for word, x, y, d in words:
        dx, dy = (1, 0) if d == "across" else (0, 1)
        ids, index = _length_index(lexicon, len(word))
        sets = [index.get((k, given[(x + dx * k, y + dy * k)]), frozenset())
                for k in range(len(word)) if (x + dx * k, y + dy * k) in given]
        fitting = frozenset.intersection(*sets) if sets else ids
        total += math.log2(max(1, len(fitting)))
    return total / len(words)


def measure_vocabulary(path: str, count: int) -> dict[str, list[float]]:
    lexicon = prepare(read_vocab(ROOT / path))
    zipf = [z or 0.0 for z in word_zipfs(lexicon, levels=False)[0]]
    known = [known_probability(z) for z in word_zipfs(lexicon)[0]]
    index = lexicon.index
    rows: dict[str, list[float]] = {k: [] for k in ("plain", "familiar", "zipf", "hidden",
                                                     "ambiguity")}
    share = count // len(STYLES)
    for k, style in enumerate(STYLES):
        n = share + (1 if k < count - share * len(STYLES) else 0)
        for _i, _s, board in batch(lexicon, Request(3, 6, style=style), 1, n,
                                   scope=("correlations", style)):
            if board is None:
                continue
            plain = measure(lexicon, board.words, board.cells)
            familiar = measure_familiar(lexicon, board.words, board.cells, known)
            rows["plain"].append(plain.score)
            rows["familiar"].append(familiar.score)
            rows["zipf"].append(sum(zipf[index[w]] for w, *_ in board.words)
                                / len(board.words))
            rows["hidden"].append(plain.hidden)
            rows["ambiguity"].append(ambiguity(lexicon, board.words, board.cells))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=2000, help="boards a vocabulary")
    args = parser.parse_args()
    command = "python bench/difficulty_correlations.py" + (f" -n {args.n}" if args.n != 2000
                                                           else "")
    print(f"## Spearman correlations over {args.n:,} boards a vocabulary (`{command}`)\n")
    print("| vocabulary | score | mean Zipf of its words | hidden cells | slot ambiguity "
          "| mean score |")
    print("|---|---|---|---|---|---|")
    for name, path in VOCABULARIES:
        start = time.process_time()
        rows = measure_vocabulary(path, args.n)
        for score, label in (("plain", "plain (knows every word)"),
                             ("familiar", "familiarity-aware")):
            cells = [f"{spearman(rows[score], rows[x]):+.2f}"
                     for x in ("zipf", "hidden", "ambiguity")]
            mean = sum(rows[score]) / len(rows[score])
            print(f"| {name} (`{path.split('/')[-1]}`, {len(rows[score]):,} boards) | {label} "
                  f"| {' | '.join(cells)} | {mean:.2f} |")
        print(f"<!-- {name}: {time.process_time() - start:.1f} s CPU -->", file=sys.stderr)
    print()


if __name__ == "__main__":
    main()
