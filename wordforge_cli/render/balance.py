"""``wfkit balance``'s text report: one row per figure, a column per rule set (and, with
--compare, the paired difference), within 100 columns.

A rate or mean is printed with its 95% interval (``summarize``'s ``intervals``); a win share
whose interval covers the fair share is marked ``~`` (the games cannot tell it from fair).
"""

from __future__ import annotations

from typing import Any

NAME = 26   # the figure's name
COLUMN = 24  # one value with its interval
MARK = "~"


def _pct(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return ""
    return f" [{low * 100:z.1f}, {high * 100:z.1f}]"


def rate_cell(r: dict[str, Any]) -> str:
    """``58.1% [55.0, 61.1]`` (``~`` when not distinguishable from its fair value)."""
    mark = MARK if "distinguishable" in r and not r["distinguishable"] else ""
    return f"{r['rate'] * 100:z.1f}%{_pct(r['low'], r['high'])}{mark}"


def mean_cell(m: dict[str, Any], digits: int = 1, sign: bool = False) -> str:
    """``139.1 [137.2, 141.0]`` (``+`` signs for a difference)."""
    if m["mean"] is None:
        return "-"
    f = f"{{:{'+' if sign else ''}z.{digits}f}}"
    return (f.format(m["mean"]) + " [" + f.format(m["low"]) + ", " + f.format(m["high"]) + "]"
            + (MARK if "distinguishable" in m and not m["distinguishable"] else ""))


def _head(label: str) -> str:
    """A rules file's label cut to the column (its end: the file name)."""
    return label if len(label) <= COLUMN - 2 else "..." + label[-(COLUMN - 5):]


def report_text(doc: dict[str, Any]) -> str:
    reports = doc.get("reports") or [doc]
    heads = [_head(h) for h in doc.get("rules") or [""]]
    diff = doc.get("difference")
    out: list[str] = []

    def row(name: str, values: list[str], change: str | None = None) -> None:
        cells = values + ([change if change is not None else ""] if diff else [])
        out.append((f"{name:<{NAME}}" + "".join(f"{v:>{COLUMN}}" for v in cells)).rstrip())

    first = reports[0]
    ci = [r["intervals"] for r in reports]
    out.append(f"{first['games']} games, {len(first['players'])} players "
               f"({', '.join(first['players'])}), {first['turns']} turns each, seed "
               f"{doc['seed']}" + ("" if first["powerups"] else ", no power-ups"))
    out.append("95% intervals in brackets (n = games); ~: the interval covers the fair value, "
               "not distinguishable")
    if "same_deals" in doc:
        out.append("same deals and seeds under both rules (paired)" if doc["same_deals"] else
                   "the bags differ: the deals are not the same (seeds paired only)")
        row("", heads, "difference (2nd - 1st)")
    row("score per turn: mean", [mean_cell(c["score_per_turn"], 2) for c in ci],
        mean_cell(diff["score_per_turn"], 2, sign=True) if diff else None)
    sp = [r["score_per_turn"] for r in reports]
    row("  p10 / median / p90", [f"{s['p10']} / {s['median']} / {s['p90']}" for s in sp])
    for s, label in enumerate(first["wins"]):
        if label == "draw":
            continue
        change = None
        if diff and s == 0:
            change = mean_cell({k: (v * 100 if isinstance(v, float) else v)
                                for k, v in diff["first_seat_wins"].items()}, 1, sign=True)
        row(f"wins {label} (decided)", [rate_cell(c["wins"][label]) for c in ci], change)
    row("draws", [rate_cell(c["draw"]) for c in ci])
    if diff:
        w = diff["winner_changed"]
        row("games that changed winner", ["", ""], f"{w['games']} ({rate_cell(w)})")
    for s, label in enumerate(first["mean_score"]):
        row(f"mean score {label}", [mean_cell(c["mean_score"][label]) for c in ci],
            mean_cell(diff["mean_score"][str(s + 1)], 1, sign=True) if diff else None)
    if first["margin"] is not None:
        row("margin seat 1 - 2: mean", [mean_cell(c["margin"]) for c in ci])
    by_model = [r.get("models") for r in reports]
    if all(by_model):
        for name in by_model[0]:
            row(f"model {name}: wins", [rate_cell(m[name]["wins"]) for m in by_model])
            row("  rating (Elo scale)", [f"{m[name]['elo']:+z.0f}" for m in by_model])
    for key in first["tiers"]:
        row(f"tier {key}", [f"{r['tiers'].get(key, 0):z.1%}" for r in reports])
    lengths = sorted({int(n) for r in reports for n in r["lengths"]})
    for n in lengths:
        row(f"{n} letters", [f"{r['lengths'].get(str(n), 0):z.1%}" for r in reports])
    combos = sorted({int(n) for r in reports for n in r["combos"]})
    for n in combos:
        row(f"combo {n}", [f"{r['combos'].get(str(n), 0):z.1%}" for r in reports])
    row("longest combo: mean", [f"{r['longest_combo']['mean']:z.2f}" for r in reports])
    row("link", [f"{r['link_share']:z.1%}" for r in reports])
    row("pass", [rate_cell({**c["pass_share"], "rate": c["pass_share"]["mean"]}) for c in ci])
    for label in first["seats"]:
        row(f"{label}: pass", [f"{r['seats'][label]['pass_share']:z.1%}" for r in reports])
        row("  points per word", [f"{r['seats'][label]['points_per_word']:z.1f}"
                                  for r in reports])
        top = list(first["tiers"])[-2:]  # the two top tiers: what rare words bring
        row("  words of the top 2 tiers",
            [f"{sum(r['seats'][label]['tiers'][k] for k in top):z.1%}" for r in reports])
    if first["powerups"]:
        for name in first["powerup_effect"]:
            row(f"{name}: points / use", [f"{r['powerup_effect'][name]['mean_points']:z.1f}"
                                          for r in reports])
            row("  decided the game", [f"{r['powerup_effect'][name]['decided_games']:z.1%}"
                                       for r in reports])
    return "\n".join(out) + "\n"


def round_robin_text(doc: dict[str, Any]) -> str:
    """``--round-robin``: one row per model (wins with interval, rating), then per pair."""
    rr = doc["round_robin"]
    out = [f"round robin: {rr['games_per_pair']} games per ordered pair, {rr['turns']} turns "
           f"each, seed {doc['seed']}" + ("" if rr["powerups"] else ", no power-ups"),
           "95% intervals in brackets (n = decided games); ~: covers the fair 50%; rating: "
           "Bradley-Terry, Elo scale",
           f"{'model':<{NAME}}{'wins':>{COLUMN}}{'rating':>10}"]
    for name, m in sorted(rr["models"].items(), key=lambda kv: -kv[1]["elo"]):
        out.append(f"{name:<{NAME}}{rate_cell(m['wins']):>{COLUMN}}{m['elo']:>+z10.0f}")
    out.append(f"{'seat 1 vs seat 2':<{NAME}}{'seat 1 wins':>{COLUMN}}{'draws':>10}")
    for p in rr["pairs"]:
        out.append(f"{p['seat_1'] + ' vs ' + p['seat_2']:<{NAME}}{rate_cell(p['wins']):>{COLUMN}}"
                   f"{p['draws']:>10}")
    return "\n".join(out) + "\n"


# ---- --sweep -----------------------------------------------------------------------------------

SWEEP_VALUE = 15
# the figures a sweep row prints (and charts): (row key, column head, width, rate or mean)
SWEEP_COLUMNS = (("first_seat_wins", "seat 1 wins (decided)", 22, True),
                 ("score_per_turn", "score per turn", 22, False),
                 ("margin", "margin seat 1 - 2", 22, False),
                 ("pass_share", "pass", 19, False))
# what a sweep's chart draws: (row key, title, caption, a share)
SWEEP_CHARTS = (("first_seat_wins", "seat 1 wins",
                 "seat 1's share of the decided games at each value, 95% interval; dashed: "
                 "the fair share (hollow: the interval covers it)", True),
                ("score_per_turn", "score per turn",
                 "mean score per turn at each value (per game, then over games), 95% "
                 "interval", False))


def sweep_text(doc: dict[str, Any]) -> str:
    """``--sweep``: one row per value, each figure with its 95% interval, within 100
    columns."""
    sweep = doc["sweep"]
    rows = sweep["rows"]
    first = rows[0]
    seats = (f"{len(first['players'])} players ({', '.join(first['players'])})"
             if all(row["players"] == first["players"] for row in rows) else "seats by value")
    turns = (f"{first['turns']} turns each" if all(row["turns"] == first["turns"]
                                                  for row in rows) else "turns by value")
    out = [f"sweep of {sweep['key']}: {sweep['games']} games a value (the same deals), "
           f"{seats}, {turns}, seed {doc['seed']}",
           f"rules: {sweep['rules']}; 95% intervals in brackets (n = games); ~: the interval "
           "covers the fair value",
           f"{'value':<{SWEEP_VALUE}}" + "".join(f"{head:>{width}}"
                                                for _, head, width, _ in SWEEP_COLUMNS)]
    for row in rows:
        value = row["value"]
        if len(value) > SWEEP_VALUE - 1:
            value = value[:SWEEP_VALUE - 4] + "..."
        cells = []
        for key, _, width, share in SWEEP_COLUMNS:
            figure = row[key]
            if figure is None:
                cell = "-"
            elif share:
                cell = rate_cell(figure)
            elif key == "pass_share":
                cell = rate_cell({**figure, "rate": figure["mean"]})
            else:
                cell = mean_cell(figure, 0 if key == "margin" else 1)
            cells.append(f"{cell:>{width}}")
        out.append(f"{value:<{SWEEP_VALUE}}" + "".join(cells))
    return "\n".join(out) + "\n"


# ---- --trace -----------------------------------------------------------------------------------

def trace_lines(game: int, players: list[str], turns: list[dict[str, Any]],
                record: dict[str, Any]) -> list[dict[str, Any]]:
    """A replayed game as JSON Lines records: one a turn (its hand, the word or a pass, the
    power-up spent, the score and the seat's running total), then the batch's own record
    of the game."""
    totals = [0] * len(players)
    out = []
    for turn in turns:
        seat = turn["seat"]
        totals[seat] += turn["score"]
        out.append({"game": game, "turn": turn["turn"] + 1, "seat": seat + 1,
                    "player": players[seat], "hand": turn["hand"], "pass": turn["word"] is None,
                    "word": turn["word"], "score": turn["score"], "combo": turn["combo"],
                    "link": turn["link"], "powerup": turn["powerup"],
                    "fortress": turn["fortress"], "total": totals[seat]})
    return [*out, record]


def trace_text(lines: list[dict[str, Any]], seed: int) -> str:
    """A replayed game turn by turn, as a person reads it."""
    *turns, record = lines
    players = record["players"]
    out = [f"game {record['game']} (seed {seed}): {len(players)} players "
           f"({', '.join(f'{s + 1}:{p}' for s, p in enumerate(players))})",
           f"{'turn':>4} {'seat':>4}  {'hand':<12}{'word':<14}{'score':>6}{'total':>7}  "
           f"{'combo':>5} {'link':<5}power-up"]
    for t in turns:
        word = "(pass)" if t["pass"] else t["word"]
        note = t["powerup"] or ""
        if t["fortress"]:
            note = (note + " " if note else "") + "(cut by Fortress)"
        out.append(f"{t['turn']:>4} {t['seat']:>4}  {t['hand']:<12}{word:<14}{t['score']:>6}"
                   f"{t['total']:>7}  {t['combo']:>5} {'yes' if t['link'] else '-':<5}"
                   f"{note}".rstrip())
    winner = record["winner"]
    result = "a draw" if winner is None else f"seat {winner} ({players[winner - 1]}) wins"
    out.append("result: " + ", ".join(f"seat {s + 1} {total}"
                                      for s, total in enumerate(record["totals"]))
               + f"; {result}")
    return "\n".join(out) + "\n"
