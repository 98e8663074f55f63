"""Build data/english.tsv, the default English data of `wfkit rarity` / `wfkit score`.

    /work/buildvenv/bin/python data/build/english.py      # rewrites data/english.tsv, prints counts

Run it with the build extras (`pip install -e '.[build]'`); nothing here is imported at run time.
The output is deterministic: same package versions -> same bytes (every set is sorted before
it reaches the file; no timestamps).

One line per playable word, sorted by Python string order, 5 tab-separated fields:

    word <TAB> cefr <TAB> lemma <TAB> pos <TAB> gloss

- word: lowercase a-z. Playable = english-words' `web2` list (Webster's 2nd, public domain)
  lowercase entries but lone letters other than a and i; the CEFR table's words that web2 or
  simplemma knows (box, email, internet); words JMdict uses alone as a lowercase English gloss
  (website, goodbye, selfie); and the inflected forms of all these from simplemma's English
  lemma dictionary that wordfreq has seen (cats, boxes, running, xylophones).
- cefr: A1..B2 from cefrpy, only where cefrpy's level is the CEFR-J list's (see trusted_cefr);
  empty elsewhere, so the article's Zipf rule decides.
- lemma: simplemma's lemma when it differs and is itself playable (cats -> cat), else empty.
- pos, gloss: plain-English part of speech and a short Japanese headword from JMdict
  (jamdict-data), for words that JMdict uses as an English gloss; else empty.

See data/english.md for provenance, licences and counts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import pickle
import re
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path

import cefrpy
import english_words
import simplemma
import wordfreq
from jamdict_data import JAMDICT_DB_PATH
from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "english.tsv"

WORD = re.compile(r"[a-z]+")
LEVELS = ("A1", "A2", "B1", "B2", "C1", "C2")
# Single letters are dictionary headwords (the letter's name) but not words a player types.
SINGLE_LETTER_WORDS = frozenset({"a", "i"})

# ---------------------------------------------------------------- playable words


def english_words_list(name: str) -> set[str]:
    """One raw list of english-words (a pickled set shipped in the wheel), without its flags."""
    data = resources.files(english_words).joinpath("data", f"{name}.pickle")
    return pickle.loads(data.read_bytes())


def base_words() -> tuple[set[str], dict[str, int]]:
    """web2's lowercase entries (its capitalised ones are proper nouns), no lone letters.

    english-words' other list, gcide, is left out: lowercased it brings names (john, london,
    google) and it is GPL-3.0; the modern words it would add (email, internet, online) come
    from the CEFR table instead."""
    raw = english_words_list("web2")
    web2 = {w for w in raw if WORD.fullmatch(w)}
    words = {w for w in web2 if len(w) > 1 or w in SINGLE_LETTER_WORDS}
    return words, {"web2": len(web2), "web2_kept": len(words)}


def web2_names() -> set[str]:
    """web2's capitalised-only entries, lowercased: proper nouns ('John', 'Amazon')."""
    raw = english_words_list("web2")
    return {w.lower() for w in raw if re.fullmatch(r"[A-Z][a-z]+", w)} - set(raw)


def inflections(base: set[str]) -> dict[str, str]:
    """Surface forms of simplemma's English dictionary whose lemma is a base word (cats -> cat).

    Only forms wordfreq has seen: the dictionary also holds misspellings ('outcroping')."""
    dictionary = DefaultDictionaryFactory().get_dictionary("en")
    forms = {}
    for form in sorted(dictionary):
        lemma = dictionary[form]
        if (WORD.fullmatch(form) and form != lemma and lemma in base and form not in base
                and wordfreq.zipf_frequency(form, "en") > 0):
            forms[form] = lemma
    return forms


# ---------------------------------------------------------------- CEFR


def cefrpy_levels() -> tuple[dict[str, float], dict[str, set[str]]]:
    """Every cefrpy word with its lowest level over its parts of speech (1.0 = A1 .. 6.0 = C2),
    and its Penn tags (an English-side hint for the gloss's part of speech)."""
    lowest: dict[str, float] = {}
    tags: dict[str, set[str]] = defaultdict(set)
    for word, pos, level in cefrpy.CEFRDataProcessor().yield_word_pos_level():
        tags[word].add(cefrpy.POSTag(pos).name)
        if word not in lowest or level < lowest[word]:
            lowest[word] = level
    return lowest, tags


# The expert lists come in one wheel from PyPI, read as a zip: never installed nor imported.
STUDYFORGE = ("studyforge-vocab", "0.2.0",
              "aab72a143734b505d77deccecc1ef447aaeafa3bcaf5862bc5acc5c5b1cfcbcb")
STUDYFORGE_WHEEL = "studyforge_vocab-0.2.0-py3-none-any.whl"
STUDYFORGE_LEVELS = "studyforge/data/cefr_levels.json"
STUDYFORGE_ECDICT = "studyforge/data/studyforge_dictionary.db"
STUDYFORGE_NOTICE = "studyforge_vocab-0.2.0.dist-info/licenses/data/NOTICE_CEFR.md"


def studyforge_wheel(cache: Path) -> Path:
    """The pinned wheel, fetched once with `pip download` into ``cache``, sha256 checked."""
    name, version, sha256 = STUDYFORGE
    wheel = cache / STUDYFORGE_WHEEL
    if not wheel.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                        "--only-binary", ":all:", f"{name}=={version}", "-d", str(cache)],
                       check=True)
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != sha256:
        raise SystemExit(f"{wheel}: sha256 {digest}, expected {sha256} (pinned)")
    return wheel


def expert_levels(wheel: Path) -> tuple[dict[str, str], dict]:
    """studyforge's word-level labels (CEFR-J 1.5 A1-B2, Octanove C1/C2 1.0) for a-z words.

    It omits the headwords whose levels differ by part of speech or sense (771); see
    ambiguous_levels for those. Hyphenated and apostrophe headwords (e-mail, o'clock) are not
    a-z words and are left out."""
    with zipfile.ZipFile(wheel) as zf:
        doc = json.loads(zf.read(STUDYFORGE_LEVELS))
    levels = {w: lv for w, lv in doc["levels"].items() if WORD.fullmatch(w) and lv in LEVELS}
    return levels, doc["meta"]


def ecdict_rows(wheel: Path) -> tuple[dict[str, tuple[str, int, str]], dict[str, str]]:
    """The wheel's ECDICT subset (MIT): word -> (pos, oxford 3000 flag, exam tags), and its
    inflection table form -> lemma. Read from a temporary copy (sqlite needs a file)."""
    with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ecdict.db"
        path.write_bytes(zf.read(STUDYFORGE_ECDICT))
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        entries = {w: (pos, oxford, tags) for w, pos, oxford, tags in
                   db.execute("SELECT word, pos, oxford, tags FROM entries ORDER BY word")}
        forms = dict(db.execute("SELECT form, lemma FROM forms ORDER BY form"))
        db.close()
    return entries, forms


# An exam-tagged ECDICT word below this zipf is not taken as a CEFR-J headword (see below).
AMBIGUOUS_MIN_ZIPF = 3.0


def ambiguous_levels(expert: dict[str, str], cefrpy_lowest: dict[str, float],
                     ecdict: dict[str, tuple[str, int, str]],
                     ecdict_forms: dict[str, str]) -> dict[str, str]:
    """A level for the headwords studyforge omits because their levels differ by part of
    speech: the lowest one (a learner meets the word first there).

    Their CEFR-J levels are in cefrpy (whole A1-B2 levels; cefrpy took them from CEFR-J), but
    cefrpy gives whole levels to ~24,000 other words too (stems: unluckily A1). A word is taken
    as one of the omitted headwords when studyforge lacks it, it is no inflected form (those
    get their lemma's level), cefrpy's lowest level is a whole A1-B2 level, and ECDICT (in the
    same wheel) marks it as an Oxford 3000 core word; a B1/B2 level is also taken for an
    exam-list word of ECDICT's (zk, gk, cet4, ielts, ...) that wordfreq rates at least zipf 3.
    An A1/A2 claim without Oxford 3000 is cefrpy's guess (warrant A1, momentum A1)."""
    out = {}
    for word in sorted(cefrpy_lowest):
        value = cefrpy_lowest[word]
        if word in expert or not WORD.fullmatch(word) or value != int(value) or value > 4:
            continue
        if word in ecdict_forms or simplemma.lemmatize(word, lang="en") != word:
            continue
        _pos, oxford, tags = ecdict.get(word, ("", 0, ""))
        if oxford or (tags and value >= 3
                      and wordfreq.zipf_frequency(word, "en") >= AMBIGUOUS_MIN_ZIPF):
            out[word] = LEVELS[int(value) - 1]
    return out


# ---------------------------------------------------------------- JMdict gloss index

# JMdict priority tags: 'common' words (the P mark) first, then the second-tier lists.
PRIORITY_1 = frozenset({"ichi1", "news1", "spec1", "spec2", "gai1"})
PRIORITY_2 = frozenset({"ichi2", "news2", "gai2"})
IRREGULAR_KANJI = frozenset({
    "irregular okurigana usage", "word containing out-dated kanji",
    "word containing irregular kanji usage", "ateji (phonetic) reading",
    "word containing irregular kana usage", "rarely-used kanji form", "search-only kanji form",
})
KANA_ALONE = "word usually written using kana alone"
# Senses a gloss should not come from when a better one exists.
FRINGE_SENSE = frozenset({
    "archaism", "obsolete term", "obscure term", "derogatory", "slang",
    "vulgar expression or word", "rare term", "abbreviation", "colloquialism",
    "male term or language", "female term or language",
    "children's language", "honorific or respectful (sonkeigo) language",
    "humble (kenjougo) language",
})
NOUN_SUFFIXES = ("ness", "ity", "ty", "dom", "tion", "sion", "ment", "ance", "ence", "ism", "ship",
                 "hood", "ure", "cy", "er", "or", "ist")
LATIN = re.compile(r"[A-Za-z\uff21-\uff3a\uff41-\uff5a]")
# A lemma this much rarer (in Zipf) than its form is a wrong pick among homographs.
LEMMA_ZIPF_GAP = 2.0
VOWEL = re.compile(r"[aeiouy]")
MIN_GLOSS_WORD_ZIPF = 2.0
KATAKANA = re.compile(r"[\u30a0-\u30ff]+")
PARENS = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")  # innermost first: 'dog (Canis (lupus) f.)'
# Parts of speech that make a poor gloss for a whole English word (小 prefix for 'small').
BOUND_POS = frozenset({"prefix", "suffix", "counter", "particle", "auxiliary", "auxiliary verb",
                       "auxiliary adjective", "expression", ""})


def strip_parens(text: str) -> str:
    while True:
        stripped = PARENS.sub("", text)
        if stripped == text:
            return stripped.strip()
        text = stripped


def normal_gloss(text: str) -> tuple[str, bool]:
    """A JMdict gloss without parentheses, a leading 'to ' (-> verb) or article."""
    g = strip_parens(text)
    verb = g.startswith("to ")
    if verb:
        g = g[3:].strip()
    for article in ("a ", "an ", "the "):
        if g.startswith(article):
            g = g[len(article):]
    return g, verb


def gloss_words(proper_nouns: set[str]) -> set[str]:
    """Words JMdict uses, lowercase and alone, as an English gloss: modern words web2 lacks
    (website, goodbye, smartphone, selfie).

    Kept when wordfreq rates them at least zipf 2, they have 3+ letters and a vowel (not 'mg',
    'http') and web2 does not list them capitalised only (john, amazon are names there)."""
    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    found = set()
    for (text,) in db.execute("SELECT text FROM SenseGloss"):
        g, _verb = normal_gloss(text)
        if WORD.fullmatch(g) and len(g) >= 3 and VOWEL.search(g) and g not in proper_nouns:
            found.add(g)
    db.close()
    return {w for w in found if wordfreq.zipf_frequency(w, "en") >= MIN_GLOSS_WORD_ZIPF}


def plain_pos(jm_pos: list[str], verb_gloss: bool, word: str, tags: set[str]) -> str:
    """JMdict's part of speech of a sense, said for the English word that glosses it."""
    if verb_gloss:
        return "verb"
    kinds = set()
    for p in jm_pos:
        if p.startswith(("adjective", "adjectival", "'taru' adjective", "pre-noun adjectival",
                         "noun or verb acting prenominally", "'ku' adjective",
                         "'shiku' adjective", "archaic/formal form of na-adjective")):
            kinds.add("adjective")
        elif p.startswith(("adverbial noun", "temporal noun")):
            kinds.add("noun")
        elif p.startswith("adverb"):
            kinds.add("adverb")
        elif p.startswith("nouns which"):  # adj-no: 'free' (無料), but mostly nouns
            kinds.update(("noun", "adj-no"))
        elif p.startswith("noun"):
            kinds.add("noun")
        elif p == "copula" or ("verb" in p and not p.startswith("auxiliary")):
            kinds.add("verb")
        elif p in ("pronoun", "conjunction", "interjection (kandoushi)", "prefix", "suffix",
                   "counter", "particle", "numeric", "auxiliary", "auxiliary verb",
                   "auxiliary adjective", "expressions (phrases, clauses, etc.)"):
            kinds.add(p.split(" (")[0].replace("expressions", "expression"))
    if "noun" in kinds and kinds & {"adjective", "adj-no"}:
        # na/no-adjectives are nouns in Japanese grammar: the English word decides
        if "JJ" in tags and "NN" not in tags:
            return "adjective"
        if "NN" in tags and "JJ" not in tags or word.endswith(NOUN_SUFFIXES):
            return "noun"
        return "adjective" if "adjective" in kinds else "noun"
    if {"adverb", "noun"} <= kinds and not word.endswith("ly"):
        return "noun"  # 夜 'night', 今 'now', 月曜 'monday': adverbial nouns
    for kind in ("adjective", "adverb", "verb", "noun", "pronoun", "conjunction", "interjection",
                 "numeric", "expression", "prefix", "suffix", "counter", "particle", "auxiliary",
                 "auxiliary verb", "auxiliary adjective"):
        if kind in kinds:
            return kind
    return ""


def gloss_index(words: set[str], tags: dict[str, set[str]]) -> dict[str, tuple[str, str]]:
    """word -> (pos, Japanese headword) for words JMdict uses as an English gloss.

    A gloss matches when, without parentheses, a leading 'to ' (verbs) or article, it is the
    word. Among matching senses: common entries (JMdict priority tags) first, an entry's first
    sense before its others, everyday senses before archaic/slang ones, the word as the first
    gloss of the sense, then the Japanese headword's frequency in wordfreq 'ja'.
    """
    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    ja_freq = wordfreq.get_frequency_dict("ja")

    def ja_zipf(head: str) -> int:
        """wordfreq 'ja' frequency in whole Zipf steps (finer steps would override gloss order)."""
        freq = ja_freq.get(head, 0.0)
        return int(math.log10(freq) + 9) if freq > 0 else 0

    priority: dict[int, int] = {}  # idseq -> 0 common, 1 second tier, 2 none
    for idseq, tag in db.execute(
            "SELECT k.idseq, p.text FROM Kanji k JOIN KJP p ON p.kid = k.ID "
            "UNION ALL SELECT n.idseq, p.text FROM Kana n JOIN KNP p ON p.kid = n.ID"):
        rank = 0 if tag in PRIORITY_1 else 1 if tag in PRIORITY_2 else 2
        priority[idseq] = min(priority.get(idseq, 2), rank)

    kanji: dict[int, list[tuple[int, str]]] = defaultdict(list)
    irregular = {kid for kid, text in db.execute("SELECT kid, text FROM KJI")
                 if text in IRREGULAR_KANJI}
    for kid, idseq, text in db.execute("SELECT ID, idseq, text FROM Kanji ORDER BY ID"):
        kanji[idseq].append((kid, text))
    kana: dict[int, str] = {}
    for idseq, text in db.execute("SELECT idseq, text FROM Kana ORDER BY ID"):
        kana.setdefault(idseq, text)

    sense_rows = db.execute("SELECT ID, idseq FROM Sense ORDER BY idseq, ID").fetchall()
    sense_entry = {sid: idseq for sid, idseq in sense_rows}
    sense_order: dict[int, int] = {}
    last, n = None, 0
    for sid, idseq in sense_rows:
        n = n + 1 if idseq == last else 0
        last = idseq
        sense_order[sid] = n
    pos: dict[int, list[str]] = defaultdict(list)
    for sid, text in db.execute("SELECT sid, text FROM pos ORDER BY rowid"):
        pos[sid].append(text)
    misc: dict[int, set[str]] = defaultdict(set)
    for sid, text in db.execute("SELECT sid, text FROM misc"):
        misc[sid].add(text)

    def headword(idseq: int, sid: int) -> str:
        if KANA_ALONE not in misc[sid]:
            for kid, text in kanji[idseq]:
                if kid not in irregular:
                    return text
        return kana.get(idseq, "")

    best: dict[str, tuple] = {}
    position: dict[int, int] = Counter()
    for sid, text in db.execute("SELECT sid, text FROM SenseGloss ORDER BY sid, rowid"):
        gloss_pos = position[sid]
        position[sid] += 1
        g, verb = normal_gloss(text)
        low = g.lower()
        if low not in words or (g != low and g != low.capitalize()):  # 'ITS' is no 'its'
            continue
        idseq = sense_entry[sid]
        head = headword(idseq, sid)
        if not head or LATIN.search(head) or "\t" in head or "\n" in head:
            continue  # 'Ｓ', 'ＯＵＴ' spell the English word, they do not gloss it
        word_pos = plain_pos(pos[sid], verb, low, tags.get(low, set()))
        key = (0 if g == low else 1,  # 'Japan' is a name: 'japan' is 漆 (lacquer); 'Monday' ok
               priority.get(idseq, 2),
               1 if word_pos in BOUND_POS else 0,
               0 if sense_order[sid] == 0 else 1,
               1 if misc[sid] & FRINGE_SENSE else 0,
               0 if gloss_pos == 0 else 1,
               1 if KATAKANA.fullmatch(head) else 0,  # 'run': 走る before the loanword ラン
               -ja_zipf(head),  # the everyday word: 夜 before ナイト for 'night'
               sense_order[sid], gloss_pos, idseq, head)
        if low not in best or key < best[low][0]:
            best[low] = (key, word_pos, head)
    db.close()
    return {w: (p, h) for w, (_k, p, h) in best.items()}


# ---------------------------------------------------------------- assemble


def build(cache: Path) -> tuple[list[str], dict]:
    web2, counts = base_words()
    wheel = studyforge_wheel(cache)
    expert, meta = expert_levels(wheel)
    ecdict, ecdict_forms = ecdict_rows(wheel)
    levels, tags = cefrpy_levels()
    ambiguous = ambiguous_levels(expert, levels, ecdict, ecdict_forms)
    cefr = {**expert, **ambiguous}
    dropped: Counter = Counter()
    counts.update({"expert_words": meta["known_words"], "expert_a_z": len(expert),
                   "expert_omitted": meta["ambiguous_words_omitted"],
                   "ambiguous_taken": len(ambiguous)})
    # the expert lists' words join the playable list where web2 has them or simplemma's
    # English dictionary knows them too (behaviour, laptop, download)
    dictionary = DefaultDictionaryFactory().get_dictionary("en")
    known = set(dictionary) | set(dictionary.values())
    unknown = sorted(w for w in cefr if w not in web2 and (w not in known or len(w) == 1))
    dropped["not in web2 nor simplemma's dictionary"] = len(unknown)
    for word in unknown:
        del cefr[word]
    from_cefr = set(cefr) - web2
    from_jmdict = gloss_words(web2_names()) - web2 - from_cefr
    base = web2 | from_cefr | from_jmdict
    forms = {f: lm for f, lm in inflections(base).items() if len(f) > 1}
    playable = base | set(forms)
    counts.update({"cefr_words_added": len(from_cefr), "jmdict_words_added": len(from_jmdict),
                   "inflections_added": len(forms)})
    glosses = gloss_index(playable, tags)
    lemmas = {}
    for word in sorted(playable):
        lemma = simplemma.lemmatize(word, lang="en")
        if lemma == word or lemma not in playable or not WORD.fullmatch(lemma):
            continue
        if 0 < wordfreq.zipf_frequency(lemma, "en") < (
                wordfreq.zipf_frequency(word, "en") - LEMMA_ZIPF_GAP):
            continue  # simplemma's rare homograph: gone -> gan, singing -> singe, wives -> wive
        lemmas[word] = lemma
    # an inflected form with its lemma's level needs no level of its own: the lemma step gives it
    redundant = [w for w in sorted(cefr) if w in lemmas and cefr.get(lemmas[w]) == cefr[w]]
    dropped["inflection with its lemma's level"] = len(redundant)
    for word in redundant:
        del cefr[word]
    lines = []
    for word in sorted(playable):
        lemma = lemmas.get(word, "")
        # an inflected form shows its lemma's gloss ('ran' -> 走る): JMdict glosses base forms,
        # and its direct matches for inflected forms are odd ('went' -> いらした); its own
        # only when the lemma has none
        pos, gloss = glosses.get(lemma) or glosses.get(word) or ("", "")
        lines.append("\t".join((word, cefr.get(word, ""), lemma, pos, gloss)))
    counts["words"] = len(lines)
    counts["cefr"] = dict(sorted(Counter(cefr.values()).items()))
    counts["cefr_dropped"] = dict(sorted(dropped.items()))
    counts["with_lemma"] = sum(1 for ln in lines if ln.split("\t")[2])
    counts["with_gloss"] = sum(1 for ln in lines if ln.split("\t")[4])
    counts["pos"] = dict(sorted(Counter(ln.split("\t")[3] for ln in lines
                                        if ln.split("\t")[3]).items()))
    return lines, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "wfkit-build",
                        help="where the pinned studyforge-vocab wheel is downloaded (kept)")
    args = parser.parse_args(argv)
    lines, counts = build(args.cache)
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text("".join(ln + "\n" for ln in lines), encoding="utf-8", newline="\n")
    os.replace(tmp, args.output)
    size = args.output.stat().st_size
    print(f"wrote {args.output} ({size / 1e6:.2f} MB)", file=sys.stderr)
    for key, value in counts.items():
        print(f"{key}: {value}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
