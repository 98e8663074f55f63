"""``wfkit rarity``: the rarity of words (one by one, or a whole vocabulary as a table)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from itertools import islice, product
from typing import IO, TYPE_CHECKING, Any

import click

from wordforge_cli.core.errors import UsageError
from wordforge_cli.core.messages import detail, quiet, say
from wordforge_cli.options.command import command
from wordforge_cli.options.shared import (
    STATS,
    one_format,
    output_options,
    quiet_option,
    render_option,
    vocab_option,
)
from wordforge_cli.wordforge.config import RATING, checked_words, rule_options

if TYPE_CHECKING:
    from pathlib import Path

    from wordforge_cli.batch.kinds import Item
    from wordforge_cli.batch.sinks import Document, Run
    from wordforge_cli.wordforge.config import RuleFiles
    from wordforge_cli.wordforge.rarity import Rating, Rules, Tables

RENDERS = ("table", "csv", "json", "md")


@command()
@click.argument("words", nargs=-1)
@vocab_option(help="Rate a whole vocabulary (YAML or one word a line).")
@rule_options
@RATING["gold_rush"].option()
@click.option("--compare", "compare_path", type=click.Path(dir_okay=False),
              metavar="OTHER_CONFIG",
              help="List the words whose tier changes under OTHER_CONFIG instead.")
@STATS.option()
@output_options()
@quiet_option
@render_option(RENDERS, "Output format (json: JSON Lines).", {"jsonl": "json"}, "--format")
@click.pass_context
def rarity(ctx: click.Context, words: tuple[str, ...], vocab: str | None, rule: RuleFiles,
           gold_rush: bool, compare_path: str | None, stats_path: str | None,
           output: str | None, as_json: bool, render: str) -> None:
    """Rate words N..LG by the WordForge rule: override > CEFR > Zipf frequency.

    Each word gets its Zipf value (wordfreq, English), CEFR level, rarity (key, label,
    multiplier), the rule that decided it, its battle rarity (7+ letters with frequency data
    go one tier up) and whether it is playable, with a Japanese gloss where known.
    A CEFR level found through the word's lemma shows as "A1 (cat)" (JSON: cefr_lemma).

    \b
    Examples:
      wfkit rarity labyrinth
      wfkit rarity cat pizza serendipity --cefr examples/article-cefr.yaml --json
      wfkit rarity --vocab examples/words.yaml --render csv -o words.csv
      wfkit rarity --vocab examples/words.yaml -o words.jsonl --json --stats words-stats.json
      wfkit rarity --vocab examples/words.yaml --compare examples/rarity-retuned.yaml
    """
    from wordforge_cli.batch.rarity import RaritySection, asked_of
    from wordforge_cli.batch.sinks import stream, write_stats
    from wordforge_cli.io.vocab import read_vocab
    from wordforge_cli.wordforge.rarity import vocabulary_words

    if stats_path and compare_path:
        raise UsageError("--stats goes with a rarity table, not with --compare")
    if words and vocab:
        raise UsageError("give words or --vocab, not both")
    if not words and not vocab:
        raise UsageError("no words: give WORD... or --vocab FILE (see wfkit rarity --help)")
    render = one_format(ctx, render, as_json)
    # each word checked (a bad one: its file:line, exit 2)
    entries = vocabulary_words(read_vocab(vocab)) if vocab else checked_words(words)
    rules, tables = rule.load(whole=bool(vocab) or len(entries) > 50)
    if compare_path is not None:
        from wordforge_cli.core.progress import progress
        from wordforge_cli.wordforge.rarity import rate_all

        shown = progress(entries, total=len(entries), desc="rarity", unit="word")
        compare(rate_all(shown, rules, tables, use_lemma=rule.lemma, gold_rush=gold_rush),
                rules, tables, compare_path, rule.overrides_path, use_lemma=rule.lemma,
                gold_rush=gold_rush, total=len(entries), fmt=render, output=output)
        return
    # the pack's section, its files named as given
    files = {key: None if path is None else str(path) for key, path in (
        ("vocab", vocab), ("config", rule.config_path), ("data", rule.data_path),
        ("cefr", rule.cefr_path), ("overrides", rule.overrides_path))}
    section = RaritySection("rarity", len(entries), (), 0,
                            {**files, **asked_of({"lemma": rule.lemma, "gold_rush": gold_rush})},
                            words=entries, rules=rules, files=rule)
    section.tables = tables  # (opened: the rule files' errors came first)
    run = stream(section, 0, output, document=_table(rules, render), unit="word")
    write_stats(stats_path, section.options, run)
    if vocab:
        report_summary(run.summary, rules, vocab)


def _table(rules: Rules, render: str) -> Document:
    """Every rating's row, written when the run is done (a table is as wide as its cells)."""

    def document(fh: IO[str]) -> tuple[Callable[[Item], object], Callable[[Run], object]]:
        ratings: list[Rating] = []
        return (lambda item: ratings.extend(item.made),
                lambda run: write_ratings(ratings, rules, render, fh))

    return document


def compare(ratings: Iterable[Rating], rules: Rules, tables: Tables, compare_path: str,
            overrides_path: str | Path | None, *,
            use_lemma: bool, gold_rush: bool, total: int, fmt: str, output: str | None) -> None:
    """Write the words whose tier moves under another config, and say how many moved."""
    from wordforge_cli.io.output import atomic_write
    from wordforge_cli.wordforge.english import check_overrides, read_rules
    from wordforge_cli.wordforge.rarity import compare_record, rate_all, record

    other = read_rules(compare_path)
    if overrides_path:
        check_overrides(tables.overrides, other, overrides_path)
    mine = [record(r, rules) for r in ratings]
    theirs = rate_all((m["word"] for m in mine), other, tables, use_lemma=use_lemma,
                      gold_rush=gold_rush)
    changes = [change for a, b in zip(mine, theirs, strict=True)
               if (change := compare_record(a, record(b, other), rules, other)) is not None]
    counts = Counter((c["rarity"], c["other_rarity"]) for c in changes)  # in first-seen order
    with atomic_write(output) as fh:
        write_rows(changes, list(COMPARE_FIELDS), fmt, fh)
    ups = sum(1 for c in changes if c["direction"] == "up")
    downs = sum(1 for c in changes if c["direction"] == "down")
    moves = ", ".join(f"{a}->{b} {n}" for (a, b), n in counts.items() if a != b)
    if quiet():
        return
    say(f"{len(changes)} of {total} words change tier under {compare_path} "
        f"({ups} up, {downs} down, {len(changes) - ups - downs} battle tier only)"
        + (f": {moves}" if moves else ""))


COMPARE_FIELDS = ("word", "zipf", "cefr", "rarity", "other_rarity", "battle_rarity",
                  "other_battle_rarity", "source", "other_source", "direction")


def report_summary(summary: dict[str, Any], rules: Rules, vocab: str) -> None:
    if quiet():
        return
    labels = {t.key: t.label for t in rules.tiers}
    tiers = ", ".join(f"{labels[k]} {n}" for k, n in summary["tiers"].items())
    battle = ", ".join(f"{labels[k]} {n}" for k, n in summary["battle_tiers"].items())
    sources = ", ".join(f"{k} {n}" for k, n in summary["sources"].items())
    say(f"{summary['words']} words from {vocab}")
    detail(f"  tiers:        {tiers}")
    detail(f"  battle tiers: {battle}")
    detail(f"  decided by:   {sources} (cefr via a lemma: {summary['cefr_via_lemma']})")
    detail(f"  not playable: {summary['not_playable']}")


TEXT_HEADERS = ("word", "zipf", "cefr", "rarity", "key", "mult", "rule", "battle", "playable",
                "pos", "gloss")


def write_ratings(ratings: Iterable[Rating], rules: Rules, fmt: str, fh: IO[str]) -> None:
    """Write a rarity table fast: the parts shared by many rows are formatted once, rows are
    formatted by comprehension in chunks and written with one call per chunk.

    The JSON Lines are byte for byte ``output.dumps(rarity.record(...))`` (a test checks).
    """
    from wordforge_cli.io.output import dumps
    from wordforge_cli.wordforge.rarity import RECORD_FIELDS, SOURCES, number

    tiers = rules.tiers
    # (tier, source, battle tier, playable) -> the formatted middle of a row
    middles: dict[tuple[int, str, int, bool], Any] = {}
    for t, source, b, playable in product(range(len(tiers)), SOURCES, range(len(tiers)),
                                          (False, True)):
        tier = tiers[t]
        values = (tier.key, tier.label, number(tier.multiplier), source, tiers[b].key,
                  playable)
        if fmt == "json":
            part: Any = dumps(dict(zip(RECORD_FIELDS[3:9], values, strict=True)))[1:-1]
        elif fmt == "csv":
            part = (*values[:5], "true" if playable else "false")
        else:
            part = (tier.label, tier.key, f"x{values[2]:g}", source, values[4],
                    "yes" if playable else "no")
        middles[t, source, b, playable] = part

    if fmt == "json":
        from json.encoder import encode_basestring as text

        rows = iter(ratings)
        while chunk := list(islice(rows, 4096)):
            # a Rating is (word, zipf, cefr, tier, source, battle_tier, playable, cefr_lemma,
            # pos, gloss); words and levels are plain a-z / A1..C2, quoted as they are
            fh.write("".join([
                f'{{"word":"{r[0]}","zipf":{r[1]!r},'
                f'"cefr":{"null" if r[2] is None else chr(34) + r[2] + chr(34)},'
                f'{middles[r[3], r[4], r[5], r[6]]},'
                f'"cefr_lemma":{"null" if r[7] is None else text(r[7])},'
                f'"pos":{"null" if r[8] is None else text(r[8])},'
                f'"gloss":{"null" if r[9] is None else text(r[9])}}}\n' for r in chunk]))
        return
    if fmt == "csv":
        import csv

        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(RECORD_FIELDS)
        writer.writerows((r[0], r[1], r[2], *middles[r[3], r[4], r[5], r[6]], r[7], r[8], r[9])
                         for r in ratings)
        return
    _write_text_table(ratings, middles, fmt, fh)


def _write_text_table(ratings: Iterable[Rating], middles: dict[tuple[int, str, int, bool], Any],
                      fmt: str,
                      fh: IO[str]) -> None:
    """The aligned (or Markdown) table: the six tier/rule columns of a row come from one of a
    few pre-joined strings, so a row is formatted with a single ``str.format``."""
    zipf_text: dict[float, str] = {}
    rows = [(r[0], zipf_text.get(r[1]) or zipf_text.setdefault(r[1], f"{r[1]:.2f}"),
             (f"{r[2]} ({r[7]})" if r[7] else r[2]) if r[2] else "-",
             (r[3], r[4], r[5], r[6]), r[8] or "-", r[9] or "-") for r in ratings]
    columns = list(zip(*rows, strict=True)) or [()] * 6
    used = sorted(set(columns[3]))
    headers = TEXT_HEADERS
    if fmt == "md":
        def md(cells: Iterable[str]) -> str:
            return " | ".join(c.replace("|", "\\|") for c in cells)

        joined = {key: md(middles[key]) for key in used}
        bar = "\\|"
        fh.write(f"| {md(headers)} |\n| {' | '.join(['---'] * len(headers))} |\n")
        for start in range(0, len(rows), 4096):
            fh.write("".join([f"| {w} | {z} | {c} | {joined[k]} | {p.replace('|', bar)} | "
                              f"{g.replace('|', bar)} |\n"
                              for w, z, c, k, p, g in rows[start:start + 4096]]))
        return
    mids = [max([len(headers[3 + i]), *(len(middles[key][i]) for key in used)])
            for i in range(6)]
    joined = {key: "  ".join(cell.ljust(width) for cell, width in
                             zip(middles[key], mids, strict=True)) for key in used}
    widths = [max(len(h), max(map(len, column), default=0))
              for h, column in zip(headers[:3], columns[:3], strict=True)]
    pos_width = max(len(headers[9]), max(map(len, columns[4]), default=0))
    pattern = (f"{{:<{widths[0]}}}  {{:<{widths[1]}}}  {{:<{widths[2]}}}  {{}}  "
               f"{{:<{pos_width}}}  {{}}\n")
    middle_header = "  ".join(h.ljust(w) for h, w in zip(headers[3:9], mids, strict=True))
    fh.write(pattern.format(*headers[:3], middle_header, headers[9], headers[10]))
    for start in range(0, len(rows), 4096):
        fh.write("".join([pattern.format(w, z, c, joined[k], p, g)
                          for w, z, c, k, p, g in rows[start:start + 4096]]))


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def write_rows(records: Iterable[dict[str, Any]], fields: list[str], fmt: str,
               fh: IO[str]) -> None:
    """Write plain records as JSON Lines, CSV, an aligned text table (the last column is not
    padded) or a Markdown table."""
    if fmt == "json":
        from wordforge_cli.io.output import dumps

        for rec in records:
            fh.write(dumps(rec) + "\n")
        return
    rows = [tuple(_cell(rec[f]) for f in fields) for rec in records]
    if fmt == "csv":
        import csv

        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(fields)
        writer.writerows(rows)
        return
    if fmt == "md":
        def md(cells: Iterable[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |\n"

        fh.write(md(fields))
        fh.write(md(["---"] * len(fields)))
        fh.writelines(md(row) for row in rows)
        return
    columns = list(zip(*rows, strict=True)) or [()] * len(fields)
    widths = [max(len(h), max(map(len, column), default=0))
              for h, column in zip(fields, columns, strict=True)]
    pattern = "  ".join(f"{{:<{w}}}" for w in widths[:-1]) + "  {}"
    fh.write(pattern.format(*fields).rstrip() + "\n")
    for start in range(0, len(rows), 4096):
        fh.write("".join([pattern.format(*row).rstrip() + "\n"
                          for row in rows[start:start + 4096]]))
