"""``wfkit pack preview``'s reading half: the checked manifest, the first records of each
section (inside the pack only), each drawn by its own section kind (``Kind.draw``,
``Kind.charts``), then laid out by ``render.html`` (which never imports the pack).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wordforge_cli.core.errors import UsageError

MAX_LINE = 1 << 20  # a record line the preview reads (a crossword board is ~1 KB)


def preview_page(directory: Path, *, items: int = 6) -> str:
    """The preview page of the pack in ``directory`` (the manifest is checked field by field
    first, see ``pack.manifest``)."""
    from wordforge_cli.batch.kinds import KINDS, get_kind
    from wordforge_cli.pack.manifest import read_manifest
    from wordforge_cli.render.html import SectionView, figure, pack_page, record_errors

    manifest = read_manifest(directory)
    if manifest is None:
        raise UsageError("not a wfkit pack (no manifest.json)", path=directory)
    views = []
    for entry in manifest.sections:
        kind = get_kind(entry.kind) if entry.kind in KINDS else None
        view = SectionView(entry)
        if kind is not None and kind.draw is not None:
            for number, rec in read_records(directory, entry.file, items):
                with record_errors(directory / entry.file, number, entry.kind):
                    view.figures.append(kind.draw(entry.name, rec))
        if kind is not None and kind.charts is not None:
            stats = entry.stats if isinstance(entry.stats, dict) else {}
            view.charts += [figure("chart", svg, caption)
                            for svg, caption in kind.charts(entry.kind, stats)]
        if kind is not None:
            view.noun, view.group = kind.noun, kind.group
            if kind.legend is not None:
                view.legend = kind.legend()
        views.append(view)
    return pack_page(manifest, views)


MAX_FIELD = 4096  # characters of one text in a record the preview draws (an answer: a word)
MAX_ENTRIES = 10_000  # entries of one list or mapping in such a record (a board's cells)


def oversized(record: object) -> str | None:
    """Why a record is too big to draw (memory grows with every text and cell drawn), or
    None. Iterative: nesting costs no stack."""
    stack = [record]
    while stack:
        value = stack.pop()
        if isinstance(value, str) and len(value) > MAX_FIELD:
            return (f"a text of {len(value):,} characters; at most {MAX_FIELD:,} in a record "
                    "the preview draws")
        if isinstance(value, list | dict):
            if len(value) > MAX_ENTRIES:
                return (f"a list of {len(value):,} entries; at most {MAX_ENTRIES:,} in a "
                        "record the preview draws")
            stack.extend(value.values() if isinstance(value, dict) else value)
            if isinstance(value, dict):
                stack.extend(value)
    return None


def read_records(directory: Path, relpath: str, limit: int) -> list[tuple[int, dict[str, Any]]]:
    """The first ``limit`` records of a JSON Lines file inside the pack, with their line
    numbers (never the whole of a big pack; never a file outside it, a link or a FIFO)."""
    from wordforge_cli.pack.files import MissingFile, open_inside

    records: list[tuple[int, dict[str, Any]]] = []
    if limit <= 0:
        return records
    path = directory / relpath
    try:
        fh, _size = open_inside(directory, relpath, what="section file")
    except MissingFile:
        return records
    with fh:
        for number in range(1, 10**9):
            if len(records) >= limit:
                break
            line = fh.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE:
                raise UsageError(f"a record longer than {MAX_LINE:,} bytes", path=path,
                                 line=number)
            if not line.strip():
                continue
            try:
                record = json.loads(line.decode("utf-8"))
            except (ValueError, RecursionError):
                raise UsageError("not a JSON record", path=path, line=number) from None
            if not isinstance(record, dict):
                raise UsageError("not a JSON object", path=path, line=number)
            problem = oversized(record)
            if problem is not None:
                raise UsageError(problem, path=path, line=number)
            records.append((number, record))
    return records
