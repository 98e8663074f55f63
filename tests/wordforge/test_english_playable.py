"""Which strings the shipped English table lets a player play: no typos, modern words in, a
form and its lemma in step, and the judged samples of data/quality/playable-*.tsv.

These read the committed data/english.tsv and data/english.md only; the build is never run.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from pathlib import Path

import wordfreq

from wordforge_cli.io.paths import data_file

WORD = re.compile(r"[a-z]+")
QUALITY = Path(data_file("english.tsv")).parent / "quality"
MISSING_SAMPLE = QUALITY / "playable-missing-top20k-seed22.tsv"
RANDOM_SAMPLE = QUALITY / "playable-random-seed22.tsv"
OUT_REASONS = {"name", "abbreviation", "fragment", "typo", "foreign", "nonword"}


@cache
def table() -> dict[str, list[str]]:
    lines = data_file("english.tsv").read_text(encoding="utf-8").splitlines()
    return {line.split("\t", 1)[0]: line.split("\t") for line in lines}


@cache
def top_words() -> tuple[str, ...]:
    """wordfreq's top 20,000 lowercase a-z words, as bench/playable_quality.py takes them."""
    return tuple([w for w in wordfreq.top_n_list("en", 80000) if WORD.fullmatch(w)][:20000])


def judged(path: Path) -> list[list[str]]:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 100 and all(len(r) == 4 for r in rows), path.name
    return rows


def sheet() -> str:
    return data_file("english.md").read_text(encoding="utf-8")


def test_typos_and_over_regular_forms_of_the_issue_do_not_play_or_lend_a_level() -> None:
    words = table()
    for junk in ("quaters", "untill", "meaned", "quater", "informations", "equipments"):
        assert junk not in words, junk
    # hided is SCOWL's past of hide 'to flog': it plays, but not with hide's A1 and gloss
    assert words["hided"][1:] == ["", "", "", ""]
    assert words["hide"][1] == "A1"


def test_modern_words_come_in_from_the_lists() -> None:
    words = table()
    for word in ("app", "apps", "vlog", "livestream", "photobomb", "staycation", "chatbot",
                 "unmute", "deepfake", "cryptocurrency", "selfie", "podcast"):
        assert word in words, word
    assert words["apps"][2] == "app"
    # no list spells it so (en_GB and WikDict write Wi-Fi): english.md says it stays out
    assert "wifi" not in words
    assert "`wifi` is not" in sheet()


def test_a_form_and_its_lemma_agree() -> None:
    words = table()
    assert "quaffer" in words and "quaffers" in words
    assert "app" in words and "apps" in words
    for word, fields in words.items():
        lemma = fields[2]
        assert not lemma or (lemma in words and lemma != word), word


def test_names_abbreviations_and_fragments_stay_out() -> None:
    words = table()
    for out in ("kashmir", "july", "tuesday", "japanese", "london", "etc", "approx", "dept",
                "km", "http", "didn", "dont", "xxxvii"):
        assert out not in words, out
    # homographs that two word lists write in lowercase do play
    for word in ("english", "albert", "chateau", "annal", "bio"):
        assert word in words, word


def test_missing_sample_is_a_fixed_seed_draw_of_the_top_words_not_playable() -> None:
    words = table()
    missing = [w for w in top_words() if w not in words]
    rows = judged(MISSING_SAMPLE)
    assert [r[0] for r in rows] == random.Random(22).sample(missing, 100)
    verdicts: Counter[str] = Counter()
    for word, _zipf, verdict, reason in rows:
        assert verdict in ("out", "word"), word
        assert reason, word  # say why
        if verdict == "out":
            assert reason.split(" ", 1)[0].rstrip(":,;") in OUT_REASONS, (word, reason)
        verdicts[verdict] += 1
    doc = sheet()
    found = re.search(r"Not playable among wordfreq's top 20,000 lowercase a-z words: ([\d,]+)",
                      doc)
    assert found and int(found.group(1).replace(",", "")) == len(missing)
    assert f"is **{verdicts['out']} rightly out**" in doc


def test_random_sample_is_a_fixed_seed_draw_of_playable_words_and_meets_the_bar() -> None:
    words = sorted(table())
    rows = judged(RANDOM_SAMPLE)
    assert [r[0] for r in rows] == sorted(random.Random(22).sample(words, 100))
    verdicts = Counter(r[2] for r in rows)
    assert set(verdicts) <= {"dict", "nodict"}, verdicts
    assert all(r[3] for r in rows if r[2] == "nodict")
    assert verdicts["nodict"] <= 2, verdicts
    assert f"**{verdicts['dict']} that a dictionary has**" in sheet()


def test_data_sheet_names_the_new_sources_with_their_pins() -> None:
    doc = sheet()
    for needle in ("scowl 2020.12.07-2",
                   "de692546df9b169f2cbdf4d8d88111a374733a9c382b820a6f943914ca705718",
                   "hunspell-en-gb 1:7.5.0-1",
                   "02d7e794bf14a644e3083e61fc8f10351133a27403cb653eb43c3145e35d9b3e",
                   "dict-freedict-eng-fin 2022.12.07-2",
                   "037351c22b6f803358517d0293bab9619f6bef964e22cab68f63a174b5d22ebe",
                   "python bench/playable_quality.py missing",
                   "python bench/playable_quality.py sample --seed 22"):
        assert needle in doc, needle
