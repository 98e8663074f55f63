"""Kanji pools for people: a text board and an SVG tile board.

The board shows the pool's kanji in its (shuffled) record order, as the game lays them out.
``reveal`` adds the selected compounds: the article's 思いつき variant, where the compounds are
shown and the surprise moves are the hidden compounds nobody was shown.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from wordforge_cli.kanji import load_grades
from wordforge_cli.kanji.stats import FIGURE_NAMES
from wordforge_cli.render.balance import mean_cell
from wordforge_cli.render.svg import rect, svg_document, text

INDEX_A = FIGURE_NAMES["index_a"]



@dataclass(frozen=True, slots=True)
class GradeBand:
    """Kanji grades a tile colour stands for (``kanji.dictionary``'s grades: 1-6 the school
    grade, 7 the other jōyō kanji, 8 jinmeiyō, 9 on neither list) and its name in the legend:
    ``en`` in wfkit's pictures and pages, whose words are English; ``ja``, the names the
    Japanese lists go by, for a game that shows its players Japanese."""

    grades: tuple[int, ...]
    fill: str
    en: str
    ja: str


# the legend's one table: a distinct hue per band (three creams could not be told apart), all
# light enough for black ink; cool for school grades, warm beyond them, grey off the lists
GRADE_BANDS = (GradeBand((1, 2), "#d4efc9", "grades 1-2", "小1-2"),
               GradeBand((3, 4), "#c9e0f7", "grades 3-4", "小3-4"),
               GradeBand((5, 6), "#e2d3f4", "grades 5-6", "小5-6"),
               GradeBand((7,), "#fff0b8", "jōyō", "常用"),
               GradeBand((8,), "#fcc9a6", "jinmeiyō", "人名用"),
               GradeBand((9,), "#d6d6d6", "other", "表外"))
GRADE_FILL = {grade: band.fill for band in GRADE_BANDS for grade in band.grades}
# a band's first grade -> its name, per language (the pictures and pages show "en")
GRADE_NAMES = {language: {band.grades[0]: getattr(band, language) for band in GRADE_BANDS}
               for language in ("en", "ja")}
GRADE_NAME = GRADE_NAMES["en"]


def _legend_width(name: str, size: float = 14) -> float:
    """About how wide a legend name is drawn (a wide character a full ``size``)."""
    return sum(size if unicodedata.east_asian_width(c) in "WF" else size * 0.6 for c in name)


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
        legend_w = sum(40 + _legend_width(name) for name in GRADE_NAME.values()) - 10
        legend_x = min(left, (width - legend_w) / 2)
        for grade, name in GRADE_NAME.items():
            body.append(rect(legend_x, y, 18, 18, fill=GRADE_FILL[grade], stroke="#8a6d3b",
                             width=1, rx=3))
            body.append(text(legend_x + 24, y + 9, name, size=14, anchor="start", fill="#444"))
            legend_x += 40 + _legend_width(name)
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
    return f"{r['rate']:z.1%} [{r['low']:z.1%}, {r['high']:z.1%}]{mark}"


def play_lines(b: dict[str, Any], names: tuple[str, str] = ("player 1", "player 2")
               ) -> list[str]:
    """The self-play figures a designer acts on, with their 95% intervals (``~``: the
    interval covers the fair value): first-player share, advantage, end reasons, the models'
    shares and ratings, and with --balanced the kept pools on fresh games."""
    iv = b["intervals"]
    pooled = iv["first_win_rate"]
    out = ["95% intervals in brackets (~: the interval covers the fair value)",
           f"first player wins {_rate(iv['first'])} of {iv['first']['n']} decided games",
           f"  per pool (draws not won): {pooled['mean']:z.1%} [{pooled['low']:z.1%}, "
           f"{pooled['high']:z.1%}] over {pooled['n']} pools",
           f"advantage (mean margin per board kanji) {mean_cell(iv['advantage'], 4, sign=True)}",
           "games ended: " + ", ".join(f"{reason} {_rate(r)}"
                                       for reason, r in b["ended"].items())]
    for model, name in zip(b["models"], names, strict=True):
        out.append(f"model {model['player']} {name}: wins {_rate(model['wins'])} of the "
                   f"decided, either seat; rating {model['elo']:+z.0f} Elo")
    f = b.get("fresh")
    if f:
        out += [f"fresh games: the kept pools replayed on seeds their selection never saw "
                f"({f['games']} games, {f['pools']} pools)",
                f"  first wins {_rate(f['first'])}, second {_rate(f['second'])} of the "
                f"decided games",
                f"  advantage {mean_cell(f['advantage'], 4, sign=True)}; outside the band again: "
                f"{f['outside_band']['rate']:z.1%} [{f['outside_band']['low']:z.1%}, "
                f"{f['outside_band']['high']:z.1%}] of the pools",
                f"  games ended by the move limit: {_rate(f['ended']['move limit'])}"]
    return out


# ---- a game move by move (kanji play, a self-play trace) --------------------------------------

SEATS = ("A", "B")


def move_record(number: int, move: Any) -> dict[str, Any]:
    """One move (``territory.Move``) or pass (``territory.Pass``) as its JSON record:
    ``number`` counts the moves, passes left out."""
    if not hasattr(move, "word"):
        return {"pass": True, "player": SEATS[move.player], "scores": list(move.scores)}
    return {"move": number, "player": SEATS[move.player], "word": move.word,
            "taken": move.taken, "stolen": move.stolen, "hidden": move.hidden,
            "scores": list(move.scores)}


def move_text(number: int, move: Any) -> str:
    """One move or pass as ``kanji play`` prints it: the word, the kanji it claims and steals,
    then the scores."""
    a, b = move.scores
    if not hasattr(move, "word"):
        return f"     {SEATS[move.player]} passes (knows no legal word)  A {a} - B {b}"
    note = (f" steals {move.stolen}" if move.stolen else "") + (
        " (hidden)" if move.hidden else "")
    return f"{number:>3}. {SEATS[move.player]} {move.word}  takes {move.taken}{note}  A {a} - B {b}"


def game_lines(game: Any) -> list[tuple[dict[str, Any], str]]:
    """Every turn of a ``territory.Game``: (record, text line) of each move and pass."""
    out = []
    number = 0
    for move in game.log:
        if hasattr(move, "word"):
            number += 1
        out.append((move_record(number, move), move_text(number, move)))
    return out


def trace_records(index: int, record: dict[str, Any], games: list[tuple[str, Any, Any]],
                  legal_words: int) -> list[dict[str, Any]]:
    """A pool's self-play replayed as JSON Lines records: the pool, then each game's moves and
    passes and its result, then the batch's own ``balance`` record of the pool."""
    b = record["balance"]
    out: list[dict[str, Any]] = [{"pool": index, "seed": record["seed"],
                                  "kanji": record["kanji"], "legal_words": legal_words,
                                  "games": len(games), "redraws": b["redraws"]}]
    for number, (stage, seats, game) in enumerate(games, start=1):
        names = [p.name for p in seats]
        for line, _ in game_lines(game):
            out.append({"game": number, "stage": stage, **line})
        out.append({"game": number, "stage": stage, "players": names,
                    "moves": len(game.moves), "ended": game.ended,
                    "scores": list(game.scores),
                    "winner": None if game.winner is None else SEATS[game.winner],
                    "steals": game.steals, "hidden_moves": game.hidden_moves})
    out.append({"pool": index, "balance": b})
    return out


def trace_text(index: int, record: dict[str, Any], games: list[tuple[str, Any, Any]],
               legal_words: int, seed: int) -> str:
    """A pool's self-play replayed move by move, as a person reads it."""
    b = record["balance"]
    redraws = f", after {b['redraws']} redraws" if b["redraws"] else ""
    out = [f"pool {index} (seed {seed}{redraws}): {len(record['kanji'])} kanji, "
           f"{legal_words} legal words ({len(record['words'])} shown); {len(games)} games"]
    for number, (stage, seats, game) in enumerate(games, start=1):
        fresh = " (fresh: replayed on a seed the selection never saw)" if stage == "fresh" else ""
        out.append(f"game {number}{fresh}: A {seats[0].name} vs B {seats[1].name}")
        out += [f"  {text}" for _, text in game_lines(game)]
        result = "draw" if game.winner is None else f"{SEATS[game.winner]} wins"
        out.append(f"  end ({game.ended}): A {game.scores[0]} - B {game.scores[1]}, {result}")
    out.append(f"pool record: first player wins {b['first_wins']}, second {b['second_wins']}, "
               f"draws {b['draws']} of {b['games']}; mean margin {b['mean_margin']:+}, "
               f"steals {b['steals']}, length {b['length']} a game")
    return "\n".join(out) + "\n"


# ---- --sweep -----------------------------------------------------------------------------------

SWEEP_VALUE = 12
SWEEP_COLUMNS = (("first", "first wins (decided)", 22, "rate"),
                 ("advantage", "advantage", 26, "mean"),
                 ("move_limit", "move limit ends", 20, "rate"),
                 ("fresh_first", "fresh: first wins", 20, "rate"))
SWEEP_CHARTS = (("first", "first player wins",
                 "the first player's share of the decided games at each value, 95% interval; "
                 "dashed: 50% (hollow: the interval covers it)", True),
                ("fresh_first", "first player wins on fresh games",
                 "--balanced: the kept pools replayed on seeds their selection never saw, the "
                 "first player's share at each value, 95% interval", True),
                ("advantage", "advantage",
                 "the first player's mean margin per board kanji (mean over pools), 95% "
                 "interval; dashed: 0", False))


def sweep_text(doc: dict[str, Any]) -> str:
    """``--sweep``: one row per value, each figure with its 95% interval, within 100
    columns."""
    from wordforge_cli.render.balance import mean_cell, rate_cell

    sweep = doc["sweep"]
    rows = sweep["rows"]
    fresh = any(row.get("fresh_first") for row in rows)
    columns = [c for c in SWEEP_COLUMNS if fresh or c[0] != "fresh_first"]
    out = [f"sweep of {sweep['key']}: {sweep['count']} pools a value, seed {doc['seed']}; "
           "95% intervals in brackets (n = games; advantage: n = pools)",
           "~: the interval covers the fair value (50%, advantage 0)",
           f"{'value':<{SWEEP_VALUE}}" + "".join(f"{head:>{width}}"
                                                for _, head, width, _ in columns)]
    failed = []
    for row in rows:
        value = row["value"]
        if len(value) > SWEEP_VALUE - 1:
            value = value[:SWEEP_VALUE - 4] + "..."
        cells = []
        for key, _, width, kind in columns:
            figure = row.get(key)
            cell = ("-" if not figure else rate_cell(figure) if kind == "rate"
                    else mean_cell(figure, 3, sign=True))
            cells.append(f"{cell:>{width}}")
        out.append(f"{value:<{SWEEP_VALUE}}" + "".join(cells))
        if row["failed"]:
            failed.append(f"{row['value']}: {row['failed']} of {row['pools'] + row['failed']}")
    if failed:
        out.append("pools out of budget (not played): " + "; ".join(failed))
    return "\n".join(out) + "\n"
