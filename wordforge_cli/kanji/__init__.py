"""Kanji pools for the jukugo territory game (spec: the article kanji-jukugo-pool).

Public API (also used by ``wfkit pack``):

- ``load_dictionary(path=None)``: the bundled jukugo list, or a user file replacing it
- ``PoolRequest``: sizes, kanji-count range, grade/frequency filters, attempt budget
- ``check_request(dictionary, request)``: raises UsageError at once for impossible requests
- ``make_pool(dictionary, request, rng)`` -> ``Pool``; ``pool_record(...)`` -> JSON record
- ``pool_items(dictionary, request, seed, indices, scope=("kanji",))``: records, pool i drawn
  only from ``item_rng(seed, *scope, i)``, an ``OutOfBudget`` for a pool whose budget ran out
  (counted, the run goes on); ``iter_pools``: the same, CannotDo at the first such pool
- ``PoolStats``: batch figures, the statistics protocol of ``wordforge_cli.core.engine``
- ``check_answer(word, board, dictionary, taken)`` -> ``Verdict``
"""

from wordforge_cli.io.vocab import Skipped
from wordforge_cli.kanji.check import Verdict, check_answer
from wordforge_cli.kanji.dictionary import (
    GRADE_OTHER,
    Dictionary,
    View,
    build_dictionary,
    is_kanji,
    load_dictionary,
    load_grades,
)
from wordforge_cli.kanji.pool import (
    DEFAULT_SCOPE,
    Pool,
    PoolRequest,
    check_request,
    hidden_compounds,
    iter_pools,
    make_pool,
    pool_items,
    pool_record,
)
from wordforge_cli.kanji.stats import PoolStats

__all__ = [
    "DEFAULT_SCOPE", "GRADE_OTHER", "Dictionary", "Pool", "PoolRequest", "PoolStats", "Skipped",
    "Verdict", "View", "build_dictionary", "check_answer", "check_request", "hidden_compounds",
    "is_kanji", "iter_pools", "load_dictionary", "load_grades", "make_pool", "pool_items",
    "pool_record",
]
