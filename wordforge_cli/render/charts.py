"""Charts of the play figures (SVG, no script): score distributions, win rates, difficulty per
step. Inputs are the engines' JSON summaries, so ``wfkit pack preview`` draws them from a
manifest alone; every bar is a ``rect class="bar"`` a browser test can count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wordforge_cli.render.svg import rect, svg_document, text

COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1")


def bar_chart(labels: Sequence[str], values: Sequence[float], title: str, *,
              percent: bool = False, bar_w: int = 40) -> str:
    """Vertical bars, one per label, values written above them."""
    gap, height, top, left = 10, 160, 30, 16
    most = max([float(v) for v in values] + [1e-9])
    width = max(220, left * 2 + len(labels) * (bar_w + gap))
    body = [rect(0, 0, width, height + top + 46, fill="#fff", stroke="none", width=0),
            text(left, 14, title, size=14, anchor="start", fill="#333", weight="bold")]
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = round(height * float(value) / most, 1)
        x = left + i * (bar_w + gap)
        y = top + height - h
        body.append(rect(x, y, bar_w, max(h, 0.5), fill=COLOURS[i % len(COLOURS)],
                         stroke="none", width=0, cls="bar"))
        shown = f"{100 * float(value):.0f}%" if percent else f"{float(value):g}"
        body.append(text(x + bar_w / 2, y - 8, shown, size=11))
        body.append(text(x + bar_w / 2, top + height + 14, label, size=10, fill="#444"))
    return svg_document(width, height + top + 46, body, title=title)


def score_histogram(histogram: dict[str, int], title: str = "score per turn") -> str:
    """A histogram from ``{"bin start": count}`` (the bins of ``balance.summarize``)."""
    keys = sorted(histogram, key=int)
    return bar_chart(keys, [histogram[k] for k in keys], title, bar_w=18)


def win_rates(wins: dict[str, float], title: str = "wins") -> str:
    return bar_chart(list(wins), list(wins.values()), title, percent=True, bar_w=56)


def per_step(means: Sequence[float], title: str = "difficulty per step") -> str:
    return bar_chart([str(i + 1) for i in range(len(means))], list(means), title, bar_w=28)


def balance_charts(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of a balance section's summary."""
    out = []
    if isinstance(stats.get("score_per_turn"), dict) and stats["score_per_turn"].get(
            "histogram"):
        out.append((score_histogram(stats["score_per_turn"]["histogram"]),
                    "turns per score (bins of 25)"))
    if isinstance(stats.get("wins"), dict):
        out.append((win_rates(stats["wins"]), "games won per seat"))
    return out


def section_charts(kind: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    """The play charts a pack section's statistics hold (none when it has no play figures)."""
    if kind == "balance":
        return balance_charts(stats)
    out = []
    difficulty = stats.get("difficulty")
    if isinstance(difficulty, dict) and difficulty.get("per_step"):
        out.append((per_step(difficulty["per_step"]), "mean difficulty score per step"))
    balance = stats.get("balance")
    if isinstance(balance, dict) and isinstance(balance.get("wins"), dict):
        out.append((win_rates(balance["wins"], "self-play wins"),
                    "games won by the first and second player"))
    return out
