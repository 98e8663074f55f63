"""``tiles --best``: the hand index against brute force, and the CLI against ``--word``."""

from __future__ import annotations

import json
import random

import pytest
from hands_reference import brute_best
from hypothesis import given, settings
from hypothesis import strategies as st
from wordforge_tables import write_table

from wordforge_cli.wordforge.english import read_rules
from wordforge_cli.wordforge.hands import build_index
from wordforge_cli.wordforge.rarity import LEVELS, Play, Tables, WordInfo, hand_cover, score_word

RULES = read_rules()
LETTERS = "aabcdeeefghiijklmnoopqrssttuvwxyz"


def _table(seed: int, n: int = 3000) -> Tables:
    rng = random.Random(seed)
    words: dict[str, WordInfo] = {}
    zipf: dict[str, float] = {}
    while len(words) < n:
        w = "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 12)))
        level = rng.choice(("", "", "", *LEVELS))
        words[w] = WordInfo(w, level, "", "", "")
        if rng.random() < 0.8:
            zipf[w] = round(rng.uniform(0.5, 7), 2)
    return Tables(words=words, zipf=zipf)


TABLE = _table(1)
INDEX = build_index(RULES, TABLE, 10)
assert len(INDEX.buckets) > 100  # the test table spans many buckets
CANDIDATES = [(w, r.battle_tier) for w, r in zip(INDEX.words, INDEX.ratings, strict=True)]


def test_index_holds_the_playable_words_up_to_the_hand_size_best_first():
    assert sorted(INDEX.words) == sorted(w for w in TABLE.words if len(w) <= 10)
    assert list(INDEX.scores) == sorted(INDEX.scores, reverse=True)
    for i in range(0, len(INDEX), 97):
        r = INDEX.ratings[i]
        assert INDEX.scores[i] == score_word(r.word, r.battle_tier, RULES).score


hands = st.text(alphabet="abcdefghijklmnopqrstuvwxyz??", min_size=1, max_size=10)


@settings(max_examples=150)
@given(hand=hands, k=st.integers(1, 12))
def test_best_is_brute_force(hand, k):
    assert INDEX.best(hand, k) == brute_best(hand, k, CANDIDATES, RULES)


@settings(max_examples=60)
@given(hand=hands)
def test_makeable_is_exactly_the_words_the_hand_covers(hand):
    order = list(INDEX.candidates(hand))
    assert order == sorted(order)
    made = {INDEX.words[i] for i in order}
    expected = set()
    for w in INDEX.words:
        positions, wilds = hand_cover(hand, w)
        if len(positions) <= wilds:
            expected.add(w)
    assert made == expected


def test_a_player_mask_keeps_only_known_words():
    known = INDEX.mask(lambda r: r.cefr in ("A1", "A2"))
    rng = random.Random(5)
    for _ in range(30):
        hand = "".join(rng.choice(LETTERS) for _ in range(10))
        got = INDEX.best(hand, 5, known)
        want = brute_best(hand, 5, CANDIDATES, RULES,
                          mask=lambda w: TABLE.words[w].cefr in ("A1", "A2"))
        assert got == want


def test_wild_scores_zero_and_a_real_tile_is_used_first():
    (best,) = build_index(RULES, Tables(words={"quiz": WordInfo("quiz")}, zipf={}), 10).best(
        "qui?", 1)
    assert best.word == "quiz" and best.wild == (3,)
    assert best.score == score_word("quiz", best.tier, RULES, Play(wild=(3,))).score


def test_score_cache_gives_score_word_numbers():
    for i in range(0, len(INDEX), 211):
        r = INDEX.ratings[i]
        for play in (Play(combo=2, link=True), Play(double=True, overdrive=True),
                     Play(wild=(0,), fortress=True)):
            assert INDEX.score(i, play)[0] == score_word(r.word, r.battle_tier, RULES,
                                                         play).score


# ---- the command -------------------------------------------------------------------------------

@pytest.fixture
def data(tmp_path):
    return write_table(tmp_path)


def test_best_gives_the_scores_of_word(run, data):
    result = run("tiles", "--hand", "XYLOPHONE?", "--best", "-k", "5", "--data", data, "--json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records and records[0]["word"] == "xylophone"
    for rec in records:
        one = run("tiles", "--hand", "XYLOPHONE?", "--word", rec["word"], "--data", data,
                  "--json")
        assert one.exit_code == 0, one.stderr
        assert json.loads(one.stdout)["score"] == rec["score"]
    scores = [(-r["score"], r["word"]) for r in records]
    assert scores == sorted(scores)


def test_best_text_and_usage(run, data):
    result = run("tiles", "--hand", "CAT", "--best", "--data", data)
    assert result.exit_code == 0 and "cat" in result.stdout
    assert run("tiles", "--best", "--data", data).exit_code == 2
    assert run("tiles", "--hand", "CAT", "--word", "cat", "--best", "--data", data).exit_code == 2
    none = run("tiles", "--hand", "JJJ", "--best", "--data", data)
    assert none.exit_code == 0 and "no playable word" in none.stdout


# ---- the index as stored in the cache ----------------------------------------------------------

def test_a_stored_index_reads_back_as_the_same_index():
    from wordforge_cli.wordforge.hands import index_bytes, index_from_bytes

    back = index_from_bytes(index_bytes(INDEX), RULES)
    assert back == INDEX  # every field: words, ratings, scores, buckets, bitsets, tiers
    assert list(back.ratings) == list(INDEX.ratings)
    rng = random.Random(3)
    for _ in range(200):
        hand = "".join(rng.choice(LETTERS + "??") for _ in range(rng.randint(1, 10)))
        assert back.best(hand, 7) == INDEX.best(hand, 7)
    keep = lambda r: r.cefr is not None  # noqa: E731
    assert back.mask(keep) == INDEX.mask(keep)


def test_an_index_of_no_word_is_stored_too():
    from wordforge_cli.wordforge.hands import index_bytes, index_from_bytes

    empty = build_index(RULES, Tables(words={"quizzical": WordInfo("quizzical")}, zipf={}), 3)
    assert len(empty) == 0
    assert index_from_bytes(index_bytes(empty), RULES) == empty


def test_damaged_index_bytes_are_a_value_error_or_a_searchable_index():
    from wordforge_cli.wordforge.hands import index_bytes, index_from_bytes

    small = build_index(RULES, _table(5, 300), 10)
    data = index_bytes(small)
    rng = random.Random(7)
    cuts = sorted(rng.sample(range(len(data)), 150))
    flips = rng.sample(range(len(data)), 300)
    damaged = [data[:cut] for cut in cuts] + [data + b"\0"]
    damaged += [data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
                for at in flips]
    read = 0
    for blob in damaged:
        try:
            index = index_from_bytes(blob, RULES)
        except ValueError:
            continue
        read += 1
        for hand in ("quaffe?trs", "etaoinshrd", "??"):  # never a traceback in a search
            index.best(hand, 5)
        list(index.ratings)
    assert read < len(damaged)  # most damage is caught while reading


def test_index_bytes_refuse_text_a_line_cannot_hold():
    from wordforge_cli.wordforge.hands import index_bytes

    odd = build_index(RULES, Tables(words={"ab": WordInfo("ab", "", "", "", "two\nlines")},
                                    zipf={}), 10)
    with pytest.raises(ValueError):
        index_bytes(odd)
