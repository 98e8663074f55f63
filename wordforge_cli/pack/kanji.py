"""Kanji sections of a pack: pools for the jukugo territory game.

Calls the engine ``wfkit kanji`` calls (``kanji.make_pool``, ``kanji.pool_record``,
``kanji.PoolStats``); pool i draws only from ``item_rng(seed, section_name, i)``, exactly
as ``kanji.iter_pools`` with the section name as scope.
"""

from __future__ import annotations

from collections.abc import Iterator

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


class KanjiStats(Stats):
    """The engine's PoolStats plus the pools whose kanji-count budget ran out."""

    def __init__(self, inner=None, failed: int = 0) -> None:
        from wordforge_cli.kanji import PoolStats

        self.inner = inner if inner is not None else PoolStats()
        self.failed = failed

    def add(self, item: Item) -> None:
        for record in item.records:
            self.inner.add(record)
        self.failed += item.failed

    def merge(self, other: KanjiStats) -> None:
        self.inner.merge(other.inner)
        self.failed += other.failed

    def to_state(self) -> dict:
        return {"failed": self.failed, "pools": self.inner.state()}

    @classmethod
    def from_state(cls, state: dict) -> KanjiStats:
        from wordforge_cli.kanji import PoolStats

        return cls(PoolStats.from_state(state["pools"]), int(state["failed"]))

    def summary(self) -> dict:
        return {"made": self.inner.pools, "failed": self.failed, **self.inner.summary()}


class KanjiSection(Section):
    kind = "kanji"
    stats_class = KanjiStats

    def __init__(self, name, count, render, render_limit, options, *, dictionary, request,
                 data):
        super().__init__(name, count, render, render_limit, options, data)
        self.dictionary = dictionary
        self.request = request
        self.view = None

    def __getstate__(self) -> dict:
        return {**self.__dict__, "view": None}

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.kanji import check_request, make_pool, pool_record
        from wordforge_cli.rng import derive_seed, item_rng

        if self.view is None:
            self.view = check_request(self.dictionary, self.request)
        for index in range(start, stop):
            try:
                pool = make_pool(self.dictionary, self.request,
                                 item_rng(seed, self.name, index), self.view)
            except CannotDo:  # its kanji-count budget ran out: counted, the pack goes on
                yield Item([], failed=1)
                continue
            yield Item([pool_record(self.dictionary, self.request, pool, index,
                                    derive_seed(seed, self.name, index))])

    def render_item(self, fmt: str, record: dict) -> str:
        if fmt == "svg":
            return pool_svg(record)
        return pool_text(record)


def pool_svg(record: dict) -> str:
    """The engine's SVG of a pool's tile board, tiles coloured by grade, compounds listed."""
    from wordforge_cli.kanji import load_grades
    from wordforge_cli.render import kanji as render

    return render.pool_svg(record, reveal=True, grades=load_grades())


def pool_text(record: dict) -> str:
    from wordforge_cli.render import kanji as render

    return render.pool_text(record, reveal=True)


def _prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
             render_limit: int) -> KanjiSection:
    """Defaults from the kanji config (``config``, else the bundled one) and its ``preset``,
    exactly as ``wfkit kanji --config --preset`` takes them; the section's own keys win."""
    from wordforge_cli.config import bundled_config
    from wordforge_cli.kanji import PoolRequest, check_request, load_dictionary
    from wordforge_cli.kanji.config import POOLS, load_config

    dict_path = ctx.path("dict", what="dictionary file")
    config_path = ctx.path("config", what="kanji config")
    cfg = load_config(config_path or bundled_config("kanji"))
    preset = ctx.string("preset")
    try:
        defaults = cfg.values(preset)
    except UsageError as exc:
        raise ctx.field_error(exc.message, "preset") from None
    preset = cfg.preset_name(preset)
    v = POOLS.resolve(defaults, ctx.read(POOLS, extra=OWN_KEYS))
    request = PoolRequest(base=v["base"], bring=v["bring"], kanji=v["kanji"],
                          max_grade=v["max_grade"], base_max_grade=v["base_max_grade"],
                          min_zipf=v["min_zipf"], budget=v["attempts"],
                          examples=v["hidden_examples"])
    dictionary = load_dictionary(dict_path)
    try:
        check_request(dictionary, request)
    except UsageError as exc:  # the engine names the field it refuses
        key = exc.field if exc.field and ctx.has(exc.field) else (
            "preset" if ctx.has("preset") else None)
        raise ctx.field_error(f"can never succeed: {exc.message}", key) from None
    data = [user_file(ctx, dict_path) if dict_path
            else bundled_file("data", "jukugo.tsv", note="jukugo.md"),
            bundled_file("data", "kanji_grades.tsv", note="jukugo.md"),
            user_file(ctx, config_path) if config_path else bundled_file("configs", "kanji.yaml")]
    options = {"dict": data[0].label, "config": data[2].label, "preset": preset,
               "base": request.base, "bring": request.bring,
               "kanji": list(request.kanji) if request.kanji else None,
               "max_grade": request.max_grade, "base_max_grade": request.base_max_grade,
               "min_zipf": request.min_zipf, "attempts": request.budget,
               "hidden_examples": request.examples}
    return KanjiSection(ctx.spec.name, count, render, render_limit, options,
                        dictionary=dictionary, request=request, data=data)


OWN_KEYS = ("dict", "config", "preset")


def _keys() -> tuple[str, ...]:
    from wordforge_cli.kanji.config import POOLS
    from wordforge_cli.spec import PACK

    return OWN_KEYS + POOLS.keys(PACK)


KANJI = Kind("kanji", _keys(), ("text", "svg"), _prepare,
             doc="pools of jukugo for the territory game (n base words + m drawn)")
