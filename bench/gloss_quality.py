"""Samples of the Japanese glosses of data/english.tsv, and the tally of their hand judgements.

    python bench/gloss_quality.py sample --seed 1 > data/quality/gloss-random-seed1.tsv
    python bench/gloss_quality.py sample --seed 22 --min-zipf 3 > data/quality/gloss-z3-seed22.tsv
    python bench/gloss_quality.py top > data/quality/gloss-top100.tsv
    python bench/gloss_quality.py again data/quality/gloss-z3-seed22.tsv  # same words, table now
    python bench/gloss_quality.py report            # tallies every data/quality/gloss-*.tsv
    python bench/gloss_quality.py moves OLD.tsv --seed 3 --min-zipf 3   # 40 glosses a change moved

    # a trial build written elsewhere (data/build/english.py --evidence-only -o /tmp/ev.tsv):
    python bench/gloss_quality.py --table /tmp/ev.tsv sample --seed 10
    python bench/gloss_quality.py --table /tmp/ev.tsv report --glob 'trial-evidence-*.tsv'

A sample file is TSV: word, pos, gloss, verdict, reason. `sample` and `top` leave the verdict
and reason empty; a person fills them in, one word at a time: right (the gloss a learner would
give), odd (a real sense but not the word's everyday one, or a stiff/rare headword), wrong (not
a sense of the word, or of another part of speech than the word's), missing (no gloss). The
report also checks that each judged gloss is still the table's, so a rebuild that changes a
judged gloss shows up (judge that file again).

Random sample: 100 words drawn with random.Random(seed) from the words with a gloss, in table
order. Top: the 100 most frequent English words of wordfreq that are lowercase a-z and playable.
Moves: 40 words drawn with random.Random(seed) from those glossed in both OLD.tsv (a build before
a change) and the table whose part of speech or gloss differs, as word, old pos, old gloss,
old verdict, pos, gloss, verdict, better/worse/same, reason (verdicts left to fill in).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "data" / "english.tsv"
QUALITY = ROOT / "data" / "quality"
VERDICTS = ("right", "odd", "wrong", "missing")


def table() -> dict[str, list[str]]:
    rows = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        rows[fields[0]] = fields
    return rows


def sample(seed: int, n: int = 100, min_zipf: float = 0.0) -> list[list[str]]:
    rows = table()
    glossed = [w for w, f in rows.items() if f[4]]
    if min_zipf:
        import wordfreq

        glossed = [w for w in glossed if wordfreq.zipf_frequency(w, "en") >= min_zipf]
    return [rows[w] for w in sorted(random.Random(seed).sample(glossed, n))]


def again(path: Path) -> list[list[str]]:
    """The words of a judged sample with the table's gloss now: the verdict and reason kept
    where the gloss is the one judged, empty where it changed (to judge again)."""
    rows = table()
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        word, pos, gloss, verdict, reason = line.split("\t")
        now = rows.get(word, [word, "", "", "", ""])
        same = (now[3], now[4]) == (pos, gloss)
        out.append([word, now[3], now[4], verdict if same else "", reason if same else ""])
    return out


def moves(old: Path, seed: int, min_zipf: float = 0.0, n: int = 40) -> list[list[str]]:
    import wordfreq

    rows = table()
    before = {line.split("\t")[0]: line.split("\t")
              for line in old.read_text(encoding="utf-8").splitlines()}
    moved = sorted(w for w, f in before.items() if f[4] and w in rows and rows[w][4]
                   and rows[w][3:5] != f[3:5] and wordfreq.zipf_frequency(w, "en") >= min_zipf)
    return [[w, before[w][3], before[w][4], "", rows[w][3], rows[w][4], "", "", ""]
            for w in sorted(random.Random(seed).sample(moved, min(n, len(moved))))]


def top(n: int = 100) -> list[list[str]]:
    import wordfreq

    rows = table()
    words = [w for w in wordfreq.top_n_list("en", 1000) if re.fullmatch(r"[a-z]+", w)
             and w in rows][:n]
    return [rows[w] for w in words]


def report(pattern: str = "gloss-*.tsv") -> int:
    rows = table()
    status = 0
    print("| sample | words | right | odd | wrong | missing |")
    print("|---|---:|---:|---:|---:|---:|")
    for path in sorted(QUALITY.glob(pattern)):
        tally: Counter = Counter()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            word, pos, gloss, verdict, _reason = line.split("\t")
            if verdict not in VERDICTS:
                print(f"{path.name}:{number}: verdict '{verdict}' not one of {VERDICTS}")
                status = 1
            now = rows.get(word)
            if now is None or now[3] != pos or now[4] != gloss:
                print(f"{path.name}:{number}: {word}: judged {pos} {gloss}, table now "
                      f"{now[3:5] if now else 'not playable'}: judge again")
                status = 1
            tally[verdict] += 1
        print(f"| {path.stem} | {sum(tally.values())} | "
              + " | ".join(str(tally[v]) for v in VERDICTS) + " |")
    return status


def main(argv: list[str] | None = None) -> int:
    global TABLE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, default=TABLE,
                        help="the word table to sample and check (default data/english.tsv)")
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("sample")
    one.add_argument("--seed", type=int, required=True)
    one.add_argument("--min-zipf", type=float, default=0.0,
                     help="draw only words wordfreq rates at least this Zipf")
    redo = sub.add_parser("again", help="a judged sample's words with the table's glosses now")
    redo.add_argument("file", type=Path)
    sub.add_parser("top")
    moved = sub.add_parser("moves", help="glosses that differ from an older build's, to judge")
    moved.add_argument("old", type=Path)
    moved.add_argument("--seed", type=int, required=True)
    moved.add_argument("--min-zipf", type=float, default=0.0)
    tally = sub.add_parser("report")
    tally.add_argument("--glob", default="gloss-*.tsv",
                       help="which files of data/quality/ (default gloss-*.tsv)")
    args = parser.parse_args(argv)
    TABLE = args.table
    if args.what == "report":
        return report(args.glob)
    if args.what == "moves":
        for fields in moves(args.old, args.seed, args.min_zipf):
            print("\t".join(fields))
        return 0
    if args.what == "again":
        for fields in again(args.file):
            print("\t".join(fields))
        return 0
    rows = sample(args.seed, min_zipf=args.min_zipf) if args.what == "sample" else top()
    for fields in rows:
        print("\t".join((fields[0], fields[3], fields[4], "", "")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
