"""``wfkit balance``: WordForge played by simulated players, the figures a designer tunes by."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.options.shared import report_seed, seed_option
from wordforge_cli.wordforge.config import GAME, rule_options

if TYPE_CHECKING:
    from wordforge_cli.wordforge.balance import GameRules, Model
    from wordforge_cli.wordforge.config import RuleFiles


@click.command()
@GAME.options()
@rule_options
@seed_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the report to FILE (atomically) instead of stdout.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def balance(ctx: click.Context, games: int, players: int, turns: int, models: tuple[Model, ...],
            compare_path: str | None, powerups: bool, use_at: int, rule: RuleFiles, seed: int,
            output: str | None, as_json: bool) -> None:
    """Play WordForge games between simulated players and report how the rules play.

    Each game deals hands of 10 from the shuffled bag (as wfkit tiles does); players take
    turns playing the word that scores most this turn among the words they know (exact, with
    combo and link), refill from the bag, pass and swap when they can make nothing, and
    spend one Double, Overdrive, Gold Rush and Fortress each per game. Reported: score per
    turn, tier and length of the words played, combo lengths, how often each power-up is
    used and how often its points decided the game, wins per seat, mean scores and margins.
    --compare plays the same deals under a second rules file.

    \b
    Examples:
      wfkit balance -n 200 --seed 1
      wfkit balance -n 200 --player B1 --player C2 --seed 1
      wfkit balance -n 200 --seed 1 --compare examples/rarity-no-short-cap.yaml --json
    """
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.wordforge.balance import GameRules, parse_model

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
    reports = [(label, _run(files, chosen, players, seed, games, game)) for label, files in runs]
    report_seed(ctx, seed)
    if compare_path:
        a, b = reports[0][1], reports[1][1]
        same = a.pop("bag") == b.pop("bag")
        doc: dict[str, Any] = {"seed": seed, "same_deals": same,
                               "rules": [label for label, _ in reports],
                               "reports": [r for _, r in reports]}
    else:
        doc = {"seed": seed, **reports[0][1]}
        doc.pop("bag")
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(doc) + "\n" if as_json else _text(doc))


def _run(rule: RuleFiles, models: Sequence[Model], players: int, seed: int, games: int,
         game: GameRules) -> dict[str, Any]:
    """The report of ``games`` games: the pack's balance section, named as the engine's scope
    ("balance"), run for its statistics."""
    from wordforge_cli.batch.balance import BalanceSection, asked_of
    from wordforge_cli.batch.sinks import summed
    from wordforge_cli.wordforge.balance import check_seats

    rules = rule.load(whole=True)[0]
    check_seats(rules, players)
    section = BalanceSection("balance", games, (), 0, asked_of(models, game), rules=rules,
                             models=list(models), game=game, files=rule)
    report = summed(section, seed, lines=lambda item: [], unit="game").summary
    report["bag"] = sorted(rules.tiles.counts.items())
    return report


def _text(doc: dict[str, Any]) -> str:
    reports = doc.get("reports") or [doc]
    heads = doc.get("rules") or [""]
    width = max(24, *(len(h) + 2 for h in heads))
    out: list[str] = []

    def row(name: str, values: list[str]) -> None:
        out.append(f"{name:<26}" + "".join(f"{v:>{width}}" for v in values))

    first = reports[0]
    out.append(f"{first['games']} games, {len(first['players'])} players "
               f"({', '.join(first['players'])}), {first['turns']} turns each, seed "
               f"{doc['seed']}" + ("" if first["powerups"] else ", no power-ups"))
    if "same_deals" in doc:
        out.append("same deals under both rules" if doc["same_deals"] else
                   "the bags differ: the deals are not the same")
        row("", heads)
    sp = [r["score_per_turn"] for r in reports]
    row("score per turn: mean", [f"{s['mean']:.2f}" for s in sp])
    row("  p10 / median / p90", [f"{s['p10']} / {s['median']} / {s['p90']}" for s in sp])
    for label in first["wins"]:
        name = "draws" if label == "draw" else f"wins {label}"
        row(name, [f"{r['wins'][label]:.1%}" for r in reports])
    for label in first["mean_score"]:
        row(f"mean score {label}", [f"{r['mean_score'][label]:.1f}" for r in reports])
    if first["margin"] is not None:
        row("margin seat 1 - 2: mean", [f"{r['margin']['mean']:.1f}" for r in reports])
    for key in first["tiers"]:
        row(f"tier {key}", [f"{r['tiers'].get(key, 0):.1%}" for r in reports])
    lengths = sorted({int(n) for r in reports for n in r["lengths"]})
    for n in lengths:
        row(f"{n} letters", [f"{r['lengths'].get(str(n), 0):.1%}" for r in reports])
    combos = sorted({int(n) for r in reports for n in r["combos"]})
    for n in combos:
        row(f"combo {n}", [f"{r['combos'].get(str(n), 0):.1%}" for r in reports])
    row("longest combo: mean", [f"{r['longest_combo']['mean']:.2f}" for r in reports])
    row("link", [f"{r['link_share']:.1%}" for r in reports])
    row("pass", [f"{r['pass_share']:.1%}" for r in reports])
    for label in first["seats"]:
        row(f"{label}: pass", [f"{r['seats'][label]['pass_share']:.1%}" for r in reports])
        row("  points per word", [f"{r['seats'][label]['points_per_word']:.1f}"
                                  for r in reports])
        top = list(first["tiers"])[-2:]  # the two top tiers: what rare words bring
        row("  words of the top 2 tiers",
            [f"{sum(r['seats'][label]['tiers'][k] for k in top):.1%}" for r in reports])
    if first["powerups"]:
        for name in first["powerup_effect"]:
            row(f"{name}: points / use", [f"{r['powerup_effect'][name]['mean_points']:.1f}"
                                          for r in reports])
            row("  decided the game", [f"{r['powerup_effect'][name]['decided_games']:.1%}"
                                       for r in reports])
    return "\n".join(out) + "\n"
