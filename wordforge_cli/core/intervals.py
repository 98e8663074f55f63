"""95% intervals for the figures simulated games give: what a designer may read from them.

Pure functions over exact counts (no randomness, no floats carried between calls), shared by
the WordForge and kanji games:

- a **rate** (k of n games) gets the Wilson score interval, which stays inside [0, 1] and
  behaves at k = 0 or k = n, where the plain normal interval does not;
- a **mean** (of a per-game figure, from its sum and sum of squares over n games) gets the
  normal interval, mean +- 1.96 standard errors (sample standard deviation, n - 1); with the
  hundreds of games a balance run plays the mean's sampling distribution is close to normal;
  a figure that cannot leave a range (a share in [0, 1], a score >= 0) has its interval cut
  to that range, where a few games would put the normal interval beyond it;
- a **rating** of player models from their head-to-head results (Bradley-Terry, fitted by the
  minorisation-maximisation iteration of Hunter 2004, draws counted as half a win each way).

A rate is *distinguishable* from a fair value when its interval does not cover that value:
inside the interval the games cannot tell the rule set from a fair one. The intervals treat
games as independent draws, which they are (each game its own seeded stream); figures per turn
are taken per game first (the turns of one game are not independent).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
SHARE, SCORE = (0.0, 1.0), (0.0, math.inf)  # the values a share and a game's score can take
METHOD = ("rates: Wilson score interval; means: normal interval over games "
          "(mean +- 1.96 standard errors); 95%")


def rounded(value: float, digits: int) -> float:
    """``round(value, digits)`` as a float that is never -0.0: a figure just below zero (an
    interval's low end, a mean margin) rounds to 0.0, which JSON and the tables print as
    0.0, not -0.0."""
    return round(value, digits) + 0.0


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials ((0, 1) for n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    if not 0 <= k <= n:
        raise ValueError(f"not a rate: {k} of {n}")
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # exact at the ends (the float sum leaves a few ulps there)
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def rate(k: int, n: int, fair: float | None = None, digits: int = 4) -> dict[str, Any]:
    """``{rate, low, high, n}`` of k in n (rate 0 for n = 0), and with a ``fair`` value
    ``fair`` and ``distinguishable`` (the interval leaves it out)."""
    low, high = wilson(k, n)
    out: dict[str, Any] = {"rate": rounded(k / n, digits) if n else 0.0,
                           "low": rounded(low, digits), "high": rounded(high, digits), "n": n}
    if fair is not None:
        out["fair"] = rounded(fair, digits)
        out["distinguishable"] = bool(n) and not low <= fair <= high
    return out


def mean(total: float, squares: float, n: int, fair: float | None = None,
         digits: int = 3, within: tuple[float, float] = (-math.inf, math.inf)) -> dict[str, Any]:
    """``{mean, low, high, n}`` of a figure from its sum and sum of squares over ``n`` games
    (the interval collapses to the mean for n < 2: no spread to estimate, and is cut to
    ``within``, the values the figure can take), and with a ``fair`` value ``fair`` and
    ``distinguishable``."""
    if n <= 0:
        out: dict[str, Any] = {"mean": None, "low": None, "high": None, "n": 0}
        if fair is not None:
            out.update(fair=fair, distinguishable=False)
        return out
    m = total / n
    var = max(0.0, (squares - n * m * m) / (n - 1)) if n >= 2 else 0.0
    half = Z95 * math.sqrt(var / n)
    low, high = max(m - half, within[0]), min(m + half, within[1])
    out = {"mean": rounded(m, digits), "low": rounded(low, digits),
           "high": rounded(high, digits), "n": n}
    if fair is not None:
        out["fair"] = fair
        out["distinguishable"] = not low <= fair <= high
    return out


def mean_of(counts: Mapping[int, int] | Mapping[float, int], scale: float = 1.0,
            fair: float | None = None, digits: int = 3,
            within: tuple[float, float] = (-math.inf, math.inf)) -> dict[str, Any]:
    """:func:`mean` of a figure given as value -> games (each value divided by ``scale``)."""
    n = sum(counts.values())
    ordered = sorted(counts.items())
    total = sum(v * c for v, c in ordered) / scale
    squares = sum(v * v * c for v, c in ordered) / (scale * scale)
    return mean(total, squares, n, fair, digits, within)


def mean_of_values(values: Iterable[float], fair: float | None = None,
                   digits: int = 3) -> dict[str, Any]:
    """:func:`mean` of a sequence of per-game values (a paired difference, say)."""
    total = squares = 0.0
    n = 0
    for v in values:
        total += v
        squares += v * v
        n += 1
    return mean(total, squares, n, fair, digits)


def bradley_terry(names: Sequence[str], results: Mapping[tuple[int, int], float],
                  iterations: int = 10_000, tolerance: float = 1e-12) -> list[float]:
    """Bradley-Terry strengths of ``names`` (summing to len(names)) from ``results[(i, j)]``,
    the wins of i over j (a draw is half a win each way).

    The MM iteration (Hunter 2004): p_i = W_i / sum_j n_ij / (p_i + p_j). A model that won
    every game (or none) has no finite maximum; one pseudo-game won and lost against each
    other model (prior of Bradley-Terry's own form) keeps every strength finite and moves
    none of well-measured ones by much.
    """
    k = len(names)
    if k == 0:
        return []
    wins = [[0.0] * k for _ in range(k)]
    for (i, j), w in sorted(results.items()):
        wins[i][j] += w
    for i in range(k):
        for j in range(k):
            if i != j:
                wins[i][j] += 0.5  # the pseudo-games
    p = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            w = sum(wins[i][j] for j in range(k) if j != i)
            d = sum((wins[i][j] + wins[j][i]) / (p[i] + p[j]) for j in range(k) if j != i)
            new.append(w / d if d else p[i])
        s = sum(new)
        new = [v * k / s for v in new]
        done = max(abs(a - b) for a, b in zip(new, p, strict=True)) < tolerance
        p = new
        if done:
            break
    return p


def elo_scale(strengths: Sequence[float]) -> list[float]:
    """Bradley-Terry strengths on the Elo scale (400 log10, mean 0): 400 points apart is
    10-to-1 odds."""
    if not strengths:
        return []
    logs = [400 * math.log10(s) for s in strengths]
    centre = sum(logs) / len(logs)
    return [rounded(v - centre, 1) for v in logs]
