"""The rough edges a new user hit (issue 13): one line where one thing happened, excerpts that
show the difference, the same statistics conventions in every engine."""

from __future__ import annotations

import json

from conftest import EXAMPLES

from wordforge_cli.pack.files import SHOW, excerpts


def test_check_excerpts_are_centred_on_the_first_difference():
    record = {"id": 7, "cells": [{"x": i, "y": i, "c": "ア", "n": -2} for i in range(40)],
              "style": "tail", "attempts": 1}
    expected = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    record["cells"][25]["n"] = -1
    actual = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    want, got, column = excerpts(expected, actual)
    text = expected.decode()
    assert column - 1 == next(i for i, (a, b) in enumerate(zip(text, actual.decode(),
                                                                strict=False)) if a != b)
    assert column > 2 * SHOW  # far past what a head-of-line excerpt shows
    assert want != got and want.startswith("...") and want.endswith("...")
    assert '"n": -2' in want and '"n": -1' in got
    assert len(want) <= SHOW + 10
    # short lines and a file that ends early
    assert excerpts(b'{"a":1}\n', b'{"a":2}\n') == ("'{\"a\":1}'", "'{\"a\":2}'", 6)
    assert excerpts(b'{"a":1}\n', b"")[1] == "(end of file)"


def test_pack_check_of_a_missing_directory_is_one_line(run, tmp_path):
    result = run("pack", "check", EXAMPLES / "pack.yaml", "--out", tmp_path / "nowhere")
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "nowhere: no pack there (no such directory)" in lines[0]
    assert "wfkit pack build" in lines[0]


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


def test_one_board_reports_one_line(run, tmp_path):
    result = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "1", "--seed", "1",
                 "--style", "tail", "-o", tmp_path / "b.jsonl")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wfkit: crossword: 1 board made in ")
    batch = run("crossword", "--vocab", EXAMPLES / "tech.yaml", "-n", "3", "--seed", "1",
                "-o", tmp_path / "b.jsonl")
    assert len(batch.stderr.splitlines()) >= 2


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
                  EXAMPLES / "../configs/rarity.yaml", "--stats", stats)
    assert refused.exit_code == 2 and "--stats goes with a rarity table" in refused.stderr


def test_tiles_stats_of_many_deals(run, tmp_path):
    from wordforge_cli.core.rng import item_rng
    from wordforge_cli.wordforge.deal_stats import DealStats
    from wordforge_cli.wordforge.english import read_rules
    from wordforge_cli.wordforge.rarity import deal

    stats = tmp_path / "deals.json"
    result = run("tiles", "--players", "3", "-n", "40", "--seed", "5", "--json",
                 "--stats", stats)
    assert result.exit_code == 0, result.output
    hands = [h for line in result.stdout.splitlines() for h in json.loads(line)["hands"]]
    figures = json.loads(stats.read_text(encoding="utf-8"))["stats"]
    assert figures["deals"] == 40 and figures["hands"] == len(hands) == 120
    vowels = sorted(sum(ch in "AEIOU" for ch in h) for h in hands)
    assert figures["vowels"]["min"] == vowels[0] and figures["vowels"]["max"] == vowels[-1]
    assert figures["hands_without_vowel"] == vowels.count(0)
    assert figures["q_without_u"] == sum("Q" in h and "U" not in h for h in hands)
    report = [line for line in result.stderr.splitlines() if line.startswith("wfkit: tiles:")]
    assert len(report) == 1 and "40 deals, 120 hands" in report[0]
    # mergeable: two halves summarise to the whole
    rules = read_rules(None).tiles
    whole, first, second = DealStats(rules.points), DealStats(rules.points), DealStats(
        rules.points)
    for i in range(40):
        one = deal(rules, 3, item_rng(5, "tiles", i))
        whole.add(one)
        (first if i < 17 else second).add(one)
    restored = DealStats.from_state(json.loads(json.dumps(second.to_state())), rules.points)
    assert first.merge(restored).summary() == whole.summary() == figures
    single = run("tiles", "--seed", "5")
    assert not [line for line in single.stderr.splitlines() if line.startswith("wfkit: tiles:")]
    refused = run("tiles", "--hand", "abc", "--word", "cab", "--stats", stats)
    assert refused.exit_code == 2 and "--stats goes with dealing" in refused.stderr


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
