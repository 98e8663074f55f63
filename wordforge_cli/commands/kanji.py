"""``wfkit kanji``: batches of kanji pools for the jukugo territory game, and ``kanji check``.

Thin layer: options (defaults from ``configs/kanji.yaml`` or ``--config``, then ``--preset``,
then the command line), the core in ``wordforge_cli.kanji``, renders in
``wordforge_cli.render.kanji``, batch figures on stderr.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from wordforge_cli.core.errors import CannotDo, ConfigError, UsageError, WfkitError
from wordforge_cli.core.messages import detail, echo, intake, quiet, say
from wordforge_cli.io.yamlio import read_text, text_lines
from wordforge_cli.kanji import check_answer, check_request, load_dictionary, load_grades
from wordforge_cli.kanji import config as kanji_config
from wordforge_cli.kanji.check import pool_problem
from wordforge_cli.kanji.config import DICT, PLAY, POOLS, RUNS, load_config, pool_request, self_play
from wordforge_cli.kanji.stats import FIGURE_NAMES
from wordforge_cli.kanji.territory import LIMIT_END, cost_problem, make_board, play_game
from wordforge_cli.options.command import group
from wordforge_cli.options.shared import (
    CHART,
    REPORT,
    REQUIRE_ALL,
    STATS,
    jobs_option,
    one_format,
    output_options,
    quiet_option,
    render_option,
    report_seed,
    seed_option,
)
from wordforge_cli.options.spec import CONFIG_META, config_callback
from wordforge_cli.render import render_help, renders

if TYPE_CHECKING:
    from wordforge_cli.batch.kanji import KanjiSection
    from wordforge_cli.batch.kinds import Item
    from wordforge_cli.batch.sinks import Document, Run
    from wordforge_cli.kanji.dictionary import Dictionary
    from wordforge_cli.kanji.territory import Player

RENDERS = ("json", *renders("kanji"))
# --config and --preset (black's pattern): once both are known, the config's (and preset's)
# values become the option defaults
_eager = config_callback(load_config, after=("preset",))


def _presets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The presets of the config the command line names (the bundled one if none) that start
    with what was typed: the shell's completions of --preset. A config that cannot be read
    completes nothing (its error is the command's to show, when it runs)."""
    path = ctx.params.get("config_path")
    if path is None and ctx.get_parameter_source("config_path") is ParameterSource.COMMANDLINE:
        return []  # a --config its type refused (a directory, say)
    try:
        presets = load_config(path).presets
    except (WfkitError, OSError, ValueError):
        return []
    return [name for name in presets if name.startswith(incomplete)]


@group(invoke_without_command=True)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), is_eager=True,
              callback=_eager,
              help="Difficulty config (default: the bundled configs/kanji.yaml).")
@click.option("--preset", is_eager=True, callback=_eager, shell_complete=_presets,
              help="A preset of the config: easy, normal, hard (bundled).")
@POOLS.options()
@render_option(RENDERS, render_help("kanji", "json: one record a line"), {"jsonl": "json"})
@click.option("--reveal", is_flag=True, help="text/svg: also list the selected compounds.")
@STATS.option()
@REQUIRE_ALL.option()
@RUNS.options()
@REPORT.option()
@CHART.option()
@quiet_option
@output_options()
@seed_option
@jobs_option
@click.pass_context
def kanji(ctx: click.Context, /, config_path: str | None, preset: str | None, count: int,
          dict_path: str | None, strict_vocab: bool, render: str, reveal: bool,
          stats_path: str | None, require_all: bool, sweep: tuple[str, tuple[str, ...]] | None,
          trace: int | None, report_path: str | None, chart_path: str | None,
          output: str | None, as_json: bool, seed: int, jobs: int, **asked: Any) -> None:
    """Generate kanji pools for the jukugo territory game (漢字熟語陣取り合戦).

    Each pool: n base words drawn at random, then m words drawn among those sharing the most
    kanji with them (score = sum of shared distinct kanji; pass mark = the m-th highest
    score). Output: one JSON object per pool (id, seed, base, picked, words, kanji,
    pass_score, quality figures); the batch figures go to stderr. With --self-play or
    --balanced: --sweep plays the batch once per value of one setting (a table of the
    first player's share, the advantage and the end reasons with their 95% intervals, or
    --json), --trace replays one pool's games move by move, --report draws the self-play
    figures as charts; the same bytes for any --jobs.

    \b
    Examples:
      wfkit kanji -n 100 --base 5 --bring 25 --seed 1 -o pools.jsonl
      wfkit kanji --preset easy -n 1 --render text --reveal
      wfkit kanji --kanji 30-40 --max-grade 7 --min-zipf 3 -n 1000 --stats stats.json
      wfkit kanji -n 1 --render svg -o board.svg
      wfkit kanji check 熱帯 --pool examples/weather-pool.jsonl --taken 帯
      wfkit kanji -n 20 --preset normal --balanced --seed 1 -o fair.jsonl
      wfkit kanji -n 40 --self-play --seed 1 --sweep preset=easy,normal,hard --chart presets.svg
      wfkit kanji -n 20 --self-play --seed 1 --trace 3
      wfkit kanji -n 40 --self-play --seed 1 --report play.html -o pools.jsonl
    """
    if ctx.invoked_subcommand is not None:
        ctx.meta.pop("wfkit.seed_was_drawn", None)
        return

    from wordforge_cli.batch.kanji import KanjiSection, asked_of
    from wordforge_cli.batch.sinks import stream, write_stats

    one_format(ctx, render, as_json)
    request = pool_request(asked)  # the POOLS fields not named above
    play = self_play(asked)
    text_out = _refuse_together(ctx, play is not None, sweep, trace, report_path,
                                chart_path, stats_path, render, as_json)
    started = time.perf_counter()
    dictionary = load_dictionary(dict_path)
    intake(dictionary.source, dictionary.skipped, strict=strict_vocab)
    if sweep is not None:
        values = {**asked, "count": count, "dict_path": dict_path,
                  "strict_vocab": strict_vocab}
        _sweep(ctx, dictionary, values, sweep, seed, jobs, output, not text_out,
               report_path, chart_path, require_all)
        return
    # the pack's section, named as the engine's scope ("kanji"): the same pools and figures
    section = KanjiSection("kanji", count, (), 0, asked_of(asked, play),
                           dictionary=dictionary, request=request, data=[], play=play)
    if trace is not None:
        if trace >= count:
            raise UsageError(f"pool {trace} is not in a batch of {count} pools (-n)"
                             + (f": 0 to {count - 1}" if count else ""), field="trace")
        _trace(ctx, section, seed, trace, output, not text_out)
        return
    next(section.items(seed, 0, min(count, 1)), None)  # an impossible request fails here
    report_seed(ctx, seed)
    run = stream(section, seed, output, jobs=jobs, document=_document(render, reveal),
                 unit="pool", refuse=lambda run: _refuse(run, require_all),
                 started=started)
    preset = preset or ctx.meta[CONFIG_META].preset
    write_stats(stats_path, {"dict": dict_path, "config": config_path, "preset": preset,
                             **section.options, "seed": seed}, run)
    pair = kanji_config.pair(asked["players"])
    names = (pair[0].name, pair[1].name)
    if not quiet():
        lines = _report(run.summary, run.seconds, preset, names)
        say(lines[0])
        for line in lines[1:]:
            detail(line)
    for failure in run.failures:  # after the figures: one line per pool that could not be made
        say(f"{failure}, counted as failed")
    if report_path is not None and "balance" in run.summary:
        from wordforge_cli.render.charts import kanji_charts
        from wordforge_cli.render.report import Part

        head = f"{count} pools, seed {seed}" + (f", preset {preset}" if preset else "")
        _write_report(report_path, [head + _played(section)],
                      [Part("self-play", kanji_charts(run.summary["balance"], names),
                            "\n".join(line.removeprefix("  ") for line in
                                      _report(run.summary, None, preset, names)))])


def _refuse_together(ctx: click.Context, plays: bool, sweep: tuple[str, tuple[str, ...]] | None,
                     trace: int | None, report_path: str | None, chart_path: str | None,
                     stats_path: str | None, render: str, as_json: bool) -> bool:
    """The runs a command line asks for at once that cannot go together, one line each;
    whether a sweep or trace prints text (its default) rather than JSON (``--json`` or
    ``--render json`` given)."""
    given = {"--sweep": sweep is not None, "--trace": trace is not None,
             "--report": report_path is not None, "--chart": chart_path is not None}
    asked = next((flag for flag, on in given.items() if on), None)
    if asked is not None and not plays:
        raise UsageError(f"{asked} reads self-play: also give --self-play or --balanced")
    if trace is not None:
        other = next((flag for flag, on in {**given, "--stats": stats_path is not None}.items()
                      if on and flag != "--trace"), None)
        if other is not None:
            raise UsageError(f"--trace replays one pool's games: not with {other}")
    if sweep is not None and stats_path is not None:
        raise UsageError("--sweep plays one batch a value: not with --stats (its --json "
                         "holds every row's figures)")
    if chart_path is not None and sweep is None:
        raise UsageError("--chart draws a sweep's figures: give --sweep KEY=V1,V2,... too "
                         "(--report draws a batch's)")
    if sweep is None and trace is None:
        return False
    if render == "svg":
        raise UsageError(f"{'--sweep' if sweep else '--trace'} prints text, or JSON with "
                         "--json: not --render svg")
    explicit = ctx.get_parameter_source("render") is not click.core.ParameterSource.DEFAULT
    return not as_json and not (explicit and render == "json")


def _played(section: KanjiSection) -> str:
    play = section.play
    if play is None:
        return ""
    return (f"; {play.games} games a pool, {play.players[0].name} vs {play.players[1].name}, "
            f"move limit {play.limit or 'none'}"
            + ("" if play.shown_variant else ", words hidden")
            + ("" if play.band is None else f"; --balanced, band {play.band:zg}"))


def _write_report(path: str, lines: list[str], parts: list[Any]) -> None:
    from wordforge_cli.io.output import atomic_write
    from wordforge_cli.render.report import report_page

    lines = [*lines, "Every share and mean with its 95% interval and n (Wilson for shares, "
             "normal over games or pools for means)."]
    with atomic_write(path) as fh:
        fh.write(report_page("wfkit kanji self-play", lines, parts))


def _trace(ctx: click.Context, section: KanjiSection, seed: int, index: int,
           output: str | None, as_json: bool) -> None:
    """Pool ``index``'s self-play games move by move, then the batch's record of the pool."""
    from wordforge_cli.io.output import atomic_write, dumps
    from wordforge_cli.render.kanji import trace_records, trace_text

    record, board, games = section.trace(seed, index)
    report_seed(ctx, seed)
    with atomic_write(output) as fh:
        if as_json:
            fh.write("".join(dumps(line) + "\n" for line in trace_records(
                index, record, games, len(board.words))))
        else:
            fh.write(trace_text(index, record, games, len(board.words), seed))


def _sweep(ctx: click.Context, dictionary: Dictionary, values: dict[str, Any],
           sweep: tuple[str, tuple[str, ...]], seed: int, jobs: int, output: str | None,
           as_json: bool, report_path: str | None, chart_path: str | None,
           require_all: bool) -> None:
    """The self-play batch once per value of one setting: one row per value. A pool missing
    at any value gets its reason line (after the table; with --require-all, instead of any
    output, the run exiting 1), as in a batch."""
    from wordforge_cli.batch.kanji import KanjiSection, asked_of
    from wordforge_cli.batch.sinks import missing, require_every, summed
    from wordforge_cli.core.intervals import METHOD
    from wordforge_cli.io.output import atomic_write, dumps_pretty
    from wordforge_cli.kanji.sweep import settings
    from wordforge_cli.render.charts import sweep_charts
    from wordforge_cli.render.kanji import SWEEP_CHARTS, sweep_text

    key, texts = sweep
    cfg = ctx.meta[CONFIG_META]
    typed = {name for name in values
             if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE}

    def preset(name: str) -> dict[str, Any]:  # the preset's values under the command line's
        return {**cfg.values(name), **{n: values[n] for n in typed}}

    dictionaries = {values["dict_path"]: dictionary}
    rows = []
    runs: list[tuple[str, Run]] = []  # each value's run, named by its setting
    for text, v in settings(key, texts, values, preset):
        play = self_play(v)
        if play is None:  # a preset's values with neither: the command line said one
            raise UsageError(f"preset={text}: plays no pools", field="sweep")
        if v["dict_path"] not in dictionaries:
            dictionaries[v["dict_path"]] = load_dictionary(v["dict_path"])
        words = dictionaries[v["dict_path"]]
        request = pool_request(v)
        try:
            play.check()
            check_request(words, request)
        except UsageError as error:
            raise UsageError(f"{key}={text}: can never succeed: {error.message}",
                             field="sweep") from None
        section = KanjiSection("kanji", v["count"], (), 0, asked_of(v, play),
                               dictionary=words, request=request, data=[], play=play)
        run = summed(section, seed, jobs=jobs, unit="pool")
        runs.append((f"{key}={text}", run))
        summary = run.summary
        b = summary["balance"]
        fresh = b.get("fresh")
        rows.append({"value": text, "pools": summary["pools"], "failed": summary["failed"],
                     "games": b["games"], "first": b["intervals"]["first"],
                     "advantage": b["intervals"]["advantage"],
                     "move_limit": b["ended"][LIMIT_END],
                     "fresh_first": fresh["first"] if fresh else None, "balance": b})
    doc = {"seed": seed, "sweep": {"key": key, "values": list(texts),
                                   "count": values["count"], "method": METHOD,
                                   "rows": rows}}
    report_seed(ctx, seed)
    if require_all:
        require_every(runs, "pools")
    text = sweep_text(doc)
    charts = sweep_charts(key, rows, SWEEP_CHARTS)
    with atomic_write(output) as fh:
        fh.write(dumps_pretty(doc) + "\n" if as_json else text)
    if chart_path is not None:
        from wordforge_cli.render.charts import stacked

        with atomic_write(chart_path) as fh:
            fh.write(stacked([svg for svg, _ in charts], f"wfkit kanji: sweep of {key}"))
    if report_path is not None:
        from wordforge_cli.render.report import Part

        _write_report(report_path, [f"sweep of {key} ({', '.join(texts)}): "
                                    f"{values['count']} pools a value, seed {seed}"],
                      [Part(f"sweep of {key}", charts, text)])
    for line in missing(runs):  # after the table: one line per pool not played
        say(f"{line}, counted as failed")


def _refuse(run: Run, require_all: bool) -> None:
    """Before the output appears: no pool made, or one missing under --require-all."""
    from wordforge_cli.batch.sinks import require_whole

    if run.summary["failed"] and not run.summary["pools"]:  # nothing made: no file
        first = run.failures[0].partition(": ")[2]  # (every pool is missing: no number)
        raise CannotDo(f"no pool made: all {run.summary['failed']} ran out of their budget; "
                       f"{first}")
    if require_all:
        require_whole(run, "pools")


def _document(render: str, reveal: bool) -> Document | None:
    """The text (pools one after another) and SVG (every pool's board) renders, written when
    the run is done (None: JSON Lines, made where the pools are)."""
    if render == "json":
        return None
    from wordforge_cli.render.kanji import pool_text, pools_svg

    def document(fh: IO[Any]) -> tuple[Callable[[Item], object], Callable[[Run], object]]:
        records: list[dict[str, Any]] = []
        return lambda item: records.extend(item.records), lambda run: fh.write(
            pools_svg(records, reveal, load_grades()) if render == "svg"
            else "\n".join(pool_text(record, reveal) for record in records))

    return document


_FIGURES = tuple(FIGURE_NAMES.items())


def _report(summary: dict[str, Any], elapsed: float | None, preset: str | None,
            players: tuple[str, str] = ("player 1", "player 2")) -> list[str]:
    """The batch figures as printed on stderr: a first line, then the table's lines
    (``elapsed`` None: without the run's time, as a report page that stays the same bytes)."""
    took = "" if elapsed is None else f" in {elapsed:z.2f} s"
    out: list[str] = []
    say, detail = out.append, out.append
    pools = summary["pools"]
    at = f" (preset {preset})" if preset else ""
    if pools == 1:  # one pool: its figures in one line, not a distribution table
        d = {name: summary[name]["min"] for name, _ in _FIGURES}
        scores = summary["picked_scores"]
        picked = (f"{scores['min']}" if scores["min"] == scores["max"]
                  else f"{scores['min']}-{scores['max']}")
        say(f"kanji: 1 pool{took}{at}"
            f": {d['kanji_count']} kanji, {d['chars']} characters, "
            f"{FIGURE_NAMES['index_a']} {d['index_a']}, "
            f"pass score {d['pass_score']}, picked scores {picked}, "
            f"{d['orphan_count']} orphans, hardest grade {d['hardest_grade']}, "
            f"{d['hidden_count']} hidden, {d['attempts']} "
            f"attempt{'s' if d['attempts'] != 1 else ''}")
    else:
        rate = (f", {pools / elapsed:z,.0f} pools/s" if elapsed is not None and elapsed > 0
                and pools else "")
        failed = f", {summary['failed']} failed" if summary["failed"] else ""
        say(f"kanji: {pools} pools{failed}{took}{rate}{at}")
        if not pools:
            return out
        detail(f"  {'figure':<14}{'min':>6}{'p10':>6}{'median':>8}{'p90':>6}{'max':>6}"
               f"{'mean':>9}")
        for name, label in _FIGURES:
            d = summary[name]
            pad = 14 - sum(2 if ord(c) > 0x2E80 else 1 for c in label) + len(label)
            detail(f"  {label:<{pad}}{d['min']:>6}{d['p10']:>6}{d['median']:>8}"
                   f"{d['p90']:>6}{d['max']:>6}{d['mean']:>z9.2f}")
    if "balance" in summary:
        b = summary["balance"]
        reasons = ", ".join(f"{k} {v}" for k, v in b["rejected_by_reason"].items())
        detail(f"  self-play: {b['games']} games, first player wins "
               f"{b['wins']['first']:z.1%}, second {b['wins']['second']:z.1%}, draws "
               f"{b['wins']['draw']:z.1%}; {b['rejected']} pools rejected"
               + (f" ({reasons})" if reasons else ""))
        from wordforge_cli.render.kanji import play_lines

        for line in play_lines(b, players):
            detail(f"  {line}")
        detail(f"  {'per pool':<14}{'min':>8}{'p10':>8}{'median':>8}{'p90':>8}{'max':>8}"
               f"{'mean':>9}")
        for name in ("first_win_rate", "advantage", "mean_margin", "steals", "length",
                     "hidden_moves", "redraws"):
            d = b[name]
            detail(f"  {name.replace('_', ' '):<14}" + "".join(
                f"{d[q]:>z8.3f}" for q in ("min", "p10", "median", "p90", "max"))
                + f"{d['mean']:>z9.3f}")
    return out


# ---- kanji check -------------------------------------------------------------------------------

def pool_choice(func: Callable[..., Any]) -> Callable[..., Any]:
    """--pool FILE and --id N: one pool of a pools file (check and play)."""
    func = click.option("--id", "pool_id", type=int, default=None,
                        help="Which pool of the file (its id); default the first.")(func)
    return click.option("--pool", "pool_path", required=True,
                        type=click.Path(dir_okay=False),
                        help="A pools file (JSON Lines from wfkit kanji, or one JSON pool / "
                             "list); - reads standard input.")(func)


@kanji.command()
@click.argument("word")
@pool_choice
@click.option("--taken", default="",
              help="Kanji already held by either player, e.g. 熱帯 (spaces and commas ignored).")
@DICT.option()
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@quiet_option
def check(word: str, pool_path: str, pool_id: int | None, taken: str, dict_path: str | None,
          as_json: bool) -> None:
    """Is WORD a legal answer on the pool's board? Exit 0 yes, 1 no (with the reason).

    The article's rules: WORD is in the dictionary (辞書にない熟語です); every kanji of
    WORD is on the board (our rule: tiles that are not there cannot be taken); WORD takes at
    least one kanji nobody holds yet (手つかずな漢字を1字以上選んでください). The reason is
    printed in English; --json gives it in Japanese too (reason_ja), for a game's players.
    The examples' pool, examples/weather-pool.jsonl (wfkit init writes it), is the pool of
    `wfkit kanji --dict examples/kanji-weather.txt --base 3 --bring 10 -n 1 --seed 7`.

    \b
    Examples:
      wfkit kanji check 熱帯 --pool examples/weather-pool.jsonl
      wfkit kanji check 亜熱帯 --pool examples/weather-pool.jsonl --id 0 --taken 熱帯
    """
    from wordforge_cli.io.output import dumps

    record = read_pool(pool_path, pool_id)
    board = record["kanji"]
    taken = "".join(ch for ch in taken if not ch.isspace() and ch not in ",、・")
    stray = [ch for ch in taken if ch not in board]
    if stray:
        raise UsageError(f"--taken: {''.join(stray)} not on the board of pool {record['id']}")
    verdict_word = word.strip()
    dictionary = load_dictionary(dict_path)
    verdict = check_answer(verdict_word, board, dictionary, taken)
    # a legal word the pool did not list: the surprise move of the article's 思いつき variant
    hidden = verdict.ok and verdict_word not in record.get("words", ())
    if as_json:
        echo(dumps({"word": verdict_word, "pool": record["id"], "ok": verdict.ok,
                          "reason": verdict.reason, "reason_ja": verdict.reason_ja,
                          "new_kanji": list(verdict.new_kanji), "hidden": hidden}))
    else:
        note = " (a compound the pool does not show)" if hidden else ""
        echo(f"{'yes' if verdict.ok else 'no'}: {verdict_word}: {verdict.reason}{note}")
    if not verdict.ok:
        raise SystemExit(CannotDo.exit_code)


def read_pool(path: str, pool_id: int | None) -> dict[str, Any]:
    """One pool record from a JSON Lines file, a JSON list, or one JSON object."""
    text = read_text(path, "pools file", stdin=True)
    try:
        records = _pool_records(text, path)
    except RecursionError:
        raise ConfigError("not a JSON pool: nested too deeply", path=path) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise ConfigError(f"not a JSON pool: {exc}", path=path) from None
    for number, record in records:
        problem = pool_problem(record)
        if problem:
            raise ConfigError(problem, path=path, line=number)
        if pool_id is None or record["id"] == pool_id:
            found: dict[str, Any] = record
            return found
    if pool_id is None:
        raise ConfigError("no pools in the file", path=path)
    raise ConfigError(f"no pool with id {pool_id}", path=path)


def _pool_records(text: str, path: str) -> list[tuple[int, Any]]:
    import json

    if text.lstrip().startswith("["):
        try:
            return [(1, item) for item in json.loads(text)]
        except json.JSONDecodeError as exc:
            raise ConfigError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None
    records: list[tuple[int, Any]] = []
    for number, line in enumerate(text_lines(text), start=1):
        if not line.strip():
            continue
        try:
            records.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            if number == 1:  # maybe one pretty-printed object
                with contextlib.suppress(json.JSONDecodeError):
                    return [(1, json.loads(text))]
            raise ConfigError(f"not a JSON pool: {exc.msg}", path=path, line=number) from None
    return records


# ---- kanji play --------------------------------------------------------------------------------

@kanji.command()
@pool_choice
@PLAY.options()
@quiet_option
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object per move, then the result.")
@seed_option
@click.pass_context
def play(ctx: click.Context, pool_path: str, pool_id: int | None, players: tuple[Player, ...],
         limit: int, hidden_words: bool, dict_path: str | None, as_json: bool,
         seed: int) -> None:
    """Play one pool's territory game between two simulated players, move by move.

    Players alternate naming a dictionary jukugo made of board kanji that takes at least one
    kanji nobody holds (the rules of wfkit kanji check); the mover takes every kanji of the
    word, the opponent's too. Score = kanji held. A player who knows no legal word passes
    (the log shows it); the game ends when neither knows one ("no known move"), or at the
    move limit ("move limit"). Ties between equal moves are broken by --seed.

    \b
    Examples:
      wfkit kanji play --pool examples/weather-pool.jsonl --id 0 --seed 1
      wfkit kanji play --pool examples/weather-pool.jsonl --player lookahead --player greedy@3
    """
    from wordforge_cli.io.output import dumps
    from wordforge_cli.render.kanji import game_lines

    pair = kanji_config.pair(players)
    record = read_pool(pool_path, pool_id)
    dictionary = load_dictionary(dict_path)
    # read_pool checked the record (pool_problem): its kanji and words are lists of strings
    board = make_board(dictionary, record["kanji"], record.get("words", []))
    problem = cost_problem(board, pair, limit=limit or None, shown_variant=not hidden_words)
    if problem is not None:
        raise UsageError(problem, path=pool_path)
    game = play_game(board, pair, random.Random(seed), limit=limit or None,
                     shown_variant=not hidden_words)
    report_seed(ctx, seed)
    names = ("A", "B")
    winner = None if game.winner is None else names[game.winner]
    if as_json:
        for line, _ in game_lines(game):
            echo(dumps(line))
        echo(dumps({"pool": record.get("id"), "players": [p.name for p in pair],
                          "kanji": len(board.kanji), "legal_words": len(board.words),
                          "moves": len(game.moves), "ended": game.ended,
                          "scores": list(game.scores), "winner": winner,
                          "steals": game.steals, "hidden_moves": game.hidden_moves}))
        return
    echo(f"pool {record.get('id')}: {len(board.kanji)} kanji, {len(board.words)} legal "
               f"words ({sum(board.shown)} shown); A {pair[0].name} vs B {pair[1].name}")
    for _, shown in game_lines(game):
        echo(shown)
    result = "draw" if winner is None else f"{winner} wins"
    echo(f"end ({game.ended}): A {game.scores[0]} - B {game.scores[1]}, {result}")
