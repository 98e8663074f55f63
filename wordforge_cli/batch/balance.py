"""Balance sections of a pack: WordForge games between simulated players (``wfkit balance``).

Calls the engine ``wfkit balance`` calls (``balance.play_game``, ``balance.summarize``); game i
is dealt only from ``item_rng(seed, section_name, i)``. One record per game (its seats' models
and totals, the winner: ``balance.GAME_FIELDS``, schema ``balance-game``); the section's
statistics are the engine's exact counts, so the manifest's figures are the same for any
``--jobs`` or shard split.

Section keys: those of ``wfkit balance``, declared once in ``words.GAME`` and ``words.RULE``:
``count`` (games), ``players`` (a list of models, one per seat: all, A1..C2, zipf:X; default
two ``all``), ``turns``, ``powerups``, ``use_at``, ``config`` (rules file), ``data`` (word
table), ``cefr``, ``overrides``, ``lemma``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wordforge_cli.batch.context import SectionContext
from wordforge_cli.batch.kinds import Item, Kind, Section
from wordforge_cli.core.rng import item_rng
from wordforge_cli.options.spec import PACK
from wordforge_cli.wordforge.config import GAME, RULE, RuleFiles

if TYPE_CHECKING:
    from wordforge_cli.batch.sinks import Run
    from wordforge_cli.wordforge.balance import GameRules, GameStats, Model, Turns
    from wordforge_cli.wordforge.hands import HandIndex
    from wordforge_cli.wordforge.rarity import Rules


@dataclass(eq=False, kw_only=True)
class BalanceSection(Section):
    kind = "balance"
    rules: Rules
    models: list[Model]
    game: GameRules
    files: RuleFiles
    # the hand index, its turns and each model's mask, built by warm() (in each worker)
    ready: tuple[HandIndex, Turns, list[dict[int, int]]] | None = field(default=None, init=False)

    def __getstate__(self) -> dict[str, Any]:  # the index is built again in each worker
        return {**self.__dict__, "ready": None}

    def warm(self, index: HandIndex | None = None) -> HandIndex:
        """Build what the games read (once; in the parent before ``--jobs`` forks, so the
        workers share it): the hand index (``index``: one already built for these rules and
        files, as a sweep's rows share it), its turns and each model's mask."""
        if self.ready is None:
            from wordforge_cli.wordforge.balance import Turns, knows

            if index is None:
                index = self.files.hand_index(self.rules, self.rules.tiles.hand_size)
            masks = [index.mask(knows(m, self.rules)) for m in self.models]
            self.ready = (index, Turns(index, self.rules), masks)
        return self.ready[0]

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        for g in range(start, stop):
            yield self._game(seed, g)

    def _game(self, seed: int, g: int, trace: list[dict[str, Any]] | None = None) -> Item:
        """Game ``g``: its record (seats' models and totals, the winner) and its counts
        (``trace``: each turn, as the engine's ``play_game`` notes it)."""
        from wordforge_cli.wordforge.balance import Tally, game_record, play_game

        self.warm()
        assert self.ready is not None  # warm() built it
        index, turns, masks = self.ready
        names = tuple(m.name for m in self.models)
        tally = Tally(players=names)
        totals = play_game(index, turns, self.rules, masks, item_rng(seed, self.name, g),
                           self.game, tally, trace)
        return Item([game_record(g, names, totals)], made=(tally,))

    def trace(self, seed: int, g: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Game ``g`` replayed alone, turn by turn: its turns (seat, turn, hand, word or
        None for a pass, score, combo, link, power-up, whether an opponent's Fortress cut
        it) and the record the batch writes of it (the same game: its own stream)."""
        turns: list[dict[str, Any]] = []
        record = self._game(seed, g, turns).records[0]
        return turns, record

    def new_stats(self) -> GameStats:
        from wordforge_cli.wordforge.balance import GameStats

        return GameStats(self.rules, self.game, tuple(m.name for m in self.models))

    def stats_from_state(self, state: dict[str, Any]) -> GameStats:
        return self.new_stats().load(state)


def _prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
             render_limit: int) -> BalanceSection:
    """The options ``wfkit balance`` takes (``words.GAME``, ``words.RULE``), read by their one
    declaration; the seats are the section's ``players`` (default two ``all``)."""
    from wordforge_cli.batch.rarity import rule_files
    from wordforge_cli.wordforge.balance import GameRules, check_seats, parse_model

    v = (GAME + RULE).resolve(ctx.read(GAME + RULE))
    rules, data, tables = rule_files(ctx, v)
    models = list(v["models"]) or [parse_model("all")] * 2
    with ctx.refusing():
        check_seats(rules, len(models))
    game = GameRules(turns=v["turns"], powerups=v["powerups"], use_at=v["use_at"])
    options = {"config": data[0].label, "data": data[1].label, **asked_of(models, game)}
    # named only when given, so the packs built before they were keys stay current
    options.update({key: file.label for key, file in tables.items()})
    if not v["lemma"]:
        options["lemma"] = False
    return BalanceSection(ctx.spec.name, count, render, render_limit, options, rules=rules,
                          models=models, game=game, files=RuleFiles.of(v), data=data)


def asked_of(models: Sequence[Model], game: GameRules) -> dict[str, Any]:
    """What a balance section was asked beside its files (the manifest's ``options``)."""
    return {"players": [m.name for m in models], "turns": game.turns,
            "powerups": game.powerups, "use_at": game.use_at}


def play(section: BalanceSection, seed: int, jobs: int = 1,
         outcomes: list[list[int]] | None = None) -> Run:
    """The section's games in ``jobs`` worker processes (the same figures for any ``jobs``);
    each game's seat totals appended to ``outcomes`` in game order when given (what a
    paired comparison reads, game by game: taken from the records the workers write)."""
    import json

    from wordforge_cli.batch.sinks import summed

    section.warm()  # in this process: forked workers share the index

    def kept(lines: bytes) -> None:
        if outcomes is not None:
            outcomes.extend(json.loads(line)["totals"] for line in lines.splitlines())

    return summed(section, seed, jobs=jobs, unit="game",
                  write=kept if outcomes is not None else None)


def _charts(kind: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    from wordforge_cli.render.charts import balance_charts

    return balance_charts(stats)


# games between simulated players: one record a game, the designer's figures in the manifest
BALANCE = Kind("balance", (GAME + RULE).keys(PACK), (), _prepare, default_count=1000,
               count=GAME["games"],
               charts=_charts, noun="game")
