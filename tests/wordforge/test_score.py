"""``wfkit score`` through the CLI: the article's three examples, the breakdown, power-ups,
exact arithmetic, turns, and the bad inputs (unplayable word: exit 1)."""

from __future__ import annotations

import json

import pytest
from conftest import EXAMPLES
from wordforge_tables import write_table

from wordforge_cli.io.paths import data_file

ARTICLE_CEFR = EXAMPLES / "article-cefr.yaml"


@pytest.fixture
def data(tmp_path):
    return write_table(tmp_path)


def scored(run, *args) -> dict:
    result = run("score", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("word, tile_sum, length_term, bonus, subtotal, label, score", [
    ("ennui", 5, 4, 2, 11, "LG", 88),
    ("quaff", 20, 4, 2, 26, "LG", 208),
    ("xylophone", 24, 12, 8, 44, "UR", 220),
])
def test_article_score_examples(run, data, word, tile_sum, length_term, bonus, subtotal,
                                label, score):
    rec = scored(run, word, "--cefr", ARTICLE_CEFR, "--data", data)
    assert (rec["tile_sum"], rec["length_term"], rec["length_bonus"], rec["subtotal"],
            rec["label"], rec["score"]) == (tile_sum, length_term, bonus, subtotal, label, score)
    assert list(rec)[-1] == "score"


@pytest.mark.skipif(not data_file("english.tsv").exists(), reason="data/english.tsv not built")
@pytest.mark.parametrize("word, score", [("ennui", 88), ("quaff", 208), ("xylophone", 220)])
def test_article_scores_with_the_bundled_data(run, word, score):
    assert scored(run, word, "--cefr", ARTICLE_CEFR)["score"] == score


def test_breakdown_text(run, data):
    result = run("score", "xylophone", "--cefr", ARTICLE_CEFR, "--data", data)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "X8 Y4 L1 O1 P3 H4 O1 N1 E1 = 24" in out
    assert "(9 - 3) x 2 = 12" in out and "+8" in out and "subtotal       44" in out
    assert "UR ultra_rare (catalogue super_rare, zipf)" in out
    assert out.rstrip().endswith("floor(220) = 220")


def test_no_battle_uses_the_catalogue_rarity(run, data):
    rec = scored(run, "xylophone", "--no-battle", "--data", data)
    assert (rec["rarity"], rec["battle"], rec["score"]) == ("super_rare", False, 132)
    gold = scored(run, "xylophone", "--no-battle", "--gold-rush", "--data", data)
    assert gold["rarity"] == "ultra_rare"
    both = scored(run, "xylophone", "--gold-rush", "--data", data)
    assert both["rarity"] == "legendary" and both["score"] == 44 * 8


def test_power_ups_multiply_inside_the_floor(run, data):
    rec = scored(run, "quaff", "--cefr", ARTICLE_CEFR, "--data", data, "--combo", "2",
                 "--double", "--link", "--fortress", "--overdrive")
    assert rec["length_bonus"] == 4 and rec["subtotal"] == 28
    assert rec["multipliers"] == {"rarity": 8, "combo": 1.3, "double": 2, "link": 1.5,
                                  "fortress": 0.7}
    # 28 x 8 x 1.3 x 2 x 1.5 x 0.7 = 611.52
    assert rec["exact"] == "611.52" and rec["score"] == 611


def test_exact_47_not_46(run, data, tmp_path):
    over = tmp_path / "o.yaml"
    over.write_text("dot: ultra_rare\n")
    rec = scored(run, "dot", "--overrides", over, "--data", data, "--combo", "9")
    assert rec["subtotal"] == 4 and rec["exact"] == "47" and rec["score"] == 47


def test_wild_positions_score_zero(run, data):
    rec = scored(run, "quaff", "--cefr", ARTICLE_CEFR, "--data", data, "--wild", "1,4")
    assert [t["wild"] for t in rec["tiles"]] == [True, False, False, True, False]
    assert rec["tile_sum"] == 6 and rec["score"] == (6 + 4 + 2) * 8


def test_turns_carry_combo_and_link(run, data):
    result = run("score", "--turns", "cat,cats,castle,clam,qzxq,quaff", "--data", data,
                 "--cefr", ARTICLE_CEFR, "--json")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    turns, total = rows[:-1], rows[-1]
    assert [(r["word"], r["combo"], r["link"]) for r in turns] == [
        ("cat", 0, False), ("cats", 1, True), ("castle", 2, True), ("clam", 0, True),
        ("qzxq", 0, False), ("quaff", 1, False)]
    assert turns[4]["playable"] is False and turns[4]["score"] == 0
    assert turns[5]["score"] == 239  # 26 x 8 x 1.15 = 239.2
    assert total == {"total": sum(r["score"] for r in turns), "turns": 6}
    text = run("score", "--turns", "cat,cats", "--data", data)
    assert text.exit_code == 0 and "combo 1, link" in text.stdout and "total" in text.stdout


def assert_one_line_error(result, status: int, *needles: str) -> None:
    assert result.exit_code == status, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_unplayable_word_exits_1(run, data):
    result = run("score", "qzxqzx", "--data", data)
    assert_one_line_error(result, 1, "'qzxqzx' is not playable")
    assert result.stdout == ""


@pytest.mark.parametrize("args, needle", [
    (["c4t"], "digit"), ([""], "empty word"), (["cat🐱"], "U+1F431"),
    (["quaff", "--wild", "6"], "position"), (["quaff", "--wild", "x"], "position"),
    ([], "one WORD or --turns"), (["cat", "--turns", "cat,dog"], "one WORD or --turns"),
    (["--turns", "cat,,dog"], "empty word"), (["--turns", "cat", "--wild", "1"], "--wild"),
])
def test_bad_arguments_exit_2(run, data, args, needle):
    assert_one_line_error(run("score", *args, "--data", data), 2, needle)


def test_bad_config_names_file_and_line(run, data, tmp_path):
    path = tmp_path / "r.yaml"
    text = (EXAMPLES.parent / "configs" / "rarity.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("  double: 2", "  double: two"), encoding="utf-8")
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "double: two" in t)
    assert_one_line_error(run("score", "cat", "--data", data, "--config", path), 2,
                          f"{path}:{line}:", "must be a number")


def test_unknown_option(run):
    assert_one_line_error(run("score", "cat", "--tripple"), 2, "No such option '--tripple'")
