"""``wfkit balance``: WordForge played by simulated players, the figures a designer tunes by."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.options.shared import quiet_option, report_seed, seed_option
from wordforge_cli.wordforge.config import GAME, rule_options

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import Item
    from wordforge_cli.wordforge.balance import GameRules, Model
    from wordforge_cli.wordforge.config import RuleFiles


@click.command()
@GAME.options()
@rule_options
@seed_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the report to FILE (atomically) instead of stdout.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--round-robin", is_flag=True,
              help="Rate the --player models: every ordered pair at a two-seat table (each "
                   "model in each seat), the same -n deals for every pair; wins per model and "
                   "a Bradley-Terry rating on the Elo scale.")
@quiet_option
@click.pass_context
def balance(ctx: click.Context, games: int, players: int, turns: int, models: tuple[Model, ...],
            compare_path: str | None, powerups: bool, use_at: int, rule: RuleFiles, seed: int,
            output: str | None, as_json: bool, round_robin: bool) -> None:
    """Play WordForge games between simulated players and report how the rules play.

    Each game deals hands of 10 from the shuffled bag (as wfkit tiles does); players take
    turns playing the word that scores most this turn among the words they know (exact, with
    combo and link; ties: the higher plain score, then the word alphabetically), refill from
    the bag, pass and swap when they can make nothing, and spend one Double, Overdrive, Gold
    Rush and Fortress each per game (on the word chosen: the charge adding most to it).
    Reported: score per turn, tier and length of the words played, combo lengths, how often
    each power-up is used and how often its points decided the game, wins per seat and per
    model, mean scores and margins.
    Every rate and mean carries its 95% interval and n (Wilson for rates, normal over games
    for means; `~` marks a win share whose interval covers the fair share). --compare plays
    the same deals and seeds under a second rules file and reports the paired difference
    (second minus first) with its interval and the games whose winner changed.

    \b
    Examples:
      wfkit balance -n 200 --seed 1
      wfkit balance -n 200 --player B1 --player C2 --seed 1
      wfkit balance -n 200 --seed 1 --compare examples/rarity-no-short-cap.yaml --json
      wfkit balance -n 100 --round-robin --player B1 --player B2 --player C2 --seed 1
    """
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.render.balance import report_text
    from wordforge_cli.wordforge.balance import GameRules, parse_model

    if round_robin:
        _round_robin(ctx, rule, models, seed, games,
                     GameRules(turns=turns, powerups=powerups, use_at=use_at), compare_path,
                     output, as_json)
        return
    chosen = list(models) or [parse_model("all")]
    if len(chosen) == 1:
        chosen = chosen * players
    if len(chosen) != players:
        raise UsageError(f"--player: give one model or one per seat ({players}), not "
                         f"{len(chosen)}")
    game = GameRules(turns=turns, powerups=powerups, use_at=use_at)
    runs = [(rule.config_path or "bundled rules", rule)]
    if compare_path:
        runs.append((compare_path, replace(rule, config_path=compare_path)))
    outcomes: list[list[list[int]]] = [[] for _ in runs]
    reports = [(label, _run(files, chosen, players, seed, games, game, kept))
               for (label, files), kept in zip(runs, outcomes, strict=True)]
    report_seed(ctx, seed)
    if compare_path:
        from wordforge_cli.wordforge.balance import paired

        a, b = reports[0][1], reports[1][1]
        same = a.pop("bag") == b.pop("bag")
        doc: dict[str, Any] = {"seed": seed, "same_deals": same,
                               "rules": [label for label, _ in reports],
                               "reports": [r for _, r in reports],
                               "difference": paired(outcomes[0], outcomes[1], game)}
    else:
        doc = {"seed": seed, **reports[0][1]}
        doc.pop("bag")
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(doc) + "\n" if as_json else report_text(doc))


def _run(rule: RuleFiles, models: Sequence[Model], players: int, seed: int, games: int,
         game: GameRules, outcomes: list[list[int]]) -> dict[str, Any]:
    """The report of ``games`` games: the pack's balance section, named as the engine's scope
    ("balance"), run for its statistics; each game's seat totals kept in ``outcomes`` (what a
    paired comparison of two rule sets reads, game by game)."""
    from wordforge_cli.batch.balance import BalanceSection, asked_of
    from wordforge_cli.batch.sinks import summed
    from wordforge_cli.wordforge.balance import check_seats
    from wordforge_cli.wordforge.english import read_rules

    rules = read_rules(rule.config_path)
    check_seats(rules, players)
    section = BalanceSection("balance", games, (), 0, asked_of(models, game), rules=rules,
                             models=list(models), game=game, files=rule)

    def kept(item: Item) -> list[bytes]:
        outcomes.append(item.records[0]["totals"])
        return []

    report = summed(section, seed, lines=kept, unit="game").summary
    report["bag"] = sorted(rules.tiles.counts.items())
    return report


def _round_robin(ctx: click.Context, rule: RuleFiles, models: Sequence[Model], seed: int,
                 games: int, game: GameRules, compare_path: str | None, output: str | None,
                 as_json: bool) -> None:
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.render.balance import round_robin_text
    from wordforge_cli.wordforge.balance import check_seats, round_robin
    from wordforge_cli.wordforge.english import read_rules

    if compare_path:
        raise UsageError("--round-robin rates models under one rules file: not with --compare")
    if len({m.name for m in models}) < 2 or len({m.name for m in models}) != len(models):
        raise UsageError("--round-robin: give two or more different --player models")
    rules = read_rules(rule.config_path)
    check_seats(rules, 2)
    index = rule.hand_index(rules, rules.tiles.hand_size)
    doc = {"seed": seed, "round_robin": round_robin(index, rules, models, seed, games, game)}
    report_seed(ctx, seed)
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(doc) + "\n" if as_json else round_robin_text(doc))
