"""``wfkit kanji`` driven through the CLI: records, reproducibility, renders, config and presets,
figures, ``kanji check``, and one-line errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from conftest import CONFIGS, EXAMPLES

from wordforge_cli.kanji import load_dictionary

WEATHER = EXAMPLES / "kanji-weather.txt"
FIELDS = ("id", "seed", "base", "picked", "words", "kanji", "pass_score", "scores",
          "kanji_count", "chars", "index_a", "orphans", "orphan_count", "hardest_grade",
          "hidden_count", "hidden", "attempts")


def records(result):
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def one_line_error(result, status=2):
    assert result.exit_code == status, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: error: "), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_batch_records_are_complete_and_reproducible(run):
    args = ("kanji", "-n", "30", "--base", "5", "--bring", "25", "--seed", "11")
    first = run(*args)
    recs = records(first)
    assert [r["id"] for r in recs] == list(range(30))
    words = load_dictionary().ids
    for r in recs:
        assert tuple(r) == FIELDS
        assert len(r["words"]) == 30 and len(set(r["words"])) == 30
        assert all(w in words for w in r["words"])
        assert sorted(r["kanji"]) == sorted({c for w in r["words"] for c in w})
    assert run(*args).stdout == first.stdout                      # same bytes
    assert run("kanji", "-n", "30", "--seed", "12").stdout != first.stdout
    assert "30 pools" in first.stderr and "index A" in first.stderr and "指標A" not in first.stderr


def test_pools_do_not_depend_on_batch_size(run):
    short = run("kanji", "-n", "3", "--seed", "5").stdout.splitlines()
    long = run("kanji", "-n", "9", "--seed", "5").stdout.splitlines()
    assert long[:3] == short


def test_output_file_and_stats(run, tmp_path):
    out, stats = tmp_path / "pools.jsonl", tmp_path / "stats.json"
    result = run("kanji", "-n", "20", "--seed", "3", "-o", out, "--stats", stats)
    assert result.exit_code == 0 and result.stdout == ""
    recs = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    written = json.loads(stats.read_text(encoding="utf-8"))
    summary = written["stats"]
    assert summary["pools"] == 20 and written["request"]["seed"] == 3
    counts = sorted(r["kanji_count"] for r in recs)
    assert summary["kanji_count"]["min"] == counts[0]
    assert summary["kanji_count"]["max"] == counts[-1]
    assert summary["hidden_count"]["max"] == max(r["hidden_count"] for r in recs)
    again = tmp_path / "stats2.json"
    run("kanji", "-n", "20", "--seed", "3", "-o", tmp_path / "p2.jsonl", "--stats", again)
    twice = json.loads(again.read_text(encoding="utf-8"))
    assert {**twice, "timing": None} == {**written, "timing": None}  # all but the timing


def test_filters_and_kanji_range(run):
    recs = records(run("kanji", "-n", "15", "--seed", "2", "--max-grade", "6",
                       "--base-max-grade", "3", "--min-zipf", "3", "--kanji", "30-38", "-q"))
    d = load_dictionary()
    from wordforge_cli.kanji import load_grades

    grades = load_grades()
    for r in recs:
        assert 30 <= r["kanji_count"] <= 38
        assert r["hardest_grade"] <= 6
        assert all(grades.get(c, 9) <= 3 for w in r["base"] for c in w)
        assert all(d.zipf[d.ids[w]] >= 3 for w in r["words"])


def test_presets_and_config_defaults(run, tmp_path):
    easy = records(run("kanji", "--preset", "easy", "-n", "10", "--seed", "1", "-q"))
    assert all(r["hardest_grade"] <= 6 for r in easy)
    assert all(25 <= r["kanji_count"] <= 35 for r in easy)
    # the command line beats the preset
    loose = records(run("kanji", "--preset", "easy", "--kanji", "20-60", "-n", "5", "--seed",
                        "1", "-q"))
    assert all(r["hardest_grade"] <= 6 for r in loose)
    cfg = tmp_path / "k.yaml"
    cfg.write_text("count: 4\nbring: 10\npreset: mine\npresets:\n  mine:\n    base: 2\n",
                   encoding="utf-8")
    recs = records(run("kanji", "--config", cfg, "--seed", "1", "-q"))
    assert len(recs) == 4 and all(len(r["base"]) == 2 and len(r["picked"]) == 10
                                  for r in recs)


def test_bundled_config_matches_the_option_defaults():
    from wordforge_cli.kanji.config import load_config

    cfg = load_config(CONFIGS / "kanji.yaml")
    assert cfg.options["base"] == 5 and cfg.options["bring"] == 25
    assert set(cfg.presets) == {"easy", "normal", "hard"}


@pytest.mark.parametrize("text, where, message", [
    ("count: 3\nbrng: 4\n", ":2:", "unknown key 'brng' (did you mean 'bring'?)"),
    ("presets:\n  easy:\n    max_grad: 3\n", ":3:", "did you mean 'max_grade'"),
    ("kanji: 50 to 30\n", ":1:", "kanji: expected LOW-HIGH"),
    ("base: five\n", ":1:", "base: 'five' is not a valid integer"),
    ("preset: hrad\npresets:\n  hard: {}\n", ":1:", "did you mean 'hard'"),
    # nan passes Click's float types; it was caught only by the engine, as --min-zipf
    ("count: 3\nmin_zipf: .nan\n", ":2:", "min_zipf: 'nan' is not a finite number"),
    ("presets:\n  easy:\n    band: .nan\n", ":3:", "is not a finite number"),
])
def test_bad_config_one_line_with_file_and_line(run, tmp_path, text, where, message):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text(text, encoding="utf-8")
    line = one_line_error(run("kanji", "--config", cfg, "-n", "1"))
    assert f"bad.yaml{where}" in line and message in line


@pytest.mark.parametrize("args, message", [
    (("--kanji", "50-30"), "50-30: need 1 <= low <= high"),
    (("--kanji", "lots"), "expected LOW-HIGH"),
    (("--bring", "60000"), "needs 60005 words"),
    (("--max-grade", "1", "--bring", "5000"), "the filters leave"),
    (("--min-zipf", "9"), "the filters leave 0"),
    (("--base", "0"), "'--base': 0 is not in the range 1<=x<=10000"),
    (("--preset", "eazy"), "did you mean 'easy'"),
    (("-n", "-1"), "-1 is not in the range 0<=x<=1000000000"),
    (("-n", str(10**12)), "is not in the range 0<=x<=1000000000"),
    (("--attempts", str(10**7)), "'--attempts': 10000000 is not in the range 1<=x<=100000"),
    (("--min-zipf", "nan"), "not a finite number"),
    (("--min-zipf", "inf"), "not a finite number"),
])
def test_impossible_requests_one_line_exit_2(run, tmp_path, args, message):
    out = tmp_path / "never.jsonl"
    line = one_line_error(run("kanji", "-n", "2", *args, "-o", out))
    assert message in line
    assert not out.exists()


def test_budget_out_is_exit_1_with_reason(run, tmp_path):
    out = tmp_path / "never.jsonl"
    line = one_line_error(run("kanji", "--kanji", "5-6", "--attempts", "10", "--seed", "1",
                              "-o", out), 1)
    assert "no pool with 5-6 kanji in 10 attempts" in line and "lower --bring" in line
    assert not out.exists()


def test_dict_file_replaces_the_dictionary_and_reports_bad_lines(run, tmp_path):
    recs = records(run("kanji", "--dict", WEATHER, "--base", "3", "--bring", "10", "-n", "5",
                       "--seed", "1"))
    allowed = {w.strip() for w in WEATHER.read_text(encoding="utf-8").splitlines()
               if w.strip() and not w.startswith("#")}
    assert all(set(r["words"]) <= allowed for r in recs)
    bad = tmp_path / "d.txt"
    bad.write_text("熱帯\n人々\nnetsu\n気圧\n寒帯\n温帯\n", encoding="utf-8")
    result = run("kanji", "--dict", bad, "--base", "1", "--bring", "2", "-n", "1", "--seed", "1")
    assert result.exit_code == 0
    assert "d.txt:2: '人々' skipped: not all kanji" in result.stderr
    assert "d.txt:3: 'netsu' skipped" in result.stderr
    yaml_dict = tmp_path / "d.yaml"
    yaml_dict.write_text("name: t\nwords:\n  - 熱帯\n  - {word: 気圧}\n  - 寒帯\n  - 温帯\n",
                         encoding="utf-8")
    assert records(run("kanji", "--dict", yaml_dict, "--base", "1", "--bring", "3", "-n", "2",
                       "--seed", "1", "-q"))


def test_empty_dictionary_is_one_line_error(run, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("ねこ\n# nothing\n", encoding="utf-8")
    line = one_line_error(run("kanji", "--dict", empty, "-n", "1"))
    assert "empty.txt" in line and "no usable jukugo" in line


def test_text_render_and_reveal(run):
    plain = run("kanji", "-n", "2", "--seed", "4", "--render", "text", "-q")
    shown = run("kanji", "-n", "2", "--seed", "4", "--render", "text", "--reveal", "-q")
    recs = records(run("kanji", "-n", "2", "--seed", "4", "-q"))
    assert plain.exit_code == 0 and shown.exit_code == 0
    assert plain.stdout.count("# pool") == 2 and "base:" not in plain.stdout
    board_chars = {c for c in plain.stdout if c not in "\n　"}
    for r in recs:
        assert set(r["kanji"]) <= board_chars
        assert "picked: " + " ".join(r["picked"]) in shown.stdout


def test_svg_render_is_a_tile_board(run, tmp_path):
    out = tmp_path / "board.svg"
    result = run("kanji", "-n", "1", "--seed", "4", "--render", "svg", "--reveal", "-o", out)
    assert result.exit_code == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    texts = [t.text for t in root.iter(f"{ns}text")]
    rec = records(run("kanji", "-n", "1", "--seed", "4", "-q"))[0]
    for ch in rec["kanji"]:
        assert ch in texts
    assert len(list(root.iter(f"{ns}rect"))) >= len(rec["kanji"])


def test_check_command(run, tmp_path):
    pools = tmp_path / "pools.jsonl"
    run("kanji", "-n", "3", "--seed", "8", "-o", pools, "-q")
    recs = [json.loads(line) for line in pools.read_text(encoding="utf-8").splitlines()]
    rec = recs[1]
    word = rec["picked"][0]
    yes = run("kanji", "check", word, "--pool", pools, "--id", "1")
    assert yes.exit_code == 0 and yes.stdout.startswith("yes:")
    held = run("kanji", "check", word, "--pool", pools, "--id", "1", "--taken", word)
    assert held.exit_code == 1 and "takes no kanji nobody holds yet" in held.stdout
    unknown = run("kanji", "check", "熱熱熱", "--pool", pools)
    assert unknown.exit_code == 1 and "not a compound in the dictionary" in unknown.stdout
    as_json = run("kanji", "check", word, "--pool", pools, "--id", "1", "--json")
    assert json.loads(as_json.stdout)["ok"] is True
    assert json.loads(as_json.stdout)["hidden"] is False
    surprise = run("kanji", "check", rec["hidden"][0], "--pool", pools, "--id", "1")
    assert surprise.exit_code == 0 and "a compound the pool does not show" in surprise.stdout
    first_board = set(recs[0]["kanji"])
    outside = next(w for w in load_dictionary().words if not set(w) <= first_board)
    off = run("kanji", "check", outside, "--pool", pools)
    assert off.exit_code == 1 and "not on the board" in off.stdout


def test_check_errors_are_one_line(run, tmp_path):
    pools = tmp_path / "pools.jsonl"
    run("kanji", "-n", "1", "--seed", "8", "-o", pools, "-q")
    assert "no pool with id 9" in one_line_error(run("kanji", "check", "一般", "--pool", pools,
                                                     "--id", "9"))
    assert "no such file" in one_line_error(run("kanji", "check", "一般", "--pool",
                                                tmp_path / "none.jsonl"))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"id": 0, "kanji": ["一"]}\n{oops\n', encoding="utf-8")
    line = one_line_error(run("kanji", "check", "一般", "--pool", broken, "--id", "3"))
    assert "broken.jsonl:2:" in line
    stray = one_line_error(run("kanji", "check", "一般", "--pool", pools, "--taken", "鬱"))
    assert "not on the board" in stray


def test_help_has_examples(run):
    result = run("kanji", "--help")
    assert result.exit_code == 0 and "wfkit kanji -n 100" in result.stdout
    assert "wfkit kanji check" in run("kanji", "check", "--help").stdout


def test_same_bytes_under_any_hash_seed(tmp_path):
    """Nothing salted (set order, hash()) reaches the output: two processes, two hash seeds."""
    import os
    import subprocess
    import sys

    outputs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / f"p{hash_seed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, "-m", "wordforge_cli", "kanji", "-n", "25", "--seed",
                        "9", "--kanji", "30-45", "--max-grade", "7", "-q", "-o", str(out)],
                       check=True, env=env)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] and outputs[0].count(b"\n") == 25


def test_zero_pools_and_taken_separators(run, tmp_path):
    out = tmp_path / "none.jsonl"
    assert run("kanji", "-n", "0", "--seed", "1", "-o", out).exit_code == 0
    assert out.read_text(encoding="utf-8") == ""
    pools = tmp_path / "pools.jsonl"
    run("kanji", "-n", "1", "--seed", "8", "-o", pools, "-q")
    rec = json.loads(pools.read_text(encoding="utf-8"))
    word = rec["picked"][0]
    result = run("kanji", "check", word, "--pool", pools, "--taken", ", ".join(word))
    assert result.exit_code == 1 and "nobody holds yet" in result.stdout


def test_the_last_releases_render_name_still_works_with_one_deprecation_line(run):
    new = run("kanji", "-n", "2", "--seed", "1", "-q", "--render", "json")
    old = run("kanji", "-n", "2", "--seed", "1", "-q", "--render", "jsonl")
    assert new.exit_code == old.exit_code == 0 and new.stdout_bytes == old.stdout_bytes
    assert new.stderr == ""
    assert old.stderr == ("wfkit: --render jsonl is deprecated (it goes in a later release): "
                          "use --render json\n")
    assert "[json|text|svg]" in run("kanji", "--help").stdout  # the new names only


def test_one_pool_reports_one_line(run, tmp_path):
    result = run("kanji", "-n", "1", "--seed", "1", "-o", tmp_path / "p.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: kanji: 1 pool in ")
    record = json.loads((tmp_path / "p.jsonl").read_text(encoding="utf-8"))
    assert f"{record['kanji_count']} kanji, {record['chars']} characters" in lines[0]
    two = run("kanji", "-n", "2", "--seed", "1", "-o", tmp_path / "p.jsonl")
    assert len(two.stderr.splitlines()) > 5  # a batch keeps its distribution table


def test_one_self_played_pool_reports_its_line_and_its_games(run, tmp_path):
    # a one-pool run with --self-play once ended in an internal KeyError after writing its file
    result = run("kanji", "-n", "1", "--seed", "1", "--self-play", "-o", tmp_path / "p.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines[0].startswith("wfkit: kanji: 1 pool in ")
    record = json.loads((tmp_path / "p.jsonl").read_text(encoding="utf-8"))
    games = record["balance"]["games"]
    assert lines[1].startswith(f"  self-play: {games} games, first player wins ")
    assert "internal error" not in result.stderr


def test_a_preset_named_by_a_number_is_a_preset(run, tmp_path):
    # a YAML key 1: is an integer: checking the presets' names once ended in an internal error
    config = tmp_path / "k.yaml"
    config.write_text("presets:\n  1:\n    bring: 3\n  2:\n    brng: 3\n", encoding="utf-8")
    result = run("kanji", "--config", config, "-n", "1", "--seed", "1")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"wfkit: error: {config}:5: unknown key 'brng' (did you mean 'bring'?)"]
    config.write_text("presets:\n  1:\n    bring: 3\n", encoding="utf-8")
    result = run("kanji", "--config", config, "--preset", "1", "-n", "1", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "(preset 1)" in result.stderr
