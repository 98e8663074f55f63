"""``pack merge``: join shard outputs into exactly the bytes a single build writes.

Shards are runs of whole chunks, in order, so each section file is the concatenation of the
shards' files; per-item renders are copied; statistics are merged from the exact states the
shards stored. Every shard file is checked against its shard manifest's sha256 as it is read.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from wordforge_cli import __version__
from wordforge_cli.errors import CannotDo, UsageError
from wordforge_cli.pack import store
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
from wordforge_cli.pack.files import MANIFEST, DirSink, FileResult
from wordforge_cli.pack.kinds import Section
from wordforge_cli.pack.runner import chunk_count


def read_shards(config: PackConfig, dirs: Sequence[Path]) -> list[tuple[Path, dict]]:
    """Shard manifests in shard order, after checking they are one complete, matching set."""
    shards = []
    for directory in dirs:
        manifest = store.read_manifest(Path(directory))
        if manifest is None:
            raise UsageError("not a wfkit pack (no manifest.json)", path=directory)
        if manifest.get("format") != FORMAT or manifest.get("wfkit") != __version__:
            raise UsageError(f"built by wfkit {manifest.get('wfkit')} ({manifest.get('format')})"
                             f"; this is wfkit {__version__} ({FORMAT}): rebuild the shards",
                             path=directory)
        if not isinstance(manifest.get("shard"), dict):
            raise UsageError("a whole pack, not a shard (build shards with --shard I/N)",
                             path=directory)
        if manifest.get("config", {}).get("sha256") != config.sha256:
            raise UsageError(f"built from another config than {config.path} (sha256 differs)",
                             path=directory)
        shards.append((Path(directory), manifest))
    totals = {m["shard"]["count"] for _, m in shards}
    if len(totals) != 1:
        raise UsageError("the shards come from different splits (--shard I/N with other N)")
    total = totals.pop()
    indices = sorted(m["shard"]["index"] for _, m in shards)
    if indices != list(range(1, total + 1)):
        missing = sorted(set(range(1, total + 1)) - set(indices))
        twice = sorted({i for i in indices if indices.count(i) > 1})
        what = "; ".join(
            ([f"shard(s) given twice: {', '.join(map(str, twice))}"] if twice else [])
            + ([f"missing shard(s) {', '.join(map(str, missing))}"] if missing else []))
        raise UsageError(f"need every shard 1..{total} exactly once: {what}")
    return sorted(shards, key=lambda s: s[1]["shard"]["index"])


def merge_pack(config: PackConfig, sections: Sequence[Section], dirs: Sequence[Path], out,
               *, force: bool = False) -> PackResult:
    shards = read_shards(config, dirs)
    return write_staged(out, sections, force,
                        lambda sink: _merge_into(config, sections, shards, sink))


def _merge_into(config: PackConfig, sections: Sequence[Section],
                shards: list[tuple[Path, dict]], sink: DirSink) -> PackResult:
    written: list[FileResult] = []
    results = []
    for section in sections:
        result = SectionResult(section, section.new_stats(),
                               chunks=range(chunk_count(section.count)))
        entries = []
        for directory, manifest in shards:
            found = [e for e in manifest.get("sections", []) if e.get("name") == section.name]
            if not found or found[0].get("kind") != section.kind:
                raise UsageError(f"shard has no section '{section.name}'", path=directory)
            entries.append((directory, manifest, found[0]))
        expect = 0
        for directory, _manifest, entry in entries:
            start, stop = entry["chunks"]
            if start != expect:
                raise UsageError(f"section '{section.name}': shard chunks do not join up",
                                 path=directory)
            expect = stop
            result.stats.merge(section.stats_from_state(entry["stats_state"]))
            result.records += entry["records"]
        if expect != chunk_count(section.count):
            raise UsageError(f"section '{section.name}': the shards do not cover it")
        names = [main_file(section)] + ([text_file(section)] if "text" in section.render else [])
        for name in names:
            out = sink.open(name)
            for directory, manifest, _entry in entries:
                _copy(directory, manifest, name, out)
            written.append(out.close())
        for directory, manifest, _entry in entries:
            for file_entry in manifest["files"]:
                if file_entry["path"].startswith(section.name + "/"):
                    out = sink.open(file_entry["path"])
                    _copy(directory, manifest, file_entry["path"], out)
                    written.append(out.close())
        results.append(result)
    manifest = manifest_for(config, sections, results, written, None)
    out = sink.open(MANIFEST)
    out.write(manifest_text(manifest))
    written.append(out.close())
    sink.finish([f.path for f in written])
    return PackResult(manifest, written, [])


def _copy(directory: Path, manifest: dict, relpath: str, out) -> None:
    """Append a shard's file to ``out``, checking it against the shard's manifest."""
    listed = {e["path"]: e for e in manifest.get("files", [])}
    if relpath not in listed:
        raise UsageError(f"shard manifest does not list {relpath}", path=directory)
    digest = hashlib.sha256()
    try:
        with (directory / relpath).open("rb") as fh:
            while block := fh.read(1 << 20):
                digest.update(block)
                out.write(block)
    except FileNotFoundError:
        raise CannotDo("shard file is missing", path=directory / relpath) from None
    if digest.hexdigest() != listed[relpath]["sha256"]:
        raise CannotDo("shard file does not match its manifest's sha256 (changed or "
                       "truncated): rebuild this shard", path=directory / relpath)
