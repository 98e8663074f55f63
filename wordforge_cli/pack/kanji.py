"""Kanji sections of a pack: pools for the jukugo territory game.

Calls the engine as ``wfkit kanji`` does (``kanji.pool_items``, ``kanji.PoolStats``), with the
section's name as the scope: pool i draws only from ``item_rng(seed, section_name, i)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wordforge_cli.errors import UsageError
from wordforge_cli.pack.config import SectionContext
from wordforge_cli.pack.kinds import (
    Item,
    Kind,
    Section,
    bundled_file,
    user_file,
)


class KanjiSection(Section):
    kind = "kanji"

    def __init__(self, name, count, render, render_limit, options, *, dictionary, request,
                 data):
        super().__init__(name, count, render, render_limit, options, data)
        self.dictionary = dictionary
        self.request = request

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.engine import OutOfBudget
        from wordforge_cli.kanji import pool_items

        for item in pool_items(self.dictionary, self.request, seed, range(start, stop),
                               (self.name,)):
            if isinstance(item, OutOfBudget):  # counted, the pack goes on
                yield Item([], failed=1)
            else:
                yield Item([item])

    def new_stats(self) -> Any:
        from wordforge_cli.kanji import PoolStats

        return PoolStats()

    def stats_from_state(self, state: dict[str, Any]) -> Any:
        from wordforge_cli.kanji import PoolStats

        return PoolStats.from_state(state)

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
    from wordforge_cli.options import intake  # the intake policy's one wording

    intake(dictionary.source, dictionary.skipped, strict=ctx.boolean("strict_vocab", False))
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


OWN_KEYS = ("dict", "config", "preset", "strict_vocab")


def _keys() -> tuple[str, ...]:
    from wordforge_cli.kanji.config import POOLS
    from wordforge_cli.spec import PACK

    return OWN_KEYS + POOLS.keys(PACK)


KANJI = Kind("kanji", _keys(), ("text", "svg"), _prepare,
             doc="pools of jukugo for the territory game (n base words + m drawn)")
