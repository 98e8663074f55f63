"""One table per fact: the blank styles (``crossword/blanks.py``) and the renders
(``render/__init__.py``) are each written once, and everything that names them reads them: the
commands' choices and help, the kinds, the pack's files and manifest checks, the schemas'
enums. The independent checker (``crossword/check.py``) states the rules again on its own, and
is held against the table here. Last, the recipes of docs/architecture.md, done on a scratch
copy of the package: a new style and a new render are each one row.

``python tests/render/test_tables.py`` writes the tables into the schemas' enums (after a
table edit).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema  # a test extra
import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from wordforge_cli import schemas
from wordforge_cli.crossword import check
from wordforge_cli.crossword.blanks import BLANK_STYLES, STYLES, blank
from wordforge_cli.crossword.board import Request, make_board
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.io.vocab import read_vocab
from wordforge_cli.render import FORMATS, renders

# (not conftest's: this file also runs as a script, where the tests folder is not on the path)
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def schema_enums() -> dict[tuple[str, str], list[str]]:
    """Each enum of a shipped schema that a table decides, by (schema, JSON pointer): the blank
    styles, the renders and the pack's kinds (those registered at run time left out)."""
    from wordforge_cli.batch.kinds import KINDS

    section, summary = "/$defs/section/properties", "/$defs/summary/properties"
    return {("crossword-board", "/properties/style/enum"): list(STYLES),
            **{("crossword-stats", f"{summary}/{key}/propertyNames/enum"): list(STYLES)
               for key in ("blank_failure", "unblanked", "ambiguous")},
            ("pack-manifest", f"{section}/kind/enum"):
                [kind for kind, where in KINDS.items() if "<registered>" not in where],
            ("pack-manifest", f"{section}/render/items/enum"): list(FORMATS)}


def _at(doc: dict, pointer: str, value: list[str] | None = None):
    *parents, last = pointer.strip("/").split("/")
    for key in parents:
        doc = doc[key]
    if value is not None:
        doc[last] = value
    return doc[last]


def rewrite_schemas() -> list[str]:
    """Write :func:`schema_enums` into the shipped schemas; the names of those changed."""
    docs: dict[str, dict] = {}
    for (name, pointer), values in schema_enums().items():
        _at(docs.setdefault(name, schemas.load(name)), pointer, values)
    changed = []
    for name, doc in docs.items():
        path = schemas.SCHEMA_DIR / f"{name}.json"
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        if path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(name)
    return changed


def test_every_schema_enum_is_its_table():
    """Regenerate with ``python tests/render/test_tables.py`` when a table changed."""
    for (name, pointer), values in schema_enums().items():
        assert _at(schemas.load(name), pointer) == values, (name, pointer)


def test_the_schema_enums_cover_every_table():
    enums = schema_enums()
    assert enums[("pack-manifest", "/$defs/section/properties/render/items/enum")] == list(FORMATS)
    assert enums[("crossword-board", "/properties/style/enum")] == list(STYLES)


def test_the_checker_knows_every_style_of_the_table_and_agrees_with_it():
    """check.py keeps its own statement of the rules (a bug in one is not hidden by the same
    bug in the other): every style of the table is one it knows, and on real boards each of
    its rules blanks exactly the cells the table's does."""
    assert check.STYLE_NAMES == STYLES
    lex = prepare(read_vocab(EXAMPLES / "tech.yaml"))
    rng = random.Random(7)
    boards = [b for b in (make_board(lex, Request(4, 6), rng) for _ in range(60)) if b]
    assert len(boards) > 40
    for style in BLANK_STYLES:
        for board in boards:
            cells = board.cells
            occupied = {(x, y) for x, y, _c, _n in cells}
            answers = {(x, y) for x, y, _c, n in cells if n >= 0}
            types, count = blank(cells, style)
            for (x, y, _c, n), after in zip(cells, types, strict=True):
                if n == -2:
                    assert (after == -1) == check._style_hides(style, (x, y), occupied,
                                                               answers), (style, x, y)
            assert count == sum(t == -1 for t in types) - sum(c[3] == -1 for c in cells)


def test_every_reader_of_the_render_table(run):
    from wordforge_cli.batch.kinds import get_kind
    from wordforge_cli.batch.runner import render_path
    from wordforge_cli.commands.crossword import RENDERS as CROSSWORD
    from wordforge_cli.commands.kanji import RENDERS as KANJI
    from wordforge_cli.pack.manifest import pack_path_pattern

    assert ("json", *renders("crossword")) == CROSSWORD
    assert ("json", *renders("kanji")) == KANJI
    for kind, engine in (("crossword", "crossword"), ("endless", "crossword"),
                         ("challenge", "crossword"), ("kanji", "kanji")):
        assert get_kind(kind).renders == renders(engine)
    for engine in ("crossword", "kanji"):
        help_text = run(engine, "--help").stdout
        for fmt in renders(engine):
            assert f"{fmt}: {FORMATS[fmt].draws[engine][1][:20]}" in " ".join(help_text.split())

    class Named:
        name = "boards"

    for fmt in FORMATS.values():
        path = render_path(Named(), fmt.name, 17)  # type: ignore[arg-type]
        assert path == f"boards/000017.{fmt.suffix}"
        assert pack_path_pattern(["boards"]).fullmatch(path)


# ---- the recipes, on a scratch copy of the package -----------------------------------------

NEW_STYLE = '''    Style("all", "ぜんぶかくし", "all hidden", "every given cell",
          lambda m: m.given),
)}'''
NEW_RENDER = '''    Format("answer", "ans", {"crossword": (
        lambda record, look: record["answer"] + "\\n", "the answer alone")}),
)}'''
PACK = """\
name: recipe
seed: 3
sections:
  - {name: boards, kind: crossword, vocab: VOCAB/tech.yaml, count: 4, style: all,
     render: [answer, sheet], render_limit: 2}
"""


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name}: the table's last row no longer ends in {old!r}"
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX only, as wfkit is")
def test_a_new_style_and_a_new_render_are_each_one_row(tmp_path):
    scratch = tmp_path / "tree"
    shutil.copytree(ROOT / "wordforge_cli", scratch / "wordforge_cli",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("data", "configs"):
        (scratch / folder).symlink_to(ROOT / folder)
    package = scratch / "wordforge_cli"
    _edit(package / "crossword" / "blanks.py", "\n)}", "\n" + NEW_STYLE)
    _edit(package / "render" / "__init__.py", "\n)}", "\n" + NEW_RENDER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(scratch), str(ROOT)))}

    def wfkit(*args: object, script: Path | None = None) -> subprocess.CompletedProcess[str]:
        argv = [script] if script else ["-m", "wordforge_cli", *map(str, args)]
        done = subprocess.run([sys.executable, *argv], cwd=tmp_path, env=env, text=True,
                              capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done

    # the generated part of the recipe: the schemas' enums follow the tables
    assert "pack-manifest" in wfkit(script=Path(__file__)).stdout
    help_text = " ".join(wfkit("crossword", "--help").stdout.split())
    assert "[none|tail|head|alt|most|all]" in help_text
    assert "all (all hidden) every given cell" in help_text
    assert "|sheet|answer]" in help_text and "answer: the answer alone" in help_text

    boards = [json.loads(line) for line in
              wfkit("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", 3, "--style", "all",
                    "--seed", 1).stdout.splitlines()]
    assert all(b["style"] == "all" and b["label"] == "ぜんぶかくし" for b in boards)
    assert all(c["n"] != -2 for b in boards for c in b["cells"])  # every given cell hidden
    assert wfkit("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", 2, "--render",
                 "answer", "--seed", 1).stdout.split() == [b["answer"] for b in boards[:2]]

    config = tmp_path / "pack.yaml"
    config.write_text(PACK.replace("VOCAB", str(EXAMPLES)), encoding="utf-8")
    wfkit("pack", "build", config, "--out", tmp_path / "pack")
    wfkit("pack", "check", config, "--out", tmp_path / "pack")
    out = tmp_path / "pack"
    assert (out / "boards" / "000000.ans").read_text(encoding="utf-8").strip()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    records = [json.loads(line) for line in (out / "boards.jsonl").read_text().splitlines()]

    # the scratch copy's own schemas, regenerated: the new names are valid there
    found = [json.loads(p.read_text(encoding="utf-8"))
             for p in (package / "schemas").glob("*.json")]
    registry: Registry = Registry().with_resources(
        (doc["$id"], DRAFT202012.create_resource(doc)) for doc in found)
    by_id = {doc["$id"].rsplit("/", 1)[-1]: doc for doc in found}
    jsonschema.Draft202012Validator(by_id["pack-manifest.json"],
                                    registry=registry).validate(manifest)
    for rec in records:
        jsonschema.Draft202012Validator(by_id["crossword-board.json"],
                                        registry=registry).validate(rec)
    # the checker was not told: it refuses the new style until its own rule is written
    assert any("unknown style 'all'" in e for e in check.check_record(records[0]))


if __name__ == "__main__":
    print(f"schemas: {', '.join(rewrite_schemas()) or 'already current'}")
