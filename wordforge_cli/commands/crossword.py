"""``wfkit crossword``: batches of hidden-answer crossword boards, endless and challenge sets.

Thin layer: options (defaults from ``configs/crossword.yaml`` or ``--config``), the core in
``wordforge_cli.crossword``, renders in ``wordforge_cli.render``, statistics on stderr.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import CannotDo, UsageError
from wordforge_cli.core.messages import echo, quiet, say
from wordforge_cli.crossword.blanks import LANGUAGES
from wordforge_cli.crossword.config import (
    BATCH,
    BOARD,
    CHALLENGE,
    ENDLESS,
    STYLED,
    load_config,
)
from wordforge_cli.crossword.sets import SCOPE
from wordforge_cli.crossword.sets import plan as make_plan
from wordforge_cli.options.command import group
from wordforge_cli.options.shared import (
    REQUIRE_ALL,
    STATS,
    jobs_option,
    one_format,
    output_options,
    quiet_option,
    render_option,
    report_seed,
    seed_option,
    vocab_option,
)
from wordforge_cli.options.spec import CONFIG_META, Count, config_callback
from wordforge_cli.render import FORMATS, Look, render_help, renders

if TYPE_CHECKING:
    from wordforge_cli.batch.crossword import BoardSection
    from wordforge_cli.batch.kinds import Item
    from wordforge_cli.batch.runner import Lines
    from wordforge_cli.batch.sinks import Document, Run
    from wordforge_cli.crossword.config import CrosswordConfig
    from wordforge_cli.render.ipuz import IpuzCache

RENDERS = ("json", *renders("crossword"))


def _config(ctx: click.Context) -> CrosswordConfig:
    config: CrosswordConfig = ctx.meta[CONFIG_META]  # put there by --config's callback
    return config


def _set_vocab(ctx: click.Context, common: dict[str, Any]) -> None:
    """The endless and challenge forms' --vocab, which may stand before the verb."""
    assert ctx.parent is not None
    common["vocab"] = common["vocab"] or ctx.parent.params.get("vocab")
    if not common["vocab"]:
        raise UsageError("no vocabulary: give --vocab FILE")


def board_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Options shared by the batch and the set forms: the spec's board fields, then the
    command line's own (vocabulary, seed, output, render, statistics file)."""
    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        vocab_option(),
        BOARD.options(),
        seed_option,
        output_options(),
        render_option(RENDERS, render_help("crossword", "json: one record a line")),
        STATS.option(),
        jobs_option,
        REQUIRE_ALL.option(),
        quiet_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


@group(invoke_without_command=True)
@click.option("--config", "config_path", type=click.Path(dir_okay=False), is_eager=True,
              callback=config_callback(load_config),
              help="Difficulty config (default: the bundled configs/crossword.yaml).")
@BATCH.options()
@STYLED.options()
@board_options
@click.pass_context
def crossword(ctx: click.Context, /, config_path: str | None, count: int,
              **common: Any) -> None:
    """Generate crossword boards whose answer hides in their cells (generate and test).

    Each board: an answer word from the vocabulary, one other word per answer letter holding
    it, each crossing the previous. Answers are dealt from a shuffled deck (none comes back
    before every other has been used); a styled board is redrawn until its style blanks a
    cell (--redraws, --no-redraw); --max-width/--max-height are kept while words are placed.
    Output: one JSON object per board (id, seed, answer, spelling, w, h, words, cells,
    inputs, style, label, blanked, attempts, redraws, fallback); statistics on stderr.
    A run of 4,096 boards or more is made in chunks by --jobs worker processes (default:
    every core), written in order: the same bytes for every --jobs (svg and sheet, one
    document laid out board after board, stay in one process).

    \b
    Examples:
      wfkit crossword --vocab examples/tech.yaml -n 1000 --seed 1 -o boards.jsonl
      wfkit crossword --vocab examples/tech.yaml --min-len 5 --max-len 5 --render text
      wfkit crossword --vocab examples/animals-en.yaml --layout strict --style tail --unique
      wfkit crossword endless --vocab examples/tech.yaml --count 20
      wfkit crossword plan 6
    """
    if ctx.invoked_subcommand is not None:
        # the subcommand draws and reports its own seed (ctx.meta is shared with it)
        ctx.meta.pop("wfkit.seed_was_drawn", None)
        return
    if not common["vocab"]:
        raise UsageError("no vocabulary: give --vocab FILE (see wfkit crossword --help)")
    _run(ctx, "crossword", common, 0, count,
         {"command": "batch", "min_len": common["min_len"], "max_len": common["max_len"],
          "style": common["style"]})


@crossword.command()
@ENDLESS.options()
@board_options
@click.pass_context
def endless(ctx: click.Context, /, count: int, start: int, **common: Any) -> None:
    """Questions of the endless run: band and style from the question number (see plan).

    Each question is redrawn up to 12 times (config endless/redraws) until its style blanks
    at least one cell (--no-redraw: the first draw); a draw whose band fails falls back to
    3-4 letters, as the article does (the record says fallback). Answers are dealt from a
    shuffled deck per band, so none comes back before the band's others have been used.

    \b
    Examples:
      wfkit crossword endless --vocab examples/tech.yaml --count 20 --seed 1
      wfkit crossword endless --vocab examples/tech.yaml --start 6 --count 1 --render text
    """
    _set_vocab(ctx, common)
    _run(ctx, "endless", common, start, count, {"command": "endless", "start": start})


@crossword.command()
@CHALLENGE.options()
@STYLED.options()
@board_options
@click.pass_context
def challenge(ctx: click.Context, /, count: int, **common: Any) -> None:
    """Challenge sets: one board per step of the config's ramp (10), no answer twice.

    Board ids are set * len(ramp) + question. A step whose band cannot be made falls back
    to the endless fallback band (the record says fallback); a set that still cannot be
    made is reported on stderr and counted as failed boards; the run goes on.

    \b
    Examples:
      wfkit crossword challenge --vocab examples/tech.yaml --seed 3 --render text
      wfkit crossword challenge --vocab examples/animals-en.yaml --count 5 -o sets.jsonl
    """
    _set_vocab(ctx, common)
    _run(ctx, "challenge", common, 0, count,
         {"command": "challenge", "order_by_difficulty": common["order_by_difficulty"]})


@crossword.command()
@click.argument("question", type=Count(0))
@click.option("--language", type=click.Choice(LANGUAGES), default="ja", show_default=True,
              help="Whose style label to print: the one boards of a Japanese vocabulary show "
                   "(ja) or of any other (en), from the config's labels.")
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON.")
@quiet_option
@click.pass_context
def plan(ctx: click.Context, question: int, language: str, as_json: bool) -> None:
    """Print endless question K's plan (answer band, blank style) without generating.

    The plan depends on K alone: band bands[K % len], style styles[(K // 2) % unlocked(K)],
    unlocked(K) = min(len(styles), unlock_start + K // unlock_every) (config endless).

    \b
    Examples:
      wfkit crossword plan 6
      wfkit crossword --config configs/crossword.yaml plan 40 --json --language en
    """
    from wordforge_cli.io.output import dumps

    cfg = _config(ctx)  # ctx.meta is shared with the group
    p = make_plan(cfg.endless, question, cfg.labels_for(language))
    if as_json:
        echo(dumps({"question": p.question, "min_len": p.min_len, "max_len": p.max_len,
                          "style": p.style, "label": p.label, "unlocked": p.unlocked}))
    else:
        echo(f"question {p.question}: answer {p.min_len}-{p.max_len} letters, style "
                   f"{p.style} ({p.label}) ({p.unlocked} style{'s' if p.unlocked > 1 else ''} "
                   "unlocked)")


# A run of fewer boards stays in one process whatever --jobs says: forking the workers, their
# pool and its threads costs ~50 ms of wall time and each worker fills its own caches, which
# a batch this small (~0.2 s of CPU) does not win back. The run goes through the pack's runner
# in chunks of boards (a challenge set's 10 boards count as 10), a worker taking runs of up to
# RUN_CHUNKS of them; the bytes depend on neither number.
PARALLEL_BOARDS = 4096
CHUNK_BOARDS = 256
STREAMED = tuple(name for name, fmt in FORMATS.items() if fmt.streamed)
ONE_LINE = ("json", *(name for name, fmt in FORMATS.items() if fmt.one_line))


def _run(ctx: click.Context, kind: str, common: dict[str, Any], start: int, count: int,
         head: dict[str, Any]) -> None:
    """Make items ``start..start+count-1`` of the form ``kind`` as its pack section does (the
    same section, with the engine's own scope and the vocabulary's name), through the pack's
    runner into the stream sink: here, or in ``--jobs`` worker processes, written in index
    order. A challenge set is one item; an item whose budget ran out is counted, its reason
    reported after the statistics, and the run goes on."""
    from wordforge_cli.batch.crossword import FORMS, load_lexicon
    from wordforge_cli.batch.runner import ChunkPlan
    from wordforge_cli.batch.sinks import stream, write_stats

    one_format(ctx, common["render"], common["as_json"])
    lexicon = load_lexicon(common["vocab"], common, duplicates=True)
    cfg = _config(ctx)  # ctx.meta is shared with the group's subcommands
    section = FORMS[kind](lexicon.name, common, cfg, lexicon, scope=SCOPE, count=count)
    # the first item drawn here: an impossible request fails before the output is opened (and
    # the caches it fills are the workers' too)
    next(section.items(common["seed"], start, start + count), None)
    report_seed(ctx, common["seed"])
    size = len(cfg.ramp) if kind == "challenge" else 1  # boards an item holds
    render = "json" if common["as_json"] else common["render"]
    jobs = 1 if count * size < PARALLEL_BOARDS or render in STREAMED else common["jobs"]
    hints = section.hints
    with _few_collections():  # (the workers are forked in the sink: theirs too)
        run = stream(section, common["seed"], common["output"],
                     plan=ChunkPlan([section], start=start, size=max(1, CHUNK_BOARDS // size)),
                     jobs=jobs, lines=_lines(section, render, hints),
                     document=_document(render, lexicon.name, hints, lexicon.language),
                     dealt=render in ONE_LINE,
                     unit="board",
                     refuse=lambda run: _refuse(run, common["budget"], common["require_all"]))
    summary = run.summary
    boards_done = summary["made"] + summary["failed"]
    timing = {"seconds": round(run.seconds, 3),
              "ms_per_board": round(1000 * run.seconds / boards_done, 4) if boards_done else 0,
              "boards_per_second": round(boards_done / run.seconds, 1) if run.seconds else 0}
    if not quiet():
        _report(summary, timing)
    # the stats file's request: the command's own fields, then what the section was asked
    head = {**head, "layout": common["layout"], "budget": common["budget"],
            "unique": common["unique"], "seed": common["seed"]}
    write_stats(common["stats_path"], {**head, **{k: v for k, v in section.options.items()
                                                  if k not in head}},
                run, timing, vocabulary=lexicon.name)
    for failure in run.failures:  # after the statistics: one line per item not made
        say(failure)


def _refuse(run: Run, budget: int, require_all: bool) -> None:
    """Before the output appears: a run that made nothing is a could-not-do, and so is one
    with a board missing when --require-all asks for every one (the old file stays)."""
    from wordforge_cli.batch.sinks import require_whole

    summary = run.summary
    if summary["made"] == 0 and summary["failed"]:
        first = f" (first: {run.failures[0]})" if run.failures else ""
        raise CannotDo(f"no board made: all {summary['failed']} ran out of their "
                       f"budget of {budget} attempts{first}")
    if require_all:
        require_whole(run, "boards")


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """A run allocates millions of short-lived objects beside its caches' long-lived ones: at
    Python's default threshold (700 allocations) the cycle collector cost 7% of a batch's CPU,
    and boards make no reference cycles. It runs 140x less often during the run (forked
    workers too), then as before."""
    import gc

    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _document(render: str, name: str, hints: dict[str, str],
              language: str | None) -> Document | None:
    """SVG and the sheet: one document laid out board after board, in this process (the
    clues wfkit writes in the vocabulary's ``language``)."""
    if render not in STREAMED:
        return None
    from wordforge_cli.render.crossword import SheetStream, SvgStream

    def document(fh: IO[Any]) -> tuple[Callable[[Item], object], Callable[[Run], object]]:
        out = (SvgStream if render == "svg" else SheetStream)(
            fh, title=f"wfkit crossword: {name}", hints=hints, language=language)
        return (lambda item: [out.add(record) for record in item.records],
                lambda run: run.summary["made"] and out.close())

    return document


def _lines(section: BoardSection, render: str, hints: dict[str, str]) -> Lines | None:
    """An item's lines as ``render`` writes them, in UTF-8 (None: the section's JSON Lines;
    ipuz: each board's bytes, its layout's encoded once)."""
    if render == "json" or render in STREAMED:
        return None
    if render != "ipuz":  # any other format: the table's function, record by record
        draw = FORMATS[render].draws["crossword"][0]
        look = Look(hints=hints, language=section.lexicon.language)
        return lambda item: [draw(rec, look).encode() for rec in item.records]
    from wordforge_cli.batch.crossword import BoardItem
    from wordforge_cli.render.ipuz import board_ipuz_json, board_ipuz_line

    name, language = section.lexicon.name, section.lexicon.language
    cache: IpuzCache = {}  # (each worker fills its own copy)

    def ipuz(item: Item) -> list[bytes]:
        if isinstance(item, BoardItem) and item.boards:
            first, seed = item.first_id, item.item_seed  # (no records)
            return [board_ipuz_line(b, first + j, seed, hints=hints, cache=cache,
                                    title=f"{name} #{first + j}", language=language)
                    for j, b in enumerate(item.boards)]
        return [board_ipuz_json(rec, hints=hints, cache=cache,
                                title=f"{name} #{rec['id']}", language=language).encode()
                for rec in item.records]

    return ipuz


def _report(summary: dict[str, Any], timing: dict[str, Any]) -> None:
    a = summary["attempts"]
    if summary["made"] + summary["failed"] == 1:  # one board: one line, not batch figures
        failed = [s for s, v in summary["blank_failure"].items() if s != "none" and v["boards"]]
        ambiguous = [s for s, n in summary.get("ambiguous", {}).items() if n]
        what = ("1 board made" if summary["made"] else "no board made (budget ran out)")
        say(f"crossword: {what} in {a['total']} attempt{'s' if a['total'] != 1 else ''}"
            f", {timing['ms_per_board']} ms"
            + (f"; blank styles that failed on it: {', '.join(failed)}" if failed else "")
            + (f"; ambiguous with: {', '.join(ambiguous)}" if ambiguous else ""))
        return
    say(f"crossword: {summary['made']} made, {summary['failed']} failed; attempts "
        f"median {a['median']}, worst {a['worst']}; {timing['ms_per_board']} ms/board, "
        f"{timing['boards_per_second']} boards/s")
    parts = [f"{s} {v['rate']}% ({v['boards']}/{v['of']})"
             for s, v in summary["blank_failure"].items() if s != "none"]
    if parts:
        say("blank failure: " + ", ".join(parts))
    size = summary["size"]
    still = ", ".join(f"{k} {v}" for k, v in summary["unblanked"].items()) or "none"
    say(f"sizes up to {size['largest'][0]}x{size['largest'][1]}; redraws "
        f"{summary['redraws']}, still blanking nothing: {still}; fallback boards "
        f"{summary['fallback']}")
    u = summary["word_use"]
    say(f"{summary['distinct_answers']} distinct answers; words used {u['used']}/"
        f"{u['words']} (min {u['min']}, max {u['max']} uses, evenness {u['evenness']})")
    if "difficulty" in summary:
        d = summary["difficulty"]
        line = (f"difficulty score median {d['score']['median']}, mean "
                f"{d['score']['mean']}, max {d['score']['max']}; guesses mean "
                f"{d['guesses']['mean']}")
        if "per_step" in d:
            line += (f"; per step {' '.join(f'{m:zg}' for m in d['per_step'])} ("
                     f"{'rises' if d['rises'] else 'does not rise'})")
        say(line)
        f, k = d["familiar_score"], d["known"]
        if f["mean"] is not None:  # (no board made: nothing measured)
            line = (f"familiarity-aware score median {f['median']:g}, mean {f['mean']:g}, "
                    f"max {f['max']:g}; a placed word known {k['mean']:.0%} of the time on "
                    f"average (word frequencies: {d['familiarity']})")
            if "familiar_per_step" in d:
                line += (f"; per step {' '.join(f'{m:g}' for m in d['familiar_per_step'])} "
                         f"({'rises' if d['familiar_rises'] else 'does not rise'})")
            say(line)
    if "ambiguous" in summary:
        parts = [f"{s} {n}" for s, n in summary["ambiguous"].items()]
        say(f"ambiguous boards by style: {', '.join(parts)}; rejected as ambiguous "
            f"while generating: {summary['ambiguous_rejected']}")
