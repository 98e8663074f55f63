"""Build data/english.tsv, the default English data of `wfkit rarity` / `wfkit score`.

    /work/buildvenv/bin/python data/build/english.py      # rewrites data/english.tsv, prints counts

Run it with the build extras (`pip install -e '.[build]'`); nothing here is imported at run time.
The output is deterministic: same package versions -> same bytes (every set is sorted before
it reaches the file; no timestamps).

One line per playable word, sorted by Python string order, 5 tab-separated fields:

    word <TAB> cefr <TAB> lemma <TAB> pos <TAB> gloss

- word: lowercase a-z. Playable = SCOWL sizes 10-60 (Debian's scowl) without contraction
  fragments; a word two sources list (two_source_words: web2, SCOWL 70-80, the en_GB
  hunspell dictionary, WikDict's headwords, ECDICT, JMdict's glosses, simplemma's lemmas,
  the expert lists, npm word-list's compounds), not a name, abbreviation, typo or
  over-regular form; and inflected forms that are real forms of their lemma (a list gives
  them, or the regular rule with a frequency that fits the lemma's): see inflections().
- cefr: A1..C2 from studyforge-vocab's expert lists (CEFR-J 1.5, Octanove C1/C2 1.0); the
  headwords it omits take their lowest level from cefrpy (ambiguous_levels); else empty, so
  the article's Zipf rule decides.
- lemma: simplemma's lemma (or the inflection rule's) when it differs and is playable.
- pos, gloss: plain-English part of speech and a short Japanese headword from JMdict
  (jamdict-data), chosen with the English part of speech in mind (gloss_senses, choose_gloss,
  word_gloss) and by vote of JMdict, FreeDict (Debian's dict-freedict-eng-jpn) and ECDICT
  (vote: FreeDict's own translations and JMdict's plural, gerund, set-phrase and open
  compound glosses as candidates, then the rules that overturn a count: senses out of use,
  rare adjective loans); function words from
  function_words.tsv. --evidence-only (a trial, not the
  shipped table) keeps a gloss only where trusted() finds strong evidence for its sense.

The pinned downloads (the studyforge-vocab wheel by pip, an npm tarball by `npm pack`, four
Debian .debs by `apt-get download`, which needs an `apt-get update` first) are kept in --cache
and checked by sha256 every run; a .deb is read as an archive, never installed.

See data/english.md for provenance, licences and counts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import pickle
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import wordfreq

# The other build-only packages (cefrpy, english-words, jamdict-data, kanji-lists, OpenCC,
# simplemma) are imported in the functions that read them, so the vote's rules load, and
# their tests run, where only the runtime and test packages are installed.

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "english.tsv"

WORD = re.compile(r"[a-z]+")
LEVELS = ("A1", "A2", "B1", "B2", "C1", "C2")
# Single letters are dictionary headwords (the letter's name) but not words a player types.
SINGLE_LETTER_WORDS = frozenset({"a", "i"})

# ---------------------------------------------------------------- playable words


def english_words_list(name: str) -> set[str]:
    """One raw list of english-words (a pickled set shipped in the wheel), without its flags."""
    import english_words

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


# SCOWL 2020.12.07 as Debian's `scowl` package ships it: its final/ lists, one file per
# spelling category, sub-category and size (`english-words.35`, `british-abbreviations.50`),
# read from the .deb (fetched with `apt-get download`, sha256 checked; nothing is installed).
SCOWL = ("scowl", "2020.12.07-2",
         "de692546df9b169f2cbdf4d8d88111a374733a9c382b820a6f943914ca705718")
SCOWL_DIR = "./usr/share/dict/scowl/"
# The spelling categories a player of any dialect may use, with the variants SCOWL calls
# almost equal (1) or generally acceptable (2); variant_3 ("seldom used and may not even be
# considered correct") is left out.
SCOWL_SPELLINGS = frozenset({
    "english", "american", "british", "british_z", "canadian", "australian",
    "variant_1", "variant_2", "british_variant_1", "british_variant_2",
    "canadian_variant_1", "canadian_variant_2", "australian_variant_1", "australian_variant_2"})
# Size 60 is the spell checkers' list (en_US hunspell), the largest SCOWL says holds no
# misspellings: playable alone. 70 ("found in most dictionaries", less carefully checked) and
# 80 ("strange and unusual words people like to use in word games", with misspellings such
# as quaters) are sources that need a second one.
SCOWL_BASE_SIZE, SCOWL_LARGE_SIZE, SCOWL_HUGE_SIZE = 60, 70, 80


@dataclass(frozen=True)
class Scowl:
    """SCOWL's lists, lowercase a-z: words -> smallest size; its capitalised entries (names,
    demonyms: the upper and proper-names lists, lowercased); roman numerals; the lowercase
    entries of its abbreviations lists that no words list has (etc, km, approx, app)."""

    sizes: dict[str, int]
    names: frozenset[str]
    numerals: frozenset[str]
    abbreviations: frozenset[str]


def scowl_lists(cache: Path) -> Scowl:
    files = deb_files(debian_deb(cache, SCOWL), SCOWL_DIR)
    sizes: dict[str, int] = {}
    names: set[str] = set()
    numerals: set[str] = set()
    abbreviations: set[str] = set()
    for path in sorted(files):
        found = re.fullmatch(r"([a-z_0-9]+)-([a-z-]+)\.(\d+)", path[len(SCOWL_DIR):])
        if not found:
            continue
        spelling, kind, size = found[1], found[2], int(found[3])
        entries = files[path].decode("utf-8", "replace").split("\n")
        if spelling == "special" and kind == "roman-numerals":
            numerals.update(w.lower() for w in entries if w.isalpha())
        elif spelling in SCOWL_SPELLINGS and kind == "words":
            for word in entries:
                if WORD.fullmatch(word) and size < sizes.get(word, 999):
                    sizes[word] = size
        elif spelling in SCOWL_SPELLINGS and kind in ("upper", "proper-names"):
            names.update(w.lower() for w in entries if re.fullmatch(r"[A-Za-z]+", w))
        elif spelling in SCOWL_SPELLINGS and kind == "abbreviations":
            abbreviations.update(w for w in entries if WORD.fullmatch(w))
    return Scowl(sizes, frozenset(names), frozenset(numerals),
                 frozenset(abbreviations - sizes.keys()))


# The British English hunspell dictionary (LibreOffice's en_GB, Marco A.G. Pinto and others)
# as Debian's hunspell-en-gb ships it: a newer list with modern words (livestream,
# photobomb, staycation). Its .dic entries expanded by the .aff's affix rules.
HUNSPELL_GB = ("hunspell-en-gb", "1:7.5.0-1",
               "02d7e794bf14a644e3083e61fc8f10351133a27403cb653eb43c3145e35d9b3e")
HUNSPELL_GB_AFF = "./usr/share/hunspell/en_GB.aff"
HUNSPELL_GB_DIC = "./usr/share/hunspell/en_GB.dic"


def hunspell_words(aff: str, dic: str) -> tuple[set[str], set[str]]:
    """The words a hunspell dictionary accepts (its entries and their affixed forms, one
    prefix and one suffix as the .aff allows), and its capitalised entries lowercased
    (names). Only plain SFX/PFX rules with one-character flags (what en_GB uses)."""
    rules: dict[str, tuple[str, bool, list[tuple[str, str, re.Pattern[str] | None]]]] = {}
    for line in aff.splitlines():
        part = line.split()
        if len(part) == 4 and part[0] in ("SFX", "PFX") and part[2] in "YN" \
                and part[3].isdigit():
            rules[part[1]] = (part[0], part[2] == "Y", [])
        elif len(part) >= 5 and part[0] in ("SFX", "PFX") and part[1] in rules:
            strip = "" if part[2] == "0" else part[2]
            add = "" if part[3] == "0" else part[3].split("/")[0]
            cond = part[4]
            pattern = None if cond == "." else re.compile(
                cond + "$" if part[0] == "SFX" else "^" + cond)
            rules[part[1]][2].append((strip, add, pattern))

    def affix(word: str, kind: str, rule: tuple[str, str, re.Pattern[str] | None]) -> str:
        strip, add, pattern = rule
        if pattern is not None and not pattern.search(word):
            return ""
        if kind == "SFX":
            return word[:len(word) - len(strip)] + add if word.endswith(strip) else ""
        return add + word[len(strip):] if word.startswith(strip) else ""

    words: set[str] = set()
    capitalised: set[str] = set()
    for line in dic.lstrip("\ufeff").splitlines()[1:]:
        entry = line.split("\t")[0].split(" ")[0]
        stem, _, flags = entry.partition("/")
        if not stem:
            continue
        found = {stem}
        suffixed: list[tuple[str, bool]] = []
        prefixes: list[tuple[bool, tuple[str, str, re.Pattern[str] | None]]] = []
        for flag in flags:
            kind, cross, rows = rules.get(flag, ("", False, []))
            for rule in rows:
                made = affix(stem, kind, rule)
                if made:
                    found.add(made)
                    if kind == "SFX":
                        suffixed.append((made, cross))
                if kind == "PFX":
                    prefixes.append((cross, rule))
        for made, cross in suffixed:
            for pcross, rule in prefixes:
                if cross and pcross:
                    both = affix(made, "PFX", rule)
                    if both:
                        found.add(both)
        if stem[:1].isupper():
            capitalised.update(w.lower() for w in found if re.fullmatch(r"[A-Za-z]+", w))
        else:
            words.update(w for w in found if WORD.fullmatch(w))
    return words, capitalised


# The Letterpress game's word list as npm's word-list ships it (MIT): modern closed compounds.
WORD_LIST = ("word-list", "4.1.0",
             "c0cd6e2a112392204960e9998d79347a8ae1571dab5e3fdbfa685ef5977faedb")
COMPOUND_PART_SIZE, COMPOUND_PART_LEN, COMPOUND_MIN_ZIPF = 50, 4, 2.5


def npm_tarball(cache: Path, pin: tuple[str, str, str]) -> Path:
    """An npm package's tarball, fetched once with `npm pack` into ``cache``, sha256 checked."""
    name, version, sha256 = pin
    tarball = cache / f"{name}-{version}.tgz"
    if not tarball.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "pack", "--silent", f"{name}@{version}"], cwd=cache, check=True,
                       stdout=subprocess.DEVNULL)
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != sha256:
        raise SystemExit(f"{tarball}: sha256 {digest}, expected {sha256} (pinned)")
    return tarball


def compound_words(cache: Path, scowl: dict[str, int], names: set[str]) -> set[str]:
    """Closed compounds of word-list (gameplay, wellbeing, leaderboard, treehouse) that SCOWL
    lacks: two common SCOWL words (size <= 50) of 4+ letters each, wordfreq zipf >= 2.5, not
    an inflected form (simplemma), not a web2 name.

    word-list as a whole is a game list full of names and made-up plurals (millie, childs):
    only this part of it is taken."""
    import tarfile

    import simplemma

    common = {w for w, size in scowl.items() if size <= COMPOUND_PART_SIZE}
    with tarfile.open(npm_tarball(cache, WORD_LIST)) as tf:
        text = tf.extractfile("package/words.txt").read().decode("utf-8")
    found = set()
    for word in text.split("\n"):
        if not WORD.fullmatch(word) or word in scowl or word in names:
            continue
        n = COMPOUND_PART_LEN
        if not any(word[:i] in common and word[i:] in common for i in range(n, len(word) - n + 1)):
            continue
        if (wordfreq.zipf_frequency(word, "en") >= COMPOUND_MIN_ZIPF
                and simplemma.lemmatize(word, lang="en") == word):
            found.add(word)
    return found


def contraction_fragments(words: set[str]) -> set[str]:
    """Pieces of apostrophe tokens that are no words: didn, doesn, isn, ll, ve, dont, theyre.

    wordfreq counts "didn't", "they're", "women's" as tokens; their pieces around the
    apostrophe and their apostrophe-less spellings turn up in word lists (web2 has dont and
    theyre, simplemma maps didn -> do, JMdict glosses ll). Each such string is a fragment
    unless ``words`` (SCOWL up to 70, en_GB) lists it as a word of its own (well, were, its,
    cant, wont, shell; app, whose app's SCOWL lists only as an abbreviation)."""
    pieces = set()
    for token in wordfreq.get_frequency_dict("en"):
        if "'" in token and wordfreq.zipf_frequency(token, "en") >= FRAGMENT_MIN_ZIPF:
            parts = token.split("'")
            pieces.update(parts)
            pieces.add("".join(parts))
            if parts[-1] == "t" and parts[-2].endswith("n"):  # did|n't: the n't itself
                pieces.add("nt")
    return {p for p in pieces if WORD.fullmatch(p) and len(p) > 1 and p not in words}


FRAGMENT_MIN_ZIPF = 2.5
# A regular form this much more frequent than its lemma (in Zipf) is no form of it.
FORM_ZIPF_MARGIN = 0.5
# The rule alone vouches only for forms of lemmas that are words in use (ebook, not ase, bor)
# and not for comparatives (cerner, dummer): measured on a sample judged by hand, the rule's
# forms of 2-3 letter and rare lemmas were mostly not words.
RULE_LEMMA_LEN, RULE_LEMMA_ZIPF = 4, 2.0


def regular_forms(lemma: str) -> set[str]:
    """The forms English spelling rules make of a lemma: -s/-es/-ies, -ed/-d/-ied, -ing,
    -er/-est, with the final consonant doubled or not (both spellings exist: travelled)."""
    vowels = "aeiou"
    stems = {lemma}
    if len(lemma) >= 3 and lemma[-1] not in vowels + "wxy" and lemma[-2] in vowels \
            and lemma[-3] not in vowels:
        stems.add(lemma + lemma[-1])
    forms = set()
    if lemma.endswith(("s", "x", "z", "ch", "sh")):
        forms.add(lemma + "es")
    elif lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in vowels:
        forms.add(lemma[:-1] + "ies")
    else:
        forms.add(lemma + "s")
        if lemma.endswith("o"):
            forms.add(lemma + "es")
    for stem in stems:
        if stem.endswith("e"):
            forms.update((stem + "d", stem + "r", stem + "st"))
            if stem.endswith("ie"):
                forms.add(stem[:-2] + "ying")
            forms.add((stem if stem.endswith(("ee", "oe", "ye")) else stem[:-1]) + "ing")
        elif stem.endswith("y") and len(stem) > 1 and stem[-2] not in vowels:
            forms.update((stem[:-1] + "ied", stem[:-1] + "ier", stem[:-1] + "iest",
                          stem + "ing"))
        else:
            forms.update((stem + "ed", stem + "ing", stem + "er", stem + "est"))
    return forms


def inflections(base: set[str], sizes: dict[str, int], en_gb: set[str],
                ecdict_forms: dict[str, str], pos_of: dict[str, set[str]],
                proper: set[str]) -> tuple[dict[str, str], Counter]:
    """Inflected forms of base words that are real forms of their lemma (cats -> cat).

    Candidates: simplemma's English form -> lemma pairs, and the regular forms (regular_forms)
    of base words whose part of speech takes them (nouns -s, verbs -s/-ed/-ing, adjectives
    -er/-est; ebook -> ebooks). A candidate wordfreq has seen is kept when a list gives it as
    a form (listed_form: SCOWL at the lemma's size class, the en_GB hunspell dictionary, or
    ECDICT's form table); else, when none knows the lemma's forms (SCOWL up to 80 or en_GB
    list the lemma, or ECDICT gives it forms), when it is a regular form of the lemma no more
    than FORM_ZIPF_MARGIN more frequent than the lemma, not a comparative, and the lemma is a
    word in use (4+ letters, zipf >= 2) and no proper noun to cefrpy (``proper``: its NNP tag;
    huang, walloon, ralph). So over-regularised forms (thinked,
    childs, womans, informations) and misspellings (responsibilty) are dropped: SCOWL knows
    think, child, woman, information and lists none of them. A form SCOWL does not list goes
    when it is a typo of a far more frequent word (omission_typo: learing) or, made by the
    rule, a word of another language's text (foreign_form: copas, varis). An over-regular
    form (over_regular: meaned beside meant) goes whatever lists it."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    dictionary = DefaultDictionaryFactory().get_dictionary("en")
    freq = wordfreq.get_frequency_dict("en")
    known_forms = set(ecdict_forms.values())
    pasts = irregular_pasts(ecdict_forms)
    candidates: dict[str, str] = {}
    for form in sorted(dictionary):
        lemma = dictionary[form]
        if WORD.fullmatch(form) and form != lemma and lemma in base:
            candidates[form] = lemma
    for lemma in sorted(base):
        kinds = pos_of.get(lemma, set())
        if not kinds or lemma in proper:
            continue
        for form in sorted(regular_forms(lemma)):
            takes = (form.endswith("s") and kinds & {"noun", "verb"}
                     or form.endswith(("ed", "ing")) and "verb" in kinds
                     or form.endswith(("er", "est")) and "adjective" in kinds)
            if takes and form not in candidates:
                candidates[form] = lemma
    forms: dict[str, str] = {}
    why: Counter = Counter()
    for form in sorted(candidates):
        lemma = candidates[form]
        if form in base or freq.get(form, 0) <= 0:
            continue
        if over_regular(form, lemma, pasts):
            why["dropped: an over-regular form (meaned, informations)"] += 1
            continue
        if listed_form(form, lemma, sizes, en_gb) or ecdict_forms.get(form) == lemma:
            kept_as = "listed by SCOWL, en_GB or ECDICT"
        elif (sizes.get(lemma, 999) <= SCOWL_HUGE_SIZE or lemma in en_gb
              or lemma in known_forms):
            why["dropped: not a form the lists give a lemma they know"] += 1
            continue
        elif (lemma not in proper and len(lemma) >= RULE_LEMMA_LEN
              and form in regular_forms(lemma) and not form.endswith(("er", "est"))
              and wordfreq.zipf_frequency(lemma, "en") >= RULE_LEMMA_ZIPF
              and wordfreq.zipf_frequency(form, "en")
              <= wordfreq.zipf_frequency(lemma, "en") + FORM_ZIPF_MARGIN):
            kept_as = "regular form, frequency fits the lemma's"
        else:
            why["dropped: no regular form, or far more frequent than the lemma"] += 1
            continue
        if sizes.get(form, 999) > SCOWL_LARGE_SIZE:
            # SCOWL <= 70 does not vouch for the spelling (en_GB and SCOWL 80 list tinking):
            # ECDICT's form table is generated (learing from lear, lits from lit) and the
            # rule makes any form
            if omission_typo(form, freq):
                why["dropped: a far more frequent word with one letter left out"] += 1
                continue
            if (ecdict_forms.get(form) != lemma and not listed_form(form, lemma, sizes, en_gb)
                    and foreign_form(form)):
                why["dropped: a word of another language's text"] += 1
                continue
        why[kept_as] += 1
        forms[form] = lemma
    return forms, why


def listed_form(form: str, lemma: str, sizes: dict[str, int], en_gb: set[str]) -> bool:
    """Whether a list gives ``form``: en_GB, or SCOWL up to size 70 for a lemma it has up to
    70 (its forms come at the lemma's size: cats with cat at 10) and up to 80 for a rarer one
    (ebooks with ebook at 80). SCOWL's 80 holds over-regular forms of common lemmas (womans,
    informations) that this leaves out."""
    limit = SCOWL_LARGE_SIZE if sizes.get(lemma, 999) <= SCOWL_LARGE_SIZE else SCOWL_HUGE_SIZE
    return form in en_gb or sizes.get(form, 999) <= limit


# A form this many Zipf steps rarer than a word it spells with a letter left out is that typo.
TYPO_ZIPF_GAP = 3.0
# A rule-made form seen this much more often in another language's text is a word of it.
FOREIGN_ZIPF_GAP = 1.0
FOREIGN_LANGS = ("ca", "de", "es", "fr", "id", "it", "nl", "pl", "pt", "sv", "tr")


def omission_typo(form: str, freq: dict[str, float]) -> bool:
    """Whether a rare form is a word 1,000 times more frequent with one letter left out:
    learing (learning), empting (emptying), belived (believed), tinking (thinking). Such a
    spelling is seen as that typo far more often than as a form (lear, empt, belive are web2
    or simplemma words)."""
    if freq.get(form, 0.0) <= 0:
        return False  # wordfreq never sees it: no typo of anything
    limit = freq.get(form, 0.0) * 10 ** TYPO_ZIPF_GAP
    return any(freq.get(form[:i] + letter + form[i:], 0.0) >= limit
               for i in range(len(form) + 1) for letter in "abcdefghijklmnopqrstuvwxyz")


def foreign_form(form: str) -> bool:
    """Whether wordfreq sees a form ten times more often in another language's text than in
    English's: copas, lineas, familias (Spanish plurals of web2's copa, linea), varis, pappas,
    biens; the English figure is then that word quoted."""
    english = wordfreq.zipf_frequency(form, "en")
    return any(wordfreq.zipf_frequency(form, lang) >= english + FOREIGN_ZIPF_GAP
               for lang in FOREIGN_LANGS)


# A regular past this many Zipf steps rarer than its lemma's irregular one is over-regular;
# so is a plural this many steps rarer than a common (Zipf >= 4) singular: a mass noun's.
OVER_REGULAR_ZIPF_GAP = 2.0
MASS_NOUN_ZIPF, MASS_PLURAL_ZIPF_GAP = 4.0, 2.0


def irregular_pasts(ecdict_forms: dict[str, str]) -> dict[str, list[str]]:
    """lemma -> the forms ECDICT's form table gives it that no spelling rule makes and that
    are no -s/-ing form: its irregular pasts (mean -> meant, hide -> hid, hidden). The table
    does not say which slot a form fills, so a noun's irregular plural counts too (man ->
    men: manned, 3.3 Zipf against men's 5.8, takes no lemma)."""
    pasts: dict[str, list[str]] = defaultdict(list)
    for form, lemma in sorted(ecdict_forms.items()):
        if form != lemma and not form.endswith(("s", "ing")) and form not in regular_forms(lemma):
            pasts[lemma].append(form)
    return dict(pasts)


def over_regular(form: str, lemma: str, pasts: dict[str, list[str]], *,
                 plurals: bool = True) -> bool:
    """Whether ``form`` is the rule's -ed past of a lemma whose everyday past is irregular and
    over OVER_REGULAR_ZIPF_GAP Zipf more frequent: meaned (meant), hided (hid), thinked. Not
    dreamed (dreamt is the rarer one) nor hanged (hung only 0.6 Zipf more frequent). Or the
    rule's plural of a common noun seen over 100 times less than it: a mass noun's
    (informations, furnitures, advices; SCOWL 80 and en_GB list some)."""
    if form not in regular_forms(lemma):
        return False
    zipf = wordfreq.zipf_frequency(form, "en")
    if form.endswith("s"):
        if not plurals:
            return False
        singular = wordfreq.zipf_frequency(lemma, "en")
        return singular >= MASS_NOUN_ZIPF and zipf < singular - MASS_PLURAL_ZIPF_GAP
    if not form.endswith("d") or lemma not in pasts:
        return False
    return any(wordfreq.zipf_frequency(p, "en") > zipf + OVER_REGULAR_ZIPF_GAP
               for p in pasts[lemma])


# Playable on its own: SCOWL up to size 60. Every other list is a source that needs a
# second one (two_source_words); a corpus (wordfreq) is never one of the two.
MIN_TWO_SOURCE_LEN = 3
# The word lists proper, which keep case; one of a word's two sources is one of them (ECDICT,
# simplemma and the expert lists fold case and list abbreviations: etc, dept, res).
CASED_SOURCES = ("web2", "SCOWL 70-80", "en_GB", "WikDict", "JMdict glosses",
                 "word-list compounds")
VOWEL_Y = re.compile(r"[aeiouy]")


def two_source_words(sources: dict[str, set[str]], strong: set[str], names: set[str],
                     scowl: Scowl, fragments: set[str],
                     pasts: dict[str, list[str]]) -> tuple[set[str], Counter]:
    """Words that two of ``sources`` (name -> its a-z words) list, beyond ``strong``.

    A string some list writes capitalised (``names``: texas, english, albert) needs two of
    the word lists that keep case (CASED_SOURCES: the texas deck, to english a ball, an
    albert chain); ECDICT, simplemma and the expert lists fold case (their 'paris' is the
    city). Out, with their counts: two sources of which none keeps case (etc: ECDICT and
    simplemma); a string of 1-2 letters (ce, sa: abbreviations and letters) or without a
    vowel (http, km: en_GB accepts them); an abbreviation SCOWL lists as one (approx, dept)
    unless WikDict or web2 has it as a word (app, stat, rad, rem); a name (kashmir,
    japanese, july); a roman numeral (xxxvii); a contraction fragment; a typo (omission_typo:
    quaters for quarters, in web2 and SCOWL 80); an over-regular form (over_regular: meaned,
    in web2 and SCOWL 80). A word whose -s/-ed/-ing form SCOWL <= 60 lists is no name, typo
    or abbreviation (chateau, annal, bio: SCOWL has chateaus, annals, bios)."""
    freq = wordfreq.get_frequency_dict("en")
    seen: Counter = Counter()
    for words in sources.values():
        seen.update(words - strong)
    why: Counter = Counter()
    kept: set[str] = set()
    for word in sorted(w for w, n in seen.items() if n >= 2):
        cased = sum(word in sources[k] for k in CASED_SOURCES)
        inflects = bool(regular_forms(word) & strong)  # bios, chateaus, annals: SCOWL <= 60
        if not cased:
            why["dropped: no word list (only sources that fold case)"] += 1
        elif len(word) < MIN_TWO_SOURCE_LEN or not VOWEL_Y.search(word):
            why["dropped: 1-2 letters or no vowel"] += 1
        elif word in scowl.abbreviations and word not in sources["WikDict"] \
                and word not in sources["web2"] and not inflects:
            why["dropped: an abbreviation (SCOWL)"] += 1
        elif word in names and cased < 2 and not inflects:
            why["dropped: a name (a list writes it capitalised)"] += 1
        elif word in scowl.numerals:
            why["dropped: a roman numeral"] += 1
        elif word in fragments:
            why["dropped: a contraction fragment"] += 1
        elif omission_typo(word, freq) and not inflects:  # annal (annual) stays
            why["dropped: a far more frequent word with one letter left out"] += 1
        elif any(over_regular(word, lemma, pasts) for lemma in rule_lemmas(word)):
            why["dropped: an over-regular form (meaned, informations)"] += 1
        else:
            kept.add(word)
    why["kept"] = len(kept)
    return kept, why


def rule_lemmas(form: str) -> list[str]:
    """The lemmas whose rule-made -ed past or -s plural ``form`` may be (meaned -> mean,
    hided -> hide, informations -> information)."""
    if form.endswith("ed"):
        stem = form[:-2]
        found = [stem, stem + "e", form[:-1]]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            found.append(stem[:-1])
    elif form.endswith("s"):
        stem = form[:-1]
        found = [stem, form[:-2]]
    else:
        return []
    if stem.endswith("i"):
        found.append(stem[:-1] + "y")
    return [lemma for lemma in found if form in regular_forms(lemma)]


# ---------------------------------------------------------------- FreeDict

# FreeDict's English-Japanese dictionary (WikDict: Wiktionary's translation tables; CC BY-SA
# 3.0) as Debian's dict-freedict-eng-jpn ships it: fetched with `apt-get download`, sha256
# checked, read from the .deb (an ar archive holding data.tar.xz); nothing is installed.
FREEDICT = ("dict-freedict-eng-jpn", "2022.12.07-2",
            "3d06a55a8fa16a529b9f95b8d2fe3f7163700cea03aa7ee5b53c40dcdd6c6868")
FREEDICT_POS = {"n": "noun", "v": "verb", "adj": "adjective", "adv": "adverb",
                "pronoun": "pronoun", "conjunction": "conjunction",
                "interjection": "interjection", "preposition": "preposition",
                "determiner": "determiner", "numeral": "numeric"}
DICTD_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
JAPANESE_ITEM = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff々〆ー]+")
# a WikDict sense number: '1. ' before a line's translations, or a dangling ' 2.' after them
SENSE_MARK = re.compile(r"^\s*\d+\.\s*|\s+\d+\.\s*$")


def japanese_line(row: str) -> list[str]:
    """The Japanese items of a WikDict translation line ('本, 書籍'); none for a definition
    line (English or another language's text) or one that is mostly not Japanese words."""
    items = [i.strip() for i in row.split(",")]
    kept = [i for i in items if JAPANESE_ITEM.fullmatch(i)]
    return kept if kept and len(kept) * 2 >= len(items) else []


def debian_deb(cache: Path, pin: tuple[str, str, str]) -> Path:
    """A Debian package's .deb, fetched once with `apt-get download` into ``cache`` (after an
    `apt-get update`), sha256 checked; it is only read, never installed."""
    name, version, sha256 = pin
    deb = cache / f"{name}_{version.replace(':', '%3a')}_all.deb"  # apt's name for an epoch
    if not deb.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=cache, check=True,
                       stdout=subprocess.DEVNULL)
    digest = hashlib.sha256(deb.read_bytes()).hexdigest()
    if digest != sha256:
        raise SystemExit(f"{deb}: sha256 {digest}, expected {sha256} (pinned)")
    return deb


def deb_data(deb: Path) -> bytes:
    """A .deb's data.tar.xz, read with the standard library (the .deb is an ar archive)."""
    raw = deb.read_bytes()
    if not raw.startswith(b"!<arch>\n"):
        raise SystemExit(f"{deb}: not an ar archive")
    at, data = 8, b""
    while at < len(raw):
        name = raw[at:at + 16].decode().strip().rstrip("/")
        size = int(raw[at + 48:at + 58].decode().strip())
        if name == "data.tar.xz":
            data = raw[at + 60:at + 60 + size]
        at += 60 + size + (size % 2)
    return data


def deb_members(deb: Path, wanted: tuple[str, ...]) -> dict[str, bytes]:
    """Files of a .deb's data.tar.xz, by their paths in the archive."""
    import io
    import tarfile

    out = {}
    with tarfile.open(fileobj=io.BytesIO(deb_data(deb)), mode="r:xz") as tf:
        for member in wanted:
            out[member] = tf.extractfile(member).read()
    return out


def deb_files(deb: Path, folder: str) -> dict[str, bytes]:
    """Every file of a .deb's data.tar.xz under ``folder``, by its path in the archive."""
    import io
    import tarfile

    out = {}
    with tarfile.open(fileobj=io.BytesIO(deb_data(deb)), mode="r:xz") as tf:
        for member in tf.getmembers():
            if member.isfile() and member.name.startswith(folder):
                out[member.name] = tf.extractfile(member).read()
    return out


# Wiktionary's English headwords as WikDict's FreeDict dictionaries list them (CC BY-SA 3.0):
# the English-Finnish one (the largest WikDict English side Debian ships) beside the
# English-Japanese one the glosses read. A headword is taken as written (the dictd index
# folds case and drops hyphens: its 'wifi' is the headword 'Wi-Fi').
FREEDICT_FIN = ("dict-freedict-eng-fin", "2022.12.07-2",
                "037351c22b6f803358517d0293bab9619f6bef964e22cab68f63a174b5d22ebe")
WIKDICT_WORD_POS = frozenset({"n", "v", "adj", "adv"})


def wikdict_headwords(cache: Path) -> tuple[set[str], set[str]]:
    """Lowercase a-z headwords of the WikDict dictionaries (eng-jpn, eng-fin) that are a noun,
    verb, adjective or adverb; and their capitalised headwords lowercased (names)."""
    words: set[str] = set()
    names: set[str] = set()
    for pin, lang in ((FREEDICT, "jpn"), (FREEDICT_FIN, "fin")):
        for key, entry in dictd_records(cache, pin, f"eng-{lang}"):
            if not WORD.fullmatch(key):
                continue
            first = entry.decode("utf-8").split("\n")[0]
            found = re.fullmatch(r"(.+?)(?: /.*?)? <([a-zA-Z]+)>\s*", first)
            if not found:
                continue
            head, pos_name = found[1], found[2]
            if re.fullmatch(r"[A-Z][a-z]+", head):
                names.add(head.lower())
            elif head == key and pos_name in WIKDICT_WORD_POS:
                words.add(head)
    return words, names


def dictd_number(text: str) -> int:
    n = 0
    for ch in text:
        n = n * 64 + DICTD_DIGITS.index(ch)
    return n


def dictd_records(cache: Path, pin: tuple[str, str, str], pair: str
                  ) -> Iterator[tuple[str, bytes]]:
    """(index key, entry bytes) of the FreeDict dictionary ``pair`` (eng-jpn, fin-eng, ...)
    in a pinned Debian package, in its index's order (dictd's .index and .dict.dz)."""
    import gzip

    base = f"./usr/share/dictd/freedict-{pair}"
    files = deb_members(debian_deb(cache, pin), (base + ".dict.dz", base + ".index"))
    body = gzip.decompress(files[base + ".dict.dz"])
    for line in files[base + ".index"].decode("utf-8").splitlines():
        key, offset, length = line.split("\t")
        start = dictd_number(offset)
        yield key, body[start:start + dictd_number(length)]


def freedict_entries(cache: Path) -> dict[str, list[tuple[str, list[list[str]]]]]:
    """FreeDict's entries: lowercase a-z headword -> [(part of speech, [translations of each
    sense])], in the file's order (its senses are sorted by their English definition, not by
    use). A translation line is a sense's; WikDict's sense numbers ('1. ', a dangling ' 2.')
    and its English definition lines are dropped, and so is any item that is no Japanese
    word (English text, templates)."""
    entries: dict[str, list[tuple[str, list[list[str]]]]] = defaultdict(list)
    for head, entry in dictd_records(cache, FREEDICT, "eng-jpn"):
        if not WORD.fullmatch(head):
            continue
        lines = entry.decode("utf-8").split("\n")
        found = re.search(r"<([a-z]+)>\s*$", lines[0])
        pos_name = FREEDICT_POS.get(found[1], "") if found else ""
        senses = []
        for row in lines[1:]:
            kept = japanese_line(SENSE_MARK.sub("", row))
            if kept:
                senses.append(kept)
        if senses:
            entries[head].append((pos_name, senses))
    return dict(entries)


# ---------------------------------------------------------------- pivot votes

# WikDict's dictionaries between English and three other languages, and between each of those
# and Japanese, made from that language's own Wiktionary (CC BY-SA 3.0), as Debian ships them
# (sha256 pinned, read from the .deb): English w reaches Japanese J through an X word x
# (book -> kirja -> 本). Their editors are not the English Wiktionary's translators, so the
# number of languages that reach a candidate is a vote the other sources do not cast. Only
# WikDict's bridges: FreeDict's older English-French, -Italian, -Swedish, -Polish and -Greek
# dictionaries are GPL.
PIVOT_LANGS = ("fin", "pol", "ell")
PIVOT_PINS = {
    "fin-jpn": ("dict-freedict-fin-jpn", "2022.12.07-2",
                "1144a9b193b11ea70602342c22dfb6165725ac5d5abc1a2786147fe295a3327c"),
    "pol-jpn": ("dict-freedict-pol-jpn", "2022.12.07-2",
                "b0cf03d0f7ba86ef310ecd53be163d8e9db188c3fff0e17d8c7e60c533677cc6"),
    "ell-jpn": ("dict-freedict-ell-jpn", "2022.12.07-2",
                "5ef91b237c6a84c9030b56582dc3780750e6d0d575d4238b8b3e1d42ef87d219"),
    "eng-fin": FREEDICT_FIN,
    "fin-eng": ("dict-freedict-fin-eng", "2022.12.07-2",
                "7abc28d885e36b4e9e5d41c0a7f951fac33cca1d996602fa4a87a0c96934c6bf"),
    "pol-eng": ("dict-freedict-pol-eng", "2022.12.07-2",
                "bb89dccd16967ebe5bdd9ca930cdfc17a6f1527ebae207b99183cbfa8692eeaa"),
    "ell-eng": ("dict-freedict-ell-eng", "2022.12.07-2",
                "4a6f9adeb8e085b8a807bf62dd67468dbbbb16ea7299ab41cdddb29e7d404242"),
}
PIVOT_POS = {"n": "noun", "v": "verb", "adj": "adjective", "adv": "adverb"}
# how many languages must reach a noun's candidate for it to replace a winner none reaches
PIVOT_LEAST = 3


def dictd_entries(cache: Path, pair: str) -> list[tuple[str, str, list[str]]]:
    """(headword, part of speech, its text lines without sense numbers) of one of
    PIVOT_PINS' dictionaries, in its index's order."""
    out = []
    for key, entry in dictd_records(cache, PIVOT_PINS[pair], pair):
        if key.startswith("00"):  # the database's own header entries
            continue
        head_line, *rows = entry.decode("utf-8", "replace").split("\n")
        found = re.match(r"(.+?)(?: /.*?/)?(?: <([^>]*)>)?\s*$", head_line)
        if not found:
            continue
        pos_name = next((PIVOT_POS[t] for t in (found[2] or "").split(", ") if t in PIVOT_POS),
                        "")
        kept = [SENSE_MARK.sub("", row).strip() for row in rows]
        out.append((found[1].strip(), pos_name, [row for row in kept if row]))
    return out


def pivot_normal(head: str) -> str:
    """A Japanese word without the する, な or の one dictionary writes and another not."""
    for tail in ("する", "な", "の"):
        if head.endswith(tail) and len(head) > len(tail) + 1:
            return head[:-len(tail)]
    return head


class Pivot:
    """English word and part of speech -> how many of PIVOT_LANGS reach each Japanese word."""

    def __init__(self, cache: Path) -> None:
        # language -> X word -> part of speech -> Japanese words (pivot_normal)
        self.japanese: dict[str, dict[str, dict[str, list[str]]]] = {}
        # (English word, part of speech) -> language -> X words
        self.bridge: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(
            lambda: defaultdict(set))
        for lang in PIVOT_LANGS:
            table: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for head, pos_name, rows in dictd_entries(cache, f"{lang}-jpn"):
                for row in rows:
                    table[head.lower()][pos_name].extend(map(pivot_normal, japanese_line(row)))
            self.japanese[lang] = table
            if f"eng-{lang}" in PIVOT_PINS:
                for head, pos_name, rows in dictd_entries(cache, f"eng-{lang}"):
                    if WORD.fullmatch(head.lower()):
                        for row in rows:
                            for item in re.split(r"[,;]", row):
                                x = re.sub(r"\(.*?\)", "", item).strip().lower()
                                if x in table:
                                    self.bridge[(head.lower(), pos_name)][lang].add(x)
            for head, pos_name, rows in dictd_entries(cache, f"{lang}-eng"):
                x = head.lower()
                if x not in table:
                    continue
                for row in rows:
                    items = [re.sub(r"\(.*?\)", "", i).strip().lower() for i in row.split(",")]
                    if all(len(i.split()) <= 3 for i in items):  # translations, not a definition
                        for item in items:
                            if WORD.fullmatch(item):
                                self.bridge[(item, pos_name)][lang].add(x)

    def counts(self, word: str, pos_name: str) -> dict[str, int]:
        """Japanese word (pivot_normal) -> how many languages reach it from ``word`` used as
        ``pos_name`` (from its rule lemma when the word itself reaches none)."""
        reached: dict[str, set[str]] = defaultdict(set)
        for source in [word, *(w for w in rule_lemmas(word) if w != word)]:
            for key in ((source, pos_name), (source, "")):
                for lang, xs in self.bridge.get(key, {}).items():
                    for x in sorted(xs):
                        for their_pos, items in self.japanese[lang].get(x, {}).items():
                            if not their_pos or their_pos == pos_name:
                                for item in items:
                                    reached[item].add(lang)
            if reached:
                break
        return {j: len(langs) for j, langs in reached.items()}


# ---------------------------------------------------------------- CEFR


def cefrpy_levels() -> tuple[dict[str, float], dict[str, set[str]], dict[str, dict[str, float]]]:
    """Every cefrpy word with its lowest level over its parts of speech (1.0 = A1 .. 6.0 = C2),
    its Penn tags (an English-side hint for the gloss's part of speech), and its level per tag
    (which use of the word a learner meets first)."""
    import cefrpy

    lowest: dict[str, float] = {}
    tags: dict[str, set[str]] = defaultdict(set)
    per_tag: dict[str, dict[str, float]] = defaultdict(dict)
    for word, pos, level in cefrpy.CEFRDataProcessor().yield_word_pos_level():
        name = cefrpy.POSTag(pos).name
        tags[word].add(name)
        per_tag[word][name] = min(level, per_tag[word].get(name, level))
        if word not in lowest or level < lowest[word]:
            lowest[word] = level
    return lowest, tags, per_tag


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


def ecdict_rows(wheel: Path) -> tuple[dict[str, tuple[str, int, str, str]], dict[str, str]]:
    """The wheel's ECDICT subset (MIT): word -> (pos, oxford 3000 flag, exam tags, Chinese
    translation), and its inflection table form -> lemma. Read from a temporary copy (sqlite
    needs a file)."""
    with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ecdict.db"
        path.write_bytes(zf.read(STUDYFORGE_ECDICT))
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        entries = {w: (pos, oxford, tags, zh) for w, pos, oxford, tags, zh in db.execute(
            "SELECT word, pos, oxford, tags, translation FROM entries ORDER BY word")}
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
    import simplemma

    out = {}
    for word in sorted(cefrpy_lowest):
        value = cefrpy_lowest[word]
        if word in expert or not WORD.fullmatch(word) or value != int(value) or value > 4:
            continue
        if word in ecdict_forms or simplemma.lemmatize(word, lang="en") != word:
            continue
        _pos, oxford, tags, _zh = ecdict.get(word, ("", 0, "", ""))
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
NAME_MISC = frozenset({"place name", "full name of a particular person",
                       "work of art, literature, music, etc. name"})
# a capitalised gloss whose note says it names a place, a family or a time (Monday, English
# and Christmas have no such note)
NAME_NOTE = re.compile(r"\(.*\b(province|prefecture|city|town|village|river|mountain|island|"
                       r"clan|era|period|dynasty|temple|shrine|company)\b", re.I)
KANA_ALONE = "word usually written using kana alone"
# Senses a gloss should not come from when a better one exists.
FRINGE_SENSE = frozenset({
    "archaism", "obsolete term", "obscure term", "derogatory", "slang",
    "vulgar expression or word", "rare", "rare term", "abbreviation", "colloquialism",
    # stiff or set forms for a plain word (悠揚迫らず 'calmly' is a yojijukugo)
    "yojijukugo", "literary or formal term", "poetical term", "dated term", "historical term",
    "idiomatic expression", "proverb", "jocular, humorous term", "Internet slang",
    "manga slang", "familiar language", "sensitive",
    "male term or language", "female term or language",
    "children's language", "honorific or respectful (sonkeigo) language",
    "humble (kenjougo) language",
})
# Senses of a word Japanese no longer uses for it: a gloss from one yields to any other
# candidate a source names (聖経 for 'Bible' is dated, 産婆 for 'midwife' too). Not JMdict's
# "obscure term", which marks words its corpora lack (実存的 'existential', 上り段 'doorstep')
OUT_OF_USE = frozenset({"archaism", "obsolete term", "rare", "rare term", "dated term"})
NOUN_SUFFIXES = ("ness", "ity", "ty", "dom", "tion", "sion", "ment", "ance", "ence", "ism", "ship",
                 "hood", "ure", "cy", "er", "or", "ist")
LATIN = re.compile(r"[A-Za-z\uff21-\uff3a\uff41-\uff5a]")
FOREIGN_LETTER = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")  # Greek, Cyrillic
# A lemma this much rarer (in Zipf) than its form is a wrong pick among homographs.
LEMMA_ZIPF_GAP = 2.0
# A form this much rarer than its function-word lemma is no form of it (couth is not can's).
FUNCTION_FORM_GAP = 4.5
VOWEL = re.compile(r"[aeiouy]")
MIN_GLOSS_WORD_ZIPF = 2.0
KATAKANA = re.compile(r"[\u30a0-\u30ff]+")
HIRAGANA = re.compile(r"[\u3040-\u309f]")
PARENS = re.compile(r"\s*[(\[][^()\[\]]*[)\]]")  # innermost first: 'dog (Canis (lupus) f.)'
GRAMMATICAL_POS = frozenset({"particle", "conjunction", "auxiliary", "auxiliary verb",
                             "auxiliary adjective", "copula"})
# Parts of speech that make a poor gloss for a whole English word (小 prefix for 'small').
BOUND_POS = frozenset({"prefix", "suffix", "counter", "particle", "auxiliary", "auxiliary verb",
                       "auxiliary adjective", "expression", ""})


# a gloss's note listing what the sense applies to: 'interested (gaze, etc.)'
APPLIES_TO = re.compile(r"\([^()]*, etc\.\)")
# a headword whose one kanji is a suffix after kana (のんき者), not お茶
SUFFIX_KANJI = re.compile(r"[\u3040-\u30ff]{2,}[\u3400-\u9fff]")


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
    from jamdict_data import JAMDICT_DB_PATH

    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    found = set()
    for (text,) in db.execute("SELECT text FROM SenseGloss"):
        g, _verb = normal_gloss(text)
        if WORD.fullmatch(g) and len(g) >= 3 and VOWEL.search(g) and g not in proper_nouns:
            found.add(g)
    db.close()
    return {w for w in found if wordfreq.zipf_frequency(w, "en") >= MIN_GLOSS_WORD_ZIPF}


def plain_pos(jm_pos: list[str], verb_gloss: bool, word: str, tags: set[str],
              listed: frozenset[str] = frozenset()) -> str:
    """JMdict's part of speech of a sense, said for the English word that glosses it.
    ``listed``: the parts of speech of ECDICT's translation lines for the word, which decide a
    na- or no-adjective first (心室 is a noun for 'ventricle', 二価 an adjective for
    'divalent': cefrpy's tags for rare words are guesses)."""
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
        if "adjective" in listed and "noun" not in listed:
            return "adjective"
        if "noun" in listed and "adjective" not in listed:
            return "noun"
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


SURU_NOUN = "noun or participle which takes the aux. verb suru"
JA_VERB = ("Godan verb", "Ichidan verb", "suru verb", "su verb", "Kuru verb", "Nidan verb",
           "Yodan verb", "irregular")


def nominalisations(verb: str) -> set[str]:
    """The regular nouns of an English verb's action: appoint -> appointment, evaluate ->
    evaluation, invent -> invention, intervene -> intervention, mobilise -> mobilisation,
    rebel -> rebellion. Only those that are words (the caller checks) count."""
    stem = verb[:-1] if verb.endswith("e") else verb
    out = {verb + "ment", stem + "ion", stem + "ation", verb + "ation", stem + "al"}
    if verb.endswith(("ize", "ise")):
        out.add(stem + "ation")
    if verb.endswith("ify"):
        out.add(verb[:-1] + "ication")
    if verb.endswith("ene"):
        out.add(verb[:-1] + "tion")
    if verb.endswith("uce"):
        out.add(verb[:-2] + "ction")
    if verb.endswith("ibe"):
        out.add(verb[:-2] + "ption")
    if verb.endswith("olve"):
        out.add(verb[:-2] + "ution")
    if verb.endswith("ceive"):
        out.add(verb[:-4] + "eption")
    if re.fullmatch(r".*[^aeiou][aeiou][lnrt]", verb):
        out.add(verb + verb[-1] + "ion")
    return out


@cache
def joyo() -> frozenset[str]:
    """The jōyō kanji (kanji-lists)."""
    import kanji_lists

    return frozenset(kanji_lists.JOYO)


def rare_kanji(head: str) -> bool:
    """Whether a headword is spelt with a kanji outside the jōyō list (kanji-lists)."""
    return any(HAN.fullmatch(ch) and ch not in joyo() for ch in head)


def suru_noun(jm_pos: list[str]) -> bool:
    """A noun that is a verb with する (管理, 蓄積), not a verb of its own (愛する is one)."""
    return SURU_NOUN in jm_pos and not any(p.startswith(JA_VERB) for p in jm_pos)


def gloss_senses(words: set[str], tags: dict[str, set[str]], chinese: dict[str, dict[str, str]],
                 every: list | None = None, pools: dict | None = None,
                 freedict: dict[str, list[tuple[str, list[list[str]]]]] | None = None,
                 decided: Counter | None = None,
                 pivot: Pivot | None = None) -> dict[str, dict[str, tuple]]:
    """word -> {part of speech -> (key, Japanese headword, sense key, trusted)}: the best
    JMdict sense of the word for each part of speech (the lowest sense key), whether the
    evidence for that sense is strong enough to show it (see trusted()), and the lowest key of
    that part of speech, by which choose_gloss ranks the parts of speech (see english.md).

    A gloss matches when, without parentheses, a leading 'to ' (verbs) or article, it is the
    word. Keys order: lowercase gloss, no field tag (sports, baseball, units: 'out' is not
    baseball's 死), common entries, whole words before bound forms, an entry's first sense,
    everyday senses before archaic/slang ones, the word as the sense's first gloss, kanji/kana
    before katakana, non-grammatical entries (ため, うち lose every tie), then the Japanese
    headword's frequency in wordfreq 'ja'. choose_gloss puts the English part of speech in.
    """
    import simplemma
    from jamdict_data import JAMDICT_DB_PATH

    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    ja_freq = wordfreq.get_frequency_dict("ja")
    en_freq = wordfreq.get_frequency_dict("en")

    def common_en(word: str) -> bool:
        return en_freq.get(word, 0.0) >= COMMON_EN_FREQ

    def ja_zipf(head: str) -> int:
        """wordfreq 'ja' frequency in whole Zipf steps (finer steps would override gloss order),
        capped at 4: every everyday word is everyday, and above it one-kanji words that are
        mostly parts of compounds won the tie (別 over 区別, 員 over 会員)."""
        freq = ja_freq.get(head, 0.0)
        return min(JA_ZIPF_CAP, int(math.log10(freq) + 9)) if freq > 0 else 0

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
    fielded = {sid for (sid,) in db.execute("SELECT sid FROM field")}
    gloss_count = Counter(sid for (sid,) in db.execute("SELECT sid FROM SenseGloss"))
    # grammatical senses: a noun and an adverb at once (為 ため 'good; benefit', 内 うち
    # 'inside'), or a particle, conjunction, auxiliary or copula (見る's 'to try' sense is one,
    # its 'to see' sense is not)
    grammatical = set()
    for sid, texts in pos.items():
        if (GRAMMATICAL_POS & set(texts)
                or {"noun (common) (futsuumeishi)", "adverb (fukushi)"} <= set(texts)):
            grammatical.add(sid)

    def headword(idseq: int, sid: int) -> str:
        if KANA_ALONE not in misc[sid]:
            for kid, text in kanji[idseq]:
                if kid not in irregular:
                    # a native word with a kanji outside the jōyō list is written in kana
                    # (頷く -> うなずく, 喘ぐ -> あえぐ), as newspapers and textbooks do; a
                    # compound keeps its kanji (狂躁, 目から鱗), and ranks low (keys)
                    if (rare_kanji(text) and HIRAGANA.search(text) and kana.get(idseq)
                            and len(HAN.findall(text)) == 1):
                        return kana[idseq]
                    return text
        return kana.get(idseq, "")

    # English verbs by their nominalisations (appointment -> appoint, evaluation -> evaluate):
    # a suru-noun glossed by the noun is the verb with する (任命 'appointment' -> 任命する
    # 'to appoint'), which JMdict's reverse lookup never reaches from the verb itself
    verb_of: dict[str, list[str]] = defaultdict(list)
    for verb in sorted(words):
        if "VB" in tags.get(verb, ()) or "verb" in chinese.get(verb, {}):
            # and, in the gloss pass, its gerund (処理 'processing' -> 処理する 'to process')
            gerunds = ({f for f in regular_forms(verb) if f.endswith("ing")
                        and simplemma.lemmatize(f, lang="en") == verb}
                       if freedict is not None else set())  # not 'diving' for 'div'
            for noun in sorted(nominalisations(verb) | gerunds):
                if noun in words and noun != verb and verb not in verb_of[noun]:
                    verb_of[noun].append(verb)

    def keys(low: str, exact: bool, sid: int, word_pos: str, head: str, gloss_pos: int,
             via: int, applied: bool = False, own: bool = False, closed: bool = False
             ) -> tuple[tuple, tuple]:
        """(key, sense_key) of one sense for one English word; ``via`` 0 when the sense's
        gloss is the word, 1 when it is a suru-noun's verb (管理する for 'control'), 2 when
        it is the verb of a suru-noun glossed by the word's nominalisation."""
        idseq = sense_entry[sid]
        fringe = bool(misc[sid] & FRINGE_SENSE)
        # a lone kanji is too easy a hit to count as a vote (distinctions: 別 is in 区别)
        # and nor is a kanji that is only a suffix after kana (のんき者: 者 is in 乐观者)
        shared = (2 if len(head) == 1 or SUFFIX_KANJI.fullmatch(head)
                  else shared_hanzi(head, chinese.get(low, {}), word_pos))
        noun = head.removesuffix("する") if via else head
        # the word's own set phrase first (手が届く 'to be able to afford', see below), then
        # an exact gloss: 'Japan' is a name, 'japan' is 漆 (lacquer); 'Monday' ok
        key = (2 if closed else -1 if own else 0 if exact else 1,
               # a field tag loses for common words ('out' is not baseball's 死); a rare word's
               # field sense is often its only one (sublimation: chemistry's 昇華)
               1 if sid in fielded and common_en(low) else 0,
               # the common-entry mark is for an entry's main sense: a late sense is one step
               # down, a fringe one (archaic, slang, rare ...) loses it (creepy: not 難しい's
               # 6th sense 'unpleasant' but 気味が悪い)
               2 if fringe else min(2, priority.get(idseq, 2) + (sense_order[sid] > 0)),
               1 if word_pos in BOUND_POS else 0,
               0 if sense_order[sid] == 0 else 1,
               1 if fringe else 0,
               0 if gloss_pos < 2 else 1,  # 知る 'to be aware of; to know' is as good
               # 'run': 走る before the loanword ラン; and a spelling with a kanji outside the
               # jōyō list is as far from the everyday word (蹲う 'to crouch', 狂躁 'mania')
               # (a common entry's is not: 石鹸 'soap' is the everyday word)
               1 if KATAKANA.fullmatch(noun) or rare_kanji(noun) and priority.get(idseq, 2)
               else 0,
               1 if sid in grammatical else 0,
               # a native verb before a suru-noun's at the same rank (twist: ひねる, not
               # 捻挫する; charge: 込める, not 保管する): placed after the frequency, kango
               # suru-nouns, more frequent, won (tried, judged)
               via,
               # the everyday word: 夜 before ナイト; placed before the sense order it made
               # 'itches' 湿, 'melancholia' 黄昏 (tried, judged, reverted)
               -ja_zipf(noun),
               # a tie-break only: placed earlier it made 'go' 走る (ECDICT's 走)
               shared,
               -round(math.log10(ja_freq.get(head, 0.0) or 1e-9), 1),  # 時間 before 間 'time'
               sense_order[sid], gloss_pos, idseq, head)
        # Which sense of this part of speech: for English words below COMMON_EN_FREQ a second
        # dictionary's agreement comes before JMdict's priority tags, as a common entry's mark
        # says the Japanese word is common, not that it translates this English word: a
        # headword all of whose kanji are in ECDICT's main Chinese translations of the word
        # wins (heirloom 家宝 over 形見 'memento; keepsake; heirloom', itch 痒み over 掻痒,
        # shroud 包む over 巻く). A lone kanji does not win so: it is too easy a
        # hit (scalpel: 刀 is in 手术刀, so it beat メス; yurt: 包 beat ゲル; tried,
        # judged, narrowed). The choice among parts of speech keeps ``key`` (choose_gloss):
        # with the vote placed there, verbs turned nouns (grates 火格子, prod 突き棒; tried,
        # reverted); the priority mark one step down for a word that is only a sense's third
        # gloss or later fixed as many as it broke on the judged samples (tried, reverted).
        # nor does a kanji outside the jōyō list (蹲う for crouch through 蹲伏, 狂躁 for mania):
        # ECDICT's Chinese uses it where Japanese writes kana or another word
        agree = 0 if common_en(low) or (shared == 0 and len(head) >= 2
                                        and not rare_kanji(head)) else 1
        # within an adjective's senses, a later sense that only names what it applies to
        # ('interested (gaze, etc.)' is 暑い's third sense) one step more (not between parts
        # of speech: there it turned 'parallel' into a noun; nor for verbs and adverbs:
        # 'sharply' became 刺々)
        narrower = min(2, key[2] + 1) if applied and sense_order[sid] > 0 else key[2]
        return key, (key[0], key[1], agree, narrower) + key[3:]

    def trusted(low: str, sid: int, noun: str, gloss_pos: int, text: str, word_pos: str) -> int:
        """Whether the evidence for this sense as the word's gloss is strong: a second
        dictionary agrees, or the sense means just this word, or the word is everyday English.
        Judged on seeds 1-9 (data/quality/): without it a quarter of the random glosses were
        odd (a side sense, a stiff or obscure headword, a sense narrower than the word:
        hampered 殺す, clan 族, basements 地下); see english.md for the rules and the cost.
        2: the sense's own evidence; 1: only that the English word is everyday (which vouches
        for its own gloss, not for another sense an inflected form takes); 0: neither."""
        if evidence(low, sid, noun, gloss_pos, text, word_pos):
            return 2
        return 1 if en_freq.get(low, 0.0) >= EVERYDAY_EN_FREQ else 0

    def evidence(low: str, sid: int, noun: str, gloss_pos: int, text: str, word_pos: str
                 ) -> bool:
        first, count = gloss_pos == 0, gloss_count[sid]
        zh = chinese.get(low, {})
        zh_text = zh.get(word_pos) or zh.get("") or ""
        if (first or count <= 2) and noun in ecdict_items(zh_text):
            return True  # two dictionaries name the same word (labyrinth 迷宮, cat 猫)
        if first and sid in fielded:
            return True  # a technical term's own translation (chemistry's 昇華)
        if "(" in text or len(noun) < 2:
            # '(social) class', 'to pitch (e.g. a boat)': a narrower sense; a lone kanji or
            # kana is mostly part of compounds (族 'clan', 将 'commander', 木 'shrub')
            return False
        if count == 1 and ja_zipf(noun) >= 1 and not KATAKANA.fullmatch(noun):
            return True  # the sense is this word alone, and the headword is a word in use
        if first and first_item_kanji(noun, zh_text):
            return True  # ECDICT's main translation has all the headword's kanji
        # a common entry's main sense, with this word first of at most two glosses
        return (first and count <= 2 and sense_order[sid] == 0
                and priority.get(sense_entry[sid], 2) == 0 and not misc[sid] & FRINGE_SENSE)

    best: dict[str, dict[str, tuple]] = defaultdict(dict)
    pool: dict[str, dict[str, dict[str, tuple]]] = {} if pools is None else pools
    plurals: dict[str, dict[str, tuple]] = {}  # singular -> headwords of its plural's glosses
    # word -> a verb for a word only a verb: a katakana suru-noun's, or that of a suru-noun
    # glossed by the word's nominalisation in an entry that is not common (最適化する)
    verb_fallback: dict[str, tuple[str, int, int]] = {}
    letters: dict[tuple[str, str], tuple] = {}  # (word, pos) -> best key of a letter's sense
    # (word, pos) -> the headwords whose best sense for it is out of use (OUT_OF_USE)
    dated: dict[tuple[str, str], set[str]] = {}
    open_heads: dict[tuple[str, str], set[str]] = {}  # (word, pos) -> heads of open glosses
    position: dict[int, int] = Counter()
    for sid, text in db.execute("SELECT sid, text FROM SenseGloss ORDER BY sid, rowid"):
        gloss_pos = position[sid]
        position[sid] += 1
        g, verb = normal_gloss(text)
        voting = freedict is not None  # the gloss pass; word_kinds reads direct glosses only
        # 'to be interested (in)' (気になる) glosses the participle as an adjective, and so
        # does 'to be interested in' (関心を持つ) in the gloss pass
        be_form = (BE_PARTICIPLE.fullmatch(g) if verb and voting and gloss_pos == 0
                   else None)
        be_adjective = (verb and g.startswith("be ") and g[3:] in words
                        and g[3:].endswith(("ed", "ing")))
        if be_adjective:
            g, verb = g[3:], False
        elif be_form and be_form[1] in words:
            g, verb, be_adjective = be_form[1], False, True
        # 'to be able to afford' (手が届く) is the word's own sense when ECDICT's main
        # translation of the verb says 'can' too (买得起 'can afford to buy')
        able = ABLE_TO.fullmatch(g) if verb and voting else None
        own_phrase = bool(able and able[1] in words and potential(chinese.get(able[1], {})))
        if own_phrase:
            g = able[1]
        if voting and re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+", g) \
                and g.replace("-", "").lower() in words and g.lower() not in words:
            g = g.replace("-", "")  # 'hard-working' (勤勉) glosses 'hardworking'
        closed = bool(voting and re.fullmatch(r"[a-z]+ [a-z]+", g)
                      and g.replace(" ", "") in words and not verb and gloss_pos < 2
                      and any(p.startswith("noun") for p in pos[sid]))
        if closed:
            # a noun JMdict writes open names the closed compound a newer list spells as one
            # word ('live stream' 生配信 for 'livestream'), for a word JMdict glosses no other
            # way only: it ranks after every other sense, and is dropped below where one
            # exists (filmmaking is no 'film making' 製膜, girlfriend stays 彼女)
            g = g.replace(" ", "")
        low = g.lower()
        if low not in words or (g != low and g != low.capitalize()):  # 'ITS' is no 'its'
            continue
        if g != low and (misc[sid] & NAME_MISC or NAME_NOTE.search(text)):
            continue  # 'Awa (former province ...)' names a place, not web2's Scots 'awa'
        idseq = sense_entry[sid]
        head = headword(idseq, sid)
        if not head or LATIN.search(head) or "\t" in head or "\n" in head:
            continue  # 'Ｓ', 'ＯＵＴ' spell the English word, they do not gloss it
        word_pos = "adjective" if be_adjective else plain_pos(
            pos[sid], verb, low, tags.get(low, set()), frozenset(chinese.get(low, {})) - {""})
        # (English word, part of speech, headword, via): see keys()
        candidates = [(low, word_pos, head, 0)]
        if word_pos == "noun" and frozenset(chinese.get(low, {})) - {""} == {"adjective"}:
            # a Japanese noun glossing a word ECDICT knows only as an adjective (目の前
            # 'imminent', 未組織 'unorganized') is that adjective too; its noun stays for the
            # English word's plural (offensives 攻勢)
            candidates.append((low, "adjective", head, 0))
        # (not a katakana loan's: トスする, ダンプする, レンタルする stood in for 投げる, 捨てる,
        # 借りる, and オプションする for 'opt')
        if voting and suru_noun(pos[sid]) and KATAKANA.fullmatch(head) and word_pos == "noun" \
                and g == low and gloss_pos == 0:
            # a katakana loan's verb only for a word no other sense makes a verb, see below
            verb_fallback.setdefault(low, (head + "する", sid, gloss_pos))
        if suru_noun(pos[sid]) and not KATAKANA.fullmatch(head):
            # a suru-noun is the verb too: 管理 'control' is 管理する 'to control'. Without it
            # an English verb's forms took a side sense of a native verb (controlled 取り締まる,
            # consulted 引く, torturing 責める) and the verb itself the noun's label
            # (accumulate: noun 蓄積)
            if word_pos == "verb":
                candidates = [(low, "verb", head + "する", 1)]
            elif word_pos == "noun" and gloss_pos == 0 and (
                    "VB" in tags.get(low, ()) or "verb" in chinese.get(low, {})):
                # only as the noun's first gloss: a later one is often another sense of the
                # English word (意見 'opinion; view' is no 'to view', 通算 'total; sum')
                candidates.append((low, "verb", head + "する", 1))
            # the nominalisation only as the first gloss of a common entry's main sense:
            # as a later gloss it is a side sense of the noun (努力 'effort; exertion' is no
            # 'exert', 予約 'reservation; appointment' no 'appoint')
            if (word_pos == "noun" and g == low and gloss_pos == 0 and sense_order[sid] == 0
                    and priority.get(idseq, 2) == 0 and not misc[sid] & FRINGE_SENSE):
                candidates += [(v, "verb", head + "する", 2) for v in verb_of.get(low, ())]
            elif voting and word_pos == "noun" and g == low and gloss_pos == 0 \
                    and sense_order[sid] == 0 and not misc[sid] & FRINGE_SENSE:
                for v in verb_of.get(low, ()):  # for a word that is only a verb (below)
                    verb_fallback.setdefault(v, (head + "する", sid, gloss_pos))
        for word, word_pos, head, via in candidates:
            key, sense_key = keys(word, g == low, sid, word_pos, head, gloss_pos, via,
                                  voting and word_pos == "adjective"
                                  and bool(APPLIES_TO.search(text)), own_phrase, closed)
            trust = 2 if own_phrase else trusted(
                word, sid, head.removesuffix("する") if via else head, gloss_pos, text, word_pos)
            if every is not None:  # every candidate with what it is ranked by
                every.append({
                    "word": word, "pos": word_pos, "head": head, "via": via, "sid": sid,
                    "idseq": idseq, "exact": g == low, "gloss": text, "gloss_pos": gloss_pos,
                    "gloss_count": gloss_count[sid], "sense_order": sense_order[sid],
                    "priority": priority.get(idseq, 2), "field": sid in fielded,
                    "misc": sorted(misc[sid]), "jm_pos": pos[sid],
                    "grammatical": sid in grammatical, "key": key, "sense_key": sense_key,
                    "trust": trust,
                    "ja_freq": ja_freq.get(head.removesuffix("する") if via else head, 0.0)})
            # every headword of each part of speech, for the vote
            heads = pool.setdefault(word, {}).setdefault(word_pos, {})
            if closed:
                open_heads.setdefault((word, word_pos), set()).add(head)
            if head not in heads or sense_key < heads[head][0]:
                heads[head] = (sense_key, trust)
                aged = dated.setdefault((word, word_pos), set())
                if misc[sid] & OUT_OF_USE:
                    aged.add(head)
                else:
                    aged.discard(head)
            if voting and word_pos == "noun" and g == low and not via and not closed:
                # a plural gloss names the singular's word too (豆 'beans; peas' for 'bean'):
                # a candidate of the singular's vote that counts only when FreeDict or ECDICT
                # names it as well (glasses 眼鏡 is no 'glass')
                for single in singulars(low):
                    if single in words:
                        plural = plurals.setdefault(single, {})
                        if head not in plural or sense_key < plural[head]:
                            plural[head] = sense_key
            if voting and FOREIGN_LETTER.search(head):
                # 'Μ' for 'mu', 'Η' for 'eta': the letter itself, no Japanese word; the
                # part of speech has no gloss when it is JMdict's first (畝 and 長吏 are
                # other words that happen to be read so)
                letters[(word, word_pos)] = min(key, letters.get((word, word_pos), key))
                continue
            kept = best[word].get(word_pos)
            if kept is None:
                best[word][word_pos] = (key, head, sense_key, trust)
            else:
                best[word][word_pos] = (min(key, kept[0]),) + (
                    (head, sense_key, trust) if sense_key < kept[2] else kept[1:])
    if freedict is not None:
        for (word, word_pos), found in sorted(open_heads.items()):
            heads = pool[word][word_pos]
            if len(found) < len(heads):  # another sense glosses the word itself
                for head in found:
                    if head in heads and heads[head][0][0] == 2:
                        del heads[head]
        for (word, word_pos), letter_key in sorted(letters.items()):
            if word_pos in best.get(word, {}) and letter_key < best[word][word_pos][0]:
                del best[word][word_pos]
                if not best[word]:
                    del best[word]
        for word in sorted(verb_fallback):
            listed_pos = set(chinese.get(word, {})) - {""}
            if word in best and "verb" not in best[word] and listed_pos \
                    and listed_pos <= {"verb", "adverb"}:  # optimize: ECDICT's vt. only
                head, sid, gloss_pos = verb_fallback[word]
                key, sense_key = keys(word, True, sid, "verb", head, gloss_pos, 1)
                best[word]["verb"] = (key, head, sense_key, 0)
                pool.setdefault(word, {})["verb"] = {head: (sense_key, 0)}
        spellings = entry_spellings(db)
        kinds = entry_kinds(db)
        entries = entry_heads(db)
        first_noun: dict[str, str] = {}
        for word in sorted(best):
            listed = freedict_votes(freedict.get(word, []), spellings)
            raw = freedict_items(freedict.get(word, []), spellings)
            for word_pos in sorted(best[word]):
                key, head, sense_key, trust = best[word][word_pos][:4]
                heads = dict(pool[word][word_pos])
                if word_pos == "noun":
                    for cand in sorted(plurals.get(word, {})):
                        if cand not in heads:
                            heads[cand] = ((9,) + sense_key[1:], ADDED_PLURAL)
                # FreeDict's translations that JMdict's reverse lookup did not reach, as
                # candidates after JMdict's own (an entry of that part of speech, by its
                # headword; a suru-noun for a verb): they win only with a second source
                # (see vote)
                aliases: dict[str, set[str]] = defaultdict(set)
                # FreeDict's translation of un-X that JMdict gives for X is a slip of its
                # table (uncomfortable 心地よい, undesirable 望ましい)
                opposite = {h for stem in negated(word)
                            for h in pool.get(stem, {}).get(word_pos, {})}
                for item in sorted(raw.get(word_pos, {})):
                    for cand, common in freedict_candidates(item, word_pos, kinds, entries):
                        if common and cand not in heads and not LATIN.search(cand) \
                                and len(cand) >= 2 and cand not in opposite:
                            heads[cand] = ((9,) + sense_key[1:], ADDED_COMMON)
                        if heads.get(cand, (0, 0))[1] == ADDED_COMMON:
                            # ECDICT may name it by FreeDict's spelling (雲雀 for ひばり)
                            aliases[cand].add(bare(item))
                # the noun's winner by the three sources (voted already: noun < verb)
                noun = first_noun.get(word, best[word].get("noun", ((), ""))[1])
                if word_pos == "verb" and noun + "する" not in heads and any(
                        {"suru", "common"} <= kinds.get(idseq, frozenset())
                        for idseq, _head in entries.get(noun, ())):
                    # the noun's gloss, a suru-noun, is the verb with する when ECDICT names
                    # it as a verb too (repeal: 廃止 'abolition; repeal', ECDICT's v. 废止:
                    # 廃止する, not 廃する)
                    heads[noun + "する"] = ((8,) + sense_key[1:], ADDED_VERB)
                firsts: list[str] = []
                winner, score, why = vote(heads, listed.get(word_pos, {}),
                                          chinese.get(word, {}), word_pos, word, aliases,
                                          spellings, frozenset(dated.get((word, word_pos), ())),
                                          pivot.counts(word, word_pos)
                                          if pivot is not None and word_pos == "noun" else None,
                                          firsts)
                if word_pos == "noun" and firsts:
                    first_noun[word] = firsts[0]
                if decided is not None:
                    decided[why] += 1
                if winner and winner != head:
                    sense_key, trust = heads[winner]
                best[word][word_pos] = (key, winner, sense_key, trust, score)
    db.close()
    return dict(best)


JA_FREQ: dict[str, float] = {}


def ja_zipf(head: str) -> int:
    """wordfreq 'ja' frequency in whole Zipf steps, capped at JA_ZIPF_CAP (gloss_senses)."""
    if not JA_FREQ:
        JA_FREQ.update(wordfreq.get_frequency_dict("ja"))
    freq = JA_FREQ.get(head, 0.0)
    return min(JA_ZIPF_CAP, int(math.log10(freq) + 9)) if freq > 0 else 0


def bare(head: str) -> str:
    """A headword without the する of a suru-noun's verb."""
    return head.removesuffix("する") if head.endswith("する") and len(head) > 2 else head


def entry_spellings(db: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """Every JMdict kanji or kana spelling -> the spellings of the entries that have it
    (良く -> {良く, よく, 善く, ...}): a FreeDict translation names a JMdict headword by any of
    its spellings."""
    kana: dict[int, set[str]] = defaultdict(set)
    for idseq, text in db.execute("SELECT idseq, text FROM Kana"):
        kana[idseq].add(text)
    out: dict[str, set[str]] = defaultdict(set)
    for idseq, text in db.execute("SELECT idseq, text FROM Kanji ORDER BY ID"):
        out[text].add(text)
        out[text].update(kana[idseq])
    for idseq in sorted(kana):
        for text in kana[idseq]:
            out[text].add(text)
    return {text: frozenset(found) for text, found in out.items()}


def entry_kinds(db: sqlite3.Connection) -> dict[int, frozenset[str]]:
    """Every JMdict entry -> the plain parts of speech of its senses ('suru' for a noun that
    takes する, 'common' for an entry with a priority tag): which of FreeDict's translations
    can be a candidate JMdict's reverse lookup missed (抵抗 for 'resist' is 抵抗する)."""
    common = {idseq for (idseq,) in db.execute(
        "SELECT k.idseq FROM Kanji k JOIN KJP p ON p.kid = k.ID UNION "
        "SELECT n.idseq FROM Kana n JOIN KNP p ON p.kid = n.ID")}
    kinds: dict[int, set[str]] = defaultdict(set)
    for idseq, text in db.execute("SELECT s.idseq, p.text FROM pos p JOIN Sense s ON s.ID = p.sid"):
        if text == SURU_NOUN:
            kinds[idseq].add("suru")
        kind = plain_pos([text], False, "", set())
        if kind in ("noun", "verb", "adjective", "adverb"):
            kinds[idseq].add(kind)
    for idseq in common:
        kinds[idseq].add("common")
    return {idseq: frozenset(k) for idseq, k in kinds.items()}


def entry_heads(db: sqlite3.Connection) -> dict[str, tuple[tuple[int, str], ...]]:
    """Every JMdict spelling -> (entry, headword) of the entries that have it: the headword
    is the entry's first kanji spelling that is not irregular, out-dated or ateji, or its
    first kana one when the entry has no kanji or its first sense is written in kana (as
    gloss_senses' headword does for a sense)."""
    irregular = {kid for kid, text in db.execute("SELECT kid, text FROM KJI")
                 if text in IRREGULAR_KANJI}
    kanji: dict[int, list[str]] = defaultdict(list)
    for kid, idseq, text in db.execute("SELECT ID, idseq, text FROM Kanji ORDER BY ID"):
        if kid not in irregular:
            kanji[idseq].append(text)
    kana: dict[int, list[str]] = defaultdict(list)
    for idseq, text in db.execute("SELECT idseq, text FROM Kana ORDER BY ID"):
        kana[idseq].append(text)
    kana_first = {idseq for idseq, in db.execute(
        "SELECT s.idseq FROM Sense s JOIN misc m ON m.sid = s.ID WHERE m.text = ? AND s.ID = "
        "(SELECT MIN(ID) FROM Sense WHERE idseq = s.idseq)", (KANA_ALONE,))}
    out: dict[str, set[tuple[int, str]]] = defaultdict(set)
    for idseq in sorted(set(kanji) | set(kana)):
        head = (kana[idseq][0] if kana[idseq] and (idseq in kana_first or not kanji[idseq])
                else kanji[idseq][0] if kanji[idseq] else "")
        if not head:
            continue
        for text in kanji[idseq] + kana[idseq]:
            out[text].add((idseq, head))
    return {text: tuple(sorted(found)) for text, found in out.items()}


# Where a vote's candidate comes from when JMdict's reverse lookup of the word did not give
# it (the trust field of a head): see vote()
ADDED_COMMON, ADDED_VERB, ADDED_PLURAL = -1, -2, -3


def freedict_candidates(item: str, pos_name: str, kinds: dict[int, frozenset[str]],
                        entries: dict[str, tuple[tuple[int, str], ...]]
                        ) -> list[tuple[str, bool]]:
    """The headwords of the JMdict entries a FreeDict translation names that can gloss this
    part of speech (a suru-noun's verb for a verb: 抵抗 -> 抵抗する), each with whether the
    entry is common."""
    out: list[tuple[str, bool]] = []
    found = entries.get(item, ())
    if not HAN.search(item) and len(found) > 1:
        return out  # a kana spelling of several entries names none (おす: 押す, 雄, 押忍)
    # a spelling that is one entry's headword names that entry, not another's variant
    # spelling (縦 is たて, not ほしいまま's rare 縦)
    found = tuple(e for e in found if e[1] == item) or found
    for idseq, head in found:
        have = kinds.get(idseq, frozenset())
        if pos_name == "verb" and "suru" in have and "verb" not in have:
            out.append((head + "する", "common" in have))
        elif pos_name in have:
            out.append((head, "common" in have))
    return out


def freedict_votes(entries: list[tuple[str, list[list[str]]]],
                   spellings: dict[str, frozenset[str]]) -> dict[str, Counter]:
    """part of speech -> JMdict spelling -> how many of FreeDict's senses of the word list it.
    A translation that is no JMdict spelling is dropped: a cut first character (しゃみ for
    くしゃみ, which JMdict spells), a transliteration or a phrase FreeDict made up; a trailing
    な/に (三寸な, 静かに) is the adjective's or adverb's headword."""
    out: dict[str, Counter] = defaultdict(Counter)
    for pos_name, senses in entries:
        for items in senses:
            named: set[str] = set()
            for item in items:
                base = item if item in spellings else item[:-1] if (
                    item[-1:] in ("な", "に") and item[:-1] in spellings) else ""
                if base:
                    named |= spellings[base]
            out[pos_name].update(named)
    return dict(out)


def freedict_items(entries: list[tuple[str, list[list[str]]]],
                   spellings: dict[str, frozenset[str]]) -> dict[str, Counter]:
    """part of speech -> FreeDict's translations that are JMdict spellings (a trailing な/に
    taken off) -> how many of its senses list them: the candidates FreeDict adds."""
    out: dict[str, Counter] = defaultdict(Counter)
    for pos_name, senses in entries:
        for items in senses:
            found = set()
            for item in items:
                base = item if item in spellings else item[:-1] if (
                    item[-1:] in ("な", "に") and item[:-1] in spellings) else ""
                if base:
                    found.add(base)
            out[pos_name].update(found)
    return dict(out)


# a verb or adjective spelt with one kanji and its kana ending (剃る, 冷たい): ECDICT's
# one-character translation 剃 is the same word
OKURIGANA = re.compile(r"[\u3400-\u9fff][\u3041-\u3093]+")


class Ballot(NamedTuple):
    """One candidate of a vote: ``key`` orders them (most votes first, then the tie-breaks);
    the rest says who named it."""
    key: tuple
    head: str
    rank: int  # JMdict's order (0: its first)
    votes: int
    free: int  # FreeDict's senses that name it (capped)
    ecd: int  # ECDICT names it
    katakana: bool
    loan: bool  # a katakana word that spells the English word (ナード for nerd)


def vote(heads: dict[str, tuple], listed: Counter, chinese: dict[str, str], pos_name: str,
         word: str = "", aliases: dict[str, set[str]] | None = None,
         spellings: dict[str, frozenset[str]] | None = None,
         dated: frozenset[str] = frozenset(),
         pivot: dict[str, int] | None = None,
         first: list[str] | None = None) -> tuple[str, int, str]:
    """The gloss of one part of speech by vote of the three sources (first_vote), then, for a
    noun, by the pivot languages (``pivot``: Pivot.counts of the word): a winner that none of
    them reaches yields to the candidate most of them reach, PIVOT_LEAST or more, the more
    frequent Japanese word among equals (algorithms: アルゴリズム, not 算法; crossbow クロスボウ,
    not 弩; tennis テニス, not 庭球). Measured on the judged rows (data/english.md): it fixes
    more odd nouns than it spoils right ones, where the same rule on every part of speech
    did not. ``first`` receives the three sources' winner (a verb's candidates take the
    noun's, which the pivot leaves alone: pity stays 同情する)."""
    ballots: list[Ballot] = []
    head, sources, why = first_vote(heads, listed, chinese, pos_name, word, aliases, spellings,
                                    dated, ballots)
    if first is not None:
        first.append(head)
    if pos_name != "noun" or not pivot or not head:
        return head, sources, why
    score = {x.head: pivot.get(pivot_normal(bare(x.head)), 0) for x in ballots}
    top = max(score.values(), default=0)
    if top < PIVOT_LEAST or head not in score or score[head]:
        return head, sources, why
    best = max((x for x in ballots if score[x.head] == top),
               key=lambda x: JA_FREQ.get(bare(x.head), 0.0))
    return best.head, sources, "a pivot over a winner none of them reaches"


def first_vote(heads: dict[str, tuple], listed: Counter, chinese: dict[str, str],
               pos_name: str, word: str = "", aliases: dict[str, set[str]] | None = None,
               spellings: dict[str, frozenset[str]] | None = None,
               dated: frozenset[str] = frozenset(),
               ballots: list[Ballot] | None = None) -> tuple[str, int, str]:
    """The gloss of one part of speech by vote of three sources: JMdict read backwards (its
    best-ranked headword, gloss_senses' keys), FreeDict (a headword its senses of that part of
    speech list: two votes when two or more senses list it, the general word) and ECDICT (a
    headword that is one of its main Chinese translations, or whose kanji one of them has).
    Most votes win; a tie goes to JMdict's first when trusted() vouches for it, then to the
    headword more of FreeDict's senses name, then to JMdict's own candidates before the added
    ones, then to the more frequent Japanese word, then to a trusted one, then to JMdict's
    order. A sense out of use (``dated``: archaic, obsolete, rare, dated) yields to any
    candidate a source names; a rare katakana spelling of an English adjective or adverb that
    only JMdict gives is no gloss ("" returned). A katakana winner yields to a native word,
    and JMdict's first alone to FreeDict's own translation (see below). Returns the headword,
    how many sources name it and which source decided (for the data sheet's counts)."""
    ja_zipf("")  # loads JA_FREQ
    order = sorted(heads, key=lambda h: heads[h][0])
    zh_text = chinese.get(pos_name) or chinese.get("") or ""
    items = ecdict_items(zh_text)
    if ballots is None:
        ballots = []  # (every candidate's ballot, for vote())
    aside: list[tuple[int, float, int, str]] = []  # FreeDict's own, no other source names
    for rank, head in enumerate(order):
        noun = bare(head)
        origin = heads[head][1]
        free = min(FREEDICT_CAP, max(listed.get(head, 0), listed.get(noun, 0)))
        # or all of two or more kanji in one main translation (司祭 in 祭司): one kanji is
        # too easy a hit (耐える in 忍耐), and kanji gathered from several translations say
        # nothing (廃棄 from 廃止 and 放棄, 取得 for 'purchase')
        kanji = HAN.findall(noun)
        spelt = {noun} | (aliases or {}).get(head, set())
        if not kanji:
            # a headword written in kana: ECDICT names it by its kanji (はまぐり is 蛤)
            spelt |= (spellings or {}).get(noun, frozenset())
        ecd = 1 if spelt & items or (
            len(kanji) >= 2 and not rare_kanji(noun)
            and any(all(ch in item for ch in kanji) for item in items)) or (
            pos_name in ("verb", "adjective")
            and any(OKURIGANA.fullmatch(s) and s[0] in items for s in spelt)) else 0
        if origin == ADDED_COMMON and not ecd and free:
            aside.append((-free, -JA_FREQ.get(noun, 0.0), rank, head))
        if (origin == ADDED_COMMON and not ecd and free < 2
                or origin == ADDED_VERB and not spelt & items
                or origin == ADDED_PLURAL and not (ecd or free)):
            # a candidate JMdict never glossed by the word needs a second source: FreeDict's
            # alone is not enough (process 会得, flyer 檄, register 音栓 are side senses)
            # unless two of its senses name it (supper 夕食) or JMdict's first has no
            # source but itself (below); a noun's verb needs ECDICT's translation itself
            # (purchase: 努力取得 is no 取得); a plural's gloss needs FreeDict or ECDICT
            # (bean: 豆 'beans; peas')
            continue
        # JMdict's first counts twice when its own evidence for the sense is strong
        # (trusted(): ECDICT's exact agreement, a sense of this word alone): get 得る, not
        # なる, which one of FreeDict's eight senses of 'get' lists
        strong = rank == 0 and origin == 2 and not ecd
        jm = (2 if strong else 1) if rank == 0 or origin == ADDED_VERB else 0
        # FreeDict alone for a candidate it added casts one vote, however many of its senses
        # name it (sound: 調べる, which two of its senses list, is not 鳴る)
        votes = jm + (free if origin >= 0 or ecd else 1) + ecd
        # among candidates with as many votes, the more frequent Japanese word (whole Zipf
        # steps, capped: every everyday word is everyday) before JMdict's trust in its own:
        # with trust first, stiff or Chinese words won ties
        # (fairy 仙女, not 妖精; secretly 密密, not こっそり; exam 考試, not 試験)
        key = (-votes, 0 if strong else 1, -free, 1 if origin < 0 else 0,
               -ja_zipf(noun), 0 if origin == 2 else 1, rank)
        katakana = bool(KATAKANA.fullmatch(noun))
        ballots.append(Ballot(key, head, rank, votes, free, ecd, katakana,
                              katakana and transliteration(noun, word)))
    best = min(ballots)
    if best.head in dated:
        # a sense Japanese no longer uses yields to any candidate a source names that is not
        # one (bible: バイブル, not the dated 聖経); with none it stays, as it is all there is
        # (inexplicably: the archaic えも言はず; thou: 汝)
        best = min((x for x in ballots if x.head not in dated and x.votes), default=best)
    if best.katakana:
        # a native word before a katakana loan: one that FreeDict or ECDICT names or JMdict
        # ranks first, with at most one vote less, and at least as frequent in Japanese
        # (wordfreq 'ja', not capped: trot 小走り, not トロット; but computers コンピュータ,
        # not 電脳, services サービス, not 勤務); before a loan that spells the English word
        # itself and is hardly used in Japanese, a katakana word FreeDict or ECDICT names
        # that does not (nerd: オタク, not ナード; but pixel ピクセル, not JMdict's ドット;
        # lemonade レモネード, not サイダー)
        loan = JA_FREQ.get(bare(best.head), 0.0)
        native = [x for x in ballots
                  if (not x.katakana and (x.free or x.ecd or x.rank == 0)
                      or best.loan and not x.loan and (x.free or x.ecd)
                      and loan < RARE_LOAN_FREQ)
                  and x.votes >= best.votes - 1 and JA_FREQ.get(bare(x.head), 0.0) >= loan]
        best = min(native, default=best)
    if best.loan and pos_name in ("adjective", "adverb") \
            and not best.free and not best.ecd \
            and JA_FREQ.get(bare(best.head), 0.0) < RARE_LOAN_FREQ:
        # a katakana spelling of an English adjective or adverb that only JMdict gives is
        # no Japanese word a learner needs (メタフォリカル, スーパーソニック, ビジブル)
        # (one source, as JMdict's first alone counts, so the part of speech keeps its place
        # in choose_gloss and the word gets no gloss instead of another use's)
        return "", 1, "no gloss: a loan spelling the English word, JMdict alone"
    alone = best.rank == 0 and not best.free and not best.ecd
    if alone and best.votes == 1:
        # JMdict's first alone, without its own strong evidence, yields to a translation
        # FreeDict gives that JMdict's reverse lookup did not reach, a word in use (Zipf 3
        # in wordfreq 'ja'): the one most of its senses name, then the most frequent
        # (pursued: 追跡する, not たどる; vouchers クーポン, not 伝票; migrant 移民, not 移住民)
        usable = [x for x in aside if -x[1] >= FREEDICT_ALONE_FREQ]
        if usable:
            return min(usable)[3], 1, "FreeDict alone over JMdict's first alone"
    if alone:
        # JMdict's first alone, a word Japanese hardly writes (wordfreq 'ja' Zipf below 3),
        # yields to a JMdict candidate as good by its keys (exact, field, agreement,
        # priority), an entry's main sense with the word its first or second gloss, far more
        # frequent (1.5 Zipf, and at least 3.5): mom ママ, not おっかさん; propose 提案する,
        # not 申し入れる; pool プール, not 合弁 (but jump not びっくりする, whose sixth gloss
        # it is)
        loan = JA_FREQ.get(bare(best.head), 0.0)
        if 0 < loan < RARE_FIRST_FREQ:
            tier = heads[best.head][0][:4]
            floor = max(loan * 10 ** RARE_FIRST_GAP, EVERYDAY_JA_FREQ)
            alike = [(JA_FREQ.get(bare(h), 0.0), h) for h in order
                     if heads[h][1] >= 0 and heads[h][0][:4] == tier
                     and heads[h][0][5] == 0 and heads[h][0][7] == 0
                     and len(bare(h)) >= 2 and JA_FREQ.get(bare(h), 0.0) >= floor]
            if alike:
                return max(alike)[1], 1, "a common word over JMdict's rare first"
    # the sources that name the winner decide between parts of speech (choose_gloss): not
    # JMdict's trust, which said a noun サマライズ for 'summarize' over its verb 総括する
    jm_named = best.rank == 0 or heads[best.head][1] == ADDED_VERB
    sources = (1 if jm_named else 0) + (1 if best.free else 0) + best.ecd
    if best.rank == 0:
        why = ("JMdict's first, FreeDict and ECDICT agree" if best.free and best.ecd
               else "JMdict's first, FreeDict agrees" if best.free
               else "JMdict's first, ECDICT agrees" if best.ecd else "JMdict's first alone")
    else:
        why = ("FreeDict and ECDICT over JMdict's first" if best.free and best.ecd
               else "FreeDict over JMdict's first" if best.free
               else "ECDICT over JMdict's first")
    return best.head, sources, why


# Penn tags (cefrpy) -> the plain part of speech of a gloss
PENN_POS = {"NN": "noun", "NNS": "noun", "VB": "verb", "VBD": "verb", "VBG": "verb",
            "VBN": "verb", "VBZ": "verb", "VBP": "verb", "JJ": "adjective", "JJR": "adjective",
            "JJS": "adjective", "RB": "adverb", "RBR": "adverb", "RBS": "adverb",
            "PRP": "pronoun", "CC": "conjunction", "UH": "interjection", "CD": "numeric"}
NO_RANK = 9.0
JA_ZIPF_CAP = 4
# how many of FreeDict's senses of a word's part of speech count as votes for one headword
FREEDICT_CAP = 2
# 'to be interested in' (関心を持つ): the participle with its preposition, as an adjective
BE_PARTICIPLE = re.compile(r"be ([a-z]+(?:ed|ing)) (?:in|of|about|with)")
# the consonants of a romanised katakana word and of an English word, by class (l and r, b
# and v, c and k are one sound to katakana)
SOUND_CLASSES = {**dict.fromkeys("kgcqx", "k"), **dict.fromkeys("szj", "s"),
                 **dict.fromkeys("td", "t"), **dict.fromkeys("nm", "n"),
                 **dict.fromkeys("hfpbv", "p"), **dict.fromkeys("rl", "r")}
KANA_ROMAJI: dict[str, str] = {}
# English spellings of one sound, as katakana hears them (ch -> チ 'ti', soft c -> サ 'sa')
ENGLISH_SOUNDS = (("sh|th|c(?=[eiy])|ss", "s"), ("ch|tch", "t"), ("ph", "f"), ("ck", "k"),
                  ("gh|wh", ""), ("x", "ks"))


ABLE_TO = re.compile(r"be able to ([a-z]+)")
# ECDICT's Chinese for 'can V': V得起, V得了, 能V, 可以V
POTENTIAL = re.compile(r"\w*得(?:起|了)|能\w+|可以\w+")


def potential(chinese: dict[str, str]) -> bool:
    """Whether ECDICT's first translation of a verb is a 'can' form (afford: 买得起)."""
    first = re.split(r"[,，;；/]\s*", chinese.get("verb", ""))[0].strip()
    return bool(first and POTENTIAL.fullmatch(first))


def negated(word: str) -> list[str]:
    """The words a negative prefix turns this one from (uncomfortable -> comfortable,
    disloyal -> loyal, nonprofit -> profit)."""
    return [word[len(p):] for p in NEGATIVE_PREFIXES
            if word.startswith(p) and len(word) - len(p) >= 3]


NEGATIVE_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")


def singulars(plural: str) -> list[str]:
    """The singulars an English plural can have (beans -> bean, boxes -> box, berries ->
    berry)."""
    out = []
    if plural.endswith("ies") and len(plural) > 4:
        out.append(plural[:-3] + "y")
    if plural.endswith("es") and len(plural) > 3:
        out.append(plural[:-2])
    if plural.endswith("s") and not plural.endswith("ss") and len(plural) > 3:
        out.append(plural[:-1])
    return out


def consonants(romaji: str) -> str:
    return "".join(SOUND_CLASSES.get(ch, "") for ch in romaji)


def transliteration(katakana: str, english: str) -> bool:
    """Whether a katakana word spells the English word's sound (ナード for nerd, ビーン for
    bean, マルチナショナル for multinational), not a Japanese word written in katakana
    (オタク, キャンプ場 is no katakana word): their consonants, by class, mostly agree."""
    import difflib
    import unicodedata

    if not KANA_ROMAJI:
        for code in range(0x30A1, 0x30FB):
            name = unicodedata.name(chr(code), "")
            if name.startswith("KATAKANA LETTER "):
                KANA_ROMAJI[chr(code)] = name.removeprefix("KATAKANA LETTER SMALL ") \
                    .removeprefix("KATAKANA LETTER ").lower()
    spoken = consonants("".join(KANA_ROMAJI.get(ch, "") for ch in katakana if ch != "ッ"))
    written = english.removesuffix("s")
    for letters, sound in ENGLISH_SOUNDS:
        written = re.sub(letters, sound, written)
    written = consonants(written)
    if not spoken or not written:
        return False
    return difflib.SequenceMatcher(None, spoken, written).ratio() >= TRANSLITERATION_RATIO


TRANSLITERATION_RATIO = 0.6
# a loan rarer than this in wordfreq 'ja' (Zipf 3) is hardly used in Japanese (ナード 2.4)
RARE_LOAN_FREQ = 10 ** (3.0 - 9)
# JMdict's unsupported first rarer than this yields to a far more frequent candidate
RARE_FIRST_FREQ = 10 ** (3.0 - 9)
RARE_FIRST_GAP = 1.5
EVERYDAY_JA_FREQ = 10 ** (3.5 - 9)
# FreeDict's translation alone replaces JMdict's unsupported first when it is this common
FREEDICT_ALONE_FREQ = 10 ** (3.0 - 9)
COMMON_EN_FREQ = 10 ** (3.5 - 9)  # zipf 3.5
# English words this frequent keep their gloss whatever the evidence: the 100 most frequent
# are judged one by one (gloss-top100.tsv), and the random samples' words above it were right
EVERYDAY_EN_FREQ = 10 ** (5.0 - 9)  # zipf 5
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


ZH_POS = {"n": "noun", "v": "verb", "vt": "verb", "vi": "verb", "a": "adjective",
          "adj": "adjective", "adv": "adverb"}
ZH_FIRST = 3  # translations compared per part of speech: the first ones are the main senses


def chinese_translations(text: str) -> dict[str, str]:
    """ECDICT's Chinese translation by part of speech: 'n. 时间, 时侯, 时机, ...' -> the first
    ZH_FIRST items per part of speech ('' for lines without one); field lines ([计]) left out."""
    out: dict[str, str] = {}
    for line in text.replace("\\n", "\n").split("\n"):
        found = re.match(r"\s*([a-z]+)\.\s*(.*)", line)
        if line.lstrip().startswith("["):
            continue
        pos_name = ZH_POS.get(found[1], found[1]) if found else ""
        items = re.split(r"[,，;；]\s*", found[2] if found else line)
        out.setdefault(pos_name, ", ".join(i for i in items[:ZH_FIRST] if i))
    return out


def with_japanese_forms(chinese: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    """ECDICT's simplified Chinese with its Japanese kanji beside it (OpenCC: simplified ->
    traditional -> Japanese shinjitai; 发明 -> 發明 -> 発明, 评价 -> 評価, 收获 -> 収穫), so
    that the vote of shared_hanzi sees the kanji a Japanese headword writes: compared on the
    shared code points alone it missed most (动员 never met 動員)."""
    from opencc_purepy import OpenCC

    s2t, t2jp = OpenCC("s2t"), OpenCC("t2jp")
    converted: dict[str, str] = {}
    out: dict[str, dict[str, str]] = {}
    for word in sorted(chinese):
        out[word] = {}
        for pos_name, text in chinese[word].items():
            if text not in converted:
                converted[text] = t2jp.convert(s2t.convert(text))
            japanese = converted[text]
            out[word][pos_name] = text if japanese == text else f"{text} / {japanese}"
    return out


def ecdict_items(text: str) -> set[str]:
    """The translations of one ECDICT line as words (simplified and, after ' / ', Japanese
    kanji), each also without its adjectival 的 (伝説的 -> 伝説)."""
    items = {i.strip() for part in text.split(" / ") for i in re.split(r"[,，;；]\s*", part)}
    return {i for i in items | {i.removesuffix("的") for i in items} if i}


def first_item_kanji(head: str, text: str) -> bool:
    """Whether every kanji of the headword is in ECDICT's first translation (its main sense),
    simplified or in Japanese kanji."""
    kanji = [ch for ch in head if HAN.fullmatch(ch)]
    firsts = "".join(re.split(r"[,，;；]\s*", part.strip())[0] for part in text.split(" / "))
    return bool(kanji) and all(ch in firsts for ch in kanji)


def shared_hanzi(head: str, chinese: dict[str, str], pos_name: str) -> int:
    """0 when all of the headword's kanji are in ECDICT's main Chinese translations of the
    word for that part of speech, 1 when some are, 2 when none (or there is nothing to
    compare): a second dictionary's vote among JMdict's senses (legislation: 立法 for 立法, not
    法制; wail: 泣き悲しむ for 悲叹). Only code points both scripts share count (官, 法, 周; not
    時/时), so a miss proves nothing: it only ranks below a hit."""
    kanji = [ch for ch in head.replace("々", "") if HAN.fullmatch(ch)]
    text = chinese.get(pos_name) or chinese.get("") or ""
    if not kanji or not text:
        return 2
    chinese = text
    hits = sum(1 for ch in kanji if ch in chinese)
    return 0 if hits == len(kanji) else 1 if hits else 2


def english_pos(word: str, levels: dict[str, float], *, form_of: str | None = None) -> dict:
    """plain part of speech -> rank (lower first): the word's cefrpy level for it, as a
    learner meets the word first in that use (good: adjective 1.0 before noun 4.0).

    An inflected form ranks by its own tags, and its suffix says what it can be (flirted,
    craning: verb; carriages: noun or verb)."""
    ranks: dict[str, float] = {}
    for tag, level in levels.items():
        plain = PENN_POS.get(tag)
        if plain and level < ranks.get(plain, NO_RANK):
            ranks[plain] = level
    if form_of is not None:
        if word.endswith(("ed", "ing")):
            # a participle's adjective or gerund use is not its lemma's adjective or noun
            # (directed is not 直接的, dwarfing not 小人): the lemma's verb sense only
            ranks = {"verb": 1.0}
        elif word.endswith("s") and not word.endswith("ss"):
            ranks = {k: v for k, v in ranks.items() if k in ("noun", "verb")} or {
                "noun": 1.0, "verb": 1.0}
        elif word.endswith(("er", "est")):
            ranks = {"adjective": 1.0, "adverb": 1.0}
    return ranks


def choose_gloss(senses: dict[str, tuple], ranks: dict[str, float], *,
                 strict: bool = False, listed: frozenset[str] = frozenset()
                 ) -> tuple[str, str, int] | None:
    """The best sense with the English part of speech put in after the priority tags: a sense
    of the word's first use wins a tie of common entries (good: 良い, not ため 'benefit').
    ``strict`` (inflected forms): only a sense of a part of speech the form can have.
    ``listed``: the parts of speech ECDICT gives the word, which break a tie of cefrpy's
    levels (cefrpy often gives every tag one level: accumulate is a verb, not 蓄積 noun;
    sparsely an adverb)."""
    best = None
    for pos_name, (key, head, _sense_key, trust, *votes) in senses.items():
        if strict and pos_name not in ranks:
            continue
        rank = ranks.get(pos_name, NO_RANK) if ranks else 0.0
        unlisted = 1 if listed and pos_name not in listed else 0
        # a verb ECDICT does not give the word loses first when cefrpy's levels say nothing
        # (one level for every tag, its guess: bewilderment JJ 4, NNP 4, VB 4 and no NN): a
        # suru-noun's verb stood in for the English noun (bewilderment 困惑する, sermon
        # 説教する, urine 小便する, hilt とことんまで; bench/gloss_candidates.py)
        guess = len(set(ranks.values())) <= 1
        demoted = 1 if unlisted and guess and pos_name == "verb" else 0
        # the English use right after the priority tags; ECDICT's vote (key[11]) says which
        # sense of a part of speech, not which part of speech (paste: 糊, not 張る); how
        # many sources name a part of speech's gloss decides between parts of speech cefrpy
        # gives one level (hide: the verb 隠す, which all three name, not 皮)
        score = -votes[0] if votes else 0
        full = key[:3] + (demoted, rank, score, unlisted) + key[3:11] + key[12:]
        if best is None or full < best[0]:
            best = (full, pos_name, head, trust)
    return None if best is None else (best[1], best[2], best[3])


def function_words() -> dict[str, tuple[str, str, str]]:
    """The project's table of function words: word -> (pos, gloss or '', source)."""
    table = {}
    for line in (HERE / "function_words.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, pos_name, gloss, source = line.split("\t")
            table[word] = (pos_name, gloss, source)
    return table


def check_function_words(table: dict[str, tuple[str, str, str]]) -> None:
    """Every gloss of the table is the headwords of the JMdict entries it names, joined."""
    from jamdict_data import JAMDICT_DB_PATH

    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    for word, (_pos, gloss, source) in sorted(table.items()):
        if not gloss:
            continue
        parts = source.removeprefix("JMdict:").split("+")
        heads = [{t for (t,) in db.execute(
            "SELECT text FROM Kanji WHERE idseq = ? UNION SELECT text FROM Kana WHERE idseq = ?",
            (int(i), int(i)))} for i in parts]

        def spells(rest: str, options: list[set[str]]) -> bool:
            if not options:
                return rest == ""
            return any(rest.startswith(h) and spells(rest[len(h):], options[1:])
                       for h in options[0])

        if not source.startswith("JMdict:") or not spells(gloss, heads):
            raise SystemExit(f"function_words.tsv: {word} {gloss}: not the headword of {source}")
    db.close()


# ---------------------------------------------------------------- assemble

ECDICT_KINDS = {"n": "noun", "v": "verb", "vt": "verb", "vi": "verb", "a": "adjective",
                "adj": "adjective"}
PENN_KINDS = {"NN": "noun", "VB": "verb", "JJ": "adjective"}


def word_kinds(words: set[str], tags: dict[str, set[str]],
               ecdict: dict[str, tuple[str, int, str, str]]) -> dict[str, set[str]]:
    """noun / verb / adjective for the words ECDICT, cefrpy or JMdict's glosses name as such:
    which regular forms a word may take."""
    kinds: dict[str, set[str]] = defaultdict(set)
    for word in words:
        kinds[word].update(PENN_KINDS[t] for t in tags.get(word, ()) if t in PENN_KINDS)
        pos = ecdict.get(word, ("", 0, "", ""))[0]
        kinds[word].update(ECDICT_KINDS[p] for p in pos.split("/") if p in ECDICT_KINDS)
    for word, senses in gloss_senses(words, tags, {}).items():
        kinds[word].update(p for p in senses if p in ("noun", "verb", "adjective"))
    return {w: k for w, k in kinds.items() if k}



def function_form_gloss(form: str, pos_name: str) -> bool:
    """Whether an inflected form of a function word has a gloss at all: the verbs' forms take
    the table's (is, was, has -> である, 持つ), and so do a pronoun's case forms and other
    forms without an -s/-ed/-ing ending (him, these, fewer, til). An -s/-ed/-ing form of a
    preposition, conjunction, determiner, auxiliary or pronoun is another word's form (canned
    is can 'tin', mined is mine 'pit', tilled is till 'to plough') or no word (ons, pers):
    the table's gloss is wrong for it, and so are its JMdict senses mostly (outs 死, afters 過ぎ,
    somethings 少し; tried), so it has none."""
    return pos_name == "verb" or not form.endswith(("s", "ed", "ing"))


def participle_adjective(levels: dict[str, float]) -> bool:
    """Whether cefrpy rates a participle's adjective use (JJ) no later than its verb uses."""
    verb = min((v for t, v in levels.items() if t.startswith("VB")), default=NO_RANK)
    return "JJ" in levels and levels["JJ"] <= verb


def word_gloss(word: str, lemma: str, senses: dict[str, dict[str, tuple]],
               table: dict[str, tuple[str, str, str]],
               per_tag: dict[str, dict[str, float]],
               listed: dict[str, frozenset[str]], evidence_only: bool = False
               ) -> tuple[str, str]:
    """(pos, gloss) of one playable word: the function-word table first (of: の, not うち),
    then for an inflected form its lemma's sense of the form's part of speech ('flirted': the
    verb, not 男誑し; 'craning': 首を伸ばす, not 鶴), else the word's own best sense."""
    for key in (word, lemma):
        if key and key in table:
            pos_name, gloss, _source = table[key]
            if key == lemma and not function_form_gloss(word, pos_name):
                return ("", "")
            return (pos_name, gloss) if gloss else ("", "")
    choice = None
    if lemma and word.endswith(("ed", "ing")) and word in senses \
            and "adjective" in senses[word] and "adjective" in listed.get(word, ()) \
            and participle_adjective(per_tag.get(word, {})):
        # a participle learners meet first as an adjective, which ECDICT gives as one
        # (interesting, amazing): its own adjective sense, not its lemma's verb (interest
        # 混じる); without ECDICT's word, passives took it (added: 添う 'to be added')
        choice = choose_gloss({"adjective": senses[word]["adjective"]}, {"adjective": 1.0})
        if choice:
            return (choice[0], choice[1]) if choice[1] else ("", "")
    own = choose_gloss(senses[lemma], english_pos(lemma, per_tag.get(lemma, {})),
                       listed=listed.get(lemma, frozenset())) if lemma in senses else None
    if lemma and lemma in senses:
        ranks = english_pos(word, per_tag.get(word, {}), form_of=lemma)
        choice = choose_gloss(senses[lemma], ranks, strict=True,
                              listed=listed.get(word) or listed.get(lemma, frozenset()))
    if choice is None and word in senses:
        ranks = english_pos(word, per_tag.get(word, {}), form_of=lemma or None)
        choice = choose_gloss(senses[word], ranks, strict=bool(lemma),
                              listed=listed.get(word, frozenset()))
    if not choice or not choice[1]:
        return ("", "")  # no sense, or the vote found none a learner should see (vote())
    # evidence_only (a trial, off by default: english.md "Evidence-only glosses"): a sense
    # without strong evidence gives no gloss (trusted() in gloss_senses); an inflected form
    # follows its lemma's sense, so it keeps a gloss when its lemma's does; an everyday lemma
    # vouches only for its own gloss (worst 悪い as bad), not for the sense of another part of
    # speech that its form takes (pleased 取り込む, handing 取る)
    if evidence_only and (not choice[2] or choice[2] == 1 and lemma
                          and (own is None or own[:2] != choice[:2])):
        return ("", "")
    return (choice[0], choice[1])


def build(cache: Path, evidence_only: bool = False) -> tuple[list[str], dict]:
    import simplemma
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    web2, counts = base_words()
    wheel = studyforge_wheel(cache)
    expert, meta = expert_levels(wheel)
    ecdict, ecdict_forms = ecdict_rows(wheel)
    levels, tags, per_tag = cefrpy_levels()
    ambiguous = ambiguous_levels(expert, levels, ecdict, ecdict_forms)
    cefr = {**expert, **ambiguous}
    dropped: Counter = Counter()
    counts.update({"expert_words": meta["known_words"], "expert_a_z": len(expert),
                   "expert_omitted": meta["ambiguous_words_omitted"],
                   "ambiguous_taken": len(ambiguous)})
    scowl = scowl_lists(cache)
    large = {w: size for w, size in scowl.sizes.items() if size <= SCOWL_LARGE_SIZE}
    gb_files = deb_members(debian_deb(cache, HUNSPELL_GB), (HUNSPELL_GB_AFF, HUNSPELL_GB_DIC))
    en_gb, gb_names = hunspell_words(gb_files[HUNSPELL_GB_AFF].decode("utf-8"),
                                     gb_files[HUNSPELL_GB_DIC].decode("utf-8"))
    fragments = contraction_fragments(set(large) | en_gb)
    strong = {w for w, size in scowl.sizes.items() if size <= SCOWL_BASE_SIZE
              and (len(w) > 1 or w in SINGLE_LETTER_WORDS)} - fragments
    wikdict, wikdict_names = wikdict_headwords(cache)
    huge = {w for w, size in scowl.sizes.items() if size <= SCOWL_HUGE_SIZE}
    web2_only_names = web2_names()
    names = web2_only_names | scowl.names | gb_names | wikdict_names  # written capitalised
    dictionary = DefaultDictionaryFactory().get_dictionary("en")
    # every list but SCOWL <= 60 needs a second one; the expert lists are one of them
    sources = {
        "web2": web2,
        "SCOWL 70-80": huge - strong,
        "en_GB": en_gb,
        "WikDict": wikdict,
        "ECDICT": {w for w in ecdict if WORD.fullmatch(w)},
        "JMdict glosses": gloss_words(web2_only_names),
        "simplemma lemmas": {lm for lm in dictionary.values() if WORD.fullmatch(lm)},
        "expert lists": set(cefr),
        "word-list compounds": compound_words(cache, large, web2_only_names),
    }
    pasts = irregular_pasts(ecdict_forms)
    two, two_counts = two_source_words(sources, strong, names, scowl, fragments, pasts)
    base = strong | two
    pos_of = word_kinds(base, tags, ecdict)
    proper = {w for w, t in tags.items() if "NNP" in t}
    forms, form_counts = inflections(base, scowl.sizes, en_gb, ecdict_forms, pos_of, proper)
    forms = {f: lm for f, lm in forms.items() if len(f) > 1 and f not in fragments
             and VOWEL_Y.search(f)  # kms
             and (f not in scowl.abbreviations or f in regular_forms(lm))}  # mins, not mus
    playable = base | set(forms)
    unknown = sorted(set(cefr) - playable)
    dropped["not playable (no second source)"] = len(unknown)
    for word in unknown:
        del cefr[word]
    counts.update({
        "scowl_words": len(scowl.sizes), "scowl_names": len(scowl.names),
        "scowl_base": len(strong), "en_gb_words": len(en_gb), "wikdict_words": len(wikdict),
        "names": len(names), "sources": {k: len(v) for k, v in sources.items()},
        "two_source_added": len(two),
        "two_source_by_source": {k: len(two & v) for k, v in sources.items()},
        "two_source": dict(sorted(two_counts.items())),
        "web2_playable": len(web2 & playable),
        "inflections_added": len(forms),
        "inflections": dict(sorted(form_counts.items()))})
    chinese = with_japanese_forms({w: chinese_translations(e[3]) for w, e in ecdict.items()})
    freedict = freedict_entries(cache)
    decided: Counter = Counter()
    senses = gloss_senses(playable, tags, chinese, freedict=freedict, decided=decided,
                          pivot=Pivot(cache))
    counts["freedict_headwords"] = len(freedict)
    counts["gloss_vote"] = dict(sorted(decided.items()))
    table = function_words()
    check_function_words(table)
    lemmas = {}
    dropped_links: list[str] = []
    for word in sorted(playable):
        lemma = forms.get(word) or simplemma.lemmatize(word, lang="en")
        if lemma == word or lemma not in playable or not WORD.fullmatch(lemma):
            continue
        if 0 < wordfreq.zipf_frequency(lemma, "en") < (
                wordfreq.zipf_frequency(word, "en") - LEMMA_ZIPF_GAP):
            continue  # simplemma's rare homograph: gone -> gan, singing -> singe, wives -> wive
        if lemma in table and (wordfreq.zipf_frequency(lemma, "en")
                               - wordfreq.zipf_frequency(word, "en")) > FUNCTION_FORM_GAP:
            # a function word's real forms are frequent, archaic ones too (didst 3.9, hast 3.6
            # steps below do, have); one far rarer is another word or a coinage: couth
            # ('refined', back-formed from uncouth) is simplemma's archaic past participle of
            # can, and took can's A1 and 出来る; juster, outmost, onliest likewise
            continue
        if over_regular(word, lemma, pasts, plurals=False):
            # hided is SCOWL's past of hide 'to flog', not of hide's A1 'conceal'; a rare
            # plural (accuracies) keeps its lemma
            dropped_links.append(word)
            continue
        lemmas[word] = lemma
    counts["over_regular_no_lemma"] = dropped_links
    # an inflected form with its lemma's level needs no level of its own: the lemma step gives it
    redundant = [w for w in sorted(cefr) if w in lemmas and cefr.get(lemmas[w]) == cefr[w]]
    dropped["inflection with its lemma's level"] = len(redundant)
    for word in redundant:
        del cefr[word]
    # ECDICT's parts of speech: its pos field (which never says adjective) and its
    # translations' labels (a. 年轻的)
    listed = {w: frozenset({ZH_POS[p] for p in e[0].split("/") if p in ZH_POS}
                           | set(chinese[w]) - {""}) for w, e in ecdict.items()}
    lines = []
    for word in sorted(playable):
        lemma = lemmas.get(word, "")
        pos, gloss = word_gloss(word, lemma, senses, table, per_tag, listed, evidence_only)
        lines.append("\t".join((word, cefr.get(word, ""), lemma, pos, gloss)))
    counts["words"] = len(lines)
    counts["_forms"] = {f: lm for f, lm in sorted(forms.items())}
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
    parser.add_argument("--forms-sample", type=int, metavar="SEED",
                        help="also print 50 random playable words that come only through "
                             "inflection (form, lemma), drawn with random.Random(SEED), to "
                             "judge by hand (data/quality/inflections-seed*.tsv)")
    parser.add_argument("--evidence-only", action="store_true",
                        help="a trial, not the shipped table: keep a gloss only where the "
                             "evidence for its sense is strong (english.md, 'Evidence-only "
                             "glosses'); write it elsewhere with -o")
    args = parser.parse_args(argv)
    lines, counts = build(args.cache, args.evidence_only)
    forms = counts.pop("_forms")
    if args.forms_sample is not None:
        for form in sorted(random.Random(args.forms_sample).sample(sorted(forms), 50)):
            print(f"{form}\t{forms[form]}")
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
