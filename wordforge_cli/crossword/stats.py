"""Batch statistics: fed one record at a time, mergeable across workers and shards.

Everything here is a count, so the summary is the same whatever order the records came in
and however the batch was split. Timings are not here: they are not reproducible, and the
CLI adds them beside this summary.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from wordforge_cli.crossword.blanks import BLANK_STYLES, STYLES, blank, masks
from wordforge_cli.crossword.board import Board
from wordforge_cli.crossword.lexicon import Lexicon


def base_cells(rec: dict[str, Any]) -> list[tuple[int, int, str, int]]:
    """A record's cells as they were before blanking: answer cells keep their index, a cell two
    words share is a crossing (-1), every other cell a given letter (-2)."""
    cover: Counter[tuple[int, int]] = Counter()
    for w in rec["words"]:
        dx, dy = (1, 0) if w["dir"] == "across" else (0, 1)
        for k in range(len(w["word"])):
            cover[(w["x"] + dx * k, w["y"] + dy * k)] += 1
    return [(c["x"], c["y"], c["c"],
             c["n"] if c["n"] >= 0 else (-1 if cover[(c["x"], c["y"])] > 1 else -2))
            for c in rec["cells"]]


TALLY_LAYOUTS = 4096  # layouts tallied before they are counted in full (memory stays flat)


class BatchStats:
    """Made/failed boards, attempts, blank failures per style, answers and word use (the
    :class:`wordforge_cli.core.engine.Statistics` protocol: ``add(board)``, ``fail``, ``merge``,
    ``to_state``/``from_state``, ``summary``).

    Also board sizes, redraws, boards still blanking nothing and boards of the fallback band.
    ``blank_failure`` is the article's figure: of the first draws, how many a style would
    leave with nothing blanked (a board brings its first draw when redraws replaced it; a
    record fed by :meth:`add_record` has only its shipped draw). ``unblanked``: boards
    shipped with their own style blanking nothing, after the redraws.

    ``styles``: the styles whose blank-failure rate is reported (a board's own style need not
    be among them). ``lexicon``: given, the vocabulary for word-use evenness, and (with
    ``unique=True``) for counting the boards each style leaves ambiguous.
    """

    def __init__(self, styles: Iterable[str] = STYLES, lexicon: Lexicon | None = None,
                 unique: bool = False):
        self.styles = tuple(styles)
        self._hides = [(s, BLANK_STYLES[s].hides)  # (looked up once: asked of every layout)
                       for s in dict.fromkeys(self.styles) if s != "none"]
        self.lexicon = lexicon
        self.unique = unique and lexicon is not None
        self.made = 0
        self.failed = 0
        self.attempts: Counter[int] = Counter()
        self.blank_failures: Counter[str] = Counter()
        self.answers: Counter[str] = Counter()
        self.word_use: Counter[str] = Counter()
        self.ambiguous: Counter[str] = Counter()
        self.rejected_ambiguous = 0
        self.unblanked: Counter[str] = Counter()
        self.widths: Counter[int] = Counter()
        self.heights: Counter[int] = Counter()
        self.redraws = 0
        self.fallbacks = 0
        # layout key -> the styles that blank nothing on it (a cache of a pure function): the
        # vocabulary's own, one per set of styles, so the statistics of a pack's many chunks
        # share it
        self._blank_cache: dict[tuple[object, ...], tuple[str, ...]] = (
            {} if lexicon is None else lexicon.cache.blank_counts.setdefault(self.styles, {}))
        # layout key -> [boards not yet counted in full, answer, words, cells, w, h] (one
        # lookup a board: the layout's tally and what it fixes)
        self._seen: dict[tuple[Any, ...], list[Any]] = {}

    def _flush(self) -> None:
        """Count in full the boards :meth:`add` only tallied by layout.

        A layout's board met once (most are, in a chunk of a pack's section) is counted by
        listing what it adds, and each counter takes its list at once (``Counter.update``
        counts an iterable in C); a layout met more often, by its number of boards."""
        answers: list[str] = []  # (of the layouts met once)
        used: list[str] = []
        widths: list[int] = []
        heights: list[int] = []
        failed: list[str] = []
        cache = self._blank_cache
        for key, (n, answer, words, cells, w, h) in self._seen.items():
            fails = cache.get(key)
            if fails is None:
                fails = self._fails(key, cells, w)
            if n == 1:
                answers.append(answer)
                used.append(answer)
                used += words
                widths.append(w)
                heights.append(h)
                failed += fails
                continue
            self.answers[answer] += n
            self.word_use[answer] += n
            for word in words:
                self.word_use[word] += n
            self.widths[w] += n
            self.heights[h] += n
            for style in fails:
                self.blank_failures[style] += n
        self.answers.update(answers)
        self.word_use.update(used)
        self.widths.update(widths)
        self.heights.update(heights)
        self.blank_failures.update(failed)
        self._seen.clear()  # a layout met again is described again

    def _fails(self, key: tuple[object, ...] | None, cells: Sequence[tuple[int, int, str, int]],
               width: int | None = None) -> tuple[str, ...]:
        """The styles (not ``none``) that blank no cell of a board's ``cells`` (as before
        blanking), kept by its layout ``key`` when it has one."""
        m = masks(cells, width)
        fails = tuple(style for style, hides in self._hides if not hides(m))
        if key is not None and len(self._blank_cache) < 8192:
            self._blank_cache[key] = fails
        return fails

    def add_record(self, rec: dict[str, Any], *, rejected_ambiguous: int = 0) -> None:
        """Count one made board from its JSON record (same counts as :meth:`add`)."""
        words = [(w["word"], w["x"], w["y"], w["dir"]) for w in rec["words"]]
        self._count(rec["answer"], words, base_cells(rec), rec["attempts"], rejected_ambiguous)
        self._shape(rec["w"], rec["h"], rec["style"], rec["blanked"], rec.get("redraws", 0),
                    rec.get("fallback", False))

    def add(self, board: Board) -> None:
        """Count one made board straight from the generator.

        A board of a known layout (``board.key``: small vocabularies repeat a few thousand
        layouts) whose first draw is the one shipped is only tallied by layout here; what
        its layout fixes (answer, words, blank counts, size) is counted once per layout when
        the figures are read (:meth:`_flush`): the same counts at a fraction of the cost."""
        key = board.key
        if key is not None and board.first is None and not self.unique:
            self.made += 1
            self.attempts[board.attempts] += 1
            if board.redraws:
                self.redraws += board.redraws
            if board.fallback:
                self.fallbacks += 1
            if board.style != "none" and not board.blanked:
                self.unblanked[board.style] += 1
            seen = self._seen
            tally = seen.get(key)
            if tally is not None:
                tally[0] += 1
                return
            cells = board.cells if board.base is None else [
                (x, y, c, n) for (x, y, c, _), n in zip(board.cells, board.base, strict=True)]
            seen[key] = [1, board.answer, tuple(w[0] for w in board.words), cells, board.w,
                         board.h]
            if len(seen) >= TALLY_LAYOUTS:  # bounded, however long the stream
                self._flush()
            return
        if board.first is not None:
            cells = board.first
        elif board.base is None:
            cells = board.cells
        else:
            cells = [(x, y, c, n) for (x, y, c, _), n in zip(board.cells, board.base,
                                                               strict=True)]
        self._count(board.answer, board.words, cells, board.attempts,
                    (board.extra or {}).get("ambiguous_rejected", 0),
                    board.key if board.first is None else None)
        self._shape(board.w, board.h, board.style, board.blanked, board.redraws,
                    board.fallback)

    def _shape(self, w: int, h: int, style: str, blanked: int, redraws: int,
               fallback: bool) -> None:
        self.widths[w] += 1
        self.heights[h] += 1
        self.redraws += redraws
        self.fallbacks += fallback
        if style != "none" and not blanked:
            self.unblanked[style] += 1

    def _count(self, answer: str, words: Sequence[tuple[str, int, int, str]],
               cells: Sequence[tuple[int, int, str, int]], attempts: int,
               rejected_ambiguous: int, key: tuple[object, ...] | None = None) -> None:
        self.made += 1
        self.attempts[attempts] += 1
        self.answers[answer] += 1
        self.word_use[answer] += 1
        for w in words:
            self.word_use[w[0]] += 1
        self.rejected_ambiguous += rejected_ambiguous
        fails = self._blank_cache.get(key) if key is not None else None
        if fails is None:
            fails = self._fails(key, cells)
        self.blank_failures.update(fails)
        if self.unique and self.lexicon is not None:  # (unique is only set with a lexicon)
            from wordforge_cli.crossword.unique import count_fillings

            for style in self.styles:
                types, _count = blank(cells, style)
                shown = [(x, y, c, n) for (x, y, c, _), n in zip(cells, types, strict=True)]
                if count_fillings(self.lexicon, words, shown, limit=2) > 1:
                    self.ambiguous[style] += 1

    def fail(self, count: int = 1) -> None:
        """Count boards whose budget ran out."""
        self.failed += count

    def merge(self, other: BatchStats) -> BatchStats:
        """Add another part's counts to this one (parallel or sharded batches)."""
        self._flush()
        other._flush()
        for name in self.TOTALS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in self.COUNTERS:
            getattr(self, name).update(getattr(other, name))
        return self

    TOTALS = ("made", "failed", "rejected_ambiguous", "redraws", "fallbacks")
    COUNTERS = ("attempts", "blank_failures", "answers", "word_use", "ambiguous", "unblanked",
                "widths", "heights")

    def to_state(self) -> dict[str, Any]:
        """The raw counts as plain JSON-ready data (to ship between processes or shards)."""
        self._flush()
        out: dict[str, Any] = {"styles": list(self.styles)}
        for name in self.TOTALS:
            out[name] = getattr(self, name)
        for name in self.COUNTERS:
            out[name] = sorted(getattr(self, name).items())
        return out

    @classmethod
    def from_state(cls, data: dict[str, Any], lexicon: Lexicon | None = None,
                   unique: bool = False) -> BatchStats:
        """The statistics :meth:`to_state` saved (``lexicon`` and ``unique`` as given to the
        statistics that saved them)."""
        stats = cls(data["styles"], lexicon, unique)
        for name in stats.TOTALS:
            setattr(stats, name, getattr(stats, name) + data.get(name, 0))
        for name in stats.COUNTERS:
            getattr(stats, name).update(dict((k, v) for k, v in data.get(name, ())))
        return stats

    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary; identical for the same boards in any order or split."""
        self._flush()
        made = self.made
        out: dict[str, Any] = {"made": made, "failed": self.failed}
        out["attempts"] = {"median": _lower_median(self.attempts),
                           "worst": max(self.attempts) if self.attempts else 0,
                           "total": sum(k * v for k, v in self.attempts.items())}
        out["blank_failure"] = {
            style: {"rate": round(100 * self.blank_failures[style] / made, 2) if made else 0.0,
                    "boards": self.blank_failures[style], "of": made}
            for style in self.styles}
        out["unblanked"] = {style: self.unblanked[style] for style in sorted(self.unblanked)}
        out["redraws"] = self.redraws
        out["fallback"] = self.fallbacks
        out["size"] = {"width": _histogram(self.widths), "height": _histogram(self.heights),
                       "largest": [max(self.widths, default=0), max(self.heights, default=0)]}
        out["distinct_answers"] = len(self.answers)
        out["word_use"] = self._evenness()
        if self.unique:
            out["ambiguous"] = {style: self.ambiguous[style] for style in self.styles}
            out["ambiguous_rejected"] = self.rejected_ambiguous
        return out

    def _evenness(self) -> dict[str, Any]:
        vocab = list(self.lexicon.words) if self.lexicon is not None else sorted(self.word_use)
        uses = [self.word_use[w] for w in vocab]
        total = sum(uses)
        entropy = -sum(u / total * math.log(u / total) for u in sorted(uses) if u) if total else 0
        even = entropy / math.log(len(vocab)) if len(vocab) > 1 and total else 0.0
        return {"words": len(vocab), "used": sum(1 for u in uses if u),
                "min": min(uses, default=0), "max": max(uses, default=0),
                "evenness": round(even, 4)}


def _histogram(counts: Counter[int]) -> dict[str, int]:
    """``{"5": boards 5 cells wide, ...}`` in size order (JSON keys are strings)."""
    return {str(k): counts[k] for k in sorted(counts)}


def _lower_median(counts: Counter[int]) -> int:
    total = sum(counts.values())
    if not total:
        return 0
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen * 2 >= total:
            return value
    return max(counts)  # pragma: no cover
