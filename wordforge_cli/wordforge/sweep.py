"""Sweeps of WordForge's balance: one setting played at several values, everything else fixed.

A key is one of the game options ``wfkit balance`` takes (:data:`GAME_KEYS`: turns, players,
powerups, use_at, player), or any single value of the rules file by its path, the keys
joined by dots: ``score.double``, ``score.combo_step``, ``tiers.legendary.multiplier``,
``short_words.cap`` (the short-word cap), ``short_words.max_length``,
``tiles.two_sets_from`` (from how many players the bag holds two sets), ``tiles.hand_size``.
Each value is checked as the option or the rules file checks it, and refused with one line
naming the key and the value. Every value plays the same deals and seeds (game i from
``(seed, "balance", i)``), so the rows differ by the setting, not by the luck of the deal
(except where the setting changes the deal itself: players, hand size, bag sets).

Pure: texts and the rules document in, the settings to play out.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from wordforge_cli.core.errors import ConfigError, UsageError

if TYPE_CHECKING:
    from wordforge_cli.io.yamlio import YamlDoc
    from wordforge_cli.wordforge.balance import GameRules, Model
    from wordforge_cli.wordforge.rarity import Rules

# sweep key -> the GAME field that checks its values (player: every seat plays the model)
GAME_KEYS = {"turns": "turns", "players": "players", "powerups": "powerups",
             "use_at": "use_at", "player": "models"}
RULE_EXAMPLES = ("score.double", "tiers.legendary.multiplier", "short_words.cap",
                 "tiles.two_sets_from")


@dataclass(frozen=True)
class Setting:
    """One row of a sweep: the value as its text, and the rules, game and seats it plays."""

    value: str
    rules: Rules
    game: GameRules
    models: tuple[Model, ...]


def seats(models: Sequence[Model], players: int) -> tuple[Model, ...]:
    """One model per seat: the one model given for every seat, else the models in seat
    order (UsageError naming --player when their number is not the seats')."""
    from wordforge_cli.wordforge.balance import parse_model

    chosen = list(models) or [parse_model("all")]
    if len(chosen) == 1:
        chosen = chosen * players
    if len(chosen) != players:
        raise UsageError(f"give one model or one per seat ({players}), not {len(chosen)}",
                         field="models")
    return tuple(chosen)


def settings(key: str, texts: Sequence[str], *, doc: YamlDoc, rules: Rules, game: GameRules,
             models: Sequence[Model], players: int) -> list[Setting]:
    """The settings of ``--sweep KEY=V1,V2,...``: ``doc`` is the rules file as read (its data
    is what a rule path changes), ``rules``, ``game``, ``models`` and ``players`` the rest of
    the run. UsageError(field="sweep") for an unknown key or a value its check refuses."""
    from wordforge_cli.wordforge.balance import check_seats

    out = []
    for text in texts:
        if key in GAME_KEYS:
            value = _game_value(key, text)
            these_rules = rules
            these_game = game
            count = players
            these_models: tuple[Model, ...] | None = None
            if key == "players":
                count = value
            elif key == "player":
                these_models = (value,) * players
            else:
                these_game = replace(game, **{key: value})
            if these_models is None:
                if key == "players" and len(models) > 1:
                    raise UsageError("players: give one --player model (every seat plays it) "
                                     f"to sweep the seats, not {len(models)}", field="sweep")
                these_models = seats(models, count)
        else:
            these_rules = _rules_with(doc, key, text)
            these_game, these_models, count = game, seats(models, players), players
        try:
            check_seats(these_rules, count)
        except UsageError as error:
            raise UsageError(f"{key}={text}: {error.message}", field="sweep") from None
        out.append(Setting(text, these_rules, these_game, these_models))
    return out


def _game_value(key: str, text: str) -> Any:
    from wordforge_cli.wordforge.config import GAME

    try:
        return GAME.parse(GAME_KEYS[key], text)
    except UsageError as error:
        raise UsageError(f"{key}={text}: {error.message}", field="sweep") from None


def _rules_with(doc: YamlDoc, key: str, text: str) -> Rules:
    """The rules of ``doc`` with the value at path ``key`` set to ``text`` (read as YAML reads
    a value), checked as the rules file is."""
    from wordforge_cli.io.checks import did_you_mean
    from wordforge_cli.io.yamlio import parse_yaml
    from wordforge_cli.wordforge.rarity import rules_from_config

    data = copy.deepcopy(doc.data)
    parts = key.split(".")
    node: Any = data
    names: dict[str, Any] = {}
    for depth, part in enumerate(parts):
        inside = ".".join(parts[:depth])
        if not isinstance(node, dict):
            raise UsageError(f"unknown key '{key}': {inside} is one value, with nothing "
                             "inside it", field="sweep")
        names = {str(k): k for k in node}
        if part not in names:
            if depth == 0:
                hint = did_you_mean(part, [*GAME_KEYS, *names])
                known = (f"a game option ({', '.join(GAME_KEYS)}) or a value of the rules "
                         f"by its path, e.g. {', '.join(RULE_EXAMPLES)}")
            else:
                hint = did_you_mean(part, names)
                known = f"{inside} holds {', '.join(names)}"
            raise UsageError(f"unknown key '{key}'{hint}: {known}", field="sweep")
        if depth < len(parts) - 1:
            node = node[names[part]]
    last = names[parts[-1]]
    if isinstance(node[last], dict | list):
        what = "section" if isinstance(node[last], dict) else "list"
        raise UsageError(f"{key} is a {what} of the rules, not one value: name a value "
                         f"inside it (e.g. {', '.join(RULE_EXAMPLES)})", field="sweep")
    try:
        node[last] = parse_yaml(text, "--sweep").data
    except ConfigError as error:
        raise UsageError(f"{key}={text}: {error.message}", field="sweep") from None
    try:
        return rules_from_config(data, doc)
    except ConfigError as error:
        raise UsageError(f"{key}={text}: {error.message}", field="sweep") from None
