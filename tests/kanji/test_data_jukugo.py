"""The bundled jukugo dictionary plays the kanji article's game: the compounds a player names are
in it, the article's own words and steal work, names are out, and the judged samples kept under
data/quality/ are samples of the file that ships."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys

import pytest
from conftest import ROOT

from wordforge_cli.kanji import load_dictionary

QUALITY = ROOT / "data" / "quality"
ARTICLE_WORDS = ("熱帯", "気圧", "低気圧", "熱帯低気圧", "亜熱帯", "亜寒帯", "十人十色", "十中八九")
SAMPLE_SEED, SAMPLE_SIZE = 8, 200


def listed(name: str) -> list[str]:
    text = (QUALITY / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def words() -> frozenset[str]:
    return frozenset(load_dictionary().words)


def test_common_compounds_at_most_3_of_100_missing(words):
    common = listed("jukugo-common.txt")
    assert len(common) == len(set(common)) == 100
    by_length = [sum(1 for w in common if len(w) == n) for n in (2, 3)]
    assert by_length == [35, 35]                      # and 30 of 4 to 6 kanji
    missing = [w for w in common if w not in words]
    assert len(missing) <= 3, missing


def test_the_articles_words_are_in(words):
    assert [w for w in ARTICLE_WORDS if w not in words] == []


def test_size_near_the_articles_36k(words):
    assert 34_000 <= len(words) <= 38_000


def test_rare_words_out_common_ones_and_first_spellings_in(words):
    # a later spelling, an obsolete word, a glossary term, a hyougai kanji, a name's count
    assert not {"起原", "年令", "什麼", "領域集合", "糯米", "女山"} & words
    # their first spellings, and words with a marker or a zipf of 3.0 whatever their tags
    assert {"起源", "年齢", "蜘蛛", "薔薇", "将棋", "線香"} <= words


RARE_REASONS = ("spelling", "out of use", "technical", "rare kanji", "name count")


def test_rare_samples_are_judged_and_say_their_counts():
    for reason in (*RARE_REASONS, "kana word"):
        name = f"jukugo-rare-{reason.replace(' ', '-')}-sample.tsv"
        rows = [line.split("\t") for line in listed(name)]
        assert len(rows) == len({r[0] for r in rows}) == 50, name
        assert all(r[1] in ("known", "rare") for r in rows), name
        known = sum(1 for r in rows if r[1] == "known")
        assert f"{known} known, {50 - known} rare" in (QUALITY / name).read_text(encoding="utf-8")


def test_words_only_names_are_out_and_ordinary_homographs_stay(words):
    # every sense a place, era or organisation name in JMdict (and a JMnedict headword)
    assert not {"東京", "沖縄", "大正", "明治維新", "大蔵省", "群馬"} & words
    # JMnedict names too, but ordinary words first (a maiden, clogs, Tuesday, a bird)
    assert {"乙女", "下駄", "火曜", "目黒", "海月", "宮中"} <= words


def test_every_word_has_a_frequency_so_min_zipf_filters_all_of_them():
    d = load_dictionary()
    assert all(z is not None and 0 < z < 8 for z in d.zipf)
    # derived frequencies sit on wordfreq's scale: long compounds wordfreq splits are drawn
    # by the normal preset's filter (zipf >= 2.5) when JMdict's newspaper list ranks them high
    z = dict(zip(d.words, d.zipf, strict=True))
    assert z["低気圧"] >= 2.5 and z["洗濯機"] >= 2.5 and z["交通事故"] >= 2.5
    assert z["熱帯低気圧"] > z["十人十色"] > 0      # nf30 above nf44


def test_names_sample_is_the_shipped_files_and_at_most_3_percent(words):
    rows = [line.split("\t") for line in listed("jukugo-names-sample.tsv")]
    expected = random.Random(SAMPLE_SEED).sample(sorted(words), SAMPLE_SIZE)
    assert [r[0] for r in rows] == expected, "data/jukugo.tsv changed: judge a new sample"
    assert all(len(r) == 4 and r[1] in ("word", "name") and r[3] for r in rows)
    names = sum(1 for r in rows if r[1] == "name")
    assert names <= 0.03 * SAMPLE_SIZE


def test_the_articles_steal_plays_on_the_default_dictionary(run, tmp_path):
    """[低気圧熱帯] on the board, A took 熱帯 and 気圧: B answers 熱帯低気圧 and takes 低."""
    weather = tmp_path / "weather.txt"
    weather.write_text("熱帯\n気圧\n低気圧\n", encoding="utf-8")
    pools = tmp_path / "pools.jsonl"
    made = run("kanji", "--dict", weather, "--base", "1", "--bring", "2", "-n", "1",
               "--seed", "1", "-o", pools, "-q")
    assert made.exit_code == 0, made.stderr
    pool = json.loads(pools.read_text(encoding="utf-8"))
    assert sorted(pool["kanji"]) == sorted("熱帯気圧低") and "熱帯低気圧" not in pool["words"]
    steal = run("kanji", "check", "熱帯低気圧", "--pool", pools, "--taken", "熱帯気圧", "--json")
    assert steal.exit_code == 0, steal.stdout + steal.stderr
    verdict = json.loads(steal.stdout)
    assert verdict["ok"] is True and verdict["hidden"] is True


def test_words_without_their_own_frequency_are_answers_not_board_words(run, tmp_path):
    d = load_dictionary()
    answers = {d.words[i] for i in d.answer_only}
    # the estimated compounds and idioms (8,403) and the words no list of common words has
    # (10,885): 19,288 answers only and 17,908 drawn at the last build
    assert len(answers) == 19_288 and len(d) - len(answers) == 17_908
    assert {"国際空港", "就職活動", "年中無休", "電子辞書"} <= answers
    # obscure idioms and words a wordfreq count alone let onto boards stay valid answers
    assert {"正直一遍", "消長盛衰", "天涯比隣", "則天去私", "軟鋼", "装荷", "苦力", "志操",
            "十中八九", "亜寒帯"} <= answers
    assert not {"低気圧", "熱帯低気圧", "天気予報", "十人十色", "熱帯", "亜熱帯"} & answers
    pools = tmp_path / "pools.jsonl"
    made = run("kanji", "-n", "200", "--seed", "2", "-o", pools, "-q")
    assert made.exit_code == 0, made.stderr
    drawn = {w for line in pools.read_text(encoding="utf-8").splitlines()
             for w in json.loads(line)["words"]}
    assert not drawn & answers
    # a player naming one is still right (a hidden compound, the surprise move)
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"id": 0, "words": ["国際", "空港"], "kanji": list("国際空港")}),
                     encoding="utf-8")
    said = run("kanji", "check", "国際空港", "--pool", board, "--taken", "国際", "--json")
    assert said.exit_code == 0, said.stdout + said.stderr
    assert json.loads(said.stdout)["hidden"] is True


DRAWN_SEED = 22


def judged(name: str) -> tuple[list[list[str]], str]:
    text = (QUALITY / name).read_text(encoding="utf-8")
    return [line.split("\t") for line in listed(name)], text


def test_drawable_sample_is_the_shipped_files_and_meets_the_bars():
    """200 random drawable words judged one by one: at most 5% unknown, at most 2% names."""
    d = load_dictionary()
    drawable = sorted(w for i, w in enumerate(d.words) if i not in d.answer_only)
    rows, text = judged("jukugo-drawable-seed22.tsv")
    expected = random.Random(DRAWN_SEED).sample(drawable, SAMPLE_SIZE)
    assert [r[0] for r in rows] == expected, "the drawn words changed: judge a new sample"
    assert all(len(r) == 5 and r[1] in ("known", "unknown", "name") for r in rows)
    unknown = sum(1 for r in rows if r[1] == "unknown")
    names = sum(1 for r in rows if r[1] == "name")
    assert f"{SAMPLE_SIZE - unknown - names} known, {unknown} unknown, {names} names" in text
    assert unknown <= 0.05 * SAMPLE_SIZE and names <= 0.02 * SAMPLE_SIZE
    # the same seed's sample of the table before the drawn rule, kept for the comparison
    before, text = judged("before-jukugo-drawable-seed22.tsv")
    assert len(before) == len({r[0] for r in before}) == SAMPLE_SIZE
    unknown = sum(1 for r in before if r[1] == "unknown")
    names = sum(1 for r in before if r[1] == "name")
    assert f"{SAMPLE_SIZE - unknown - names} known, {unknown} unknown, {names} names" in text


@pytest.mark.parametrize("preset", ["easy", "normal", "hard"])
def test_presets_make_their_pools_on_the_new_dictionary(run, preset):
    result = run("kanji", "-n", "20", "--preset", preset, "--seed", "1", "-q")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 20


@pytest.mark.skipif(importlib.util.find_spec("jamdict_data") is None,
                    reason="build extras not installed (pip install -e '.[build]')")
def test_rebuild_gives_the_shipped_bytes_and_the_judged_rare_samples(tmp_path):
    dropped = tmp_path / "dropped.tsv"
    subprocess.run([sys.executable, str(ROOT / "data" / "build" / "jukugo.py"), "--out",
                    str(tmp_path), "--dropped", str(dropped)], check=True, capture_output=True)
    for name in ("jukugo.tsv", "kanji_grades.tsv"):
        assert (tmp_path / name).read_bytes() == (ROOT / "data" / name).read_bytes(), name
    by_reason: dict[str, list[str]] = {reason: [] for reason in RARE_REASONS}
    for line in dropped.read_text(encoding="utf-8").splitlines()[1:]:
        word, reason = line.split("\t")
        by_reason[reason].append(word)
    for reason, cut in by_reason.items():
        rows = listed(f"jukugo-rare-{reason.replace(' ', '-')}-sample.tsv")
        assert [r.split("\t")[0] for r in rows] == random.Random(36).sample(sorted(cut), 50)
