"""Where a section's items go once the runner has made them: a stream (stdout or ``-o``, in
any render), what every command writes through; the pack, the other sink, is
``pack/build.py`` (files in a staged directory and a manifest). Either way the items are made
by :func:`~wordforge_cli.batch.runner.run_chunks`, here or in ``--jobs`` workers, and handed
back in index order, so the bytes depend on neither.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import Item, Section
    from wordforge_cli.batch.runner import Lines, Plan


class Document(Protocol):
    """A render laid out over every record (an SVG of all boards, a sheet, a table): fed the
    items in this process, written when the run is done."""

    def add(self, item: Item) -> None: ...

    def close(self, run: Run) -> None: ...


@dataclass
class Run:
    """What a stream run made: the section's statistics summed up, why items failed (in item
    order) and how long it took."""

    summary: dict[str, Any]
    failures: list[str]
    seconds: float


def stream(section: Section, seed: int, output: str | None, *, plan: Plan | None = None,
           jobs: int = 1, lines: Lines | None = None,
           document: Callable[[IO[Any]], Document] | None = None, dealt: bool = True,
           unit: str = "item", refuse: Callable[[Run], None] | None = None,
           started: float | None = None) -> Run:
    """Write the section's items to ``output`` (None or ``-``: stdout, else atomically) as
    the runner hands them back: their JSON Lines, ``lines`` (each item's lines, made where
    the item is), or a ``document`` (made in this process, so ``jobs`` is 1); ``dealt``: one
    line an item, so that a batch's items may be dealt to the workers by answer. ``refuse``
    raises when the run made nothing (before the file appears); ``started``: when the run's
    timing began (default now)."""
    from wordforge_cli.io.output import atomic_write, write_behind

    started = time.perf_counter() if started is None else started
    with atomic_write(output, binary=document is None) as fh:
        doc = None if document is None else document(fh)
        if doc is not None:
            def fed(item: Item) -> list[bytes]:
                doc.add(item)
                return []

            lines, jobs = fed, 1
        behind = write_behind(fh)

        def write(data: bytes) -> None:
            fh.write(data)
            behind()

        run = summed(section, seed, plan=plan, jobs=jobs, lines=lines, dealt=dealt, unit=unit,
                     write=None if doc is not None else write, started=started)
        if doc is not None:
            doc.close(run)
        run.seconds = time.perf_counter() - started
        if refuse is not None:
            refuse(run)
    return run


def summed(section: Section, seed: int, *, plan: Plan | None = None, jobs: int = 1,
           lines: Lines | None = None, dealt: bool = True, unit: str = "item",
           write: Callable[[bytes], object] | None = None, started: float | None = None
           ) -> Run:
    """Run the section's items (``write``: where their lines go; None: nowhere, the
    statistics are what the caller reports) and sum up their statistics."""
    from wordforge_cli.batch.runner import Plan, run_chunks
    from wordforge_cli.core.progress import counting
    from wordforge_cli.core.signals import check

    started = time.perf_counter() if started is None else started
    stats: Any = section.new_stats()
    failures: list[str] = []
    results = run_chunks(seed, [section], plan or Plan([section]), jobs, lines, dealt=dealt)
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
    return Run(stats.summary(), failures, time.perf_counter() - started)


def write_stats(path: str | None, request: dict[str, Any], run: Run,
                timing: dict[str, Any] | None = None, **vocabulary: str) -> None:
    """The statistics file of every command, one shape (schema ``stats-file``):
    ``{vocabulary?, request, stats, timing}`` on one line: what was asked (the section's
    options and the seed), the engine's summary, and the run's timing."""
    if not path:
        return
    from wordforge_cli.io.output import atomic_write, dumps

    timing = {"seconds": round(run.seconds, 3)} if timing is None else timing
    with atomic_write(path) as fh:
        fh.write(dumps({**vocabulary, "request": request, "stats": run.summary,
                        "timing": timing}) + "\n")
