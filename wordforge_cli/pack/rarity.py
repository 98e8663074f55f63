"""Rarity sections of a pack: the WordForge rarity table of a vocabulary.

Calls the engine ``wfkit rarity --vocab`` calls (``rarity.rate_all``, ``rarity.record``,
``rarity.Summary``); item i is word i of the vocabulary (no randomness). The table's data
(the bundled word table, wordfreq's English list, the user's CEFR and override files) is
hashed into the manifest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from wordforge_cli.pack.config import SectionContext
from wordforge_cli.pack.kinds import (
    DataFile,
    Item,
    Kind,
    Section,
    Stats,
    bundled_file,
    user_file,
)


class RarityStats(Stats):
    """Counts per (tier, battle tier, rule, playable, via a lemma); summarised by the engine."""

    def __init__(self, rules=None) -> None:
        self.rules = rules
        self.keys: Counter = Counter()

    def add(self, item: Item) -> None:
        for rating in item.event:
            self.keys[(rating.tier, rating.battle_tier, rating.source, rating.playable,
                       rating.source == "cefr" and rating.cefr_lemma is not None)] += 1

    def merge(self, other: RarityStats) -> None:
        self.keys.update(other.keys)

    def to_state(self) -> dict:
        return {"keys": [[list(k), n] for k, n in sorted(self.keys.items())]}

    def summary(self) -> dict:
        from wordforge_cli.rarity import Rating, Summary

        summary = Summary(self.rules)
        for (tier, battle, source, playable, via), n in sorted(self.keys.items()):
            rating = Rating("", 0.0, None, tier, source, battle, playable,
                            "lemma" if via else None)
            summary.add(rating, n)
        return summary.as_dict()


class RaritySection(Section):
    kind = "rarity"

    def __init__(self, name, count, render, render_limit, options, *, words, rules, paths,
                 data):
        super().__init__(name, count, render, render_limit, options, data)
        self.words = words
        self.rules = rules
        self.paths = paths
        self.tables = None

    def __getstate__(self) -> dict:  # the tables are opened again in each worker
        return {**self.__dict__, "tables": None}

    def warm(self) -> None:
        if self.tables is None:
            from wordforge_cli.english import open_tables

            self.tables = open_tables(self.rules, whole=len(self.words) > 2000, **self.paths)

    def items(self, seed: int, start: int, stop: int) -> Iterator[Item]:
        from wordforge_cli.rarity import rate_all, record

        self.warm()
        for rating in rate_all(self.words[start:stop], self.rules, self.tables,
                               use_lemma=self.options["lemma"],
                               gold_rush=self.options["gold_rush"]):
            yield Item([record(rating, self.rules)], event=(rating,))

    def new_stats(self) -> RarityStats:
        return RarityStats(self.rules)

    def stats_from_state(self, state: dict) -> RarityStats:
        stats = self.new_stats()
        stats.keys = Counter({tuple(k): n for k, n in state["keys"]})
        return stats


def _prepare(ctx: SectionContext, count: int, render: tuple[str, ...],
             render_limit: int) -> RaritySection:
    from wordforge_cli.english import read_cefr, read_overrides, read_rules
    from wordforge_cli.errors import ConfigError
    from wordforge_cli.rarity import normal_word, word_problem
    from wordforge_cli.vocab import read_vocab

    vocab_path = ctx.path("vocab", required=True, what="vocabulary file")
    config_path = ctx.path("config", what="rarity config")
    cefr_path = ctx.path("cefr", what="CEFR table")
    overrides_path = ctx.path("overrides", what="overrides table")
    table_path = ctx.path("data", what="word table")
    lemma = ctx.boolean("lemma", True)
    gold_rush = ctx.boolean("gold_rush", False)
    rules = read_rules(config_path)
    if cefr_path:
        read_cefr(cefr_path)  # checked now (file:line), read again by each worker
    if overrides_path:
        read_overrides(overrides_path, rules)
    vocab = read_vocab(vocab_path)
    words = []
    for entry in vocab.entries:
        problem = word_problem(entry.word)
        if problem:
            raise ConfigError(problem, path=vocab.path, line=entry.line)
        words.append(normal_word(entry.word.strip()))
    data = [user_file(ctx, vocab_path),
            user_file(ctx, config_path) if config_path else bundled_file("configs", "rarity.yaml"),
            user_file(ctx, table_path) if table_path else bundled_file("data", "english.tsv")]
    tables = {key: user_file(ctx, p) for key, p in (("cefr", cefr_path),
                                                    ("overrides", overrides_path)) if p}
    # lemmas ship precomputed in the word table: simplemma is not data of a run
    data += [*tables.values(), *_wordfreq_files()]
    options = {"vocab": data[0].label, "config": data[1].label, "data": data[2].label,
               "cefr": tables["cefr"].label if "cefr" in tables else None,
               "overrides": tables["overrides"].label if "overrides" in tables else None,
               "lemma": lemma, "gold_rush": gold_rush}
    paths = {"data": table_path, "cefr": cefr_path, "overrides": overrides_path}
    return RaritySection(ctx.spec.name, len(words), render, render_limit, options,
                         words=words, rules=rules, paths=paths, data=data)


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


RARITY = Kind("rarity", ("vocab", "config", "cefr", "overrides", "data", "lemma", "gold_rush"),
              (), _prepare, count_fixed=True,
              doc="the rarity table of a vocabulary (one record per word)")
