"""An independent check of an ipuz export, written apart from the render: what a crossword
app derives from the grid (its runs, their standard numbers) against the entries and the
solution the render wrote. Used by the ipuz tests (``from ipuz_check import check_ipuz``)."""

from __future__ import annotations

from typing import Any


def check_ipuz(doc: dict[str, Any], rec: dict[str, Any] | None = None) -> list[str]:
    """Every way an ipuz puzzle's entries disagree with its grid (empty: consistent).

    Written apart from the render: the grid's runs of 2+ non-block cells must be exactly the
    clued entries, numbered in standard order (row by row, one number per start cell), each
    with a clue that is more than a bare length; the solution must fill exactly the cells of
    the puzzle. Given ``rec`` (the board), the solution must be its letters, in capitals
    where the script has them, and the hidden answer too.
    """
    errors: list[str] = []
    block = doc.get("block", "#")
    puzzle, solution = doc["puzzle"], doc["solution"]
    w, h = doc["dimensions"]["width"], doc["dimensions"]["height"]
    if len(puzzle) != h or any(len(row) != w for row in puzzle):
        return ["puzzle grid does not match its dimensions"]
    open_ = {(x, y) for y, row in enumerate(puzzle) for x, c in enumerate(row) if c != block}
    solved = {(x, y) for y, row in enumerate(solution) for x, c in enumerate(row)
              if c != block}
    if open_ != solved:
        errors.append("puzzle and solution disagree on which squares are cells")
    entries: list[tuple[int, int, str]] = []
    for y in range(h):
        for x in range(w):
            if (x, y) not in open_:
                continue
            if (x - 1, y) not in open_ and (x + 1, y) in open_:
                entries.append((x, y, "Across"))
            if (x, y - 1) not in open_ and (x, y + 1) in open_:
                entries.append((x, y, "Down"))
    numbers: dict[tuple[int, int], int] = {}
    for x, y, _d in entries:
        numbers.setdefault((x, y), len(numbers) + 1)
    expected = {d: [numbers[(x, y)] for x, y, dd in entries if dd == d]
                for d in ("Across", "Down")}
    for d in ("Across", "Down"):
        clues = doc["clues"].get(d, [])
        got = [c[0] for c in clues]
        if got != expected[d]:
            errors.append(f"{d} clues are numbered {got}, the grid's runs are {expected[d]}")
        for c in clues:
            text = str(c[1]).strip()
            if not text or text.strip("()").isdigit():
                errors.append(f"{d} {c[0]} has no meaningful clue: {c[1]!r}")
    for (x, y), n in numbers.items():
        cell = puzzle[y][x]
        label = cell.get("cell") if isinstance(cell, dict) else cell
        if label != n:
            errors.append(f"cell ({x},{y}) is numbered {label!r}, standard numbering says {n}")
    for (x, y) in open_ - set(numbers):
        cell = puzzle[y][x]
        label = cell.get("cell") if isinstance(cell, dict) else cell
        if label not in (0, doc.get("empty", 0)):
            errors.append(f"cell ({x},{y}) carries a number {label!r} but starts no run")
    if rec is not None:
        for c in rec["cells"]:
            want = c["c"].upper() if len(c["c"].upper()) == 1 else c["c"]
            if solution[c["y"]][c["x"]] != want:
                errors.append(f"solution at ({c['x']},{c['y']}) is "
                              f"{solution[c['y']][c['x']]!r}, the board holds {want!r}")
    return errors
