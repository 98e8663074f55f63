"""``wfkit crossword`` driven through the CLI: output shape, reproducibility, errors, sets,
renders, statistics and config."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import ipuz
import pytest
from conftest import EXAMPLES

from wordforge_cli.crossword.check import FIELDS, check_record
from wordforge_cli.crossword.lexicon import prepare
from wordforge_cli.crossword.unique import count_fillings
from wordforge_cli.io.vocab import read_vocab

TECH = EXAMPLES / "tech.yaml"
ANIMALS = EXAMPLES / "animals-en.yaml"


def words_of(path):
    return set(prepare(read_vocab(path)).words)


def records(result):
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_batch_records_are_valid_and_reproducible(run):
    args = ("crossword", "--vocab", TECH, "-n", "20", "--seed", "4", "--style", "tail")
    first = run(*args)
    recs = records(first)
    assert len(recs) == 20
    assert [r["id"] for r in recs] == list(range(20))
    vocab = words_of(TECH)
    for rec in recs:
        assert tuple(rec) == FIELDS
        assert check_record(rec, vocab, min_len=4, max_len=5) == []
    assert run(*args).stdout == first.stdout
    assert "20 made, 0 failed" in first.stderr
    assert "blank failure: tail" in first.stderr


def test_items_do_not_depend_on_batch_size(run):
    short = run("crossword", "--vocab", TECH, "-n", "3", "--seed", "9").stdout.splitlines()
    long = run("crossword", "--vocab", TECH, "-n", "8", "--seed", "9").stdout.splitlines()
    assert long[:3] == short


def test_strict_layout(run):
    recs = records(run("crossword", "--vocab", ANIMALS, "-n", "15", "--seed", "1",
                       "--layout", "strict", "--style", "most"))
    vocab = words_of(ANIMALS)
    for rec in recs:
        assert check_record(rec, vocab, min_len=4, max_len=5, layout="strict") == []


def test_impossible_request_is_refused_at_once(run, tmp_path):
    out = tmp_path / "b.jsonl"
    result = run("crossword", "--vocab", TECH, "--min-len", "9", "--max-len", "10", "-o", out)
    assert result.exit_code == 2
    assert "no word of 9-10 letters" in result.stderr
    assert not out.exists()
    result = run("crossword", "--vocab", TECH, "--min-len", "5", "--max-len", "4")
    assert result.exit_code == 2 and "min length 5 > max length 4" in result.stderr


def test_bad_word_names_file_and_line(run, tmp_path):
    vocab = tmp_path / "v.yaml"
    vocab.write_text("language: en\nwords:\n  - cat\n  - r2d2\n", encoding="utf-8")
    vocab.write_text("language: en\nwords:\n  - cat\n  - r2d2\n  - tea\n  - act\n"
                     "  - tic\n  - ace\n  - toe\n  - tan\n  - ant\n  - eat\n",
                     encoding="utf-8")
    result = run("crossword", "--vocab", vocab, "--min-len", "3", "--max-len", "3",
                 "--seed", "1")
    assert result.exit_code == 0, result.stderr  # the word is skipped, the run goes on
    assert f"wfkit: warning: {vocab}:4: 'r2d2' skipped: digit" in result.stderr
    assert "Traceback" not in result.stderr


def test_duplicates_reported_and_dropped(run, tmp_path):
    vocab = tmp_path / "v.yaml"
    words = ["キャッシュ", "きやっしゅ", *sorted(words_of(TECH))]
    vocab.write_text("language: ja\nwords:\n" + "".join(f"  - {w}\n" for w in words),
                     encoding="utf-8")
    result = run("crossword", "--vocab", vocab, "-n", "2", "--seed", "1")
    assert result.exit_code == 0
    assert f"{vocab}:4: duplicate word 'きやっしゅ'" in result.stderr


def test_stats_file(run, tmp_path):
    stats = tmp_path / "stats.json"
    result = run("crossword", "--vocab", TECH, "-n", "50", "--seed", "2", "--stats", stats,
                 "-o", tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.stderr
    data = json.loads(stats.read_text(encoding="utf-8"))
    s = data["stats"]
    assert s["made"] == 50 and s["failed"] == 0
    assert set(s["blank_failure"]) == {"none", "tail", "head", "alt", "most"}
    assert all(v["of"] == 50 for v in s["blank_failure"].values())
    assert s["attempts"]["median"] >= 1 and s["attempts"]["worst"] >= s["attempts"]["median"]
    assert 0 < s["word_use"]["evenness"] <= 1
    assert data["timing"]["boards_per_second"] > 0


def test_text_render(run):
    result = run("crossword", "--vocab", TECH, "-n", "1", "--seed", "3", "--render", "text")
    assert result.exit_code == 0
    assert "■" in result.stdout and "solution:" in result.stdout


def test_svg_render_is_xml(run):
    result = run("crossword", "--vocab", TECH, "-n", "2", "--seed", "3", "--render", "svg")
    root = ET.fromstring(result.stdout)
    assert root.tag.endswith("svg")
    assert len([e for e in root.iter() if e.tag.endswith("circle")]) >= 8  # 2 boards x 4+


def test_ipuz_render_validates(run):
    result = run("crossword", "--vocab", ANIMALS, "-n", "3", "--seed", "3", "--render", "ipuz",
                 "--layout", "strict")
    assert result.exit_code == 0, result.stderr
    for line in result.stdout.splitlines():
        doc = ipuz.read(line)
        assert doc["kind"] == ["http://ipuz.org/crossword#1"]
        circled = [c for row in doc["puzzle"] for c in row
                   if isinstance(c, dict) and c.get("style") == {"shapebg": "circle"}]
        assert len(circled) == len(doc["answer"])
        letters = "".join(c for row in doc["solution"] for c in row if c != "#")
        assert all(ch in letters for ch in doc["answer"])
        assert doc["clues"]["Across"] and doc["clues"]["Down"]


def test_plan_matches_the_article(run):
    def plan(k):
        return json.loads(run("crossword", "plan", str(k), "--json").stdout)

    assert plan(0) == {"question": 0, "min_len": 3, "max_len": 3, "style": "none",
                       "label": "そのまま", "unlocked": 2}
    assert (plan(1)["min_len"], plan(1)["max_len"], plan(1)["style"]) == (4, 4, "none")
    assert (plan(6)["min_len"], plan(6)["max_len"], plan(6)["style"]) == (3, 3, "tail")
    assert "style tail" in run("crossword", "plan", "6").stdout


def test_endless_questions(run):
    recs = records(run("crossword", "endless", "--vocab", TECH, "--count", "12",
                       "--start", "2", "--seed", "5"))
    vocab = words_of(TECH)
    assert [r["id"] for r in recs] == list(range(2, 14))
    plans = [json.loads(run("crossword", "plan", str(r["id"]), "--json").stdout) for r in recs]
    for rec, p in zip(recs, plans, strict=True):
        assert rec["style"] == p["style"]
        assert check_record(rec, vocab) == []
        if p["style"] != "none":
            assert rec["blanked"] >= 1  # redrawn until the style blanks something
    again = run("crossword", "endless", "--vocab", TECH, "--count", "1", "--start", "7",
                "--seed", "5")
    assert json.loads(again.stdout) == recs[5]


def test_challenge_set(run):
    recs = records(run("crossword", "challenge", "--vocab", TECH, "--seed", "8"))
    assert len(recs) == 10
    assert len({r["answer"] for r in recs}) == 10
    assert len(recs[0]["answer"]) == 3 and len(recs[-1]["answer"]) in (5, 6)
    vocab = words_of(TECH)
    assert all(check_record(r, vocab) == [] for r in recs)


def test_unique_keeps_only_fair_boards(run, tmp_path):
    stats = tmp_path / "s.json"
    result = run("crossword", "--vocab", ANIMALS, "-n", "10", "--seed", "6", "--style", "most",
                 "--unique", "--stats", stats)
    recs = records(result)
    lex = prepare(read_vocab(ANIMALS))
    for rec in recs:
        words = [(w["word"], w["x"], w["y"], w["dir"]) for w in rec["words"]]
        cells = [(c["x"], c["y"], c["c"], c["n"]) for c in rec["cells"]]
        assert count_fillings(lex, words, cells) == 1
    summary = json.loads(stats.read_text(encoding="utf-8"))["stats"]
    assert set(summary["ambiguous"]) == {"none", "tail", "head", "alt", "most"}
    assert summary["ambiguous"]["most"] == 0  # the kept boards are fair under their style
    assert "ambiguous boards by style" in result.stderr


def test_config_sets_defaults_and_checks_keys(run, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("min_len: 3\nmax_len: 3\nstyle: head\n", encoding="utf-8")
    recs = records(run("crossword", "--config", cfg, "--vocab", TECH, "-n", "5", "--seed", "1"))
    assert all(len(r["answer"]) == 3 and r["style"] == "head" for r in recs)
    cfg.write_text("min_len: 3\nbudjet: 10\n", encoding="utf-8")
    result = run("crossword", "--config", cfg, "--vocab", TECH)
    assert result.exit_code == 2
    assert f"{cfg}:2:" in result.stderr and "did you mean 'budget'" in result.stderr


@pytest.mark.parametrize("form", [[], ["challenge"]])
@pytest.mark.parametrize(("key", "value", "flags"), [
    ("redraws", "2", ["--redraws", "2"]),
    ("no_redraw", "true", ["--no-redraw"]),
    ("budget", "40", ["--budget", "40"]),
])
def test_a_config_key_acts_as_its_option(run, tmp_path, form, key, value, flags):
    """Every key a config gives reaches the command as its option would (``redraws`` once
    did not: the command's config defaults skipped the styled boards' fields)."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"{key}: {value}\n", encoding="utf-8")
    common = [*form, "--vocab", TECH, "--seed", "5"]
    # a batch of one style; a challenge set's ramp has its own
    common += ["-n", "300", "--style", "tail"] if not form else ["--count", "30"]
    by_config = run("crossword", "--config", cfg, *common)
    by_flag = run("crossword", *common, *flags)
    plain = run("crossword", *common)
    assert by_config.exit_code == by_flag.exit_code == plain.exit_code == 0
    assert by_config.stdout == by_flag.stdout != plain.stdout


def test_missing_vocab_is_a_usage_error(run):
    result = run("crossword", "-n", "1")
    assert result.exit_code == 2 and "--vocab" in result.stderr


def test_same_bytes_under_any_hash_seed(tmp_path):
    import os
    import subprocess
    import sys

    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"b{hash_seed}.jsonl"
        stats = tmp_path / f"s{hash_seed}.json"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, "-m", "wordforge_cli", "crossword", "--vocab", str(TECH),
                        "-n", "30", "--seed", "12", "--style", "alt", "--layout", "strict",
                        "-o", str(out), "--stats", str(stats)], env=env, check=True,
                       capture_output=True)
        summary = json.loads(stats.read_text(encoding="utf-8"))["stats"]
        outputs.append((out.read_bytes(), summary))
    assert outputs[0] == outputs[1]


def test_config_errors_name_the_line(run, tmp_path):
    cfg = tmp_path / "c.yaml"
    cases = {
        "endless:\n  bands: [[3, 3], [5, 2]]\n":
            (2, "endless/bands/1: 5-2: need 2 <= low <= high"),
        "challenge:\n  ramp:\n    - {band: [3, 3]}\n    - {band: [4, 4], style: tial}\n":
            (4, "challenge/ramp/1/style: 'tial' is not one of"),
        "budget: 0\n": (1, "budget: 0 is not in the range 1<=x<=1000000"),
        "layout: tight\n": (1, "layout: 'tight' is not one of 'loose', 'strict'"),
        "endless:\n  redraw: 3\n": (2, "did you mean 'redraws'"),
    }
    for text, (line, message) in cases.items():
        cfg.write_text(text, encoding="utf-8")
        result = run("crossword", "--config", cfg, "plan", "3")
        assert result.exit_code == 2, text
        assert f"{cfg}:{line}:" in result.stderr and message in result.stderr, result.stderr


def test_endless_config_changes_the_plan(run, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("endless:\n  bands: [[4, 5]]\n  styles: [most, alt]\n  unlock_start: 1\n"
                   "  unlock_every: 4\n", encoding="utf-8")
    plans = [json.loads(run("crossword", "--config", cfg, "plan", str(k), "--json").stdout)
             for k in (0, 3, 4, 6)]
    assert [(p["min_len"], p["max_len"]) for p in plans] == [(4, 5)] * 4
    assert [p["style"] for p in plans] == ["most", "most", "most", "alt"]


def test_challenge_that_cannot_avoid_repeats_fails_cleanly(run, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("challenge:\n  ramp:\n    - {band: [3, 3]}\n    - {band: [3, 3]}\n",
                   encoding="utf-8")
    vocab = tmp_path / "v.yaml"
    vocab.write_text("language: en\nwords: [cat, ca, at, ta]\n", encoding="utf-8")
    out = tmp_path / "sets.jsonl"
    result = run("crossword", "--config", cfg, "challenge", "--vocab", vocab, "--seed", "1",
                 "-o", out)
    assert result.exit_code == 1
    assert "every possible answer is already used" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not out.exists()


def test_vocab_may_come_before_the_subcommand(run):
    before = run("crossword", "--vocab", TECH, "endless", "--count", "2", "--seed", "4")
    after = run("crossword", "endless", "--vocab", TECH, "--count", "2", "--seed", "4")
    assert before.exit_code == 0 and before.stdout == after.stdout


# --- options of boards that ship -----------------------------------------------------------

def test_a_size_no_board_can_meet_is_refused_at_once(run, tmp_path):
    out = tmp_path / "b.jsonl"
    result = run("crossword", "--vocab", TECH, "--max-width", "3", "--max-height", "3",
                 "-o", out)
    assert result.exit_code == 2 and not out.exists()
    assert "fits a board of at most 3 x 3" in result.stderr


def test_size_limits_and_their_distribution(run, tmp_path):
    stats = tmp_path / "s.json"
    recs = records(run("crossword", "--vocab", TECH, "-n", "60", "--seed", "4",
                       "--max-width", "7", "--max-height", "6", "--stats", stats))
    assert recs and all(r["w"] <= 7 and r["h"] <= 6 for r in recs)
    size = json.loads(stats.read_text(encoding="utf-8"))["stats"]["size"]
    assert sum(size["width"].values()) == 60 and max(map(int, size["width"])) <= 7
    assert size["largest"][1] <= 6


def test_styled_batches_redraw_and_no_redraw_keeps_the_first_draw(run, tmp_path):
    held, first = tmp_path / "held.json", tmp_path / "first.json"
    a = records(run("crossword", "--vocab", TECH, "-n", "200", "--seed", "5", "--style",
                    "tail", "--stats", held))
    b = records(run("crossword", "--vocab", TECH, "-n", "200", "--seed", "5", "--style",
                    "tail", "--no-redraw", "--stats", first))
    assert all(r["redraws"] == 0 for r in b)
    assert all(r["label"] == "語尾かくし" for r in a)
    s_held = json.loads(held.read_text(encoding="utf-8"))["stats"]
    s_first = json.loads(first.read_text(encoding="utf-8"))["stats"]
    assert s_first["unblanked"].get("tail", 0) > 0  # tail fails often on these words
    assert s_held["unblanked"].get("tail", 0) == sum(r["blanked"] == 0 for r in a) == 0
    assert s_held["blank_failure"]["tail"] == s_first["blank_failure"]["tail"]
    assert s_held["redraws"] == sum(r["redraws"] for r in a) > 0


def test_labels_come_from_the_config(run, tmp_path):
    cfg = tmp_path / "en.yaml"
    cfg.write_text("labels: {none: Plain, tail: Last letters hidden}\n", encoding="utf-8")
    recs = records(run("crossword", "--config", cfg, "--vocab", ANIMALS, "-n", "2",
                       "--style", "tail", "--seed", "1"))
    assert {r["label"] for r in recs} == {"Last letters hidden"}
    plan = json.loads(run("crossword", "--config", cfg, "plan", "0", "--json").stdout)
    assert plan["label"] == "Plain"
    bad = tmp_path / "bad.yaml"
    bad.write_text("labels: {tial: x}\n", encoding="utf-8")
    result = run("crossword", "--config", bad, "--vocab", ANIMALS)
    assert result.exit_code == 2 and "did you mean 'tail'" in result.stderr


def test_strict_vocab_refuses_what_is_otherwise_skipped(run, tmp_path):
    vocab = tmp_path / "v.txt"
    vocab.write_text("キャッシュ\nニドラン♀\n火の鳥\nキュー\nシャツ\nツリー\n", encoding="utf-8")
    result = run("crossword", "--vocab", vocab, "--min-len", "3", "--max-len", "3", "--seed",
                 "1")
    assert f"wfkit: warning: {vocab}:2: 'ニドラン♀' skipped" in result.stderr
    assert f"wfkit: warning: {vocab}:3: '火の鳥' skipped" in result.stderr
    result = run("crossword", "--vocab", vocab, "--strict-vocab")
    assert result.exit_code == 2 and f"{vocab}:2:" in result.stderr
    assert result.stderr.count("wfkit: ") == 1


def test_records_keep_the_vocabulary_spelling(run):
    recs = records(run("crossword", "--vocab", TECH, "-n", "40", "--seed", "1"))
    spelled = {w["word"]: w["spelling"] for r in recs for w in r["words"]}
    assert spelled.get("キヤツシユ", "キャッシュ") == "キャッシュ"
    assert any(k != v for k, v in spelled.items())
    text = run("crossword", "--vocab", TECH, "-n", "40", "--seed", "1", "--render", "text")
    assert "[キャッシュ]" in text.stdout or "キヤツシユ" not in text.stdout


def test_every_render_lists_the_clues(run, tmp_path):
    text = run("crossword", "--vocab", ANIMALS, "-n", "1", "--seed", "3", "--render", "text",
               "--layout", "strict").stdout
    assert "across:" in text and "down:" in text
    hints = {h for h in prepare(read_vocab(ANIMALS)).hints if h}
    assert any(h in text for h in hints)
    tech = run("crossword", "--vocab", TECH, "-n", "1", "--seed", "3", "--render", "text").stdout
    assert "語彙にヒントなし" in tech and "(4)" not in tech  # (Japanese: its own clue words)
    svg = run("crossword", "--vocab", ANIMALS, "-n", "2", "--seed", "3", "--render", "svg").stdout
    words = "".join(e.text or "" for e in ET.fromstring(svg).iter())
    assert any(h in words for h in hints)
    sheet = tmp_path / "sheet.html"
    result = run("crossword", "challenge", "--vocab", ANIMALS, "--seed", "3", "--render",
                 "sheet", "-o", sheet)
    assert result.exit_code == 0, result.stderr
    page = sheet.read_text(encoding="utf-8")
    assert page.count('class="page puzzle"') == 10 and page.count('class="page solution"') == 10
    assert page.index('class="page solution"') > page.rindex('class="page puzzle"')
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")


def test_kanji_dict_takes_the_same_intake_policy(run, tmp_path):
    words = tmp_path / "dict.txt"
    words.write_text("天気\n晴天\nabc\n天気\n雨天\n", encoding="utf-8")
    result = run("kanji", "--dict", words, "--strict-vocab", "-n", "1")
    assert result.exit_code == 2 and f"{words}:3:" in result.stderr
    assert "'abc' skipped" in result.stderr and result.stderr.count("wfkit: ") == 1
    result = run("kanji", "--dict", words, "-n", "1", "--seed", "1")
    assert f"wfkit: warning: {words}:3: 'abc' skipped:" in result.stderr


def test_one_board_reports_one_line(run, tmp_path):
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1",
                 "--style", "tail", "-o", tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: crossword: 1 board made in ")
    batch = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "3", "--seed", "1",
                "-o", tmp_path / "b.jsonl")
    assert len(batch.stderr.splitlines()) >= 2


def test_each_form_keeps_its_own_count_default(run, tmp_path):
    # endless's count (10 questions) was overridden by the batch's count (1): --config's
    # values were given to every subcommand, also for fields the config has no key for
    endless = run("crossword", "endless", "--vocab", EXAMPLES / "tech.yaml", "--seed", "1",
                  "-o", tmp_path / "e.jsonl")
    assert endless.exit_code == 0, endless.output
    assert len((tmp_path / "e.jsonl").read_text(encoding="utf-8").splitlines()) == 10
    assert "[default: 10;" in run("crossword", "endless", "--help").stdout
    batch = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "--seed", "1",
                "-o", tmp_path / "b.jsonl")
    assert batch.exit_code == 0, batch.output
    assert len((tmp_path / "b.jsonl").read_text(encoding="utf-8").splitlines()) == 1
    challenge = run("crossword", "challenge", "--vocab", EXAMPLES / "tech.yaml", "--seed", "1",
                    "-o", tmp_path / "c.jsonl")
    assert challenge.exit_code == 0, challenge.output
    assert len((tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()) == 10
