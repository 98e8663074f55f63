"""Kanji pool core: every pool checked against every rule by a plain, independent reference."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordforge_cli.core.errors import CannotDo, ConfigError, UsageError
from wordforge_cli.core.rng import derive_seed, item_rng
from wordforge_cli.kanji import (
    PoolRequest,
    PoolStats,
    build_dictionary,
    check_answer,
    check_request,
    hidden_compounds,
    is_kanji,
    iter_pools,
    load_dictionary,
    load_grades,
    make_pool,
    pool_record,
)


@pytest.fixture(scope="module")
def dictionary():
    return load_dictionary()


DICT = load_dictionary()


# ---- the reference: the article's method written plainly --------------------------------------

def overlap(a: str, b: str) -> int:
    return len(set(a) & set(b))


def allowed(word: str, zipf, max_grade: int, min_zipf) -> bool:
    grades = load_grades()
    if any(grades.get(ch, 9) > max_grade for ch in word):
        return False
    return min_zipf is None or (zipf is not None and zipf >= min_zipf)


def check_pool(d, request: PoolRequest, record: dict) -> None:
    """Every rule of a pool, recomputed from the words alone."""
    words = record["words"]
    base, picked = record["base"], record["picked"]
    assert words == base + picked
    assert len(base) == request.base and len(picked) == request.bring
    assert len(set(words)) == len(words), "a word twice"
    zipf = {w: d.zipf[i] for i, w in enumerate(d.words)}
    answers = {d.words[i] for i in d.answer_only}   # accepted by check, never drawn
    for w in words:
        assert w in d.ids, f"{w} not in the dictionary"
        assert w not in answers, f"{w} is an answer only"
        assert allowed(w, zipf[w], request.max_grade, request.min_zipf)
    base_grade = min(request.max_grade, request.base_max_grade)
    for w in base:
        assert allowed(w, zipf[w], base_grade, request.min_zipf)
    # scores of every filtered non-base word, plainly
    candidates = [w for w in d.words if w not in base and w not in answers
                  and allowed(w, zipf[w], request.max_grade, request.min_zipf)]
    score = {w: sum(overlap(w, b) for b in base) for w in candidates}
    pass_mark = sorted(score.values(), reverse=True)[request.bring - 1]
    assert record["pass_score"] == pass_mark
    assert record["scores"] == [score[w] for w in picked]
    assert all(score[w] >= pass_mark for w in picked)
    # the kanji
    distinct = {ch for w in words for ch in w}
    assert sorted(record["kanji"]) == sorted(distinct)
    assert len(record["kanji"]) == len(distinct) == record["kanji_count"]
    if request.kanji:
        lo, hi = request.kanji
        assert lo <= record["kanji_count"] <= hi
    # quality figures
    chars = sum(len(w) for w in words)
    assert record["chars"] == chars
    assert record["index_a"] == chars - len(distinct)
    uses = Counter(ch for w in words for ch in set(w))
    assert record["orphans"] == sorted(ch for ch, c in uses.items() if c == 1)
    assert record["orphan_count"] == len(record["orphans"])
    assert record["hardest_grade"] == max(load_grades().get(ch, 9) for ch in distinct)
    hidden = [w for w in d.words if set(w) <= distinct and w not in words]
    assert record["hidden_count"] == len(hidden)
    assert record["hidden"] == hidden[: request.examples]


requests = st.builds(
    PoolRequest,
    base=st.integers(1, 6),
    bring=st.integers(1, 40),
    max_grade=st.integers(3, 9),
    base_max_grade=st.integers(2, 9),
    min_zipf=st.one_of(st.none(), st.sampled_from([2.0, 2.5, 3.0, 3.5])),
)


@settings(max_examples=40)
@given(request=requests, seed=st.integers(0, 2**63 - 1))
def test_every_pool_obeys_every_rule(request, seed):
    record = next(iter_pools(DICT, request, seed, [seed % 1000]))
    check_pool(DICT, request, record)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**63 - 1), lo=st.integers(30, 50), width=st.integers(0, 8))
def test_kanji_range_is_reached(seed, lo, width):
    request = PoolRequest(kanji=(lo, lo + width), budget=2000)
    record = next(iter_pools(DICT, request, seed, [0]))
    check_pool(DICT, request, record)
    assert record["attempts"] >= 1


SMALL_KANJI = "一二三四五六七八九十"
small_words = st.lists(st.text(alphabet=SMALL_KANJI, min_size=2, max_size=4), min_size=3,
                       max_size=40, unique=True)


@settings(max_examples=60)
@given(words=small_words, data=st.data())
def test_small_dictionaries_every_rule(words, data):
    """Tiny dictionaries reach the corners: ties everywhere, pass mark 0, m = all that is left."""
    d = build_dictionary([(w, None, n) for n, w in enumerate(words, 1)], load_grades())
    base = data.draw(st.integers(1, len(words) - 1))
    bring = data.draw(st.integers(1, len(words) - base))
    request = PoolRequest(base=base, bring=bring)
    seed = data.draw(st.integers(0, 2**32))
    record = next(iter_pools(d, request, seed, [0]))
    check_pool(d, request, record)


def test_article_overlap_examples():
    d = build_dictionary([(w, None, n) for n, w in enumerate(
        ["亜熱帯", "亜寒帯", "十人十色", "十中八九", "熱帯", "低気圧", "熱帯低気圧"], 1)],
        load_grades())
    # 亜熱帯 as the only base: 亜寒帯 shares 2 kanji, 熱帯 2, 熱帯低気圧 2
    request = PoolRequest(base=1, bring=3)
    view = check_request(d, request)
    for seed in range(50):
        pool = make_pool(d, request, random.Random(seed), view)
        base = d.words[pool.base[0]]
        for i, s in zip(pool.picked, pool.scores, strict=True):
            assert s == overlap(d.words[i], base)
    assert overlap("十人十色", "十中八九") == 1
    assert overlap("亜熱帯", "亜寒帯") == 2


def test_pass_mark_zero_draws_from_whole_filtered_list():
    # words sharing no kanji: fewer than m score above 0, so the pass mark is 0
    words = ["一二", "三四", "五六", "七八", "九十", "百千", "万億", "上下", "左右", "東西"]
    d = build_dictionary([(w, None, n) for n, w in enumerate(words, 1)], load_grades())
    request = PoolRequest(base=2, bring=5)
    seen = set()
    for seed in range(200):
        record = pool_record(d, request, make_pool(d, request, random.Random(seed)), 0, seed)
        assert record["pass_score"] == 0
        assert len(set(record["words"])) == 7
        assert not set(record["base"]) & set(record["picked"])
        seen.update(record["picked"])
    assert seen == set(words)  # every word can be drawn


def test_pool_i_depends_only_on_its_own_stream(dictionary):
    request = PoolRequest()
    whole = list(iter_pools(dictionary, request, 7, range(6)))
    part = list(iter_pools(dictionary, request, 7, range(3, 6)))
    assert whole[3:] == part
    again = pool_record(dictionary, request,
                        make_pool(dictionary, request, item_rng(7, "kanji", 4)), 4,
                        derive_seed(7, "kanji", 4))
    assert again == whole[4]
    assert whole[4]["seed"] == derive_seed(7, "kanji", 4)
    other_scope = list(iter_pools(dictionary, request, 7, range(3), scope=("pack", "s")))
    assert other_scope != whole[:3]


def test_budget_runs_out_with_a_reason(dictionary):
    request = PoolRequest(kanji=(5, 6), budget=5)
    with pytest.raises(CannotDo, match=r"5-6 kanji in 5 attempts.*lower --bring"):
        make_pool(dictionary, request, random.Random(1))


@pytest.mark.parametrize("request_, message", [
    (PoolRequest(bring=60000), "needs 60005 words"),
    (PoolRequest(base=0), "--base: must be at least 1"),
    (PoolRequest(bring=0), "--bring: must be at least 1"),
    (PoolRequest(kanji=(50, 30)), "low <= high"),
    (PoolRequest(kanji=(400, 500)), "at most 180 distinct kanji"),
    (PoolRequest(max_grade=10), "--max-grade: must be 1 to 9"),
    (PoolRequest(max_grade=1, base_max_grade=1, bring=2000), "the filters leave"),
    (PoolRequest(min_zipf=9.0), "the filters leave 0"),
])
def test_impossible_requests_refused_at_once(dictionary, request_, message):
    with pytest.raises(UsageError, match=message):
        check_request(dictionary, request_)


def test_empty_dictionary_refused():
    d = build_dictionary([], load_grades())
    with pytest.raises(UsageError, match="empty"):
        check_request(d, PoolRequest())


def test_dictionary_rules():
    assert is_kanji("熱") and not is_kanji("々") and not is_kanji("あ") and not is_kanji("A")
    d = build_dictionary([("熱帯", 4.0, 1), ("人々", None, 2), ("ねつ", None, 3), ("熱", None, 4),
                          ("熱帯", None, 5), ("一二三四五六七", None, 6)], load_grades())
    assert d.words == ("熱帯",)
    assert [(s.line, s.reason.split(" ")[0]) for s in d.skipped] == [
        (2, "not"), (3, "not"), (4, "1"), (5, "repeated"), (6, "7")]


def test_default_dictionary_shape(dictionary):
    assert 25_000 < len(dictionary) < 50_000
    assert all(2 <= len(w) <= 6 and all(is_kanji(c) for c in w) for w in dictionary.words)
    assert dictionary.words[0] == "自分"  # the commonest first (日本 is a name: left out)
    assert dictionary.skipped == ()
    zipfs = [z for z in dictionary.zipf]
    assert zipfs == sorted(zipfs, reverse=True)
    grades = load_grades()
    assert grades["一"] == 1 and grades["憂"] == 7 and grades["伊"] == 8 and "齟" not in grades


def test_hidden_compounds_match_brute_force(dictionary):
    rng = random.Random(5)
    for _ in range(30):
        board = set("".join(rng.sample(dictionary.words[:3000], 12)))
        fast = [dictionary.words[i] for i in hidden_compounds(dictionary, board)]
        slow = [w for w in dictionary.words if set(w) <= board]
        assert fast == slow


def test_stats_merge_equals_whole(dictionary):
    records = list(iter_pools(dictionary, PoolRequest(), 3, range(40)))
    whole, a, b = PoolStats(), PoolStats(), PoolStats()
    for r in records:
        whole.add(r)
    for r in records[:15]:
        a.add(r)
    for r in records[15:]:
        b.add(r)
    assert a.merge(b).summary() == whole.summary()
    assert PoolStats.from_state(whole.to_state()).summary() == whole.summary()
    summary = whole.summary()
    assert summary["pools"] == 40
    ks = sorted(r["kanji_count"] for r in records)
    assert summary["kanji_count"]["min"] == ks[0] and summary["kanji_count"]["max"] == ks[-1]
    assert summary["kanji_count"]["median"] == ks[19]


def test_check_answer_rules(dictionary):
    board = list("熱帯低気圧亜")
    assert check_answer("気圧", board, dictionary).ok
    v = check_answer("亜熱帯", board, dictionary, taken="熱帯")
    assert v.ok and v.new_kanji == ("亜",)
    v = check_answer("熱帯", board, dictionary, taken="熱帯")
    assert not v.ok and v.reason_ja == "手つかずな漢字を1字以上選んでください"
    assert check_answer("帯熱", board, dictionary).reason_ja == "辞書にない熟語です"
    assert check_answer("ねったい", board, dictionary).reason_ja == "辞書にない熟語です"
    v = check_answer("寒帯", board, dictionary)
    assert not v.ok and v.missing == ("寒",)


def test_min_zipf_needs_frequencies():
    d = build_dictionary([("熱帯", None, 1), ("寒帯", None, 2)], load_grades())
    with pytest.raises(UsageError, match="no frequencies"):
        check_request(d, PoolRequest(base=1, bring=1, min_zipf=3.0))


def test_answers_only_are_accepted_and_hidden_but_never_drawn():
    words = ["熱帯", "寒帯", "熱気", "寒気", "気圧", "低気圧", "熱帯低気圧", "亜熱帯", "亜寒帯"]
    answers = ["熱帯低気圧", "亜寒帯"]
    d = build_dictionary([(w, 3.0, n) for n, w in enumerate(words, 1)], load_grades(),
                         answer_only=answers)
    assert {d.words[i] for i in d.answer_only} == set(answers)
    for seed in range(40):
        request = PoolRequest(base=2, bring=5)
        record = next(iter_pools(d, request, seed, [0]))
        check_pool(d, request, record)             # never drawn, scored as if absent
        assert not set(answers) & set(record["words"])
    board = set("熱帯低気圧")
    assert "熱帯低気圧" in [d.words[i] for i in hidden_compounds(d, board)]
    assert check_answer("熱帯低気圧", board, d, taken="熱帯気圧").ok
    with pytest.raises(UsageError, match="leave 7"):
        check_request(d, PoolRequest(base=3, bring=5))


def test_tsv_third_column_marks_answers(tmp_path):
    good = tmp_path / "words.tsv"
    good.write_text("熱帯\t3.5\n気圧\t3.1\t\n熱帯低気圧\t2.9\tanswer\n", encoding="utf-8")
    d = load_dictionary(good)
    assert d.words == ("熱帯", "気圧", "熱帯低気圧")
    assert d.answer_only == frozenset({2})
    bad = tmp_path / "bad.tsv"
    bad.write_text("熱帯\t3.5\n気圧\t3.1\tdraw\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="third column may only be 'answer'") as err:
        load_dictionary(bad)
    assert err.value.line == 2


def test_runtime_never_imports_build_packages(dictionary):
    import sys

    list(iter_pools(dictionary, PoolRequest(), 1, range(3)))
    assert not {"jamdict", "jamdict_data", "kanji_lists"} & set(sys.modules)
