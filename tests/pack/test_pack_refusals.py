"""What ``wfkit pack build`` refuses, and the one line it says so in: a pack config's bad
keys and values, a section no item of could ever be made from, a vocabulary or table it
names that cannot be read (after the warnings of the words it skipped), and bad command
lines. Each case is the command, the files it reads, the exit status and the message
(``refusals.check`` runs it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from refusals import Refusal, check

CONFIG_FILES = [
    Refusal("pack build pack.yaml --out pack --jobs 1",
            {"pack.yaml": "seed: 964509369\nsections:\n- kind: balance\n"},
            2,
            "pack.yaml:3: section 'name' must be lower-case letters, digits, '-' or '_' (it "
            "names the section's files), not None"),
    Refusal("pack build pack.yaml --out pack --jobs 1",
            {"pack.yaml": "seed: 956880016\nsections:\n- name: x_0\n  kind: kanji\n- name: x_0\n"
                          "  kind: crossword\n"},
            2, "pack.yaml:5: section name 'x_0' is used twice"),
    Refusal("pack build pack.yaml --out pack --jobs 1",
            {"pack.yaml": "seed: 758554619\nsections:\n- name: sec-1\n  kind: crossword\n"
                          "  jobs: 1\n"},
            2, "pack.yaml:5: unknown key 'jobs'"),
    Refusal("pack build pack.yaml --out pack --jobs 1",
            {"v1.yaml": '{"name": "fz", "language": "ja", "words": [""]}',
             "pack.yaml": "seed: 887554929\nsections:\n- name: s3\n  kind: endless\n"
                          "  vocab: v1.yaml\n  count: 255\n"},
            2, "v1.yaml:1: empty word"),
    Refusal("pack build pack.yaml --out pack --jobs 1",
            {"v1.yaml": '{"name": "fz", "language": "en", "words": [{"word": "rekw", "hint": '
                        '"line\\nbreak"}]}',
             "pack.yaml": "seed: 909022084\nsections:\n- name: x_1\n  kind: crossword\n"
                          "  vocab: v1.yaml\n  count: 2049\n"},
            2, "v1.yaml:1: hint has a control character (U+000A); it would break lines"),
    Refusal("pack build pack.yaml --out pack --jobs 1 --json",
            {"pack.yaml": "seed: all\n"},
            2, "pack.yaml:1: 'seed' must be a whole number from 0 to 2**63-1, not 'all'"),
    Refusal("pack build pack.yaml --out pack --jobs 1 --json",
            {"pack.yaml": "seed: 473970041\nsections:\n- name: sec-2\n  kind: ''\n"},
            2,
            "pack.yaml:4: unknown section kind '' (kinds: balance, challenge, crossword, "
            "endless, kanji, rarity)"),
    Refusal("pack build pack.yaml --out pack --jobs 1 --json",
            {"pack.yaml": "seed: 979166951\nsections:\n- name: s0\n  kind: kanji\n  cout: 1\n"},
            2, "pack.yaml:5: unknown key 'cout' (did you mean 'count'?)"),
    Refusal("pack build pack.yaml --out pack --jobs 1 --json",
            {"pack.yaml": "seed: 673328166\nsections:\n- name: sec-0\n  kind: crossword\n"
                          "  vocab: v0.txt\n  count: 100\n  style: []\n",
             "v0.txt": ""},
            2,
            "pack.yaml:7: sections[0].style: expected one of none, tail, head, alt, most, not "
            "a list"),
    Refusal("pack build pack.yaml --out pack --jobs 1 --json",
            {"pack.yaml": "seed: 285393719\nsections:\n- name: s0\n  kind: rarity\n"
                          "  vocab: rv0.yaml\n",
             "rv0.yaml": '{"name": "rv", "language": "ja", "words": ["ok"]}'},
            2, "rv0.yaml: language 'ja': WordForge rates English words (en)"),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"pack.yaml": "seed: 714932563\nsections:\n- name: s0\n  kind: crossword\n"
                          "  count: 256\n"},
            2, "pack.yaml:3: section 's0': 'vocab' is required"),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"pack.yaml": "seed: 224228138\nsections:\n- name: sec-0\n  kind: endless\n"
                          "  vocab: v1.txt\n  count: 257\n",
             "v1.txt": "ツラリレェヨ\nカキョハ\n"},
            2,
            "pack.yaml:5: sections[0].vocab: can never succeed: no band of the endless plan "
            "can be made (impossible request: no 3-4 letter word has, for every one of its "
            "letters, another distinct word holding that letter, each crossing the word "
            "before it)"),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"pack.yaml": "seed: 313516714\nsections:\n- name: x_0\n  kind: crossword\n"
                          "  vocab: v0.txt\n  count: 513\n  band: 3\n",
             "v0.txt": "dkyzhaiya\nrhinysmd\nklnehtgozmiy\nnttosteonor\nicyck\noeeniesseo\n"
                       "egovgje\nserisn\noi\n"},
            2,
            "pack.yaml:7: sections[0].band: can never succeed: impossible request: no word of "
            "3-3 letters in the vocabulary (lengths there: 2, 5, 6, 7, 8, 9, 10, 11, 12)"),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"pack.yaml": "seed: 45096508\nsections:\n- name: x_0\n  kind: balance\n- name: x_1\n"
                          "  kind: crossword\n  vocab: r1.yaml\n  count: 2048\n  style: 4-5\n",
             "r1.yaml": ""},
            2,
            "pack.yaml:9: sections[1].style: '4-5' is not one of 'none', 'tail', 'head', "
            "'alt', 'most'."),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"pack.yaml": "seed: 703751529\nsections:\n- name: x_0\n  kind: endless\n"
                          "  vocab: r0.yaml\n  count: 60\n- name: sec-1\n  kind: crossword\n"
                          "  vocab: r1.yaml\n  count: 257\n  band: 7\n",
             "r0.yaml": '{"name": "rv0", "language": "ja", "words": ["ベクトル", "パラメータ", '
                        '"メトリクス", "トレース", "アラート", "リトライ"]}',
             "r1.yaml": '{"name": "rv1", "language": "ja", "words": [{"word": "コロ", "hint": '
                        '"]]>"}, "ニキケナチムー"]}'},
            2,
            "pack.yaml:9: sections[1].vocab: can never succeed: impossible request: no 7-7 "
            "letter word has, for every one of its letters, another distinct word holding "
            "that letter, each crossing the word before it"),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"v1.yaml": '{"name": "fz", "language": "", "words": ["ass", "nsrttiirs", "noito", '
                        '"oois", "ooeti"]}',
             "pack.yaml": "seed: 229604941\nsections:\n- name: s0\n  kind: crossword\n"
                          "  vocab: v1.yaml\n  count: 256\n- name: s1\n  kind: kanji\n"
                          "  count: 1\n  preset: easy\n  dict: dict.yaml\n",
             "dict.yaml": '{"name": "kd", "language": "ja", "words": ["ひらがな", "楽譜", '
                          '"火の鳥", "café", "a\'b"]}'},
            2,
            "pack.yaml:10: sections[1].preset: can never succeed: 3: the dictionary has no "
            "frequencies (a word<TAB>zipf .tsv has them; a word list does not)",
            before=("wfkit: warning: dict.yaml:1: 'ひらがな' skipped: not all kanji (ひらがな)",
                    "wfkit: warning: dict.yaml:1: '火の鳥' skipped: not all kanji (の)",
                    "wfkit: warning: dict.yaml:1: 'café' skipped: not all kanji (café)",
                    "wfkit: warning: dict.yaml:1: 'a'b' skipped: not all kanji (a'b)")),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"cefr.yaml": "moth: \n",
             "pack.yaml": "seed: 452509151\nsections:\n- name: x_0\n  kind: crossword\n"
                          "  vocab: v0.txt\n  count: 255\n- name: x_1\n  kind: rarity\n"
                          "  vocab: rv1.yaml\n  cefr: cefr.yaml\n",
             "v0.txt": "スタック\na b\nパラメータ\nトランザクション\nネュハフエトナ\n漢字\n"
                       "メトリクス\nクエリ\n",
             "rv1.yaml": ""},
            2, "cefr.yaml:1: unknown CEFR level '' for 'moth' (levels: A1, A2, B1, B2, C1, C2)",
            before=("wfkit: warning: v0.txt:2: 'a b' skipped: contains a space",
                    "wfkit: warning: v0.txt:6: '漢字' skipped: character '漢' (U+6F22) is not "
                    "kana")),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"pack.yaml": "seed: 269114925\nsections:\n- name: s1\n  kind: crossword\n"
                          "  vocab: v1.txt\n  count: 255\n- name: x_2\n  kind: crossword\n",
             "v1.txt": "ab1\nナアサリツウケセナンナケ\nミルーモナウハョロイマ\n"
                       "オナリヤレリリメロニェネ\na b\n🙂🙂\nナセチコメラタ\nミチンニ\n"},
            2, "pack.yaml:7: section 'x_2': 'count' is required",
            before=("wfkit: warning: v1.txt:1: 'ab1' skipped: character 'a' (U+0061) is not "
                    "kana",
                    "wfkit: warning: v1.txt:5: 'a b' skipped: contains a space",
                    "wfkit: warning: v1.txt:6: '🙂🙂' skipped: symbol '🙂' (U+1F642) is not "
                    "kana")),
    Refusal("pack build pack.yaml --out pack --jobs 2",
            {"v0.yaml": '{"name": "fz", "language": "ja", "words": ["ウマゥクヨ", "レユヒソ"]}',
             "pack.yaml": "seed: 327637376\nsections:\n- name: s0\n  kind: endless\n"
                          "  vocab: v1.txt\n  count: 256\n- name: sec-1\n  kind: crossword\n"
                          "  vocab: v0.yaml\n  count: 2048\n",
             "v1.txt": "レガアサゲュビソパセ\nンニイキタカソサ\nニユメラテ\n"
                       "ホヌユセチヌサシォテメケ\nアメスォ\nサアタチヤソラメケレヒヨ\nニドラン♀\n"},
            2,
            "pack.yaml:9: sections[1].vocab: can never succeed: impossible request: no 4-5 "
            "letter word has, for every one of its letters, another distinct word holding "
            "that letter, each crossing the word before it",
            before=("wfkit: warning: v1.txt:7: 'ニドラン♀' skipped: symbol '♀' (U+2640) is "
                    "not kana",)),
    Refusal("pack build pack.yaml --out pack --jobs 2 --json",
            {"v1.yaml": '{"name": "fz", "language": null, "words": []}',
             "pack.yaml": "seed: 668129670\nsections:\n- name: s1\n  kind: crossword\n"
                          "  vocab: v1.yaml\n  count: 512\n"},
            2, "v1.yaml:1: 'language' must be a string, not empty"),
]

COMMAND_LINES = [
    Refusal("pack build --shard '' pk.yaml --out pack --jobs --shard -- 1 --jobs 257 --jobs 257",
            {},
            2,
            "Invalid value for '--shard': '' is not I/N with 1 <= I <= N (e.g. 2/3) (see "
            "'wfkit pack build -h')"),
    Refusal("pack build pk.yaml --out --jobs 4-3 pack --jobs 1",
            {},
            2, "Got unexpected extra arguments (4-3 pack) (see 'wfkit pack build -h')"),
    Refusal("pack build pk.yaml --out -j --out . ١٢ pack --jobs 1 --force",
            {},
            2, "Got unexpected extra arguments (١٢ pack) (see 'wfkit pack build -h')"),
    Refusal("pack build pk.yaml --out pack --jobs --jobs -1 1 --json=yes",
            {},
            2, "No such option '-1'. (see 'wfkit pack build -h')"),
    Refusal("pack build pk.yaml --out pack --jobs 1 --force -j 99999999999999999999 -j "
            "99999999999999999999 -j",
            {},
            2, "Option '-j' requires an argument."),
    Refusal("pack build pk.yaml --out pack --jobs 1 --force extra",
            {},
            2, "Got unexpected extra argument (extra) (see 'wfkit pack build -h')"),
    Refusal("pack build pk.yaml --out pack --jobs 1 --force=yes --out --help",
            {},
            2, "Option '--force' does not take a value."),
    Refusal("pack build pk.yaml --out pack --jobs 1 --out latin1.yaml",
            {"latin1.yaml": b"name: caf\xe9\nwords: [a]\n"},
            2,
            "Invalid value for '--out': Directory 'latin1.yaml' is a file. (see 'wfkit pack "
            "build -h')"),
    Refusal("pack build pk.yaml --out pack --jobs 1 -j 0x10",
            {},
            2,
            "Invalid value for '-j' / '--jobs': '0x10' is not a valid integer range. (see "
            "'wfkit pack build -h')"),
]


@pytest.mark.parametrize("case", CONFIG_FILES)
def test_a_bad_pack_config_is_refused_in_one_line(case: Refusal, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack config that cannot be built: exit 2, its file and line, nothing built."""
    check(case, tmp_path, monkeypatch)


@pytest.mark.parametrize("case", COMMAND_LINES)
def test_a_bad_command_line_is_refused_in_one_line(case: Refusal, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A pack command line that cannot be run: exit 2, one line."""
    check(case, tmp_path, monkeypatch)
