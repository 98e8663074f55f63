"""``wfkit kanji``: batches of kanji pools for the jukugo territory game, and ``kanji check``.

Thin layer: options (defaults from ``configs/kanji.yaml`` or ``--config``, then ``--preset``,
then the command line), the core in ``wordforge_cli.kanji``, renders in
``wordforge_cli.render.kanji``, batch figures on stderr.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import CannotDo, ConfigError, UsageError
from wordforge_cli.core.messages import detail, echo, intake, quiet, say
from wordforge_cli.kanji import check_answer, load_dictionary
from wordforge_cli.kanji import config as kanji_config
from wordforge_cli.kanji.check import pool_problem
from wordforge_cli.kanji.config import DICT, PLAY, POOLS, load_config
from wordforge_cli.kanji.territory import Pass, cost_problem, make_board, play_game
from wordforge_cli.options.shared import (
    REQUIRE_ALL,
    STATS,
    jobs_option,
    output_options,
    quiet_option,
    render_option,
    report_seed,
    seed_option,
)
from wordforge_cli.options.spec import CONFIG_META, config_callback
from wordforge_cli.render import render_help, renders

if TYPE_CHECKING:
    from wordforge_cli.batch.kinds import Item
    from wordforge_cli.batch.sinks import Document, Run
    from wordforge_cli.kanji.territory import Player

RENDERS = ("json", *renders("kanji"))
# --config and --preset (black's pattern): once both are known, the config's (and preset's)
# values become the option defaults
_eager = config_callback(load_config, after=("preset",))


@click.group(invoke_without_command=True)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), is_eager=True,
              callback=_eager,
              help="Difficulty config (default: the bundled configs/kanji.yaml).")
@click.option("--preset", is_eager=True, callback=_eager,
              help="A preset of the config: easy, normal, hard (bundled).")
@POOLS.options()
@render_option(RENDERS, render_help("kanji", "json: one record a line"), {"jsonl": "json"})
@click.option("--reveal", is_flag=True, help="text/svg: also list the selected compounds.")
@STATS.option()
@REQUIRE_ALL.option()
@quiet_option
@output_options()
@seed_option
@jobs_option
@click.pass_context
def kanji(ctx: click.Context, /, config_path: str | None, preset: str | None, count: int,
          dict_path: str | None, strict_vocab: bool, render: str, reveal: bool,
          stats_path: str | None, require_all: bool, output: str | None,
          as_json: bool, seed: int, jobs: int, **asked: Any) -> None:
    """Generate kanji pools for the jukugo territory game (漢字熟語陣取り合戦).

    Each pool: n base words drawn at random, then m words drawn among those sharing the most
    kanji with them (score = sum of shared distinct kanji; pass mark = the m-th highest
    score). Output: one JSON object per pool (id, seed, base, picked, words, kanji,
    pass_score, quality figures); the batch figures go to stderr.

    \b
    Examples:
      wfkit kanji -n 100 --base 5 --bring 25 --seed 1 -o pools.jsonl
      wfkit kanji --preset easy -n 1 --render text --reveal
      wfkit kanji --kanji 30-40 --max-grade 7 --min-zipf 3 -n 1000 --stats stats.json
      wfkit kanji -n 1 --render svg -o board.svg
      wfkit kanji check 熱帯 --pool examples/weather-pool.jsonl --taken 帯
      wfkit kanji -n 20 --preset normal --balanced --seed 1 -o fair.jsonl
    """
    if ctx.invoked_subcommand is not None:
        ctx.meta.pop("wfkit.seed_was_drawn", None)
        return
    import time

    from wordforge_cli.batch.kanji import KanjiSection, asked_of
    from wordforge_cli.batch.sinks import stream, write_stats
    from wordforge_cli.kanji.config import pool_request, self_play

    if as_json and render != "json":
        raise UsageError(f"--json and --render {render} ask for two formats: give one (--json "
                         "is --render json)")
    request = pool_request(asked)  # the POOLS fields not named above
    started = time.perf_counter()
    dictionary = load_dictionary(dict_path)
    intake(dictionary.source, dictionary.skipped, strict=strict_vocab)
    play = self_play(asked)
    # the pack's section, named as the engine's scope ("kanji"): the same pools and figures
    section = KanjiSection("kanji", count, (), 0, asked_of(asked, play),
                           dictionary=dictionary, request=request, data=[], play=play)
    next(section.items(seed, 0, min(count, 1)), None)  # an impossible request fails here
    report_seed(ctx, seed)
    run = stream(section, seed, output, jobs=jobs, document=_document(render, reveal),
                 unit="pool", refuse=lambda run: _refuse(run, require_all),
                 started=started)
    preset = preset or ctx.meta[CONFIG_META].preset
    write_stats(stats_path, {"dict": dict_path, "config": config_path, "preset": preset,
                             **section.options, "seed": seed}, run)
    if not quiet():
        pair = kanji_config.pair(asked["players"])
        _report(run.summary, run.seconds, preset, (pair[0].name, pair[1].name))
    for failure in run.failures:  # after the figures: one line per pool that could not be made
        say(f"{failure}, counted as failed")


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
    from wordforge_cli.kanji import load_grades
    from wordforge_cli.render.kanji import pool_text, pools_svg

    def document(fh: IO[Any]) -> tuple[Callable[[Item], object], Callable[[Run], object]]:
        records: list[dict[str, Any]] = []
        return lambda item: records.extend(item.records), lambda run: fh.write(
            pools_svg(records, reveal, load_grades()) if render == "svg"
            else "\n".join(pool_text(record, reveal) for record in records))

    return document


_FIGURES = (("kanji_count", "kanji"), ("chars", "characters"), ("index_a", "index A"),
            ("pass_score", "pass score"), ("picked_scores", "picked score"),
            ("orphan_count", "orphans"), ("hardest_grade", "hardest grade"),
            ("hidden_count", "hidden"), ("attempts", "attempts"))


def _report(summary: dict[str, Any], elapsed: float, preset: str | None,
            players: tuple[str, str] = ("player 1", "player 2")) -> None:
    pools = summary["pools"]
    at = f" (preset {preset})" if preset else ""
    if pools == 1:  # one pool: its figures in one line, not a distribution table
        d = {name: summary[name]["min"] for name, _ in _FIGURES}
        scores = summary["picked_scores"]
        picked = (f"{scores['min']}" if scores["min"] == scores["max"]
                  else f"{scores['min']}-{scores['max']}")
        say(f"kanji: 1 pool in {elapsed:.2f} s{at}"
            f": {d['kanji_count']} kanji, {d['chars']} characters, index A {d['index_a']}, "
            f"pass score {d['pass_score']}, picked scores {picked}, "
            f"{d['orphan_count']} orphans, hardest grade {d['hardest_grade']}, "
            f"{d['hidden_count']} hidden, {d['attempts']} "
            f"attempt{'s' if d['attempts'] != 1 else ''}")
    else:
        rate = f", {pools / elapsed:,.0f} pools/s" if elapsed > 0 and pools else ""
        failed = f", {summary['failed']} failed" if summary["failed"] else ""
        say(f"kanji: {pools} pools{failed} in {elapsed:.2f} s{rate}{at}")
        if not pools:
            return
        detail(f"  {'figure':<14}{'min':>6}{'p10':>6}{'median':>8}{'p90':>6}{'max':>6}"
               f"{'mean':>9}")
        for name, label in _FIGURES:
            d = summary[name]
            pad = 14 - sum(2 if ord(c) > 0x2E80 else 1 for c in label) + len(label)
            detail(f"  {label:<{pad}}{d['min']:>6}{d['p10']:>6}{d['median']:>8}"
                   f"{d['p90']:>6}{d['max']:>6}{d['mean']:>9.2f}")
    if "balance" in summary:
        b = summary["balance"]
        reasons = ", ".join(f"{k} {v}" for k, v in b["rejected_by_reason"].items())
        detail(f"  self-play: {b['games']} games, first player wins "
               f"{b['wins']['first']:.1%}, second {b['wins']['second']:.1%}, draws "
               f"{b['wins']['draw']:.1%}; {b['rejected']} pools rejected"
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
                f"{d[q]:>8.3f}" for q in ("min", "p10", "median", "p90", "max"))
                + f"{d['mean']:>9.3f}")


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
    least one kanji nobody holds yet (手つかずな漢字を1字以上選んでください).
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
                          "reason": verdict.reason, "new_kanji": list(verdict.new_kanji),
                          "hidden": hidden}))
    else:
        note = " (表示されていない熟語)" if hidden else ""
        echo(f"{'yes' if verdict.ok else 'no'}: {verdict_word}: {verdict.reason}{note}")
    if not verdict.ok:
        raise SystemExit(CannotDo.exit_code)


def read_pool(path: str, pool_id: int | None) -> dict[str, Any]:
    """One pool record from a JSON Lines file, a JSON list, or one JSON object."""
    from wordforge_cli.io.yamlio import read_text

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

    from wordforge_cli.io.yamlio import text_lines

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
        n = 0
        for m in game.log:
            if isinstance(m, Pass):
                echo(dumps({"pass": True, "player": names[m.player],
                                  "scores": list(m.scores)}))
                continue
            n += 1
            echo(dumps({"move": n, "player": names[m.player], "word": m.word,
                              "taken": m.taken, "stolen": m.stolen, "hidden": m.hidden,
                              "scores": list(m.scores)}))
        echo(dumps({"pool": record.get("id"), "players": [p.name for p in pair],
                          "kanji": len(board.kanji), "legal_words": len(board.words),
                          "moves": len(game.moves), "ended": game.ended,
                          "scores": list(game.scores), "winner": winner,
                          "steals": game.steals, "hidden_moves": game.hidden_moves}))
        return
    echo(f"pool {record.get('id')}: {len(board.kanji)} kanji, {len(board.words)} legal "
               f"words ({sum(board.shown)} shown); A {pair[0].name} vs B {pair[1].name}")
    n = 0
    for m in game.log:
        if isinstance(m, Pass):
            echo(f"     {names[m.player]} passes (knows no legal word)  "
                       f"A {m.scores[0]} - B {m.scores[1]}")
            continue
        n += 1
        note = (f" steals {m.stolen}" if m.stolen else "") + (" (hidden)" if m.hidden else "")
        echo(f"{n:>3}. {names[m.player]} {m.word}  takes {m.taken}{note}  "
                   f"A {m.scores[0]} - B {m.scores[1]}")
    result = "draw" if winner is None else f"{winner} wins"
    echo(f"end ({game.ended}): A {game.scores[0]} - B {game.scores[1]}, {result}")
