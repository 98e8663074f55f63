"""Run a pack's items in fixed chunks, in worker processes, and hand results back in order.

The chunking is part of the pack format, not of the machine: chunk ``k`` of a section always
holds items ``[k*CHUNK, (k+1)*CHUNK)``, whatever ``--jobs`` is. Shards are runs of whole chunks,
so shard outputs concatenate to the single-build bytes, and each chunk's statistics are merged
in chunk order. At most a few chunks per worker are in flight, so memory stays flat.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from wordforge_cli.pack.kinds import Item, Section
from wordforge_cli.workers import in_order, ordered

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
    # the statistics to merge for it, as JSON-able states (small to send): the chunk's own,
    # or, for a run of chunks made in pieces by several workers, each piece's on the run's
    # first chunk (counts: the same summary in any grouping)
    stats: list[dict[str, Any]]
    made: int = 0


def chunk_count(count: int) -> int:
    return -(-count // CHUNK)


def shard_chunks(n_chunks: int, shard: tuple[int, int] | None) -> range:
    """The chunks shard ``I`` of ``N`` (1-based) builds: a contiguous, balanced run."""
    if shard is None:
        return range(n_chunks)
    index, total = shard
    return range(n_chunks * (index - 1) // total, n_chunks * index // total)


class Plan:
    """The chunks to run, in order, made lazily (a pack of 10**12 items is no list in memory)."""

    def __init__(self, sections: Sequence[Section], shard: tuple[int, int] | None = None):
        self.sections = sections
        self.shard = shard

    def __len__(self) -> int:
        return sum(len(shard_chunks(chunk_count(s.count), self.shard)) for s in self.sections)

    def __iter__(self) -> Iterator[Chunk]:
        for position, section in enumerate(self.sections):
            for number in shard_chunks(chunk_count(section.count), self.shard):
                start = number * CHUNK
                yield Chunk(position, number, start, min(section.count, start + CHUNK))


def plan(sections: Sequence[Section], shard: tuple[int, int] | None = None) -> Plan:
    return Plan(sections, shard)


def render_path(section: Section, fmt: str, rid: object) -> str:
    """``NAME/000017.svg``: per-item renders named by record id (the item index if none)."""
    from wordforge_cli.pack.kinds import RENDER_SUFFIX

    name = f"{rid:06d}" if isinstance(rid, int) else str(rid)
    return f"{section.name}/{name}.{RENDER_SUFFIX[fmt]}"


_SEED: int = 0
_SECTIONS: Sequence[Section] = ()
_WARM: set[int] = set()


def _init(seed: int, sections: Sequence[Section]) -> None:
    global _SEED, _SECTIONS
    _SEED, _SECTIONS = seed, sections
    _WARM.clear()


def run_chunk(chunk: Chunk) -> ChunkResult:
    """Make the chunk's items (in a worker, or in-process with ``--jobs 1``)."""
    section = _SECTIONS[chunk.section]
    if chunk.section not in _WARM:
        section.warm()
        _WARM.add(chunk.section)
    stats = section.new_stats()
    lines: list[bytes] = []
    texts: list[str] = []
    files: list[tuple[str, str]] = []
    for index, item in enumerate(section.items(_SEED, chunk.start, chunk.stop), chunk.start):
        item.count(stats)
        lines.extend(section.lines(item))
        if index >= section.render_limit:
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
    return ChunkResult(chunk, body, "".join(texts).encode("utf-8"), files, [stats.to_state()],
                       len(lines))


# A worker's task: chunks of one section in a row, which worker's part of them (0: all), and
# per chunk the items that part makes (None: every item)
Task = tuple[list[Chunk], int, list[list[int]] | None]
# what a worker made of a task's part: per chunk its lines (one an item made) and the items
# that made none, and the part's statistics
Piece = tuple[list[tuple[bytes, list[int]]], dict[str, Any]]


def run_task(task: Task) -> list[ChunkResult] | Piece:
    """A worker's task: its chunks whole, or its part of each (the items dealt to it)."""
    chunks, _part, shares = task
    if shares is None:
        return [run_chunk(chunk) for chunk in chunks]
    section = _SECTIONS[chunks[0].section]
    if chunks[0].section not in _WARM:
        section.warm()
        _WARM.add(chunks[0].section)
    stats = section.new_stats()
    dealt: Callable[..., Iterator[Item]] = section.items  # (a batch section's takes indices)
    out = []
    for mine in shares:
        lines: list[bytes] = []
        missing: list[int] = []
        for index, item in zip(mine, dealt(_SEED, 0, 0, indices=mine), strict=True):
            item.count(stats)
            made = section.lines(item)
            if not made:
                missing.append(index)
            lines.extend(made)
        out.append((b"\n".join(lines) + b"\n" if lines else b"", missing))
    return out, stats.to_state()


def run_chunks(seed: int, sections: Sequence[Section], chunks: Plan,
               jobs: int) -> Generator[ChunkResult, None, None]:
    """Results in chunk order; ``jobs`` worker processes (1: in this process), started by
    this call (close the generator when done with it).

    The workers get runs of chunks. A crossword batch section without renders (one line an
    item) deals each run's items to the workers by answer (``BatchSection.shares``), so each
    worker keeps only its own answers' layouts; its lines are put back in item order here."""
    if jobs <= 1 or len(chunks) <= 1:
        return _in_process(seed, sections, chunks)
    jobs = min(jobs, len(chunks))
    runs: deque[tuple[list[Chunk], list[list[int]] | None]] = deque()
    results = ordered(run_task, _tasks(seed, sections, chunks, jobs, runs), jobs, _init,
                      (seed, sections), affinity=lambda task: task[1])
    merged = _merged(results, runs, jobs)
    next(merged)  # started: closing it closes the workers, read or not
    return merged


def _tasks(seed: int, sections: Sequence[Section], chunks: Plan, jobs: int,
           runs: deque[tuple[list[Chunk], list[list[int]] | None]]) -> Iterator[Task]:
    """The workers' tasks, each run of chunks noted in ``runs`` for the merge (with the part
    of each item when dealt by answer)."""
    left = len(chunks)
    shares: dict[int, Callable[[int, int], list[int]] | None] = {}
    todo = iter(chunks)
    pending: Chunk | None = next(todo, None)
    while pending is not None:
        position = pending.section
        if position not in shares:
            section = sections[position]
            dealer = getattr(section, "shares", None)
            shares[position] = (dealer(seed, jobs) if dealer is not None and not section.render
                                else None)
        share = shares[position]
        run = [pending]
        pending = next(todo, None)
        left -= 1
        if share is None:  # one chunk a task, as it comes
            runs.append((run, None))
            yield run, 0, None
            continue
        size = max(1, min(RUN_CHUNKS, -(-left // (2 * jobs))))
        while (pending is not None and len(run) < size and pending.section == position
               and pending.number == run[-1].number + 1):
            run.append(pending)
            pending = next(todo, None)
            left -= 1
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
            parts: list[Piece] = [first, *(next(results) for _ in range(jobs - 1))]
            for k, (chunk, order) in enumerate(zip(run, orders, strict=True)):
                body, count = in_order(order, chunk.start, [part[0][k] for part in parts])
                yield ChunkResult(chunk, body, b"", [],
                                  [part[1] for part in parts] if k == 0 else [], count)
    finally:
        results.close()


def _in_process(seed: int, sections: Sequence[Section], chunks: Plan
                ) -> Generator[ChunkResult, None, None]:
    _init(seed, sections)
    for chunk in chunks:
        yield run_chunk(chunk)
