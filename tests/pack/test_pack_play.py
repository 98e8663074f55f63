"""Play figures of kanji and crossword pack sections: opt-in by the command's own keys, the
engine's records and statistics, a shard's statistics state checked when merged (that they merge
to the bytes of one build for any --jobs or --shard is test_jobs_same_bytes.py), and the
preview's charts of them."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import EXAMPLES
from test_balance_pack import chromium_dom

CONFIG = """\
name: play
seed: 7
sections:
  - name: pools
    kind: kanji
    count: 9
    preset: easy
    balanced: true
    games: 2
    players: [greedy, greedy@3]
  - name: played
    kind: kanji
    count: 5
    self_play: true
  - name: plain
    kind: kanji
    count: 5
  - name: boards
    kind: crossword
    vocab: tech.yaml
    count: 10
    band: [4, 5]
    style: tail
    difficulty: true
  - name: run
    kind: endless
    vocab: tech.yaml
    count: 30
    difficulty: true
  - name: sets
    kind: challenge
    vocab: animals-en.yaml
    count: 2
    difficulty: true
  - name: nodiff
    kind: challenge
    vocab: animals-en.yaml
    count: 1
"""


def _config(tmp: Path, text: str = CONFIG) -> Path:
    for name in ("tech.yaml", "animals-en.yaml"):
        shutil.copy(EXAMPLES / name, tmp / name)
    config = tmp / "pack.yaml"
    config.write_text(text, encoding="utf-8")
    return config


@contextmanager
def _chunks(size: int) -> Iterator[None]:
    """Build in chunks of ``size`` (so shards split small sections); every pack module that
    took the chunk size by name sees it (forked workers inherit it)."""
    from wordforge_cli.batch import runner
    from wordforge_cli.pack import build, merge

    modules = (runner, build, merge)
    saved = [m.CHUNK for m in modules]
    for m in modules:
        m.CHUNK = size
    try:
        yield
    finally:
        for m, value in zip(modules, saved, strict=True):
            m.CHUNK = value


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """One build in chunks of 4 (so shards split sections), -j 1; returns (tmp, config, out)."""
    from click.testing import CliRunner

    from wordforge_cli.cli import cli

    tmp = tmp_path_factory.mktemp("play-pack")
    config = _config(tmp)
    with _chunks(4):
        out = tmp / "one"
        result = CliRunner().invoke(cli, ["pack", "build", str(config), "--out", str(out),
                                          "-j", "1"])
        assert result.exit_code == 0, result.output
    return tmp, config, out


def _sections(out: Path) -> dict[str, dict]:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return {s["name"]: s for s in manifest["sections"]}


def test_kanji_sections_are_the_engines_self_play(built):
    """Records are played_pools' with the section name as scope; the manifest's figures are
    the engine's statistics of them, rejections included; players/options recorded."""
    from wordforge_cli.kanji import PoolRequest, PoolStats, load_dictionary
    from wordforge_cli.kanji.config import load_config
    from wordforge_cli.kanji.territory import BalanceStats, Player, SelfPlay, played_pools

    _tmp, _config_path, out = built
    sections = _sections(out)
    dictionary = load_dictionary(None)
    from wordforge_cli.io.checks import bundled_config

    v = load_config(bundled_config("kanji")).values("easy")
    request = PoolRequest(base=v["base"], bring=v["bring"], kanji=v["kanji"],
                          max_grade=v["max_grade"], base_max_grade=v["base_max_grade"],
                          min_zipf=v["min_zipf"], budget=v["attempts"],
                          examples=v["hidden_examples"])
    spec = SelfPlay(players=(Player(), Player(min_zipf=3.0)), games=2, band=0.03)
    played, pools = BalanceStats(), PoolStats()
    expected = []
    for item in played_pools(dictionary, request, spec, 7, range(9), ("pools",),
                             rejected=played.rejected):
        if isinstance(item, dict):
            expected.append(item)
            played.add(item)
            pools.add(item)
        else:
            pools.fail()
    assert _lines(out / "pools.jsonl") == expected
    entry = sections["pools"]
    assert entry["stats"] == json.loads(json.dumps({**pools.summary(),
                                                    "balance": played.summary()}))
    assert entry["stats"]["balance"]["rejected"] == sum(played.rejected.values()) > 0
    assert entry["options"]["players"] == ["greedy", "greedy@3"]
    assert entry["options"]["balanced"] is True and entry["options"]["games"] == 2
    assert all(abs(r["balance"]["advantage"]) <= 0.03 for r in expected)
    assert sections["played"]["options"]["balanced"] is False
    assert all("balance" in r for r in _lines(out / "played.jsonl"))
    # a section that does not ask keeps the bytes of before: no figure, no option
    assert "balance" not in sections["plain"]["stats"]
    assert "self_play" not in sections["plain"]["options"]
    assert all("balance" not in r for r in _lines(out / "plain.jsonl"))


def test_crossword_sections_measure_their_boards(built):
    """Each record's difficulty is the solver's on that board; the manifest's per-step means
    are those of the records (ramp step for a challenge, plan phase for endless)."""
    from wordforge_cli.crossword.difficulty import measure_record, rises
    from wordforge_cli.crossword.lexicon import prepare
    from wordforge_cli.io.vocab import read_vocab

    tmp, _config_path, out = built
    sections = _sections(out)
    for name, vocab, step in (("boards", "tech.yaml", None),
                              ("run", "tech.yaml", lambda i: i // 12),
                              ("sets", "animals-en.yaml", lambda i: i % 10)):
        lexicon = prepare(read_vocab(tmp / vocab))
        records = _lines(out / f"{name}.jsonl")
        assert records
        by_step: dict[int, list[int]] = {}
        for rec in records:
            measured = rec.pop("difficulty")
            plain = measure_record(lexicon, rec).record()  # (then the familiarity-aware ones)
            assert {k: measured[k] for k in plain} == plain
            if step is not None:
                by_step.setdefault(step(rec["id"]), []).append(measured["score"])
        figures = sections[name]["stats"]["difficulty"]
        scores = [measure_record(lexicon, x).score for x in records]
        assert figures["histogram"] == {str(v): scores.count(v) for v in sorted(set(scores))}
        assert figures["score"]["max"] == max(
            r["score"] for r in (measure_record(lexicon, x).record() for x in records))
        if step is None:
            assert "per_step" not in figures
        else:
            means = [round(sum(s) / len(s), 3) for _k, s in sorted(by_step.items())]
            assert figures["per_step"] == means and figures["rises"] == rises(means)
        assert sections[name]["options"]["difficulty"] is True
    assert "difficulty" not in sections["nodiff"]["stats"]
    assert "difficulty" not in sections["nodiff"]["options"]
    assert all("difficulty" not in r for r in _lines(out / "nodiff.jsonl"))


def test_a_shard_whose_play_state_was_edited_is_refused(built, run):
    """A shard's self-play state is merged, not trusted: one edited by hand is refused, naming
    the field. (That shards merge to the whole build is ``test_jobs_same_bytes.py``.)"""
    tmp, config, _out = built
    shards = [tmp / f"half{i}" for i in (1, 2)]
    with _chunks(4):
        for i, shard in enumerate(shards, 1):
            result = run("pack", "build", config, "--out", shard, "--shard", f"{i}/2")
            assert result.exit_code == 0, result.output
        manifest = json.loads((shards[0] / "manifest.json").read_text())
        for entry in manifest["sections"]:
            if entry["name"] == "pools":
                entry["stats_state"]["played"]["rejected"] = [["nobody ahead", 1]]
        (shards[0] / "manifest.json").write_text(json.dumps(manifest))
        result = run("pack", "merge", config, *shards, "--out", tmp / "bad")
    assert result.exit_code == 2
    assert "sections[0].stats_state" in result.stderr


@pytest.mark.parametrize(("edit", "line", "message"), [
    (("    games: 2\n    players: [greedy, greedy@3]\n",
      "    games: 2\n    players: [greedy, wise]\n"), 10, "unknown player 'wise'"),
    (("    count: 5\n    self_play: true\n", "    count: 5\n    players: [greedy]\n"), 14,
     "also say self_play: true"),
    (("    games: 2\n", "    games: 0\n"), 9, "games"),
    (("balanced: true\n", "balanced: maybe\n"), 8, "balanced"),
    (("    style: tail\n    difficulty: true\n", "    style: tail\n    difficulty: 3\n"), 24,
     "difficulty"),
])
def test_play_keys_refused_with_file_and_line(tmp_path, run, edit, line, message):
    config = _config(tmp_path, CONFIG.replace(*edit))
    result = run("pack", "build", config, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"wfkit: error: {config}:{line}: "), result.stderr
    assert message in result.stderr
    assert not (tmp_path / "out").exists()


def test_preview_draws_win_rates_and_difficulty_per_step(built, tmp_path, run):
    _tmp, _config_path, out = built
    html = tmp_path / "preview.html"
    assert run("pack", "preview", out, "-o", html).exit_code == 0
    page = html.read_text(encoding="utf-8")
    sections = _sections(out)
    # pools and played: self-play wins; boards: difficulty scores; run and sets: also per step
    # (the play charts, by their captions: a section's own charts of its boards or pools
    # stand beside them)
    play = re.compile(r'<figure class="chart">(?:(?!</figure>).)*?<figcaption>(?:boards per '
                      r'difficulty|mean difficulty|games won by)(?:(?!</figure>).)*</figure>',
                      re.S)
    parts = {name: re.search(rf'id="section-{name}".*?</section>', page, re.S).group(0)
             for name in sections}
    charts = {name: len(play.findall(part)) for name, part in parts.items()}
    assert charts == {"pools": 1, "played": 1, "plain": 0, "boards": 1, "run": 2, "sets": 2,
                      "nodiff": 0}
    assert "mean difficulty score per ramp step" in page
    assert "mean difficulty score per plan phase" in page
    dom = chromium_dom(html, tmp_path / "profile")
    body = re.search(r"<body[^>]*>", dom).group(0)
    drawn = page.count('<figure class="chart">')
    assert f'data-charts-drawn="{drawn}"' in body, body
    assert len(re.findall(r'<rect class="bar"', dom)) == page.count('<rect class="bar"')
    bars = sum(chart.count('<rect class="bar"') for part in parts.values()
               for chart in play.findall(part))
    assert bars == sum(len(sections[name]["stats"]["difficulty"]["per_step"])
                       for name in ("run", "sets")) + sum(
        len(sections[name]["stats"]["difficulty"]["histogram"])
        for name in ("boards", "run", "sets")) + 2 * 3


@pytest.mark.parametrize("spoiled", [
    {"difficulty": {"per_step": ["1", 2]}},
    {"difficulty": {"histogram": {"1": -3}}},
    {"difficulty": {"histogram": {"x": 3}}},
    {"difficulty": {"per_step": [1e400]}},
    {"difficulty": {"per_step": [-1]}},
    {"difficulty": {"per_step": {"a": 1}}},
    {"balance": {"wins": {"first": 2, "second": 0}}},
    {"balance": {"wins": {"first": True}}},
    {"balance": {"wins": [0.5]}},
    {"difficulty": "x", "balance": 3},
])
def test_charts_of_spoiled_figures_draw_nothing(spoiled):
    from wordforge_cli.render.charts import play_charts

    assert play_charts("challenge", spoiled) == []


def test_a_long_endless_run_draws_its_first_steps():
    from wordforge_cli.render.charts import MAX_BARS, play_charts

    ((svg, caption),) = play_charts("endless", {"difficulty": {"per_step": [1.5] * 500}})
    assert svg.count('class="bar"') == MAX_BARS
    assert f"the first {MAX_BARS} of 500" in caption


def test_state_round_trips_exactly():
    """to_state -> JSON -> from_state gives the same summary, and merging parts in any
    grouping gives the whole's (the statistics protocol)."""
    from wordforge_cli.crossword.difficulty import Difficulty, DifficultyStats
    from wordforge_cli.kanji.territory import BalanceStats

    parts = []
    for i in range(6):
        d = DifficultyStats()
        for j in range(i + 1):
            d.add(Difficulty(rounds=j, guesses=i % 2, given=3, hidden=4, slots=5), step=j % 3)
        parts.append(d)
    whole = DifficultyStats()
    for p in parts:
        whole.merge(DifficultyStats.from_state(json.loads(json.dumps(p.to_state()))))
    left, right = DifficultyStats(), DifficultyStats()
    for p in parts[:2]:
        left.merge(p)
    for p in parts[2:]:
        right.merge(p)
    assert left.merge(right).summary() == whole.summary()
    b = BalanceStats()
    b.add({"balance": {"games": 4, "first_wins": 1, "second_wins": 2, "draws": 1,
                       "first_win_rate": 0.25, "advantage": -0.0123, "mean_margin": -0.5,
                       "steals": 3.25, "length": 20.5, "hidden_moves": 1.0, "redraws": 2,
                       "ended": {"no known move": 1, "move limit": 3}, "model_wins": [2, 1],
                       "fresh": {"games": 4, "first_wins": 3, "second_wins": 1, "draws": 0,
                                 "advantage": 0.04, "ended": {"move limit": 2},
                                 "outside_band": True}}})
    b.reject({"first player ahead": 2})
    again = BalanceStats.from_state(json.loads(json.dumps(b.to_state())))
    assert again.summary() == b.summary() and again.to_state() == b.to_state()
    with pytest.raises(ValueError):
        BalanceStats.from_state({**b.to_state(), "games": -1})
