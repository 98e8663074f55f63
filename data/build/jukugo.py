"""Build data/jukugo.tsv and data/kanji_grades.tsv (run with the build venv, not at run time).

    /work/buildvenv/bin/python data/build/jukugo.py            # writes data/*.tsv, prints counts

jukugo.tsv:       word <TAB> zipf    wordfreq's Japanese list (get_frequency_dict('ja'), no MeCab
                                     needed) intersected with JMdict kanji headwords, 2 to 6 kanji.
kanji_grades.tsv: kanji <TAB> grade  kanji-lists: school grade 1-6, 7 other joyo, 8 jinmeiyo
                                     (anything else is grade 9 and is not stored).

A kanji here is one code point of CJK Unified Ideographs (U+4E00-U+9FFF), Extension A
(U+3400-U+4DBF) or the CJK Compatibility Ideographs (U+F900-U+FAFF). The iteration mark 々 is not
a kanji: a tile 々 cannot be read alone and would join any word, so words with it are left out.
The same rule lives in wordforge_cli/kanji/dictionary.py (is_kanji); keep them in step.

Output is deterministic: rows sorted by descending zipf then by code points, zipf printed with
two decimals, LF line ends, no timestamps.
"""

from __future__ import annotations

import argparse
import math
import sqlite3
import sys
from pathlib import Path

import kanji_lists
import wordfreq
from jamdict_data import JAMDICT_DB_PATH

HERE = Path(__file__).resolve().parent
DATA = HERE.parent
MIN_LEN, MAX_LEN = 2, 6


def is_kanji(ch: str) -> bool:
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF


def is_jukugo(word: str) -> bool:
    return MIN_LEN <= len(word) <= MAX_LEN and all(is_kanji(c) for c in word)


def zipf(freq: float) -> float:
    """wordfreq's Zipf scale (log10 of occurrences per billion words), two decimals."""
    return round(math.log10(freq) + 9.0, 2)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA, help="folder to write into")
    args = parser.parse_args(argv)

    freq = wordfreq.get_frequency_dict("ja")
    candidates = {w: f for w, f in freq.items() if f > 0 and is_jukugo(w)}

    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    jmdict = {row[0] for row in db.execute("SELECT DISTINCT text FROM Kanji")}
    jmnedict = {row[0] for row in db.execute("SELECT DISTINCT text FROM NEKanji")}

    words = {w: zipf(f) for w, f in candidates.items() if w in jmdict}
    rows = sorted(words.items(), key=lambda item: (-item[1], item[0]))

    # name estimates: "names" are JMnedict headwords that JMdict does not list (wordfreq alone),
    # and, among the kept words, JMnedict headwords all of whose English glosses are capitalised
    # (proper nouns such as 東京 "Tokyo"): a word JMdict lists only as a name.
    pure_names = sum(1 for w in candidates if w in jmnedict and w not in jmdict)
    proper = _proper_nouns(db, [w for w, _ in rows if w in jmnedict])

    table = grades()
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "jukugo.tsv", "w", encoding="utf-8", newline="\n") as fh:
        fh.write("# word\tzipf  (built by data/build/jukugo.py; see data/jukugo.md)\n")
        for word, z in rows:
            fh.write(f"{word}\t{z:.2f}\n")
    with open(args.out / "kanji_grades.tsv", "w", encoding="utf-8", newline="\n") as fh:
        fh.write("# kanji\tgrade  (1-6 school grade, 7 other joyo, 8 jinmeiyo; "
                 "see data/jukugo.md)\n")
        for ch, grade in sorted(table.items(), key=lambda item: (item[1], item[0])):
            fh.write(f"{ch}\t{grade}\n")

    kept_kanji = {c for w, _ in rows for c in w}
    by_len = {n: sum(1 for w, _ in rows if len(w) == n) for n in range(MIN_LEN, MAX_LEN + 1)}
    grade_counts = {g: sum(1 for v in table.values() if v == g) for g in range(1, 9)}
    print(f"wordfreq ja entries:               {len(freq)}", file=sys.stderr)
    print(f"wordfreq 2-6 kanji words:          {len(candidates)}", file=sys.stderr)
    print(f"  of which JMnedict-only names:    {pure_names} "
          f"({100 * pure_names / len(candidates):.1f}%)", file=sys.stderr)
    print(f"kept (also JMdict headwords):      {len(rows)}", file=sys.stderr)
    print(f"  by length:                       {by_len}", file=sys.stderr)
    print(f"  in JMnedict too:                 {sum(1 for w, _ in rows if w in jmnedict)}",
          file=sys.stderr)
    print(f"  proper nouns (JMnedict + all glosses capitalised): {len(proper)} "
          f"({100 * len(proper) / len(rows):.1f}%)", file=sys.stderr)
    print(f"distinct kanji in kept words:      {len(kept_kanji)}", file=sys.stderr)
    print(f"grades stored:                     {grade_counts} (total {len(table)})",
          file=sys.stderr)
    return 0


def _proper_nouns(db: sqlite3.Connection, words: list[str]) -> list[str]:
    found = []
    for word in words:
        glosses = [row[0] for row in db.execute(
            "SELECT g.text FROM Kanji k JOIN Sense s ON s.idseq = k.idseq "
            "JOIN SenseGloss g ON g.sid = s.ID WHERE k.text = ?", (word,))]
        if glosses and all(g[:1].isupper() for g in glosses):
            found.append(word)
    return found


if __name__ == "__main__":
    sys.exit(main())
