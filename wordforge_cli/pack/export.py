"""``wfkit pack export``: a built pack as one file a game engine loads directly.

Three shapes of the same records:

* ``sqlite``: one table per section (named as the section), a ``position`` column (the
  record's place in the section, from 0), a typed column for every top-level field whose
  values are whole numbers, reals, strings or true/false in every record (``id``, ``answer``,
  ``w``, ``h``, ``style``, ``word``, ``rarity``...), and ``record``, the whole record as
  JSON; indexes on ``id``, ``answer`` and ``word``; the manifest in ``_pack``, the sections in
  ``_sections``, the data files' provenance in ``_provenance``.
* ``json``: one JSON document (the pack, its provenance, and each section with its
  ``items``), one record a line.
* ``csv``: a folder with ``SECTION.csv`` per section (the typed columns, then ``record``),
  ``_sections.csv``, ``_provenance.csv`` and ``_pack.csv``.

The pack is untrusted input: its manifest is parsed field by field (``pack.manifest``), every
file it lists is checked against its sha256 and size before anything is written, and every
record is parsed and bounded; a tampered pack is one line and nothing is written. The section
files are read twice through the same open file (the check, then the export) and hashed both
times, so a file changed in between is refused too.

The same pack gives the same bytes on every run: records in the pack's order, columns in the
order the fields first appear, and the SQLite file built with fixed settings (page size,
no journal, no timestamps) into a temporary file and copied into the output whole.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import hashlib
import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, BinaryIO

from wordforge_cli.core import signals
from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.text import shown
from wordforge_cli.io.output import atomic_write, dumps, write_failed
from wordforge_cli.pack.files import open_inside, read_bounded
from wordforge_cli.pack.manifest import Manifest, SectionEntry, read_manifest

FORMATS = ("sqlite", "json", "csv")
EXPORT_FORMAT = "wfkit-pack-export/1"
MAX_RECORD = 1 << 20  # bytes of one record line (a crossword board is ~1 KB)
MAX_COLUMNS = 64  # typed columns a section table gets; further fields stay in ``record``
PAGE_SIZE = 4096
APPLICATION_ID = 0x77666B74  # "wfkt": what `file` and a client can check the database by
USER_VERSION = 1  # the layout of the tables below
INDEXED = ("id", "answer", "word")
RESERVED = frozenset({"position", "record", "rowid", "oid", "_rowid_"})
COLUMN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,62}")
INT64 = (-(2**63), 2**63 - 1)

# a field's values -> the column type (None: the field is no column, it stays in ``record``)
_SQL_TYPE = {"integer": "INTEGER", "real": "REAL", "text": "TEXT", "boolean": "BOOLEAN"}


@dataclass
class Column:
    name: str
    kind: str  # integer, real, text, boolean, or "" once the field is found to be none

    @property
    def sql_type(self) -> str:
        return _SQL_TYPE[self.kind]


@dataclass
class SectionData:
    entry: SectionEntry
    path: Path
    fh: BinaryIO
    size: int
    sha256: str
    columns: list[Column] = field(default_factory=list)


def _value_kind(value: Any) -> str | None:
    """The column type a value fits (None: no column; "null": any column)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer" if INT64[0] <= value <= INT64[1] else None
    if isinstance(value, float):
        return "real"
    if isinstance(value, str):
        return "text"
    return None


def _merge_kind(old: str, new: str | None) -> str:
    if new == "null" or new == old:
        return old
    if new is None or old == "":
        return ""
    if {old, new} == {"integer", "real"}:
        return "real"
    if old == "null":
        return new
    return ""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} is too big for a number")
    return value


def _decode(line: bytes, path: Path, number: int) -> dict[str, Any]:
    try:
        record = json.loads(line.decode("utf-8"), parse_constant=_reject_constant,
                            parse_float=_finite)
    except UnicodeDecodeError as exc:
        raise UsageError(f"not UTF-8 (byte {exc.start})", path=path, line=number) from None
    except (ValueError, RecursionError):
        raise UsageError("not a JSON record", path=path, line=number) from None
    if not isinstance(record, dict):
        raise UsageError("not a JSON object", path=path, line=number)
    return record


def _records(data: SectionData) -> Iterator[dict[str, Any]]:
    """The section file's records from its first byte, hashed on the way: a file whose bytes
    are not the manifest's (now, or since the first read) is refused at its end."""
    fh, path = data.fh, data.path
    fh.seek(0)
    digest = hashlib.sha256()
    left = data.size
    number = 0
    while left > 0:
        line = fh.readline(min(MAX_RECORD + 1, left))
        if not line:
            raise CannotDo("section file shrank while it was read", path=path)
        left -= len(line)
        digest.update(line)
        number += 1
        if len(line) > MAX_RECORD:
            raise UsageError(f"a record longer than {MAX_RECORD:,} bytes", path=path,
                             line=number)
        if line.strip():
            yield _decode(line, path, number)
    if fh.read(1):
        raise CannotDo("section file grew while it was read", path=path)
    if digest.hexdigest() != data.sha256:
        raise CannotDo("section file changed while it was exported", path=path)


def _tampered(path: Path) -> CannotDo:
    return CannotDo("does not match the pack manifest's sha256 and size (changed, truncated "
                    "or replaced): rebuild the pack", path=path)


@contextlib.contextmanager
def verified_pack(directory: Path) -> Iterator[tuple[Manifest, list[SectionData]]]:
    """The pack's manifest and its section files, open, every file the manifest lists checked
    against its sha256 and size, and each section's typed columns found."""
    manifest = read_manifest(directory)
    if manifest is None:
        raise UsageError("not a wfkit pack (no manifest.json)", path=directory)
    if manifest.shard is not None:
        index, count = manifest.shard
        raise UsageError(f"a shard ({index}/{count}) holds part of each section: join the "
                         "shards with 'wfkit pack merge' and export the pack", path=directory)
    files = {entry.path: entry for entry in manifest.files}
    section_files = {s.file for s in manifest.sections}
    with contextlib.ExitStack() as stack:
        for entry in manifest.files:
            if entry.path in section_files:
                continue  # read (and hashed) below, through the file that is exported
            fh, size = open_inside(directory, entry.path, what="pack file")
            with fh:
                if size != entry.bytes:
                    raise _tampered(directory / entry.path)
                digest = read_bounded(fh, size, what="pack file", path=directory / entry.path)
            if digest.hexdigest() != entry.sha256:
                raise _tampered(directory / entry.path)
        sections = []
        for section in manifest.sections:
            listed = files[section.file]
            path = directory / section.file
            fh, size = open_inside(directory, section.file, what="section file")
            stack.enter_context(fh)
            if size != listed.bytes or read_bounded(
                    fh, size, what="section file", path=path).hexdigest() != listed.sha256:
                raise _tampered(path)
            data = SectionData(section, path, fh, size, listed.sha256)
            data.columns = _columns(data)
            sections.append(data)
        yield manifest, sections


def _columns(data: SectionData) -> list[Column]:
    """The typed columns of a section: its top-level fields with one scalar type in every
    record, in the order they first appear (case-insensitively distinct, as SQL names are);
    also checks the record count against the manifest's."""
    found: dict[str, Column] = {}
    count = 0
    for record in _records(data):
        count += 1
        for key, value in record.items():
            column = found.get(key.lower())
            if column is None:
                if len(found) >= 4 * MAX_COLUMNS:
                    continue
                column = found[key.lower()] = Column(key, "null")
                if not COLUMN_NAME.fullmatch(key) or key.lower() in RESERVED:
                    column.kind = ""
            if column.name != key:
                continue  # "ID" beside "id": one SQL name; the first field has it
            column.kind = _merge_kind(column.kind, _value_kind(value))
    if count != data.entry.records:
        raise UsageError(f"holds {count} records; the manifest says {data.entry.records}",
                         path=data.path)
    return [c for c in found.values() if c.kind not in ("", "null")][:MAX_COLUMNS]


def _cell(column: Column, record: dict[str, Any]) -> Any:
    value = record.get(column.name)
    if column.kind == "boolean" and value is not None:
        return int(value)
    return shown(value) if isinstance(value, str) else value


def _csv_cell(column: Column, record: dict[str, Any]) -> str:
    value = record.get(column.name)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value)  # true/false, 12, 4.78: as JSON writes them


def _pack_rows(manifest: Manifest) -> list[tuple[str, Any]]:
    raw = manifest.raw
    return [("format", EXPORT_FORMAT), ("pack_format", manifest.format),
            ("wfkit", manifest.wfkit), ("data_version", raw.get("data_version")),
            ("name", manifest.name), ("description", manifest.description),
            ("seed", manifest.seed), ("config", raw["config"]), ("chunk", manifest.chunk),
            ("manifest", raw)]


def _section_row(data: SectionData) -> dict[str, Any]:
    entry = data.entry
    return {"name": entry.name, "kind": entry.kind, "count": entry.count,
            "records": entry.records, "options": entry.options, "render": list(entry.render),
            "stats": entry.stats, "columns": [c.name for c in data.columns]}


PROVENANCE = ("file", "sha256", "bytes", "source", "license", "provenance", "sections")


def export_pack(directory: Path, fmt: str, output: str) -> list[SectionData]:
    """Export the pack in ``directory`` as ``fmt`` into ``output`` (a file, ``-`` for stdout
    (sqlite and json), or a folder for csv). Nothing is written before the pack is checked."""
    if fmt not in FORMATS:
        raise UsageError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    with verified_pack(directory) as (manifest, sections):
        if fmt == "json":
            with atomic_write(output, binary=True) as fh:
                _write_json(manifest, sections, fh)
        elif fmt == "csv":
            _write_csv(manifest, sections, Path(output))
        else:
            _write_sqlite(manifest, sections, output)
        return sections


def _write_json(manifest: Manifest, sections: list[SectionData], fh: IO[bytes]) -> None:
    pack = {key: value for key, value in _pack_rows(manifest)
            if key not in ("format", "manifest")}
    head = {"format": EXPORT_FORMAT, "pack": pack, "provenance": list(manifest.data)}
    fh.write(dumps(head)[:-1].encode() + b',\n"sections":[')
    for i, data in enumerate(sections):
        row = _section_row(data)
        fh.write((",\n" if i else "\n").encode() + dumps(row)[:-1].encode() + b',"items":[')
        for j, record in enumerate(_records(data)):
            fh.write((",\n" if j else "\n").encode() + dumps(record).encode())
        fh.write(b"\n]}")
    fh.write(b"\n]}\n")


def _csv_file(path: Path, rows: list[list[str]]) -> None:
    with atomic_write(path) as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


def _json_or_text(value: Any) -> str:
    """A value as a cell holds it: text as it is, anything else as its JSON; control
    characters escaped either way (a database's text is shown as every output's is)."""
    return shown(value) if isinstance(value, str) else dumps(value)


def _write_csv(manifest: Manifest, sections: list[SectionData], out: Path) -> None:
    if str(out) == "-":
        raise UsageError("-o: --format csv writes a folder of files, not standard output")
    if out.exists() and not out.is_dir():
        raise UsageError("-o: must be a folder for --format csv (a file is there)", path=out)
    if not out.exists():
        if not out.parent.is_dir():
            raise CannotDo("directory does not exist", path=out.parent)
        try:
            out.mkdir()
        except OSError as exc:
            raise write_failed(exc, out) from None
    for data in sections:
        with atomic_write(out / f"{data.entry.name}.csv") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(["position", *(c.name for c in data.columns), "record"])
            for position, record in enumerate(_records(data)):
                writer.writerow([str(position), *(_csv_cell(c, record) for c in data.columns),
                                 dumps(record)])
    keys = list(_section_row(sections[0])) if sections else ["name"]
    _csv_file(out / "_sections.csv", [["position", *keys]] + [
        [str(i), *(_json_or_text(v) for v in _section_row(data).values())]
        for i, data in enumerate(sections)])
    _csv_file(out / "_provenance.csv", [["position", *PROVENANCE]] + [
        [str(i), *("" if entry[k] is None else _json_or_text(entry[k]) for k in PROVENANCE)]
        for i, entry in enumerate(manifest.data)])
    _csv_file(out / "_pack.csv", [["key", "value"]] + [[k, "" if v is None else _json_or_text(v)]
                                                       for k, v in _pack_rows(manifest)])


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _write_sqlite(manifest: Manifest, sections: list[SectionData], output: str) -> None:
    """The database is built in a temporary file (beside the output; in the temporary folder
    for stdout) with fixed settings, then copied into the output whole."""
    if output == "-":
        directory = Path(tempfile.gettempdir())
        name = "export"
    else:
        real = Path(os.path.realpath(output))
        directory, name = real.parent, real.name
        if not directory.is_dir():
            raise CannotDo("directory does not exist", path=directory)
    with signals.deferred():
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{name[:100]}.", suffix=".sqlite.tmp",
                                       dir=directory)
        except OSError as exc:
            raise write_failed(exc, output) from None
        token = signals.register(functools.partial(_remove, tmp))
    try:
        os.close(fd)
        try:
            _fill(tmp, manifest, sections)
        except sqlite3.Error as exc:
            raise CannotDo(f"cannot write the database: {exc}", path=output) from None
        with open(tmp, "rb") as src, atomic_write(output, binary=True) as fh:
            while block := src.read(1 << 20):
                fh.write(block)
    finally:
        _remove(tmp)
        signals.unregister(token)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def _fill(path: str, manifest: Manifest, sections: list[SectionData]) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in (f"page_size={PAGE_SIZE}", "journal_mode=OFF", "synchronous=OFF",
                       "auto_vacuum=NONE", "temp_store=MEMORY", "encoding='UTF-8'",
                       f"application_id={APPLICATION_ID}", f"user_version={USER_VERSION}"):
            db.execute(f"PRAGMA {pragma}")
        db.execute("BEGIN")
        db.execute('CREATE TABLE "_pack" (key TEXT PRIMARY KEY, value TEXT)')
        db.executemany('INSERT INTO "_pack" VALUES (?, ?)',
                       [(k, None if v is None else _json_or_text(v))
                        for k, v in _pack_rows(manifest)])
        db.execute('CREATE TABLE "_sections" (position INTEGER PRIMARY KEY, name TEXT UNIQUE '
                   'NOT NULL, kind TEXT NOT NULL, count INTEGER, records INTEGER, options TEXT,'
                   ' render TEXT, stats TEXT, columns TEXT)')
        for i, data in enumerate(sections):
            row = _section_row(data)
            db.execute('INSERT INTO "_sections" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
                       (i, row["name"], row["kind"], row["count"], row["records"],
                        dumps(row["options"]), dumps(row["render"]), dumps(row["stats"]),
                        dumps(row["columns"])))
        db.execute('CREATE TABLE "_provenance" (position INTEGER PRIMARY KEY, file TEXT, '
                   'sha256 TEXT, bytes INTEGER, source TEXT, license TEXT, provenance TEXT, '
                   'sections TEXT)')
        db.executemany('INSERT INTO "_provenance" VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
                       [(i, *(shown(v) if isinstance(v, str) else v for v in (
                           e["file"], e["sha256"], e["bytes"], e["source"], e["license"],
                           e["provenance"])), dumps(e["sections"]))
                        for i, e in enumerate(manifest.data)])
        for data in sections:
            _fill_section(db, data)
        db.execute("COMMIT")
    finally:
        db.close()


def _fill_section(db: sqlite3.Connection, data: SectionData) -> None:
    table = _quote(data.entry.name)
    columns = data.columns
    names = ", ".join(f"{_quote(c.name)} {c.sql_type}" for c in columns)
    db.execute(f"CREATE TABLE {table} (position INTEGER PRIMARY KEY, "
               f"{names + ', ' if names else ''}record TEXT NOT NULL)")
    marks = ", ".join("?" * (len(columns) + 2))
    db.executemany(f"INSERT INTO {table} VALUES ({marks})",
                   ((position, *(_cell(c, record) for c in columns), dumps(record))
                    for position, record in enumerate(_records(data))))
    for column in columns:
        if column.name.lower() in INDEXED:
            index = _quote(f"{data.entry.name}.{column.name}")
            db.execute(f"CREATE INDEX {index} ON {table} ({_quote(column.name)})")
