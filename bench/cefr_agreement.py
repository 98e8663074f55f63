"""How well the default CEFR levels agree with expert lists (CEFR-J 1.5 A1-B2, Octanove C1/C2).

    python bench/cefr_agreement.py            # prints markdown tables

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

Compared set-ups (same rule engine, only the CEFR table changes):
  shipped     data/english.tsv (cefrpy levels that are CEFR-J's; the rest left to Zipf)
  zipf only   no CEFR table at all
  cefrpy A1-B2  every cefrpy level A1..B2, guesses included        (needs cefrpy)
  cefrpy all    every cefrpy level, C1/C2 frequency guesses too     (needs cefrpy)
"""

from __future__ import annotations

import csv
import dataclasses
import re
import sys
from collections import Counter
from pathlib import Path

from wordforge_cli.english import open_tables, read_rules
from wordforge_cli.paths import data_file
from wordforge_cli.rarity import rate

# the checkout's sibling shared/ folder, as tests/conftest.py finds it
REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "cefrj"
LISTS = ("cefrj-vocabulary-profile-1.5.csv", "octanove-vocabulary-profile-c1c2-1.0.csv")
LEVELS = ("A1", "A2", "B1", "B2", "C1", "C2")
ARTICLE_SIZES = {"A1": 600, "A2": 800, "B1": 707, "B2": 721, "C1": 784, "C2": 706}
WORD = re.compile(r"[a-z]+")
# The article's worked table (its own CEFR table and API): word -> catalogue tier label.
ARTICLE_WORDS = {"cat": "N", "pizza": "C", "serendipity": "R", "xylophone": "SR",
                 "ephemeral": "UR", "aesthetic": "LG", "labyrinth": "LG"}


def reference_dir() -> Path | None:
    return REFERENCE if all((REFERENCE / name).is_file() for name in LISTS) else None


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


def cefrpy_tables() -> tuple[dict[str, str], dict[str, str]] | None:
    """Naive use of cefrpy: each word's lowest level rounded, all of it / A1..B2 only."""
    try:
        import cefrpy
    except ImportError:
        return None
    lowest: dict[str, float] = {}
    for word, _pos, level in cefrpy.CEFRDataProcessor().yield_word_pos_level():
        if word not in lowest or level < lowest[word]:
            lowest[word] = level
    everything = {w: LEVELS[round(v) - 1] for w, v in lowest.items()}
    easy = {w: lv for w, lv in everything.items() if LEVELS.index(lv) <= 3}
    return everything, easy


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


def main() -> int:
    folder = reference_dir()
    if folder is None:
        print("skipped: the expert lists are not there (../shared/reference/cefrj/)")
        return 0
    reference, skipped = read_reference(folder)
    words = sorted(reference)
    rules = read_rules()
    tables = open_tables(rules, whole=True)
    table = tables.words

    setups: dict[str, dict[str, str] | None] = {"shipped": None}
    naive = cefrpy_tables()
    setups["zipf only"] = {}
    if naive is not None:
        setups["cefrpy A1-B2"] = naive[1]
        setups["cefrpy all"] = naive[0]
    results = {name: predict(words, tables, rules, cefr) for name, cefr in setups.items()}
    article = {name: predict(list(ARTICLE_WORDS), tables, rules, cefr)
               for name, cefr in setups.items()}

    by_level = {lv: [w for w in words if reference[w] == lv] for lv in LEVELS}
    playable = sum(1 for w in words if table.get(w) is not None)
    print(f"Reference: {len(words)} single words ({playable} playable); "
          f"headword rows with no single-word variant skipped: "
          f"{skipped['no single-word lowercase variant']}.\n")

    print("### (a) The CEFR table alone (the word's level, else its lemma's)\n")
    print("| reference | words | " + " | ".join(
        f"{n}: covered | {n}: exact | {n}: within 1" for n in setups if n != "zipf only") + " |")
    print("|---|---:|" + "---:|---:|---:|" * (len(setups) - 1))
    for lv in LEVELS + ("all",):
        group = words if lv == "all" else by_level[lv]
        cells = [lv, str(len(group))]
        for name in setups:
            if name == "zipf only":
                continue
            hits = [w for w in group if results[name][w][1] == "cefr"]
            exact = sum(results[name][w][0] == reference[w] for w in hits)
            near = sum(abs(LEVELS.index(results[name][w][0]) - LEVELS.index(reference[w])) <= 1
                       for w in hits)
            cells += [pct(len(hits), len(group)), pct(exact, len(hits)), pct(near, len(hits))]
        print("| " + " | ".join(cells) + " |")

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
    if naive is None:
        print("\n(cefrpy is not installed: the 'cefrpy' set-ups need `pip install cefrpy==1.0.3`)")

    print("\n### The article's seven words (its tier; each set-up's tier and deciding rule)\n")
    print("| word | article | " + " | ".join(setups) + " |")
    print("|---|---|" + "---|" * len(setups))
    for word, label in ARTICLE_WORDS.items():
        cells = [f"{article[n][word][2]} ({article[n][word][1]})" for n in setups]
        print(f"| {word} | {label} | " + " | ".join(cells) + " |")
    same = [sum(article[n][w][2] == lb for w, lb in ARTICLE_WORDS.items()) for n in setups]
    print("| same as the article | 7 | " + " | ".join(map(str, same)) + " |")

    print("\n### Table sizes: the article's CEFR table vs data/english.tsv\n")
    shipped, confirmed = Counter(), Counter()
    with open(data_file("english.tsv"), encoding="utf-8") as fh:
        for line in fh:
            word, level = line.split("\t", 2)[:2]
            if level:
                shipped[level] += 1
                confirmed[level] += reference.get(word) == level
    print("| level | article | shipped | shipped, same level in the lists |"
          + (" cefrpy all |" if naive else ""))
    print("|---|---:|---:|---:|" + ("---:|" if naive else ""))
    naive_sizes = Counter(naive[0].values()) if naive else Counter()
    for lv in LEVELS:
        extra = f" {naive_sizes[lv]} |" if naive else ""
        print(f"| {lv} | {ARTICLE_SIZES[lv]} | {shipped[lv]} | {confirmed[lv]} |{extra}")
    total_extra = f" {sum(naive_sizes.values())} |" if naive else ""
    print(f"| all | {sum(ARTICLE_SIZES.values())} | {sum(shipped.values())} | "
          f"{sum(confirmed.values())} |{total_extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
