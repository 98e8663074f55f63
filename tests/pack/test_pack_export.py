"""``wfkit pack export``: every record of a pack read back from SQLite (through the standard
library's sqlite3), the JSON document and the CSV files equals the pack's own; the same bytes
on every run; a pack changed by hand is refused with one line and nothing written."""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from test_pack_engines import SMALL, small_pack
from wordforge_tables import write_table

BALANCE = SMALL + """\
  - name: games
    kind: balance
    count: 6
    data: english.tsv
    players: [B1, C2]
    turns: 4
"""


@pytest.fixture(scope="module")
def pack(tmp_path_factory) -> Path:
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("export")
    config = small_pack(tmp, BALANCE)
    write_table(tmp)
    out = tmp / "pack"
    result = CliRunner().invoke(cli, ["pack", "build", str(config), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def manifest_of(pack: Path) -> dict:
    return json.loads((pack / "manifest.json").read_text(encoding="utf-8"))


def records_of(pack: Path) -> dict[str, list[dict]]:
    return {s["name"]: [json.loads(line) for line in
                        (pack / s["file"]).read_text(encoding="utf-8").splitlines()]
            for s in manifest_of(pack)["sections"]}


def scalar_columns(records: list[dict]) -> list[str]:
    """The fields the export must give a typed column: one scalar type in every record."""
    kinds: dict[str, set[str]] = {}
    for record in records:
        for key, value in record.items():
            kind = ("null" if value is None else "bool" if isinstance(value, bool) else
                    "num" if isinstance(value, int | float) else
                    "str" if isinstance(value, str) else "other")
            kinds.setdefault(key, set()).add(kind)
    return [k for k, v in kinds.items()
            if v - {"null"} and len(v - {"null"}) == 1 and "other" not in v]


def test_sqlite_holds_every_record_with_typed_columns(pack, tmp_path, run):
    out = tmp_path / "pack.sqlite"
    result = run("pack", "export", pack, "--format", "sqlite", "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stdout == "" and "records ->" in result.stderr
    expected = records_of(pack)
    assert "games" in expected and expected["games"]  # a balance section's records too
    db = sqlite3.connect(out)
    assert db.execute("PRAGMA application_id").fetchone()[0] == 0x77666B74
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == set(expected) | {"_pack", "_sections", "_provenance"}
    for name, records in expected.items():
        info = db.execute(f'PRAGMA table_info("{name}")').fetchall()
        columns = [row[1] for row in info]
        assert columns == ["position", *scalar_columns(records), "record"], name
        rows = db.execute(f'SELECT * FROM "{name}" ORDER BY position').fetchall()
        assert len(rows) == len(records)
        for position, (row, record) in enumerate(zip(rows, records, strict=True)):
            assert row[0] == position
            assert json.loads(row[-1]) == record
            for column, value in zip(columns[1:-1], row[1:-1], strict=True):
                want = record.get(column)
                assert value == (int(want) if isinstance(want, bool) else want), (name, column)
        indexed = {row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name=?", (name,))}
        for column in ("id", "answer", "word"):
            assert (f"{name}.{column}" in indexed) == (column in columns)
    manifest = manifest_of(pack)
    meta = dict(db.execute('SELECT key, value FROM "_pack"').fetchall())
    assert json.loads(meta["manifest"]) == manifest
    assert meta["name"] == manifest["name"] and json.loads(meta["seed"]) == manifest["seed"]
    sections = db.execute('SELECT name, kind, records, stats FROM "_sections" '
                          "ORDER BY position").fetchall()
    assert [(n, k, r, json.loads(s)) for n, k, r, s in sections] == [
        (s["name"], s["kind"], s["records"], s["stats"]) for s in manifest["sections"]]
    provenance = db.execute('SELECT file, sha256, license FROM "_provenance" '
                            "ORDER BY position").fetchall()
    assert provenance == [(d["file"], d["sha256"], d["license"]) for d in manifest["data"]]
    # what a client asks: a board by its id, by its answer
    board = db.execute('SELECT answer, record FROM "boards" WHERE id = 7').fetchone()
    assert board[0] == expected["boards"][7]["answer"]
    db.close()


def test_json_is_one_document_with_every_record(pack, tmp_path, run):
    out = tmp_path / "pack.json"
    assert run("pack", "export", pack, "--format", "json", "-o", out).exit_code == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    manifest = manifest_of(pack)
    assert document["format"] == "wfkit-pack-export/1"
    assert document["pack"]["name"] == manifest["name"]
    assert document["pack"]["seed"] == manifest["seed"]
    assert document["provenance"] == manifest["data"]
    expected = records_of(pack)
    assert [s["name"] for s in document["sections"]] == list(expected)
    for section, entry in zip(document["sections"], manifest["sections"], strict=True):
        assert section["items"] == expected[section["name"]]
        assert (section["kind"], section["records"], section["stats"]) == (
            entry["kind"], entry["records"], entry["stats"])
    stdout = run("pack", "export", pack, "--format", "json", "-o", "-")
    assert stdout.exit_code == 0 and stdout.stdout_bytes == out.read_bytes()


def test_csv_is_a_folder_of_one_file_per_section(pack, tmp_path, run):
    out = tmp_path / "csv"
    assert run("pack", "export", pack, "--format", "csv", "-o", out).exit_code == 0
    expected = records_of(pack)
    assert {p.name for p in out.iterdir()} == {f"{n}.csv" for n in expected} | {
        "_pack.csv", "_sections.csv", "_provenance.csv"}
    for name, records in expected.items():
        with open(out / f"{name}.csv", newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert len(rows) == len(records)
        columns = scalar_columns(records)
        assert list(rows[0]) == ["position", *columns, "record"]
        for position, (row, record) in enumerate(zip(rows, records, strict=True)):
            assert int(row["position"]) == position
            assert json.loads(row["record"]) == record
            for column in columns:
                value = record.get(column)
                shown = ("" if value is None else value if isinstance(value, str)
                         else json.dumps(value))
                assert row[column] == shown, (name, column)
    with open(out / "_sections.csv", newline="", encoding="utf-8") as fh:
        sections = list(csv.DictReader(fh))
    assert [(s["name"], int(s["records"])) for s in sections] == [
        (s["name"], s["records"]) for s in manifest_of(pack)["sections"]]


@pytest.mark.parametrize("fmt", ["sqlite", "json", "csv"])
def test_the_same_bytes_on_every_run(pack, tmp_path, run, fmt):
    def digest(path: Path) -> str:
        if path.is_dir():
            return hashlib.sha256(b"".join(p.name.encode() + p.read_bytes()
                                           for p in sorted(path.iterdir()))).hexdigest()
        return hashlib.sha256(path.read_bytes()).hexdigest()

    first, second = tmp_path / "a", tmp_path / "b"
    assert run("pack", "export", pack, "--format", fmt, "-o", first).exit_code == 0
    assert run("pack", "export", pack, "--format", fmt, "-o", second, "-q").exit_code == 0
    assert digest(first) == digest(second)


def copy_of(pack: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(pack, copy)
    return copy


def relist(pack: Path, relpath: str) -> None:
    """Make the manifest agree with the bytes of ``relpath`` again (a forged pack)."""
    manifest = manifest_of(pack)
    data = (pack / relpath).read_bytes()
    for entry in manifest["files"]:
        if entry["path"] == relpath:
            entry.update(sha256=hashlib.sha256(data).hexdigest(), bytes=len(data),
                         lines=data.count(b"\n"))
    (pack / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("relpath", ["boards.jsonl", "boards/000001.svg", "words.jsonl"])
def test_a_tampered_pack_is_refused_and_nothing_written(pack, tmp_path, run, relpath):
    copy = copy_of(pack, tmp_path)
    data = bytearray((copy / relpath).read_bytes())
    data[len(data) // 2] ^= 1  # one byte, same size
    (copy / relpath).write_bytes(bytes(data))
    out = tmp_path / "out.sqlite"
    result = run("pack", "export", copy, "--format", "sqlite", "-o", out)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and relpath in result.stderr
    assert "does not match the pack manifest's sha256" in result.stderr
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["copy"]


def test_a_forged_record_is_one_line_with_its_file_and_line(pack, tmp_path, run):
    copy = copy_of(pack, tmp_path)
    lines = (copy / "words.jsonl").read_bytes().splitlines(keepends=True)
    lines[2] = b'{"word": NaN}\n'
    (copy / "words.jsonl").write_bytes(b"".join(lines))
    relist(copy, "words.jsonl")
    result = run("pack", "export", copy, "--format", "json", "-o", tmp_path / "x.json")
    assert result.exit_code == 2
    assert result.stderr.strip().endswith("words.jsonl:3: not a JSON record")
    assert not (tmp_path / "x.json").exists()


def test_forged_field_names_stay_in_the_record(pack, tmp_path, run):
    copy = copy_of(pack, tmp_path)
    records = ['{"id":0,"a\\"b":1,"ID":2,"record":3,"big":99999999999999999999999,'
               '"x y":4,"mixed":1}', '{"id":1,"mixed":"one","big":1}']
    (copy / "words.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    manifest = manifest_of(copy)
    for entry in manifest["sections"]:
        if entry["name"] == "words":
            entry["records"] = 2
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    relist(copy, "words.jsonl")
    out = tmp_path / "x.sqlite"
    result = run("pack", "export", copy, "--format", "sqlite", "-o", out)
    assert result.exit_code == 0, result.stderr
    db = sqlite3.connect(out)
    columns = [row[1] for row in db.execute('PRAGMA table_info("words")')]
    assert columns == ["position", "id", "record"]
    assert [json.loads(r[0]) for r in db.execute('SELECT record FROM "words"')] == [
        json.loads(r) for r in records]
    db.close()


def test_not_a_pack_a_shard_and_a_wrong_count(pack, tmp_path, run):
    result = run("pack", "export", tmp_path, "--format", "json", "-o", tmp_path / "x.json")
    assert result.exit_code == 2 and "not a wfkit pack" in result.stderr
    copy = copy_of(pack, tmp_path)
    manifest = manifest_of(copy)
    manifest["sections"][0]["records"] += 1
    (copy / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = run("pack", "export", copy, "--format", "json", "-o", tmp_path / "x.json")
    assert result.exit_code == 2 and "the manifest says" in result.stderr
    assert not (tmp_path / "x.json").exists()


def test_a_shard_is_refused(tmp_path, run):
    config = small_pack(tmp_path, SMALL)
    out = tmp_path / "s1"
    assert run("pack", "build", config, "--out", out, "--shard", "1/2").exit_code == 0
    result = run("pack", "export", out, "--format", "sqlite", "-o", tmp_path / "x.sqlite")
    assert result.exit_code == 2 and "wfkit pack merge" in result.stderr


def test_csv_cannot_go_to_stdout(pack, run):
    result = run("pack", "export", pack, "--format", "csv", "-o", "-")
    assert result.exit_code == 2 and "a folder of files" in result.stderr
