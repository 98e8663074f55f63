"""Run a pack's items in fixed chunks, in worker processes, and hand results back in order.

The chunking is part of the pack format, not of the machine: chunk ``k`` of a section always
holds items ``[k*CHUNK, (k+1)*CHUNK)``, whatever ``--jobs`` is. Shards are runs of whole chunks,
so shard outputs concatenate to the single-build bytes, and each chunk's statistics are merged
in chunk order. At most a few chunks per worker are in flight, so memory stays flat.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from wordforge_cli.pack.kinds import Section
from wordforge_cli.workers import ordered

CHUNK = 256


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
    stats: dict[str, Any]  # the chunk's statistics as a JSON-able state: small to send
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
    return ChunkResult(chunk, body, "".join(texts).encode("utf-8"), files, stats.to_state(),
                       len(lines))


def run_chunks(seed: int, sections: Sequence[Section], chunks: Plan,
               jobs: int) -> Generator[ChunkResult, None, None]:
    """Results in chunk order; ``jobs`` worker processes (1: in this process), started by
    this call (close the generator when done with it)."""
    if jobs <= 1 or len(chunks) <= 1:
        return _in_process(seed, sections, chunks)
    return ordered(run_chunk, chunks, min(jobs, len(chunks)), _init, (seed, sections))


def _in_process(seed: int, sections: Sequence[Section], chunks: Plan
                ) -> Generator[ChunkResult, None, None]:
    _init(seed, sections)
    for chunk in chunks:
        yield run_chunk(chunk)
