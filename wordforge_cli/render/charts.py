"""Charts of the play figures (SVG, no script): score distributions, win rates, difficulty per
step. Inputs are the engines' JSON summaries, so ``wfkit pack preview`` draws them from a
manifest alone; every bar is a ``rect class="bar"`` a browser test can count.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from wordforge_cli.render.svg import rect, svg_document, text

MAX_BARS = 60  # a chart of more steps draws the first MAX_BARS (and says so)
COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1")


def bar_chart(labels: Sequence[str], values: Sequence[float], title: str, *,
              percent: bool = False, bar_w: int = 40,
              shown: Sequence[str] | None = None, fill: str | None = None) -> str:
    """Vertical bars, one per label, values written above them (``shown``: the texts
    written instead; ``fill``: one colour for every bar, as a histogram's)."""
    gap, height, top, left = 10, 160, 44, 16  # top: the title, then the tallest bar's value
    most = max([float(v) for v in values] + [1e-9])
    width = max(220, left * 2 + len(labels) * (bar_w + gap))
    body = [rect(0, 0, width, height + top + 46, fill="#fff", stroke="none", width=0),
            text(left, 14, title, size=14, anchor="start", fill="#333", weight="bold")]
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = round(height * float(value) / most, 1)
        x = left + i * (bar_w + gap)
        y = top + height - h
        body.append(rect(x, y, bar_w, max(h, 0.5), fill=fill or COLOURS[i % len(COLOURS)],
                         stroke="none", width=0, cls="bar"))
        written = (shown[i] if shown is not None else
                   f"{100 * float(value):.0f}%" if percent else f"{float(value):g}")
        body.append(text(x + bar_w / 2, y - 8, written, size=11))
        body.append(text(x + bar_w / 2, top + height + 14, label, size=10, fill="#444"))
    return svg_document(width, height + top + 46, body, title=title)


def score_histogram(histogram: dict[str, int], title: str = "score per turn") -> str:
    """A histogram from ``{"bin start": count}`` (the bins of ``balance.summarize``, the
    scores of ``difficulty.DifficultyStats``)."""
    keys = sorted(histogram, key=int)
    return bar_chart(keys, [histogram[k] for k in keys], title, bar_w=18)


def win_rates(wins: dict[str, float], title: str = "wins") -> str:
    return bar_chart(list(wins), list(wins.values()), title, percent=True, bar_w=56)


def _number(value: object) -> float | None:
    """A finite number from a statistics file (a manifest anyone could edit), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value) if abs(value) < 1e300 else math.inf
    return number if math.isfinite(number) else None


def _numbers(values: object) -> list[float] | None:
    """A list of finite numbers >= 0, else None (nothing is drawn from it)."""
    if not isinstance(values, list) or not values:
        return None
    numbers = [_number(v) for v in values]
    if any(n is None or n < 0 for n in numbers):
        return None
    return [n for n in numbers if n is not None]


def _shares(wins: object, top: float = 1) -> dict[str, float] | None:
    """Win shares by seat (names of a few characters, values 0..``top``), else None."""
    if not isinstance(wins, dict) or not 0 < len(wins) <= 16:
        return None
    out: dict[str, float] = {}
    for key, value in wins.items():
        share = _number(value)
        if not isinstance(key, str) or len(key) > 32 or share is None or not 0 <= share <= top:
            return None
        out[key] = share
    return out


_WHOLE = re.compile(r"-?[0-9]{1,18}")  # ASCII digits only: "²" is a digit to str.isdigit


def _histogram(histogram: object) -> dict[str, int] | None:
    if not isinstance(histogram, dict) or not 0 < len(histogram) <= 1000:
        return None
    out: dict[str, int] = {}
    for key, value in histogram.items():
        if not (isinstance(key, str) and _WHOLE.fullmatch(key)
                and isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            return None
        out[key] = value
    return out


def balance_charts(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of a balance section's summary."""
    out = []
    turn = stats.get("score_per_turn")
    histogram = _histogram(turn.get("histogram")) if isinstance(turn, dict) else None
    if histogram:
        out.append((score_histogram(histogram), "turns per score (bins of 25)"))
    wins = _shares(stats.get("wins"))
    if wins:
        out.append((win_rates(wins), "games won per seat"))
    return out


def play_charts(kind: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of the play figures a crossword or kanji section's statistics hold."""
    out = []
    difficulty = stats.get("difficulty")
    scores = _histogram(difficulty.get("histogram")) if isinstance(difficulty, dict) else None
    if scores:
        out.append((score_histogram(scores, "difficulty score"),
                    "boards per difficulty score (rounds + 3 x guesses)"))
    means = _numbers(difficulty.get("per_step")) if isinstance(difficulty, dict) else None
    if means:
        what = "ramp step" if kind == "challenge" else "plan phase"
        caption = f"mean difficulty score per {what}"
        if len(means) > MAX_BARS:
            caption += f" (the first {MAX_BARS} of {len(means)})"
        shown = means[:MAX_BARS]
        out.append((bar_chart([str(i + 1) for i in range(len(shown))], shown,
                              "difficulty per step", bar_w=28), caption))
    balance = stats.get("balance")
    wins = _shares(balance.get("wins")) if isinstance(balance, dict) else None
    if wins:
        out.append((win_rates(wins, "self-play wins"),
                    "games won by the first and second player"))
    return out


QUANTILES = ("min", "p10", "median", "p90", "max")  # a figure's ``core.engine.describe``


def crossword_charts(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of a crossword section's board sizes, blank failure per style and
    attempts per board (``crossword.stats.BatchStats.summary``)."""
    out = []
    size = stats.get("size")
    for way in ("width", "height"):
        histogram = _histogram(size.get(way)) if isinstance(size, dict) else None
        if histogram:
            keys = list(histogram)[:MAX_BARS]
            more = (f" (the first {MAX_BARS} of {len(histogram)})"
                    if len(keys) < len(histogram) else "")
            out.append((bar_chart(keys, [histogram[k] for k in keys], f"board {way} (cells)",
                                  bar_w=22, fill=COLOURS[0]), f"boards per {way} in cells{more}"))
    failure = stats.get("blank_failure")
    rates = _shares({style: figures.get("rate") if isinstance(figures, dict) else None
                     for style, figures in failure.items()}, 100) if isinstance(
        failure, dict) else None
    made = _number(stats.get("made"))
    if rates:
        of = f" (n = {made:,.0f} boards)" if made is not None else ""
        out.append((bar_chart(list(rates), list(rates.values()), "blank failure per style",
                              bar_w=48, shown=[f"{r:g}%" for r in rates.values()]),
                    f"first draws each style would leave with nothing to fill{of}"))
    attempts = stats.get("attempts")
    figures = (_numbers([attempts.get("median"), attempts.get("worst"), attempts.get("total")])
               if isinstance(attempts, dict) else None)
    if figures is not None and made is not None and made >= 1:
        median, worst, total = figures
        mean = total / made
        out.append((bar_chart(["median", "mean", "worst"], [median, mean, worst],
                              "attempts per board", bar_w=48,
                              shown=[f"{median:g}", f"{mean:.2f}", f"{worst:g}"]),
                    f"layouts tried per board made ({total:,.0f} for {made:,.0f} boards)"))
    return out


def kanji_charts(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of a kanji section's kanji per pool, hidden compounds per pool and
    orphan share (``kanji.stats.PoolStats.summary``)."""
    out = []
    for key, title, caption in (
            ("kanji_count", "kanji per pool", "kanji on a board: min, percentiles, max"),
            ("hidden_count", "hidden compounds per pool",
             "compounds of a board's kanji nobody was shown: min, percentiles, max")):
        value = stats.get(key)  # bars of its min, percentiles, median and max
        numbers = _numbers([value.get(q) for q in QUANTILES]) if isinstance(value, dict) else None
        if numbers is not None:
            out.append((bar_chart(list(QUANTILES), numbers, title, bar_w=44, fill=COLOURS[0]),
                        caption))
    kanji, orphans = stats.get("kanji_count"), stats.get("orphan_count")
    pools = _number(stats.get("pools"))
    means = _numbers([kanji.get("mean"), orphans.get("mean")]) if isinstance(
        kanji, dict) and isinstance(orphans, dict) else None
    if means is not None and means[0] > 0 and means[1] <= means[0] and pools is not None \
            and pools >= 1:
        share = means[1] / means[0]
        out.append((bar_chart(["orphans", "in 2+ words"], [share, 1 - share], "orphan share",
                              bar_w=72, shown=[f"{share:.1%}", f"{1 - share:.1%}"]),
                    f"kanji used by one word only, of the {means[0] * pools:,.0f} on "
                    f"{pools:,.0f} boards"))
    return out
