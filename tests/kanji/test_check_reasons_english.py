"""``wfkit kanji check`` says why in English on the command line; its JSON verdict carries the
same reason in English (``reason``) and in the article's Japanese (``reason_ja``) for a game's
players, both from the one table of reasons; the verdict validates against its schema."""

from __future__ import annotations

import json

import jsonschema  # a test extra
import pytest
from conftest import EXAMPLES

from wordforge_cli import schemas
from wordforge_cli.kanji.check import REASONS, check_answer
from wordforge_cli.kanji.dictionary import build_dictionary

POOL = EXAMPLES / "weather-pool.jsonl"
ARTICLE = {"not_in_dictionary": "辞書にない熟語です",
           "nothing_new": "手つかずな漢字を1字以上選んでください"}


def test_every_reason_has_both_languages_and_the_articles_words():
    for rule, (english, japanese) in REASONS.items():
        assert english.isascii() or "{kanji}" in english, rule
        assert not japanese.isascii(), rule
        assert ("{kanji}" in english) == ("{kanji}" in japanese), rule
    for rule, words in ARTICLE.items():
        assert REASONS[rule][1] == words


@pytest.mark.parametrize("word, taken, rule, kanji", [
    ("気圧", "", "ok", "気圧"),
    ("亜熱帯", "熱帯", "ok", "亜"),
    ("熱帯", "熱帯", "nothing_new", ""),
    ("帯熱", "", "not_in_dictionary", ""),
    ("寒帯", "", "not_on_board", "寒"),
])
def test_each_verdict_reads_its_row(word, taken, rule, kanji):
    words = ["気圧", "亜熱帯", "熱帯", "寒帯", "低気圧"]
    dictionary = build_dictionary([(w, None, n) for n, w in enumerate(words, start=1)], {})
    verdict = check_answer(word, list("熱帯低気圧亜"), dictionary, taken)
    english, japanese = REASONS[rule]
    assert verdict.ok == (rule == "ok")
    assert verdict.reason == english.format(kanji=kanji)
    assert verdict.reason_ja == japanese.format(kanji=kanji)


def test_the_command_line_is_english_and_the_json_has_both(run):
    record = json.loads(POOL.read_text(encoding="utf-8").splitlines()[0])
    shown, hidden = record["words"][0], record["hidden"][0]
    check = jsonschema.Draft202012Validator(schemas.load("kanji-check"))
    cases = [((shown, "--taken", shown), 1, "nothing_new"), (("熱熱熱",), 1, "not_in_dictionary"),
             ((shown,), 0, "ok"), ((hidden,), 0, "ok")]
    for args, status, rule in cases:
        text = run("kanji", "check", *args, "--pool", POOL)
        assert text.exit_code == status, text.stderr
        assert not any("\u3040" <= ch <= "\u30ff" for ch in text.stdout), text.stdout  # kana
        answer = run("kanji", "check", *args, "--pool", POOL, "--json")
        verdict = json.loads(answer.stdout)
        check.validate(verdict)
        assert verdict["reason"] in text.stdout
        assert verdict["reason_ja"].startswith(REASONS[rule][1].split("{")[0])
        assert verdict["reason"].startswith(REASONS[rule][0].split("{")[0])
    surprise = run("kanji", "check", hidden, "--pool", POOL)
    assert surprise.stdout.rstrip().endswith("(a compound the pool does not show)")
