"""``wfkit balance``: simulated WordForge games against hand-worked rules and brute force."""

from __future__ import annotations

import json
import random

import pytest
from wordforge_tables import write_table

from wordforge_cli.wordforge.balance import (
    GameRules,
    Model,
    Tally,
    Turns,
    knows,
    parse_model,
    play_game,
    simulate,
    summarize,
    zipf_floor,
)
from wordforge_cli.wordforge.english import read_rules
from wordforge_cli.wordforge.hands import build_index
from wordforge_cli.wordforge.rarity import (
    Play,
    Tables,
    WordInfo,
    hand_cover,
    score_word,
    turn_plays,
)

RULES = read_rules()
LETTERS = "aaabcdeeeefghiiijklmnooopqrrsssttuuvwxyz"


def _table(seed: int, n: int = 4000) -> Tables:
    rng = random.Random(seed)
    words, zipf = {}, {}
    while len(words) < n:
        w = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 8)))
        words[w] = WordInfo(w, rng.choice(("", "", "A1", "B1", "B2", "C1", "C2")), "", "", "")
        zipf[w] = round(rng.uniform(0.5, 6), 2)
    return Tables(words=words, zipf=zipf)


TABLE = _table(3)
INDEX = build_index(RULES, TABLE, RULES.tiles.hand_size)


def _trace(models, seed, game=None):
    game = game or GameRules()
    turns = Turns(INDEX, RULES)
    masks = [INDEX.mask(knows(m, RULES)) for m in models]
    trace: list[dict] = []
    totals = play_game(INDEX, turns, RULES, masks, random.Random(seed), game, Tally(), trace)
    return trace, totals


def test_models():
    assert parse_model("b1") == Model("B1", level="B1")
    assert parse_model("zipf:3.5").min_zipf == 3.5 and parse_model("ALL").name == "all"
    for bad in ("D1", "zipf:x", "zipf:-1", "everything"):
        with pytest.raises(ValueError):
            parse_model(bad)
    assert zipf_floor(RULES, "B1") == 2.5 and zipf_floor(RULES, "C2") == 0.0
    b1 = knows(parse_model("B1"), RULES)
    r = INDEX.ratings
    assert all(b1(x) == ((x.cefr in ("A1", "A2", "B1")) if x.cefr else x.zipf >= 2.5)
               for x in r)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_turn_is_the_exact_best_known_word_scored_by_score_word(seed):
    models = [parse_model("B1"), parse_model("all")]
    trace, totals = _trace(models, seed)
    known = [knows(m, RULES) for m in models]
    by_word = {r.word: r for r in INDEX.ratings}
    previous: dict[int, str | None] = {0: None, 1: None}
    counter = {0: 0, 1: 0}
    for turn in trace:
        s = turn["seat"]
        # brute force: every known word the hand makes, scored this turn without a power-up
        best = None
        for word, r in by_word.items():
            positions, wilds = hand_cover(turn["hand"], word)
            if positions or not known[s](r):
                continue
            prev = previous[s]
            combo = 0 if prev is None else (counter[s] + 1 if len(word) > len(prev) else 0)
            link = prev is not None and word[0] == prev[0]
            value = score_word(word, r.battle_tier, RULES,
                               Play(combo, link=link, fortress=turn["fortress"])).score
            plain = score_word(word, r.battle_tier, RULES).score
            # the rule as written: turn score, then plain score, then the word
            if best is None or (value, plain) > best[:2] or (
                    (value, plain) == best[:2] and word < best[2]):
                best = (value, plain, word)
        if best is None:
            assert turn["word"] is None
            counter[s] = 0
            continue
        if turn["powerup"] is None:
            assert turn["score"] == best[0]
            assert turn["word"] == best[2]  # the word chosen, not only its score
        else:
            assert turn["score"] > best[0]
        r = by_word[turn["word"]]
        expected = score_word(turn["word"], r.battle_tier + (
            RULES.gold_rush_tiers if turn["powerup"] == "gold_rush" else 0), RULES,
            Play(turn["combo"], turn["powerup"] == "double", turn["link"],
                 turn["powerup"] == "overdrive", turn["fortress"])).score
        assert turn["score"] == expected
        previous[s] = turn["word"]
        counter[s] = turn["combo"]
    assert totals == [sum(t["score"] for t in trace if t["seat"] == s) for s in (0, 1)]


def test_combo_and_link_follow_turn_plays():
    trace, _ = _trace([parse_model("all")] * 2, 5, GameRules(turns=12, powerups=False))
    for s in (0, 1):
        mine = [t for t in trace if t["seat"] == s]
        words = [t["word"] or "zz" for t in mine]
        playable = [t["word"] is not None for t in mine]
        states = turn_plays(words, playable)
        assert [(t["combo"], t["link"]) for t in mine] == states


def test_each_power_up_is_spent_at_most_once_per_game():
    trace, _ = _trace([parse_model("all")] * 2, 9, GameRules(use_at=0))
    for s in (0, 1):
        spent = [t["powerup"] for t in trace if t["seat"] == s and t["powerup"]]
        assert len(spent) == len(set(spent)) and set(spent) <= {"double", "overdrive",
                                                                "gold_rush"}


def test_simulation_is_seeded_and_game_i_is_its_own_stream():
    models = [parse_model("B1"), parse_model("C2")]
    a = summarize(simulate(INDEX, RULES, models, 7, range(20)), RULES, GameRules())
    b = summarize(simulate(INDEX, RULES, models, 7, range(20)), RULES, GameRules())
    assert a == b
    whole = simulate(INDEX, RULES, models, 7, range(20))
    parts = simulate(INDEX, RULES, models, 7, range(10)).merge(
        simulate(INDEX, RULES, models, 7, range(10, 20)))
    assert summarize(whole, RULES, GameRules()) == summarize(parts, RULES, GameRules())
    assert a["wins"]["1:B1"] + a["wins"]["2:C2"] + a["wins"]["draw"] == pytest.approx(1)


# ---- the command -------------------------------------------------------------------------------

def test_balance_command_json_compare_and_usage(run, tmp_path):
    data = write_table(tmp_path)
    args = ("balance", "-n", "6", "--seed", "1", "--data", data, "--turns", "3")
    out = run(*args, "--json")
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["games"] == 6 and doc["players"] == ["1:all", "2:all"]
    assert run(*args, "--json").stdout == out.stdout
    rules = tmp_path / "rules.yaml"
    rules.write_text(read_text_bundled().replace("max_length: 3 ", "max_length: 4 "),
                     encoding="utf-8")
    both = run(*args, "--json", "--compare", rules)
    assert both.exit_code == 0, both.stderr
    cmp = json.loads(both.stdout)
    assert cmp["same_deals"] and cmp["reports"][0] == {k: v for k, v in doc.items()
                                                        if k != "seed"}
    text = run(*args, "--player", "B1", "--player", "C2", "--compare", rules)
    assert text.exit_code == 0 and "wins 2:C2" in text.stdout
    assert run(*args, "--player", "D9").exit_code == 2
    assert run(*args, "--player", "B1", "--player", "C2", "--player", "A1").exit_code == 2


def read_text_bundled() -> str:
    from conftest import CONFIGS

    return (CONFIGS / "rarity.yaml").read_text(encoding="utf-8")


# ---- hand-worked small cases: why a model wins (C2 against B1) ------------------------------

def _small(words: dict[str, tuple[str, float]]):
    table = Tables(words={w: WordInfo(w, level, "", "", "") for w, (level, _z) in words.items()},
                   zipf={w: z for w, (_level, z) in words.items()})
    return build_index(RULES, table, RULES.tiles.hand_size)


def test_a_game_where_nobody_can_play_is_a_draw_not_a_loss():
    # every word is longer than a hand: both seats pass every turn and score 0
    index = _small({"abcdefghijkl": ("A1", 5.0), "mnopqrstuvwxy": ("", 3.0)})
    models = [parse_model("B1"), parse_model("C2")]
    tally = simulate(index, RULES, models, 3, range(6), GameRules(turns=4))
    report = summarize(tally, RULES, GameRules(turns=4))
    assert report["wins"] == {"1:B1": 0.0, "2:C2": 0.0, "draw": 1.0}
    assert report["mean_score"] == {"1:B1": 0.0, "2:C2": 0.0}
    assert report["pass_share"] == 1.0
    assert all(seat["pass_share"] == 1.0 and seat["points_per_word"] == 0.0
               for seat in report["seats"].values())


def test_models_that_know_the_same_words_play_the_same_games():
    # every word A1: B1 and C2 know them all, so B1 vs C2 is all vs all, deal for deal
    words = {w: ("A1", 4.0) for w in ("cat", "tea", "eat", "rat", "tar", "art", "ten", "net",
                                      "sit", "its", "tin", "nit", "ate", "east", "seat",
                                      "rate", "tear", "stare", "tone", "note", "stone")}
    index = _small(words)
    game = GameRules(turns=6)
    for seed in range(5):
        mixed = summarize(simulate(index, RULES, [parse_model("B1"), parse_model("C2")], seed,
                                   range(8), game), RULES, game)
        same = summarize(simulate(index, RULES, [parse_model("all")] * 2, seed, range(8),
                                  game), RULES, game)
        assert mixed["wins"]["1:B1"] == same["wins"]["1:all"]
        assert mixed["mean_score"]["2:C2"] == same["mean_score"]["2:all"]


def test_knowing_more_words_never_scores_less_on_the_same_hand():
    """A C2 player's best word on a hand scores at least a B1 player's (it knows a superset);
    what it gains is the rare words B1 does not know, multiplied by their tier."""
    turns = Turns(INDEX, RULES)
    b1 = INDEX.mask(knows(parse_model("B1"), RULES))
    c2 = INDEX.mask(knows(parse_model("C2"), RULES))
    rng = random.Random(12)
    higher = 0
    for _ in range(300):
        hand = "".join(rng.choice(LETTERS) for _ in range(RULES.tiles.hand_size))
        weak = turns.best(hand, b1, 0, None, False)
        strong = turns.best(hand, c2, 0, None, False)
        if weak is not None:
            assert strong is not None and strong[0] >= weak[0]
            higher += strong[0] > weak[0]
    assert higher > 0


def test_seat_figures_add_up_to_the_game():
    models = [parse_model("B1"), parse_model("all")]
    game = GameRules(turns=8)
    trace, totals = _trace(models, 4, game)
    tally = Tally(players=("B1", "all"))
    index_of = {w: i for i, w in enumerate(INDEX.words)}
    turns = Turns(INDEX, RULES)
    masks = [INDEX.mask(knows(m, RULES)) for m in models]
    play_game(INDEX, turns, RULES, masks, random.Random(4), game, tally)
    report = summarize(tally, RULES, game)
    for s, label in enumerate(("1:B1", "2:all")):
        mine = [t for t in trace if t["seat"] == s]
        played = [t for t in mine if t["word"] is not None]
        seat = report["seats"][label]
        assert seat["pass_share"] == round((len(mine) - len(played)) / len(mine), 4)
        assert seat["points_per_word"] == round(totals[s] / len(played), 2)
        for key, share in seat["tiers"].items():
            tier = [t for t in played if RULES.keys[min(
                INDEX.ratings[index_of[t["word"]]].battle_tier
                + (RULES.gold_rush_tiers if t["powerup"] == "gold_rush" else 0),
                len(RULES.keys) - 1)] == key]
            assert share == round(len(tier) / len(played), 4)


def test_balance_reads_the_same_index_from_the_cache(run, tmp_path, monkeypatch):
    """Built, stored, read: the same report bytes, --compare and --round-robin alike (one
    stored index per rules file, B1's vocabulary read from the stored ratings)."""
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    data = write_table(tmp_path)
    rules = tmp_path / "rules.yaml"
    rules.write_text(read_text_bundled().replace("max_length: 3 ", "max_length: 4 "),
                     encoding="utf-8")
    base = ("balance", "-n", "8", "--seed", "2", "--data", data, "--turns", "4", "--json")
    runs = [(*base, "--compare", rules, "--player", "B1", "--player", "all"),
            (*base, "--round-robin", "--player", "B1", "--player", "C2")]
    monkeypatch.setenv("WFKIT_NO_CACHE", "1")
    plain = [run(*args) for args in runs]
    assert all(r.exit_code == 0 for r in plain) and not home.exists()
    monkeypatch.delenv("WFKIT_NO_CACHE")
    for _ in range(2):  # stored, then read
        assert [run(*args).stdout for args in runs] == [r.stdout for r in plain]
    assert len(list((home / "wfkit").glob("hands-*.bin"))) == 2
