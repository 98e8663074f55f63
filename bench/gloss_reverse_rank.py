"""The reverse rank of a gloss's candidates, measured on the judged rows (not shipped).

    python bench/gloss_reverse_rank.py --cache DIR            # the signal and each rule's moves
    python bench/gloss_reverse_rank.py --cache DIR --show     # the moves themselves

For a candidate Japanese word J of the English word w in the build's vote, the reverse rank
looks J up in JMdict: is w (or its singular) a gloss of J's entry's *first* sense, and at
which position (0 = its first gloss)? 船長 'ship's captain; skipper' and 機長 'captain';
大佐 'colonel; captain' (position 1). The idea: a candidate whose first sense is w translates
w, one reaching w only in a later sense is w as a side meaning of J. JMdict's first sense is
read from the jamdict-data database; the headword is the entry's, as the build spells it
(a headword the build writes in kana because of a rare kanji is found by that kana).

It runs the build's gloss step (data/build/english.py, the build extras) over the shipped
table's words, records every vote's ballots for the judged words and their lemmas, and counts
what each rule below does to the judged glosses of data/quality/gloss-*.tsv (development
data): a rule replaces the vote's winner by the best-keyed ballot that passes it, named by
a source (FreeDict, ECDICT or JMdict's first) and with at most ``slack`` votes fewer.
The replaced winner is the vote's final one (after its out-of-use, katakana and
JMdict-alone rules). A move's new gloss is counted by the verdict another judged row gives
it, else as not judged; the judged moves are data/quality/trial-reverse-rank-gloss-moves.tsv.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "data" / "build"))

import english as build  # noqa: E402  (data/build/english.py)

TABLE = ROOT / "data" / "english.tsv"
QUALITY = ROOT / "data" / "quality"
NONE = 99  # w is no gloss of J's first sense


class Rule(NamedTuple):
    target: str  # "first": winner not in its first sense, the other is; "zero": the other
    # has w as its first sense's first gloss and the winner not; "any": a lower reverse rank;
    # "pos": the winner's first sense is of another part of speech than the word's, the
    # other's is not
    slack: int  # how many votes fewer the other may have
    freq: bool  # the other at least as frequent in wordfreq 'ja'
    by_rank: bool  # the best reverse rank among the others first, then the vote's key


RULES = {
    "first sense, same votes": Rule("first", 0, False, False),
    "first gloss of first sense, same votes": Rule("zero", 0, False, False),
    "lower reverse rank, same votes": Rule("any", 0, False, True),
    "first sense, one vote fewer": Rule("first", 1, False, False),
    "first gloss of first sense, one vote fewer": Rule("zero", 1, False, False),
    "first sense, same votes, as frequent": Rule("first", 0, True, False),
    "first gloss of first sense, one vote fewer, as frequent": Rule("zero", 1, True, False),
    "first gloss of first sense, two votes fewer, as frequent": Rule("zero", 2, True, False),
    "lower reverse rank, same votes, as frequent": Rule("any", 0, True, True),
    "first sense of the word's part of speech, same votes": Rule("pos", 0, False, False),
    "first sense of the word's part of speech, one vote fewer": Rule("pos", 1, False, False),
}


def first_senses() -> dict[str, list[tuple[list[str], list[str]]]]:
    """Headword -> [(first-sense glosses as the build reads them, its JMdict parts of speech)]
    of the entries it heads."""
    from jamdict_data import JAMDICT_DB_PATH

    db = sqlite3.connect(f"file:{JAMDICT_DB_PATH}?mode=ro", uri=True)
    heads = build.entry_heads(db)
    first = dict(db.execute("SELECT idseq, MIN(ID) FROM Sense GROUP BY idseq"))
    glosses: dict[int, list[str]] = defaultdict(list)
    for sid, text in db.execute(
            "SELECT sid, text FROM SenseGloss WHERE lang = 'eng' ORDER BY rowid"):
        glosses[sid].append(build.normal_gloss(text)[0].lower())
    kinds: dict[int, list[str]] = defaultdict(list)
    for sid, text in db.execute("SELECT sid, text FROM pos ORDER BY rowid"):
        kinds[sid].append(text)
    db.close()
    out: dict[str, list[tuple[list[str], list[str]]]] = defaultdict(list)
    for spelling, found in sorted(heads.items()):
        for idseq, head in found:
            if idseq in first and (head == spelling or build.rare_kanji(head)
                                   and not build.HAN.search(spelling)):
                out[spelling].append((glosses[first[idseq]], kinds[first[idseq]]))
    return dict(out)


class Reverse:
    def __init__(self) -> None:
        self.first = first_senses()

    def rank(self, head: str, word: str) -> int:
        forms = {word, *build.singulars(word)}
        found = [gl.index(g) for gl, _pos in self.first.get(build.bare(head), ())
                 for g in gl if g in forms]
        return min(min(found), 2) if found else NONE

    def pos_ok(self, head: str, pos_name: str) -> bool:
        entries = self.first.get(build.bare(head), [])
        kinds = {build.plain_pos([p], False, "", set()) for _gl, ps in entries for p in ps}
        if head.endswith("する"):
            kinds.add("verb")
        if "adjective" in kinds:  # na- and no-adjectives gloss nouns too
            kinds.add("noun")
        return not entries or pos_name in kinds


def capture(cache: Path, words: set[str]) -> dict[tuple[str, str], tuple[str, list[Any]]]:
    """(word, part of speech) -> (the vote's winner, its ballots) for the given words."""
    ballots: list[Any] = []
    real_ballot, real_vote = build.Ballot, build.vote

    def ballot(*args: Any) -> Any:
        made = real_ballot(*args)
        ballots.append(made)
        return made

    out: dict[tuple[str, str], tuple[str, list[Any]]] = {}

    def vote(heads: dict[str, tuple[Any, ...]], listed: Counter[str], chinese: dict[str, str],
             pos_name: str, word: str = "", *rest: Any) -> tuple[str, int, str]:
        ballots.clear()
        result = real_vote(heads, listed, chinese, pos_name, word, *rest)
        if word in words:
            out[(word, pos_name)] = (result[0], list(ballots))
        return result

    build.Ballot, build.vote = ballot, vote  # type: ignore[misc,assignment]
    try:
        rows = {line.split("\t")[0]: line.split("\t")
                for line in TABLE.read_text(encoding="utf-8").splitlines()}
        wheel = build.studyforge_wheel(cache)
        ecdict, _forms = build.ecdict_rows(wheel)
        _levels, tags, _per_tag = build.cefrpy_levels()
        chinese = build.with_japanese_forms(
            {w: build.chinese_translations(e[3]) for w, e in ecdict.items()})
        build.gloss_senses(set(rows), tags, chinese, freedict=build.freedict_entries(cache))
    finally:
        build.Ballot, build.vote = real_ballot, real_vote  # type: ignore[misc]
    return out


Decided = tuple[str, str, str, str, str, str, Any, list[Any]]


Verdicts = dict[tuple[str, str, str], str]


def judged_votes(cache: Path, moves_file: Path) -> tuple[list[Decided], Verdicts]:
    """The judged rows a vote decided (the gloss is the table's and the vote of the word or its
    lemma gave it), as (file, word, pos, gloss, verdict, the word voted on, the winner's
    ballot, every ballot); and the verdict of every judged (word, pos, gloss), the judged
    moves of ``moves_file`` included."""
    rows = {line.split("\t")[0]: line.split("\t")
            for line in TABLE.read_text(encoding="utf-8").splitlines()}
    lines = []
    verdicts: Verdicts = {}
    for path in sorted(QUALITY.glob("gloss-*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            word, pos, gloss, verdict, _note = line.split("\t")
            lines.append((path.name, word, pos, gloss, verdict))
            verdicts.setdefault((word, pos, gloss), verdict)
    if moves_file.exists():
        for line in moves_file.read_text(encoding="utf-8").splitlines():
            word, pos, gloss, verdict, _note = line.split("\t")
            verdicts.setdefault((word, pos, gloss), verdict)
    words = {w for _f, w, *_ in lines} | {rows[w][2] for _f, w, *_ in lines if w in rows}
    votes = capture(cache, words)
    decided: list[Decided] = []
    for name, word, pos, gloss, verdict in lines:
        if not gloss or rows.get(word, [""] * 5)[3:5] != [pos, gloss]:
            continue
        for src in (word, rows[word][2]):
            found = votes.get((src, pos))
            if src and found and found[0] == gloss:
                best = next((x for x in found[1] if x.head == gloss), None)
                if best is not None:
                    decided.append((name, word, pos, gloss, verdict, src, best, found[1]))
                break
    return decided, verdicts


def print_moves(decided: list[Decided], verdicts: Verdicts,
                rules: dict[str, Callable[[Decided], Any]], show: bool) -> None:
    """Each rule's moves of the judged rows a vote decided (a rule gives a row's new winner
    ballot), counted by the verdicts of the old gloss and of the new one, as a table; with
    ``show``, every move under its rule's row."""
    print("\n| rule | right -> right | right -> odd or wrong | odd -> right | odd -> odd or wrong "
          "| wrong -> right | not judged |\n|---|---:|---:|---:|---:|---:|---:|")
    for name, rule in rules.items():
        moved: Counter[str] = Counter()
        shown = []
        for row in decided:
            file, word, pos, gloss, verdict, _src, best, _ballots = row
            new = rule(row)
            if new is not best:
                to = verdicts.get((word, pos, new.head), "not judged")
                kind = to if to in ("right", "not judged") else "bad"
                moved[f"{verdict} -> {kind}"] += 1
                shown.append(f"  {file}\t{word}\t{pos}\t{gloss}\t{verdict}\t-> {new.head}\t{to}")
        print(f"| {name} | {moved['right -> right']} | {moved['right -> bad']} "
              f"| {moved['odd -> right']} | {moved['odd -> bad']} | {moved['wrong -> right']} "
              f"| {sum(n for k, n in moved.items() if k.endswith('not judged'))} |")
        if show:
            print("\n".join(shown))


def pick(rule: Rule, best: Any, ballots: list[Any], word: str, pos_name: str,
         rev: Reverse) -> Any:
    rb = rev.rank(best.head, word)

    def passes(x: Any) -> bool:
        if rule.target == "pos":
            return not rev.pos_ok(best.head, pos_name) and rev.pos_ok(x.head, pos_name)
        r = rev.rank(x.head, word)
        return (r < NONE and rb == NONE if rule.target == "first"
                else r == 0 and rb > 0 if rule.target == "zero" else r < rb)

    alts = [x for x in ballots if passes(x) and (x.free or x.ecd or x.rank == 0)
            and x.votes >= best.votes - rule.slack
            and (not rule.freq or build.JA_FREQ.get(build.bare(x.head), 0.0)
                 >= build.JA_FREQ.get(build.bare(best.head), 0.0))]
    if not alts:
        return best
    return min(alts, key=lambda x: (rev.rank(x.head, word), x.key) if rule.by_rank else x.key)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "wfkit-build")
    parser.add_argument("--show", action="store_true", help="print every move")
    args = parser.parse_args(argv)
    decided, verdicts = judged_votes(args.cache, QUALITY / "trial-reverse-rank-gloss-moves.tsv")
    rev = Reverse()
    by_rank: Counter[tuple[str, str]] = Counter()
    by_pos: Counter[tuple[str, bool]] = Counter()
    for _name, _word, pos, gloss, verdict, src, _best, _ballots in decided:
        r = rev.rank(gloss, src)
        by_rank[(verdict, "none" if r == NONE else str(r))] += 1
        by_pos[(verdict, rev.pos_ok(gloss, pos))] += 1
    print(f"judged rows a vote decided: {len(decided)}")
    print("\n| the winner's reverse rank | right | odd | wrong |\n|---|---:|---:|---:|")
    for r, label in (("0", "w its first sense's first gloss"), ("1", "its second"),
                     ("2", "third or later"), ("none", "not in its first sense")):
        print(f"| {label} | {by_rank[('right', r)]} | {by_rank[('odd', r)]} "
              f"| {by_rank[('wrong', r)]} |")
    print(f"| first sense of another part of speech | {by_pos[('right', False)]} "
          f"| {by_pos[('odd', False)]} | {by_pos[('wrong', False)]} |")
    print_moves(decided, verdicts, {
        name: lambda row, rule=rule: pick(rule, row[6], row[7], row[5], row[2], rev)
        for name, rule in RULES.items()}, args.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
