"""The performance page's table, written by the benchmarks from their results.

``docs/performance.md`` holds one table between two markers: one row a figure (what is
measured, the bar it must meet, the latest measured value, the command that measures it, the
date). A benchmark calls :func:`record` with what it measured; the row with the same figure is
replaced (or added at the end), so the page holds the current figure and no history: the
history is in git. Values are refused when they carry marks of a lab log (a load average, a
time of day, a commit hash): the page is for readers, not for the run's circumstances.

    from perf_page import record
    record("kanji pools/s, n=5 m=25", ">= 1,000/s", "2,020 pools/s CPU",
           "python bench/bench_kanji.py")
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
BEGIN = "<!-- BEGIN figures: written by bench/perf_page.py, one row a figure -->"
END = "<!-- END figures -->"
HEADER = ["| figure | bar | measured | command | date |", "| --- | --- | --- | --- | --- |"]
LAB_MARKS = re.compile(r"\bload [0-9]|\b[0-2]?[0-9]:[0-5][0-9]\b"
                       r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,12}\b")


def _cell(text: str) -> str:
    text = " ".join(str(text).split())
    if LAB_MARKS.search(text):
        raise ValueError(f"a performance figure carries no load, time of day or hash: {text!r}")
    return text.replace("|", "\\|")


def rows(page: Path = PAGE) -> list[list[str]]:
    """The table's rows, each [figure, bar, measured, command, date] as written."""
    text = page.read_text(encoding="utf-8")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0]
    lines = [line for line in block.strip().splitlines() if line.startswith("| ")][2:]
    return [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]


def record(figure: str, bar: str, measured: str, command: str,
           date: datetime.date | None = None, page: Path = PAGE) -> None:
    """Write one figure's row: replace the row of the same figure, or add it at the end."""
    day = (date or datetime.datetime.now(datetime.UTC).date()).isoformat()
    new = [_cell(figure), _cell(bar), _cell(measured), f"`{_cell(command).strip('`')}`", day]
    table = rows(page)
    for i, row in enumerate(table):
        if row[0] == new[0]:
            table[i] = new
            break
    else:
        table.append(new)
    text = page.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _old, tail = rest.split(END, 1)
    body = [*HEADER, *("| " + " | ".join(row) + " |" for row in table)]
    page.write_text(head + BEGIN + "\n" + "\n".join(body) + "\n" + END + tail, encoding="utf-8")
