"""What ``wfkit kanji`` refuses, and the one line it says so in: a ``--config`` file's bad
keys and values (top-level ones and in a preset), a pool no attempt can make (exit 1), and
bad command lines of ``kanji``, ``kanji check`` and ``kanji play``. Each case is the command,
the files it reads, the exit status and the message (``refusals.check`` runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from refusals import Refusal, check

CONFIG_FILES = [
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": ""},
            2, "kc.yaml: file is empty"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "preset: {}\n"},
            2, "kc.yaml:1: 'preset' must be a preset name, not a mapping"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "count: 4-5\n"},
            2, "kc.yaml:1: count: '4-5' is not a valid integer range."),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "count: -1\n"},
            2, "kc.yaml:1: count: -1 is not in the range 0<=x<=1000000000."),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "count:\n- 5\n"},
            2, "kc.yaml:2: count: expected a whole number, not a list"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "players:\n- 4\n"},
            2, "kc.yaml:2: players: unknown player '4' (greedy, lookahead, optionally @ZIPF)"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "presets:\n  hard:\n    games: 1001\n"},
            2, "kc.yaml:3: games: 1001 is not in the range 1<=x<=1000."),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "presets:\n  easy:\n    bogus: 1\n"},
            2, "kc.yaml:3: unknown key 'bogus'"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1",
            {"kc.yaml": "kanji: 18-22\n"},
            1,
            "no pool made: all 1 ran out of their budget; no pool with 18-22 kanji in 200 "
            "attempts (pools of 5+25 words had 23-53); lower --bring or --base, or raise the "
            "range"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset custom",
            {"kc.yaml": "presets:\n  easy:\n  normal:\n  hard:\n"},
            2, "--preset: unknown preset 'custom' (presets: easy, normal, hard)"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset custom",
            {"kc.yaml": "count: 1\ncount: 2\n"},
            2, "kc.yaml:2: 'count' is given twice (first on line 1; a key may appear once)"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset custom",
            {"kc.yaml": "presets: ["},
            2, "kc.yaml:2: YAML syntax error: did not find expected node content"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset custom",
            {"kc.yaml": "presets:\n  hard:\n    balance_attempts: 100001\n"},
            2, "kc.yaml:3: balance_attempts: 100001 is not in the range 1<=x<=100000."),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset custom",
            {"kc.yaml": "presets:\n  easy:\n    hidden_examples: '1001'\n"},
            2, "kc.yaml:3: hidden_examples: 1001 is not in the range 0<=x<=1000."),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset easy",
            {"kc.yaml": "preset: null\n"},
            2, "--preset: unknown preset 'easy' (presets: none)"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset easy",
            {"kc.yaml": "preset: 4-5\n"},
            2, "kc.yaml:1: unknown preset '4-5'"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset easy",
            {"kc.yaml": "presets:\n  easy:\n    base: 4\n    bring: 15\n    max_grade: 6\n"
                        "    base_max_grade: 4\n    min_zipf: 3.0\n    kanji: 48\n"},
            1,
            "no pool made: all 1 ran out of their budget; no pool with 48-48 kanji in 200 "
            "attempts (pools of 4+15 words had 16-39); raise --bring or --base, or lower the "
            "range"),
    Refusal("kanji --config kc.yaml -n 1 --seed 1 --preset normal",
            {"kc.yaml": "presets:\n  hard:\n    band: -0.1\n"},
            2, "kc.yaml:3: band: -0.1 is not in the range 0<=x<=1."),
]

COMMAND_LINES = [
    Refusal("kanji check --dict empty.yaml 熱帯 --pool {EX}/weather-pool.jsonl --dict --pool "
            "missing/x.yaml {EX}/kanji-weather.txt",
            {},
            2,
            "Got unexpected extra arguments (missing/x.yaml {EX}/kanji-weather.txt) (see "
            "'wfkit kanji check -h')"),
    Refusal("kanji check --pool --dict list.yaml 'bad\n"
            "name.yaml' 熱帯 --pool {EX}/weather-pool.jsonl --pool . --dict "
            "{EX}/kanji-weather.txt",
            {},
            2, "Invalid value for '--pool': File '.' is a directory. (see 'wfkit kanji check -h')"),
    Refusal("kanji check 熱帯 --dict . --pool {EX}/weather-pool.jsonl --dict "
            "{EX}/kanji-weather.txt --json --taken x --taken x",
            {},
            2, "--taken: x not on the board of pool 0"),
    Refusal("kanji check 熱帯 --pool --dict '' {EX}/weather-pool.jsonl --dict "
            "{EX}/kanji-weather.txt",
            {},
            2,
            "Got unexpected extra arguments ( {EX}/weather-pool.jsonl) (see 'wfkit kanji "
            "check -h')"),
    Refusal("kanji check 熱帯 --pool --taken '\t' {EX}/weather-pool.jsonl --dict "
            "{EX}/kanji-weather.txt",
            {},
            2,
            "Got unexpected extra arguments (\\t {EX}/weather-pool.jsonl) (see 'wfkit kanji "
            "check -h')"),
    Refusal("kanji check 熱帯 --pool {EX}/weather-pool.jsonl --dict --dict . "
            "{EX}/kanji-weather.txt --id 4-3 --json",
            {},
            2,
            "Invalid value for '--id': '4-3' is not a valid integer. (see 'wfkit kanji check "
            "-h')"),
    Refusal("kanji check 熱帯 --pool {EX}/weather-pool.jsonl --dict --taken x "
            "{EX}/kanji-weather.txt",
            {},
            2,
            "Got unexpected extra arguments (x {EX}/kanji-weather.txt) (see 'wfkit kanji "
            "check -h')"),
    Refusal("kanji check 熱帯 --pool {EX}/weather-pool.jsonl --id ' 3' --dict "
            "{EX}/kanji-weather.txt --json",
            {},
            2, "{EX}/weather-pool.jsonl: no pool with id 3"),
    Refusal("kanji check 熱帯 --pool {EX}/weather-pool.jsonl --id nan --dict "
            "{EX}/kanji-weather.txt --id",
            {},
            2, "Option '--id' requires an argument."),
    Refusal("kanji check 熱帯 --pool {EX}/weather-pool.jsonl --taken x --dict "
            "{EX}/kanji-weather.txt --json=",
            {},
            2, "Option '--json' does not take a value."),
    Refusal("kanji play --id 4-3 --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt "
            "--limit 5 --seed 654",
            {},
            2,
            "Invalid value for '--id': '4-3' is not a valid integer. (see 'wfkit kanji play "
            "-h')"),
    Refusal("kanji play --limit 1e3 --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt "
            "--limit 5 --seed 190 --player zipf:x",
            {},
            2,
            "Invalid value for '--player': unknown player 'zipf:x' (greedy, lookahead, "
            "optionally @ZIPF) (see 'wfkit kanji play -h')"),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict --id '' {EX}/kanji-weather.txt "
            "--limit 5 --seed 611",
            {},
            2,
            "Got unexpected extra arguments ( {EX}/kanji-weather.txt) (see 'wfkit kanji play "
            "-h')"),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed --id -5 841",
            {},
            2, "No such option '-5'. (see 'wfkit kanji play -h')"),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed --player D1 972",
            {},
            2,
            "Invalid value for '--seed': '--player' is not a seed (a whole number from 0 to "
            "2**63-1) (see 'wfkit kanji play -h')"),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed 249 --limi abc",
            {},
            2,
            "No such option '--limi'. (Did you mean one of: '--id', '--limit'?) (see 'wfkit "
            "kanji play -h')"),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed 265 --json=1 --player=",
            {},
            2, "Option '--json' does not take a value."),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed 509 --json --id",
            {},
            2, "Option '--id' requires an argument."),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed 710 --id -5",
            {},
            2, "{EX}/weather-pool.jsonl: no pool with id -5"),
    Refusal("kanji play --pool {EX}/weather-pool.jsonl --dict {EX}/kanji-weather.txt --limit 5 "
            "--seed 948 --see 1e3",
            {},
            2, "No such option '--see'. Did you mean '--seed'? (see 'wfkit kanji play -h')"),
]


@pytest.mark.parametrize("case", CONFIG_FILES)
def test_a_bad_config_file_is_refused_in_one_line(case: Refusal, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A kanji config that cannot be used (exit 2) or can make no pool (exit 1)."""
    check(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", COMMAND_LINES)
def test_a_bad_command_line_is_refused_in_one_line(case: Refusal, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A kanji command line that cannot be run: exit 2, one line."""
    check(case, tmp_path, monkeypatch)
