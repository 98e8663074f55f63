"""A pack's ``manifest.json`` read back as untrusted input: a strict parser into typed values.

wfkit reads manifests it did not necessarily write (a shard from a pull request, a pack
directory anyone could edit), so every field is checked for its type and range before it is
used, and every path is checked to be one a build of the manifest's own sections writes.
A bad value is one error naming the file and the field path, e.g.
``manifest.json: sections[2].records: must be a whole number >= 0``.
No dependency: the rules are in this file (the JSON Schema that mirrors them is
documentation for other tools, not the check wfkit runs).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from wordforge_cli.batch.context import MAX_COUNT
from wordforge_cli.core.errors import UsageError
from wordforge_cli.pack.config import NAME_RE as SECTION_NAME
from wordforge_cli.pack.files import MANIFEST, MissingFile, check_relpath, open_inside
from wordforge_cli.render import FORMATS as RENDERS

FORMAT = "wfkit-pack/1"
MAX_MANIFEST_BYTES = 64 << 20
MAX_DEPTH = 32  # nesting of options and statistics (wfkit writes at most 5)
MAX_INT = 2**63 - 1
MAX_TEXT = 1 << 16
KIND_NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}")
SHA256 = re.compile(r"[0-9a-f]{64}")

TOP_KEYS = {"format", "wfkit", "data_version", "name", "description", "seed", "config",
            "chunk", "shard", "data", "sections", "files"}
SECTION_KEYS = {"name", "kind", "file", "count", "records", "options", "render",
                "render_limit", "stats", "chunks", "stats_state"}


@dataclass(frozen=True)
class FileEntry:
    path: str
    sha256: str
    bytes: int
    lines: int


@dataclass(frozen=True)
class SectionEntry:
    index: int
    name: str
    kind: str
    file: str
    count: int
    records: int
    options: dict[str, Any]
    render: tuple[str, ...]
    render_limit: int
    stats: dict[str, Any]
    chunks: tuple[int, int] | None  # shards only
    stats_state: dict[str, Any] | None  # shards only


@dataclass(frozen=True)
class Manifest:
    path: Path
    format: str
    wfkit: str
    name: str
    description: str | None
    seed: int
    config_file: str
    config_sha256: str
    chunk: int
    shard: tuple[int, int] | None
    data: tuple[dict[str, Any], ...]
    sections: tuple[SectionEntry, ...]
    files: tuple[FileEntry, ...]
    raw: dict[str, Any]

    def file(self, relpath: str) -> FileEntry | None:
        for entry in self.files:
            if entry.path == relpath:
                return entry
        return None


class ManifestError(UsageError):
    """A manifest that is not one wfkit writes (exit 2), naming the field."""


def pack_path_pattern(names: list[str] | tuple[str, ...]) -> re.Pattern[str]:
    """Every path a build of sections ``names`` may write (the manifest itself aside)."""
    alternatives = "|".join(re.escape(n) for n in names) or "(?!)"
    suffixes = "|".join(sorted({fmt.suffix for fmt in RENDERS.values()}))
    return re.compile(rf"({alternatives})(\.jsonl|\.txt|/[0-9]{{6,}}\.({suffixes}))")


def read_manifest(directory: Path, *, root_fd: int | None = None) -> Manifest | None:
    """The directory's manifest, checked field by field; None when there is no manifest or
    it is not a wfkit pack's (another tool's ``manifest.json``)."""
    path = directory / MANIFEST
    try:
        fh, size = open_inside(directory, MANIFEST, what="manifest", max_bytes=MAX_MANIFEST_BYTES,
                               root_fd=root_fd)
    except MissingFile:
        return None
    with fh:
        data = fh.read(size + 1)
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark an editor added is accepted
    except UnicodeDecodeError as exc:
        raise ManifestError(f"not UTF-8 (byte {exc.start})", path=path) from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise ManifestError("nested too deeply to be a wfkit manifest", path=path) from None
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        raise ManifestError(f"not valid JSON ({getattr(exc, 'msg', exc)})", path=path,
                            line=line) from None
    if not isinstance(value, dict) or not isinstance(value.get("format"), str) \
            or not value["format"].startswith("wfkit-pack/"):
        return None
    try:  # a "\ud800" escape decodes to a lone surrogate, which no page or file can hold
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ManifestError("holds a lone surrogate escape (\\ud800-\\udfff): not text",
                            path=path) from None
    return parse_manifest(value, path)


def parse_manifest(raw: dict[str, Any], path: Path) -> Manifest:
    """Check every field of a decoded manifest (see the module docstring)."""
    p = _Parser(path)
    p.keys(raw, "", TOP_KEYS, required={"format", "wfkit", "name", "seed", "config", "chunk",
                                         "data", "sections", "files"})
    if raw["format"] != FORMAT:
        p.fail("format", f"is {_show(raw['format'])}; this wfkit reads {FORMAT}")
    wfkit = p.text(raw["wfkit"], "wfkit", limit=64, pattern=re.compile(r"[0-9A-Za-z.+_-]+"))
    if "data_version" in raw:  # packs built before wfkit named its data have none
        p.text(raw["data_version"], "data_version", pattern=re.compile(r"[0-9a-f]{12}"))
    name = p.text(raw["name"], "name", limit=MAX_TEXT)
    description = raw.get("description")
    if description is not None:
        description = p.text(description, "description", limit=MAX_TEXT)
    seed = p.integer(raw["seed"], "seed", 0, MAX_INT)
    config = p.mapping(raw["config"], "config", {"file", "sha256"}, required={"file", "sha256"})
    config_file = p.text(config["file"], "config.file", limit=255,
                         pattern=re.compile(r"[^/\x00-\x1f\x7f]+"))
    config_sha = p.text(config["sha256"], "config.sha256", pattern=SHA256)
    chunk = p.integer(raw["chunk"], "chunk", 1, 1 << 20)
    shard = None
    if "shard" in raw:
        value = p.mapping(raw["shard"], "shard", {"index", "count"}, required={"index", "count"})
        count = p.integer(value["count"], "shard.count", 1, 10**6)
        index = p.integer(value["index"], "shard.index", 1, count)
        shard = (index, count)
    data = tuple(p.data_entry(entry, f"data[{i}]")
                 for i, entry in enumerate(p.array(raw["data"], "data", 10_000)))
    sections = tuple(p.section(entry, f"sections[{i}]", i, chunk, shard is not None)
                     for i, entry in enumerate(p.array(raw["sections"], "sections", 10_000)))
    names = [s.name for s in sections]
    for i, section_name in enumerate(names):
        if section_name in names[:i]:
            p.fail(f"sections[{i}].name", f"'{section_name}' is used twice")
    pattern = pack_path_pattern(names)
    files = []
    seen: set[str] = set()
    for i, entry in enumerate(p.array(raw["files"], "files", 10**7)):
        where = f"files[{i}]"
        entry = p.mapping(entry, where, {"path", "sha256", "bytes", "lines"},
                          required={"path", "sha256", "bytes", "lines"})
        relpath = entry["path"]
        reason = check_relpath(relpath)
        if reason is not None:
            p.fail(f"{where}.path", reason)
        if not pattern.fullmatch(relpath):
            p.fail(f"{where}.path", f"{_show(relpath)} is not a file a build of this pack's "
                                    "sections writes (NAME.jsonl, NAME.txt, NAME/000001.svg)")
        if relpath in seen:
            p.fail(f"{where}.path", f"{_show(relpath)} is listed twice")
        seen.add(relpath)
        size = p.integer(entry["bytes"], f"{where}.bytes", 0, MAX_INT)
        files.append(FileEntry(relpath, p.text(entry["sha256"], f"{where}.sha256",
                                               pattern=SHA256),
                               size, p.integer(entry["lines"], f"{where}.lines", 0, size)))
    for section in sections:
        if section.file not in seen:
            p.fail(f"sections[{section.index}].file", f"{_show(section.file)} is not listed "
                                                      "in files")
    return Manifest(path, raw["format"], wfkit, name, description, seed, config_file,
                    config_sha, chunk, shard, data, sections, tuple(files), raw)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=True) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Parser:
    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, message: str) -> NoReturn:
        raise ManifestError(f"{where}: {message}" if where else message, path=self.path)

    def keys(self, value: dict[str, Any], where: str, allowed: set[str],
             required: set[str]) -> None:
        for key in value:
            if key not in allowed:
                name = key if re.fullmatch(r"[A-Za-z0-9_]{1,64}", key) else _show(key)
                self.fail(f"{where}.{name}" if where else name, "is not a manifest field")
        for key in sorted(required):
            if key not in value:
                self.fail(where, f"'{key}' is missing")

    def mapping(self, value: Any, where: str, allowed: set[str],
                required: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(where, f"must be an object, not {_kind(value)}")
        self.keys(value, where, allowed, required)
        return value

    def array(self, value: Any, where: str, limit: int) -> list[Any]:
        if not isinstance(value, list):
            self.fail(where, f"must be a list, not {_kind(value)}")
        if len(value) > limit:
            self.fail(where, f"has {len(value)} entries; at most {limit}")
        return value

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, f"must be a whole number >= {low}, not {_kind(value)}")
        if not low <= value <= high:
            self.fail(where, f"must be a whole number >= {low} and <= {high}, not "
                             f"{_show(value)}")
        return value

    def text(self, value: Any, where: str, *, limit: int = MAX_TEXT,
             pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str):
            self.fail(where, f"must be a string, not {_kind(value)}")
        if len(value) > limit:
            self.fail(where, f"is {len(value)} characters; at most {limit}")
        if pattern is not None and not pattern.fullmatch(value):
            self.fail(where, f"{_show(value)} is not of the form wfkit writes")
        return value

    def json_object(self, value: Any, where: str) -> dict[str, Any]:
        """A free-form object (options, statistics): JSON, nested at most MAX_DEPTH."""
        if not isinstance(value, dict):
            self.fail(where, f"must be an object, not {_kind(value)}")
        stack: list[tuple[Any, int]] = [(value, 1)]
        while stack:
            item, depth = stack.pop()
            if depth > MAX_DEPTH:
                self.fail(where, f"nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                stack.extend((v, depth + 1) for v in item.values())
            elif isinstance(item, list):
                stack.extend((v, depth + 1) for v in item)
            elif isinstance(item, int) and not isinstance(item, bool) and abs(item) > 2**256:
                self.fail(where, "holds a number too big for wfkit statistics")
        return value

    def data_entry(self, value: Any, where: str) -> dict[str, Any]:
        keys = {"file", "sha256", "bytes", "source", "license", "provenance", "sections"}
        entry = self.mapping(value, where, keys, required=keys)
        self.text(entry["file"], f"{where}.file", limit=4096)
        self.text(entry["sha256"], f"{where}.sha256", pattern=SHA256)
        self.integer(entry["bytes"], f"{where}.bytes", 0, MAX_INT)
        for key in ("source", "license", "provenance"):
            if entry[key] is not None:
                self.text(entry[key], f"{where}.{key}")
        for i, name in enumerate(self.array(entry["sections"], f"{where}.sections", 10_000)):
            self.text(name, f"{where}.sections[{i}]", pattern=SECTION_NAME)
        return entry

    def section(self, value: Any, where: str, index: int, chunk: int,
                sharded: bool) -> SectionEntry:
        required = {"name", "kind", "file", "count", "records", "options", "render",
                    "render_limit", "stats"} | ({"chunks", "stats_state"} if sharded else set())
        entry = self.mapping(value, where, SECTION_KEYS if sharded else SECTION_KEYS - {
            "chunks", "stats_state"}, required=required)
        name = self.text(entry["name"], f"{where}.name", pattern=SECTION_NAME)
        kind = self.text(entry["kind"], f"{where}.kind", pattern=KIND_NAME)
        file = self.text(entry["file"], f"{where}.file", limit=128)
        if file != f"{name}.jsonl":
            self.fail(f"{where}.file", f"must be '{name}.jsonl', not {_show(file)}")
        count = self.integer(entry["count"], f"{where}.count", 0, MAX_COUNT)
        records = self.integer(entry["records"], f"{where}.records", 0, MAX_INT)
        options = self.json_object(entry["options"], f"{where}.options")
        render = self.array(entry["render"], f"{where}.render", len(RENDERS))
        for i, fmt in enumerate(render):
            if not isinstance(fmt, str) or fmt not in RENDERS or fmt in render[:i]:
                self.fail(f"{where}.render[{i}]", f"must be one of {', '.join(RENDERS)} "
                                                  f"(once), not {_show(fmt)}")
        render_limit = self.integer(entry["render_limit"], f"{where}.render_limit", 0,
                                    MAX_COUNT)
        stats = self.json_object(entry["stats"], f"{where}.stats")
        chunks = state = None
        if sharded:
            pair = self.array(entry["chunks"], f"{where}.chunks", 2)
            if len(pair) != 2:
                self.fail(f"{where}.chunks", "must be [first, end]")
            n_chunks = -(-count // chunk)
            start = self.integer(pair[0], f"{where}.chunks[0]", 0, n_chunks)
            stop = self.integer(pair[1], f"{where}.chunks[1]", start, n_chunks)
            chunks = (start, stop)
            state = self.json_object(entry["stats_state"], f"{where}.stats_state")
        return SectionEntry(index, name, kind, file, count, records, options, tuple(render),
                            render_limit, stats, chunks, state)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number",
            float: "a number"}.get(type(value), type(value).__name__)
