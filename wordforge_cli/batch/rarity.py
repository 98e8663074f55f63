"""Rarity sections of a pack: the WordForge rarity table of a vocabulary.

Calls the engine ``wfkit rarity --vocab`` calls (``rarity.rate_all``, ``rarity.record``,
``rarity.Summary``); item i is word i of the vocabulary (no randomness). The table's data
(the bundled word table, wordfreq's English list, the user's CEFR and override files) is
hashed into the manifest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wordforge_cli.batch.context import SectionContext
from wordforge_cli.batch.kinds import (
    DataFile,
    Item,
    Kind,
    Section,
    bundled_file,
    user_file,
)
from wordforge_cli.core.engine import Statistics
from wordforge_cli.options.spec import PACK
from wordforge_cli.wordforge.config import RATING, RuleFiles

if TYPE_CHECKING:
    from wordforge_cli.wordforge.rarity import Rating, Rules, Summary, Tables


@dataclass(eq=False, kw_only=True)
class RaritySection(Section):
    kind = "rarity"
    words: list[str]
    rules: Rules
    files: RuleFiles
    tables: Tables | None = field(default=None, init=False)  # warm() (or the command's)

    def __getstate__(self) -> dict[str, Any]:  # the tables are opened again in each worker
        return {**self.__dict__, "tables": None}

    def warm(self) -> None:
        if self.tables is None:
            self.tables = self.files.tables(self.rules, whole=len(self.words) > 2000)

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.wordforge.rarity import rate_all

        self.warm()
        assert self.tables is not None  # warm() opened them
        for rating in rate_all(self.words[start:stop], self.rules, self.tables,
                               use_lemma=self.options["lemma"],
                               gold_rush=self.options["gold_rush"]):
            yield Rated(rating, self.rules)

    def new_stats(self) -> Summary:
        from wordforge_cli.wordforge.rarity import Summary

        return Summary(self.rules)

    def stats_from_state(self, state: dict[str, Any]) -> Summary:
        from wordforge_cli.wordforge.rarity import Summary

        return Summary.from_state(state, self.rules)


class Rated(Item):
    """A word's rating, its record made only when something reads it (a pack's JSON Lines:
    ``wfkit rarity``'s tables are written from the ratings themselves)."""

    def __init__(self, rating: Rating, rules: Rules) -> None:
        self.rating, self.rules = rating, rules

    @property
    def made(self) -> tuple[Rating]:
        return (self.rating,)

    def count(self, stats: Statistics[Any]) -> None:  # (a call per word, not a loop)
        stats.add(self.rating)

    @cached_property  # (writable, as Item's field is)
    def records(self) -> list[dict[str, Any]]:  # type: ignore[override]  # mypy: read-only
        from wordforge_cli.wordforge.rarity import record

        return [record(self.rating, self.rules)]


def _prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
             render_limit: int) -> RaritySection:
    from wordforge_cli.io.vocab import read_vocab
    from wordforge_cli.wordforge.rarity import vocabulary_words

    vocab_path = ctx.path("vocab", required=True, what="vocabulary file")
    v = RATING.resolve(ctx.read(RATING))
    rules, files, tables = rule_files(ctx, v)
    words = vocabulary_words(read_vocab(vocab_path))
    data = [user_file(ctx, vocab_path), *files]
    options = {"vocab": data[0].label, "config": data[1].label, "data": data[2].label,
               "cefr": tables["cefr"].label if "cefr" in tables else None,
               "overrides": tables["overrides"].label if "overrides" in tables else None,
               **asked_of(v)}
    return RaritySection(ctx.spec.name, len(words), render, render_limit, options,
                         words=words, rules=rules, files=RuleFiles.of(v), data=data)


def asked_of(v: dict[str, Any]) -> dict[str, Any]:
    """What a rarity section was asked beside its files: the manifest's ``options`` end and
    the ``request`` of ``wfkit rarity --stats``."""
    return {"lemma": v["lemma"], "gold_rush": v["gold_rush"]}


def rule_files(ctx: SectionContext, v: dict[str, Any]
               ) -> tuple[Rules, list[DataFile], dict[str, DataFile]]:
    """The rules of a section with the ``words.RULE`` keys (rarity, balance): read and checked
    now (file:line), and the files its manifest hashes: the rules, the word table, the user's
    CEFR and override tables (also by key) and wordfreq's list."""
    from wordforge_cli.wordforge.english import read_cefr, read_overrides, read_rules

    rules = read_rules(v["config_path"])
    if v["cefr_path"]:  # read again by each worker
        read_cefr(v["cefr_path"])
    if v["overrides_path"]:
        read_overrides(v["overrides_path"], rules)
    tables = {key: user_file(ctx, v[f"{key}_path"]) for key in ("cefr", "overrides")
              if v[f"{key}_path"]}
    # lemmas ship precomputed in the word table: simplemma is not data of a run
    files = [user_file(ctx, v["config_path"]) if v["config_path"]
             else bundled_file("configs", "rarity.yaml"),
             user_file(ctx, v["data_path"]) if v["data_path"]
             else bundled_file("data", "english.tsv"),
             *tables.values(), *_wordfreq_files()]
    return rules, files, tables


def _wordfreq_files() -> list[DataFile]:
    """wordfreq's English list, the Zipf values' source, named by package version."""
    from importlib import metadata

    import wordfreq

    version = metadata.version("wordfreq")
    path = Path(wordfreq.__file__).parent / "data" / "large_en.msgpack.gz"
    if not path.is_file():  # pragma: no cover - a wordfreq without the large list
        return []
    return [DataFile(f"wordfreq {version}:data/{path.name}", path,
                     "wordfreq (PyPI; Robyn Speer et al.), English 'best' word list",
                     "wordfreq data: CC BY-SA 4.0; code: Apache-2.0")]


def _charts(kind: str, stats: dict[str, Any]) -> list[tuple[str, str]]:
    from wordforge_cli.render.charts import play_charts
    from wordforge_cli.render.html import tier_charts

    return tier_charts(stats) + play_charts(kind, stats)


# the rarity table of a vocabulary (one record per word)
RARITY = Kind("rarity", ("vocab", *RATING.keys(PACK)), (), _prepare, count_fixed=True,
              charts=_charts, noun="word")
