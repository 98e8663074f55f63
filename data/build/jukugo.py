"""Build data/jukugo.tsv and data/kanji_grades.tsv (run with the build extras, not at run time).

    pip install -e '.[build]'
    python data/build/jukugo.py              # writes data/*.tsv, prints the counts on stderr
    python data/build/jukugo.py --quality    # also measures data/quality/jukugo-common.txt

jukugo.tsv:       word <TAB> zipf [<TAB> answer]
                                     JMdict kanji headwords of 2 to 6 kanji that are common by one
                                     of four kinds of evidence (below), names and rare words left
                                     out; "answer" marks the words kanji check accepts but no pool
                                     draws: the yoji and compound ones (no frequency evidence of
                                     their own) and those no list of common words has (is_drawn).
kanji_grades.tsv: kanji <TAB> grade  kanji-lists: school grade 1-6, 7 other joyo, 8 jinmeiyo
                                     (anything else is grade 9 and is not stored).

Why four sources. wordfreq's Japanese list alone misses long everyday compounds (洗濯機,
天気予報, 熱帯低気圧): its corpus was cut into words by MeCab, which splits them, so their counts
went to their parts. JMdict marks the headwords that its newspaper and other frequency lists
saw (ke_pri), lists its four-character idioms, and holds the long compounds themselves:

    wordfreq   in wordfreq's list (get_frequency_dict('ja'), no MeCab needed) -> its Zipf
    priority   a ke_pri marker (news1/2, ichi1/2, spec1/2, gai1/2, nfXX)      -> derived Zipf
    yoji       an entry with a sense tagged yojijukugo                        -> derived Zipf
    compound   4-6 kanji, exactly two priority-marked words (2+ kanji each), whose estimated
               Zipf is at least COMPOUND_MIN_ZIPF                              -> derived Zipf

The derived Zipf of a word wordfreq lacks is calibrated on the words that have both a wordfreq
Zipf and the same evidence (printed by the build, written into data/jukugo.md):
 - nfXX (rank band XX of 500 words in JMdict's newspaper list): the median wordfreq Zipf of the
   2-6 kanji words of that band, made non-increasing down the bands;
 - another marker set without nfXX (ichi1, spec1, ...): the median Zipf of the words with exactly
   that set (sets with fewer than MIN_GROUP such words take the median of all of them);
 - an idiom with no marker: the median Zipf of the unmarked idioms wordfreq lists;
 - a compound: wordfreq's own rule for a word it sees as several tokens (1/f = 1/f1 + 1/f2, over
   the parts' Zipf, measured or derived), plus the median gap between that rule and the band
   value over the nfXX-marked compounds of two marked words.

Rare words: a word with no evidence of general use (no ke_pri marker, zipf below COMMON_ZIPF)
goes when JMdict or the kanji lists give a reason a player would not name it (rare_reason): a
later spelling of a word that is in, every sense out of use, every sense in a specialist field,
a kanji in neither the joyo nor the jinmeiyo list, or a JMnedict name's string whose wordfreq
count is below NAME_COUNT_ZIPF. `--dropped FILE` writes them with their reason; the judged
samples of data/quality/jukugo-rare-*-sample.tsv are drawn from it.

Names: a word goes when every JMdict entry holding it is all names: each sense tagged a place or
person name, or (for a JMnedict headword) every English gloss a name, all its words capitalised
but those of NAME_WORDS, as 東京 "Tokyo", 大正 "Taishō era" (and not 火曜 "Tuesday", 目黒
"Bonin white-eye").

A kanji here is one code point of CJK Unified Ideographs (U+4E00-U+9FFF), Extension A
(U+3400-U+4DBF) or the CJK Compatibility Ideographs (U+F900-U+FAFF). The iteration mark 々 is not
a kanji: a tile 々 cannot be read alone and would join any word, so words with it are left out.
The same rule lives in wordforge_cli/kanji/dictionary.py (is_kanji); keep them in step.

Output is deterministic: rows sorted by descending zipf then by code points, zipf printed with
two decimals, LF line ends, no timestamps; every median is over a sorted list.
"""

from __future__ import annotations

import argparse
import math
import re
import sqlite3
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Container
from pathlib import Path

import kanji_lists
import wordfreq
from jamdict_data import JAMDICT_DB_PATH

HERE = Path(__file__).resolve().parent
DATA = HERE.parent
QUALITY = DATA / "quality"
MIN_LEN, MAX_LEN = 2, 6
COMPOUND_MIN_ZIPF = 3.0   # an estimate is good to about +-0.5 (the calibration's quartiles):
#                           only compounds clearly as common as once per million words go in
MIN_GROUP = 20
# words with no frequency evidence of their own are answers only (the third column): drawn,
# these long rare words would fill every pool, as a long word shares more kanji with the base
ANSWER_ONLY_SOURCES = ("yoji", "compound")
# A word is drawn onto boards only when a list of common words has it (is_drawn): every player
# meets a drawn word, so it must be one an ordinary adult knows, while an answer only needs to be
# a real word. JMdict's ke_pri markers are such lists (its newspaper list's commonest 24,000
# words, the Ichimango word book, the loanword list, the editors' common words); wordfreq's count
# alone is weaker evidence (a string's count, names and readings of other words in it), so a word
# with no marker is drawn only at DRAW_ZIPF (once per 300,000 words) and when it is no JMnedict
# name. A four-character idiom with no marker is never drawn, whatever its count: its count is the
# idiom-dictionary pages' (正直一遍, 天涯比隣 stay answers).
DRAW_ZIPF = 3.5
NAME_MISC = ("place name", "full name of a particular person",
             "work of art, literature, music, etc. name")
# ke_inf markers of a spelling nobody writes today: such forms come in only through wordfreq
OLD_FORMS = ("word containing irregular kanji usage", "word containing out-dated kanji")


def is_kanji(ch: str) -> bool:
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF


def is_jukugo(word: str) -> bool:
    return MIN_LEN <= len(word) <= MAX_LEN and all(is_kanji(c) for c in word)


def zipf(freq: float) -> float:
    """wordfreq's Zipf scale (log10 of occurrences per billion words)."""
    return math.log10(freq) + 9.0


def median(values: list[float]) -> float:
    return statistics.median(sorted(values))


def grades() -> dict[str, int]:
    table: dict[str, int] = {}
    for grade in range(1, 7):
        for ch in getattr(kanji_lists.KYOIKU, f"GRADE{grade}"):
            table.setdefault(ch, grade)
    for ch in kanji_lists.JOYO:
        table.setdefault(ch, 7)
    for ch in kanji_lists.JINMEIYO:
        table.setdefault(ch, 8)
    return table


# lower-case words a name's gloss may hold: "Taishō era", "Bank of Japan", "Kii (province)"
_NAME_WORDS = (
    "a an and de del der des di du el for in la le no of on the to era period dynasty "
    "shogunate clan province prefecture city town village ward river mountain mount island "
    "islands lake bay strait sea pass peninsula shrine temple castle station")
NAME_WORDS = frozenset(_NAME_WORDS.split())
_MONTHS_AND_DAYS = (
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April "
    "May June July August September October November December")
NOT_NAMES = frozenset(_MONTHS_AND_DAYS.split())
# A word with no evidence of general use (no ke_pri marker, zipf below COMMON_ZIPF: rarer than
# once per million words) goes when JMdict or the kanji lists give a reason a player would not
# name it (RARE_REASONS, checked in this order; data/jukugo.md, Size, has the judged samples)
COMMON_ZIPF = 3.0
RARE_REASONS = ("spelling", "out of use", "technical", "rare kanji", "name count")
OUT_OF_USE = ("archaism", "obsolete term", "obscure term", "dated term", "rare")
# fields of everyday pastimes: their words are a fan's or a diner's, not a specialist's
EVERYDAY_FIELDS = frozenset((
    "food, cooking", "sports", "baseball", "sumo", "music", "martial arts", "mahjong", "shogi",
    "hanafuda", "horse-racing", "video game"))
# wordfreq counts a string, not a sense: for a string JMnedict also lists as a name, a low count
# is mostly the name's (女山, 山番); below this, it is no evidence for the word
NAME_COUNT_ZIPF = 2.0
ARTICLE_WORDS = ("熱帯", "気圧", "低気圧", "熱帯低気圧", "亜熱帯", "亜寒帯", "十人十色", "十中八九")


def is_name(gloss: str) -> bool:
    """An English gloss that names something: every word capitalised but NAME_WORDS."""
    words = re.findall(r"[^\W\d_][^\W_]*(?:['-][^\W_]+)*", re.sub(r"\([^)]*\)", " ", gloss))
    words = [w for w in words if w not in NAME_WORDS]
    return bool(words) and all(w[:1].isupper() and w not in NOT_NAMES for w in words)


class JMdict:
    """The JMdict and JMnedict facts the build needs, read once from jamdict-data's database."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.entries: dict[str, set[int]] = defaultdict(set)   # kanji form -> entry ids
        self.markers: dict[str, set[str]] = defaultdict(set)   # kanji form -> ke_pri markers
        self.old_form: set[str] = set()
        for idseq, text in db.execute("SELECT idseq, text FROM Kanji"):
            if is_jukugo(text):
                self.entries[text].add(idseq)
        for text, marker in db.execute(
                "SELECT k.text, p.text FROM Kanji k JOIN KJP p ON p.kid = k.ID"):
            if text in self.entries:
                self.markers[text].add(marker)
        for text, info in db.execute(
                "SELECT k.text, i.text FROM Kanji k JOIN KJI i ON i.kid = k.ID"):
            if text in self.entries and info in OLD_FORMS:
                self.old_form.add(text)
        self.yoji_entries = {row[0] for row in db.execute(
            "SELECT DISTINCT s.idseq FROM Sense s JOIN misc m ON m.sid = s.ID "
            "WHERE m.text = 'yojijukugo'")}
        self.names = {row[0] for row in db.execute("SELECT DISTINCT text FROM NEKanji")}
        # per entry: is every sense a name?
        sense_names: dict[int, list[bool]] = defaultdict(list)
        named_senses = {row[0] for row in db.execute(
            "SELECT DISTINCT sid FROM misc WHERE text IN (?, ?, ?)", NAME_MISC)}
        glosses: dict[int, list[str]] = defaultdict(list)
        for sid, text in db.execute("SELECT sid, text FROM SenseGloss WHERE lang = 'eng'"):
            glosses[sid].append(text)
        self._sense_rows = [(sid, idseq) for sid, idseq in db.execute(
            "SELECT ID, idseq FROM Sense ORDER BY ID")]
        for sid, idseq in self._sense_rows:
            g = glosses.get(sid, [])
            sense_names[idseq].append(sid in named_senses or bool(g) and all(map(is_name, g)))
        self._sense_names = sense_names
        self._named_by_misc = {idseq for sid, idseq in self._sense_rows if sid in named_senses}
        # the senses of each kanji form (a sense restricted to other forms by stagk is not its)
        # and each entry's kanji forms in JMdict's order (the commonest spelling first)
        self.forms: dict[int, list[str]] = defaultdict(list)
        for idseq, text in db.execute("SELECT idseq, text FROM Kanji ORDER BY ID"):
            self.forms[idseq].append(text)
        only_for: dict[int, set[str]] = defaultdict(set)
        for sid, text in db.execute("SELECT sid, text FROM stagk"):
            only_for[sid].add(text)
        self._senses: dict[int, list[int]] = defaultdict(list)
        for sid, idseq in self._sense_rows:
            self._senses[idseq].append(sid)
        self._only_for = only_for
        self.misc: dict[int, set[str]] = defaultdict(set)
        for sid, text in db.execute("SELECT sid, text FROM misc"):
            self.misc[sid].add(text)
        self.field: dict[int, set[str]] = defaultdict(set)
        for sid, text in db.execute("SELECT sid, text FROM field"):
            self.field[sid].add(text)

    def senses(self, word: str) -> list[int]:
        return [sid for idseq in sorted(self.entries[word]) for sid in self._senses[idseq]
                if not self._only_for.get(sid) or word in self._only_for[sid]]

    def every_sense(self, word: str, test: Callable[[int], bool]) -> bool:
        senses = self.senses(word)
        return bool(senses) and all(map(test, senses))

    def later_spelling(self, word: str, chosen: Container[str]) -> bool:
        """In every entry holding it, a spelling JMdict lists before it is chosen too."""
        for idseq in self.entries[word]:
            forms = self.forms[idseq]
            if not any(f in chosen for f in forms[:forms.index(word)]):
                return False
        return True

    def band(self, word: str) -> int | None:
        nf = sorted(m for m in self.markers.get(word, ()) if m.startswith("nf"))
        return int(nf[0][2:]) if nf else None

    def is_yoji(self, word: str) -> bool:
        return bool(self.entries[word] & self.yoji_entries)

    def all_names(self, word: str) -> bool:
        """Every entry holding the word is all names (a JMnedict headword, or JMdict's tag)."""
        for idseq in self.entries[word]:
            senses = self._sense_names.get(idseq, [])
            if not senses or not all(senses):
                return False
            if word not in self.names and idseq not in self._named_by_misc:
                return False   # capitalised glosses alone ("Saturn") do not make a name
        return True


def calibrate(jm: JMdict, measured: dict[str, float]) -> dict[str, object]:
    """Derived Zipf per kind of evidence, from the words that have both (see the docstring)."""
    by_band: dict[int, list[float]] = defaultdict(list)
    by_set: dict[tuple[str, ...], list[float]] = defaultdict(list)
    yoji: list[float] = []
    for word, z in measured.items():
        band = jm.band(word)
        markers = tuple(sorted(jm.markers.get(word, ())))
        if band is not None:
            by_band[band].append(z)
        elif markers:
            by_set[markers].append(z)
        elif jm.is_yoji(word):
            yoji.append(z)
    bands: dict[int, float] = {}
    ceiling = math.inf
    for band in sorted(by_band):
        ceiling = min(ceiling, median(by_band[band]))   # a later band is never commoner
        bands[band] = ceiling
    everything = [z for v in by_set.values() for z in v]
    sets = {k: median(v) for k, v in by_set.items() if len(v) >= MIN_GROUP}
    return {"bands": bands, "band_n": {b: len(v) for b, v in by_band.items()},
            "sets": sets, "set_n": {k: len(v) for k, v in by_set.items()},
            "other_set": median(everything), "yoji": median(yoji), "yoji_n": len(yoji)}


def derived(jm: JMdict, cal: dict[str, object], word: str) -> float | None:
    band = jm.band(word)
    bands: dict[int, float] = cal["bands"]  # type: ignore[assignment]
    if band is not None:
        return bands.get(band, min(bands.values()))
    markers = tuple(sorted(jm.markers.get(word, ())))
    if markers:
        return cal["sets"].get(markers, cal["other_set"])  # type: ignore[union-attr]
    if jm.is_yoji(word):
        return cal["yoji"]  # type: ignore[return-value]
    return None


def splits(word: str, parts: dict[str, float]) -> list[tuple[str, str]]:
    return [(word[:i], word[i:]) for i in range(2, len(word) - 1)
            if word[:i] in parts and word[i:] in parts]


def combined(word: str, parts: dict[str, float]) -> float | None:
    """wordfreq's Zipf of a word it reads as two tokens (1/f = 1/f1 + 1/f2), best split."""
    best = None
    for a, b in splits(word, parts):
        z = math.log10(1.0 / (10 ** -parts[a] + 10 ** -parts[b]))
        best = z if best is None else max(best, z)
    return best


def rare_reason(jm: JMdict, word: str, z: float, source: str, chosen: Container[str],
                grade: dict[str, int]) -> str | None:
    """Why a player would not name a word with no evidence of general use (None: keep it)."""
    if jm.markers.get(word) or z >= COMMON_ZIPF:
        return None
    if jm.later_spelling(word, chosen):
        return "spelling"          # 起原 beside 起源, 年令 beside 年齢: one word, one spelling
    if jm.every_sense(word, lambda s: bool(jm.misc[s].intersection(OUT_OF_USE))):
        return "out of use"
    if jm.every_sense(word, lambda s: bool(jm.field[s] - EVERYDAY_FIELDS)):
        return "technical"         # computing, law, Buddhism, medicine, ... on every sense
    if any(grade.get(ch, 9) == 9 for ch in word):
        return "rare kanji"        # in neither the joyo nor the jinmeiyo list
    if source == "wordfreq" and word in jm.names and z < NAME_COUNT_ZIPF:
        return "name count"
    return None


def is_drawn(jm: JMdict, word: str, z: float) -> bool:
    """A word no list of common words has is an answer only (see DRAW_ZIPF)."""
    if jm.markers.get(word):
        return True
    return not jm.is_yoji(word) and z >= DRAW_ZIPF and word not in jm.names


class Choice:
    """What the build keeps: each word's source and zipf, with the figures the notes quote."""

    def __init__(self, jm: JMdict, freq: dict[str, float]) -> None:
        self.jm = jm
        self.measured = {w: zipf(f) for w, f in freq.items() if f > 0 and w in jm.entries}
        cal = self.cal = calibrate(jm, self.measured)
        source: dict[str, str] = {}
        value: dict[str, float] = {}
        for word in sorted(jm.entries):
            if word in self.measured:
                source[word], value[word] = "wordfreq", self.measured[word]
                continue
            if word in jm.old_form:
                continue
            z = derived(jm, cal, word)
            if z is not None:
                source[word] = "priority" if jm.markers.get(word) else "yoji"
                value[word] = z
        # compounds: two marked words, estimated by wordfreq's multi-token rule, calibrated
        marked = {w: value[w] for w in value if jm.markers.get(w) and w not in jm.old_form}
        gaps = []
        for word in sorted(marked):
            band = jm.band(word)
            if band is not None and len(word) >= 4:
                c = combined(word, marked)
                if c is not None:
                    gaps.append(cal["bands"][band] - c)  # type: ignore[index]
        self.gaps = gaps
        self.gap = gap = median(gaps)
        self.compounds_seen = 0
        floor = cal["bands"][max(cal["bands"])]  # type: ignore[index]
        for word in sorted(jm.entries):
            if word in value or word in jm.old_form or not 4 <= len(word) <= MAX_LEN:
                continue
            c = combined(word, marked)
            if c is None:
                continue
            self.compounds_seen += 1
            if c + gap >= COMPOUND_MIN_ZIPF:
                # no ke_pri marker: not among the newspaper list's commonest 24,000 words, so
                # never commoner than that list's last band, whatever its parts suggest
                source[word], value[word] = "compound", min(c + gap, floor)
        self.names = sorted(w for w in value if jm.all_names(w))
        for word in self.names:
            del value[word]
        chosen = frozenset(value)
        table = grades()
        self.rare: dict[str, str] = {}
        for word in sorted(value):
            why = rare_reason(jm, word, value[word], source[word], chosen, table)
            if why is not None:
                self.rare[word] = why
        for word in self.rare:
            del value[word]
        self.source, self.value = source, value
        self.answer_only = frozenset(
            w for w in value
            if source[w] in ANSWER_ONLY_SOURCES or not is_drawn(jm, w, value[w]))


def build(out: Path, quality: bool, dropped: Path | None = None) -> int:
    freq = wordfreq.get_frequency_dict("ja")
    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    jm = JMdict(db)
    choice = Choice(jm, freq)
    source, value, cal = choice.source, choice.value, choice.cal
    measured, names, gap, gaps = choice.measured, choice.names, choice.gap, choice.gaps
    compounds_seen = choice.compounds_seen
    rows = sorted(((w, round(z, 2)) for w, z in value.items()), key=lambda r: (-r[1], r[0]))

    table = grades()
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "jukugo.tsv", "w", encoding="utf-8", newline="\n") as fh:
        fh.write("# word\tzipf\t[answer: check accepts it, no pool draws it]  "
                 "(built by data/build/jukugo.py; see data/jukugo.md)\n")
        for word, z in rows:
            flag = "\tanswer" if word in choice.answer_only else ""
            fh.write(f"{word}\t{z:.2f}{flag}\n")
    with open(out / "kanji_grades.tsv", "w", encoding="utf-8", newline="\n") as fh:
        fh.write("# kanji\tgrade  (1-6 school grade, 7 other joyo, 8 jinmeiyo; "
                 "see data/jukugo.md)\n")
        for ch, grade in sorted(table.items(), key=lambda item: (item[1], item[0])):
            fh.write(f"{ch}\t{grade}\n")

    if dropped is not None:
        with open(dropped, "w", encoding="utf-8", newline="\n") as fh:
            fh.write("# word\treason  (left out as rare: data/jukugo.md, Size)\n")
            for word, why in sorted(choice.rare.items()):
                fh.write(f"{word}\t{why}\n")

    def say(*parts: object) -> None:
        print(*parts, file=sys.stderr)

    kept = [w for w, _ in rows]
    by_source = Counter(source[w] for w in kept)
    say(f"wordfreq ja entries:                    {len(freq):,}")
    say(f"JMdict kanji headwords of 2-6 kanji:    {len(jm.entries):,}")
    say(f"  of them in wordfreq:                  {len(measured):,}")
    marked_all = sum(1 for w in jm.entries if jm.markers.get(w))
    say(f"  with a ke_pri marker:                 {marked_all:,}")
    say(f"  yojijukugo:                           {sum(1 for w in jm.entries if jm.is_yoji(w)):,}")
    say(f"  two-marked-word compounds estimated:  {compounds_seen:,}")
    say(f"dropped as names (all senses names):    {len(names):,}")
    say(f"dropped as rare (no marker, zipf < {COMMON_ZIPF}): {len(choice.rare):,}: " + ", ".join(
        f"{why} {sum(1 for r in choice.rare.values() if r == why):,}" for why in RARE_REASONS))
    say(f"kept:                                   {len(kept):,}")
    say("  by source: " + ", ".join(f"{k} {by_source[k]:,}" for k in
                                     ("wordfreq", "priority", "yoji", "compound")))
    say("  answers only (never drawn):           "
        f"{len(choice.answer_only):,} ("
        f"{sum(1 for w in choice.answer_only if source[w] in ANSWER_ONLY_SOURCES):,} yoji or "
        "compound, the others no list of common words)")
    say(f"  drawn onto boards:                    {len(kept) - len(choice.answer_only):,}")
    say("  by length: " + ", ".join(f"{n}: {sum(1 for w in kept if len(w) == n):,}"
                                     for n in range(MIN_LEN, MAX_LEN + 1)))
    say(f"  JMnedict headwords too:               {sum(1 for w in kept if w in jm.names):,}")
    say(f"  distinct kanji:                       {len({c for w in kept for c in w}):,}")
    say("calibration (derived zipf; n = words with both):")
    bands, band_n = cal["bands"], cal["band_n"]
    say("  nf bands: " + ", ".join(f"nf{b:02d} {bands[b]:.2f} (n={band_n[b]})"  # type: ignore[index]
                                   for b in sorted(bands)))  # type: ignore[arg-type]
    say("  marker sets: " + ", ".join(f"{'+'.join(k)} {v:.2f} (n={cal['set_n'][k]})"  # type: ignore[index]
                                      for k, v in sorted(cal["sets"].items())))  # type: ignore[attr-defined]
    say(f"  other marker sets: {cal['other_set']:.2f}")
    say(f"  unmarked yoji: {cal['yoji']:.2f} (n={cal['yoji_n']})")
    say(f"  compound gap: {gap:+.2f} (n={len(gaps)}, quartiles "
        + ", ".join(f"{q:+.2f}" for q in statistics.quantiles(sorted(gaps), n=4)) + ")")
    say(f"grades stored: {len(table):,}")
    if quality:
        report_quality(set(kept), say)
    return 0


def report_quality(kept: set[str], say) -> None:  # type: ignore[no-untyped-def]
    common = [line.strip() for line in
              (QUALITY / "jukugo-common.txt").read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    missing = [w for w in common if w not in kept]
    say(f"common compounds missing: {len(missing)} of {len(common)}: {' '.join(missing)}")
    say(f"article's words missing: {[w for w in ARTICLE_WORDS if w not in kept]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA, help="folder to write into")
    parser.add_argument("--quality", action="store_true",
                        help="also report data/quality/jukugo-common.txt coverage")
    parser.add_argument("--dropped", type=Path, metavar="FILE",
                        help="also write the words left out as rare, with their reason")
    args = parser.parse_args(argv)
    return build(args.out, args.quality, args.dropped)


if __name__ == "__main__":
    sys.exit(main())
