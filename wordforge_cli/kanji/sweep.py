"""Sweeps of kanji self-play: one setting played at several values, everything else fixed.

A key is the config's ``preset`` (each preset's values, under what the command line gave) or
one of the options of :data:`~wordforge_cli.kanji.config.POOLS` that shape the game or its
pools (:data:`KEYS`): the end rule (``limit``, ``hidden_words``), the pool's size (``base``,
``bring``, ``kanji``), its words (``max_grade``, ``min_zipf``), the games per pool, the
balance band and the player both seats play (``player``). Each value is checked as its option
checks it, and refused with one line naming the key and the value. Pool i of every value is
drawn from the same stream (``(seed, "kanji", i)``).

Pure: texts and option values in, each row's option values out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wordforge_cli.core.errors import UsageError
from wordforge_cli.io.checks import did_you_mean

# sweep key -> the POOLS field that checks its values (player: both seats play it)
KEYS = {"limit": "limit", "hidden_words": "hidden_words", "base": "base", "bring": "bring",
        "kanji": "kanji", "max_grade": "max_grade", "min_zipf": "min_zipf", "games": "games",
        "band": "band", "player": "players"}
ALL_KEYS = ("preset", *KEYS)


def settings(key: str, texts: Sequence[str], values: Mapping[str, Any],
             preset: Callable[[str], dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """``(value text, option values)`` of each value of ``--sweep KEY=V1,V2,...``:
    ``values`` are the run's own, ``preset(name)`` the values a preset gives (under the
    command line's). UsageError(field="sweep") for an unknown key or a refused value."""
    from wordforge_cli.kanji.config import POOLS

    if key not in ALL_KEYS:
        raise UsageError(f"unknown key '{key}'{did_you_mean(key, ALL_KEYS)} (keys: "
                         f"{', '.join(ALL_KEYS)})", field="sweep")
    out = []
    for text in texts:
        if key == "preset":
            try:
                these = preset(text)
            except UsageError as error:
                raise UsageError(f"preset={text}: {error.message}", field="sweep") from None
        else:
            f = POOLS[KEYS[key]]
            try:
                value = POOLS.parse(f.name, text)
            except UsageError as error:
                raise UsageError(f"{key}={text}: {error.message}", field="sweep") from None
            these = {**values, f.name: (value,) if f.multiple else value}
        out.append((text, these))
    return out
