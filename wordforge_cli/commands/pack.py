"""``wfkit pack``: build, check, merge and preview reproducible puzzle packs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import click

from wordforge_cli.core.errors import EXIT_CANNOT, CannotDo, one_line, show_path
from wordforge_cli.core.messages import echo, quiet, say, warn
from wordforge_cli.io.output import atomic_write, dumps
from wordforge_cli.options.command import group
from wordforge_cli.options.shared import REQUIRE_ALL, jobs_option, quiet_option

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import Section
    from wordforge_cli.pack.build import PackResult
    from wordforge_cli.pack.config import PackConfig


def _shard(ctx: click.Context, param: click.Parameter,
           value: str | None) -> tuple[int, int] | None:
    if value is None:
        return None
    match = re.fullmatch(r"\s*(\d{1,7})\s*/\s*(\d{1,7})\s*", value)
    if not match or not 1 <= int(match[1]) <= int(match[2]) <= 10**6:
        raise click.BadParameter(f"'{value}' is not I/N with 1 <= I <= N (e.g. 2/3)")
    return int(match[1]), int(match[2])


config_argument = click.argument("config", type=click.Path(dir_okay=False))
out_option = click.option("--out", "out", type=click.Path(file_okay=False), required=True,
                          help="The pack directory.")
shard_option = click.option("--shard", callback=_shard, metavar="I/N",
                            help="Build only slice I of N of every section (a CI matrix of N "
                                 "machines); join the slices with 'wfkit pack merge'.")


def _prepare(config_path: str) -> tuple[PackConfig, list[Section]]:
    from wordforge_cli.pack.config import load_pack_config, prepare_sections

    config = load_pack_config(config_path)
    return config, prepare_sections(config)


@group()
def pack() -> None:
    """Reproducible puzzle packs: one config, one directory of JSON Lines, renders and a
    manifest; the same bytes on every machine whatever --jobs or --shard.

    \b
    Examples:
      wfkit pack build examples/pack.yaml --out pack/
      wfkit pack check examples/pack.yaml --out pack/      # exit 1 when pack/ is stale
      wfkit pack build examples/pack.yaml --out s1/ --shard 1/2
      wfkit pack build examples/pack.yaml --out s2/ --shard 2/2
      wfkit pack merge examples/pack.yaml s1/ s2/ --out pack/
      wfkit pack preview pack/ -o preview.html
      wfkit pack export pack/ --format sqlite -o pack.sqlite
    """


@pack.command()
@config_argument
@out_option
@jobs_option
@shard_option
@click.option("--force", is_flag=True,
              help="Build into a non-empty directory that is not a pack (its files are kept).")
@click.option("--json", "as_json", is_flag=True, help="Print the sections' summary as JSON.")
@REQUIRE_ALL.option()
@quiet_option
def build(config: str, out: str, jobs: int, shard: tuple[int, int] | None, force: bool,
          as_json: bool, require_all: bool) -> None:
    """Build the pack CONFIG describes into --out DIR.

    Every file is written under a temporary name and the whole pack is swapped into DIR at
    once, the manifest last: a build killed at any moment leaves the previous pack or the new
    one. Nothing is written until the whole config has been checked.

    \b
    Example:
      wfkit pack build examples/pack.yaml --out pack/ --jobs 2
    """
    from wordforge_cli.pack.build import MissingItems, build_pack

    cfg, sections = _prepare(config)
    for section in sections if require_all else ():
        section.require_all = True
    try:
        result = build_pack(cfg, sections, out, jobs=jobs, shard=shard, force=force)
    except MissingItems as exc:
        _failures(exc.failures)
        raise
    _report_build(result, out, as_json)
    _failures(result.failures)
    for path in result.unexpected:
        warn(f"left {path} aside (a file of yours that could not be put back without "
             "overwriting)")


def _failures(failures: list[tuple[str, str]]) -> None:
    """One line per missing board or pool (quiet or not): its section and why."""
    for section, reason in failures:
        say(f"{section}: {reason}")


def _report_build(result: PackResult, out: str, as_json: bool) -> None:
    manifest = result.manifest
    if as_json:
        for entry in manifest["sections"]:
            echo(dumps({"section": entry["name"], "kind": entry["kind"],
                              "file": entry["file"], "count": entry["count"],
                              "records": entry["records"], "stats": entry["stats"]}))
        return
    if quiet():
        return
    shard = manifest.get("shard")
    part = f" (shard {shard['index']}/{shard['count']})" if shard else ""
    for entry in manifest["sections"]:
        echo(f"{entry['name']:<24} {entry['kind']:<10} {entry['records']:>10} records"
                   f"  -> {entry['file']}")
    echo(f"pack '{manifest['name']}'{part}: {len(manifest['sections'])} sections, "
               f"{len(result.files)} files -> {out}")


@pack.command(short_help="Exit 1 listing what differs when DIR is not what a build makes.")
@config_argument
@out_option
@jobs_option
@shard_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@quiet_option
def check(config: str, out: str, jobs: int, shard: tuple[int, int] | None,
          as_json: bool) -> None:
    """Exit 0 when --out DIR holds exactly what a build would write; 1 listing the stale,
    missing and unexpected files and what differs (the black --check of puzzle packs).

    Nothing is written. Hidden files (.gitkeep, .gitattributes) are not pack files.

    \b
    Example (CI):
      wfkit pack check examples/pack.yaml --out pack/ || exit 1
    """
    from wordforge_cli.pack.build import check_pack

    cfg, sections = _prepare(config)
    if not Path(out).is_dir():  # one line, not a "missing:" line per file
        what = "not a directory" if Path(out).exists() else "no such directory"
        raise CannotDo(f"no pack there ({what}); build it with: wfkit pack build {config} "
                       f"--out {out}", path=out)
    result = check_pack(cfg, sections, out, jobs=jobs, shard=shard)
    problems = [f for f in result.files if f.status != "current"]
    if as_json:
        echo(dumps({
            "current": result.current,
            "stale": [{"path": f.path, "detail": f.detail} for f in problems
                      if f.status == "stale"],
            "missing": [f.path for f in problems if f.status == "missing"],
            "unexpected": result.unexpected,
        }))
    else:
        for f in problems:
            detail = f" ({f.detail})" if f.status == "stale" else ""
            echo(one_line(f"{f.status}: {out.rstrip('/')}/{f.path}{detail}"))
        for path in result.unexpected:  # names a stranger chose: shown escaped, one line each
            echo(one_line(f"unexpected: {out.rstrip('/')}/{path}"))
        if quiet():
            pass
        elif result.current:
            say(f"{out}: pack is current ({len(result.files)} files)")
        else:
            n = len(problems) + len(result.unexpected)
            say(f"{out}: pack is stale ({n} file{' differs' if n == 1 else 's differ'}); "
                f"rebuild with: wfkit pack build {show_path(config)} --out {show_path(out)}")
    if not result.current:
        raise SystemExit(EXIT_CANNOT)


@pack.command(short_help="Join shard outputs into exactly the bytes of a single build.")
@config_argument
@click.argument("shards", nargs=-1, required=True, type=click.Path(file_okay=False))
@out_option
@click.option("--force", is_flag=True,
              help="Write into a non-empty directory that is not a pack (its files are kept).")
@click.option("--json", "as_json", is_flag=True, help="Print the sections' summary as JSON.")
@quiet_option
def merge(config: str, shards: tuple[str, ...], out: str, force: bool, as_json: bool) -> None:
    """Join the outputs of 'pack build --shard I/N' (all N of them) into --out DIR: exactly the
    bytes a single build writes. Every shard file is checked against its manifest.

    \b
    Example:
      wfkit pack merge examples/pack.yaml s1/ s2/ --out pack/
    """
    from wordforge_cli.pack.merge import merge_pack

    cfg, sections = _prepare(config)
    result = merge_pack(cfg, sections, [Path(s) for s in shards], out, force=force)
    _report_build(result, out, as_json)


@pack.command(short_help="Write one self-contained HTML page showing a pack.")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), default=None,
              help="Write the page to FILE (atomically) instead of stdout.")
@click.option("--items", type=click.IntRange(0, 200), default=6, show_default=True,
              help="Boards or pools pictured per section.")
@quiet_option
def preview(directory: str, output: str | None, items: int) -> None:
    """Write one self-contained HTML page (no network: inline SVG and CSS) that shows a pack:
    crossword and kanji boards as pictures, the rarity tier histogram, each section's
    statistics and the manifest.

    \b
    Example:
      wfkit pack preview pack/ -o preview.html
    """
    from wordforge_cli.pack.preview import preview_page

    page = preview_page(Path(directory), items=items)
    with atomic_write(output) as fh:
        fh.write(page)


@pack.command(short_help="Export a pack as SQLite, one JSON document or CSV files for a game.")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--format", "fmt", type=click.Choice(("sqlite", "json", "csv")), required=True,
              help="sqlite: one database file; json: one JSON document; csv: a folder of "
                   "CSV files, one per section.")
@click.option("-o", "--output", required=True, type=click.Path(allow_dash=True),
              help="The file to write (atomically; - for stdout), a folder for csv.")
@quiet_option
def export(directory: str, fmt: str, output: str) -> None:
    """Export the pack in DIRECTORY into one file a game engine loads directly. The pack is
    checked first (its manifest field by field, every file against the manifest's sha256):
    a pack changed by hand is refused and nothing is written. The same pack gives the same
    bytes on every run (SQLite: with the same SQLite library).

    SQLite: one table per section, named as the section ("tech-boards"), with position
    (from 0), a typed column for each top-level field that is a number, text or true/false
    in every record (id, answer, w, h, style, label, word, rarity...) and record, the whole
    record as JSON; indexes on id, answer and word. Table _pack (key, value) holds the
    manifest, _sections each section's kind, counts, options and stats, _provenance the
    data files and their licences.

    JSON: one document {"format", "pack", "provenance", "sections": [{"name", "kind",
    "count", "records", "options", "render", "stats", "columns", "items": [...]}]}, one
    record a line.

    CSV: a folder of SECTION.csv (position, the typed columns, record), _sections.csv,
    _provenance.csv and _pack.csv; UTF-8, a header row, LF line ends.

    \b
    Reading it in a game:
      Unity (C#, sqlite-net): new SQLiteConnection(path).Query<Board>(
        "SELECT id, answer, record FROM [tech-boards] WHERE id = ?", 3);
        or Newtonsoft.Json on the JSON document from StreamingAssets.
      Godot (GDScript, godot-sqlite addon): db.query("SELECT record FROM
        [tech-boards]"); or JSON.parse_string(FileAccess.get_file_as_string(
        "res://pack.json"))["sections"]; CSV: FileAccess.get_csv_line().
      Web (sql.js): new SQL.Database(new Uint8Array(await (await
        fetch("pack.sqlite")).arrayBuffer())); or (await fetch("pack.json")).json().
      JSON.parse(record) gives a record exactly as the pack holds it.

    \b
    Examples:
      wfkit pack export pack/ --format sqlite -o pack.sqlite
      wfkit pack export pack/ --format json -o pack.json
      wfkit pack export pack/ --format csv -o pack-csv
    """
    from wordforge_cli.pack.export import export_pack

    sections = export_pack(Path(directory), fmt, output)
    if not quiet() and output != "-":
        records = sum(s.entry.records for s in sections)
        say(f"{directory}: {len(sections)} sections, {records} records -> {output} ({fmt})")
