"""``wfkit crossword``: batches of hidden-answer crossword boards, endless and challenge sets.

Thin layer: options (defaults from ``configs/crossword.yaml`` or ``--config``), the core in
``wordforge_cli.crossword``, renders in ``wordforge_cli.render``, statistics on stderr.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import click

from wordforge_cli.crossword.config import (
    BATCH,
    BOARD,
    CHALLENGE,
    ENDLESS,
    STYLED,
    load_config,
)
from wordforge_cli.crossword.sets import plan as make_plan
from wordforge_cli.errors import UsageError
from wordforge_cli.options import (
    STATS,
    first_drawn,
    jobs_option,
    output_options,
    report_seed,
    seed_option,
    vocab_option,
)
from wordforge_cli.spec import CONFIG_META, config_callback

if TYPE_CHECKING:
    from wordforge_cli.crossword.config import CrosswordConfig
    from wordforge_cli.pack.crossword import BoardSection
    from wordforge_cli.pack.kinds import Item
    from wordforge_cli.render.ipuz import IpuzCache

RENDERS = ("json", "text", "svg", "ipuz", "sheet")


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
        click.option("--render", type=click.Choice(RENDERS), default="json",
                     show_default=True,
                     help="json: one record a line; text: the article's picture, clues and "
                          "solution; svg: pictures with numbered clues; ipuz: ipuz v2 JSON, one "
                          "puzzle a line (entries are the grid's runs); sheet: a printable "
                          "HTML sheet, a puzzle page per board, then the solution pages."),
        STATS.option(),
        jobs_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(invoke_without_command=True)
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
@click.argument("question", type=click.IntRange(0))
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON.")
@click.pass_context
def plan(ctx: click.Context, question: int, as_json: bool) -> None:
    """Print endless question K's plan (answer band, blank style) without generating.

    The plan depends on K alone: band bands[K % len], style styles[(K // 2) % unlocked(K)],
    unlocked(K) = min(len(styles), unlock_start + K // unlock_every) (config endless).

    \b
    Examples:
      wfkit crossword plan 6
      wfkit crossword --config configs/crossword.yaml plan 40 --json
    """
    from wordforge_cli.output import dumps

    cfg = _config(ctx)  # ctx.meta is shared with the group
    p = make_plan(cfg.endless, question, cfg.labels)
    if as_json:
        click.echo(dumps({"question": p.question, "min_len": p.min_len, "max_len": p.max_len,
                          "style": p.style, "label": p.label, "unlocked": p.unlocked}))
    else:
        click.echo(f"question {p.question}: answer {p.min_len}-{p.max_len} letters, style "
                   f"{p.style} ({p.label}) ({p.unlocked} style{'s' if p.unlocked > 1 else ''} "
                   "unlocked)")


# A run of fewer boards stays in one process whatever --jobs says: forking the workers, their
# pool and its threads costs ~50 ms of wall time and each worker fills its own caches, which
# a batch this small (~0.2 s of CPU) does not win back. Chunks of boards go to the workers
# (a challenge set's 10 boards count as 10); the bytes depend on neither number.
PARALLEL_BOARDS = 4096
CHUNK_BOARDS = 2048
STREAMED = ("svg", "sheet")  # one document laid out board after board: made in one process


def _run(ctx: click.Context, kind: str, common: dict[str, Any], start: int, count: int,
         request: dict[str, Any]) -> None:
    """Make items ``start..start+count-1`` of the form ``kind`` as its pack section does (the
    same section, with the engine's own scope and the vocabulary's name), and write them:
    here, or in chunks of items in ``--jobs`` worker processes, written in index order."""
    from wordforge_cli.crossword.sets import SCOPE
    from wordforge_cli.pack.crossword import FORMS, load_lexicon

    lexicon = load_lexicon(common["vocab"], common, duplicates=True)
    cfg = _config(ctx)  # ctx.meta is shared with the group's subcommands
    section = FORMS[kind](lexicon.name, common, cfg, lexicon, scope=SCOPE)
    items = first_drawn(section.items(common["seed"], start, start + count))
    report_seed(ctx, common["seed"])
    size = len(cfg.ramp) if kind == "challenge" else 1  # boards an item holds
    render = "json" if common["as_json"] else common["render"]
    jobs = common["jobs"]
    chunks = None
    with _few_collections():  # (the workers are forked in _parallel: theirs too)
        if jobs > 1 and count * size >= PARALLEL_BOARDS and render not in STREAMED:
            # the first item was drawn here (the request's check, and caches the workers
            # inherit); they start now, and _emit closes them
            bounds = _bounds(start, start + count, max(1, CHUNK_BOARDS // size), jobs)
            chunks = _parallel(section, common["seed"], render, bounds, jobs)
        _emit(section, items, count, common, request, chunks)


def _bounds(start: int, stop: int, step: int, jobs: int) -> list[tuple[int, int]]:
    """Items ``start..stop-1`` in chunks of ``step``, the last ones smaller (a ``2 * jobs``-th
    of what is left, down to an eighth of ``step``), so that the workers finish together: with
    equal chunks one worker's last chunk ran alone, up to a whole chunk's time (0.17 s of 2,048
    boards) of the run's wall on an idle core."""
    least = max(1, step // 8)
    bounds = []
    a = start
    while a < stop:
        left = stop - a
        size = max(least, min(step, -(-left // (2 * jobs))))
        if left - size < least:  # no sliver of a chunk at the end
            size = left
        bounds.append((a, a + size))
        a += size
    return bounds


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


def _parallel(section: BoardSection, seed: int, render: str, bounds: list[tuple[int, int]],
              jobs: int) -> Generator[Chunk, None, None]:
    """What the workers make of the chunks, in order. A batch written one line a board
    (JSON Lines, ipuz) deals each chunk to the workers by answer (``BatchSection.shares``):
    each makes the boards of its own answers and the lines are put back in index order
    here, so each worker keeps only its answers' layouts (one process: 1.37 s of CPU for
    20,000 boards; two fresh vocabularies taking alternate chunks 1.40 s; two taking half
    the answers each 1.28 s)."""
    from wordforge_cli.workers import ordered

    jobs = min(jobs, len(bounds))
    shares = getattr(section, "shares", None)
    if shares is None or render not in ONE_LINE:
        return ordered(_chunk, bounds, jobs, _start, (section, seed, render, section.hints))
    share = shares(seed, jobs)
    orders: dict[int, list[int]] = {}

    def pieces() -> Iterator[Piece]:
        for a, b in bounds:
            order = orders[a] = share(a, b)
            for part in range(jobs):
                yield a, [i for i, p in enumerate(order, a) if p == part], part

    made = ordered(_piece, pieces(), jobs, _start, (section, seed, render, section.hints),
                   affinity=lambda piece: piece[2])
    merged = _merged(made, bounds, jobs, orders)
    next(merged)  # started: closing it closes the workers, read or not
    return merged


ONE_LINE = ("json", "ipuz")  # a batch board's text is one line: pieces can be put together


def _merged(made: Generator[PieceResult, None, None], bounds: list[tuple[int, int]],
            jobs: int, orders: dict[int, list[int]]) -> Generator[Chunk, None, None]:
    """Each chunk's pieces (one a worker) as one chunk: the lines in index order."""
    from wordforge_cli.workers import in_order

    try:
        yield None  # type: ignore[misc]  # (primed by _parallel)
        for a, b in bounds:
            parts = [next(made) for _ in range(jobs)]
            text, _made = in_order(orders.pop(a), a, [(part[1], part[4]) for part in parts])
            failures = [reason for _i, reason in sorted(f for part in parts for f in part[3])]
            yield b - a, text, [part[2] for part in parts], failures
    finally:
        made.close()


# items, their text (UTF-8: encoded in the worker, written as it comes), statistics, failures
Chunk = tuple[int, bytes, list[dict[str, Any]], list[str]]
Piece = tuple[int, list[int], int]  # a chunk's start, the items a worker makes of it, which
# what a worker made of a piece: items, their lines, statistics, (index, failure), no line
PieceResult = tuple[int, bytes, dict[str, Any], list[tuple[int, str]], list[int]]
_RUN: list[Any] = []  # a worker's run: section, seed, render, hints (set by _start)


def _start(section: BoardSection, seed: int, render: str, hints: dict[str, str]) -> None:
    _RUN[:] = [section, seed, render, hints, {}]


def _chunk(bounds: tuple[int, int]) -> Chunk:
    """Items ``bounds`` of the run, in a worker: their text, statistics and failures."""
    section, seed, render, hints, cache = _RUN
    stats = section.new_stats()
    out: list[bytes] = []
    failures: list[str] = []
    _write(section, section.items(seed, *bounds), render, hints, stats, failures, out.append,
           cache)
    return bounds[1] - bounds[0], b"".join(out), [stats.to_state()], failures


def _piece(piece: Piece) -> PieceResult:
    """The items of a chunk a worker was dealt, in a worker: their lines (one a board made),
    statistics, failures and the items that made no line."""
    section, seed, render, hints, cache = _RUN
    _a, mine, _part = piece
    stats = section.new_stats()
    lines: list[Any] = []
    failures: list[tuple[int, str]] = []
    missing: list[int] = []
    encoded, texts = _texts(section, render, hints, cache)
    for i, item in zip(mine, section.items(seed, 0, 0, indices=mine), strict=True):
        item.count(stats)
        if item.reason is not None:
            failures.append((i, item.reason))
        made = texts(item)
        if not made:
            missing.append(i)
        lines.extend(made)
    return len(mine), _joined(lines, encoded) if lines else b"", stats.to_state(), failures, \
        missing


def _texts(section: BoardSection, render: str, hints: dict[str, str], cache: IpuzCache
           ) -> tuple[bool, Callable[[Item], list[Any]]]:
    """An item's lines as ``render`` writes them (JSON Lines, text, ipuz; not SVG), and
    whether they come as UTF-8 already (ipuz: each board's bytes, its layout's encoded once)
    or as text."""
    lexicon = section.lexicon
    if render == "json":
        return True, section.lines
    if render == "text":
        from wordforge_cli.render.crossword import board_text

        return False, lambda item: [board_text(rec, hints) for rec in item.records]
    from wordforge_cli.pack.crossword import BoardItem
    from wordforge_cli.render.ipuz import board_ipuz_json, board_ipuz_line

    name = lexicon.name

    def ipuz(item: Item) -> list[bytes]:
        if isinstance(item, BoardItem) and item.boards:
            first, seed = item.first_id, item.item_seed  # (no records)
            return [board_ipuz_line(b, first + j, seed, hints=hints, cache=cache,
                                    title=f"{name} #{first + j}")
                    for j, b in enumerate(item.boards)]
        return [board_ipuz_json(rec, hints=hints, cache=cache,
                                title=f"{name} #{rec['id']}").encode()
                for rec in item.records]

    return True, ipuz


def _joined(lines: list[Any], encoded: bool) -> bytes:
    """Lines as written: each followed by a newline, in UTF-8."""
    return b"\n".join(lines) + b"\n" if encoded else ("\n".join(lines) + "\n").encode()


def _write(section: BoardSection, items: Iterable[Item], render: str, hints: dict[str, str],
           stats: Any, failures: list[str], write: Callable[[bytes], Any], cache: IpuzCache,
           stream: Any = None) -> None:
    """Count the items and write their records as ``render`` asks, in UTF-8 (SVG and the
    sheet: to ``stream``); an item that failed brings its reason to ``failures``."""
    from wordforge_cli.signals import check

    encoded, texts = (False, None) if render in STREAMED else _texts(section, render, hints,
                                                                      cache)
    done: list[Any] = []  # written 256 records at a time (one write a line cost 5% of a run)
    for item in items:
        item.count(stats)
        if item.reason is not None:
            failures.append(item.reason)
        if texts is not None:
            done.extend(texts(item))
        else:
            for rec in item.records:
                stream.add(rec)
        if len(done) >= 256:
            check()  # (a signal swallowed on the way stops the run here)
            write(_joined(done, encoded))
            done.clear()
    if done:
        check()
        write(_joined(done, encoded))


def _emit(section: BoardSection, items: Iterable[Item], planned: int, common: dict[str, Any],
          request: dict[str, Any], chunks: Generator[Chunk, None, None] | None = None) -> None:
    """Write the section's records as they come, count them, then report the statistics.

    ``items``: the section's (a challenge set is one item; a set whose budget ran out is
    counted, its reason reported after the statistics, and the run goes on); ``chunks``:
    when given, what worker processes made of the items instead, in order; ``planned``: how
    many items (the progress bar's total)."""
    import time

    from wordforge_cli.errors import CannotDo
    from wordforge_cli.output import atomic_write, dumps, write_behind
    from wordforge_cli.progress import counting, progress
    from wordforge_cli.signals import check

    lexicon = section.lexicon
    render = "json" if common["as_json"] else common["render"]
    stats: Any = section.new_stats()
    hints = section.hints
    failures: list[str] = []
    started = time.perf_counter()
    try:
        # records are written as UTF-8 (the workers' too: the parent never decodes them); SVG
        # and the sheet stream their text
        with atomic_write(common["output"], binary=render not in STREAMED) as fh:
            stream: Any = None
            if render in STREAMED:
                from wordforge_cli.render.crossword import SheetStream, SvgStream

                stream = (SvgStream if render == "svg" else SheetStream)(
                    fh, title=f"wfkit crossword: {lexicon.name}", hints=hints)
            behind = write_behind(fh) if render not in STREAMED else None
            if chunks is not None:  # the workers' text, statistics and failures, in order
                assert behind is not None
                with counting(total=planned, desc="crossword", unit="board") as done:
                    for made, text, states, reasons in chunks:
                        check()  # (a signal swallowed on the way stops the run here)
                        fh.write(text)
                        behind()
                        for state in states:
                            stats.merge(section.stats_from_state(state))
                        failures.extend(reasons)
                        done(made)
            else:
                def write(data: bytes) -> None:
                    fh.write(data)
                    if behind is not None:
                        behind()

                _write(section, progress(items, total=planned, desc="crossword", unit="board"),
                       render, hints, stats, failures, write, {}, stream)
            summary = stats.summary()
            if stream is not None and summary["made"]:
                stream.close()
            elapsed = time.perf_counter() - started
            if planned and summary["made"] == 0:
                first = f" (first: {failures[0]})" if failures else ""
                raise CannotDo(f"no board made: all {summary['failed']} ran out of their "
                               f"budget of {common['budget']} attempts{first}")
    finally:
        if chunks is not None:  # on a signal or error: the workers end now
            chunks.close()
    boards_done = summary["made"] + summary["failed"]
    timing = {"seconds": round(elapsed, 3),
              "ms_per_board": round(1000 * elapsed / boards_done, 4) if boards_done else 0,
              "boards_per_second": round(boards_done / elapsed, 1) if elapsed else 0}
    _report(summary, timing)
    if common["stats_path"]:
        with atomic_write(common["stats_path"]) as sf:
            sf.write(dumps({"vocabulary": lexicon.name, "request": {
                **request, "layout": common["layout"], "budget": common["budget"],
                "unique": common["unique"], "seed": common["seed"]},
                "stats": summary, "timing": timing}) + "\n")
    for failure in failures:  # after the statistics: one line per item that could not be made
        click.echo(f"wfkit: {failure}", err=True)


def _report(summary: dict[str, Any], timing: dict[str, Any]) -> None:
    a = summary["attempts"]
    echo = click.echo
    if summary["made"] + summary["failed"] == 1:  # one board: one line, not batch figures
        failed = [s for s, v in summary["blank_failure"].items() if s != "none" and v["boards"]]
        ambiguous = [s for s, n in summary.get("ambiguous", {}).items() if n]
        what = ("1 board made" if summary["made"] else "no board made (budget ran out)")
        echo(f"wfkit: crossword: {what} in {a['total']} attempt{'s' if a['total'] != 1 else ''}"
             f", {timing['ms_per_board']} ms"
             + (f"; blank styles that failed on it: {', '.join(failed)}" if failed else "")
             + (f"; ambiguous with: {', '.join(ambiguous)}" if ambiguous else ""), err=True)
        return
    echo(f"wfkit: crossword: {summary['made']} made, {summary['failed']} failed; attempts "
         f"median {a['median']}, worst {a['worst']}; {timing['ms_per_board']} ms/board, "
         f"{timing['boards_per_second']} boards/s", err=True)
    parts = [f"{s} {v['rate']}% ({v['boards']}/{v['of']})"
             for s, v in summary["blank_failure"].items() if s != "none"]
    if parts:
        echo("wfkit: blank failure: " + ", ".join(parts), err=True)
    size = summary["size"]
    still = ", ".join(f"{k} {v}" for k, v in summary["unblanked"].items()) or "none"
    echo(f"wfkit: sizes up to {size['largest'][0]}x{size['largest'][1]}; redraws "
         f"{summary['redraws']}, still blanking nothing: {still}; fallback boards "
         f"{summary['fallback']}", err=True)
    u = summary["word_use"]
    echo(f"wfkit: {summary['distinct_answers']} distinct answers; words used {u['used']}/"
         f"{u['words']} (min {u['min']}, max {u['max']} uses, evenness {u['evenness']})",
         err=True)
    if "difficulty" in summary:
        d = summary["difficulty"]
        line = (f"wfkit: difficulty score median {d['score']['median']}, mean "
                f"{d['score']['mean']}, max {d['score']['max']}; guesses mean "
                f"{d['guesses']['mean']}")
        if "per_step" in d:
            line += (f"; per step {' '.join(f'{m:g}' for m in d['per_step'])} ("
                     f"{'rises' if d['rises'] else 'does not rise'})")
        echo(line, err=True)
    if "ambiguous" in summary:
        parts = [f"{s} {n}" for s, n in summary["ambiguous"].items()]
        echo(f"wfkit: ambiguous boards by style: {', '.join(parts)}; rejected as ambiguous "
             f"while generating: {summary['ambiguous_rejected']}", err=True)
