"""``wfkit rarity``: the rarity of words (one by one, or a whole vocabulary as a table)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import IO, Any

import click

from wordforge_cli.options import output_options, vocab_option

FORMATS = ("table", "csv", "jsonl", "md")


def rule_options(func: Callable) -> Callable:
    """The options that choose the rule and its tables (shared by rarity, score and tiles)."""
    options = [
        click.option("--config", "config_path", type=click.Path(dir_okay=False),
                     help="Rules file (default: the bundled configs/rarity.yaml)."),
        click.option("--cefr", "cefr_path", type=click.Path(dir_okay=False),
                     help="CEFR table replacing the bundled levels: YAML 'word: A1..C2' "
                          "or CSV 'word,level'."),
        click.option("--overrides", "overrides_path", type=click.Path(dir_okay=False),
                     help="Per-form table, YAML 'word: tier' (e.g. 'cats: normal'); "
                          "wins over CEFR and Zipf."),
        click.option("--no-lemma", is_flag=True,
                     help="Look CEFR levels up for the form only, never its lemma "
                          "(the article's rule exactly)."),
        click.option("--data", "data_path", type=click.Path(dir_okay=False),
                     help="Word table (sorted TSV: word, cefr, lemma, pos, gloss; "
                          "default: the bundled data/english.tsv)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def load_rule(config_path, cefr_path, overrides_path, data_path, *, whole: bool = False):
    """(rules, tables) for the options of :func:`rule_options`."""
    from wordforge_cli.english import open_tables, read_rules

    rules = read_rules(config_path)
    return rules, open_tables(rules, data=data_path, cefr=cefr_path, overrides=overrides_path,
                              whole=whole)


def checked_words(words: Iterable[str]) -> list[str]:
    """Command-line words, normalised; the first bad one is a usage error (exit 2)."""
    from wordforge_cli.errors import UsageError
    from wordforge_cli.rarity import normal_word, word_problem

    checked = []
    for word in words:
        problem = word_problem(word)
        if problem:
            raise UsageError(f"bad word: {problem}")
        checked.append(normal_word(word.strip()))
    return checked


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("words", nargs=-1)
@vocab_option(required=False, help="Rate a whole vocabulary (YAML or one word a line).")
@rule_options
@click.option("--gold-rush", is_flag=True, help="Battle rarity with the Gold Rush power-up.")
@click.option("--compare", "compare_path", type=click.Path(dir_okay=False),
              metavar="OTHER_CONFIG",
              help="List the words whose tier changes under OTHER_CONFIG instead.")
@output_options(formats=FORMATS)
@click.pass_context
def rarity(ctx: click.Context, words: tuple[str, ...], vocab: str | None,
           config_path: str | None, cefr_path: str | None, overrides_path: str | None,
           no_lemma: bool, data_path: str | None, gold_rush: bool, compare_path: str | None,
           output: str | None, as_json: bool, fmt: str) -> None:
    """Rate words N..LG by the WordForge rule: override > CEFR > Zipf frequency.

    Each word gets its Zipf value (wordfreq, English), CEFR level, rarity (key, label,
    multiplier), the rule that decided it, its battle rarity (7+ letters with frequency data
    go one tier up) and whether it is playable, with a Japanese gloss where known.
    A CEFR level found through the word's lemma shows as "A1 (cat)" (JSON: cefr_lemma).

    \b
    Examples:
      wfkit rarity labyrinth
      wfkit rarity cat pizza serendipity --cefr examples/article-cefr.yaml --json
      wfkit rarity --vocab examples/words.yaml --format csv -o words.csv
      wfkit rarity --vocab examples/words.yaml --compare my-rarity.yaml
    """
    from wordforge_cli.errors import UsageError
    from wordforge_cli.output import atomic_write
    from wordforge_cli.rarity import Summary, compare_record, rate, record

    if words and vocab:
        raise UsageError("give words or --vocab, not both")
    if not words and not vocab:
        raise UsageError("no words: give WORD... or --vocab FILE (see wfkit rarity --help)")
    fmt = "jsonl" if as_json else fmt
    entries = vocab_words(vocab) if vocab else checked_words(words)
    rules, tables = load_rule(config_path, cefr_path, overrides_path, data_path,
                              whole=bool(vocab) or len(entries) > 50)
    use_lemma = not no_lemma

    def rows(which_rules):
        from wordforge_cli.progress import progress

        for word in progress(entries, total=len(entries), desc="rarity", unit="word"):
            yield record(rate(word, which_rules, tables, use_lemma=use_lemma,
                              gold_rush=gold_rush), which_rules)

    if compare_path is not None:
        from wordforge_cli.english import check_overrides, read_rules

        other = read_rules(compare_path)
        if overrides_path:
            check_overrides(tables.overrides, other, overrides_path)
        changes = []
        counts: dict[tuple[str, str], int] = {}
        for mine in rows(rules):
            theirs = record(rate(mine["word"], other, tables, use_lemma=use_lemma,
                                 gold_rush=gold_rush), other)
            change = compare_record(mine, theirs, rules, other)
            if change is not None:
                changes.append(change)
                key = (change["rarity"], change["other_rarity"])
                counts[key] = counts.get(key, 0) + 1
        fields = list(changes[0]) if changes else list(COMPARE_FIELDS)
        with atomic_write(output) as fh:
            write_rows(changes, fields, fmt, fh, texts=None)
        ups = sum(1 for c in changes if c["direction"] == "up")
        downs = sum(1 for c in changes if c["direction"] == "down")
        moves = ", ".join(f"{a}->{b} {n}" for (a, b), n in counts.items() if a != b)
        click.echo(f"wfkit: {len(changes)} of {len(entries)} words change tier under "
                   f"{compare_path} ({ups} up, {downs} down, "
                   f"{len(changes) - ups - downs} battle tier only)"
                   + (f": {moves}" if moves else ""), err=True)
        return

    summary = Summary(rules)

    def counted():
        for rec in rows(rules):
            summary.add(rec)
            yield rec

    from wordforge_cli.rarity import RECORD_FIELDS

    with atomic_write(output) as fh:
        write_rows(counted(), list(RECORD_FIELDS), fmt, fh, texts=TEXT_COLUMNS)
    if vocab:
        report_summary(summary.as_dict(), rules, vocab)


COMPARE_FIELDS = ("word", "zipf", "cefr", "rarity", "other_rarity", "battle_rarity",
                  "other_battle_rarity", "source", "other_source", "direction")


def vocab_words(path: str) -> list[str]:
    """The words of a vocabulary file, each checked (bad word: file:line, exit 2)."""
    from wordforge_cli.errors import ConfigError
    from wordforge_cli.rarity import word_problem
    from wordforge_cli.vocab import read_vocab

    vocab = read_vocab(path)
    words = []
    for entry in vocab.entries:
        problem = word_problem(entry.word)
        if problem:
            raise ConfigError(problem, path=path, line=entry.line)
        words.append(entry.word.lower())
    return words


def report_summary(summary: dict[str, Any], rules, vocab: str) -> None:
    labels = {t.key: t.label for t in rules.tiers}
    tiers = ", ".join(f"{labels[k]} {n}" for k, n in summary["tiers"].items())
    battle = ", ".join(f"{labels[k]} {n}" for k, n in summary["battle_tiers"].items())
    sources = ", ".join(f"{k} {n}" for k, n in summary["sources"].items())
    click.echo(f"wfkit: {summary['words']} words from {vocab}\n"
               f"  tiers:        {tiers}\n"
               f"  battle tiers: {battle}\n"
               f"  decided by:   {sources} (cefr via a lemma: {summary['cefr_via_lemma']})\n"
               f"  not playable: {summary['not_playable']}", err=True)


def _cefr_text(rec: dict) -> str:
    if not rec["cefr"]:
        return "-"
    return f"{rec['cefr']} ({rec['cefr_lemma']})" if rec["cefr_lemma"] else rec["cefr"]


# The human table: (header, cell) per column; JSON/CSV keep the record's own fields.
TEXT_COLUMNS: list[tuple[str, Callable[[dict], str]]] = [
    ("word", lambda r: r["word"]),
    ("zipf", lambda r: f"{r['zipf']:.2f}"),
    ("cefr", _cefr_text),
    ("rarity", lambda r: r["label"]),
    ("key", lambda r: r["rarity"]),
    ("mult", lambda r: f"x{r['multiplier']:g}"),
    ("rule", lambda r: r["source"]),
    ("battle", lambda r: r["battle_rarity"]),
    ("playable", lambda r: "yes" if r["playable"] else "no"),
    ("pos", lambda r: r["pos"] or "-"),
    ("gloss", lambda r: r["gloss"] or "-"),
]


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def write_rows(records: Iterable[dict], fields: list[str], fmt: str, fh: IO[str], *,
               texts: list[tuple[str, Callable[[dict], str]]] | None) -> None:
    """Write records as an aligned table, CSV, JSON Lines or a Markdown table."""
    if fmt == "jsonl":
        from wordforge_cli.output import dumps

        write = fh.write
        for rec in records:
            write(dumps(rec) + "\n")
        return
    if fmt == "csv":
        import csv

        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(fields)
        writer.writerows([_cell(rec[f]) for f in fields] for rec in records)
        return
    columns = texts or [(f, lambda r, f=f: _cell(r[f])) for f in fields]
    headers = [name for name, _ in columns]
    rows = [[cell(rec) for _, cell in columns] for rec in records]
    if fmt == "md":
        def md(cells: list[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |\n"

        fh.write(md(headers))
        fh.write(md(["---"] * len(headers)))
        for row in rows:
            fh.write(md(row))
        return
    widths = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    last = len(headers) - 1

    def line(cells: list[str]) -> str:
        return "  ".join(c if i == last else c.ljust(widths[i])
                         for i, c in enumerate(cells)).rstrip() + "\n"

    fh.write(line(headers))
    for row in rows:
        fh.write(line(row))
