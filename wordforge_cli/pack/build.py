"""Turn a prepared pack into files: stream chunk results into each section's files in index
order, then write the manifest last. The same code feeds a real directory (build), a
comparison (check) and, through ``manifest_for``, the merge of shards.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wordforge_cli import __version__
from wordforge_cli.batch.kinds import DataFile, Section
from wordforge_cli.batch.runner import (
    CHUNK,
    ChunkPlan,
    ChunkResult,
    chunk_count,
    run_chunks,
    shard_chunks,
)
from wordforge_cli.core import signals
from wordforge_cli.core.engine import Statistics
from wordforge_cli.core.errors import CannotDo, WfkitError, one_line
from wordforge_cli.core.progress import progress
from wordforge_cli.io.dataversion import data_version
from wordforge_cli.io.output import dumps_pretty
from wordforge_cli.io.paths import resource_dir
from wordforge_cli.pack import store
from wordforge_cli.pack.config import PackConfig
from wordforge_cli.pack.files import (
    MANIFEST,
    CompareSink,
    DirSink,
    FileResult,
    Sink,
    SinkFile,
    sha256_file,
)
from wordforge_cli.pack.manifest import FORMAT, pack_path_pattern, read_manifest

Outs = tuple[SinkFile, SinkFile | None]  # a section's open files: records, and its text render

__all__ = ["FORMAT", "build_pack", "check_pack", "claims", "manifest_for", "write_staged"]


@dataclass
class SectionResult:
    section: Section
    stats: Statistics[Any]
    records: int = 0
    chunks: range = range(0)
    files: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # why each missing item is missing


@dataclass
class PackResult:
    manifest: dict[str, Any]
    files: list[FileResult]  # every file, manifest last
    unexpected: list[str]
    failures: list[tuple[str, str]] = field(default_factory=list)  # (section, reason)

    @property
    def current(self) -> bool:
        return not self.unexpected and all(f.status == "current" for f in self.files)


class MissingItems(CannotDo):
    """A section with ``require_all`` that has missing items: nothing is written (exit 1);
    ``failures`` are each missing item's reason, for the command to print first."""

    def __init__(self, message: str, failures: list[tuple[str, str]]):
        super().__init__(message)
        self.failures = failures


def main_file(section: Section) -> str:
    return f"{section.name}.jsonl"


def text_file(section: Section) -> str:
    return f"{section.name}.txt"


def produce(config: PackConfig, sections: Sequence[Section], sink: Sink, *, jobs: int = 1,
            shard: tuple[int, int] | None = None,
            stream: Generator[ChunkResult, None, None] | None = None) -> PackResult:
    """Build every section into ``sink`` (streaming), then the manifest; ``stream``: the
    chunks' results, when the caller started them already."""
    chunks = ChunkPlan(sections, shard)
    results = [SectionResult(s, s.new_stats(), chunks=shard_chunks(chunk_count(s.count), shard))
               for s in sections]
    written: list[FileResult] = []
    outs: dict[int, Outs] = {}

    def open_section(position: int) -> Outs:
        section = sections[position]
        main = sink.open(main_file(section))
        text = sink.open(text_file(section)) if "text" in section.render else None
        outs[position] = (main, text)
        return main, text

    def close_section(position: int) -> None:
        main, text = outs.pop(position)
        for out in (main, text):
            if out is not None:
                written.append(out.close())
                results[position].files.append(out.relpath)

    current = -1

    def advance(position: int) -> None:
        """Close the section being written and open the next ones up to ``position``, so
        every section gets its files (an empty or unsharded one too), in order."""
        nonlocal current
        while current < position:
            if current >= 0:
                close_section(current)
            current += 1
            open_section(current)

    if stream is None:
        stream = run_chunks(config.seed, sections, chunks, jobs)
    try:
        for result in progress(stream, total=len(chunks), desc="pack", unit="chunk"):
            advance(result.chunk.section)
            _take(result, outs[current], results[current], sink, written)
    finally:
        stream.close()  # on a signal or error: the worker pool ends now, not at exit
    advance(len(sections) - 1)
    if current >= 0:
        close_section(current)
    manifest = manifest_for(config, sections, results, written, shard)
    out = sink.open(MANIFEST)
    out.write(manifest_text(manifest))
    written.append(out.close())
    unexpected = sink.finish([f.path for f in written])
    failures = [(r.section.name, reason) for r in results for reason in r.failures]
    return PackResult(manifest, written, unexpected, failures)


def _take(result: ChunkResult, outs: Outs, section: SectionResult, sink: Sink,
          written: list[FileResult]) -> None:
    main, text = outs
    main.write(result.lines)
    if text is not None:
        text.write(result.text)
    for relpath, content in result.files:
        out = sink.open(relpath)
        out.write(content)
        written.append(out.close())
        section.files.append(relpath)
    for state in result.stats:
        section.stats.merge(section.section.stats_from_state(state))
    section.records += result.made
    section.failures.extend(reason for _index, reason in result.failures)


def claims(sections: Sequence[Section]) -> re.Pattern[str]:
    """A pattern of every path a build of these sections may write."""
    files = pack_path_pattern([s.name for s in sections])
    return re.compile(rf"manifest\.json|{files.pattern}")


def manifest_text(manifest: dict[str, Any]) -> str:
    """The manifest as written: indented JSON, control characters escaped (a pack's name and
    description are the config's text)."""
    return dumps_pretty(manifest) + "\n"


def data_entries(sections: Iterable[Section]) -> list[dict[str, Any]]:
    """Every data file the sections read, once, with its hash, provenance and licence."""
    entries: dict[str, dict[str, Any]] = {}
    for section in sections:
        files = section.data
        notes = {f.provenance for f in files if f.provenance}
        for label in sorted(notes):  # the provenance notes are hashed too
            folder, name = label.removeprefix("wfkit:").split("/", 1)
            files.append(DataFile(label, resource_dir(folder) / name, "wfkit"))
        for data in files:
            entry = entries.get(data.label)
            if entry is None:
                entry = entries[data.label] = {
                    "file": data.label, "sha256": sha256_file(data.path),
                    "bytes": data.path.stat().st_size, "source": data.source,
                    "license": data.license, "provenance": data.provenance, "sections": [],
                }
            if section.name not in entry["sections"]:
                entry["sections"].append(section.name)
    return [entries[label] for label in sorted(entries)]


def manifest_for(config: PackConfig, sections: Sequence[Section],
                 results: Sequence[SectionResult], files: Sequence[FileResult],
                 shard: tuple[int, int] | None) -> dict[str, Any]:
    """The manifest: everything needed to know what a pack is and whether it is intact.

    Deterministic only (no dates, timings, host names or absolute paths), so a rebuild of the
    same config with the same wfkit writes the same bytes.
    """
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "wfkit": __version__,
        "data_version": data_version(),
        "name": config.name,
        "description": config.description,
        "seed": config.seed,
        # a file name may hold what no manifest reads back (a control character, bytes that
        # are not UTF-8): it is recorded as messages show it
        "config": {"file": one_line(config.path.name), "sha256": config.sha256},
        "chunk": CHUNK,
    }
    if shard is not None:
        manifest["shard"] = {"index": shard[0], "count": shard[1]}
    manifest["data"] = data_entries(sections)
    entries = []
    for section, result in zip(sections, results, strict=True):
        entry = {
            "name": section.name,
            "kind": section.kind,
            "file": main_file(section),
            "count": section.count,
            "records": result.records,
            "options": section.options,
            "render": list(section.render),
            "render_limit": section.render_limit,
            "stats": result.stats.summary(),
        }
        if shard is not None:
            entry["chunks"] = [result.chunks.start, result.chunks.stop]
            entry["stats_state"] = result.stats.to_state()
        entries.append(entry)
    manifest["sections"] = entries
    manifest["files"] = [{"path": f.path, "sha256": f.sha256, "bytes": f.bytes,
                          "lines": f.lines} for f in sorted(files, key=lambda f: f.path)]
    return manifest


def build_pack(config: PackConfig, sections: Sequence[Section], out: str | Path, *,
               jobs: int = 1,
               shard: tuple[int, int] | None = None, force: bool = False) -> PackResult:
    """Build into a staging directory and swap it into ``out`` only when complete.

    The workers start first and make the first chunks while the staging directory is made
    (the build lock, a killed build's recovery, a rebuild's hashes of the old pack's files)."""
    stream = run_chunks(config.seed, sections, ChunkPlan(sections, shard), jobs)
    data_version()  # (cached) hashed while the workers make their first chunks, not after
    try:
        return write_staged(out, sections, force, lambda sink: _whole(produce(
            config, sections, sink, jobs=jobs, shard=shard, stream=stream), sections))
    finally:
        stream.close()


def _whole(result: PackResult, sections: Sequence[Section]) -> PackResult:
    """The build's result, unless a section with ``require_all`` misses items (then nothing
    is swapped in: the pack that was there stays)."""
    strict = {s.name for s in sections if s.require_all}
    missing = [(name, reason) for name, reason in result.failures if name in strict]
    if missing:
        names = ", ".join(dict.fromkeys(name for name, _reason in missing))
        raise MissingItems(f"{len(missing)} missing item{'s' if len(missing) != 1 else ''} in "
                           f"{names}, whose require_all asks for all of them: nothing written",
                           result.failures)
    return result


def write_staged(out: str | Path, sections: Sequence[Section], force: bool,
                 fill: Callable[[DirSink], PackResult]) -> PackResult:
    """Let ``fill`` write a whole pack into a staging directory, then swap it into ``out``;
    on any failure the staging directory goes and ``out`` is as it was."""
    staging = store.begin(Path(out), force=force, claims=claims(sections))
    try:
        result = fill(DirSink(staging.path, staging.out if staging.out_fd is not None else None,
                              staging.staging_fd))
        signals.check()  # a signal swallowed on the way: the old pack stays as it was
    except OSError as exc:
        store.abort(staging)
        raise store.os_error(exc) from None
    except BaseException:
        store.abort(staging)
        raise
    try:
        result.unexpected = store.commit(staging)
    except OSError as exc:  # the journal lets the next run finish or undo the swap
        raise store.os_error(exc) from None  # strangers that could not be put back
    return result


def check_pack(config: PackConfig, sections: Sequence[Section], out: str | Path, *,
               jobs: int = 1,
               shard: tuple[int, int] | None = None) -> PackResult:
    """Rebuild without writing and compare every file with ``out``; a stale manifest says
    which of its values differ (a data file's hash, a section's statistics, ...)."""
    result = produce(config, sections, CompareSink(Path(out)), jobs=jobs, shard=shard)
    for entry in result.files:
        if entry.path == MANIFEST and entry.status == "stale":
            try:
                found = read_manifest(Path(out))
            except WfkitError as exc:
                entry.detail = exc.message
                continue
            if found is not None:
                changes = json_changes(found.raw, result.manifest)
                if changes:
                    entry.detail = "differs at " + "; ".join(changes)
    return result


def json_changes(found: object, expected: object, where: str = "",
                 limit: int = 5) -> list[str]:
    """Where two JSON values differ, as ``path: found -> expected`` (the first ``limit``).

    List items that carry a name (sections, data files, files) are matched by it."""
    if isinstance(found, dict) and isinstance(expected, dict):
        changes = []
        for key in [*expected, *(k for k in found if k not in expected)]:
            path = f"{where}.{key}" if where else str(key)
            if key not in found or key not in expected:
                changes.append(f"{path}: {'missing' if key not in found else 'not expected'}")
            else:
                changes += json_changes(found[key], expected[key], path, limit)
            if len(changes) >= limit:
                return changes[:limit]
        return changes
    if isinstance(found, list) and isinstance(expected, list):
        def name(item: object, index: int) -> str:
            if isinstance(item, dict):
                for key in ("name", "path", "file"):
                    if isinstance(value := item.get(key), str):
                        return value
            return str(index)

        mine = {name(v, i): v for i, v in enumerate(found)}
        theirs = {name(v, i): v for i, v in enumerate(expected)}
        if len(mine) == len(found) and len(theirs) == len(expected):
            changes = []
            for key in [*theirs, *(k for k in mine if k not in theirs)]:
                path = f"{where}[{key}]"
                if key not in mine or key not in theirs:
                    changes.append(f"{path}: {'missing' if key not in mine else 'not expected'}")
                else:
                    changes += json_changes(mine[key], theirs[key], path, limit)
                if len(changes) >= limit:
                    break
            return changes[:limit]
    if found != expected:
        return [f"{where}: {_short(found)} -> {_short(expected)}"]
    return []


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."
