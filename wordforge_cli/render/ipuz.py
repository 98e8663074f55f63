"""Boards as ipuz v2 crossword JSON (http://ipuz.org/crossword#1), for ipuz-aware tools.

``#`` marks a square with no cell; cells that start a word carry its number; given letters are
pre-filled (``value``); answer cells are circled (``shapebg: circle``) and the answer word is
in ``answer``. Clues are the vocabulary's hints where there are any, else the word's length.
"""

from __future__ import annotations


def board_ipuz(rec: dict, *, hints: dict[str, str | None] | None = None,
               title: str | None = None) -> dict:
    """The ipuz document of one board record."""
    hints = hints or {}
    w, h = rec["w"], rec["h"]
    starts = sorted({(wd["y"], wd["x"]) for wd in rec["words"]})
    number = {(x, y): i + 1 for i, (y, x) in enumerate(starts)}
    puzzle: list[list] = [["#"] * w for _ in range(h)]
    solution: list[list] = [["#"] * w for _ in range(h)]
    for c in rec["cells"]:
        x, y = c["x"], c["y"]
        label = number.get((x, y), 0)
        cell: dict = {"cell": label}
        if c["n"] == -2:
            cell["value"] = c["c"]
        if c["n"] >= 0:
            cell["style"] = {"shapebg": "circle"}
        puzzle[y][x] = cell if len(cell) > 1 else label
        solution[y][x] = c["c"]
    clues: dict[str, list] = {"Across": [], "Down": []}
    for wd in sorted(rec["words"], key=lambda wd: (wd["y"], wd["x"])):
        key = "Across" if wd["dir"] == "across" else "Down"
        clue = hints.get(wd["word"]) or f"({len(wd['word'])})"
        clues[key].append([number[(wd["x"], wd["y"])], clue])
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
        "answer": rec["answer"],
    }
