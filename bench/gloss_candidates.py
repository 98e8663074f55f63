"""Every Japanese candidate the build sees for the judged glosses, and how candidate rankings do.

    python bench/gloss_candidates.py list braces division      # every candidate, with its signals
    python bench/gloss_candidates.py measure                   # the rules below on the judged rows

Development data, not a test: the ~1,200 judged rows of data/quality/*gloss*.tsv (word, part of
speech, gloss, verdict, and for a gloss not right often a note naming the better Japanese word,
"a list is リスト or 一覧"). For each judged word whose gloss is still the table's, `measure`
says whether any candidate of the build is a word the note names ("reachable"), and, for each
alternative ranking rule below, which judged glosses it would move: from a right, odd or wrong
gloss to a word a note names as better, to another judged gloss, or to a word no one judged.

A candidate is one JMdict sense glossed by the English word (or by its lemma, for an inflected
form), with what the build ranks it by (data/english.md): sense index, gloss position and
count, exact match, part of speech, field and misc tags, ke_pri/re_pri priority, wordfreq 'ja'
Zipf of the headword, katakana loan or not, rare kanji, and the build's own sort keys.

It needs the build extras (`pip install -e '.[build]'`); the playable words and lemmas are read
from data/english.tsv, and the glosses the build would give them are checked against the table
first (a mismatch stops it: the table is stale or the build changed).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "data" / "build"))

import english as build  # noqa: E402  (data/build/english.py)

TABLE = ROOT / "data" / "english.tsv"
QUALITY = ROOT / "data" / "quality"
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff々ー〜]+")
Candidate = dict[str, Any]
Rule = Callable[[Candidate, list[Candidate]], Candidate | None]


def norm(head: str) -> str:
    """A headword as a note names it: 馬鹿な, 簡単に, 破門する are 馬鹿, 簡単, 破門."""
    for suffix in ("する", "な", "に", "の"):
        if head.endswith(suffix) and len(head) > len(suffix):
            return head[: -len(suffix)]
    return head


class Build:
    """The build's gloss step over the shipped table's words, with every candidate kept."""

    def __init__(self) -> None:
        self.rows = {line.split("\t")[0]: line.split("\t")
                     for line in TABLE.read_text(encoding="utf-8").splitlines()}
        wheel = build.studyforge_wheel(Path(tempfile.gettempdir()) / "wfkit-build")
        ecdict, _forms = build.ecdict_rows(wheel)
        _levels, tags, self.per_tag = build.cefrpy_levels()
        chinese = build.with_japanese_forms(
            {w: build.chinese_translations(e[3]) for w, e in ecdict.items()})
        self.every: list[Candidate] = []
        self.senses = build.gloss_senses(set(self.rows), tags, chinese, self.every)
        self.listed = {w: frozenset({build.ZH_POS[p] for p in e[0].split("/") if p in build.ZH_POS}
                                    | set(chinese[w]) - {""}) for w, e in ecdict.items()}
        self.table = build.function_words()
        self.cands: dict[tuple[str, str], list[Candidate]] = defaultdict(list)
        for c in self.every:
            noun = c["head"].removesuffix("する") if c["via"] else c["head"]
            c["noun"] = noun
            c["zipf"] = math.log10(c["ja_freq"]) + 9 if c["ja_freq"] else 0.0
            c["katakana"] = bool(build.KATAKANA.fullmatch(noun))
            c["rare_kanji"] = build.rare_kanji(noun)
            c["fringe"] = sorted(set(c["misc"]) & build.FRINGE_SENSE)
            k = c["sense_key"]
            # what no rule below may overturn: an exact match, no field tag on a common word,
            # a whole word, an everyday sense, not grammatical
            c["hard"] = (k[0], k[1], c["pos"] in build.BOUND_POS, bool(c["fringe"]),
                         c["grammatical"])
            self.cands[(c["word"], c["pos"])].append(c)
        for per in self.cands.values():
            per.sort(key=lambda c: c["sense_key"])
        stale = [w for w, f in self.rows.items() if list(self.gloss(w, self.senses)) != f[3:5]]
        if stale:
            raise SystemExit(f"{len(stale)} glosses differ from data/english.tsv "
                             f"({', '.join(stale[:5])}): rebuild the table first")

    def gloss(self, word: str, senses: dict[str, dict[str, tuple[Any, ...]]]) -> tuple[str, str]:
        return build.word_gloss(word, self.rows[word][2], senses, self.table, self.per_tag,
                                self.listed)

    def reranked(self, rule: Rule) -> dict[str, dict[str, tuple[Any, ...]]]:
        """The senses with each part of speech's headword as ``rule`` picks it (None: the
        build's own pick)."""
        out: dict[str, dict[str, tuple[Any, ...]]] = {}
        for word, per in self.senses.items():
            out[word] = {}
            for pos, (key, _head, sense_key, _trust) in per.items():
                cs = self.cands[(word, pos)]
                pick = rule(cs[0], cs) or cs[0]
                out[word][pos] = (key, pick["head"], sense_key, pick["trust"])
        return out


def judged() -> dict[tuple[str, str, str], tuple[str, set[str], str]]:
    """(word, pos, gloss) -> (verdict, the better words its note names, file), the last file's
    verdict where two judged the same gloss."""
    out = {}
    for path in sorted(QUALITY.glob("*gloss*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            word, pos, gloss, verdict, note = line.split("\t")
            if not gloss:
                continue
            better = set()
            if verdict != "right" and ";" in note:
                better = {norm(x) for x in JAPANESE.findall(note.rsplit(";", 1)[1])} - {norm(gloss)}
            out[(word, pos, gloss)] = (verdict, better, path.name)
    return out


def signals(c: Candidate) -> str:
    tags = ",".join(c["fringe"] + (["field"] if c["field"] else []))
    return (f"{c['head']}\tzipf {c['zipf']:.1f}\tpri {c['priority']}\tsense {c['sense_order']}"
            f"\tgloss {c['gloss_pos'] + 1}/{c['gloss_count']}\t{'kata' if c['katakana'] else ''}"
            f"\t{tags}\tvia {c['via']}\t{c['gloss']}")


# ------------------------------------------------------------------ alternative rules
# Each takes the build's pick (the first of the part of speech's candidates in the build's
# order) and all the candidates, and returns another candidate or None (keep the build's).

def same_tier(cur: Candidate, cs: list[Candidate]) -> list[Candidate]:
    return [c for c in cs if c["hard"] == cur["hard"] and c is not cur]


def first_gloss(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """A sense whose first gloss is the word, over one where it is a later gloss."""
    if cur["gloss_pos"] < 2:
        return None
    alts = [c for c in same_tier(cur, cs) if c["gloss_pos"] == 0]
    return alts[0] if alts else None


def only_gloss(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """A sense that is this word alone (its one gloss), over one among several."""
    if cur["gloss_count"] == 1 or cur["gloss_pos"] == 0:
        return None
    alts = [c for c in same_tier(cur, cs) if c["gloss_count"] == 1
            and c["priority"] <= cur["priority"] + 1 and not c["katakana"]]
    return alts[0] if alts else None


def more_frequent(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """A headword 10 times more frequent in wordfreq 'ja' (1 Zipf), no later a gloss."""
    alts = [c for c in same_tier(cur, cs) if c["zipf"] >= cur["zipf"] + 1.0
            and c["gloss_pos"] <= cur["gloss_pos"] and c["priority"] <= cur["priority"]]
    return max(alts, key=lambda c: c["zipf"]) if alts else None


def compound_over_kanji(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """A word of 2+ characters over a lone kanji (族 'clan', 木 'shrub')."""
    if len(cur["noun"]) != 1:
        return None
    alts = [c for c in same_tier(cur, cs) if len(c["noun"]) >= 2]
    return alts[0] if alts else None


def main_sense(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """An entry's first sense, the word its first or second gloss, over a later sense."""
    if cur["sense_order"] == 0:
        return None
    alts = [c for c in same_tier(cur, cs) if c["sense_order"] == 0 and c["gloss_pos"] <= 1]
    return alts[0] if alts else None


def loanword_in_use(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """A katakana loan that is the sense's one gloss and 3 times more frequent (0.5 Zipf)."""
    if cur["katakana"]:
        return None
    alts = [c for c in same_tier(cur, cs) if c["katakana"] and c["gloss_count"] == 1
            and c["zipf"] >= cur["zipf"] + 0.5]
    return alts[0] if alts else None


def score(c: Candidate) -> float:
    """A weighted sum of the signals, its weights found by a hill-climb on these rows (the
    counts of moves from bad glosses less those from right ones) and rounded: an entry's first
    sense 3, the word the sense's first gloss 2 (second 1), its only gloss 0.5, a priority-
    tagged entry 1, a quarter point per wordfreq 'ja' Zipf step (up to 6; a compound of 3+
    characters wordfreq never saw, as it splits long compounds, counts as Zipf 1.5), less 0.75 for a
    katakana loan, 1 for a kanji outside the jōyō list, 0.5 for a lone kanji."""
    zipf = c["zipf"] if c["zipf"] > 0 else 1.5 * (len(c["noun"]) >= 3)
    return (3.0 * (c["sense_order"] == 0) + 2.0 * (c["gloss_pos"] == 0)
            + 1.0 * (c["gloss_pos"] == 1) + 0.5 * (c["gloss_count"] == 1)
            + 1.0 * (c["priority"] < 2) + 0.25 * min(zipf, 6.0)
            - 0.75 * c["katakana"] - 1.0 * c["rare_kanji"] - 0.5 * (len(c["noun"]) == 1))


def score_margin(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """The best-scored candidate when it beats the build's pick by a point (judged by hand:
    data/quality/trial-score-margin-gloss-moves.tsv)."""
    alts = [c for c in same_tier(cur, cs) if score(c) >= score(cur) + 1.0]
    return max(alts, key=score) if alts else None


def score_only(cur: Candidate, cs: list[Candidate]) -> Candidate | None:
    """The best-scored candidate, ties to the build's order: the score alone decides."""
    best = max([cur, *same_tier(cur, cs)], key=score)
    return None if best is cur else best


RULES: dict[str, Rule] = {f.__name__: f for f in (
    first_gloss, only_gloss, more_frequent, compound_over_kanji, main_sense, loanword_in_use,
    score_margin, score_only)}


def measure(b: Build, show: str | None) -> None:
    rows = judged()
    current = {k: v for k, v in rows.items() if b.rows.get(k[0], [""] * 5)[3:5] == [k[1], k[2]]}
    reach: Counter[tuple[str, bool]] = Counter()
    for (word, pos, _gloss), (verdict, better, _file) in current.items():
        lemma = b.rows[word][2]
        heads = {norm(c["head"]) for src in (lemma, word) for c in b.cands.get((src, pos), [])}
        reach[(verdict, bool(heads & better))] += 1
    verdicts = Counter(v for v, _b, _f in current.values())
    print(f"judged rows whose gloss is the table's: {len(current)} "
          f"({dict(sorted(verdicts.items()))})")
    for verdict in ("odd", "wrong"):
        print(f"  {verdict}: a word the note names is a candidate for {reach[(verdict, True)]} "
              f"of {verdicts[verdict]}")
    print("\n| rule | right -> better/judged right | right -> judged bad | right -> unjudged "
          "| bad -> better/judged right | bad -> unjudged | bad -> judged bad |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rule in RULES.items():
        senses = b.reranked(rule)
        out: Counter[str] = Counter()
        for (word, pos, gloss), (verdict, better, _file) in sorted(current.items()):
            new_pos, new = b.gloss(word, senses)
            if new == gloss:
                continue
            other = rows.get((word, new_pos, new))
            to = ("good" if norm(new) in better or other and other[0] == "right"
                  else "bad" if other else "unjudged")
            side = "right" if verdict == "right" else "bad"
            out[f"{side}->{to}"] += 1
            if show == name:
                print(f"  {word}\t{pos}\t{gloss} ({verdict})\t-> {new}\t{to}")
        print(f"| {name} | {out['right->good']} | {out['right->bad']} | {out['right->unjudged']} "
              f"| {out['bad->good']} | {out['bad->unjudged']} | {out['bad->bad']} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("list")
    one.add_argument("words", nargs="+")
    rate = sub.add_parser("measure")
    rate.add_argument("--show", choices=sorted(RULES), help="print the glosses this rule moves")
    args = parser.parse_args(argv)
    b = Build()
    if args.what == "measure":
        measure(b, args.show)
        return 0
    for word in args.words:
        lemma = b.rows[word][2] if word in b.rows else ""
        print(f"{word}: table {b.rows.get(word, ['', '', '', '', ''])[3:5]}"
              + (f", candidates of its lemma {lemma}" if lemma else ""))
        for (src, pos), cs in sorted(b.cands.items()):
            if src in (word, lemma):
                for c in cs:
                    print(f"  {src}\t{pos}\t{signals(c)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
