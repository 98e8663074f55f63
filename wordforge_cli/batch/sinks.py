"""Where a section's items go once the runner made them (here or in ``--jobs`` workers, handed
back in index order): a stream, stdout or ``-o`` in any render, which every command writes
through; the pack, the other sink, is ``pack/build.py`` (a staged directory and a manifest).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import Item, Section
    from wordforge_cli.batch.runner import ChunkPlan, Lines

    # a render laid out over every record (an SVG of all boards, a sheet, a table): opened on
    # the output, fed each item in this process, closed with the run
    Document = Callable[[IO[Any]], tuple[Callable[[Item], object], Callable[["Run"], object]]]


@dataclass
class Run:
    """What a run made: the section's statistics summed up, why items failed (in item order)
    and its seconds."""

    summary: dict[str, Any]
    failures: list[str]
    seconds: float
    stats: Any = None  # the section's statistics the summary was made from, merged


def stream(section: Section, seed: int, output: str | None, *, jobs: int = 1,
           document: Document | None = None, refuse: Callable[[Run], None] | None = None,
           started: float | None = None, **run: Any) -> Run:
    """Write the section's items to ``output`` (None or ``-``: stdout, else atomically): the
    lines :func:`summed` makes, or a ``document`` laid out here. ``refuse`` raises when the
    run made nothing, before the file appears; ``started``: the timing's start.

    A document is fed each item in this process with ``jobs`` 1; with more, the workers make
    the items and hand back their JSON Lines, and the document is fed each item's records
    read back from them (so it may read an item's ``records`` only: the same records, the
    same bytes for any ``jobs``)."""
    from wordforge_cli.io.output import atomic_write, write_behind

    started = time.perf_counter() if started is None else started
    with atomic_write(output, binary=document is None) as fh:
        if document is None:
            behind = write_behind(fh)
            made = summed(section, seed, jobs=jobs, write=lambda b: (fh.write(b), behind()),
                          **run)
        else:
            add, close = document(fh)
            if jobs > 1:
                made = summed(section, seed, jobs=jobs, write=lambda b: add(_read_back(b)),
                              **run)
            else:
                def fed(item: Item) -> list[bytes]:
                    add(item)
                    return []

                made = summed(section, seed, **{**run, "lines": fed})
            close(made)
        made.seconds = time.perf_counter() - started
        if refuse is not None:
            refuse(made)
    return made


def _read_back(lines: bytes) -> Item:
    """The records of a chunk's JSON Lines (the workers' items, in order) as one item."""
    import json

    from wordforge_cli.batch.kinds import Item

    return Item([json.loads(line) for line in lines.splitlines() if line])


def require_whole(run: Run, noun: str) -> None:
    """``--require-all`` (a pack section's ``require_all``): a run with any item missing is a
    could-not-do, each missing item's reason said first, before the output appears."""
    require_every([("", run)], noun)


def require_every(runs: Sequence[tuple[str, Run]], noun: str) -> None:
    """:func:`require_whole` of several runs, each named by what it ran (a sweep's runs by
    their setting, ``limit=0``; "": one batch): any item missing in any of them is a
    could-not-do, every missing item's reason said first (:func:`missing`)."""
    failed = sum(run.summary["failed"] for _, run in runs)
    if failed:
        from wordforge_cli.core.errors import CannotDo
        from wordforge_cli.core.messages import say

        for line in missing(runs):
            say(line)
        made = sum(run.summary["made"] for _, run in runs)
        where = f" in the {len(runs)} runs of the sweep" if len(runs) > 1 else ""
        raise CannotDo(f"{failed} of {made + failed} {noun} missing{where}, and --require-all "
                       "asks for all of them")


def missing(runs: Sequence[tuple[str, Run]]) -> list[str]:
    """Why each missing item of ``runs`` is missing, in run and item order, a line each
    (prefixed by the run's name when it has one: ``limit=0: pool 3: ...``)."""
    return [f"{name}: {failure}" if name else failure
            for name, run in runs for failure in run.failures]


def summed(section: Section, seed: int, *, plan: ChunkPlan | None = None, jobs: int = 1,
           lines: Lines | None = None, dealt: bool = True, unit: str = "item",
           write: Callable[[bytes], object] | None = None) -> Run:
    """Run the section's items and sum up their statistics: ``lines`` (None: the section's
    JSON Lines) to ``write`` (None: nowhere, the statistics are the report); ``dealt``: one
    line an item, so that a batch's items may be dealt to the workers by answer."""
    from wordforge_cli.batch.runner import ChunkPlan, run_chunks
    from wordforge_cli.core.progress import counting
    from wordforge_cli.core.signals import check

    started = time.perf_counter()
    stats: Any = section.new_stats()
    failures: list[str] = []
    results = run_chunks(seed, [section], plan or ChunkPlan([section]), jobs, lines, dealt=dealt)
    try:
        with counting(total=section.count, desc=section.name, unit=unit) as done:
            for result in results:  # the chunks' lines, statistics and failures, in order
                check()  # (a signal swallowed on the way stops the run here)
                if result.lines and write is not None:
                    write(result.lines)
                for state in result.stats:
                    stats.merge(section.stats_from_state(state))
                failures.extend(reason for _item, reason in result.failures)
                done(result.chunk.stop - result.chunk.start)
    finally:  # on a signal or error: the workers end now
        results.close()
    return Run(stats.summary(), failures, time.perf_counter() - started, stats)


def write_stats(path: str | None, request: dict[str, Any], run: Run,
                timing: dict[str, Any] | None = None, **vocabulary: str) -> None:
    """Every command's statistics file, one shape (schema ``stats-file``) on one line: what
    was asked (the section's options, the seed), the engine's summary, the run's timing."""
    if path:
        from wordforge_cli.io.output import atomic_write, dumps

        with atomic_write(path) as fh:
            fh.write(dumps({**vocabulary, "request": request, "stats": run.summary,
                            "timing": timing or {"seconds": round(run.seconds, 3)}}) + "\n")
