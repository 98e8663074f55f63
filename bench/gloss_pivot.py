"""Pivot votes for a gloss, the build's rule and others, measured on the judged rows.

    python bench/gloss_pivot.py --cache DIR            # the ceiling and each rule's moves
    python bench/gloss_pivot.py --cache DIR --show     # the moves themselves

The build's Pivot (data/build/english.py) counts, for each candidate of a vote, how many of
the pivot languages (Finnish, Polish, Greek: WikDict's dictionaries from their own
Wiktionaries) reach it from the English word (book -> kirja -> 本). The build ships one rule
(a noun's winner that none reaches yields to a candidate all three reach); this script runs
the build's gloss step without it, as bench/gloss_reverse_rank.py does, and counts on the
judged rows a vote decided what each rule below does: a rule replaces the vote's winner with
the candidate it names. A move's new gloss is counted by the verdict another judged row gives
it, else as not judged (data/quality/trial-pivot-gloss-moves.tsv holds judged candidates).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "data" / "build"))

import english as build  # noqa: E402  (data/build/english.py)
from gloss_reverse_rank import QUALITY, Decided, judged_votes, print_moves  # noqa: E402


def key(ballot: Any) -> str:
    """A ballot's headword as Pivot.counts spells it."""
    return str(build.pivot_normal(build.bare(ballot.head)))


Rule = Callable[[Any, list[Any], dict[str, int], str], Any]


def named(least: int, nouns_only: bool) -> Rule:
    """The candidate most languages name, at least ``least``, over a winner none names."""
    def pick(best: Any, ballots: list[Any], counts: dict[str, int], pos_name: str) -> Any:
        if nouns_only and pos_name != "noun" or counts.get(key(best), 0):
            return best
        score = {x.head: counts.get(key(x), 0) for x in ballots}
        top = max(score.values(), default=0)
        if top < least:
            return best
        return max((x for x in ballots if score[x.head] == top),
                   key=lambda x: build.JA_FREQ.get(build.bare(x.head), 0.0))
    return pick


def extra_vote(best: Any, ballots: list[Any], counts: dict[str, int], pos_name: str) -> Any:
    """One more vote in the build's vote for the candidates most languages name (two or more);
    the vote's own order otherwise. Moves only when that changes the vote's first choice."""
    score = {x.head: counts.get(key(x), 0) for x in ballots}
    top = max(score.values(), default=0)
    if top < 2:
        return best
    first = min(ballots)
    pivoted = min(ballots, key=lambda x: (-(x.votes + (score[x.head] == top)),) + x.key[1:])
    return best if pivoted is first else pivoted


RULES: dict[str, Rule] = {
    "a vote for the candidates most languages name (2+)": extra_vote,
    "named by 2+ languages over a winner none names": named(2, False),
    "the same, nouns only": named(2, True),
    "named by 3+ languages over a winner none names, nouns only": named(3, True),
}


def ceiling(decided: list[Decided], pivot: build.Pivot) -> Counter[str]:
    """Where the better word that a judge named for an odd or wrong row is found."""
    out: Counter[str] = Counter()
    rows = {}
    for path in sorted(QUALITY.glob("gloss-*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            word, pos, gloss, verdict, note = line.split("\t")
            rows[(path.name, word, pos, gloss)] = note
    for name, word, pos, gloss, verdict, src, _best, ballots in decided:
        if verdict == "right":
            continue
        note = rows[(name, word, pos, gloss)].split(";")[0]
        better = {build.pivot_normal(w) for w in build.JAPANESE_ITEM.findall(note)}
        heads = {key(x) for x in ballots}
        counts = pivot.counts(src, pos)
        out["among the vote's candidates" if better & heads
            else "named by a pivot only" if any(counts.get(w) for w in better)
            else "named by no source"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "wfkit-build")
    parser.add_argument("--show", action="store_true", help="print every move")
    args = parser.parse_args(argv)
    decided, verdicts = judged_votes(args.cache, QUALITY / "trial-pivot-gloss-moves.tsv")
    pivot = build.Pivot(args.cache)
    build.ja_zipf("")  # loads JA_FREQ
    print(f"judged rows a vote decided: {len(decided)}")
    print("\n| the judge's better word for an odd or wrong row | rows |\n|---|---:|")
    for where, n in sorted(ceiling(decided, pivot).items()):
        print(f"| {where} | {n} |")
    print_moves(decided, verdicts, {
        label: lambda row, rule=rule: rule(row[6], row[7], pivot.counts(row[5], row[2]), row[2])
        for label, rule in RULES.items()}, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
