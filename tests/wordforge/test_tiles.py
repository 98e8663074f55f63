"""``wfkit tiles`` through the CLI: the 98-tile bag, seeded deals, hands, and --hand/--word."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import EXAMPLES
from wordforge_tables import write_table

ARTICLE_BAG = Counter({"A": 9, "E": 12, "I": 9, "O": 8, "U": 4, "L": 4, "N": 6, "R": 6, "S": 4,
                       "T": 6, "D": 4, "G": 3, "B": 2, "C": 2, "M": 2, "P": 2, "F": 2, "H": 2,
                       "V": 2, "W": 2, "Y": 2, "K": 1, "J": 1, "X": 1, "Q": 1, "Z": 1})


@pytest.fixture
def data(tmp_path):
    return write_table(tmp_path)


def deals(run, *args) -> list[dict]:
    result = run("tiles", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_article_bag_has_98_tiles():
    assert sum(ARTICLE_BAG.values()) == 98


@pytest.mark.parametrize("players, sets", [(1, 1), (2, 1), (3, 2), (8, 2)])
def test_deal_is_the_whole_bag_in_hands_of_10(run, players, sets):
    (rec,) = deals(run, "--players", str(players), "--seed", "3")
    assert rec["sets"] == sets and rec["bag_size"] == 98 * sets
    assert [len(h) for h in rec["hands"]] == [10] * players
    tiles = Counter("".join(rec["hands"]) + rec["bag"])
    assert tiles == Counter({k: v * sets for k, v in ARTICLE_BAG.items()})


def test_same_seed_same_bytes_other_seed_other_draw(run):
    a = run("tiles", "--players", "4", "--seed", "7", "-n", "3")
    b = run("tiles", "--players", "4", "--seed", "7", "-n", "3")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert a.stderr.startswith("wfkit: tiles: 3 deals, 12 hands:")  # one line of figures
    assert len(a.stderr.splitlines()) == 1 and a.stderr == b.stderr
    c = run("tiles", "--players", "4", "--seed", "8", "-n", "3")
    assert c.stdout != a.stdout


def test_deal_i_does_not_depend_on_how_many_deals(run):
    many = deals(run, "--seed", "11", "-n", "5")
    one = deals(run, "--seed", "11", "-n", "1")
    assert many[0] == one[0] and len({json.dumps(d["hands"]) for d in many}) == 5


def test_unseeded_run_reports_its_seed(run):
    result = run("tiles")
    assert result.exit_code == 0 and "pass --seed" in result.stderr
    seed = result.stderr.split("--seed ")[1].split()[0]
    again = run("tiles", "--seed", seed)
    assert again.stdout == result.stdout


def test_text_output_shows_hands_and_points(run):
    result = run("tiles", "--players", "2", "--seed", "1")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("player 1: ") and lines[1].startswith("player 2: ")
    assert lines[2] == "bag: 78 tiles left (1 set)"


@pytest.mark.parametrize("args", [["--players", "0"], ["--players", "9"], ["--shuffle"]])
def test_bad_options_exit_2_in_one_line(run, args):
    result = run("tiles", *args)
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_hand_can_make_word_and_score(run, data):
    args = ["--data", data, "--cefr", EXAMPLES / "article-cefr.yaml"]
    result = run("tiles", "--hand", "QUAFFETRS?", "--word", "quaff", *args)
    assert result.exit_code == 0 and "scores 208" in result.stdout
    rec = json.loads(run("tiles", "--hand", "qua?e?trs", "--word", "QUAFF", *args,
                         "--json").stdout)
    assert (rec["can_make"], rec["wild_positions"], rec["score"]) == (True, [4, 5], 144)


def test_hand_cannot_make_word_exits_1(run, data):
    result = run("tiles", "--hand", "QUA?ETRS", "--word", "quaff", "--data", data)
    assert result.exit_code == 1 and "cannot make quaff" in result.stdout
    assert "cannot make 'quaff'" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("args, needle", [
    (["--hand", "AB1"], "--hand and --word"),
    (["--hand", "AB1", "--word", "ab"], "letters a-z"),
    (["--hand", "AB", "--word", "a b"], "space"),
])
def test_bad_hand_or_word(run, data, args, needle):
    result = run("tiles", *args, "--data", data)
    assert result.exit_code == 2 and needle in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# ---- the hand index cache ----------------------------------------------------------------------

def _cached(home) -> list:
    folder = home / "wfkit"
    return sorted(folder.glob("hands-*.bin")) if folder.is_dir() else []


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_best_is_the_same_bytes_built_stored_and_read(run, data, tmp_path, monkeypatch,
                                                      json_flag):
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    args = ["tiles", "--hand", "QUAFFE?TRS", "--best", "-k", "25", "--data", data, *json_flag]
    built = run(*args)
    assert built.exit_code == 0, built.stderr
    (stored,) = _cached(home)
    assert run(*args).stdout == built.stdout  # read from the cache
    monkeypatch.setenv("WFKIT_NO_CACHE", "1")
    stored.unlink()
    assert run(*args).stdout == built.stdout and not _cached(home)  # no cache: nothing written


def test_a_damaged_or_foreign_cache_file_is_built_again(run, data, tmp_path, monkeypatch):
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    args = ["tiles", "--hand", "QUAFFE?TRS", "--best", "--data", data]
    expected = run(*args).stdout
    (stored,) = _cached(home)
    good = stored.read_bytes()
    header = 12 + 32 + 8 + 32
    for bad in (b"", b"junk", good[:header], good[:-1], good + b"x",
                good[:header] + bytes([good[header] ^ 1]) + good[header + 1:],  # checksum
                good[:12] + bytes(32) + good[44:]):                             # another key
        stored.write_bytes(bad)
        result = run(*args)
        assert (result.exit_code, result.stdout, result.stderr) == (0, expected, "")
        assert stored.read_bytes() == good  # stored anew
    stored.unlink()
    stored.symlink_to(tmp_path / "elsewhere.bin")  # a planted link is not followed
    (tmp_path / "elsewhere.bin").write_bytes(good)
    assert run(*args).stdout == expected and not stored.is_symlink()


def test_an_unwritable_cache_only_builds(run, data, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    args = ["tiles", "--hand", "QUAFFE?TRS", "--best", "--data", data]
    result = run(*args)
    assert result.exit_code == 0 and result.stderr == "" and "makes no" not in result.stdout
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")  # ignored (XDG): ~/.cache then
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert run(*args).stdout == result.stdout and _cached(tmp_path / "home" / ".cache")


def test_the_cache_follows_every_input(run, data, tmp_path, monkeypatch):
    """A changed word table, rules file, CEFR or overrides file, --no-lemma or hand length
    is another index: each gives what a build without the cache gives."""
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    cefr = tmp_path / "cefr.yaml"
    cefr.write_text("quaff: A1\n", encoding="utf-8")
    overrides = tmp_path / "over.yaml"
    overrides.write_text("quaff: legendary\n", encoding="utf-8")
    variants = [[], ["--no-lemma"], ["--cefr", cefr], ["--overrides", overrides],
                ["--config", EXAMPLES / "rarity-no-short-cap.yaml"]]
    hands = ["QUAFFE?TRS", "QUAFFETRS"]

    def outputs() -> list[str]:
        results = [run("tiles", "--hand", h, "--best", "--json", "--data", data, *v)
                   for v in variants for h in hands]
        assert all(r.exit_code == 0 for r in results), [r.stderr for r in results]
        return [r.stdout for r in results]

    monkeypatch.setenv("WFKIT_NO_CACHE", "1")
    plain = outputs()
    monkeypatch.delenv("WFKIT_NO_CACHE")
    assert outputs() == plain and outputs() == plain  # built and stored, then read
    assert len(_cached(home)) == min(len(variants) * len(hands), 8)
    cefr.write_text("quaff: C2\n", encoding="utf-8")  # same name, new bytes
    table = data.read_text(encoding="utf-8")
    data.write_text("".join(line for line in table.splitlines(keepends=True)
                            if not line.startswith("quaff\t")), encoding="utf-8")
    monkeypatch.setenv("WFKIT_NO_CACHE", "1")
    changed = outputs()
    monkeypatch.delenv("WFKIT_NO_CACHE")
    assert changed != plain and outputs() == changed


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
