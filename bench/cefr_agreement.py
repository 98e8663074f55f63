"""How well the default CEFR levels agree with expert lists (CEFR-J 1.5 A1-B2, Octanove C1/C2).

    python bench/cefr_agreement.py            # prints markdown tables
    python bench/cefr_agreement.py --reference /work/shared/reference/cefrj   # from a worktree

The expert lists are evaluation data: they are read from ../shared/reference/cefrj/ (beside the
checkout) and never copied into the project; without them this prints a message and exits 0.

Reference words: every '/'-separated variant of a headword that is one lowercase a-z word
(multi-word, hyphenated, capitalised and dotted headwords such as 'a.m./A.M./am/AM' -> 'am' only
keep their plain variants); a word listed several times (once per part of speech, or in both
lists) takes its lowest level, as a learner meets it first there.

A word's predicted level is the one `wfkit rarity` uses by default (its own rule engine and
tables): its CEFR level in data/english.tsv, else its lemma's, else the level implied by the
article's Zipf rule (the tier the Zipf rule gives, read back through the CEFR-to-tier map:
N=A1 ... LG=C2).

Reported:
  (a) coverage and agreement: how many reference words the shipped table gives a level of its
      own (or through its lemma), and how many of those at the reference's level; this checks
      that the build kept the expert levels (studyforge-vocab carries the same two lists);
  (b) the whole default pipeline (table, lemma, then the Zipf rule) against the lists, beside
      the Zipf rule alone;
  (c) the tier histogram (catalogue tiers N..LG, and battle tiers) of wordfreq's 20,000 most
      frequent English words that are lowercase a-z, and of every playable word, with the
      deciding rule: what a game maker gets from the catalogue;
  (d) the article's seven words; (e) table sizes and levels outside the expert lists.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import sys
from collections import Counter
from pathlib import Path

from wordforge_cli.io.paths import data_file
from wordforge_cli.wordforge.english import open_tables, read_rules
from wordforge_cli.wordforge.rarity import rate

# the checkout's sibling shared/ folder, as tests/conftest.py finds it
REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "cefrj"
LISTS = ("cefrj-vocabulary-profile-1.5.csv", "octanove-vocabulary-profile-c1c2-1.0.csv")
LEVELS = ("A1", "A2", "B1", "B2", "C1", "C2")
ARTICLE_SIZES = {"A1": 600, "A2": 800, "B1": 707, "B2": 721, "C1": 784, "C2": 706}
WORD = re.compile(r"[a-z]+")
# The article's worked table (its own CEFR table and API): word -> catalogue tier label.
ARTICLE_WORDS = {"cat": "N", "pizza": "C", "serendipity": "R", "xylophone": "SR",
                 "ephemeral": "UR", "aesthetic": "LG", "labyrinth": "LG"}


def reference_dir(folder: Path = REFERENCE) -> Path | None:
    return folder if all((folder / name).is_file() for name in LISTS) else None


def read_reference(folder: Path) -> tuple[dict[str, str], Counter]:
    """word -> lowest level over both lists; and what was skipped."""
    levels: dict[str, str] = {}
    skipped: Counter = Counter()
    for name in LISTS:
        with open(folder / name, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                level = row["CEFR"].strip()
                if level not in LEVELS:
                    skipped["unknown level"] += 1
                    continue
                variants = [v.strip() for v in row["headword"].split("/")]
                plain = [v for v in variants if WORD.fullmatch(v)]
                if not plain:
                    skipped["no single-word lowercase variant"] += 1
                for word in plain:
                    if word not in levels or LEVELS.index(level) < LEVELS.index(levels[word]):
                        levels[word] = level
    return levels, skipped


def predict(words: list[str], tables, rules,
            cefr: dict[str, str] | None) -> dict[str, tuple[str, str, str]]:
    """word -> (predicted level, deciding rule, catalogue tier label), by wfkit's own rule;
    ``cefr`` replaces the shipped levels (as `--cefr FILE` does), None keeps them."""
    tier_level = {tier: level for level, tier in sorted(rules.cefr.items(), reverse=True)}
    tables = dataclasses.replace(tables, cefr=cefr)
    out = {}
    for word in words:
        rating = rate(word, rules, tables)
        out[word] = (rating.cefr or tier_level[rating.tier], rating.source,
                     rules.tiers[rating.tier].label)
    return out


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def histogram(words, tables, rules) -> tuple[Counter, Counter, Counter, int]:
    """Catalogue tiers, battle tiers and deciding rules of the playable ones; not playable."""
    tiers, battle, source = Counter(), Counter(), Counter()
    not_playable = 0
    for word in words:
        rating = rate(word, rules, tables)
        if not rating.playable:
            not_playable += 1
            continue
        tiers[rating.tier] += 1
        battle[rating.battle_tier] += 1
        source[rating.source] += 1
    return tiers, battle, source, not_playable


def main(argv: list[str] | None = None) -> int:
    import argparse

    import wordfreq

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=REFERENCE,
                        help="folder of the two expert CSVs (default: ../shared/reference/cefrj "
                        "beside the checkout)")
    args = parser.parse_args(argv)

    rules = read_rules()
    tables = open_tables(rules, whole=True)
    table = tables.words
    labels = [t.label for t in rules.tiers]

    print("### Tier histograms\n")
    top = [w for w in wordfreq.top_n_list("en", 20000) if WORD.fullmatch(w)]
    rows = {f"wordfreq top 20,000 (a-z: {len(top)})": top, f"all playable ({len(table)})": table}
    print("| words | not playable | " + " | ".join(labels) + " | battle: "
          + " | battle: ".join(labels) + " | by CEFR | by Zipf |")
    print("|---|---:|" + "---:|" * (2 * len(labels) + 2))
    for name, words in rows.items():
        tiers, battle, source, missing = histogram(sorted(words), tables, rules)
        cells = [name, f"{missing:,}"] + [f"{tiers[i]:,}" for i in range(len(labels))]
        cells += [f"{battle[i]:,}" for i in range(len(labels))]
        cells += [f"{source['cefr']:,}", f"{source['zipf']:,}"]
        print("| " + " | ".join(cells) + " |")
    print()

    folder = reference_dir(args.reference)
    if folder is None:
        print("skipped the agreement: the expert lists are not there (../shared/reference/cefrj/)")
        return 0
    reference, skipped = read_reference(folder)
    words = sorted(reference)

    setups: dict[str, dict[str, str] | None] = {"shipped": None, "zipf only": {}}
    results = {name: predict(words, tables, rules, cefr) for name, cefr in setups.items()}
    article = {name: predict(list(ARTICLE_WORDS), tables, rules, cefr)
               for name, cefr in setups.items()}

    by_level = {lv: [w for w in words if reference[w] == lv] for lv in LEVELS}
    playable = sum(1 for w in words if table.get(w) is not None)
    print(f"Reference: {len(words)} single words ({playable} playable); "
          f"headword rows with no single-word variant skipped: "
          f"{skipped['no single-word lowercase variant']}.\n")

    print("### (a) Coverage and agreement of the shipped table (the word's level, else its "
          "lemma's)\n")
    print("| reference | words | covered | exact | within 1 | covered, own level | exact |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for lv in LEVELS + ("all",):
        group = words if lv == "all" else by_level[lv]
        hits = [w for w in group if results["shipped"][w][1] == "cefr"]
        exact = sum(results["shipped"][w][0] == reference[w] for w in hits)
        near = sum(abs(LEVELS.index(results["shipped"][w][0]) - LEVELS.index(reference[w])) <= 1
                   for w in hits)
        own = [w for w in group if table.get(w) is not None and table[w][1]]
        own_exact = sum(table[w][1] == reference[w] for w in own)
        print(f"| {lv} | {len(group)} | {pct(len(hits), len(group))} | {pct(exact, len(hits))} "
              f"| {pct(near, len(hits))} | {pct(len(own), len(group))} "
              f"| {pct(own_exact, len(own))} |")

    print("\n### (b) The whole default pipeline (table, lemma, then the Zipf rule)\n")
    print("| reference | words | " + " | ".join(
        f"{n}: exact | {n}: within 1" for n in setups) + " |")
    print("|---|---:|" + "---:|---:|" * len(setups))
    for lv in LEVELS + ("all",):
        group = words if lv == "all" else by_level[lv]
        cells = [lv, str(len(group))]
        for name in setups:
            exact = sum(results[name][w][0] == reference[w] for w in group)
            near = sum(abs(LEVELS.index(results[name][w][0]) - LEVELS.index(reference[w])) <= 1
                       for w in group)
            cells += [pct(exact, len(group)), pct(near, len(group))]
        print("| " + " | ".join(cells) + " |")

    print("\n### The article's seven words (its tier; each set-up's tier and deciding rule)\n")
    print("| word | article | " + " | ".join(setups) + " |")
    print("|---|---|" + "---|" * len(setups))
    for word, label in ARTICLE_WORDS.items():
        cells = [f"{article[n][word][2]} ({article[n][word][1]})" for n in setups]
        print(f"| {word} | {label} | " + " | ".join(cells) + " |")
    same = [sum(article[n][w][2] == lb for w, lb in ARTICLE_WORDS.items()) for n in setups]
    print("| same as the article | 7 | " + " | ".join(map(str, same)) + " |")

    print("\n### Table sizes: the article's CEFR table vs data/english.tsv\n")
    shipped, confirmed, outside = Counter(), Counter(), Counter()
    with open(data_file("english.tsv"), encoding="utf-8") as fh:
        for line in fh:
            word, level = line.split("\t", 2)[:2]
            if level:
                shipped[level] += 1
                confirmed[level] += reference.get(word) == level
                outside[level] += word not in reference
    print("| level | article | shipped | shipped, same level in the lists | in no list |")
    print("|---|---:|---:|---:|---:|")
    for lv in LEVELS:
        print(f"| {lv} | {ARTICLE_SIZES[lv]} | {shipped[lv]} | {confirmed[lv]} | {outside[lv]} |")
    print(f"| all | {sum(ARTICLE_SIZES.values())} | {sum(shipped.values())} | "
          f"{sum(confirmed.values())} | {sum(outside.values())} |")
    print(f"\nWords in no expert list that carry A1/A2: {outside['A1'] + outside['A2']} "
          "(bar: at most 250).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
