"""What ``wfkit crossword`` refuses, and the one line it says so in: a ``--config`` file's bad
keys and values (top-level ones, the endless plan, the challenge ramp, the labels), read by
every form of the command, and bad command lines of every form. Each case is the command, the
files it reads, the exit status and the message (``refusals.check`` runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from refusals import Refusal, check

CONFIG_FILES = [
    Refusal("crossword --config cw.yaml --vocab {EX}/animals-en.yaml -n 2 --seed 1",
            {"cw.yaml": "challenge:\n  ramp:\n  - band:\n    - 3\n    - 3\n  - band:\n    - 3\n"
                        "    - 3\n  - band:\n    - 4\n    - 4\n    style: null\n"},
            2,
            "cw.yaml:12: challenge/ramp/2/style: expected one of none, tail, head, alt, most, "
            "not empty"),
    Refusal("crossword --config cw.yaml --vocab {EX}/animals-en.yaml -n 2 --seed 1",
            {"cw.yaml": "layout: none\n"},
            2, "cw.yaml:1: layout: 'none' is not one of 'loose', 'strict'."),
    Refusal("crossword --config cw.yaml --vocab {EX}/animals-en.yaml -n 2 --seed 1",
            {"cw.yaml": "style: all\n"},
            2,
            "cw.yaml:1: style: 'all' is not one of 'none', 'tail', 'head', 'alt', 'most' (did "
            "you mean 'alt'?)"),
    Refusal("crossword --config cw.yaml --vocab {EX}/animals-en.yaml -n 2 --seed 1",
            {"cw.yaml": "unique: maybe\n"},
            2,
            "cw.yaml:1: unique: 'maybe' is not a valid boolean. Recognized values: , 0, 1, f, "
            "false, n, no, off, on, t, true, y, yes"),
    Refusal("crossword --config cw.yaml --vocab {EX}/animals-en.yaml -n 2 --seed 1",
            {"cw.yaml": "endless:\n  unlock_start: -1\n"},
            2, "cw.yaml:2: endless/unlock_start: -1 is not in the range x>=1."),
    Refusal("crossword --config cw.yaml --vocab {EX}/animals-en.yaml -n 2 --seed 1",
            {"cw.yaml": "labels:\n  none: 3\n"},
            2, "cw.yaml:2: labels/none must be a non-empty string, not 3"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "budget: '0x10'\n"},
            2, "cw.yaml:1: budget: '0x10' is not a valid integer range."),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "max_height: '-'\n"},
            2, "cw.yaml:1: max_height: '-' is not a valid integer range."),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "max_width: -1\n"},
            2, "cw.yaml:1: max_width: -1 is not in the range 2<=x<=10000."),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "min_len: 4\nmax_len: 3\n"},
            2, "cw.yaml:1: min_len: impossible request: min length 4 > max length 3"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "styles: bogus\n"},
            2,
            "cw.yaml:1: styles: unknown style 'bogus' (all, or a comma list of none, tail, "
            "head, alt, most)"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "budgett:\n"},
            2, "cw.yaml:1: unknown key 'budgett' (did you mean 'budget'?)"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "count: &id001\nStyle: *id001\n"},
            2, "cw.yaml:2: YAML syntax error: YAML aliases (*name) are not allowed in wfkit files"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "labels:\n  head: 3\n"},
            2, "cw.yaml:2: labels/head must be a non-empty string, not 3"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "labels:\n  tail: 3\n"},
            2, "cw.yaml:2: labels/tail must be a non-empty string, not 3"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "layout:\n- tail\n"},
            2, "cw.yaml:2: layout: expected one of loose, strict, not a list"),
    Refusal("crossword --config cw.yaml --vocab {EX}/tech.yaml -n 2 --seed 1",
            {"cw.yaml": "endless:\n  unlock_start:\n    a: 1\n"},
            2, "cw.yaml:3: endless/unlock_start: expected a whole number, not a mapping"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": ""},
            2, "cw.yaml: file is empty"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "max_width: 10001\n"},
            2, "cw.yaml:1: max_width: 10001 is not in the range 2<=x<=10000."),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "labels:\n  alt: 3\n"},
            2, "cw.yaml:2: labels/alt must be a non-empty string, not 3"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "labels:\n  most: ''\n"},
            2, "cw.yaml:2: labels/most must be a non-empty string, not ''"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "max_width: 2\n"},
            2,
            "challenge question 1: impossible request: no 3-3 letter answer fits a board of "
            "at most 2 x any cells: its words run down and across in turn, so words down may "
            "have at most any letters and words across at most 2, and not enough such words "
            "hold the answers' letters"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "challenge:\n  ramp:\n  - band:\n    - 3\n    - 3\n  - band:\n    - 3\n"
                        "    - 3\n  - band:\n    - 4\n    - 4\n  - band:\n    - 4\n    - 4\n"
                        "    style: bogus\n"},
            2,
            "cw.yaml:15: challenge/ramp/3/style: 'bogus' is not one of 'none', 'tail', "
            "'head', 'alt', 'most'."),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "redraws: 0\n"},
            2, "cw.yaml:1: redraws: 0 is not in the range 1<=x<=1000."),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "- 2\n"},
            2, "cw.yaml:1: the file must be a mapping, not a list"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "challenge:\n  ramp:\n  - band:\n    - 3\n    - 3\n  - band:\n    - 3\n"
                        "    - 3\n  - band:\n    - 4\n    - 4\n  - band:\n    - 4\n    - 4\n"
                        "  - band:\n    - 4\n    - 5\n  - band:\n    - 4\n    - 5\n  - band:\n"
                        "    - 5\n    - 5\n  - band:\n    - 5\n    - 5\n  - band: null\n"},
            2, "cw.yaml:27: challenge/ramp/8/band: expected a LOW-HIGH, not empty"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "budget: ["},
            2, "cw.yaml:2: YAML syntax error: did not find expected node content"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  bands: false\n"},
            2, "cw.yaml:2: endless/bands must be a non-empty list"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  fallback: {}\n"},
            2,
            "cw.yaml:2: endless/fallback: expected LOW-HIGH (e.g. 30-50), one number or [low, "
            "high], not {}"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  styles: false\n"},
            2, "cw.yaml:2: endless/styles must be a non-empty list"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "labels:\n  head: ''\n"},
            2, "cw.yaml:2: labels/head must be a non-empty string, not ''"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "labels:\n  tail: ''\n"},
            2, "cw.yaml:2: labels/tail must be a non-empty string, not ''"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "style:\n- tail\n"},
            2, "cw.yaml:2: style: expected one of none, tail, head, alt, most, not a list"),
    Refusal("crossword --config cw.yaml challenge --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  unlock_start:\n  - 1\n"},
            2, "cw.yaml:3: endless/unlock_start: expected a whole number, not a list"),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "max_len: '-'\n"},
            2, "cw.yaml:1: max_len: '-' is not a valid integer range."),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "max_width: 'true'\n"},
            2, "cw.yaml:1: max_width: 'true' is not a valid integer range."),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "min_len: nan\n"},
            2, "cw.yaml:1: min_len: 'nan' is not a valid integer range."),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  redraws: true\n"},
            2, "cw.yaml:2: endless/redraws: 'true' is not a valid integer range."),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "labels:\n  most: null\n"},
            2, "cw.yaml:2: labels/most must be a non-empty string, not None"),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/animals-en.yaml --count 2 --seed 1",
            {"cw.yaml": "labels:\n  none: ''\n"},
            2, "cw.yaml:2: labels/none must be a non-empty string, not ''"),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "redraws: 'true'\n"},
            2, "cw.yaml:1: redraws: 'true' is not a valid integer range."),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "strict_vocab: maybe\n"},
            2,
            "cw.yaml:1: strict_vocab: 'maybe' is not a valid boolean. Recognized values: , 0, "
            "1, f, false, n, no, off, on, t, true, y, yes"),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "style: loose\n"},
            2, "cw.yaml:1: style: 'loose' is not one of 'none', 'tail', 'head', 'alt', 'most'."),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "jobs: []\n"},
            2, "cw.yaml:1: unknown key 'jobs'"),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  fallback: 1000000000000\n"},
            2,
            "cw.yaml:2: endless/fallback: expected LOW-HIGH (e.g. 30-50), one number or [low, "
            "high], not '1000000000000'"),
    Refusal("crossword --config cw.yaml endless --vocab {EX}/tech.yaml --count 2 --seed 1",
            {"cw.yaml": "endless:\n  unlock_every:\n  - 5\n"},
            2, "cw.yaml:3: endless/unlock_every: expected a whole number, not a list"),
]

COMMAND_LINES = [
    Refusal("crossword challenge --vocab --layout strict v.txt --count 1 --seed 672",
            {},
            2,
            "Got unexpected extra arguments (strict v.txt) (see 'wfkit crossword challenge "
            "-h')"),
    Refusal("crossword challenge --vocab --stats list.yaml v.yaml --count --jobs true 1 --seed "
            "777 --styles=all,tail",
            {},
            2,
            "Invalid value for '--count': '--jobs' is not a valid integer range. (see 'wfkit "
            "crossword challenge -h')"),
    Refusal("crossword challenge --vocab -o empty.yaml {EX}/animals-en.yaml --count 1 --seed 601 "
            "--no-redraw --no-redraw",
            {},
            2,
            "Got unexpected extra arguments (empty.yaml {EX}/animals-en.yaml) (see 'wfkit "
            "crossword challenge -h')"),
    Refusal("crossword challenge --vocab v.yaml --count 1 --seed 265 --unique --unique",
            {"v.yaml": '{"name": "fz", "language": 3, "words": []}'},
            2, "v.yaml:1: 'language' must be a string, not a number"),
    Refusal("crossword challenge --vocab {EX}/animals-en.yaml --count 1 --seed --redraws 3- 242 "
            "--coun -1",
            {},
            2,
            "No such option '--coun'. (Did you mean one of: '--count', '--json'?) (see 'wfkit "
            "crossword challenge -h')"),
    Refusal("crossword challenge --vocab {EX}/animals-en.yaml --count 1 --seed 43 "
            "--layout=loose,strict",
            {},
            2,
            "Invalid value for '--layout': 'loose,strict' is not one of 'loose', 'strict' "
            "(did you mean 'strict'?) (see 'wfkit crossword challenge -h')"),
    Refusal("crossword challenge --vocab {EX}/animals-en.yaml --count 1 --seed 543 --fold-small=1",
            {},
            2, "Option '--fold-small' does not take a value."),
    Refusal("crossword challenge --vocab {EX}/animals-en.yaml --count 1 --seed 674 --styles",
            {},
            2, "Option '--styles' requires an argument."),
    Refusal("crossword challenge --vocab {EX}/tech.yaml --layout LOOSE --count 1 --seed 807",
            {},
            2,
            "Invalid value for '--layout': 'LOOSE' is not one of 'loose', 'strict'. (see "
            "'wfkit crossword challenge -h')"),
    Refusal("crossword endless --render jso --vocab v.yaml --count 5 --seed 810",
            {},
            2,
            "Invalid value for '--render': 'jso' is not one of 'json', 'text', 'svg', 'ipuz', "
            "'sheet'. (see 'wfkit crossword endless -h')"),
    Refusal("crossword endless --seed 0 --vocab v.yaml --count 0 --count 5 --seed 583 "
            "--difficulty",
            {"v.yaml": '{"name": "fz", "language": 3, "words": []}'},
            2, "v.yaml:1: 'language' must be a string, not a number"),
    Refusal("crossword endless --vocab --max-height 10001 v.yaml --count 5 --seed 518",
            {},
            2, "Got unexpected extra arguments (10001 v.yaml) (see 'wfkit crossword endless -h')"),
    Refusal("crossword endless --vocab --stats empty.yaml --layout bogus v.yaml --count 5 --seed "
            "256 --max-height ١٢",
            {},
            2,
            "Invalid value for '--layout': 'bogus' is not one of 'loose', 'strict'. (see "
            "'wfkit crossword endless -h')"),
    Refusal("crossword endless --vocab v.txt --count 5 --seed 509 --layout",
            {},
            2, "Option '--layout' requires an argument."),
    Refusal("crossword endless --vocab v.yaml --count 5 --count --output . -1 --seed 134",
            {},
            2, "No such option '-1'. (see 'wfkit crossword endless -h')"),
    Refusal("crossword endless --vocab v.yaml --count 5 --seed 477 --seed -Z",
            {},
            2,
            "Invalid value for '--seed': '-Z' is not a seed (a whole number from 0 to "
            "2**63-1) (see 'wfkit crossword endless -h')"),
    Refusal("crossword endless --vocab v.yaml --count 5 --seed 650 --json=no",
            {},
            2, "Option '--json' does not take a value."),
    Refusal("crossword endless --vocab {EX}/animals-en.yaml --count 5 --seed 267 --layout=loos",
            {},
            2,
            "Invalid value for '--layout': 'loos' is not one of 'loose', 'strict' (did you "
            "mean 'loose'?) (see 'wfkit crossword endless -h')"),
    Refusal("crossword endless --vocab {EX}/animals-en.yaml --count 5 --seed 537 --stats "
            "missing/x.yaml --bogus",
            {},
            2,
            "No such option '--bogus'. Did you mean '--jobs'? (see 'wfkit crossword endless "
            "-h')"),
    Refusal("crossword plan 6 --json --json -Z",
            {},
            2, "No such option '-Z'. (see 'wfkit crossword plan -h')"),
    Refusal("crossword plan 6 --json --json=1 --json=1",
            {},
            2, "Option '--json' does not take a value."),
]


@pytest.mark.parametrize("case", CONFIG_FILES)
def test_a_bad_config_file_is_refused_in_one_line(case: Refusal, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A crossword config that cannot be used: exit 2, its file and line."""
    check(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", COMMAND_LINES)
def test_a_bad_command_line_is_refused_in_one_line(case: Refusal, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A crossword command line that cannot be run: exit 2, one line."""
    check(case, tmp_path, monkeypatch)
