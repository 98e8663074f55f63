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

from wordforge_cli.io.paths import data_file

LEVELS = {"A1", "A2", "B1", "B2", "C1", "C2"}
POS = {"noun", "verb", "adjective", "adverb", "pronoun", "conjunction", "interjection",
       "numeric", "expression", "prefix", "suffix", "counter", "particle", "auxiliary",
       "auxiliary verb", "auxiliary adjective", "determiner", "preposition"}


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
    # the article's lookup gives 迷宮; JMdict glosses labyrinth as 迷路 too, and ECDICT's 迷宫
    # breaks the tie once OpenCC gives its Japanese kanji (迷宮)
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
    assert table["boxes"][2] == "box"  # web2 lacks 'box': it comes from SCOWL
    assert table["gone"][2] != "gan"  # simplemma's rare homograph is not taken


def test_modern_words_are_playable_and_names_are_not():
    table = rows()
    for word in ("website", "goodbye", "email", "internet", "smartphone", "healthcare",
                 "gameplay", "meantime", "arguably", "cellphone", "fundraiser", "wellbeing",
                 "daycare", "skincare", "ebooks"):
        assert word in table, word
    for name in ("london", "paris", "obama", "tokyo"):  # SCOWL has john, google as words
        assert name not in table, name


def test_non_words_are_not_playable():
    table = rows()
    for junk in ("xqzt", "qwrtp", "zzzzz", "b", "x"):
        assert junk not in table, junk
    # contraction fragments, with or without the apostrophe
    for junk in ("didn", "doesn", "isn", "wasn", "couldn", "aren", "nt", "ll", "ve", "dont",
                 "theyre", "womens"):
        assert junk not in table, junk
    # over-regularised inflections and misspellings: no real form of their lemma
    for junk in ("thinked", "sayed", "childs", "tooths", "womans", "informations",
                 "furnitures", "responsibilty"):
        assert junk not in table, junk
    # typos of a far more frequent word (one letter left out) and other languages' words,
    # which only ECDICT's generated form table or the regular rule vouched for
    for junk in ("learing", "belived", "tinking", "copas", "varis", "lineas", "familias"):
        assert junk not in table, junk
    # ... while the real forms, and words that look like fragments, are
    for word in ("thought", "said", "children", "teeth", "women", "well", "were", "its", "cant",
                 "wont", "shell", "quaffed", "xylophones", "rebranded", "dashcams", "reframed"):
        assert word in table, word
    assert "a" in table and "i" in table


def test_a_rare_homograph_is_no_form_of_a_function_word():
    """couth ('refined') is simplemma's archaic participle of can: it took can's A1 and 出来る."""
    table = rows()
    assert table["couth"][1:] == ["", "", "", ""]
    assert table["could"][2:] == ["", "auxiliary", "出来る"]
    assert table["didst"][2] == "do"  # a real archaic form keeps its lemma


def test_judged_inflection_samples_are_playable_forms_with_a_verdict():
    """data/quality/inflections-seed*.tsv: inflection-only words judged by hand (README)."""
    folder = data_file("english.tsv").parent / "quality"
    samples = sorted(folder.glob("inflections-seed*.tsv"))
    assert samples
    table = rows()
    # forms the word-set rules took out since they were judged: repot is only in SCOWL 80,
    # poppin in no list, sterlings a mass noun's plural (data/english.md)
    no_longer_playable = {"repotted", "poppins", "sterlings"}
    for path in samples:
        lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
        assert len(lines) == 50, path.name
        verdicts = Counter()
        for form, lemma, verdict, reason in lines:
            if form in no_longer_playable:
                assert form not in table, (path.name, form)
            else:
                assert table[form][2] == lemma, (path.name, form)
            assert verdict in ("real", "doubtful", "not a word"), (path.name, form)
            assert verdict == "real" or reason, (path.name, form)
            verdicts[verdict] += 1
        assert verdicts["not a word"] <= 2, (path.name, verdicts)


def test_expert_levels_are_kept_and_cefrpy_guesses_are_not():
    table = rows()
    # Octanove C1/C2 (through studyforge-vocab): the article's point, hard words are strong
    assert table["aesthetic"][1] == "C1" and table["ephemeral"][1] == "C2"
    # CEFR-J A1-B2, including A1 words wordfreq rates rare (the old guard dropped bicycle)
    assert table["happy"][1] == "A1" and table["bicycle"][1] == "A1"
    assert table["freedom"][1] == "A2"
    # a headword whose levels differ by part of speech takes its lowest (above: A1 prep.)
    assert table["above"][1] == "A1"
    # cefrpy's guesses are left to the Zipf rule: in no expert list
    assert table["tenacious"][1] == "C2"  # cefrpy guessed A1; Octanove says C2
    for word in ("restrictionism", "figment", "tenable", "unluckily", "warrant",
                 "internationalization", "pluralism", "serendipity", "xylophone", "labyrinth"):
        assert word not in table or table[word][1] == "", word
    levels = Counter(fields[1] for fields in table.values())
    assert levels["C1"] > 800 and levels["C2"] > 800


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
                   "EDRDG", "CC BY-SA", "data/build/english.py", "studyforge-vocab",
                   "CEFR-J Wordlist", "Octanove Vocabulary Profile", "sha256"):
        assert needle in doc, needle


def test_reading_the_table_needs_no_build_only_package():
    """The build's packages (jamdict, cefrpy, english-words) are never imported at run time."""
    code = ("import sys\nfrom wordforge_cli.wordforge.english import open_words\n"
            "t = open_words(whole=True)\nassert t.get('cat') is not None\n"
            "bad = [m for m in ('jamdict', 'jamdict_data', 'cefrpy', 'english_words')"
            " if m in sys.modules]\nassert not bad, bad\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def test_data_version_is_in_version_output_and_follows_the_bytes(tmp_path, monkeypatch):
    """The data version names the bundled data: a rebuild with other bytes changes it."""
    from click.testing import CliRunner

    from wordforge_cli import __version__
    from wordforge_cli.cli import cli
    from wordforge_cli.io import dataversion, paths

    version = dataversion.data_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    shown = CliRunner().invoke(cli, ["--version"])
    assert shown.exit_code == 0
    assert shown.output == f"wfkit, version {__version__} (data {version})\n"

    def version_of(files: dict[str, bytes]) -> str:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        for name, data in files.items():
            (folder / name).write_bytes(data)
        monkeypatch.setattr(paths, "resource_dir", lambda name: folder)
        dataversion.data_version.cache_clear()
        try:
            return dataversion.data_version()
        finally:
            dataversion.data_version.cache_clear()

    base = version_of({"english.tsv": b"cat\tA1\t\t\t\n", "jukugo.tsv": b"x\n"})
    assert version_of({"english.tsv": b"cat\tA1\t\t\t\n", "jukugo.tsv": b"x\n"}) == base
    assert version_of({"english.tsv": b"cat\tA2\t\t\t\n", "jukugo.tsv": b"x\n"}) != base
    assert version_of({"english.tsv": b"cat\tA1\t\t\t\n", "jukugo.tsv": b"y\n"}) != base
    # the provenance notes are documentation, not data
    assert version_of({"english.tsv": b"cat\tA1\t\t\t\n", "jukugo.tsv": b"x\n",
                       "english.md": b"# notes\n"}) == base


def test_pack_manifest_licence_names_both_expert_lists():
    """A pack's manifest carries data/english.md's licence section: both attributions."""
    from wordforge_cli.batch.kinds import bundled_file

    entry = bundled_file("data", "english.tsv")
    assert entry.provenance == "wfkit:data/english.md"
    for needle in ("CEFR-J", "Tono Laboratory", "Octanove", "CC BY-SA 4.0", "JMdict"):
        assert needle in (entry.license or ""), needle


def judged_samples() -> dict[str, list[list[str]]]:
    folder = data_file("english.tsv").parent / "quality"
    return {p.name: [line.split("\t") for line in p.read_text(encoding="utf-8").splitlines()]
            for p in sorted(folder.glob("gloss-*.tsv"))}


# The last sample drawn after the last change of the gloss rules (seed 30, words of Zipf >= 3;
# seed 28 was the first one of this table; seeds 22-27 were looked at while the vote's rules
# were set; the samples of earlier builds are past-gloss-*). The evidence-only trial build's
# seed 10 is trial-evidence-only-gloss-seed10.tsv.
FRESH_SAMPLE = "gloss-z3-seed30.tsv"


def tally(lines: list[list[str]]) -> Counter:
    return Counter(verdict for _word, _pos, _gloss, verdict, _reason in lines)


@pytest.mark.xfail(strict=True, reason="the fresh sample (seed 30) has 34 odd glosses and 1 wrong "
                   "(bar 25 and 3; 37 and 1 before the pivot votes), data/english.md; "
                   "remove this mark once a rebuild and a fresh sample meet it")
def test_fresh_gloss_sample_meets_the_bar():
    verdicts = tally(judged_samples()[FRESH_SAMPLE])
    assert verdicts["wrong"] <= 3 and verdicts["odd"] <= 25, verdicts


def test_judged_gloss_samples_are_the_shipped_glosses_and_meet_the_bar():
    """data/quality/: samples judged by hand one word at a time. A rebuild that changes a
    judged gloss fails here until the sample is judged again (bench/gloss_quality.py)."""
    samples = judged_samples()
    assert {"gloss-top100.tsv", "gloss-z3-seed22.tsv", FRESH_SAMPLE} <= set(samples), \
        sorted(samples)
    table = rows()
    for name, lines in samples.items():
        verdicts = Counter()
        for word, pos, gloss, verdict, reason in lines:
            assert table[word][3:5] == [pos, gloss], (name, word)
            assert verdict in ("right", "odd", "wrong", "missing"), (name, word)
            assert verdict == "right" or reason, (name, word)  # say why
            verdicts[verdict] += 1
        assert len(lines) == 100, name
        assert verdicts["wrong"] <= 3, (name, verdicts)
        if name == "gloss-top100.tsv":  # random words stay above 25 odd (english.md says so)
            assert verdicts["odd"] <= 5, (name, verdicts)


def test_trial_gloss_sample_is_judged_word_by_word():
    """The evidence-only trial build's seed-10 sample (data/english.md): not the shipped
    table's glosses, so it is checked for its judgements and its tally, which the README and
    english.md quote."""
    path = data_file("english.tsv").parent / "quality" / "trial-evidence-only-gloss-seed10.tsv"
    lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 100 and len({line[0] for line in lines}) == 100
    for word, _pos, gloss, verdict, reason in lines:
        assert gloss and verdict in ("right", "odd", "wrong"), word
        assert verdict == "right" or reason, word
    assert tally(lines) == {"right": 74, "odd": 23, "wrong": 3}


def test_score_rule_moves_are_judged_word_by_word():
    """The hand-judged moves of the score rule that data/english.md measures and does not
    ship (round 7, bench/gloss_candidates.py): every row judged, a reason for each not right."""
    path = data_file("english.tsv").parent / "quality" / "trial-score-margin-gloss-moves.tsv"
    lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 72 and len({line[0] for line in lines}) == 72
    # moves away from the build they were measured on: the vote now takes some of them
    # (beams 光線), so the table is not compared
    for word, pos, gloss, verdict, reason in lines:
        assert gloss and pos and word in rows(), word
        assert verdict in ("right", "odd", "wrong") and (verdict == "right" or reason), word
    assert tally(lines) == {"right": 26, "odd": 44, "wrong": 2}


@pytest.mark.parametrize("name, count, verdicts", [
    # the reverse-rank rules (bench/gloss_reverse_rank.py), not shipped
    ("trial-reverse-rank-gloss-moves.tsv", 96, {"right": 42, "odd": 52, "wrong": 2}),
    # glosses the six-language pivot rules moved to (bench/gloss_pivot.py's first measurement)
    ("trial-pivot-gloss-moves.tsv", 61, {"right": 37, "odd": 21, "wrong": 3}),
])
def test_trial_moves_are_judged_word_by_word(name: str, count: int, verdicts: dict) -> None:
    """The hand-judged moves of the trial rules that data/english.md measures: every row
    judged, of the word's part of speech in the table, a reason for each not right."""
    path = data_file("english.tsv").parent / "quality" / name
    lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == count and len({(line[0], line[2]) for line in lines}) == count
    table = rows()
    for word, pos, gloss, verdict, reason in lines:
        assert gloss and word in table and table[word][3] == pos, word
        assert verdict in ("right", "odd", "wrong") and (verdict == "right" or reason), word
    assert tally(lines) == verdicts


def test_gloss_probes_of_the_issue():
    table = rows()
    expected = {"to": "へ", "of": "の", "with": "と", "good": "良い", "said": "言う",
                "flirted": "でれつく", "a": "", "the": ""}
    for word, gloss in expected.items():
        assert table[word][4] == gloss, (word, table[word])
    # the wrong glosses of the old build are gone
    wrong = {"on": "オン", "out": "死", "flirted": "男誑し", "craning": "鶴", "good": "ため"}
    for word, gloss in wrong.items():
        assert table[word][4] != gloss, (word, gloss)
