"""``wfkit rarity`` through the CLI: the article's table, output formats, batches, --compare,
and every bad input the issue lists (exit status, file:line, no traceback)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from conftest import CONFIGS, EXAMPLES
from wordforge_tables import ARTICLE_SEVEN, ARTICLE_TABLE, write_table

from wordforge_cli.io.paths import data_file

ARTICLE_CEFR = EXAMPLES / "article-cefr.yaml"
FIELDS = ["word", "zipf", "cefr", "rarity", "label", "multiplier", "source", "battle_rarity",
          "playable"]


@pytest.fixture
def data(tmp_path) -> Path:
    return write_table(tmp_path)


def records(result) -> list[dict]:
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def assert_one_line_error(result, status: int, *needles: str) -> None:
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_article_seven_word_table(run, data):
    rows = records(run("rarity", *ARTICLE_SEVEN, "--cefr", ARTICLE_CEFR, "--data", data,
                       "--json"))
    assert [list(r)[:9] for r in rows] == [FIELDS] * 7
    assert [(r["word"], r["zipf"], r["cefr"], r["label"], r["source"]) for r in rows] == (
        ARTICLE_TABLE)
    assert all(r["playable"] for r in rows)
    assert {r["word"]: r["battle_rarity"] for r in rows}["xylophone"] == "ultra_rare"
    assert {r["word"]: r["multiplier"] for r in rows} == {
        "cat": 1, "pizza": 1.5, "serendipity": 2, "xylophone": 3, "ephemeral": 5,
        "aesthetic": 8, "labyrinth": 8}
    assert rows[0]["gloss"] == "猫" and rows[0]["pos"] == "noun"


def test_article_table_as_text(run, data):
    result = run("rarity", *ARTICLE_SEVEN, "--cefr", ARTICLE_CEFR, "--data", data)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["word", "zipf", "cefr", "rarity", "key", "mult", "rule",
                                "battle", "playable", "pos", "gloss"]
    for line, (word, zipf, cefr, label, source) in zip(lines[1:], ARTICLE_TABLE, strict=True):
        cells = line.split()
        assert cells[:4] == [word, f"{zipf:.2f}", cefr or "-", label]
        assert cells[6] == source
    assert lines[1].index("4.78") == lines[0].index("zipf")  # aligned


@pytest.mark.skipif(not data_file("english.tsv").exists(), reason="data/english.tsv not built")
def test_article_table_with_the_bundled_data(run):
    rows = records(run("rarity", *ARTICLE_SEVEN, "--cefr", ARTICLE_CEFR, "--json"))
    assert [(r["word"], r["zipf"], r["cefr"], r["label"], r["source"]) for r in rows] == (
        ARTICLE_TABLE)
    assert all(r["playable"] for r in rows)
    bad = records(run("rarity", "qzxqzxq", "--json"))
    assert bad[0]["playable"] is False


def test_lemma_step_and_no_lemma_and_overrides(run, data):
    rows = records(run("rarity", "cats", "children", "--data", data, "--json"))
    assert [(r["cefr"], r["source"], r["cefr_lemma"]) for r in rows] == [
        ("A1", "cefr", "cat"), ("A1", "cefr", "child")]
    text = run("rarity", "cats", "--data", data)
    assert "A1 (cat)" in text.stdout
    plain = records(run("rarity", "cats", "--data", data, "--json", "--no-lemma"))[0]
    assert (plain["cefr"], plain["source"], plain["rarity"]) == (None, "zipf", "common")
    over = records(run("rarity", "cats", "labyrinth", "--data", data, "--json", "--overrides",
                       EXAMPLES / "article-overrides.yaml"))
    assert [(r["rarity"], r["source"]) for r in over] == [("normal", "override"),
                                                          ("legendary", "cefr")]


def test_gold_rush_and_unplayable(run, data):
    rows = records(run("rarity", "xylophone", "qzxqzxq", "--data", data, "--json",
                       "--gold-rush"))
    assert rows[0]["battle_rarity"] == "legendary"
    assert (rows[1]["playable"], rows[1]["zipf"], rows[1]["rarity"]) == (False, 0.0, "normal")


def write_vocab(tmp_path, words, name="v.yaml") -> Path:
    path = tmp_path / name
    path.write_text("name: t\nlanguage: en\nwords:\n" + "".join(f"  - {w}\n" for w in words),
                    encoding="utf-8")
    return path


def test_batch_formats_and_summary(run, data, tmp_path):
    vocab = write_vocab(tmp_path, ["cat", "Cats", "xylophone", "qzxqzxq"])
    jl = run("rarity", "--vocab", vocab, "--data", data, "--render", "json")
    rows = records(jl)
    assert [r["word"] for r in rows] == ["cat", "cats", "xylophone", "qzxqzxq"]
    assert "4 words" in jl.stderr and "not playable: 1" in jl.stderr
    assert "cefr 2" in jl.stderr and "zipf 2" in jl.stderr and "N 3" in jl.stderr
    out = tmp_path / "t.csv"
    result = run("rarity", "--vocab", vocab, "--data", data, "--render", "csv", "-o", out)
    assert result.exit_code == 0 and result.stdout == ""
    table = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert list(table[0])[:9] == FIELDS and table[2]["battle_rarity"] == "ultra_rare"
    assert table[3]["playable"] == "false" and table[3]["cefr"] == ""
    md = run("rarity", "--vocab", vocab, "--data", data, "--render", "md").stdout.splitlines()
    assert md[0].startswith("| word | zipf |") and md[1].startswith("| --- |")
    assert len(md) == 6
    text = run("rarity", "--vocab", vocab, "--data", data).stdout.splitlines()
    assert len(text) == 5 and text[3].startswith("xylophone")


def test_text_vocab_and_example_vocab(run, data):
    result = run("rarity", "--vocab", EXAMPLES / "words.yaml", "--data", data, "--json")
    rows = records(result)
    assert len(rows) == 30 and rows[0]["word"] == "cat"


def test_compare_reports_tier_changes(run, data, tmp_path):
    other = tmp_path / "other.yaml"
    text = (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")
    other.write_text(text.replace("    rare: 2.5\n", "    rare: 2.3\n"), encoding="utf-8")
    vocab = write_vocab(tmp_path, ["cat", "xylophone", "serendipity", "pizza"])
    result = run("rarity", "--vocab", vocab, "--data", data, "--compare", other, "--json")
    rows = records(result)
    assert [(r["word"], r["rarity"], r["other_rarity"], r["direction"]) for r in rows] == [
        ("xylophone", "super_rare", "rare", "down")]
    assert rows[0]["battle_rarity"] == "ultra_rare" and rows[0]["other_battle_rarity"] == (
        "super_rare")
    assert "1 of 4 words change tier" in result.stderr
    assert "super_rare->rare 1" in result.stderr
    same = run("rarity", "cat", "--data", data, "--compare", CONFIGS / "rarity.yaml")
    assert same.exit_code == 0 and "0 of 1 words" in same.stderr


def test_compare_with_overrides_naming_a_tier_the_other_config_lacks(run, data, tmp_path):
    other = edited_config(tmp_path, "  legendary: {label: LG, multiplier: 8}",
                          "  mythic: {label: MY, multiplier: 8}")
    other.write_text(other.read_text(encoding="utf-8").replace(": legendary", ": mythic"),
                     encoding="utf-8")
    over = tmp_path / "o.yaml"
    over.write_text("cats: legendary\n")
    result = run("rarity", "cats", "--data", data, "--overrides", over, "--compare", other)
    assert_one_line_error(result, 2, str(over), "'cats: legendary'", "lacks")
    fine = run("rarity", "cats", "labyrinth", "--data", data, "--compare", other, "--json",
               "--cefr", ARTICLE_CEFR)
    rows = records(fine)
    assert [(r["word"], r["rarity"], r["other_rarity"]) for r in rows] == [
        ("labyrinth", "legendary", "mythic")]


def test_output_file_is_atomic_and_not_written_on_error(run, data, tmp_path):
    out = tmp_path / "out.jsonl"
    out.write_text("old\n")
    bad = write_vocab(tmp_path, ["cat", "c4t"])
    result = run("rarity", "--vocab", bad, "--data", data, "-o", out)
    assert result.exit_code == 2 and out.read_text() == "old\n"


# ------------------------------------------------------------------ bad input


def test_unknown_option(run):
    result = run("rarity", "cat", "--frobnicate")
    assert_one_line_error(result, 2, "No such option '--frobnicate'")
    assert result.stdout == ""


def test_no_words(run):
    assert_one_line_error(run("rarity"), 2, "no words")


@pytest.mark.parametrize("word, needle", [
    ("", "empty word"), ("c4t", "digit"), ("cat🐱", "U+1F431"), ("ice cream", "space")])
def test_bad_word_arguments(run, data, word, needle):
    assert_one_line_error(run("rarity", word, "--data", data), 2, needle)


@pytest.mark.parametrize("entries, line, needle", [
    (["cat", "''"], 5, "empty word"),
    (["cat", "dog", "c4t"], 6, "digit"),
    (["cat", "'🐱'"], 5, "U+1F431"),
    (["cat", "42"], 5, "digit"),  # YAML 42 is the word "42" as typed
    (["cat", "[a, b]"], 5, "must be a string"),
])
def test_bad_vocab_words_name_file_and_line(run, data, tmp_path, entries, line, needle):
    vocab = write_vocab(tmp_path, entries)
    assert_one_line_error(run("rarity", "--vocab", vocab, "--data", data), 2,
                          f"{vocab}:{line}:", needle)


def test_vocab_in_another_language(run, data, tmp_path):
    vocab = tmp_path / "ja.yaml"
    vocab.write_text("name: t\nlanguage: ja\nwords: [猫]\n", encoding="utf-8")
    assert_one_line_error(run("rarity", "--vocab", vocab, "--data", data), 2, str(vocab),
                          "language 'ja'")


def test_vocab_not_a_list_and_yaml_syntax_error(run, data, tmp_path):
    not_list = tmp_path / "n.yaml"
    not_list.write_text("name: t\nwords: cat\n")
    assert_one_line_error(run("rarity", "--vocab", not_list, "--data", data), 2,
                          f"{not_list}:2:", "must be a list")
    broken = tmp_path / "b.yaml"
    broken.write_text("name: t\nwords:\n  - cat\n  - [dog\n")
    result = run("rarity", "--vocab", broken, "--data", data)
    assert_one_line_error(result, 2, f"{broken}:", "YAML syntax error")


def edited_config(tmp_path, old: str, new: str) -> Path:
    text = (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "rarity.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def config_line(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if fragment in line)


@pytest.mark.parametrize("old, new, at, needle", [
    ("    rare: 2.5\n", "    rare: 4.5\n", "    rare: 4.5", "must descend"),
    ("    rare: 2.5\n", "    rarest: 2.5\n", "rarest", "unknown tier 'rarest'"),
    ("  cap: super_rare", "  cap: super_rar", "cap: super_rar",
     "did you mean 'super_rare'"),
    ("  C1: ultra_rare", "  C7: ultra_rare", "C7:", "unknown key 'C7'"),
    ("  B2: super_rare", "  B2: mega_rare", "B2: mega_rare", "unknown tier 'mega_rare'"),
    ("  combo_step: 0.15", "  combo_stp: 0.15", "combo_stp", "did you mean 'combo_step'"),
    ("  upgrade_length: 7", "  upgrade_length: seven", "upgrade_length", "must be a number"),
    ("  normal: {label: N, multiplier: 1}", "  normal: {label: N, multiplier: 0}",
     "multiplier: 0", "must be above 0"),
])
def test_bad_config_names_file_and_line(run, data, tmp_path, old, new, at, needle):
    path = edited_config(tmp_path, old, new)
    result = run("rarity", "cat", "--data", data, "--config", path)
    assert_one_line_error(result, 2, f"{path}:{config_line(path, at)}:", needle)


def test_config_key_given_twice(run, data, tmp_path):
    path = edited_config(tmp_path, "    rare: 2.5\n", "    rare: 2.5\n    rare: 2.4\n")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--config", path), 2,
                          f"{path}:{config_line(path, 'rare: 2.4')}:", "'rare' is given twice")


def test_config_yaml_syntax_error(run, data, tmp_path):
    path = edited_config(tmp_path, "  below: legendary", "  below: [legendary")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--config", path), 2,
                          f"{path}:", "YAML syntax error")


def test_compare_config_is_checked_too(run, data, tmp_path):
    path = edited_config(tmp_path, "    common: 4\n", "    common: 6\n")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--compare", path), 2,
                          f"{path}:{config_line(path, 'common: 6')}:", "must descend")


def test_bad_cefr_tables(run, data, tmp_path):
    yaml_table = tmp_path / "c.yaml"
    yaml_table.write_text("cat: A1\ndog: D1\n")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--cefr", yaml_table), 2,
                          f"{yaml_table}:2:", "unknown CEFR level 'D1'")
    csv_table = tmp_path / "c.csv"
    csv_table.write_text("word,level\ncat,A1\nd0g,B1\n")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--cefr", csv_table), 2,
                          f"{csv_table}:3:", "digit")
    csv_table.write_text("word,level\ncat,a1\ndog,B1\n")
    rows = records(run("rarity", "cat", "dog", "--data", data, "--cefr", csv_table, "--json"))
    assert [r["cefr"] for r in rows] == ["A1", "B1"]
    not_map = tmp_path / "l.yaml"
    not_map.write_text("- cat\n")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--cefr", not_map), 2,
                          f"{not_map}:1:", "mapping")


def test_bad_overrides(run, data, tmp_path):
    table = tmp_path / "o.yaml"
    table.write_text("cats: normal\ndogs: legendery\n")
    assert_one_line_error(run("rarity", "cats", "--data", data, "--overrides", table), 2,
                          f"{table}:2:", "unknown tier 'legendery'", "did you mean")


def test_yaml_keys_stay_words(run, data, tmp_path):
    # YAML 1.1 would read 'no' as False; a CEFR table keeps it a word
    table = tmp_path / "c.yaml"
    table.write_text("no: A1\n")
    rows = records(run("rarity", "no", "--data", data, "--cefr", table, "--json"))
    assert rows[0]["cefr"] == "A1"


def test_missing_files(run, data, tmp_path):
    assert_one_line_error(run("rarity", "cat", "--data", tmp_path / "none.tsv"), 2,
                          "none.tsv", "no such file")
    assert_one_line_error(run("rarity", "cat", "--data", data, "--config",
                              tmp_path / "none.yaml"), 2, "none.yaml", "no such file")


def test_words_and_vocab_together(run, data):
    assert_one_line_error(run("rarity", "cat", "--vocab", EXAMPLES / "words.yaml"), 2,
                          "not both")


def test_the_last_releases_format_flag_still_works_with_one_deprecation_line(run):
    """--render is every command's output flag; rarity's --format (and its jsonl) of the last
    release are still taken, each run saying so once on stderr."""
    new = run("rarity", "cat", "labyrinth", "--render", "json")
    for old, said in ((("--format", "jsonl"), "--format jsonl"),
                      (("--format", "json"), "--format json"),
                      (("--render", "jsonl"), "--render jsonl")):
        result = run("rarity", "cat", "labyrinth", *old)
        assert result.exit_code == 0 and result.stdout_bytes == new.stdout_bytes
        assert result.stderr == (f"wfkit: {said} is deprecated (it goes in a later release): "
                                 "use --render json\n")
    assert new.stderr == ""
    csv = run("rarity", "cat", "--format", "csv", "--render", "md")  # the new flag wins
    assert csv.stdout == run("rarity", "cat", "--render", "md").stdout
    assert "--format" not in run("rarity", "--help").stdout


def test_rarity_stats_file_is_the_pack_sections_stats(run, tmp_path):
    """The same convention as kanji --stats: the engine's summary, as a pack records it, and
    the request as its options (files named as given)."""
    stats = tmp_path / "stats.json"
    result = run("rarity", "--vocab", EXAMPLES / "words.yaml", "--cefr",
                 EXAMPLES / "article-cefr.yaml", "-o", tmp_path / "w.csv", "--render", "csv",
                 "--stats", stats)
    assert result.exit_code == 0, result.output
    config = tmp_path / "pack.yaml"
    config.write_text(f"name: t\nseed: 1\nsections:\n  - {{name: table, kind: rarity, vocab: "
                      f"{EXAMPLES / 'words.yaml'}, cefr: {EXAMPLES / 'article-cefr.yaml'}}}\n",
                      encoding="utf-8")
    assert run("pack", "build", config, "--out", tmp_path / "pack").exit_code == 0
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text(encoding="utf-8"))
    written = json.loads(stats.read_text(encoding="utf-8"))
    assert written["stats"] == manifest["sections"][0]["stats"]
    assert list(written["request"]) == list(manifest["sections"][0]["options"])
    refused = run("rarity", "--vocab", EXAMPLES / "words.yaml", "--compare",
                  CONFIGS / "rarity.yaml", "--stats", stats)
    assert refused.exit_code == 2 and "--stats goes with a rarity table" in refused.stderr
