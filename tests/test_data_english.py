"""The shipped English word table (data/english.tsv): format, key words, provenance in step.

The table is rebuilt by data/build/english.py with the build extras (jamdict-data, cefrpy, ...);
these tests read the committed file only and never run the build.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from functools import cache

import pytest

from wordforge_cli.paths import data_file

LEVELS = {"A1", "A2", "B1", "B2", "C1", "C2"}
POS = {"noun", "verb", "adjective", "adverb", "pronoun", "conjunction", "interjection",
       "numeric", "expression", "prefix", "suffix", "counter", "particle", "auxiliary",
       "auxiliary verb", "auxiliary adjective"}


@cache
def rows() -> dict[str, list[str]]:
    text = data_file("english.tsv").read_bytes().decode("utf-8")
    assert text.endswith("\n") and "\r" not in text
    table = {}
    for line in text[:-1].split("\n"):
        fields = line.split("\t")
        assert len(fields) == 5, line
        assert fields[0] not in table, f"duplicate {fields[0]}"
        table[fields[0]] = fields
    return table


def test_every_line_has_five_valid_fields_sorted_and_unique():
    table = rows()
    words = list(table)
    assert words == sorted(words)
    for word, cefr, lemma, pos, gloss in table.values():
        assert re.fullmatch(r"[a-z]+", word), word
        assert cefr == "" or cefr in LEVELS, (word, cefr)
        if lemma:
            assert lemma != word and lemma in table, (word, lemma)
        assert pos == "" or pos in POS, (word, pos)
        assert gloss == gloss.strip() and "\t" not in gloss, word


def test_size_stays_small_enough_for_git():
    assert data_file("english.tsv").stat().st_size < 8_000_000
    assert len(rows()) > 150_000


def test_article_words_are_playable_with_their_gloss():
    table = rows()
    assert table["cat"][1:] == ["A1", "", "noun", "猫"]
    assert table["labyrinth"][3:] == ["noun", "迷宮"]
    assert table["xylophone"][4] == "木琴"
    for word in ("pizza", "serendipity", "ephemeral", "aesthetic", "ennui", "quaff"):
        assert word in table, word


def test_inflected_forms_are_playable_and_point_at_their_lemma():
    table = rows()
    assert table["cats"][2] == "cat"
    assert table["cats"][4] == "猫"  # an inflected form shows its lemma's gloss
    assert table["running"][2] == "run"
    assert table["ran"][2] == "run"
    assert table["mice"][2] == "mouse"
    assert table["xylophones"][2] == "xylophone"
    assert table["boxes"][2] == "box"  # web2 lacks 'box': it comes from the CEFR table
    assert table["gone"][2] != "gan"  # simplemma's rare homograph is not taken


def test_modern_words_are_playable_and_names_are_not():
    table = rows()
    for word in ("website", "goodbye", "email", "internet", "smartphone"):
        assert word in table, word
    for name in ("london", "john", "google", "paris"):
        assert name not in table, name


def test_non_words_are_not_playable():
    table = rows()
    for junk in ("xqzt", "qwrtp", "zzzzz", "b", "x"):
        assert junk not in table, junk
    assert "a" in table and "i" in table


def test_cefrpy_guesses_are_left_to_the_zipf_rule():
    table = rows()
    # cefrpy labels these A1 for want of frequency data; CEFR-J has none of them
    for word in ("restrictionism", "tenacious", "figment", "tenable", "unluckily"):
        assert word not in table or table[word][1] == "", word
    # its C1/C2 levels are frequency estimates: none is kept
    levels = Counter(fields[1] for fields in table.values())
    assert levels["C1"] == levels["C2"] == 0
    # CEFR-J's own levels are (cefrpy's A1-B2 that pass the guard)
    assert table["happy"][1] == "A1"
    assert table["freedom"][1] == "A2"


@pytest.mark.parametrize("key", ["words", "with CEFR level", "with lemma", "with gloss"])
def test_provenance_counts_match_the_file(key):
    doc = data_file("english.md").read_text(encoding="utf-8")
    table = rows().values()
    actual = {
        "words": len(rows()),
        "with CEFR level": sum(1 for f in table if f[1]),
        "with lemma": sum(1 for f in table if f[2]),
        "with gloss": sum(1 for f in table if f[4]),
    }[key]
    match = re.search(rf"^\| {key} \| ([\d,]+) \|", doc, re.M)
    assert match, f"data/english.md has no '| {key} | N |' row"
    assert int(match.group(1).replace(",", "")) == actual


def test_provenance_names_every_source_and_the_rebuild_command():
    doc = data_file("english.md").read_text(encoding="utf-8")
    for needle in ("english-words", "cefrpy", "simplemma", "wordfreq", "jamdict-data", "JMdict",
                   "EDRDG", "CC BY-SA", "data/build/english.py"):
        assert needle in doc, needle


def test_reading_the_table_needs_no_build_only_package():
    """The build's packages (jamdict, cefrpy, english-words) are never imported at run time."""
    code = ("import sys\nfrom wordforge_cli.english import open_words\n"
            "t = open_words(whole=True)\nassert t.get('cat') is not None\n"
            "bad = [m for m in ('jamdict', 'jamdict_data', 'cefrpy', 'english_words')"
            " if m in sys.modules]\nassert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
