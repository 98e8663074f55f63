"""Every record kind wfkit writes validates against its shipped JSON Schema (real output).

The schemas are strict (no unknown field, every field required unless it is optional by
design), so a record that gains, loses or retypes a field fails here until its schema file
under wordforge_cli/schemas/ says so too.
"""

from __future__ import annotations

import json

import jsonschema  # a test extra
import pytest
from conftest import CONFIGS, EXAMPLES, schema_registry
from refusals import Refusal, check

from wordforge_cli import schemas
from wordforge_cli.render import renders

REGISTRY = schema_registry()


def validator(name: str):
    return jsonschema.Draft202012Validator(schemas.load(name), registry=REGISTRY,
                                           format_checker=jsonschema.FormatChecker())


def assert_valid(name: str, records: list, where: str) -> None:
    """Every record valid, or one message that tells the developer what to change."""
    assert records, f"{where}: no records to validate"
    check = validator(name)
    for number, record in enumerate(records, start=1):
        errors = sorted(check.iter_errors(record), key=lambda e: list(e.absolute_path))
        if errors:
            detail = "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or '(top)'}: "
                               f"{e.message[:300]}" for e in errors[:5])
            pytest.fail(f"{where}, record {number} does not match wordforge_cli/schemas/"
                        f"{name}.json: {detail}. If the record changed on purpose, update the "
                        "schema file (fields, types, required, descriptions) in the same commit.")


def lines(text: str) -> list:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def ok(result):
    assert result.exit_code == 0, result.output + (result.stderr or "")
    return result


COVERED: set[str] = {"balance-game"}  # its real records: tests/pack/test_balance_game_schema.py


def covers(*names):
    def mark(test):
        COVERED.update(names)
        return test
    return mark


def test_every_schema_is_a_valid_2020_12_schema():
    assert schemas.names(), "no schemas shipped"
    for name in schemas.names():
        schema = schemas.load(name)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        assert schema["$id"] == f"{schemas.BASE_URI}{name}.json", name
        assert schema.get("title") and schema.get("description"), name


def test_every_object_is_closed():
    """additionalProperties false (or unevaluatedProperties false) wherever fields are listed."""
    def walk(node, where):
        if isinstance(node, dict):
            if "properties" in node and "$ref" not in node:
                closed = (node.get("additionalProperties") is False
                          or node.get("unevaluatedProperties") is False
                          or where.endswith(("figures", "$defs/report")))  # closed by
                # their users (kanji-stats, balance)
                assert closed, f"{where}: an object schema open to unknown fields"
            for key, value in node.items():
                if key not in ("if", "then"):  # conditions and what they add are partial
                    walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")
    for name in schemas.names():
        walk(schemas.load(name), name)


@covers("crossword-board", "crossword-stats")
def test_crossword_boards_and_stats(run, tmp_path):
    stats = tmp_path / "stats.json"
    out = ok(run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "40", "--seed", "1",
                 "--style", "tail", "--json", "--stats", stats))
    assert_valid("crossword-board", lines(out.stdout), "wfkit crossword --json")
    assert_valid("crossword-stats", [json.loads(stats.read_text())], "crossword --stats")
    out = ok(run("crossword", "--vocab", EXAMPLES / "animals-en.yaml", "-n", "5", "--seed", "2",
                 "--layout", "strict", "--unique", "--style", "alt", "--json", "--stats", stats))
    assert_valid("crossword-board", lines(out.stdout), "wfkit crossword --unique --json")
    record = json.loads(stats.read_text())
    assert "ambiguous" in record["stats"]
    assert_valid("crossword-stats", [record], "crossword --unique --stats")
    out = ok(run("crossword", "endless", "--vocab", EXAMPLES / "tech.yaml", "--count", "12",
                 "--seed", "1", "--json"))
    assert_valid("crossword-board", lines(out.stdout), "wfkit crossword endless --json")
    out = ok(run("crossword", "challenge", "--vocab", EXAMPLES / "animals-en.yaml", "--count",
                 "1", "--seed", "1", "--json"))
    assert_valid("crossword-board", lines(out.stdout), "wfkit crossword challenge --json")


@covers("kanji-pool", "kanji-stats", "kanji-check")
def test_kanji_pools_stats_and_check(run, tmp_path):
    stats, pools = tmp_path / "stats.json", tmp_path / "pools.jsonl"
    ok(run("kanji", "-n", "8", "--seed", "1", "-o", pools, "--stats", stats))
    records = lines(pools.read_text(encoding="utf-8"))
    assert_valid("kanji-pool", records, "wfkit kanji")
    assert_valid("kanji-stats", [json.loads(stats.read_text(encoding="utf-8"))["stats"]],
                 "kanji --stats")
    played, played_stats = tmp_path / "played.jsonl", tmp_path / "played.json"
    ok(run("kanji", "-n", "3", "--preset", "normal", "--balanced", "--balance-attempts", "100",
           "--player", "lookahead", "--player", "greedy", "--seed", "1", "-o", played,
           "--stats", played_stats))
    played_records = lines(played.read_text(encoding="utf-8"))
    assert all("fresh" in r["balance"] for r in played_records)
    assert_valid("kanji-pool", played_records, "wfkit kanji --balanced")
    summary = json.loads(played_stats.read_text(encoding="utf-8"))["stats"]
    assert {"intervals", "ended", "models", "fresh"} <= set(summary["balance"])
    assert_valid("kanji-stats", [summary], "kanji --balanced --stats")
    word = records[0]["words"][0]
    verdicts = [json.loads(run("kanji", "check", word, "--pool", pools, "--json").stdout)]
    verdicts += [json.loads(run("kanji", "check", word, "--pool", pools, "--taken", word,
                                "--json").stdout)]  # nothing left to claim: refused
    assert {v["ok"] for v in verdicts} == {True, False}
    assert_valid("kanji-check", verdicts, "wfkit kanji check --json")


@covers("balance")
def test_balance_reports(run):
    one = json.loads(ok(run("balance", "-n", "2", "--turns", "3", "--seed", "1",
                            "--json")).stdout)
    two = json.loads(ok(run("balance", "-n", "2", "--turns", "3", "--seed", "1", "--player",
                            "B1", "--player", "C2", "--compare", CONFIGS / "rarity.yaml",
                            "--json")).stdout)
    rr = json.loads(ok(run("balance", "-n", "2", "--turns", "2", "--seed", "1", "--player",
                           "B1", "--player", "C2", "--round-robin", "--json")).stdout)
    assert "reports" in two and "reports" not in one
    assert one["models"] is None and set(two["reports"][0]["models"]) == {"B1", "C2"}
    assert_valid("balance", [one, two, rr], "wfkit balance --json")


@covers("kanji-sweep")
def test_kanji_sweep(run):
    out = ok(run("kanji", "-n", "3", "--preset", "normal", "--balanced", "--seed", "1",
                 "--sweep", "limit=0,30", "--json", "-q"))
    assert_valid("kanji-sweep", [json.loads(out.stdout)], "wfkit kanji --sweep --json")


@covers("kanji-play")
def test_kanji_play_moves_and_result(run):
    pool = EXAMPLES / "weather-pool.jsonl"
    records = []
    for players in ((), ("--player", "lookahead", "--player", "greedy@3"),
                    ("--limit", "3")):
        records += lines(ok(run("kanji", "play", "--pool", pool, "--seed", "1", *players,
                                "--json")).stdout)
    assert {r.get("ended") for r in records} >= {"move limit"}
    assert_valid("kanji-play", records, "wfkit kanji play --json")


@covers("rarity-row", "rarity-compare", "rarity-stats")
def test_rarity_rows_and_compare(run, tmp_path):
    out = ok(run("rarity", "cat", "cats", "labyrinth", "quaff", "zzxq", "--json"))
    assert_valid("rarity-row", lines(out.stdout), "wfkit rarity --json")
    out = ok(run("rarity", "--vocab", EXAMPLES / "words.yaml", "--cefr",
                 EXAMPLES / "article-cefr.yaml", "--overrides", EXAMPLES / "article-overrides.yaml",
                 "--render", "json"))
    rows = lines(out.stdout)
    assert {r["source"] for r in rows} == {"override", "cefr", "zipf"}
    stats = tmp_path / "stats.json"
    ok(run("rarity", "--vocab", EXAMPLES / "words.yaml", "--json", "-o", tmp_path / "w.jsonl",
           "--stats", stats))
    assert_valid("rarity-stats", [json.loads(stats.read_text())["stats"]],
                 "wfkit rarity --stats")
    assert_valid("rarity-row", rows, "wfkit rarity --vocab --render json")
    other = tmp_path / "other.yaml"
    text = (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")
    other.write_text(text.replace("    rare: 2.5", "    rare: 3.9"), encoding="utf-8")
    assert other.read_text(encoding="utf-8") != text, "the re-tune must change something"
    out = ok(run("rarity", "--vocab", EXAMPLES / "words.yaml", "--compare", other, "--json"))
    assert_valid("rarity-compare", lines(out.stdout), "wfkit rarity --compare --json")


@covers("stats-file")
def test_every_engine_writes_one_stats_file_shape(run, tmp_path):
    """The stats file of every engine (and its forms: crossword's three, kanji's self-play)
    is one shape, its request the section's options with the seed."""
    vocab = EXAMPLES / "tech.yaml"
    runs = {"crossword": ("crossword", "--vocab", vocab, "-n", "3", "--seed", "1"),
            "endless": ("crossword", "endless", "--vocab", vocab, "--count", "3", "--seed", "1"),
            "challenge": ("crossword", "challenge", "--vocab", vocab, "--seed", "1",
                          "--difficulty"),
            "kanji": ("kanji", "-n", "3", "--seed", "1"),
            "self-play": ("kanji", "-n", "2", "--seed", "1", "--self-play", "--games", "2"),
            "rarity": ("rarity", "--vocab", EXAMPLES / "words.yaml"),
            "words": ("rarity", "cat", "labyrinth"),
            "tiles": ("tiles", "-n", "3", "--seed", "1")}
    files = []
    for name, argv in runs.items():
        stats = tmp_path / f"{name}.json"
        ok(run(*argv, "--stats", stats))
        text = stats.read_text(encoding="utf-8")
        assert text.count("\n") == 1, name  # one line
        files.append(json.loads(text))
        assert list(files[-1]) in (["vocabulary", "request", "stats", "timing"],
                                   ["request", "stats", "timing"]), name
    assert_valid("stats-file", files, "every engine's --stats")
    request = files[0]["request"]
    assert request["max_width"] is None and request["seed"] == 1  # what it was asked, all
    assert files[3]["request"]["base"] == 5 and "players" in files[4]["request"]
    assert not validator("stats-file").is_valid({**files[3], "timing": {}})  # no seconds


@covers("score")
def test_score_breakdowns_turns_and_total(run):
    out = ok(run("score", "quaff", "--json"))
    assert_valid("score", lines(out.stdout), "wfkit score --json")
    out = ok(run("score", "labyrinth", "--json", "--double", "--link", "--fortress",
                 "--overdrive", "--combo", "2", "--wild", "1,3"))
    assert_valid("score", lines(out.stdout), "wfkit score (every power-up) --json")
    out = ok(run("score", "--turns", "cat,cats,zzxq,castle,clam", "--json"))
    records = lines(out.stdout)
    assert "total" in records[-1] and records[2]["playable"] is False
    assert_valid("score", records, "wfkit score --turns --json")


@covers("tiles", "tiles-stats")
def test_tiles_deals_and_hand(run, tmp_path):
    stats = tmp_path / "deals.json"
    out = ok(run("tiles", "--players", "4", "-n", "3", "--seed", "7", "--json", "--stats", stats))
    assert_valid("tiles", lines(out.stdout), "wfkit tiles --json")
    assert_valid("tiles-stats", [json.loads(stats.read_text())["stats"]], "wfkit tiles --stats")
    out = ok(run("tiles", "--hand", "QUA?E?TRS", "--word", "quaff", "--json"))
    assert_valid("tiles", lines(out.stdout), "wfkit tiles --hand --json")
    out = ok(run("tiles", "--hand", "QUAFFE?TRS", "--best", "-k", "5", "--json"))
    assert_valid("tiles", lines(out.stdout), "wfkit tiles --hand --best --json")


PACK = """\
name: schema-check
seed: 5
sections:
  - {name: boards, kind: crossword, vocab: VOCAB/tech.yaml, count: 12, style: tail,
     render: [CROSSWORD_RENDERS], render_limit: 2}
  - {name: fair, kind: crossword, vocab: VOCAB/animals-en.yaml, count: 3, band: [5, 6],
     layout: strict, unique: true}
  - {name: run, kind: endless, vocab: VOCAB/tech.yaml, count: 6}
  - {name: sets, kind: challenge, vocab: VOCAB/animals-en.yaml, count: 1, layout: strict}
  - {name: pools, kind: kanji, count: 4, preset: easy, render: [KANJI_RENDERS],
     render_limit: 1}
  - {name: table, kind: rarity, vocab: VOCAB/words.yaml, cefr: VOCAB/article-cefr.yaml}
"""


@covers("pack-manifest")
def test_pack_manifest_of_a_build_and_of_a_shard(run, tmp_path):
    config = tmp_path / "pack.yaml"
    # every render of the table: a manifest naming any of them validates
    config.write_text(PACK.replace("VOCAB", str(EXAMPLES))
                      .replace("CROSSWORD_RENDERS", ", ".join(renders("crossword")))
                      .replace("KANJI_RENDERS", ", ".join(renders("kanji"))), encoding="utf-8")
    ok(run("pack", "build", config, "--out", tmp_path / "pack"))
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text(encoding="utf-8"))
    assert {s["kind"] for s in manifest["sections"]} == {"crossword", "endless", "challenge",
                                                          "kanji", "rarity"}
    assert_valid("pack-manifest", [manifest], "pack build manifest.json")
    for section in manifest["sections"]:
        records = lines((tmp_path / "pack" / section["file"]).read_text(encoding="utf-8"))
        kind = {"crossword": "crossword-board", "endless": "crossword-board",
                "challenge": "crossword-board", "kanji": "kanji-pool",
                "rarity": "rarity-row"}[section["kind"]]
        assert_valid(kind, records, f"pack section {section['name']}")
    rarity = next(s for s in manifest["sections"] if s["kind"] == "rarity")
    assert_valid("rarity-stats", [rarity["stats"]], "pack rarity section stats")
    ok(run("pack", "build", config, "--out", tmp_path / "s1", "--shard", "1/2"))
    shard = json.loads((tmp_path / "s1" / "manifest.json").read_text(encoding="utf-8"))
    assert "shard" in shard and "chunks" in shard["sections"][0]
    assert_valid("pack-manifest", [shard], "pack build --shard manifest.json")


def test_every_schema_is_checked_against_real_output():
    assert set(schemas.names()) == COVERED, (
        f"schemas without a test of real output: {sorted(set(schemas.names()) - COVERED)}; "
        f"tests naming no schema file: {sorted(COVERED - set(schemas.names()))}")


def test_a_record_with_an_unknown_or_missing_field_fails(run):
    record = lines(ok(run("rarity", "cat", "--json")).stdout)[0]
    check = validator("rarity-row")
    assert check.is_valid(record)
    assert not check.is_valid({**record, "surprise": 1})
    assert not check.is_valid({k: v for k, v in record.items() if k != "gloss"})
    assert not check.is_valid({**record, "zipf": "high"})


def test_wfkit_schema_prints_a_self_contained_schema(run):
    listing = ok(run("schema", "--list")).stdout
    assert [line.split()[0] for line in listing.splitlines()] == schemas.names()
    printed = json.loads(ok(run("schema", "pack-manifest")).stdout)
    embedded = set(printed["$defs"]) - set(schemas.load("pack-manifest")["$defs"])
    assert embedded == {f"{schemas.BASE_URI}{n}.json"
                        for n in ("crossword-stats", "kanji-stats", "rarity-stats")}
    # no registry: the printed document resolves its own references
    check = jsonschema.Draft202012Validator(printed)
    bad = {"format": "wfkit-pack/1", "sections": [{"kind": "rarity", "stats": {"words": -1}}]}
    assert not check.is_valid(bad)
    assert list(check.iter_errors(bad))  # resolving the embedded refs raised nothing
    assert json.loads(ok(run("schema", "score")).stdout) == schemas.load("score")


def test_wfkit_schema_unknown_name_is_a_usage_error(run):
    result = run("schema", "crossword-bord")
    assert result.exit_code == 2 and "did you mean crossword-board" in result.stderr
    assert run("schema").exit_code == 2


REFUSED = [
    Refusal("schema crossword-board --list --list -Z",
            {},
            2, "No such option '-Z'. (see 'wfkit schema -h')"),
    Refusal("schema crossword-board --list --list=",
            {},
            2, "Option '--list' does not take a value."),
]


@pytest.mark.parametrize("case", REFUSED)
def test_a_bad_schema_command_line_is_one_line(case: Refusal, tmp_path, monkeypatch) -> None:
    check(case, tmp_path, monkeypatch)
