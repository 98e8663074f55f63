"""Pivot votes for a gloss through six other languages, measured on the judged rows (not shipped).

    python bench/gloss_pivot.py --cache DIR            # the ceiling and each rule's moves
    python bench/gloss_pivot.py --cache DIR --show     # the moves themselves

An English word w reaches a Japanese word J through a third language X when a dictionary
translates w into some X word x (FreeDict's English-X, or X-English read backwards) and
WikDict's X-Japanese dictionary, made from X's own Wiktionary, translates x into J: book ->
livre -> 本, 書籍. The languages are Finnish, French, Italian, Swedish, Polish and Greek (every
X-Japanese dictionary Debian ships from WikDict); a candidate's pivot count is how many of
them reach it with the part of speech of w (w's singular or lemma when w itself has none).
Other editors than the English Wiktionary's translators name these words, so the count is a
vote the three sources of the build do not already cast.

It runs the build's gloss step (data/build/english.py, the build extras) as
bench/gloss_reverse_rank.py does and counts, on the judged rows a vote decided, what each rule
does: a rule replaces the vote's final winner with the candidate it names. A move's new gloss
is counted by the verdict another judged row gives it, else as not judged; the judged moves
are data/quality/trial-pivot-gloss-moves.tsv. The packages are fetched with `apt-get
download` into --cache and sha256 checked, as the build does.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "data" / "build"))

import english as build  # noqa: E402  (data/build/english.py)
from gloss_reverse_rank import QUALITY, Decided, judged_votes  # noqa: E402

LANGS = ("fin", "fra", "ita", "swe", "pol", "ell")
WIKDICT = "2022.12.07-2"
FREEDICT = "2022.04.21-1"
# (package, version, sha256) of every dictionary read: X-Japanese, English-X, X-English
PINS = {
    "fin-jpn": (WIKDICT, "1144a9b193b11ea70602342c22dfb6165725ac5d5abc1a2786147fe295a3327c"),
    "fra-jpn": (WIKDICT, "320d31620f528d4534a1b9b53644d71343607af5c72fc3c5465cb53190b61c31"),
    "ita-jpn": (WIKDICT, "4d001082e0e112f30cbb00254151e2a64b503783f13238642e21565e207a8a4a"),
    "swe-jpn": (WIKDICT, "3f2ff4470b7f58bf8d33f2f662fce48a22c1bf720fd8d84f717b8d98bb6aca46"),
    "pol-jpn": (WIKDICT, "b0cf03d0f7ba86ef310ecd53be163d8e9db188c3fff0e17d8c7e60c533677cc6"),
    "ell-jpn": (WIKDICT, "5ef91b237c6a84c9030b56582dc3780750e6d0d575d4238b8b3e1d42ef87d219"),
    "eng-fin": (WIKDICT, "037351c22b6f803358517d0293bab9619f6bef964e22cab68f63a174b5d22ebe"),
    "eng-fra": (FREEDICT, "b8db6774b640ae8a372bee119b4304d88e6fd471a283d1326d7ec0abcc8b930e"),
    "eng-ita": (FREEDICT, "aef18ac10bd7582f99b819f634edad0dc0060e59a06f3f041a40203c53e9bb22"),
    "eng-swe": (FREEDICT, "55feb9aff9abcc0be412dd11d9d46bc25eec4a80900a7701e57e6ad10331140e"),
    "eng-pol": (FREEDICT, "edfc15cb7d7decb09d4af7e502d7bf9df170523506fd7d5918d02d8f8a03c816"),
    "eng-ell": (FREEDICT, "b6a7d3154f93fc26554d2e3fd2529b98bfc67d17020a4ff8b2fe804373c83ecc"),
    "fin-eng": (WIKDICT, "7abc28d885e36b4e9e5d41c0a7f951fac33cca1d996602fa4a87a0c96934c6bf"),
    "fra-eng": (FREEDICT, "fb853d1f3da00ddddfe60dc3b88b5aaca122eecf3ba5c219131bea479d6274db"),
    "ita-eng": (FREEDICT, "f0d7a5dd47cefd2e7e8e3be19dc78df6607989324bb1ad8bc61b9a657c3a4774"),
    "swe-eng": (FREEDICT, "a117f881e43a5d2afbc082e5bb51041b8795180845ce8b5a991766bce4502aab"),
    "pol-eng": (WIKDICT, "bb89dccd16967ebe5bdd9ca930cdfc17a6f1527ebae207b99183cbfa8692eeaa"),
    "ell-eng": (WIKDICT, "4a6f9adeb8e085b8a807bf62dd67468dbbbb16ea7299ab41cdddb29e7d404242"),
}
POS = {"n": "noun", "v": "verb", "adj": "adjective", "adv": "adverb"}
# a sense number ('1. ', a dangling ' 2.'), FreeDict's older Roman and tag prefixes ('I. <N>')
SENSE_MARK = re.compile(r"^\s*(?:[IVX]+\.\s*)?(?:<[A-Za-z]+>\s*)?\d+\.\s*|\s+\d+\.\s*$")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff々〆ー]+")
Entries = list[tuple[str, str, list[str]]]


def entries(cache: Path, pair: str) -> Entries:
    """(headword, part of speech, its text lines with sense numbers dropped) of one dictionary."""
    version, sha256 = PINS[pair]
    deb = build.debian_deb(cache, (f"dict-freedict-{pair}", version, sha256))
    base = f"./usr/share/dictd/freedict-{pair}"
    files = build.deb_members(deb, (base + ".dict.dz", base + ".index"))
    body = gzip.decompress(files[base + ".dict.dz"])
    out: Entries = []
    for line in files[base + ".index"].decode("utf-8").splitlines():
        key, offset, length = line.split("\t")
        if key.startswith("00"):  # the database's own header entries
            continue
        start = build.dictd_number(offset)
        text = body[start:start + build.dictd_number(length)].decode("utf-8", "replace")
        head_line, *rows = text.split("\n")
        found = re.match(r"(.+?)(?: /.*?/)?(?: <([^>]*)>)?\s*$", head_line)
        if not found:
            continue
        tags = (found[2] or "").split(", ")
        pos_name = next((POS[t] for t in tags if t in POS), "")
        kept = [SENSE_MARK.sub("", row).strip() for row in rows]
        out.append((found[1].strip(), pos_name, [row for row in kept if row]))
    return out


def normal(head: str) -> str:
    """A Japanese word without the する, な or の that one dictionary writes and another not."""
    for tail in ("する", "な", "の"):
        if head.endswith(tail) and len(head) > len(tail) + 1:
            return head[:-len(tail)]
    return head


class Pivot:
    def __init__(self, cache: Path) -> None:
        # language -> X word -> part of speech -> Japanese words
        self.japanese: dict[str, dict[str, dict[str, list[str]]]] = {}
        # (English word, part of speech) -> language -> X words
        self.bridge: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(
            lambda: defaultdict(set))
        for lang in LANGS:
            table: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
            for head, pos_name, rows in entries(cache, f"{lang}-jpn"):
                for row in rows:
                    items = [i.strip() for i in row.split(",")]
                    kept = [i for i in items if JAPANESE.fullmatch(i)]
                    if kept and len(kept) * 2 >= len(items):  # a Japanese line, not a definition
                        table[head.lower()][pos_name].extend(normal(i) for i in kept)
            self.japanese[lang] = table
            for head, pos_name, rows in entries(cache, f"eng-{lang}"):
                if build.WORD.fullmatch(head.lower()):
                    for row in rows:
                        for item in re.split(r"[,;]", row):
                            x = re.sub(r"\(.*?\)", "", item).strip().lower()
                            if x in table:
                                self.bridge[(head.lower(), pos_name)][lang].add(x)
            for head, pos_name, rows in entries(cache, f"{lang}-eng"):
                x = head.lower()
                if x not in table:
                    continue
                for row in rows:
                    items = [re.sub(r"\(.*?\)", "", i).strip().lower() for i in row.split(",")]
                    if all(len(i.split()) <= 3 for i in items):  # translations, not a definition
                        for item in items:
                            if build.WORD.fullmatch(item):
                                self.bridge[(item, pos_name)][lang].add(x)

    def counts(self, word: str, pos_name: str) -> dict[str, int]:
        """Japanese word (normal()) -> how many languages reach it from the English word."""
        reached: dict[str, set[str]] = defaultdict(set)
        for source in [word, *(w for w in build.rule_lemmas(word) if w != word)]:
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


Rule = Callable[[Any, list[Any], dict[str, int], str], Any]


def named(least: int, nouns_only: bool) -> Rule:
    """The candidate most languages name, at least ``least``, over a winner none names."""
    def pick(best: Any, ballots: list[Any], counts: dict[str, int], pos_name: str) -> Any:
        if nouns_only and pos_name != "noun" or counts.get(normal(build.bare(best.head)), 0):
            return best
        score = {x.head: counts.get(normal(build.bare(x.head)), 0) for x in ballots}
        top = max(score.values(), default=0)
        if top < least:
            return best
        return max((x for x in ballots if score[x.head] == top),
                   key=lambda x: build.JA_FREQ.get(build.bare(x.head), 0.0))
    return pick


def extra_vote(best: Any, ballots: list[Any], counts: dict[str, int], pos_name: str) -> Any:
    """One more vote in the build's vote for the candidates most languages name (two or more);
    the vote's own order otherwise. Moves only when that changes the vote's first choice."""
    score = {x.head: counts.get(normal(build.bare(x.head)), 0) for x in ballots}
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


def ceiling(decided: list[Decided], pivot: Pivot) -> Counter[str]:
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
        better = {normal(w) for w in JAPANESE.findall(rows[(name, word, pos, gloss)].split(";")[0])}
        heads = {normal(build.bare(x.head)) for x in ballots}
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
    pivot = Pivot(args.cache)
    build.ja_zipf("")  # loads JA_FREQ
    print(f"judged rows a vote decided: {len(decided)}")
    print("\n| the judge's better word for an odd or wrong row | rows |\n|---|---:|")
    for where, n in sorted(ceiling(decided, pivot).items()):
        print(f"| {where} | {n} |")
    print("\n| rule | right -> right | right -> odd or wrong | odd -> right | odd -> odd or wrong "
          "| wrong -> right | not judged |\n|---|---:|---:|---:|---:|---:|---:|")
    for label, rule in RULES.items():
        moved: Counter[str] = Counter()
        shown = []
        for file, word, pos, gloss, verdict, src, best, ballots in decided:
            new = rule(best, ballots, pivot.counts(src, pos), pos)
            if new is not best:
                to = verdicts.get((word, pos, new.head), "not judged")
                kind = to if to in ("right", "not judged") else "bad"
                moved[f"{verdict} -> {kind}"] += 1
                shown.append(f"  {file}\t{word}\t{pos}\t{gloss}\t{verdict}\t-> {new.head}\t{to}")
        print(f"| {label} | {moved['right -> right']} | {moved['right -> bad']} "
              f"| {moved['odd -> right']} | {moved['odd -> bad']} | {moved['wrong -> right']} "
              f"| {sum(n for k, n in moved.items() if k.endswith('not judged'))} |")
        if args.show:
            print("\n".join(shown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
