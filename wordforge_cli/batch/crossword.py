"""Crossword sections of a pack: batches, endless runs and challenge sets.

Each calls the crossword engine as the ``wfkit crossword`` command does (``sets.batch``,
``sets.endless``, ``sets.challenges``, ``records.record``, ``stats.BatchStats``), with the
section's name as the scope of every item's random stream.

``difficulty: true`` (the key of ``--difficulty``) measures every board with the engine's
solver (``crossword.difficulty``), and with its familiarity-aware player, who knows each word
with a probability from its frequency (``batch.familiarity`` reads the word lists; the
engine gets the probabilities): each record carries its ``difficulty`` and the section's
manifest statistics the batch's (score and guesses, the familiarity-aware score, guesses and
known share; per ramp step for a challenge section, per plan phase for an endless one), the
same bytes as ``wfkit crossword --difficulty`` with the section's name as the scope. Opt-in:
both solvers make 5,000 boards of 4-5 take 4.2 s CPU instead of 0.35 s (the familiarity-aware
player's 20 draws are 0.7 ms a board of it), and a section that does not ask keeps its bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wordforge_cli.batch.kinds import (
    Beside,
    DataFile,
    Item,
    Kind,
    Section,
    bundled_file,
    user_file,
)
from wordforge_cli.core.engine import OutOfBudget
from wordforge_cli.crossword import config as crossword_config
from wordforge_cli.crossword.board import check_request
from wordforge_cli.crossword.config import board_request, load_config
from wordforge_cli.crossword.lexicon import prepare as prepare_lexicon
from wordforge_cli.crossword.records import board_line, record_json
from wordforge_cli.crossword.sets import (
    batch,
    batch_deck,
    challenges,
    check_challenge,
    check_endless,
    endless,
)
from wordforge_cli.io.vocab import read_vocab
from wordforge_cli.options.spec import PACK
from wordforge_cli.render import renders

if TYPE_CHECKING:
    from wordforge_cli.batch.context import SectionContext
    from wordforge_cli.crossword.board import Board, Request
    from wordforge_cli.crossword.config import CrosswordConfig
    from wordforge_cli.crossword.lexicon import Lexicon
    from wordforge_cli.crossword.stats import BatchStats
    from wordforge_cli.options.spec import Spec

FILE_KEYS = ("vocab", "config")  # files, named relative to the pack config
BAND = {"min_len": "band", "max_len": "band"}  # a batch section's key of the request's fields


RENDERS = renders("crossword")


class BoardSection(Section):
    """What the three crossword kinds share: the lexicon, the request, stats and renders."""

    spec: Spec  # the engine's options this form takes (a section's keys, the command's values)

    def __init__(self, name: str, v: Mapping[str, Any], cfg: CrosswordConfig,
                 lexicon: Lexicon, *, scope: tuple[object, ...] | None = None, count: int = 0,
                 render: tuple[str, ...] = (), render_limit: int = 0,
                 options: dict[str, Any] | None = None, data: list[DataFile] | None = None
                 ) -> None:
        """The section the values of its spec ask for (``name -> value``), also what ``wfkit
        crossword`` runs (with the engine's own scope, no files or manifest options)."""
        super().__init__(name, count, render, render_limit,
                         {} if options is None else options, data or [])
        self.lexicon = lexicon
        self.cfg = cfg
        self.labels = cfg.labels_for(lexicon.language)  # in the vocabulary's language
        self.request = self.make_request(v)
        self.styles = tuple(v["styles"])
        # 1 with no_redraw; an endless run's own from the config, batches and sets their key
        self.redraws = 1 if v["no_redraw"] else v.get("redraws", cfg.endless.redraws)
        self.difficulty = bool(v["difficulty"])  # measure every board
        self.ordered = bool(v.get("order_by_difficulty"))  # a set's boards easiest first
        # every item's random stream: the section's name (``wfkit crossword``: the engine's)
        self.scope: tuple[object, ...] = (name,) if scope is None else scope
        self.options.update(self.asked(v))

    def asked(self, v: Mapping[str, Any]) -> dict[str, Any]:
        """What the section was asked, from its spec's values: the manifest's ``options``
        (after the files it names) and the ``request`` of ``wfkit crossword --stats``. The
        flags off by default are named only when on: a section that does not ask keeps its
        manifest's bytes."""
        asked = {"layout": v["layout"], "budget": v["budget"], "unique": v["unique"],
                 "fold_small": v["fold_small"], "styles": list(v["styles"]),
                 "max_width": v["max_width"], "max_height": v["max_height"],
                 "redraws": self.redraws, "strict_vocab": v["strict_vocab"]}
        if v["difficulty"]:
            asked["difficulty"] = True
        if v.get("order_by_difficulty"):
            asked["order_by_difficulty"] = True
        return asked

    def make_request(self, v: Mapping[str, Any]) -> Request:
        """The request every board starts from (a set's steps bring their bands)."""
        return board_request(v)

    def check(self) -> None:  # pragma: no cover - each form has its own
        """The engine's impossible-request check of this form."""
        raise NotImplementedError

    def step(self, board_id: int) -> int | None:
        """The step a board's difficulty is counted under (None: a batch has no steps)."""
        return None

    def singles(self, made: Iterator[tuple[int, int, Board | None]]) -> Iterator[Item]:
        """The items of a run of one board each (None: its budget ran out, counted failed)."""
        for board_id, item_seed, board in made:
            yield (Item([], failed=1, reason=self.missing(board_id)) if board is None
                   else self.item([board], board_id, item_seed))

    def missing(self, board_id: int) -> str:
        """Why board ``board_id`` is not in the output (each missing board gets its line)."""
        r = self.request
        return (f"board {board_id}: no board within the budget of {r.budget} attempt"
                f"{'s' if r.budget != 1 else ''} "
                f"({self.kind}, {r.layout} layout, style {r.style}), counted as failed")

    @cached_property
    def familiarity(self) -> tuple[tuple[float, ...], str]:
        """(each lexicon word's chance of being known, where the frequencies come from)."""
        from wordforge_cli.batch.familiarity import word_zipfs
        from wordforge_cli.crossword.difficulty import known_probability

        zipfs, source = word_zipfs(self.lexicon)
        return tuple(known_probability(z) for z in zipfs), source

    def item(self, boards: list[Board], first_id: int, item_seed: int) -> Item:
        """The records of boards ``first_id``.. (with their difficulty when asked)."""
        if not self.difficulty:
            return BoardItem(boards, first_id, item_seed, self.lexicon)
        from wordforge_cli.crossword.difficulty import measure_familiar_record, measure_record
        from wordforge_cli.crossword.records import record

        records = [record(b, first_id + j, item_seed, self.lexicon)
                   for j, b in enumerate(boards)]
        known = self.familiarity[0]
        made = []  # (the board figures' add, the difficulty figures' add) arguments
        for board, rec in zip(boards, records, strict=True):
            measured = measure_record(self.lexicon, rec)
            familiar = measure_familiar_record(self.lexicon, rec, known)
            rec["difficulty"] = {**measured.record(), **familiar.record()}
            made.append(((board,), (measured, self.step(rec["id"]), familiar)))
        return Item(records, made=made)

    def new_stats(self) -> BatchStats | Beside:
        """The engine's board figures, beside their difficulty figures when measured, as
        ``wfkit crossword --difficulty --stats`` writes them."""
        from wordforge_cli.crossword.stats import BatchStats

        stats = BatchStats(self.styles, self.lexicon, unique=self.request.unique)
        if self.difficulty:
            from wordforge_cli.crossword.difficulty import DifficultyStats

            return Beside({"boards": stats, "difficulty": DifficultyStats(self.familiarity[1])},
                          "difficulty")
        return stats

    def stats_from_state(self, state: dict[str, Any]) -> BatchStats | Beside:
        from wordforge_cli.crossword.stats import BatchStats

        if self.difficulty:
            from wordforge_cli.crossword.difficulty import DifficultyStats

            return Beside({"boards": BatchStats.from_state(state["boards"], self.lexicon,
                                                           unique=self.request.unique),
                           "difficulty": DifficultyStats.from_state(state["difficulty"])},
                          "difficulty")
        return BatchStats.from_state(state, self.lexicon, unique=self.request.unique)

    def encode(self, record: dict[str, Any]) -> str:
        return record_json(record, self.lexicon)

    def lines(self, item: Item) -> list[bytes]:
        return item.lines() if isinstance(item, BoardItem) else super().lines(item)

    @property
    def hints(self) -> dict[str, str]:
        """The vocabulary's hints by word (the clues renders print)."""
        return {w: h for w, h in zip(self.lexicon.words, self.lexicon.hints, strict=True) if h}

    def render_item(self, fmt: str, record: dict[str, Any]) -> str:
        from wordforge_cli.render import Look, render

        # a sheet's pages are headed by the section's name, the other renders by the board's
        title = self.name if fmt == "sheet" else f"{self.name} #{record['id']}"
        return render("crossword", fmt, record, Look(title, hints=self.hints,
                                                     language=self.lexicon.language))


class BoardItem(Item):
    """Boards whose records are made only when something reads them (a render, the test of
    a record): their JSON lines need none (``records.board_line``, the same bytes), and a
    batch's records were a third of what writing it cost."""

    def __init__(self, boards: list[Board], first_id: int, item_seed: int,
                 lexicon: Lexicon) -> None:
        self.boards = boards
        self.first_id = first_id
        self.item_seed = item_seed
        self.lexicon = lexicon
        self.failed = 0
        self.made = boards
        self.reason = None

    @cached_property  # (writable, as Item's field is)
    def records(self) -> list[dict[str, Any]]:  # type: ignore[override]  # mypy: read-only
        from wordforge_cli.crossword.records import record

        return [record(b, self.first_id + j, self.item_seed, self.lexicon)
                for j, b in enumerate(self.boards)]

    def lines(self) -> list[bytes]:
        boards = self.boards
        if len(boards) == 1:  # (a batch's and an endless run's items)
            return [board_line(boards[0], self.first_id, self.item_seed, self.lexicon)]
        return [board_line(b, self.first_id + j, self.item_seed, self.lexicon)
                for j, b in enumerate(boards)]


class BatchSection(BoardSection):
    kind = "crossword"
    spec = crossword_config.BATCH + crossword_config.BOARD + crossword_config.STYLED

    def make_request(self, v: Mapping[str, Any]) -> Request:
        return board_request(v, v.get("band") or (v["min_len"], v["max_len"]), v["style"])

    def asked(self, v: Mapping[str, Any]) -> dict[str, Any]:
        return {"band": [self.request.min_len, self.request.max_len], "style": v["style"],
                **super().asked(v)}

    def check(self) -> None:
        check_request(self.lexicon, self.request)

    def items(self, seed: int, start: int, stop: int,
              indices: Iterable[int] | None = None) -> Iterator[Item]:
        """Items start..stop-1, or those of ``indices`` (ascending: a worker's share)."""
        return self.singles(batch(self.lexicon, self.request, seed, stop - start,
                                  scope=self.scope, start=start, redraws=self.redraws,
                                  labels=self.labels, indices=indices))

    def shares(self, seed: int, parts: int) -> Callable[[int, int], list[int]]:
        """``(start, stop) ->`` which of ``parts`` workers makes each item start..stop-1: the
        one its dealt answer belongs to (the answers given to workers in turn, by word id),
        so that each worker finishes and keeps the layouts of its own answers only: workers
        that each met every answer filled copies of the same caches, and their bounded
        caches kept fewer of the layouts that come back."""
        deck = batch_deck(self.lexicon, self.request, seed, scope=self.scope)
        share = {a: k % parts for k, a in enumerate(sorted(set(deck.cands)))}
        return lambda start, stop: list(map(share.__getitem__, deck.deal(start, stop)))


class EndlessSection(BoardSection):
    kind = "endless"
    spec = crossword_config.ENDLESS + crossword_config.BOARD

    def step(self, board_id: int) -> int | None:
        from wordforge_cli.crossword.difficulty import endless_step

        return endless_step(board_id, self.cfg.endless.unlock_every)

    def check(self) -> None:
        check_endless(self.lexicon, self.cfg.endless, self.request)

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        plan = replace(self.cfg.endless, redraws=self.redraws)
        return self.singles(endless(self.lexicon, plan, self.request, seed, stop - start,
                                    start=start, scope=self.scope, labels=self.labels))


class ChallengeSection(BoardSection):
    kind = "challenge"
    spec = crossword_config.CHALLENGE + crossword_config.BOARD + crossword_config.STYLED

    def step(self, board_id: int) -> int | None:
        from wordforge_cli.crossword.difficulty import challenge_step

        return challenge_step(board_id, len(self.cfg.ramp))

    def check(self) -> None:
        check_challenge(self.lexicon, self.cfg.ramp, self.request, self.cfg.endless.fallback)

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        size = len(self.cfg.ramp)
        for index, item_seed, boards in challenges(self.lexicon, self.cfg.ramp, self.request,
                                                   seed, stop - start, start=start,
                                                   scope=self.scope, redraws=self.redraws,
                                                   fallback=self.cfg.endless.fallback,
                                                   labels=self.labels):
            if isinstance(boards, OutOfBudget):  # counted, the run goes on
                yield Item([], failed=boards.size, reason=boards.reason)
                continue
            if self.ordered:
                from wordforge_cli.crossword.difficulty import easiest_first

                boards = easiest_first(self.lexicon, boards)
            yield self.item(list(boards), index * size, item_seed)


def _prepare(cls: type[BoardSection]
             ) -> Callable[[SectionContext, int, tuple[str, ...], int], BoardSection]:
    def prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
                render_limit: int) -> BoardSection:
        vocab_path = ctx.path("vocab", required=True, what="vocabulary file")
        config_path = ctx.path("config", what="crossword config")
        cfg = load_config(config_path)
        v = cls.spec.resolve(cfg.options, ctx.read(cls.spec))
        lexicon = load_lexicon(vocab_path, v)
        data = [user_file(ctx, vocab_path),
                user_file(ctx, config_path) if config_path
                else bundled_file("configs", "crossword.yaml")]
        if v["difficulty"]:  # the word lists the familiarity-aware figures read
            from wordforge_cli.batch.familiarity import familiarity_files

            data += familiarity_files(lexicon.language)
        section = cls(ctx.spec.name, v, cfg, lexicon, count=count, render=render,
                      render_limit=render_limit, data=data,
                      options={"vocab": data[0].label, "config": data[1].label})
        # the engine's own impossible-request check, named at the field it refuses
        with ctx.refusing(prefix="can never succeed: ", keys=BAND, fallback="vocab",
                          given=cfg.given()):
            section.check()
        return section

    return prepare


def load_lexicon(path: str | Path, v: Mapping[str, Any], *, duplicates: bool = False
                 ) -> Lexicon:
    """The vocabulary's lexicon, its skipped entries warned about (the intake policy's one
    wording); ``duplicates``: the words dropped as repeats too (the command line's)."""
    from wordforge_cli.core.messages import say, warn_skipped

    vocab = read_vocab(path)
    lexicon = prepare_lexicon(vocab, fold_small=v["fold_small"], strict=v["strict_vocab"])
    warn_skipped(vocab.path, lexicon.skipped)
    for dup in lexicon.duplicates if duplicates else ():
        say(f"{vocab.path}:{dup.line}: duplicate word '{dup.word}' (the same as line "
            f"{dup.first_line} after normalisation: {dup.normalised}), dropped")
    return lexicon


FORMS = {cls.kind: cls for cls in (BatchSection, EndlessSection, ChallengeSection)}


def _kind(cls: type[BoardSection], group: str | None = None) -> Kind:
    return Kind(cls.kind, FILE_KEYS + cls.spec.keys(PACK), RENDERS, _prepare(cls),
                count=cls.spec["count"], draw=_draw, charts=_charts, noun="board",
                group=group)


def _charts(kind: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    from wordforge_cli.render.charts import crossword_charts, play_charts

    return crossword_charts(stats) + play_charts(kind, stats)


def _draw(section: str, record: dict[str, Any]) -> str:
    from wordforge_cli.render.html import board_figure

    return board_figure(section, record)


CROSSWORD = _kind(BatchSection)  # a batch of boards (one answer band, one blank style)
ENDLESS = _kind(EndlessSection)  # questions 0..count-1 of the endless run (the config's plan)
CHALLENGE = _kind(ChallengeSection, "set")  # count challenge sets of 10 boards along the
# config's ramp
