"""Kanji pools for people: a text board and an SVG tile board.

The board shows the pool's kanji in its (shuffled) record order, as the game lays them out.
``reveal`` adds the selected compounds: the article's 思いつき variant, where the compounds are
shown and the surprise moves are the hidden compounds nobody was shown.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from wordforge_cli.kanji.stats import FIGURE_NAMES
from wordforge_cli.render.balance import mean_cell
from wordforge_cli.render.svg import rect, svg_document, text

INDEX_A = FIGURE_NAMES["index_a"]

# tile colours by grade band: a distinct hue per band (three creams could not be told apart),
# all light enough for black ink; cool for school grades, warm beyond them, grey off the lists
GRADE_FILL = {1: "#d4efc9", 2: "#d4efc9", 3: "#c9e0f7", 4: "#c9e0f7", 5: "#e2d3f4",
              6: "#e2d3f4", 7: "#fff0b8", 8: "#fcc9a6", 9: "#d6d6d6"}
GRADE_NAME = {1: "小1-2", 3: "小3-4", 5: "小5-6", 7: "常用", 8: "人名用", 9: "表外"}


def columns(count: int) -> int:
    """A board a little wider than tall whose last row is as full as can be (45 -> 9 x 5)."""
    if count <= 2:
        return max(1, count)
    start = math.ceil(math.sqrt(count * 1.5))
    return min(range(start, start + 3), key=lambda c: (-count % c, c))


def board_rows(kanji: list[str]) -> list[list[str]]:
    width = columns(len(kanji))
    return [kanji[i:i + width] for i in range(0, len(kanji), width)]


def pool_text(record: dict[str, Any], reveal: bool = False) -> str:
    """One pool: a header line, the board, and with ``reveal`` the compounds."""
    lines = [f"# pool {record['id']}: {record['kanji_count']} kanji, "
             f"{len(record['words'])} words, {INDEX_A} {record['index_a']}, "
             f"hidden {record['hidden_count']}"]
    lines += ["　".join(row) for row in board_rows(record["kanji"])]
    if reveal:
        lines.append("base:   " + " ".join(record["base"]))
        lines.append("picked: " + " ".join(record["picked"]))
        if record.get("hidden"):
            lines.append("hidden: " + " ".join(record["hidden"])
                         + (" ..." if record["hidden_count"] > len(record["hidden"]) else ""))
    return "\n".join(lines) + "\n"


TILE, GAP, MARGIN = 56, 8, 24


def _pool_body(record: dict[str, Any], grades: dict[str, int] | None, reveal: bool, top: float,
               width: float, legend: bool = True) -> tuple[list[str], float]:
    rows = board_rows(record["kanji"])
    cols = columns(len(record["kanji"]))
    board_w = cols * TILE + (cols - 1) * GAP
    left = (width - board_w) / 2
    body = [text(width / 2, top + 16, f"漢字熟語陣取り合戦 — pool {record['id']}", size=20,
                 weight="bold"),
            text(width / 2, top + 42,
                 f"{record['kanji_count']} kanji · {len(record['words'])} words · "
                 f"{INDEX_A} {record['index_a']} · hidden compounds {record['hidden_count']}",
                 size=13, fill="#555")]
    y = top + 64
    for row in rows:
        for col, ch in enumerate(row):
            x = left + col * (TILE + GAP)
            grade = (grades or {}).get(ch, 9) if grades is not None else None
            fill = GRADE_FILL[grade] if grade is not None else "#fff7e6"
            body.append(rect(x, y, TILE, TILE, fill=fill, stroke="#8a6d3b", width=2, rx=8))
            body.append(text(x + TILE / 2, y + TILE / 2 + 1, ch, size=34))
        y += TILE + GAP
    y += 8
    if grades is not None and legend:
        legend_w = sum(40 + 15 * len(name) for name in GRADE_NAME.values()) - 10
        legend_x = min(left, (width - legend_w) / 2)
        for grade, name in GRADE_NAME.items():
            body.append(rect(legend_x, y, 18, 18, fill=GRADE_FILL[grade], stroke="#8a6d3b",
                             width=1, rx=3))
            body.append(text(legend_x + 24, y + 9, name, size=14, anchor="start", fill="#444"))
            legend_x += 30 + 15 * len(name) + 10
        y += 30
    if reveal:
        for label, words in (("base", record["base"]), ("picked", record["picked"])):
            for start in range(0, len(words), 9):
                chunk = " ".join(words[start:start + 9])
                body.append(text(left, y + 9, f"{label}: {chunk}" if start == 0 else chunk,
                                 size=14, anchor="start"))
                y += 22
        if record.get("hidden"):
            body.append(text(left, y + 9, "hidden: " + " ".join(record["hidden"]), size=14,
                             anchor="start", fill="#a33"))
            y += 22
    return body, y - top


def pool_svg(record: dict[str, Any], reveal: bool = False, grades: dict[str, int] | None = None,
             legend: bool = True) -> str:
    """A standalone SVG of one pool's tile board."""
    return pools_svg([record], reveal, grades, legend=legend)


def pools_width(records: list[dict[str, Any]], lists: bool) -> int:
    """The width of :func:`pools_svg`'s picture: the widest board, with room for the legend
    and the compound lists when ``lists``; a bare board needs only its title's width."""
    widest = max((columns(len(r["kanji"])) for r in records), default=1)
    return max(widest * TILE + (widest - 1) * GAP + 2 * MARGIN, 640 if lists else 400)


def pools_svg(records: Iterable[dict[str, Any]], reveal: bool = False,
              grades: dict[str, int] | None = None, legend: bool = True) -> str:
    """One SVG document with each pool's board under the previous one.

    ``grades`` (kanji -> grade; default the bundled table) colours the tiles by difficulty and
    adds a legend (``legend=False``: a page that shows one legend for many boards).
    """
    if grades is None:
        from wordforge_cli.kanji import load_grades

        grades = load_grades()
    records = list(records)
    width = pools_width(records, legend or reveal)
    body: list[str] = []
    y: float = MARGIN
    for record in records:
        part, height = _pool_body(record, grades, reveal, y, width, legend)
        body += part
        y += height + MARGIN
    body.insert(0, rect(0, 0, width, y, fill="#fdfbf7", stroke="none", width=0))
    title = "wfkit kanji pools" if len(records) != 1 else f"wfkit kanji pool {records[0]['id']}"
    return svg_document(width, y, body, title=title)


def _rate(r: dict[str, Any]) -> str:
    mark = "~" if "distinguishable" in r and not r["distinguishable"] else ""
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]{mark}"


def play_lines(b: dict[str, Any], names: tuple[str, str] = ("player 1", "player 2")
               ) -> list[str]:
    """The self-play figures a designer acts on, with their 95% intervals (``~``: the
    interval covers the fair value): first-player share, advantage, end reasons, the models'
    shares and ratings, and with --balanced the kept pools on fresh games."""
    iv = b["intervals"]
    pooled = iv["first_win_rate"]
    out = ["95% intervals in brackets (~: the interval covers the fair value)",
           f"first player wins {_rate(iv['first'])} of {iv['first']['n']} decided games",
           f"  per pool (draws not won): {pooled['mean']:.1%} [{pooled['low']:.1%}, "
           f"{pooled['high']:.1%}] over {pooled['n']} pools",
           f"advantage (mean margin per board kanji) {mean_cell(iv['advantage'], 4, sign=True)}",
           "games ended: " + ", ".join(f"{reason} {_rate(r)}"
                                       for reason, r in b["ended"].items())]
    for model, name in zip(b["models"], names, strict=True):
        out.append(f"model {model['player']} {name}: wins {_rate(model['wins'])} of the "
                   f"decided, either seat; rating {model['elo']:+.0f} Elo")
    f = b.get("fresh")
    if f:
        out += [f"fresh games: the kept pools replayed on seeds their selection never saw "
                f"({f['games']} games, {f['pools']} pools)",
                f"  first wins {_rate(f['first'])}, second {_rate(f['second'])} of the "
                f"decided games",
                f"  advantage {mean_cell(f['advantage'], 4, sign=True)}; outside the band again: "
                f"{f['outside_band']['rate']:.1%} [{f['outside_band']['low']:.1%}, "
                f"{f['outside_band']['high']:.1%}] of the pools",
                f"  games ended by the move limit: {_rate(f['ended']['move limit'])}"]
    return out
