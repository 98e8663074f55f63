"""Crossword sections of a pack: batches, endless runs and challenge sets.

Each calls the crossword engine the ``wfkit crossword`` command calls (``sets.batch``,
``sets.endless_question``, ``sets.challenge_set``, ``board.record``, ``stats.BatchStats``)
with the section's name as the scope of every item's random stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wordforge_cli.errors import CannotDo, UsageError
from wordforge_cli.pack.config import SectionContext
from wordforge_cli.pack.kinds import (
    Item,
    Kind,
    Section,
    Stats,
    bundled_file,
    user_file,
)

FILE_KEYS = ("vocab", "config")  # files, named relative to the pack config


class CrosswordStats(Stats):
    """The engine's BatchStats; its counts are the JSON state shards keep and merge."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def add(self, item: Item) -> None:
        for board in item.event or ():
            self.inner.add_board(board)
        if item.failed:
            self.inner.fail(item.failed)

    def merge(self, other: CrosswordStats) -> None:
        self.inner.merge(other.inner)

    def to_state(self) -> dict:
        return self.inner.counts()

    def load_state(self, state: dict) -> CrosswordStats:
        self.inner.add_counts(state)
        return self

    def summary(self) -> dict:
        return self.inner.summary()


class BoardSection(Section):
    """What the three crossword kinds share: the lexicon, the request, stats and renders."""

    def __init__(self, name, count, render, render_limit, options, *, lexicon, request, cfg,
                 styles, data):
        super().__init__(name, count, render, render_limit, options, data)
        self.lexicon = lexicon
        self.request = request
        self.cfg = cfg
        self.styles = styles

    def new_stats(self) -> CrosswordStats:
        from wordforge_cli.crossword.stats import BatchStats

        return CrosswordStats(BatchStats(self.styles, self.lexicon, unique=self.request.unique))

    def stats_from_state(self, state: dict) -> CrosswordStats:
        return self.new_stats().load_state(state)

    def render_item(self, fmt: str, record: dict) -> str:
        title = f"{self.name} #{record['id']}"
        if fmt == "text":
            from wordforge_cli.render.crossword import board_text

            return board_text(record)
        if fmt == "svg":
            from wordforge_cli.render.crossword import boards_svg

            return boards_svg([record], title=title)
        from wordforge_cli.output import dumps
        from wordforge_cli.render.ipuz import board_ipuz

        hints = {w: h for w, h in zip(self.lexicon.words, self.lexicon.hints, strict=True) if h}
        return dumps(board_ipuz(record, hints=hints, title=title)) + "\n"


class BatchSection(BoardSection):
    kind = "crossword"

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.crossword.board import record
        from wordforge_cli.crossword.sets import batch

        for i, item_seed, board in batch(self.lexicon, self.request, seed, stop - start,
                                         scope=(self.name,), start=start):
            if board is None:
                yield Item([], failed=1)
            else:
                yield Item([record(board, i, item_seed)], event=[board])


class EndlessSection(BoardSection):
    kind = "endless"

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.crossword.board import record
        from wordforge_cli.crossword.sets import endless_question

        for k in range(start, stop):
            item_seed, board = endless_question(self.lexicon, self.cfg.endless, k, seed,
                                                self.request, scope=(self.name,))
            if board is None:
                yield Item([], failed=1)
            else:
                yield Item([record(board, k, item_seed)], event=[board])


class ChallengeSection(BoardSection):
    kind = "challenge"

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.crossword.board import record
        from wordforge_cli.crossword.sets import challenge_set

        size = len(self.cfg.ramp)
        for index in range(start, stop):
            try:
                item_seed, boards = challenge_set(self.lexicon, self.cfg.ramp, index, seed,
                                                  self.request, scope=(self.name,))
            except CannotDo:  # a set whose step ran out of budget: counted, the pack goes on
                yield Item([], failed=size)
                continue
            yield Item([record(b, index * size + j, item_seed) for j, b in enumerate(boards)],
                       event=boards)


def _prepare(cls: type[BoardSection]) -> Any:
    def prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
                render_limit: int) -> BoardSection:
        from wordforge_cli.config import bundled_config
        from wordforge_cli.crossword.board import Request
        from wordforge_cli.crossword.config import BATCH, BOARD, load_config
        from wordforge_cli.crossword.lexicon import prepare as prepare_lexicon
        from wordforge_cli.vocab import read_vocab

        vocab_path = ctx.path("vocab", required=True, what="vocabulary file")
        config_path = ctx.path("config", what="crossword config")
        cfg = load_config(config_path or bundled_config("crossword"))
        spec = BATCH + BOARD if cls is BatchSection else BOARD
        v = spec.resolve(cfg.options, ctx.read(spec, extra=FILE_KEYS))
        lexicon = prepare_lexicon(read_vocab(vocab_path), fold_small=v["fold_small"])
        data = [user_file(ctx, vocab_path),
                user_file(ctx, config_path) if config_path
                else bundled_file("configs", "crossword.yaml")]
        options: dict[str, Any] = {"vocab": data[0].label, "config": data[1].label}
        request = Request(layout=v["layout"], budget=v["budget"], unique=v["unique"])
        if cls is BatchSection:
            band = v.get("band") or (v["min_len"], v["max_len"])
            request = Request(band[0], band[1], v["style"], v["layout"], v["budget"],
                              v["unique"])
            _possible(ctx, lexicon, request, "band")
            options.update(band=list(band), style=v["style"])
        elif cls is EndlessSection:
            from dataclasses import replace

            from wordforge_cli.crossword.board import check_request

            bands = [*cfg.endless.bands, cfg.endless.fallback]
            problems = []
            for lo, hi in bands:
                try:
                    check_request(lexicon, replace(request, min_len=lo, max_len=hi))
                except UsageError as exc:
                    problems.append(exc.message)
            if len(problems) == len(bands):
                raise ctx.error(f"can never succeed: no band of the endless plan can be made "
                                f"({problems[-1]})", "vocab")
        else:
            from dataclasses import replace

            for j, step in enumerate(cfg.ramp):
                _possible(ctx, lexicon, replace(request, min_len=step.min_len,
                                                max_len=step.max_len, style=step.style),
                          "vocab", f"challenge question {j + 1}: ")
        options.update(layout=v["layout"], budget=v["budget"], unique=v["unique"],
                       fold_small=v["fold_small"], styles=list(v["styles"]))
        return cls(ctx.spec.name, count, render, render_limit, options, lexicon=lexicon,
                   request=request, cfg=cfg, styles=tuple(v["styles"]), data=data)

    return prepare


def _possible(ctx: SectionContext, lexicon: Any, request: Any, key: str,
              prefix: str = "") -> None:
    from wordforge_cli.crossword.board import check_request

    try:
        check_request(lexicon, request)
    except UsageError as exc:
        raise ctx.error(f"can never succeed: {prefix}{exc.message}",
                        key if ctx.has(key) else None) from None


def _keys(spec_name: str) -> tuple[str, ...]:
    from wordforge_cli.crossword.config import BATCH, BOARD
    from wordforge_cli.spec import PACK

    spec = BATCH + BOARD if spec_name == "batch" else BOARD
    return FILE_KEYS + spec.keys(PACK)


CROSSWORD = Kind("crossword", _keys("batch"), ("text", "svg", "ipuz"),
                 _prepare(BatchSection),
                 doc="a batch of boards (one answer band, one blank style)")
ENDLESS = Kind("endless", _keys("board"), ("text", "svg", "ipuz"), _prepare(EndlessSection),
               doc="questions 0..count-1 of the endless run (config endless plan)")
CHALLENGE = Kind("challenge", _keys("board"), ("text", "svg", "ipuz"),
                 _prepare(ChallengeSection),
                 doc="count challenge sets of 10 boards along the config's ramp")
