"""Which strings data/english.tsv lets a player play, measured on samples judged by hand.

    python bench/playable_quality.py missing                  # count of wordfreq's top 20,000
                                                              # a-z words that are not playable
    python bench/playable_quality.py missing --sample 100 --seed 22 \\
        > data/quality/playable-missing-top20k-seed22.tsv     # a sample of them, to judge
    python bench/playable_quality.py sample --seed 22 \\
        > data/quality/playable-random-seed22.tsv             # 100 random playable words
    python bench/playable_quality.py report                   # tallies every judged file
    python bench/playable_quality.py agree                    # forms whose lemma does not play

A sample file is TSV: word, zipf, verdict, reason; the script leaves verdict and reason empty
and a person fills them in, one word at a time.

- A not-playable word (`missing`) is judged `out` when it is rightly not playable, with the
  reason's first word saying why: name (a proper noun or a demonym), abbreviation (an
  initialism, a clipped form a dictionary marks as an abbreviation, a unit symbol), fragment
  (a piece of a contraction or possessive: didn, womens), typo (a misspelling of another
  word), foreign (a word of another language's text), nonword (a token that is no English
  word: interjection spellings, web tokens); or `word` when it is an English word a
  dictionary lists that should play.
- A playable word (`sample`) is judged `dict` when a dictionary lists it (Webster's, Collins,
  Wiktionary, or it is a regular form of a headword of one), or `nodict` when none does.

`agree` (needs the build extras: simplemma, and data/build/english.py's spelling rule) lists
the playable words that are a regular form (-s, -ed, -ing, -er, -est) of simplemma's lemma
for them while that lemma, a string wordfreq sees (Zipf >= 1), is not playable: a form and
its lemma that disagree (quaters playable, quater not).

The top 20,000: wordfreq's English list in its order, lowercase a-z tokens only (what a
player can type), the first 20,000 of them.
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
WORD = re.compile(r"[a-z]+")
MISSING_VERDICTS = ("out", "word")
SAMPLE_VERDICTS = ("dict", "nodict")


def playable(table: Path) -> list[str]:
    return [line.split("\t", 1)[0]
            for line in table.read_text(encoding="utf-8").splitlines()]


def top_words(n: int) -> list[str]:
    import wordfreq

    words = [w for w in wordfreq.top_n_list("en", 4 * n) if WORD.fullmatch(w)]
    if len(words) < n:
        raise SystemExit(f"wordfreq lists only {len(words)} a-z words in its top {4 * n}")
    return words[:n]


def zipf(word: str) -> str:
    import wordfreq

    return f"{wordfreq.zipf_frequency(word, 'en'):.2f}"


def missing(table: Path, top: int) -> list[str]:
    words = set(playable(table))
    return [w for w in top_words(top) if w not in words]


def disagreeing(table: Path) -> list[tuple[str, str]]:
    import simplemma
    import wordfreq

    sys.path.insert(0, str(ROOT / "data" / "build"))
    from english import regular_forms  # type: ignore[import-not-found]

    words = set(playable(table))
    out = []
    for word in sorted(words):
        lemma = simplemma.lemmatize(word, lang="en")
        if (lemma != word and WORD.fullmatch(lemma) and lemma not in words
                and word in regular_forms(lemma) and wordfreq.zipf_frequency(lemma, "en") >= 1):
            out.append((word, lemma))
    return out


def report(pattern: str) -> list[str]:
    lines = []
    for path in sorted(QUALITY.glob(pattern)):
        verdicts: Counter[str] = Counter()
        reasons: Counter[str] = Counter()
        rows = [ln.split("\t") for ln in path.read_text(encoding="utf-8").splitlines() if ln]
        for at, fields in enumerate(rows, 1):
            if len(fields) != 4:
                raise SystemExit(f"{path}:{at}: expected 4 tab-separated fields")
            verdicts[fields[2] or "(unjudged)"] += 1
            if fields[2] == "out":
                reasons[fields[3].split(" ", 1)[0].rstrip(":,;")] += 1
        tally = ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items()))
        why = ", ".join(f"{k} {v}" for k, v in reasons.most_common())
        lines.append(f"{path.name}: {len(rows)} words: {tally}" + (f" (out: {why})" if why else ""))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, default=TABLE)
    sub = parser.add_subparsers(dest="command", required=True)
    miss = sub.add_parser("missing", help="wordfreq's top a-z words that are not playable")
    miss.add_argument("--top", type=int, default=20000)
    miss.add_argument("--sample", type=int, metavar="N", help="draw N of them to judge")
    miss.add_argument("--seed", type=int, default=0)
    samp = sub.add_parser("sample", help="random playable words to judge")
    samp.add_argument("--seed", type=int, required=True)
    samp.add_argument("-n", type=int, default=100)
    sub.add_parser("agree", help="playable forms whose lemma is not playable")
    rep = sub.add_parser("report", help="tally the judged files")
    rep.add_argument("--glob", default="playable-*.tsv")
    args = parser.parse_args(argv)
    out = sys.stdout
    if args.command == "missing":
        words = missing(args.table, args.top)
        if args.sample is None:
            print(f"{len(words)} of wordfreq's top {args.top} a-z words are not playable")
            print(" ".join(words))
            return 0
        chosen = random.Random(args.seed).sample(words, min(args.sample, len(words)))
        for word in chosen:  # in the draw's order
            out.write(f"{word}\t{zipf(word)}\t\t\n")
    elif args.command == "sample":
        words = playable(args.table)
        for word in sorted(random.Random(args.seed).sample(words, args.n)):
            out.write(f"{word}\t{zipf(word)}\t\t\n")
    elif args.command == "agree":
        pairs = disagreeing(args.table)
        print(f"{len(pairs)} playable forms whose lemma is not playable")
        print(" ".join(f"{form}/{lemma}" for form, lemma in pairs))
    else:
        print("\n".join(report(args.glob)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
