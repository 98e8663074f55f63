"""Kanji self-play figures a designer acts on: end reasons, passes in the log, wins by model,
fresh games for --balanced selections, and the end rule as a config value."""

from __future__ import annotations

import json
import random

from test_territory import DICT, KANJI

from wordforge_cli.core import intervals as ci
from wordforge_cli.kanji.territory import (
    LIMIT_END,
    NO_KNOWN_MOVE,
    Move,
    Pass,
    Player,
    make_board,
    play_game,
    self_play,
)


def test_the_log_holds_every_turn_and_passes_end_the_game():
    board = make_board(DICT, KANJI, ["熱帯", "気圧"])
    for seed in range(20):
        game = play_game(board, (Player(min_zipf=3.5), Player()), random.Random(seed),
                         limit=None)
        assert [m for m in game.log if isinstance(m, Move)] == game.moves
        assert game.ended == NO_KNOWN_MOVE
        # turns alternate, and the game ends on two passes in a row
        assert [t.player for t in game.log] == [n % 2 for n in range(len(game.log))]
        assert isinstance(game.log[-1], Pass) and isinstance(game.log[-2], Pass)
        assert not any(isinstance(a, Pass) and isinstance(b, Pass)
                       for a, b in zip(game.log[:-2], game.log[1:-1], strict=True))


def test_end_reasons_and_model_wins_add_up():
    board = make_board(DICT, KANJI, ["熱帯", "気圧"])
    players = (Player("lookahead"), Player(min_zipf=3.5))
    for limit in (None, 1, 2):
        b = self_play(board, players, random.Random(4), 8, limit=limit)
        games = [play_game(board, players if g % 2 == 0 else players[::-1],
                           rng, limit=limit) for g, rng in
                 ((g, r) for r in [random.Random(4)] for g in range(8))]
        assert b.limit_ends == sum(g.ended == LIMIT_END for g in games)
        assert (limit is None) <= (b.limit_ends == 0)
        wins = [0, 0]
        for g, game in enumerate(games):
            if game.winner is not None:
                wins[game.winner if g % 2 == 0 else 1 - game.winner] += 1
        assert list(b.model_wins) == wins
        assert sum(b.model_wins) + b.draws == b.games
        assert b.record()["ended"] == {NO_KNOWN_MOVE: 8 - b.limit_ends,
                                       LIMIT_END: b.limit_ends}


def test_balanced_pools_are_judged_on_fresh_games(run, tmp_path):
    stats = tmp_path / "s.json"
    out = tmp_path / "p.jsonl"
    args = ("kanji", "-n", "6", "--preset", "easy", "--balanced", "--balance-attempts", "200",
            "--seed", "3", "-o", out, "--stats", stats, "--fresh-games", "6")
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    summary = json.loads(stats.read_text(encoding="utf-8"))["stats"]["balance"]
    band = 0.03
    outside = 0
    for r in records:
        b, f = r["balance"], r["balance"]["fresh"]
        assert abs(b["advantage"]) <= band + 1e-12  # selected in-band ...
        assert f["games"] == 6                       # ... and measured again on other seeds
        assert f["outside_band"] == (abs(f["advantage"]) > band + 1e-12)
        outside += f["outside_band"]
    fresh = summary["fresh"]
    assert fresh["pools"] == len(records) and fresh["games"] == 6 * len(records)
    assert fresh["outside_band"] == ci.rate(outside, len(records))
    first = sum(r["balance"]["fresh"]["first_wins"] for r in records)
    decided = first + sum(r["balance"]["fresh"]["second_wins"] for r in records)
    assert fresh["first"] == ci.rate(first, decided, fair=0.5)
    assert "fresh games" in result.stderr and "outside the band again" in result.stderr
    first_bytes = out.read_bytes()
    assert run(*args).exit_code == 0 and out.read_bytes() == first_bytes


def test_the_end_rule_is_a_config_value(run, tmp_path):
    config = tmp_path / "k.yaml"
    config.write_text("self_play: true\npresets:\n  open:\n    max_grade: 7\n"
                      "    min_zipf: 2.5\n    kanji: 30-45\n    limit: 0\n", encoding="utf-8")
    stats = tmp_path / "s.json"
    result = run("kanji", "-n", "4", "--config", config, "--preset", "open", "--seed", "2",
                 "--stats", stats, "-q")
    assert result.exit_code == 0, result.stderr
    ended = json.loads(stats.read_text(encoding="utf-8"))["stats"]["balance"]["ended"]
    assert ended[LIMIT_END]["rate"] == 0 and ended[NO_KNOWN_MOVE]["rate"] == 1
    limited = run("kanji", "-n", "4", "--preset", "normal", "--seed", "2", "--self-play",
                  "--limit", "5", "--stats", stats, "-q")
    assert limited.exit_code == 0, limited.stderr
    figures = json.loads(stats.read_text(encoding="utf-8"))["stats"]["balance"]
    assert figures["ended"][LIMIT_END]["rate"] == 1 and figures["length"]["max"] <= 5
    hidden = run("kanji", "-n", "2", "--preset", "normal", "--seed", "2", "--self-play",
                 "--hidden-words", "--player", "greedy@shown", "--stats", stats, "-q")
    assert hidden.exit_code == 0, hidden.stderr
    # knowing only the shown words, in the variant that shows none, nobody can move
    assert json.loads(stats.read_text(encoding="utf-8"))["stats"]["balance"]["length"]["max"] == 0
