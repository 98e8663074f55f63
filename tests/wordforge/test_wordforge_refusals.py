"""What the WordForge commands (``rarity``, ``score``, ``tiles``, ``balance``) refuse, and the
one line they say so in: bad rules, CEFR and override files, bad words and hands, words that
cannot be played (exit 1), and bad command lines. Each case is the command, the files it
reads, the exit status and the message (``refusals.check`` runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from refusals import Refusal, check

RARITY = [
    Refusal("rarity --cefr cefr.csv --overrides ov.yaml ostrich snake --format xml --stats "
            "st.json",
            {},
            2,
            "Invalid value for '--format': 'xml' is not one of 'table', 'csv', 'json', 'md'. "
            "(see 'wfkit rarity -h')"),
    Refusal("rarity --cefr cefr.yaml --no-lemma 漢字 crab donkey dolphin zebra --format md",
            {},
            2, "bad word: '漢字' has '漢' (U+6F22): a word is letters a-z only",
            before=("wfkit: --format md is deprecated (it goes in a later release): use "
                    "--render md",)),
    Refusal("rarity --cefr cefr.yaml zephyr goat ubiquitous owl 'ニドラン♀'",
            {},
            2, "bad word: 'ニドラン♀' has 'ニ' (U+30CB): a word is letters a-z only"),
    Refusal("rarity --config rules.yaml --lemma sloth ok ア a -o out",
            {},
            2, "bad word: 'ア' has 'ア' (U+30A2): a word is letters a-z only"),
    Refusal("rarity --config rules.yaml --vocab {EX}/words.yaml --json --stats st.json",
            {"rules.yaml": "bogus: 1\n"},
            2, "rules.yaml:1: unknown key 'bogus'"),
    Refusal("rarity --format tabl --stats empty.yaml cat quaff --no-lemma --no-lemma",
            {},
            2,
            "Invalid value for '--format': 'tabl' is not one of 'table', 'csv', 'json', 'md'. "
            "(see 'wfkit rarity -h')"),
    Refusal("rarity --overrides ov.yaml --vocab rv.yaml",
            {"rv.yaml": '{"name": "rv", "language": "en", "words": ["  "]}'},
            2, "rv.yaml:1: empty word"),
    Refusal("rarity --vocab rv.yaml",
            {"rv.yaml": '{"name": "rv", "language": "fr", "words": ["qwxz"]}'},
            2, "rv.yaml: language 'fr': WordForge rates English words (en)"),
    Refusal("rarity --vocab rv.yaml --compare rules.yaml --stats st.json",
            {},
            2, "--stats goes with a rarity table, not with --compare"),
    Refusal("rarity --vocab {EX}/tech.yaml --compare rules.yaml --format md --json -o out",
            {},
            2, "--json and --render md ask for two formats: give one (--json is --render json)",
            before=("wfkit: --format md is deprecated (it goes in a later release): use "
                    "--render md",)),
    Refusal("rarity cat --cefr 'bad\nname.yaml' --vocab 'bad\nname.yaml' quaff --lemma=yes",
            {},
            2, "Option '--lemma' does not take a value."),
    Refusal("rarity cat --cefr latin1.yaml quaff",
            {"latin1.yaml": b"name: caf\xe9\nwords: [a]\n"},
            2, "latin1.yaml:1: not UTF-8 text (byte 0xe9 at offset 9)"),
    Refusal("rarity cat --vocab --vocab 'bad\nname.yaml' loop quaff",
            {},
            2, "give words or --vocab, not both"),
    Refusal("rarity cat quaff --config --config missing/x.yaml loop",
            {},
            2, "bad word: 'missing/x.yaml' has '/' (U+002F): a word is letters a-z only"),
    Refusal("rarity cat quaff --data dangling",
            {},
            2, "dangling: no such file (the word table; see data/english.md)"),
    Refusal("rarity cat quaff --output bin.yaml --config missing/x.yaml --gold-rush --gold-rush",
            {},
            2, "missing/x.yaml: no such file"),
    Refusal("rarity cat quaff --overrides",
            {},
            2, "Option '--overrides' requires an argument."),
]

SCORE = [
    Refusal("score --cefr {EX}/article-cefr.yaml --overrides ov.yaml zax --no-battle --overdrive "
            "--fortress --wild 2,2",
            {"ov.yaml": "owl: 1\n"},
            2,
            "ov.yaml:1: unknown tier '1' for 'owl' (tiers: normal, common, rare, super_rare, "
            "ultra_rare, legendary)"),
    Refusal("score --config '' quaff --turns 'a b' --comb 1000 -Z",
            {},
            2, "No such option '--comb'. Did you mean '--combo'? (see 'wfkit score -h')"),
    Refusal("score --data . quaff",
            {},
            2, "Invalid value for '--data': File '.' is a directory. (see 'wfkit score -h')"),
    Refusal("score --lemma zzz --combo 0 --gold-rush --json",
            {},
            1, "'zzz' is not playable (not in the word list): it scores nothing"),
    Refusal("score --overrides ov.yaml --turns jaguar,labyrinth,walrus --no-battle --wild 1,3 "
            "--json",
            {},
            2, "--wild applies to one WORD, not to --turns"),
    Refusal("score quaff --cefr empty.yaml --config dangling --cefr empty.yaml",
            {},
            2, "dangling: no such file"),
    Refusal("score quaff --data bin.yaml",
            {"bin.yaml": b"\xa5e\x0b\x89l\xe3\xfcSmV\xde\xd6J\xc3\xe0\x83vd\x03\xd4\xd1\xae<KS\t"
                         b"\x03\xd8\x06~\xf2\xc7\x90%\xe1\x0bfD\xe9rJ\x8bj\xa0\x87~\x91A\xbe,j"
                         b"\xfe\xda\xbb\xd7\xabw\xf2/\x92\t\xd8\xf3\xd0"},
            2, "bin.yaml:1: not UTF-8 text (byte 0xa5 at offset 0)"),
    Refusal("score quaff --data missing/x.yaml --link --json",
            {},
            2, "missing/x.yaml: no such file (the word table; see data/english.md)"),
    Refusal("score quaff --fortress --fortress=no --no-battle=1",
            {},
            2, "Option '--fortress' does not take a value."),
    Refusal("score quaff --wild",
            {},
            2, "Option '--wild' requires an argument."),
    Refusal("score quaff --wild ー",
            {},
            2, "--wild: 'ー' is not a letter position 1..5"),
]

TILES = [
    Refusal("tiles --cefr cefr.csv --hand MCHYXAZLXA --word leopard --seed 470878",
            {"cefr.csv": "kangaroo,D1\n"},
            2,
            "cefr.csv:1: unknown CEFR level 'D1' for 'kangaroo' (levels: A1, A2, B1, B2, C1, "
            "C2)"),
    Refusal("tiles --cefr cefr.csv --players 6 -n '' --seed 344793",
            {},
            2,
            "Invalid value for '-n' / '--deals': '' is not a valid integer range. (see 'wfkit "
            "tiles -h')"),
    Refusal("tiles --config missing.yaml --overrides ov.yaml --data data.tsv --hand TYBEAUYQQZAB "
            "--best -k 13 --seed 620202",
            {},
            2, "missing.yaml: no such file"),
    Refusal("tiles --config rules.yaml --cefr cefr.yaml --overrides ov.yaml --players 3 --seed "
            "976557",
            {"rules.yaml": "tiers:\n  normal:\n    label: N\n    multiplier: 1\n  common:\n"
                           "    label: C\n    multiplier: 1.5\n  rare:\n    label: R\n"
                           "    multiplier: 2\n  super_rare:\n    label: SR\n    multiplier: 3\n"
                           "  ultra_rare:\n    label: UR\n    multiplier: 2.5\n  legendary:\n"
                           "    label: LG\n    multiplier: 8\nzipf:\n  thresholds:\n"
                           "    ultra_rare: 1.12\n  below: legendary\n  no_data: normal\n"
                           "short_words:\n  max_length: 3\n  cap: super_rare\ncefr:\n  A1: null\n"
                           "  A2: common\n  B1: rare\n  B2: super_rare\n  C1: ultra_rare\n"
                           "  C2: legendary\nbattle:\nscore:\ntiles:\n"},
            2,
            "rules.yaml:29: unknown tier 'None' (tiers: normal, common, rare, super_rare, "
            "ultra_rare, legendary)"),
    Refusal("tiles --config rules.yaml --hand '' --best --seed 745021",
            {},
            2, "--best goes with --hand (and not with --word)"),
    Refusal("tiles --config {EX}/rarity-no-short-cap.yaml --players 9 --stats st.json --seed "
            "543598",
            {},
            2,
            "Invalid value for '--players': 9 is not in the range 1<=x<=8. (see 'wfkit tiles "
            "-h')"),
    Refusal("tiles --data - --hand ABCDEFG --best --seed 184 --lemma",
            {},
            2, "-: no such file (the word table; see data/english.md)"),
    Refusal("tiles --hand --stats '' ABCDEFG --best --seed 980",
            {},
            2, "Got unexpected extra arguments ( ABCDEFG) (see 'wfkit tiles -h')"),
    Refusal("tiles --hand --word '\t' ABCDEFG --best --seed 397",
            {},
            2, "Got unexpected extra arguments (\\t ABCDEFG) (see 'wfkit tiles -h')"),
    Refusal("tiles --hand ABCDEFG --best --hand '\t' --seed 693",
            {},
            2, "--hand: '\\t' must be letters a-z and '?' (wild) only"),
    Refusal("tiles --hand ABCDEFG --best --seed --cefr 'bad\nname.yaml' 84 --json=no --json",
            {},
            2, "Option '--json' does not take a value."),
    Refusal("tiles --hand ABCDEFG --best --seed --data '' 39 --json --players=9",
            {},
            2,
            "Invalid value for '--seed': '--data' is not a seed (a whole number from 0 to "
            "2**63-1) (see 'wfkit tiles -h')"),
    Refusal("tiles --hand ABCDEFG --best --seed 504 --stats",
            {},
            2, "Option '--stats' requires an argument."),
    Refusal("tiles --hand ABCDEFG --best --seed 562 --config list.yaml",
            {"list.yaml": "{a: [\n"},
            2, "list.yaml:2: YAML syntax error: did not find expected node content"),
    Refusal("tiles --hand ABCDEFG --best --seed 725 --deals 1e3 --data loop --data loop --stat ''",
            {},
            2,
            "No such option '--stat'. (Did you mean one of: '--best', '--data', '--stats'?) "
            "(see 'wfkit tiles -h')"),
    Refusal("tiles --hand ABCDEFG --best --seed 9223372036854775808 --seed 919 --player 9 "
            "--no-lemma",
            {},
            2, "No such option '--player'. Did you mean '--players'? (see 'wfkit tiles -h')"),
    Refusal("tiles --hand ABCDEFG --stats empty.yaml --best --seed 548",
            {},
            2, "--stats goes with dealing (-n), not with --hand"),
    Refusal("tiles --hand 'MZDUX?EZMD' --word raccoon --seed 884148",
            {},
            1, "the hand cannot make 'raccoon'",
            stdout="MZDUX?EZMD cannot make raccoon: r, a, c, c, o, o, n not in the hand and only "
                   "1 wild tile\n"),
    Refusal("tiles --overrides ov.yaml --players '' --seed 615552",
            {},
            2,
            "Invalid value for '--players': '' is not a valid integer range. (see 'wfkit "
            "tiles -h')"),
    Refusal("tiles --word - --hand ABCDEFG --best --seed 845",
            {},
            2, "--best goes with --hand (and not with --word)"),
]

BALANCE = [
    Refusal("balance --cefr cefr.yaml -n 4 --turns 5 --player A1 --player C2 --player B2 --seed "
            "162097",
            {},
            2, "--player: give one model or one per seat (2), not 3"),
    Refusal("balance --config rules.yaml --cefr cefr.yaml --overrides ov.yaml -n 1e3 --turns 3 "
            "--no-powerups --json -o out --seed 226407",
            {},
            2,
            "Invalid value for '-n' / '--games': '1e3' is not a valid integer range. (see "
            "'wfkit balance -h')"),
    Refusal("balance --config rules.yaml --overrides ov.yaml -n 1 --players 4-3 --turns 3 --seed "
            "218690",
            {},
            2,
            "Invalid value for '--players': '4-3' is not a valid integer range. (see 'wfkit "
            "balance -h')"),
    Refusal("balance --use-at 1e3 -n --data dangling 1 --turns 2 --seed 178 --no-lemma --bogus",
            {},
            2, "No such option '--bogus'. Did you mean '--jobs'? (see 'wfkit balance -h')"),
    Refusal("balance -n --output '' 1 --turns 2 --seed 504",
            {},
            2,
            "Invalid value for '-n' / '--games': '--output' is not a valid integer range. "
            "(see 'wfkit balance -h')"),
    Refusal("balance -n 1 --data 'bad\nname.yaml' --turns 2 --seed 44",
            {},
            2, "'bad\\nname.yaml': no such file (the word table; see data/english.md)"),
    Refusal("balance -n 1 --turns --player D1 2 --seed 210",
            {},
            2,
            "Invalid value for '--turns': '--player' is not a valid integer range. (see "
            "'wfkit balance -h')"),
    Refusal("balance -n 1 --turns -o dangling --turns -1 2 --seed 374 --lemma",
            {},
            2,
            "Invalid value for '--turns': -1 is not in the range 1<=x<=1000. (see 'wfkit "
            "balance -h')"),
    Refusal("balance -n 1 --turns 2 --config missing/x.yaml --seed 389",
            {},
            2, "missing/x.yaml: no such file"),
    Refusal("balance -n 1 --turns 2 --seed --players 9 375 --player= --turns",
            {},
            2, "Option '--turns' requires an argument."),
    Refusal("balance -n 1 --turns 2 --seed 490 --see -",
            {},
            2,
            "No such option '--see'. (Did you mean one of: '--seed', '--sweep', '--use-at'?) "
            "(see 'wfkit balance -h')"),
    Refusal("balance -n 1 --turns 2 --seed 495 --player zipf:nan",
            {},
            2,
            "Invalid value for '--player': unknown player 'zipf:nan' (all, a CEFR level "
            "A1..C2, or zipf:X) (see 'wfkit balance -h')"),
    Refusal("balance -n 1 --turns 2 --seed 602 --no-powerups=yes --compare=.",
            {},
            2, "Option '--no-powerups' does not take a value."),
    Refusal("balance -n 1 -o '' --data missing/x.yaml --turns 2 --seed 420 --compare ''",
            {},
            2, ".: -o/--output: is a directory, not a file"),
]


@pytest.mark.parametrize("case", RARITY)
def test_rarity_refuses_in_one_line(case: Refusal, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``wfkit rarity``: exit 2, one line."""
    check(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", SCORE)
def test_score_refuses_in_one_line(case: Refusal, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``wfkit score``: exit 2, or 1 for a word that cannot be played."""
    check(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", TILES)
def test_tiles_refuses_in_one_line(case: Refusal, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``wfkit tiles``: exit 2, or 1 for a word the hand cannot make."""
    check(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", BALANCE)
def test_balance_refuses_in_one_line(case: Refusal, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``wfkit balance``: exit 2, one line."""
    check(case, tmp_path, monkeypatch)
