"""Run a pack's (and ``wfkit crossword``'s) items in chunks, handing the results back in order.

A pack's chunking is part of its format, not of the machine: chunk ``k`` of a section always
holds items ``[k*CHUNK, (k+1)*CHUNK)``, whatever ``--jobs`` is. Shards are runs of whole chunks,
so shard outputs concatenate to the single-build bytes, and the statistics are merged in chunk
order. At most a few runs of chunks per worker are in flight, so memory stays flat.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from wordforge_cli.batch import workers
from wordforge_cli.batch.kinds import Item, Section
from wordforge_cli.core.engine import Statistics

CHUNK = 256
# chunks a worker's task holds (the last ones fewer, so that the workers finish together):
# one task a chunk cost a round trip, a statistics state and a pickle per 256 items
RUN_CHUNKS = 8


@dataclass(frozen=True)
class Chunk:
    section: int  # position of the section in the pack
    number: int
    start: int
    stop: int


@dataclass
class ChunkResult:
    chunk: Chunk
    lines: bytes  # the chunk's JSON Lines, UTF-8 (encoded in the worker, not the parent)
    text: bytes  # text renders of the chunk's items below render_limit
    files: list[tuple[str, str]]  # (path in the pack, content): per-item renders
    # the statistics to merge for it, as JSON-able states (small to send): a run of chunks'
    # (made whole, or in pieces by several workers: each piece's) on its first chunk (counts:
    # the same summary in any grouping)
    stats: list[dict[str, Any]]
    made: int = 0
    # (item, why it failed: the engine's reason, for the command line), in item order
    failures: list[tuple[int, str]] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)  # the items that made no line


def chunk_count(count: int, size: int = 0) -> int:
    return -(-count // (size or CHUNK))


def shard_chunks(n_chunks: int, shard: tuple[int, int] | None) -> range:
    """The chunks shard ``I`` of ``N`` (1-based) builds: a contiguous, balanced run."""
    if shard is None:
        return range(n_chunks)
    index, total = shard
    return range(n_chunks * (index - 1) // total, n_chunks * index // total)


class ChunkPlan:
    """The chunks to run, in order, made lazily (a pack of 10**12 items is no list in memory):
    items ``start..start+count-1`` of each section in chunks of ``size`` items (a pack's: from
    0, in chunks of ``CHUNK``; the crossword command's: from ``endless --start``, in chunks of
    ``CHUNK`` boards)."""

    def __init__(self, sections: Sequence[Section], shard: tuple[int, int] | None = None,
                 start: int = 0, size: int = 0):
        self.sections = sections
        self.shard = shard
        self.start = start
        self.size = size or CHUNK

    def __len__(self) -> int:
        return sum(len(shard_chunks(chunk_count(s.count, self.size), self.shard))
                   for s in self.sections)

    def __iter__(self) -> Iterator[Chunk]:
        for position, section in enumerate(self.sections):
            stop = self.start + section.count
            for number in shard_chunks(chunk_count(section.count, self.size), self.shard):
                start = self.start + number * self.size
                yield Chunk(position, number, start, min(stop, start + self.size))


def render_path(section: Section, fmt: str, rid: object) -> str:
    """``NAME/000017.svg``: per-item renders named by record id (the item index if none)."""
    from wordforge_cli.render import FORMATS

    name = f"{rid:06d}" if isinstance(rid, int) else str(rid)
    return f"{section.name}/{name}.{FORMATS[fmt].suffix}"


Lines = Callable[[Item], list[bytes]]  # an item's lines as written, in UTF-8

_SEED: int = 0
_SECTIONS: Sequence[Section] = ()
_LINES: Lines | None = None  # every item's lines (None: each section's JSON Lines)


def _init(seed: int, sections: Sequence[Section], lines: Lines | None = None) -> None:
    global _SEED, _SECTIONS, _LINES
    _SEED, _SECTIONS, _LINES = seed, sections, lines


def _made(section: Section, chunk: Chunk, items: Iterable[tuple[int, Item]],
          stats: Statistics[Any], lines_of: Lines) -> ChunkResult:
    """The chunk's items (``(index, item)``: all of them, or a worker's part) counted, their
    lines and renders."""
    lines: list[bytes] = []
    texts: list[str] = []
    files: list[tuple[str, str]] = []
    failures: list[tuple[int, str]] = []
    missing: list[int] = []
    limit = section.render_limit if section.render else 0  # (items past it make no render)
    for index, item in items:
        item.count(stats)
        if item.reason is not None:
            failures.append((index, item.reason))
        made = lines_of(item)
        if not made:
            missing.append(index)
        lines.extend(made)
        if index >= limit:
            continue
        for record in item.records:
            rid = record.get("id", index)
            for fmt in section.render:
                content = section.render_item(fmt, record)
                if fmt == "text":
                    texts.append(f"# {section.name} {rid}\n{content.rstrip()}\n\n")
                else:
                    files.append((render_path(section, fmt, rid), content))
    body = b"\n".join(lines) + b"\n" if lines else b""
    return ChunkResult(chunk, body, "".join(texts).encode("utf-8"), files, [], len(lines),
                       failures, missing)


# A worker's task: chunks of one section in a row, which worker's part of them (0: all), and
# per chunk the items that part makes (None: every item)
Task = tuple[list[Chunk], int, list[list[int]] | None]


def run_task(task: Task) -> list[ChunkResult]:
    """A worker's task (or this process's): its chunks whole, made from one stream of items,
    or its part of each (the items dealt to it); the statistics on the first."""
    chunks, _part, shares = task
    section = _SECTIONS[chunks[0].section]  # (its items load what they need, once a process)
    stats = section.new_stats()
    lines_of = _LINES or section.lines
    if shares is None:
        items = section.items(_SEED, chunks[0].start, chunks[-1].stop)
        made = [_made(section, chunk, zip(range(chunk.start, chunk.stop), items, strict=False),
                      stats, lines_of) for chunk in chunks]
    else:
        dealt: Callable[..., Iterator[Item]] = section.items  # (a batch's takes indices)
        made = [_made(section, chunk, zip(mine, dealt(_SEED, 0, 0, indices=mine), strict=True),
                      stats, lines_of) for chunk, mine in zip(chunks, shares, strict=True)]
    made[0].stats.append(stats.to_state())
    return made


def run_chunks(seed: int, sections: Sequence[Section], chunks: ChunkPlan, jobs: int,
               lines: Lines | None = None, dealt: bool = True
               ) -> Generator[ChunkResult, None, None]:
    """Results in chunk order; ``jobs`` worker processes (1: in this process), started by
    this call (close the generator when done with it). ``lines``: every item's lines instead
    of its section's JSON Lines (the crossword command's render); ``dealt``: whether they are
    one an item, so that a batch's items may be dealt by answer.

    The workers get runs of chunks (fewer, the last ones, so that they finish together: with
    equal runs one worker's last ran alone). A crossword batch section without renders (one
    line an item) deals each run's items to the workers by answer (``BatchSection.shares``),
    so each worker keeps only its own answers' layouts; its lines are put back in item order
    here."""
    jobs = max(1, min(jobs, len(chunks)))
    runs: deque[tuple[list[Chunk], list[list[int]] | None]] = deque()
    tasks = _tasks(seed, sections, chunks, jobs, runs, dealt)
    if jobs == 1:
        _init(seed, sections, lines)
        results: Generator[Any, None, None] = (run_task(task) for task in tasks)
    else:
        results = workers.ordered(run_task, tasks, jobs, _init, (seed, sections, lines),
                                  affinity=lambda task: task[1])
    merged = _merged(results, runs, jobs)
    next(merged)  # started: closing it closes the workers, read or not
    return merged


def _tasks(seed: int, sections: Sequence[Section], chunks: ChunkPlan, jobs: int,
           runs: deque[tuple[list[Chunk], list[list[int]] | None]], dealt: bool
           ) -> Iterator[Task]:
    """The tasks, each run of chunks noted in ``runs`` for the merge (with the part of each
    item when dealt by answer)."""
    left = len(chunks)
    shares: dict[int, Callable[[int, int], list[int]] | None] = {}
    todo = iter(chunks)
    pending: Chunk | None = next(todo, None)
    while pending is not None:
        position = pending.section
        if position not in shares:
            section = sections[position]
            dealer = getattr(section, "shares", None)
            shares[position] = (dealer(seed, jobs) if dealer is not None and dealt
                                and jobs > 1 and not section.render else None)
        share = shares[position]
        run = [pending]
        pending = next(todo, None)
        left -= 1
        size = max(1, min(RUN_CHUNKS, -(-left // (2 * jobs))))
        while (pending is not None and len(run) < size and pending.section == position
               and pending.number == run[-1].number + 1):
            run.append(pending)
            pending = next(todo, None)
            left -= 1
        if share is None:
            runs.append((run, None))
            yield run, 0, None
            continue
        orders = [share(chunk.start, chunk.stop) for chunk in run]
        runs.append((run, orders))
        for part in range(jobs):
            yield run, part, [[i for i, p in enumerate(order, chunk.start) if p == part]
                              for chunk, order in zip(run, orders, strict=True)]


def _merged(results: Generator[Any, None, None],
            runs: deque[tuple[list[Chunk], list[list[int]] | None]], jobs: int
            ) -> Generator[ChunkResult, None, None]:
    try:
        yield None  # type: ignore[misc]  # (primed by run_chunks)
        for first in results:
            run, orders = runs.popleft()
            if orders is None:
                yield from first
                continue
            parts = [first, *(next(results) for _ in range(jobs - 1))]
            for k, (chunk, order) in enumerate(zip(run, orders, strict=True)):
                mine = [part[k] for part in parts]
                body, count = workers.in_order(order, chunk.start,
                                               [(m.lines, m.missing) for m in mine])
                yield ChunkResult(chunk, body, b"", [], [s for m in mine for s in m.stats], count,
                                  sorted(f for m in mine for f in m.failures))
    finally:
        results.close()
