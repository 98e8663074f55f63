"""The WordForge core without the CLI: rules, rating, battle tier, exact score, turns, tiles,
the word-table readers and the Zipf shortcut (checked against wordfreq itself)."""

from __future__ import annotations

import math
import random
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wordforge_tables import WORDS, write_table

from wordforge_cli.wordforge import english
from wordforge_cli.wordforge.rarity import (
    Play,
    Summary,
    Tables,
    WordInfo,
    deal,
    decimal_text,
    hand_cover,
    rate,
    rate_all,
    rate_words,
    record,
    score_word,
    tile_bag,
    turn_plays,
    word_problem,
)

RULES = english.read_rules()
TIER = {t.key: i for i, t in enumerate(RULES.tiers)}


def tables(zipf=None, cefr=None, overrides=None, words=None):
    words = {w: WordInfo(w, *(v or None for v in row)) for w, row in (words or WORDS).items()}
    return Tables(words=words, zipf=zipf or {}, cefr=cefr, overrides=overrides or {})


# ------------------------------------------------------------------ rules


def test_bundled_rules_are_the_articles():
    assert [(t.key, t.label, t.multiplier) for t in RULES.tiers] == [
        ("normal", "N", 1), ("common", "C", Fraction(3, 2)), ("rare", "R", 2),
        ("super_rare", "SR", 3), ("ultra_rare", "UR", 5), ("legendary", "LG", 8)]
    assert [(float(m), RULES.keys[t]) for m, t in RULES.thresholds] == [
        (5, "normal"), (4, "common"), (2.5, "rare"), (1.35, "super_rare"),
        (1.12, "ultra_rare")]
    assert {lvl: RULES.keys[t] for lvl, t in RULES.cefr.items()} == {
        "A1": "normal", "A2": "common", "B1": "rare", "B2": "super_rare",
        "C1": "ultra_rare", "C2": "legendary"}
    assert RULES.score.combo_step == Fraction(3, 20)


@pytest.mark.parametrize("zipf, length, tier", [
    (7.0, 5, "normal"), (5.0, 5, "normal"), (4.99, 5, "common"), (4.0, 5, "common"),
    (3.99, 5, "rare"), (2.5, 5, "rare"), (2.49, 5, "super_rare"), (1.35, 5, "super_rare"),
    (1.34, 5, "ultra_rare"), (1.12, 5, "ultra_rare"), (1.11, 5, "legendary"),
    (0.01, 5, "legendary"), (0.0, 5, "normal"), (float("nan"), 5, "normal"),
    (-1.0, 5, "normal"),
    # three letters or fewer: capped at SR by the Zipf rule
    (1.0, 3, "super_rare"), (1.2, 2, "super_rare"), (4.5, 3, "common"), (1.0, 4, "legendary"),
])
def test_zipf_tier_thresholds_and_short_cap(zipf, length, tier):
    assert RULES.keys[RULES.zipf_tier(zipf, length)] == tier


def test_battle_tier_needs_length_and_frequency_and_caps():
    sr, ur, lg = TIER["super_rare"], TIER["ultra_rare"], TIER["legendary"]
    assert RULES.battle_tier(sr, 2.37, 9) == ur
    assert RULES.battle_tier(sr, 2.37, 7) == ur
    assert RULES.battle_tier(sr, 2.37, 6) == sr
    assert RULES.battle_tier(sr, 0.0, 9) == sr  # no frequency data: no upgrade
    assert RULES.battle_tier(lg, 3.31, 9) == lg  # capped
    assert RULES.battle_tier(sr, 2.37, 9, gold_rush=True) == lg
    assert RULES.battle_tier(sr, 2.37, 3, gold_rush=True) == ur


# ------------------------------------------------------------------ rating


def test_rule_order_override_then_cefr_then_zipf():
    t = tables(zipf={"cats": 4.46, "cat": 4.78, "pizza": 4.43},
               overrides={"pizza": "legendary"})
    cat = rate("cat", RULES, t)
    assert (cat.cefr, RULES.keys[cat.tier], cat.source) == ("A1", "normal", "cefr")
    pizza = rate("pizza", RULES, t)
    assert (RULES.keys[pizza.tier], pizza.source) == ("legendary", "override")
    cats = rate("cats", RULES, t)  # via the lemma's level
    assert (cats.cefr, cats.source, cats.cefr_lemma) == ("A1", "cefr", "cat")
    plain = rate("cats", RULES, t, use_lemma=False)
    assert (plain.cefr, plain.source, plain.cefr_lemma) == (None, "zipf", None)
    assert RULES.keys[plain.tier] == "common"


def test_user_cefr_table_replaces_the_words_levels():
    t = tables(zipf={"cat": 4.78}, cefr={"child": "B2"})
    assert rate("cat", RULES, t).source == "zipf"  # the data's A1 is not used
    children = rate("children", RULES, t)
    assert (children.cefr, children.cefr_lemma, RULES.keys[children.tier]) == (
        "B2", "child", "super_rare")


def test_unplayable_word_still_rated_and_lemmatized_when_asked():
    t = tables(zipf={"zzz": 0.0})
    t.lemmatize = lambda w: "cat" if w == "catz" else None
    r = rate("catz", RULES, t)
    assert (r.playable, r.cefr, r.cefr_lemma, r.source) == (False, "A1", "cat", "cefr")
    assert rate("zzz", RULES, t).playable is False


def test_rate_words_records_and_summary():
    t = tables(zipf={"xylophone": 2.37, "cat": 4.78})
    records = list(rate_words(["cat", "xylophone", "nope"], RULES, t))
    assert list(records[0])[:9] == ["word", "zipf", "cefr", "rarity", "label", "multiplier",
                                    "source", "battle_rarity", "playable"]
    assert records[1]["battle_rarity"] == "ultra_rare"
    counts = Summary(RULES)
    for rating in rate_all(["cat", "xylophone", "nope"], RULES, t):
        counts.add(rating)
    summary = counts.summary()
    assert summary["words"] == 3 and summary["not_playable"] == 1
    assert summary["sources"] == {"override": 0, "cefr": 1, "zipf": 2}
    assert summary["tiers"]["super_rare"] == 1 and summary["tiers"]["normal"] == 2


def test_fast_writers_match_the_plain_records():
    import csv
    import io

    from wordforge_cli.commands.rarity import write_ratings
    from wordforge_cli.io.output import dumps

    t = tables(zipf={"xylophone": 2.37, "cat": 4.78, "cats": 4.46},
               overrides={"dot": "ultra_rare"})
    t.words["quote"] = WordInfo("quote", None, None, 'n"oun', 'a "b"\\c\té|x')
    words = ["cat", "cats", "xylophone", "nope", "dot", "quote"]
    for gold_rush in (False, True):
        ratings = list(rate_all(words, RULES, t, gold_rush=gold_rush))
        records = [record(r, RULES) for r in ratings]
        out = io.StringIO()
        write_ratings(ratings, RULES, "json", out)
        assert out.getvalue() == "".join(dumps(r) + "\n" for r in records)
        out = io.StringIO()
        write_ratings(ratings, RULES, "csv", out)
        rows = list(csv.DictReader(io.StringIO(out.getvalue())))
        assert [r["word"] for r in rows] == words
        for row, rec in zip(rows, records, strict=True):
            assert row == {k: "" if v is None else str(v).lower() if isinstance(v, bool)
                           else str(v) for k, v in rec.items()}
        out = io.StringIO()
        write_ratings(ratings, RULES, "md", out)
        md = out.getvalue().splitlines()
        assert len(md) == 2 + len(words) and all(line.count(" | ") == 10 for line in md)
        assert md[-1].endswith("a \"b\"\\c\té\\|x |")
        out = io.StringIO()
        write_ratings(ratings, RULES, "table", out)
        table = out.getvalue().splitlines()
        starts = [table[0].index(h) for h in ("zipf", "cefr", "rarity", "rule", "pos")]
        for line, rec in zip(table[1:], records, strict=True):
            assert line.startswith(rec["word"] + " ")
            assert [line[i:].split()[0] for i in starts] == [
                f"{rec['zipf']:.2f}", rec["cefr"] or "-", rec["label"], rec["source"],
                rec["pos"] or "-"]


@pytest.mark.parametrize("text, ok", [
    ("cat", True), ("Cat", True), ("ABC", True), ("", False), ("  ", False), ("c4t", False),
    ("cat🐱", False), ("café", False), ("well-known", False), ("ice cream", False)])
def test_word_problem(text, ok):
    assert (word_problem(text) is None) is ok


# ------------------------------------------------------------------ score


def test_article_score_examples():
    assert score_word("ennui", TIER["legendary"], RULES).score == 88
    assert score_word("quaff", TIER["legendary"], RULES).score == 208
    xylophone = score_word("xylophone", TIER["ultra_rare"], RULES)
    assert (xylophone.tile_sum, xylophone.length_term, xylophone.length_bonus,
            xylophone.subtotal, xylophone.score) == (24, 12, 8, 44, 220)


def test_exact_arithmetic_where_floats_lose_a_point():
    # 4 x 5 x (1 + 9 x 0.15) is 47 exactly; binary floats make it 46.999...
    assert math.floor(4 * 5 * (1 + 9 * 0.15)) == 46
    dot = score_word("dot", TIER["ultra_rare"], RULES, Play(combo=9))
    assert dot.subtotal == 4 and dot.score == 47 and decimal_text(dot.product) == "47"


def test_base_never_below_zero_and_wild_counts_zero():
    one = score_word("a", TIER["normal"], RULES)  # 1 + (1 - 3) x 2 = -3 -> 0
    assert one.base == 0 and one.score == 0
    wild = score_word("quaff", TIER["legendary"], RULES, Play(wild=(0,)))
    assert wild.tile_sum == 10 and wild.score == (10 + 4 + 2) * 8


def test_power_ups():
    base = 26  # quaff
    assert score_word("quaff", 0, RULES, Play(double=True)).score == base * 2
    assert score_word("quaff", 0, RULES, Play(link=True)).score == 39
    assert score_word("quaff", 0, RULES, Play(fortress=True)).score == math.floor(26 * 0.7)
    assert score_word("quaff", 0, RULES, Play(overdrive=True)).score == 24 + 4


def _independent_score(word: str, multiplier: str, combo: int, double: bool, link: bool,
                       overdrive: bool, fortress: bool, wild: set[int]) -> int:
    """The article's formula again, in Decimal (exact for these decimals), written apart."""
    points = {**dict.fromkeys("aeioulnrst", 1), **dict.fromkeys("dg", 2),
              **dict.fromkeys("bcmp", 3), **dict.fromkeys("fhvwy", 4), "k": 5, "j": 8,
              "x": 8, "q": 10, "z": 10}
    tile = sum(0 if i in wild else points[c] for i, c in enumerate(word))
    base = max(0, tile + (len(word) - 3) * 2)
    n = len(word)
    bonus = 8 if n >= 7 else 5 if n == 6 else 2 if n == 5 else 0
    if overdrive:
        bonus *= 2
    value = Decimal(base + bonus) * Decimal(multiplier) * (1 + combo * Decimal("0.15"))
    value *= (2 if double else 1) * (Decimal("1.5") if link else 1)
    value *= Decimal("0.7") if fortress else 1
    return int(value.to_integral_value(rounding="ROUND_FLOOR"))


@settings(max_examples=300)
@given(word=st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12),
       tier=st.integers(0, 5), combo=st.integers(0, 30), double=st.booleans(),
       link=st.booleans(), overdrive=st.booleans(), fortress=st.booleans(),
       wild=st.sets(st.integers(0, 11), max_size=3))
def test_score_matches_an_independent_decimal_formula(word, tier, combo, double, link,
                                                      overdrive, fortress, wild):
    wild = {i for i in wild if i < len(word)}
    play = Play(combo, double, link, overdrive, fortress, tuple(sorted(wild)))
    got = score_word(word, tier, RULES, play).score
    multiplier = ["1", "1.5", "2", "3", "5", "8"][tier]
    assert got == _independent_score(word, multiplier, combo, double, link, overdrive,
                                      fortress, wild)


def test_decimal_text():
    assert decimal_text(Fraction(47)) == "47"
    assert decimal_text(Fraction(473, 10)) == "47.3"
    assert decimal_text(Fraction(1, 40)) == "0.025"
    assert decimal_text(Fraction(1, 3)) == "1/3"


def test_turns_carry_combo_and_link():
    words = ["cat", "cats", "castle", "clam", "zzz", "quaff", "qi"]
    playable = [True, True, True, True, False, True, True]
    assert turn_plays(words, playable) == [
        (0, False),  # first word
        (1, True),   # longer, same first letter
        (2, True),
        (0, True),   # shorter: combo resets; link still holds
        (0, False),  # not playable
        (1, False),  # longer than 'clam', the previous played word; counter was reset
        (0, True),   # shorter
    ]
    assert turn_plays(["cat", "cats"], [True, True], combo=3, link=True) == [(3, True),
                                                                             (4, True)]


# ------------------------------------------------------------------ tiles


def test_bag_is_the_articles_98_tiles():
    bag = tile_bag(RULES.tiles, 2)
    assert len(bag) == 98
    counts = {c: bag.count(c) for c in set(bag)}
    assert counts == {"a": 9, "e": 12, "i": 9, "o": 8, "u": 4, "l": 4, "n": 6, "r": 6,
                      "s": 4, "t": 6, "d": 4, "g": 3, "b": 2, "c": 2, "m": 2, "p": 2,
                      "f": 2, "h": 2, "v": 2, "w": 2, "y": 2, "k": 1, "j": 1, "x": 1,
                      "q": 1, "z": 1}
    by_points: dict[int, str] = {}
    for letter, points in RULES.tiles.points.items():
        by_points[points] = by_points.get(points, "") + letter
    assert by_points == {1: "aeilnorstu", 2: "dg", 3: "bcmp", 4: "fhvwy", 5: "k", 8: "jx",
                         10: "qz"}
    assert len(tile_bag(RULES.tiles, 3)) == 196 and len(tile_bag(RULES.tiles, 8)) == 196


def test_deal_is_reproducible_and_a_partition_of_the_bag():
    a = deal(RULES.tiles, 4, random.Random(5))
    b = deal(RULES.tiles, 4, random.Random(5))
    assert a == b
    assert [len(h) for h in a.hands] == [10] * 4
    assert sorted("".join(a.hands) + a.bag) == sorted(tile_bag(RULES.tiles, 4))
    assert deal(RULES.tiles, 4, random.Random(6)) != a


@pytest.mark.parametrize("hand, word, uncovered, wilds", [
    ("quaffxyz", "quaff", (), 0),
    ("qua?f", "quaff", (4,), 1),
    ("qua??", "quaff", (3, 4), 2),
    ("qua?", "quaff", (3, 4), 1),
    ("", "cat", (0, 1, 2), 0),
])
def test_hand_cover(hand, word, uncovered, wilds):
    assert hand_cover(hand, word) == (uncovered, wilds)


# ------------------------------------------------------------------ readers


def test_mapped_and_loaded_word_tables_agree(tmp_path):
    path = write_table(tmp_path)
    mapped = english.open_words(path)
    loaded = english.open_words(path, whole=True)
    for word in [*WORDS, "a", "aaa", "cas", "catz", "zzzz", "dogs", "zaxx"]:
        assert mapped.get(word) == loaded.get(word)
        assert (mapped.get(word) is not None) == (word in WORDS)
    assert mapped.get("cats") == WordInfo("cats", "", "cat", "noun", "猫")
    assert mapped.get("zax") == ("zax", "", "", "", "")


@settings(max_examples=40)
@given(st.sets(st.text("abcz", min_size=1, max_size=5), max_size=40),
       st.lists(st.text("abcz", min_size=1, max_size=5), max_size=10))
def test_binary_search_finds_exactly_the_listed_words(tmp_path_factory, listed, probes):
    path = write_table(tmp_path_factory.mktemp("t"), {w: ("", "", "", "") for w in listed})
    mapped = english.open_words(path)
    for word in [*listed, *probes]:
        assert (mapped.get(word) is not None) == (word in listed)


@pytest.mark.parametrize("text, line, needle", [
    ("cat\tA1\t\tnoun\t猫\ndog\tA1\tnoun\n", 2, "5 tab-separated fields"),
    ("cat\tA1\t\tnoun\t猫\n\ndog\tA1\t\t\t\n", 2, "5 tab-separated fields"),
    ("cat\tA1\t\tnoun\t猫\ndog\tD9\t\t\t\n", 2, "unknown CEFR level 'D9'"),
])
def test_bad_word_table_names_its_line(tmp_path, text, line, needle):
    from wordforge_cli.core.errors import ConfigError

    path = tmp_path / "w.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=needle) as caught:
        english.open_words(path, whole=True)
    assert caught.value.line == line
    if "\n\n" not in text:  # a user's table is checked whole when it is opened for lookups
        with pytest.raises(ConfigError, match=needle) as caught:
            english.open_words(path).get("dog")
        assert caught.value.line == line


def test_missing_word_table_is_a_config_error(tmp_path):
    from wordforge_cli.core.errors import ConfigError

    for whole in (False, True):
        with pytest.raises(ConfigError, match="no such file"):
            english.open_words(tmp_path / "nope.tsv", whole=whole)


def test_band_zipf_equals_wordfreq_for_every_band():
    wordfreq = pytest.importorskip("wordfreq")
    plain = re.compile("[a-z]+")
    checked = 0
    for index, band in enumerate(wordfreq.get_frequency_list("en")):
        word = next((w for w in band if plain.fullmatch(w)), None)
        if word is None:
            continue
        assert english.band_zipf(index) == wordfreq.zipf_frequency(word, "en"), (index, word)
        checked += 1
    assert checked > 500


def test_zipf_lookups_equal_zipf_frequency_on_a_sample():
    wordfreq = pytest.importorskip("wordfreq")
    table = english.zipf_table()
    plain = [w for w in table if re.fullmatch("[a-z]+", w)]
    sample = random.Random(0).sample(plain, 3000) + ["labyrinth", "cat", "qzxqzx"]
    one = english.ZipfOne()
    for word in sample:
        expected = wordfreq.zipf_frequency(word, "en")
        assert table.get(word, 0.0) == expected, word
    for word in sample[:20] + ["labyrinth", "qzxqzx"]:
        assert one.get(word) == wordfreq.zipf_frequency(word, "en"), word


# ------------------------------------------------------------------ properties

ORDER = ["normal", "common", "rare", "super_rare", "ultra_rare", "legendary"]
ARTICLE_THRESHOLDS = [("normal", 5), ("common", 4), ("rare", 2.5), ("super_rare", 1.35),
                      ("ultra_rare", 1.12)]
ARTICLE_CEFR = {"A1": "normal", "A2": "common", "B1": "rare", "B2": "super_rare",
                "C1": "ultra_rare", "C2": "legendary"}


def article_rarity(word, zipf, overrides, cefr):
    """The article's TypeScript rule, transcribed line by line (the independent checker)."""
    if word in overrides:
        return overrides[word], "override"
    if word in cefr:
        return ARTICLE_CEFR[cefr[word]], "cefr"
    if not math.isfinite(zipf) or zipf <= 0:
        return "normal", "zipf"
    rarity = next((r for r, minimum in ARTICLE_THRESHOLDS if zipf >= minimum), "legendary")
    if len(word) <= 3 and ORDER.index(rarity) > ORDER.index("super_rare"):
        rarity = "super_rare"
    return rarity, "zipf"


@settings(max_examples=200)
@given(word=st.text("abcq", min_size=1, max_size=9),
       zipf=st.integers(0, 800).map(lambda n: round(n / 100, 2)),
       level=st.none() | st.sampled_from(sorted(ARTICLE_CEFR)),
       override=st.none() | st.sampled_from(ORDER),
       gold_rush=st.booleans())
def test_rating_matches_the_articles_code(word, zipf, level, override, gold_rush):
    cefr = {word: level} if level else {}
    overrides = {word: override} if override else {}
    t = tables(zipf={word: zipf}, cefr=cefr, overrides=overrides, words={})
    got = rate(word, RULES, t, use_lemma=False, gold_rush=gold_rush)
    expected, source = article_rarity(word, zipf, overrides, cefr)
    assert (RULES.keys[got.tier], got.source) == (expected, source)
    up = (1 if len(word) >= 7 and zipf > 0 else 0) + (1 if gold_rush else 0)
    assert RULES.keys[got.battle_tier] == ORDER[min(ORDER.index(expected) + up, 5)]


@settings(max_examples=60)
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(1, 8))
def test_every_deal_is_the_bag_in_hands_of_10(seed, players):
    from wordforge_cli.core.rng import item_rng

    result = deal(RULES.tiles, players, item_rng(seed, "tiles", 0))
    assert len(result.hands) == players and all(len(h) == 10 for h in result.hands)
    assert sorted("".join(result.hands) + result.bag) == sorted(tile_bag(RULES.tiles, players))
    assert result.sets == (2 if players >= 3 else 1)
    assert deal(RULES.tiles, players, item_rng(seed, "tiles", 0)) == result
