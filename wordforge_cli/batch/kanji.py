"""Kanji sections of a pack: pools for the jukugo territory game.

Calls the engine as ``wfkit kanji`` does (``kanji.pool_items``, ``kanji.PoolStats``), with the
section's name as the scope: pool i draws only from ``item_rng(seed, section_name, i)``.

Self-play is opt-in, by the keys ``wfkit kanji`` takes (``self_play: true`` or
``balanced: true``, with ``games``, ``band``, ``balance_attempts`` and ``players``, a list of one
or two models as ``--player`` takes them): each record then carries its ``balance`` figure and
the section's manifest statistics the batch's self-play figures (``stats.balance``: first and
second player's win rates, margins, steals, game length, hidden-compound moves, pools
rejected), the same bytes as ``wfkit kanji --self-play`` gives with the section's name as the
scope. Opt-in because it costs (four greedy games a pool make a batch about 6x slower:
5.4 s vs 0.9 s CPU for 1,000 normal pools), and a section that does not ask keeps its bytes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wordforge_cli.batch.kinds import (
    Beside,
    Item,
    Kind,
    Section,
    bundled_file,
    user_file,
)
from wordforge_cli.core.engine import OutOfBudget
from wordforge_cli.core.errors import CannotDo
from wordforge_cli.core.rng import derive_seed
from wordforge_cli.kanji import PoolStats, check_request, load_dictionary, load_grades, pool_items
from wordforge_cli.kanji.config import POOLS, load_config, pool_request, self_play
from wordforge_cli.kanji.territory import BalanceStats, played_pools
from wordforge_cli.options.spec import PACK
from wordforge_cli.render import renders

if TYPE_CHECKING:
    from wordforge_cli.batch.context import SectionContext
    from wordforge_cli.kanji.dictionary import Dictionary
    from wordforge_cli.kanji.pool import PoolRequest
    from wordforge_cli.kanji.territory import Game, KanjiBoard, Player, SelfPlay


def _named(index: int, reason: str) -> str:
    """A missing pool's reason, naming the pool (every missing item gets its own line)."""
    return reason if reason.startswith(f"pool {index}:") else f"pool {index}: {reason}"


@dataclass(eq=False, kw_only=True)
class KanjiSection(Section):
    kind = "kanji"
    dictionary: Dictionary
    request: PoolRequest
    play: SelfPlay | None = None  # self-play asked for (None: plain pools, the bytes of old)

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        if self.play is not None:
            yield from self._played(seed, start, stop)
            return
        for index, item in zip(range(start, stop), pool_items(
                self.dictionary, self.request, seed, range(start, stop), (self.name,)),
                strict=True):
            if isinstance(item, OutOfBudget):  # counted, the run goes on
                yield Item([], failed=1, reason=_named(index, item.reason))
            else:
                yield Item([item])

    def _played(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        """Pools with their self-play figures; each item carries the draws ``balanced``
        rejected for it, so any split of the indices counts them exactly once."""
        assert self.play is not None
        rejected: dict[str, int] = {}
        seen: dict[str, int] = {}
        for index, item in zip(range(start, stop), played_pools(
                self.dictionary, self.request, self.play, seed, range(start, stop),
                (self.name,), rejected=rejected), strict=True):
            mine = {k: c - seen.get(k, 0) for k, c in rejected.items() if c != seen.get(k, 0)}
            seen = dict(rejected)
            # (the pool figures' add, the self-play figures' add) arguments
            if isinstance(item, OutOfBudget):
                yield Item([], failed=1, made=[(None, (None, mine))],
                           reason=_named(index, item.reason))
            else:
                yield Item([item], made=[((item,), (item, mine))])

    def trace(self, seed: int, index: int) -> tuple[dict[str, Any], KanjiBoard,
                                                   list[tuple[str, tuple[Player, Player],
                                                              Game]]]:
        """Pool ``index`` of the batch (its redraws under ``balanced`` included), its board
        and every self-play game its record counts, move by move: ``("play", seats, game)`` for the
        games its figures come from, then ``("fresh", ...)`` for the games ``balanced``
        replays it on (the streams ``territory.played_pools`` plays them from: the record's
        ``balance`` is these games' figures, a test holds them equal). CannotDo when the
        pool's budget runs out, as the batch counts it."""
        from wordforge_cli.kanji.territory import make_board, self_play

        play = self.play
        if play is None:
            raise ValueError("a trace replays self-play: this section plays no games")
        item = next(self._played(seed, index, index + 1))
        if not item.records:
            raise CannotDo(item.reason or f"pool {index}: out of budget")
        record = item.records[0]
        board = make_board(self.dictionary, record["kanji"], record["words"])
        games: list[tuple[str, tuple[Player, Player], Game]] = []
        for stage, count in (("play", play.games), ("fresh", play.fresh)):
            if stage == "fresh" and (play.band is None or not count):
                continue
            played: list[tuple[tuple[Player, Player], Game]] = []
            self_play(board, play.players, random.Random(derive_seed(record["seed"], stage)),
                      count, limit=play.limit, shown_variant=play.shown_variant,
                      played=played)
            games += [(stage, seats, game) for seats, game in played]
        return record, board, games

    def new_stats(self) -> PoolStats | Beside:
        """The engine's pool figures, beside their self-play figures when played, as
        ``wfkit kanji --self-play --stats`` writes them."""
        if self.play is None:
            return PoolStats()
        return Beside({"pools": PoolStats(), "played": BalanceStats()}, "balance")

    def stats_from_state(self, state: dict[str, Any]) -> PoolStats | Beside:
        if self.play is None:
            return PoolStats.from_state(state)
        return Beside({"pools": PoolStats.from_state(state["pools"]),
                       "played": BalanceStats.from_state(state["played"])}, "balance")

    def render_item(self, fmt: str, record: dict[str, Any]) -> str:
        from wordforge_cli.render import render

        # the compounds listed (a Look reveals them); svg: the tiles coloured by grade
        return render("kanji", fmt, record)


def _prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
             render_limit: int) -> KanjiSection:
    """Defaults from the kanji config (``config``, else the bundled one) and its ``preset``,
    exactly as ``wfkit kanji --config --preset`` takes them; the section's own keys win."""
    config_path = ctx.path("config", what="kanji config")
    cfg = load_config(config_path)
    preset = ctx.string("preset")
    with ctx.refusing():
        defaults = cfg.values(preset)
    preset = preset or cfg.preset
    v = POOLS.resolve(defaults, ctx.read(POOLS))
    request = pool_request(v)
    dict_path = v["dict_path"]
    dictionary = load_dictionary(dict_path)
    from wordforge_cli.core.messages import intake  # the intake policy's one wording

    intake(dictionary.source, dictionary.skipped, strict=v["strict_vocab"])
    given = cfg.given(preset)
    # the engine names the field it refuses
    with ctx.refusing(prefix="can never succeed: ", given=given, fallback="preset"):
        check_request(dictionary, request)
    data = [user_file(ctx, dict_path) if dict_path
            else bundled_file("data", "jukugo.tsv", note="jukugo.md"),
            bundled_file("data", "kanji_grades.tsv", note="jukugo.md"),
            user_file(ctx, config_path) if config_path else bundled_file("configs", "kanji.yaml")]
    # the self-play wfkit kanji --self-play/--balanced reads (the config's and preset's values
    # under the section's own), or None when not asked
    if not (v["self_play"] or v["balanced"]) and ctx.has("players"):
        raise ctx.error("'players' plays pools: also say self_play: true (or balanced: "
                        "true)", "players")
    with ctx.refusing(given=given):
        play = self_play(v)
    options = {"dict": data[0].label, "config": data[2].label, "preset": preset,
               **asked_of(v, play)}
    return KanjiSection(ctx.spec.name, count, render, render_limit, options,
                        dictionary=dictionary, request=request, data=data, play=play)


def asked_of(v: dict[str, Any], play: SelfPlay | None) -> dict[str, Any]:
    """What a kanji section was asked, from its spec's values: the manifest's ``options``
    (after its files and preset) and the ``request`` of ``wfkit kanji --stats``; the
    self-play fields only when asked, so a section that does not ask keeps its bytes."""
    fields = {f.config_key: v[f.name] for f in POOLS.on(PACK) if f.name in _REQUEST}
    if play is not None:
        fields.update(self_play=True, balanced=play.band is not None, band=v["band"],
                      games=play.games, balance_attempts=play.budget,
                      players=[p.name for p in play.players], limit=v["limit"],
                      hidden_words=v["hidden_words"], fresh_games=play.fresh)
    return fields


OWN_KEYS = ("config", "preset")
# the request's fields, in the manifest's order (the self-play ones only when asked)
_REQUEST = ("base", "bring", "kanji", "max_grade", "base_max_grade", "min_zipf", "attempts",
            "hidden_examples")


def _draw(section: str, record: dict[str, Any]) -> str:
    from wordforge_cli.render.html import pool_figure

    return pool_figure(record, load_grades())


def _charts(kind: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    from wordforge_cli.render.charts import play_charts, pool_charts

    return pool_charts(stats) + play_charts(kind, stats)


def _legend() -> str:
    from wordforge_cli.render.html import grade_legend

    return grade_legend()


# pools of jukugo for the territory game (n base words + m drawn)
KANJI = Kind("kanji", OWN_KEYS + POOLS.keys(PACK), renders("kanji"), _prepare,
             count=POOLS["count"], draw=_draw, charts=_charts, legend=_legend, noun="pool")
