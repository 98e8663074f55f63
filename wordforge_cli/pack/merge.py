"""``pack merge``: join shard outputs into exactly the bytes a single build writes.

Shards are runs of whole chunks, in order, so each section file is the concatenation of the
shards' files; per-item renders are copied; statistics are merged from the exact states the
shards stored. Every shard file is checked against its shard manifest's sha256 as it is read,
and copied through the one set of control characters (a build never writes one raw, so a
shard holding one was made by hand: it is shown escaped, as any output would show it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from wordforge_cli import __version__
from wordforge_cli.batch.kinds import Section
from wordforge_cli.batch.runner import CHUNK, chunk_count
from wordforge_cli.core.engine import Statistics
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.text import ShownStream
from wordforge_cli.pack.build import (
    FORMAT,
    PackResult,
    SectionResult,
    main_file,
    manifest_for,
    manifest_text,
    text_file,
    write_staged,
)
from wordforge_cli.pack.config import PackConfig
from wordforge_cli.pack.files import (
    MANIFEST,
    DirSink,
    FileResult,
    SinkFile,
    open_inside,
    read_bounded,
)
from wordforge_cli.pack.manifest import Manifest, SectionEntry, read_manifest

MAX_RECORD_BYTES = 1 << 20  # a section file holds at most this much per item of its shard
MAX_RENDER_BYTES = 16 << 20  # one per-item render (an SVG board is a few KB)


def read_shards(config: PackConfig, dirs: Sequence[Path]) -> list[tuple[Path, Manifest]]:
    """Shard manifests in shard order, after checking they are one complete, matching set."""
    shards: list[tuple[int, int, Path, Manifest]] = []  # (index, count, directory, manifest)
    for directory in dirs:
        manifest = read_manifest(Path(directory))
        if manifest is None:
            raise UsageError("not a wfkit pack (no manifest.json)", path=directory)
        if manifest.wfkit != __version__:
            raise UsageError(f"built by wfkit {manifest.wfkit} ({manifest.format}); this is "
                             f"wfkit {__version__} ({FORMAT}): rebuild the shards",
                             path=directory)
        if manifest.shard is None:
            raise UsageError("a whole pack, not a shard (build shards with --shard I/N)",
                             path=directory)
        if manifest.config_sha256 != config.sha256:
            raise UsageError(f"built from another config than {config.path} (sha256 differs)",
                             path=directory)
        if manifest.seed != config.seed or manifest.chunk != CHUNK:
            raise UsageError("manifest.json: seed or chunk differ from the config's",
                             path=directory)
        shards.append((*manifest.shard, Path(directory), manifest))
    totals = {count for _index, count, _directory, _manifest in shards}
    if len(totals) != 1:
        raise UsageError("the shards come from different splits (--shard I/N with other N)")
    total = totals.pop()
    indices = sorted(index for index, *_ in shards)
    if indices != list(range(1, total + 1)):
        missing = sorted(set(range(1, total + 1)) - set(indices))
        twice = sorted({i for i in indices if indices.count(i) > 1})
        what = "; ".join(
            ([f"shard(s) given twice: {', '.join(map(str, twice))}"] if twice else [])
            + ([f"missing shard(s) {', '.join(map(str, missing))}"] if missing else []))
        raise UsageError(f"need every shard 1..{total} exactly once: {what}")
    return [(directory, manifest) for _index, _count, directory, manifest in sorted(
        shards, key=lambda s: s[0])]


def _chunks(entry: SectionEntry) -> tuple[int, int]:
    """A shard section's (start, stop) chunks: a shard's manifest is refused without them."""
    assert entry.chunks is not None
    return entry.chunks


def _state(entry: SectionEntry) -> dict[str, Any]:
    """A shard section's statistics state: a shard's manifest is refused without one."""
    assert entry.stats_state is not None
    return entry.stats_state


def merge_pack(config: PackConfig, sections: Sequence[Section], dirs: Sequence[Path],
               out: str | Path, *, force: bool = False) -> PackResult:
    shards = read_shards(config, dirs)
    return write_staged(out, sections, force,
                        lambda sink: _merge_into(config, sections, shards, sink))


def _merge_into(config: PackConfig, sections: Sequence[Section],
                shards: list[tuple[Path, Manifest]], sink: DirSink) -> PackResult:
    written: list[FileResult] = []
    results: list[SectionResult] = []
    for section in sections:
        result = SectionResult(section, section.new_stats(),
                               chunks=range(chunk_count(section.count)))
        entries: list[tuple[Path, Manifest, SectionEntry]] = []
        for directory, manifest in shards:
            found = [e for e in manifest.sections if e.name == section.name]
            if not found or found[0].kind != section.kind or found[0].count != section.count:
                raise UsageError(f"shard has no {section.kind} section '{section.name}' of "
                                 f"{section.count} items", path=directory / MANIFEST)
            entries.append((directory, manifest, found[0]))
        expect = 0
        for directory, _manifest, entry in entries:
            start, stop = _chunks(entry)
            if start != expect:
                raise UsageError(f"section '{section.name}': shard chunks do not join up",
                                 path=directory / MANIFEST)
            expect = stop
            result.stats.merge(_stats(section, directory, entry))
        if expect != chunk_count(section.count):
            raise UsageError(f"section '{section.name}': the shards do not cover it")
        texts = [text_file(section)] if "text" in section.render else []
        for relpath in [main_file(section), *texts]:  # the records, then the text render
            out = sink.open(relpath)
            for directory, manifest, entry in entries:
                items = (_chunks(entry)[1] - _chunks(entry)[0]) * CHUNK
                lines = _copy(directory, manifest, relpath, out, items * MAX_RECORD_BYTES)
                if relpath == main_file(section):  # its count from the bytes, not the claim
                    if lines != entry.records:
                        raise UsageError(f"section '{section.name}': records is "
                                         f"{entry.records} but the file holds {lines}",
                                         path=directory / MANIFEST)
                    result.records += lines
            written.append(out.close())
        seen: dict[str, Path] = {}
        for directory, manifest, _entry in entries:
            for file_entry in manifest.files:
                if file_entry.path.startswith(section.name + "/"):
                    if file_entry.path in seen:
                        raise UsageError(f"two shards both hold {file_entry.path} (the other: "
                                         f"{seen[file_entry.path]})", path=directory)
                    seen[file_entry.path] = directory
                    out = sink.open(file_entry.path)
                    _copy(directory, manifest, file_entry.path, out, MAX_RENDER_BYTES)
                    written.append(out.close())
        results.append(result)
    built = manifest_for(config, sections, results, written, None)
    out = sink.open(MANIFEST)
    out.write(manifest_text(built))
    written.append(out.close())
    sink.finish([f.path for f in written])
    return PackResult(built, written, [])


def _stats(section: Section, directory: Path, entry: SectionEntry) -> Statistics[Any]:
    """The shard's statistics from their stored state, checked against its own summary."""
    where = f"sections[{entry.index}].stats_state"
    try:
        stats = section.stats_from_state(_state(entry))
        summary = stats.summary()
        probe = section.new_stats()  # what merging it would do, before the real merge
        probe.merge(stats)
        probe.merge(section.stats_from_state(_state(entry)))
        probe.summary()
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
        raise UsageError(f"{where}: not the statistics of a {section.kind} section",
                         path=directory / MANIFEST) from None
    if summary != entry.stats:
        raise UsageError(f"{where}: does not give the section's stats (changed by hand?)",
                         path=directory / MANIFEST)
    return stats


def _copy(directory: Path, manifest: Manifest, relpath: str, out: SinkFile, limit: int) -> int:
    """Append a shard's file to ``out``, checking it against the shard's manifest; returns
    its line count. Only a regular file inside the shard of the listed size is read."""
    listed = manifest.file(relpath)
    if listed is None:
        raise UsageError(f"shard manifest does not list {relpath}", path=directory / MANIFEST)
    fh, size = open_inside(directory, relpath, what="shard file", max_bytes=limit)
    path = directory / relpath
    lines = 0
    copied = ShownStream()  # (a shard's bytes are a file's: shown as any output is)

    def take(block: bytes) -> None:
        nonlocal lines
        lines += block.count(b"\n")
        out.write(copied(block))

    with fh:
        if size != listed.bytes:
            raise CannotDo(f"shard file does not match its manifest's sha256 and size ({size} "
                           f"bytes, not {listed.bytes}: changed or truncated): rebuild this "
                           "shard", path=path)
        digest = read_bounded(fh, size, take, what="shard file", path=path)
    out.write(copied.end())
    if digest.hexdigest() != listed.sha256:
        raise CannotDo("shard file does not match its manifest's sha256 (changed or "
                       "truncated): rebuild this shard", path=path)
    return lines
