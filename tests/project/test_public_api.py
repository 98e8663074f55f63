"""The public API docs/reference/api.md names, used as a pack builder would use it.

Every name listed there must exist; each engine is then driven through those names alone:
a batch made in parts whose statistics, shipped as JSON states and merged, equal the whole's.
"""

from __future__ import annotations

import importlib
import json
import random
import re
from pathlib import Path

from conftest import EXAMPLES

API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "api.md"


def listed_names() -> list[str]:
    """``wordforge_cli.x``: `a.b`, `c` ... -> ["wordforge_cli.x.a.b", "wordforge_cli.x.c"]."""
    text = API_PAGE.read_text(encoding="utf-8")
    block = text[text.index("**Public API**"):]
    block = block[block.index("\n- "):]
    block = block[:block.index("\n\n")]
    names = []
    listed = r"`(wordforge_cli(?:\.\w+)+)`: ((?:`[\w.]+(?:\([^`]*\))?`,?\s*)+)"
    for module, rest in re.findall(listed, block):
        for name in re.findall(r"`([\w.]+)", rest):
            names.append(f"{module}.{name}")
    return names


def resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def test_every_listed_name_exists() -> None:
    names = listed_names()
    assert len(names) > 30, names
    missing = []
    for name in names:
        try:
            resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert not missing


def test_crossword_through_the_public_api() -> None:
    from wordforge_cli.core.engine import OutOfBudget
    from wordforge_cli.crossword import board, check, lexicon, records, sets, stats
    from wordforge_cli.io.vocab import read_vocab
    from wordforge_cli.render import render

    lex = lexicon.prepare(read_vocab(EXAMPLES / "tech.yaml"))
    request = board.Request(4, 5, "tail")
    board.check_request(lex, request)
    whole = stats.BatchStats(lexicon=lex)
    parts = [stats.BatchStats(lexicon=lex), stats.BatchStats(lexicon=lex)]
    for i, seed, made in sets.batch(lex, request, 7, 12, scope=("api",)):
        assert made is not None
        rec = records.record(made, i, seed)
        assert check.check_record(rec, lex.words) == []
        assert render("crossword", "text", rec)
        whole.add(made)
        parts[i % 2].add(made)
    shipped = [json.loads(json.dumps(p.to_state())) for p in parts]
    merged = stats.BatchStats.from_state(shipped[0], lex).merge(
        stats.BatchStats.from_state(shipped[1], lex))
    assert merged.summary() == whole.summary()
    for _k, _seed, made in sets.endless(lex, sets.EndlessConfig(), board.Request(), 1, 3):
        assert made is not None
    for _i, _seed, boards in sets.challenges(lex, sets.DEFAULT_RAMP, board.Request(), 1, 1):
        assert isinstance(boards, OutOfBudget) or len(boards) == len(sets.DEFAULT_RAMP)
    assert sets.plan(sets.EndlessConfig(), 6).question == 6


def test_kanji_through_the_public_api() -> None:
    from wordforge_cli import kanji
    from wordforge_cli.core.engine import OutOfBudget

    dictionary = kanji.load_dictionary()
    request = kanji.PoolRequest(kanji=(30, 45), budget=3)
    view = kanji.check_request(dictionary, request)
    pool = kanji.make_pool(dictionary, request, random.Random(1), view)
    record = kanji.pool_record(dictionary, request, pool, 0, 1)
    assert 30 <= record["kanji_count"] <= 45
    word = record["words"][0]
    assert kanji.check_answer(word, record["kanji"], dictionary, "").ok
    whole, left, right = kanji.PoolStats(), kanji.PoolStats(), kanji.PoolStats()
    for i, item in enumerate(kanji.pool_items(dictionary, request, 5, range(10), ("api",))):
        for stats in (whole, left if i < 5 else right):
            if isinstance(item, OutOfBudget):
                stats.fail()
            else:
                stats.add(item)
    merged = kanji.PoolStats.from_state(json.loads(json.dumps(left.to_state())))
    assert merged.merge(right).summary() == whole.summary()
    assert whole.summary()["made"] + whole.summary()["failed"] == 10
    assert [r["id"] for r in kanji.iter_pools(dictionary, kanji.PoolRequest(), 5, [3])] == [3]


def test_rarity_through_the_public_api() -> None:
    from wordforge_cli.io.vocab import read_vocab
    from wordforge_cli.wordforge import english, rarity

    rules = english.read_rules(None)
    tables = english.open_tables(rules, whole=True)
    words = rarity.vocabulary_words(read_vocab(EXAMPLES / "words.yaml"))
    whole, left, right = rarity.Summary(rules), rarity.Summary(rules), rarity.Summary(rules)
    for i, rating in enumerate(rarity.rate_all(words, rules, tables)):
        whole.add(rating)
        (left if i % 2 else right).add(rating)
        assert rarity.record(rating, rules)["word"] == rating.word
    merged = rarity.Summary.from_state(json.loads(json.dumps(left.to_state())), rules)
    assert merged.merge(right).summary() == whole.summary()
    assert whole.summary()["words"] == len(words)
    assert [r["word"] for r in rarity.rate_words(words[:2], rules, tables)] == words[:2]
    assert rarity.score_word("quaff", 3, rules).score > 0
