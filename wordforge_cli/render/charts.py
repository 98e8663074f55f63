"""Charts of the play figures (SVG, no script): score distributions, win rates, difficulty per
step, and figures with their 95% intervals (win shares by seat and by model, end reasons, a
sweep's rows). Inputs are the engines' JSON summaries, so ``wfkit pack preview`` draws them
from a manifest alone (every value read is checked: a manifest anyone could edit draws
nothing wrong, it only draws less) and ``wfkit balance --report`` from the run's own; every
bar is a ``rect class="bar"`` and every estimate a ``circle class="point"`` a browser test
can count.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from wordforge_cli.render.svg import circle, line, rect, svg_document, text

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
                   f"{100 * float(value):z.0f}%" if percent else f"{float(value):zg}")
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
    """(svg, caption) of a balance summary (``balance.summarize``: a pack section's stats,
    ``wfkit balance``'s report): the turn scores, the win share and mean score per seat and
    per model with their intervals, and what each power-up brought."""
    out = []
    turn = stats.get("score_per_turn")
    histogram = _histogram(turn.get("histogram")) if isinstance(turn, dict) else None
    if histogram:
        out.append((score_histogram(histogram), "turns per score (bins of 25)"))
    iv = stats.get("intervals")
    iv = iv if isinstance(iv, dict) else {}
    wins = _rates(iv.get("wins"))
    if wins:
        fair = 1 / len(wins)
        out.append((interval_chart(list(wins), list(wins.values()), "win share by seat",
                                   fair=fair, percent=True),
                    f"each seat's share of the decided games, 95% interval; dashed: the fair "
                    f"share {fair:z.0%} (hollow: the interval covers it)"))
    else:
        shares = _shares(stats.get("wins"))
        if shares:
            out.append((win_rates(shares), "games won per seat"))
    scores = _means(iv.get("mean_score"))
    if scores:
        out.append((interval_chart(list(scores), list(scores.values()), "mean score by seat"),
                    "each seat's mean game total, 95% interval"))
    models = _model_rates(stats.get("models"))
    if models:
        labels = [f"{name} {elo:+z.0f}" for name, (_, elo) in models.items()]
        points = [r for r, _ in models.values()]
        fair_shares = [r.fair if r.fair is not None else 0.0 for r in points]
        out.append((interval_chart(labels, points, "win share by model", fair=fair_shares,
                                   percent=True),
                    "each model's share of the decided games (its seats' wins), 95% interval; "
                    "dashed: its fair share; after the name its Bradley-Terry rating (Elo)"))
    effect = stats.get("powerup_effect")
    if stats.get("powerups") is True and isinstance(effect, dict) and 0 < len(effect) <= 16:
        points_of = {k: _number(v.get("mean_points")) for k, v in effect.items()
                     if isinstance(k, str) and len(k) <= 32 and isinstance(v, dict)}
        decided = {k: _number(v.get("decided_games")) for k, v in effect.items()
                   if isinstance(k, str) and len(k) <= 32 and isinstance(v, dict)}
        if len(points_of) == len(effect) and all(
                v is not None and v >= 0 for v in points_of.values()):
            out.append((bar_chart([k.replace("_", " ") for k in points_of],
                                  [float(v or 0) for v in points_of.values()],
                                  "points per power-up use", bar_w=64),
                        "mean points a power-up added when spent (Fortress: points it cut "
                        "from the opponents)"))
        if len(decided) == len(effect) and all(
                v is not None and 0 <= v <= 1 for v in decided.values()):
            out.append((bar_chart([k.replace("_", " ") for k in decided],
                                  [float(v or 0) for v in decided.values()],
                                  "games a power-up decided", percent=True, bar_w=64),
                        "share of the games whose winner changes without the power-up's "
                        "points"))
    return out


def round_robin_charts(rr: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of a round robin (``balance.round_robin``): each model's share of its
    decided games with its rating, and each ordered pair's seat-1 share."""
    out = []
    models = _model_rates(rr.get("models"))
    if models:
        ranked = sorted(models.items(), key=lambda kv: -kv[1][1])
        out.append((interval_chart([f"{name} {elo:+z.0f}" for name, (_, elo) in ranked],
                                   [r for _, (r, _) in ranked], "win share by model",
                                   fair=0.5, percent=True),
                    "each model's share of its decided games, every pair in both seats, 95% "
                    "interval; after the name its Bradley-Terry rating (Elo)"))
    pairs = rr.get("pairs")
    if isinstance(pairs, list) and 0 < len(pairs) <= 64:
        labels, points = [], []
        for p in pairs:
            rate = _rate(p.get("wins")) if isinstance(p, dict) else None
            one, two = (p.get("seat_1"), p.get("seat_2")) if isinstance(p, dict) else (0, 0)
            if rate is None or not isinstance(one, str) or not isinstance(two, str):
                return out
            labels.append(f"{one[:12]}-{two[:12]}")
            points.append(rate)
        out.append((interval_chart(labels, points, "seat 1 wins, by pair", fair=0.5,
                                   percent=True),
                    "seat 1's share of the decided games for each ordered pair (seat 1 - seat "
                    "2), 95% interval"))
    return out


def kanji_charts(b: dict[str, Any], names: Sequence[str] = ("player 1", "player 2")
                 ) -> list[tuple[str, str]]:
    """(svg, caption) of kanji self-play figures (``BalanceStats.summary``): the first and
    second player's win shares with their intervals (and on fresh games, ``--balanced``),
    each model's share and rating, each end reason's share, and the per-pool spread of the
    margin, the game length and the steals."""
    out: list[tuple[str, str]] = []
    iv = b.get("intervals")
    iv = iv if isinstance(iv, dict) else {}
    first = _rate(iv.get("first"))
    if first is not None:
        labels, points = ["first", "second"], [first, first.flipped()]
        fresh = b.get("fresh")
        fresh_first = _rate(fresh.get("first")) if isinstance(fresh, dict) else None
        if fresh_first is not None:
            labels += ["first, fresh", "second, fresh"]
            points += [fresh_first, fresh_first.flipped()]
        out.append((interval_chart(labels, points, "win share by seat", fair=0.5,
                                   percent=True),
                    "the first and second player's share of the decided games, 95% interval"
                    + ("; fresh: the kept pools replayed on seeds their selection never saw"
                       if fresh_first is not None else "")
                    + " (hollow: the interval covers 50%)"))
    models = b.get("models")
    if isinstance(models, list) and len(models) == 2 and len(names) == 2:
        rated = [(_rate(m.get("wins")), _number(m.get("elo"))) if isinstance(m, dict)
                 else (None, None) for m in models]
        if all(r is not None and e is not None for r, e in rated):
            out.append((interval_chart([f"{i + 1}: {name} {e or 0:+z.0f}"
                                        for i, (name, (_, e)) in enumerate(zip(names, rated,
                                                                               strict=True))],
                                       [r for r, _ in rated if r is not None],
                                       "win share by model", fair=0.5, percent=True),
                        "each --player model's share of the decided games, whichever seat it "
                        "had, 95% interval; after the name its Bradley-Terry rating (Elo)"))
    ended = _rates(b.get("ended"))
    if ended:
        out.append((interval_chart(list(ended), list(ended.values()), "how games ended",
                                   percent=True),
                    "each end reason's share of the games, 95% interval"))
    spreads = {label: _spread(b.get(key)) for key, label in (
        ("mean_margin", "margin"), ("length", "moves"), ("steals", "steals"))}
    if all(v is not None for v in spreads.values()):
        out.append((range_chart(list(spreads), [v for v in spreads.values() if v is not None],
                                "per pool"),
                    "per pool: the first player's mean margin (kanji), moves and steals per "
                    "game; line min to max, box 10th to 90th percentile, tick median, dot "
                    "mean"))
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
        of = f" (n = {made:z,.0f} boards)" if made is not None else ""
        out.append((bar_chart(list(rates), list(rates.values()), "blank failure per style",
                              bar_w=48, shown=[f"{r:zg}%" for r in rates.values()]),
                    f"first draws each style would leave with nothing to fill{of}"))
    attempts = stats.get("attempts")
    figures = (_numbers([attempts.get("median"), attempts.get("worst"), attempts.get("total")])
               if isinstance(attempts, dict) else None)
    if figures is not None and made is not None and made >= 1:
        median, worst, total = figures
        mean = total / made
        out.append((bar_chart(["median", "mean", "worst"], [median, mean, worst],
                              "attempts per board", bar_w=48,
                              shown=[f"{median:zg}", f"{mean:z.2f}", f"{worst:zg}"]),
                    f"layouts tried per board made ({total:z,.0f} for {made:z,.0f} boards)"))
    return out


def pool_charts(stats: dict[str, Any]) -> list[tuple[str, str]]:
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
                              bar_w=72, shown=[f"{share:z.1%}", f"{1 - share:z.1%}"]),
                    f"kanji used by one word only, of the {means[0] * pools:z,.0f} on "
                    f"{pools:z,.0f} boards"))
    return out
# ---- figures with their 95% intervals --------------------------------------------------------

@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval and n (``core.intervals``' rate or mean), and the fair
    value it is judged against, if any."""

    value: float
    low: float
    high: float
    n: int
    fair: float | None = None

    def flipped(self) -> Estimate:
        """The other side of a two-way share (the second player's, from the first's)."""
        return Estimate(1 - self.value, 1 - self.high, 1 - self.low, self.n,
                        None if self.fair is None else 1 - self.fair)


def _estimate(d: object, key: str, share: bool) -> Estimate | None:
    """An estimate from a rate (``key`` rate) or mean (``key`` mean) mapping, else None."""
    if not isinstance(d, dict):
        return None
    value, low, high = (_number(d.get(k)) for k in (key, "low", "high"))
    n = d.get("n")
    if (value is None or low is None or high is None or not isinstance(n, int)
            or isinstance(n, bool) or n < 0 or not low <= value <= high):
        return None
    if share and not 0 <= low <= high <= 1:
        return None
    fair = _number(d.get("fair"))
    return Estimate(value, low, high, n, fair)


def _rate(d: object) -> Estimate | None:
    return _estimate(d, "rate", True)


def _mean(d: object) -> Estimate | None:
    return _estimate(d, "mean", False)


def _named(d: object, read: Any) -> dict[str, Estimate] | None:
    if not isinstance(d, dict) or not 0 < len(d) <= 16:
        return None
    out = {}
    for key, value in d.items():
        estimate = read(value)
        if not isinstance(key, str) or len(key) > 32 or estimate is None:
            return None
        out[key] = estimate
    return out


def _rates(d: object) -> dict[str, Estimate] | None:
    """Named rates with their intervals (a few short names), else None."""
    return _named(d, _rate)


def _means(d: object) -> dict[str, Estimate] | None:
    return _named(d, _mean)


def _model_rates(d: object) -> dict[str, tuple[Estimate, float]] | None:
    """``balance.models``: each model's win rate (with its fair share) and rating."""
    if not isinstance(d, dict) or not 0 < len(d) <= 16:
        return None
    out = {}
    for name, m in d.items():
        rate = _rate(m.get("wins")) if isinstance(m, dict) else None
        elo = _number(m.get("elo")) if isinstance(m, dict) else None
        if not isinstance(name, str) or len(name) > 32 or rate is None or elo is None:
            return None
        out[name] = (rate, elo)
    return out


def _spread(d: object) -> tuple[float, float, float, float, float, float] | None:
    """A distribution's (min, p10, median, p90, max, mean), in order, else None."""
    if not isinstance(d, dict):
        return None
    values = [_number(d.get(k)) for k in ("min", "p10", "median", "p90", "max", "mean")]
    if any(v is None for v in values):
        return None
    lo, p10, median, p90, hi, mean = (float(v or 0) for v in values)
    if not lo <= p10 <= median <= p90 <= hi or not lo <= mean <= hi:
        return None
    return lo, p10, median, p90, hi, mean


PLOT_H, PLOT_TOP, AXIS_W = 170, 40, 54


def _scale(values: Sequence[float], percent: bool) -> tuple[float, float, list[float]]:
    """An axis over ``values``: its low and high ends and its ticks (1, 2, 2.5 or 5 times a
    power of ten apart); a share's axis stays within 0-100%."""
    lo, hi = min(values), max(values)
    span = hi - lo
    if span <= 0:
        span = abs(hi) / 10 or (0.1 if percent else 1.0)
    lo, hi = lo - span * 0.08, hi + span * 0.08
    if percent:
        lo, hi = max(0.0, lo), min(1.0, hi)
    raw = (hi - lo) / 5
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    ticks: list[float] = []
    tick = math.ceil(lo / step) * step
    while tick <= hi + step * 1e-9 and len(ticks) < 12:
        ticks.append(round(tick, 12))
        tick += step
    return lo, hi, ticks


def _shown(value: float, percent: bool, step: float) -> str:
    if percent:
        return f"{100 * value:.{0 if step >= 0.05 else 1}f}%"
    digits = max(0, min(4, 1 - math.floor(math.log10(step)))) if step > 0 else 1
    return f"{value:.{digits}f}"


def _frame(labels: Sequence[str], values: Sequence[float], title: str, percent: bool,
           below: int) -> tuple[float, int, int, Callable[[float], float], list[str], float]:
    """What a chart of one column per label draws before its columns: (column width, page
    width, page height, ``y`` (a value's height on the page), the body so far (background,
    title, grid and tick labels), the tick step). ``below``: the room under the plot for the
    column labels."""
    slot = min(150, max(72, 7 * max((len(label) for label in labels), default=0) + 16))
    width = max(260, AXIS_W + len(labels) * slot + 16)
    height = PLOT_TOP + PLOT_H + below
    lo, hi, ticks = _scale(values, percent)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else hi - lo

    def y(v: float) -> float:
        return round(PLOT_TOP + PLOT_H - (v - lo) / (hi - lo) * PLOT_H, 1)

    body = [rect(0, 0, width, height, fill="#fff", stroke="none", width=0),
            text(16, 16, title, size=14, anchor="start", fill="#333", weight="bold")]
    for tick in ticks:
        body.append(line(AXIS_W, y(tick), width - 8, y(tick), stroke="#e3e6ea", width=1))
        body.append(text(AXIS_W - 6, y(tick), _shown(tick, percent, step), size=10,
                         anchor="end", fill="#667"))
    return slot, width, height, y, body, step


def interval_chart(labels: Sequence[str], points: Sequence[Estimate], title: str, *,
                   fair: float | Sequence[float] | None = None, percent: bool = False) -> str:
    """Each label's estimate (a dot) with its 95% interval (a whisker) and n under its
    label; ``fair``: one value for all (a dashed line) or one per label (a dashed tick), and
    a dot whose interval covers it is drawn hollow (the games cannot tell it from fair)."""
    fairs = ([float(fair)] * len(points) if isinstance(fair, int | float)
             else [float(f) for f in fair] if fair is not None else [])
    slot, width, height, y, body, step = _frame(
        labels, [v for p in points for v in (p.low, p.high)] + fairs, title, percent, 44)
    if isinstance(fair, int | float):
        body.append(line(AXIS_W, y(float(fair)), width - 8, y(float(fair)), stroke="#888",
                         width=1.2, dash="5 4", cls="fair"))
    for i, (label, p) in enumerate(zip(labels, points, strict=True)):
        x = AXIS_W + i * slot + slot / 2
        colour = COLOURS[i % len(COLOURS)]
        if fair is not None and not isinstance(fair, int | float):
            body.append(line(x - slot / 2 + 6, y(fairs[i]), x + slot / 2 - 6, y(fairs[i]),
                             stroke="#888", width=1.2, dash="5 4", cls="fair"))
        top, bottom = y(p.high), y(p.low)
        body += [line(x, top, x, bottom, stroke=colour, width=2),
                 line(x - 7, top, x + 7, top, stroke=colour, width=2),
                 line(x - 7, bottom, x + 7, bottom, stroke=colour, width=2)]
        covers = bool(fairs) and p.low <= fairs[i] <= p.high
        body.append(circle(x, y(p.value), 5.5, fill="#fff" if covers else colour,
                           stroke=colour, width=2, cls="point"))
        body.append(text(x + 9, y(p.value), _shown(p.value, percent, step / 10), size=11,
                         anchor="start", fill="#222"))
        body.append(text(x, PLOT_TOP + PLOT_H + 14, label, size=11, fill="#333"))
        body.append(text(x, PLOT_TOP + PLOT_H + 30, f"n={p.n:,}", size=10, fill="#778"))
    return svg_document(width, height, body, title=title)


def range_chart(labels: Sequence[str], rows: Sequence[tuple[float, ...]], title: str) -> str:
    """Each label's spread: a line from min to max, a box from the 10th to the 90th
    percentile, a tick at the median and a dot at the mean."""
    slot, width, height, y, body, step = _frame(labels, [v for row in rows for v in row], title,
                                                False, 30)
    for i, (label, (low, p10, median, p90, high, mean)) in enumerate(
            zip(labels, rows, strict=True)):
        x = AXIS_W + i * slot + slot / 2
        colour = COLOURS[i % len(COLOURS)]
        body += [line(x, y(high), x, y(low), stroke=colour, width=1.5),
                 rect(x - 14, y(p90), 28, max(y(p10) - y(p90), 1), fill="#fff",
                      stroke=colour, width=2, cls="bar"),
                 line(x - 14, y(median), x + 14, y(median), stroke=colour, width=2.5),
                 circle(x, y(mean), 4, fill=colour, stroke=colour, width=1, cls="point"),
                 text(x + 20, y(mean), _shown(mean, False, step / 10), size=11,
                      anchor="start", fill="#222"),
                 text(x, PLOT_TOP + PLOT_H + 14, label, size=11, fill="#333")]
    return svg_document(width, height, body, title=title)


def sweep_charts(key: str, rows: Sequence[dict[str, Any]], figures: Sequence[
        tuple[str, str, str, bool]]) -> list[tuple[str, str]]:
    """(svg, caption) of a sweep: for each ``(figure key, title, caption, share)`` of
    ``figures``, every row's figure (``row[figure key]``, a rate or mean, with its fair
    value) with its interval, one point per value of ``key``."""
    out = []
    labels = [str(row.get("value", "")) for row in rows]
    for name, title, caption, share in figures:
        points = [(_rate if share else _mean)(row.get(name)) for row in rows]
        if not points or any(p is None for p in points):
            continue
        chosen = [p for p in points if p is not None]
        known = [p.fair for p in chosen if p.fair is not None]
        fair: float | list[float] | None = known if len(known) == len(chosen) else None
        if known and len(set(known)) == 1:  # one fair value for every row: one line
            fair = known[0]
        out.append((interval_chart(labels, chosen, f"{title} by {key}", fair=fair,
                                   percent=share), caption))
    return out


def stacked(charts: Sequence[str], title: str) -> str:
    """Charts one under the other in one SVG document (a sweep's charts as one image)."""
    sizes = []
    for svg in charts:  # (each made by svg_document: its size on its first tag)
        size = re.search(r'width="([0-9.]+)" height="([0-9.]+)"', svg)
        if size is None:
            raise ValueError("not an SVG document of render.svg")
        sizes.append((float(size.group(1)), float(size.group(2))))
    width = max((w for w, _ in sizes), default=0)
    y = 0.0
    body = []
    for svg, (_, h) in zip(charts, sizes, strict=True):
        inner = svg.split(">", 1)[1].rsplit("</svg>", 1)[0]
        body.append(f'<svg x="0" y="{y:g}" width="{width:g}" height="{h:g}">{inner}</svg>')
        y += h
    return svg_document(width, y, body, title=title)
