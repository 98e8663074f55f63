"""Boards as ipuz v2 crossword JSON (http://ipuz.org/crossword#1), for ipuz-aware tools.

An ipuz app derives a puzzle's entries from its grid: every run of 2+ cells across or down
is an entry, numbered in standard order (row by row, a number on each cell that starts a
run). So the entries here are the grid's runs, never the placed words: in the strict layout
each run is one placed word and its clue is that word's hint; in the loose layout (the
article's, where words may touch) a run can join several words, or be letters of words that
cross it lying side by side, and its clue says which words it is made of, with their hints.
Every puzzle is consistent in both layouts (``wordforge_cli.crossword.check.check_ipuz``).

``#`` marks a square with no cell; given letters are pre-filled (``value``); answer cells are
circled (``shapebg: circle``) and the hidden answer word is in ``answer``. Solutions and
given letters are capitals where the script has them (crossword files carry them so).
A vocabulary without hints gets clues that say so, never a bare ``(4)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from wordforge_cli.crossword.check import grid_runs


@lru_cache(maxsize=4096)
def capital(letter: str) -> str:
    """The letter as a crossword grid prints it: upper case where that is one letter."""
    up = letter.upper()
    return up if len(up) == 1 else letter


def numbering(found: list[tuple[int, int, str, int]]) -> dict[tuple[int, int], int]:
    """Standard numbers: 1, 2, ... on the start cells of runs, row by row."""
    starts = sorted({(y, x) for x, y, _d, _n in found})
    return {(x, y): i + 1 for i, (y, x) in enumerate(starts)}


def no_hint(length: int) -> str:
    return f"no hint in the vocabulary ({length} letters)"


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _named(w: dict[str, Any], hints: Mapping[str, str | None]) -> str:
    hint = hints.get(w["word"])
    return f"«{hint}»" if hint else f"a {len(w['word'])}-letter word"


Word = dict[str, Any]  # one word of a board record: word, spelling, x, y, dir
# per direction: cell -> the word along it, and cell -> (the word crossing it, letter index)
Maps = dict[str, tuple[dict[tuple[int, int], Word], dict[tuple[int, int], tuple[Word, int]]]]
Grid = list[list[Any]]  # ipuz rows: "#", a number, or a cell object
Clues = dict[str, list[list[Any]]]  # "Across"/"Down" -> [number, clue]
# a layout and style -> its (puzzle, solution, clues, answer), shared by the boards that repeat it
IpuzCache = dict[tuple[object, ...], tuple[Grid, Grid, Clues, str]]


def _maps(words: list[Word]) -> Maps:
    """Per direction: cell -> the word lying along it there, and cell -> (word crossing it,
    the letter's index in that word)."""
    out: Maps = {"across": ({}, {}), "down": ({}, {})}
    for w in words:
        wx, wy = (1, 0) if w["dir"] == "across" else (0, 1)
        mine = out[w["dir"]][0]
        other = out["down" if w["dir"] == "across" else "across"][1]
        x, y = w["x"], w["y"]
        for k in range(len(w["word"])):
            xy = (x + wx * k, y + wy * k)
            mine.setdefault(xy, w)
            other.setdefault(xy, (w, k))
    return out


def run_clue(run: tuple[int, int, str, int], words: list[dict[str, Any]],
             hints: Mapping[str, str | None],
             entries: Mapping[tuple[int, int, str, int], int] | None = None,
             maps: Maps | None = None) -> str:
    """The clue of one run: the hint of the word that is the whole run, else what the run
    joins, in order: each word lying along it (by its hint) and each letter of a word that
    crosses it (by that word's entry number when it has one, else its hint). Words are
    never spelled out: the clue must not give the solution away.

    ``entries``: (x, y, dir, length) of the runs -> their numbers."""
    x, y, d, n = run
    dx, dy = (1, 0) if d == "across" else (0, 1)
    spots = [(x + dx * k, y + dy * k) for k in range(n)]
    along, across_it = (maps or _maps(words))[d]
    first = along.get(spots[0])
    if first is not None and len(first["word"]) == n and (first["x"], first["y"]) == (x, y):
        return hints.get(first["word"]) or no_hint(n)
    parts: list[str] = []
    last = None
    for s in spots:
        w = along.get(s)
        if w is not None:
            if w is not last:
                parts.append(_named(w, hints))
            last = w
            continue
        last = None
        cw, k = across_it[s]
        key = (cw["x"], cw["y"], cw["dir"], len(cw["word"]))
        num = (entries or {}).get(key)
        of = f"{num}-{cw['dir'].capitalize()}" if num else _named(cw, hints)
        parts.append(f"letter {k + 1} of {of}")
    return f"{n} letters joining " + " + ".join(parts)


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a board: a run of the grid, its standard number and its clue."""

    number: int
    x: int
    y: int
    dir: str  # "across" or "down"
    length: int
    clue: str


def entries(rec: dict[str, Any], hints: Mapping[str, str | None]) -> list[Entry]:
    """The board's entries in standard order: every run of 2+ cells, numbered, clued."""
    return [Entry(*e) for e in _entries(rec, hints)]


def _entries(rec: dict[str, Any], hints: Mapping[str, str | None]
             ) -> list[tuple[int, int, int, str, int, str]]:
    """:func:`entries` as plain tuples (number, x, y, dir, length, clue)."""
    found = grid_runs({(c["x"], c["y"]) for c in rec["cells"]})
    number = numbering(found)
    keys = {run: number[(run[0], run[1])] for run in found}
    words = rec["words"]
    placed = {(w["x"], w["y"], w["dir"], len(w["word"])): i for i, w in enumerate(words)}
    maps = None if placed.keys() >= set(found) else _maps(words)  # (for runs joining words)
    out = []
    for run in found:
        i = placed.get(run)  # most runs are one placed word: its hint
        if i is not None and not _covered_before(words, i):
            word = words[i]["word"]
            clue = hints.get(word) or no_hint(run[3])
        else:
            if maps is None:
                maps = _maps(words)
            clue = run_clue(run, words, hints, keys, maps)
        out.append((keys[run], *run, clue))
    return out


def _covered_before(words: list[dict[str, Any]], i: int) -> bool:
    """Whether a word placed before word ``i`` lies along its first cell: the run then
    joins that word too (a shorter word laid over the start of a longer one), and
    :func:`run_clue` names both, as it always has."""
    w = words[i]
    x, y, d = w["x"], w["y"], w["dir"]
    for v in words[:i]:
        if v["dir"] != d:
            continue
        if d == "across":
            if v["y"] == y and v["x"] <= x < v["x"] + len(v["word"]):
                return True
        elif v["x"] == x and v["y"] <= y < v["y"] + len(v["word"]):
            return True
    return False


def board_ipuz(rec: dict[str, Any], *, hints: Mapping[str, str | None] | None = None,
               title: str | None = None, cache: IpuzCache | None = None) -> dict[str, Any]:
    """The ipuz document of one board record.

    ``cache``: a dict the caller keeps for one vocabulary and one set of hints; boards of
    the same layout and style then share their grid and clues (a small vocabulary repeats
    its layouts thousands of times in a batch). The shared lists are read-only."""
    hints = hints or {}
    key: tuple[object, ...] = ()  # read only with a cache
    if cache is not None:
        key = (rec["style"], rec["answer"],
               *((wd["word"], wd["x"], wd["y"], wd["dir"]) for wd in rec["words"]),
               *((c["x"], c["y"], c["n"]) for c in rec["cells"] if c["n"] != -2))
        made = cache.get(key)
        if made is not None:
            return _document(rec, title, *made)
    w, h = rec["w"], rec["h"]
    found = _entries(rec, hints)
    number = {(e[1], e[2]): e[0] for e in found}
    puzzle: Grid = [["#"] * w for _ in range(h)]
    solution: Grid = [["#"] * w for _ in range(h)]
    for c in rec["cells"]:
        x, y, n = c["x"], c["y"], c["n"]
        label = number.get((x, y), 0)
        letter = capital(c["c"])
        puzzle[y][x] = ({"cell": label, "value": letter} if n == -2 else
                        {"cell": label, "style": {"shapebg": "circle"}} if n >= 0 else label)
        solution[y][x] = letter
    clues: Clues = {"Across": [], "Down": []}
    across, down = clues["Across"], clues["Down"]
    for num, _x, _y, d, _n, clue in found:
        (across if d == "across" else down).append([num, clue])
    answer = "".join(capital(ch) for ch in rec["answer"])
    if cache is not None and len(cache) < 16384:
        cache[key] = (puzzle, solution, clues, answer)
    return _document(rec, title, puzzle, solution, clues, answer)


def _document(rec: dict[str, Any], title: str | None, puzzle: Grid, solution: Grid, clues: Clues,
              answer: str) -> dict[str, Any]:
    w, h = rec["w"], rec["h"]
    return {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "title": title or f"wfkit crossword #{rec['id']}",
        "origin": f"wfkit crossword, seed {rec['seed']}",
        "block": "#",
        "empty": 0,
        "dimensions": {"width": w, "height": h},
        "puzzle": puzzle,
        "solution": solution,
        "clues": clues,
        "answer": answer,
    }


_HEAD = ("version", "kind")
_TAIL = ("block", "empty", "dimensions", "puzzle", "solution", "clues", "answer")


def board_ipuz_json(rec: dict[str, Any], *, hints: Mapping[str, str | None] | None = None,
                    title: str | None = None, cache: dict[Any, Any] | None = None) -> str:
    """``output.dumps_plain(board_ipuz(rec, ...))``: the same bytes, faster.

    ``cache``: a dict the caller keeps for one vocabulary and one set of hints, and records
    whose lists it does not change while the cache lives (``wfkit crossword`` writing its
    records). A record whose words and cells are the very lists of one seen before (a small
    vocabulary's records share their layout's lists) is then its title and origin around
    the JSON of that layout's grid and clues, encoded once (the ipuz JSON was a third of an
    ipuz batch's time)."""
    from wordforge_cli.output import dumps_plain

    if cache is None:
        return dumps_plain(board_ipuz(rec, hints=hints, title=title))
    words, cells = rec["words"], rec["cells"]
    ck = ("json", id(words), id(cells), rec["answer"], rec["w"], rec["h"])
    entry = cache.get(ck)
    if entry is None or entry[0] is not words or entry[1] is not cells:
        doc = board_ipuz(rec, hints=hints, title=title)
        entry = (words, cells, dumps_plain({k: doc[k] for k in _HEAD})[:-1],
                 dumps_plain({k: doc[k] for k in _TAIL})[1:])
        if len(cache) < 16384:  # the lists are kept with their text: their ids stay theirs
            cache[ck] = entry
    title = title or f"wfkit crossword #{rec['id']}"
    origin = f"wfkit crossword, seed {rec['seed']}"
    return f'{entry[2]},"title":{dumps_plain(title)},"origin":{dumps_plain(origin)},{entry[3]}'

