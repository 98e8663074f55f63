"""``wfkit balance``: WordForge played by simulated players, the figures a designer tunes by."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.options.command import command
from wordforge_cli.options.shared import (
    CHART,
    REPORT,
    jobs_option,
    quiet_option,
    report_seed,
    seed_option,
)
from wordforge_cli.wordforge.config import GAME, RUNS, rule_options

if TYPE_CHECKING:
    from wordforge_cli.batch.balance import BalanceSection
    from wordforge_cli.render.report import Part
    from wordforge_cli.wordforge.balance import GameRules, Model, Tally
    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.hands import HandIndex
    from wordforge_cli.wordforge.rarity import Rules


@command()
@GAME.options()
@rule_options
@seed_option
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the report to FILE (atomically) instead of stdout.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as JSON (--trace: JSON Lines, one record a turn).")
@click.option("--round-robin", is_flag=True,
              help="Rate the --player models: every ordered pair at a two-seat table (each "
                   "model in each seat), the same -n deals for every pair; wins per model and "
                   "a Bradley-Terry rating on the Elo scale.")
@RUNS.options()
@REPORT.option()
@CHART.option()
@jobs_option
@quiet_option
@click.pass_context
def balance(ctx: click.Context, games: int, players: int, turns: int, models: tuple[Model, ...],
            compare_path: str | None, powerups: bool, use_at: int, rule: RuleFiles, seed: int,
            output: str | None, as_json: bool, round_robin: bool,
            sweep: tuple[str, tuple[str, ...]] | None, trace: int | None,
            report_path: str | None, chart_path: str | None, jobs: int) -> None:
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
    (second minus first) with its interval and the games whose winner changed. --sweep plays
    the batch once per value of one setting; --trace replays one game of the batch turn by
    turn; --report draws the figures as charts on one HTML page. The figures are the same
    bytes for any --jobs.

    \b
    Examples:
      wfkit balance -n 200 --seed 1
      wfkit balance -n 200 --player B1 --player C2 --seed 1
      wfkit balance -n 200 --seed 1 --compare examples/rarity-no-short-cap.yaml --json
      wfkit balance -n 100 --round-robin --player B1 --player B2 --player C2 --seed 1
      wfkit balance -n 200 --seed 1 --sweep turns=5,10,15 --chart turns.svg
      wfkit balance -n 200 --seed 1 --sweep short_words.cap=super_rare,legendary
      wfkit balance -n 200 --seed 1 --trace 7
      wfkit balance -n 200 --seed 1 --report balance.html -j 2
    """
    from wordforge_cli.wordforge.balance import GameRules

    _refuse_together(compare_path, round_robin, sweep, trace, report_path, chart_path)
    game = GameRules(turns=turns, powerups=powerups, use_at=use_at)
    if round_robin:
        _round_robin(ctx, rule, models, seed, games, game, output, as_json, report_path, jobs)
        return
    if trace is not None:
        if trace >= games:
            raise UsageError(f"game {trace} is not in a batch of {games} games (-n): 0 to "
                             f"{games - 1}", field="trace")
        _trace(ctx, rule, models, players, seed, trace, game, output, as_json)
        return
    if sweep is not None:
        _sweep(ctx, rule, models, players, seed, games, game, sweep, output, as_json,
               report_path, chart_path, jobs)
        return
    _compared(ctx, rule, models, players, seed, games, game, compare_path, output, as_json,
              report_path, jobs)


def _refuse_together(compare_path: str | None, round_robin: bool,
                     sweep: tuple[str, tuple[str, ...]] | None, trace: int | None,
                     report_path: str | None, chart_path: str | None) -> None:
    """The runs a command line asks for at once that cannot go together: one line each."""
    given = {"--compare": compare_path is not None, "--round-robin": round_robin,
             "--sweep": sweep is not None, "--report": report_path is not None,
             "--chart": chart_path is not None}
    if trace is not None:
        other = next((flag for flag, on in given.items() if on), None)
        if other is not None:
            raise UsageError(f"--trace replays one game of one batch: not with {other}")
    if sweep is not None:
        other = next((flag for flag in ("--compare", "--round-robin") if given[flag]), None)
        if other is not None:
            raise UsageError(f"--sweep plays one rules file at each value: not with {other}")
    if chart_path is not None and sweep is None:
        raise UsageError("--chart draws a sweep's figures: give --sweep KEY=V1,V2,... too "
                         "(--report draws every run's)")
    if round_robin and compare_path:
        raise UsageError("--round-robin rates models under one rules file: not with --compare")


def _section(rule: RuleFiles, rules: Rules, models: Sequence[Model], games: int,
             game: GameRules, index: HandIndex | None = None) -> BalanceSection:
    """The pack's balance section, named as the engine's scope ("balance"): game i of it is
    the game ``wfkit balance`` plays as game i, whatever else the run asks."""
    from wordforge_cli.batch.balance import BalanceSection, asked_of
    from wordforge_cli.wordforge.balance import check_seats

    check_seats(rules, len(models))
    section = BalanceSection("balance", games, (), 0, asked_of(models, game), rules=rules,
                             models=list(models), game=game, files=rule)
    if index is not None:
        section.warm(index)
    return section


def _compared(ctx: click.Context, rule: RuleFiles, models: Sequence[Model], players: int,
              seed: int, games: int, game: GameRules, compare_path: str | None,
              output: str | None, as_json: bool, report_path: str | None, jobs: int) -> None:
    """One batch's report, or two on the same deals with their paired difference."""
    from wordforge_cli.batch.balance import play
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.render.balance import report_text
    from wordforge_cli.wordforge.english import read_rules
    from wordforge_cli.wordforge.sweep import seats

    chosen = seats(models, players)
    runs = [(rule.config_path or "bundled rules", rule)]
    if compare_path:
        runs.append((compare_path, replace(rule, config_path=compare_path)))
    outcomes: list[list[list[int]]] = [[] for _ in runs]
    reports = []
    for (label, files), kept in zip(runs, outcomes, strict=True):
        rules = read_rules(files.config_path)
        report = play(_section(files, rules, chosen, games, game), seed, jobs,
                      kept if compare_path else None).summary
        report["bag"] = sorted(rules.tiles.counts.items())
        reports.append((label, report))
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
    text = report_text(doc)
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(doc) + "\n" if as_json else text)
    if report_path is not None:
        from wordforge_cli.render.charts import balance_charts
        from wordforge_cli.render.report import Part

        if len(reports) == 1:
            parts = [Part(f"rules: {reports[0][0]}", balance_charts(reports[0][1]), text)]
        else:
            parts = [Part(f"rules: {label}", balance_charts(r)) for label, r in reports]
            parts.append(Part("both rules on the same deals: figures and paired difference",
                              table=text))
        _write_report(report_path, _header(seed, games, chosen, game), parts)


def _trace(ctx: click.Context, rule: RuleFiles, models: Sequence[Model], players: int,
           seed: int, index: int, game: GameRules, output: str | None, as_json: bool) -> None:
    """Game ``index`` of the batch, turn by turn, then the batch's own record of it."""
    from wordforge_cli.io.output import atomic_write, dumps
    from wordforge_cli.render.balance import trace_lines, trace_text
    from wordforge_cli.wordforge.english import read_rules
    from wordforge_cli.wordforge.sweep import seats

    chosen = seats(models, players)
    rules = read_rules(rule.config_path)
    section = _section(rule, rules, chosen, index + 1, game)
    turns, record = section.trace(seed, index)
    lines = trace_lines(index, [m.name for m in chosen], turns, record)
    report_seed(ctx, seed)
    with atomic_write(output) as fh:
        fh.write("".join(dumps(line) + "\n" for line in lines) if as_json
                 else trace_text(lines, seed))


def _sweep(ctx: click.Context, rule: RuleFiles, models: Sequence[Model], players: int,
           seed: int, games: int, game: GameRules, sweep: tuple[str, tuple[str, ...]],
           output: str | None, as_json: bool, report_path: str | None,
           chart_path: str | None, jobs: int) -> None:
    """The batch once per value of one setting: one row per value, with its intervals."""
    from wordforge_cli.batch.balance import play
    from wordforge_cli.core.intervals import METHOD
    from wordforge_cli.io.checks import bundled_config
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.io.yamlio import load_yaml
    from wordforge_cli.render.balance import SWEEP_CHARTS, sweep_text
    from wordforge_cli.render.charts import sweep_charts
    from wordforge_cli.wordforge.english import read_rules
    from wordforge_cli.wordforge.sweep import settings

    key, texts = sweep
    rules = read_rules(rule.config_path)
    doc = load_yaml(rule.config_path or bundled_config("rarity"), "config")
    rows = []
    indexes: dict[str, HandIndex] = {}  # the rows' rules' hand index, built once each
    for setting in settings(key, texts, doc=doc, rules=rules, game=game, models=models,
                            players=players):
        section = _section(rule, setting.rules, setting.models, games, setting.game,
                           indexes.get(repr(setting.rules)))
        indexes[repr(setting.rules)] = section.warm()
        summary = play(section, seed, jobs).summary
        iv = summary["intervals"]
        rows.append({"value": setting.value, "players": summary["players"],
                     "turns": summary["turns"], "powerups": summary["powerups"],
                     "use_at": summary["use_at"],
                     "first_seat_wins": iv["wins"][summary["players"][0]],
                     **{name: iv[name] for name in ("wins", "draw", "mean_score", "margin",
                                                     "score_per_turn", "pass_share")},
                     "models": summary["models"], "powerup_effect": summary["powerup_effect"]})
    out = {"seed": seed, "sweep": {"key": key, "values": list(texts), "games": games,
                                   "rules": str(rule.config_path or "bundled rules"),
                                   "method": METHOD, "rows": rows}}
    report_seed(ctx, seed)
    text = sweep_text(out)
    charts = sweep_charts(key, rows, SWEEP_CHARTS)
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(out) + "\n" if as_json else text)
    if chart_path is not None:
        from wordforge_cli.render.charts import stacked

        with atomic_write(chart_path) as fh:
            fh.write(stacked([svg for svg, _ in charts], f"wfkit balance: sweep of {key}"))
    if report_path is not None:
        from wordforge_cli.render.report import Part

        head = _header(seed, games, None, None)
        head[0] = f"sweep of {key} ({', '.join(texts)}): " + head[0]
        _write_report(report_path, head, [Part(f"sweep of {key}", charts, text)])


def _header(seed: int, games: int, models: Sequence[Model] | None, game: GameRules | None,
            unit: str = "batch") -> list[str]:
    """What a report page says was run, above its charts (a sweep's rows say their own
    seats and turns: ``models`` and ``game`` None)."""
    seats = ("" if models is None else "; players " + ", ".join(
        f"{s + 1}:{m.name}" for s, m in enumerate(models)))
    rules = ("" if game is None else f"; {game.turns} turns each"
             + ("" if game.powerups else ", no power-ups"))
    return [f"{games} games a {'value' if game is None else unit}, seed {seed}{seats}"
            + rules,
            "Every share and mean with its 95% interval and n (Wilson for shares, normal "
            "over games for means)."]


def _write_report(path: str, lines: list[str], parts: list[Part]) -> None:
    from wordforge_cli.io.output import atomic_write
    from wordforge_cli.render.report import report_page

    with atomic_write(path) as fh:
        fh.write(report_page("wfkit balance", lines, parts))


def _round_robin(ctx: click.Context, rule: RuleFiles, models: Sequence[Model], seed: int,
                 games: int, game: GameRules, output: str | None, as_json: bool,
                 report_path: str | None, jobs: int) -> None:
    from wordforge_cli.batch.balance import play
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.render.balance import round_robin_text
    from wordforge_cli.wordforge.balance import check_seats, round_robin
    from wordforge_cli.wordforge.english import read_rules

    if len({m.name for m in models}) < 2 or len({m.name for m in models}) != len(models):
        raise UsageError("--round-robin: give two or more different --player models")
    rules = read_rules(rule.config_path)
    check_seats(rules, 2)
    index = rule.hand_index(rules, rules.tiles.hand_size)

    def pair(seats: list[Model]) -> Tally:
        tally: Tally = play(_section(rule, rules, seats, games, game, index), seed,
                            jobs).stats.tally
        return tally

    rated = round_robin(index, rules, models, seed, games, game, play=pair)
    doc = {"seed": seed, "round_robin": rated}
    report_seed(ctx, seed)
    text = round_robin_text(doc)
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(doc) + "\n" if as_json else text)
    if report_path is not None:
        from wordforge_cli.render.charts import round_robin_charts
        from wordforge_cli.render.report import Part

        head = _header(seed, games, None, game, "pair")
        head[0] = (f"round robin of {', '.join(m.name for m in models)}, every ordered pair: "
                   + head[0])
        _write_report(report_path, head,
                      [Part("round robin", round_robin_charts(rated), text)])
