"""Crossword boards, the hidden-answer kind the crossword article describes (pure core).

The public contract other engines (``wfkit pack``) rely on:

* :func:`lexicon.prepare` -- a :class:`~wordforge_cli.io.vocab.Vocabulary` to a normalised
  :class:`~lexicon.Lexicon` (duplicates returned, bad words raised with file:line);
* :class:`board.Request` and :func:`board.check_request` -- what is wanted, and an instant
  answer (:class:`~wordforge_cli.core.errors.UsageError`) for a request that can never succeed;
* :func:`board.make_board` -- one board from one seeded ``random.Random`` (``None`` when the
  attempt budget runs out) and :func:`records.record` -- its JSON object;
* :func:`sets.batch` -- item ``i`` drawn only from ``item_rng(seed, *scope, i)``;
  :func:`sets.endless_question` (question k: ``(seed, *scope, "endless", k)``),
  :func:`sets.challenge_set` (set i: ``(seed, *scope, "challenge", i)``), :func:`sets.plan`;
* :func:`sets.endless`, :func:`sets.challenges` -- the forms' iterators, impossible requests
  refused first (:func:`sets.check_endless`, :func:`sets.check_challenge`), a challenge set
  out of budget yielded as ``engine.OutOfBudget`` (counted, the run goes on);
* :class:`stats.BatchStats` -- the statistics protocol of ``wordforge_cli.core.engine``: boards
  (``add``) or records (``add_record``) one at a time, ``fail``, ``merge``,
  ``to_state``/``from_state`` across processes, a deterministic ``summary``;
* :func:`check.check_record` -- an independent check of every rule;
* :func:`config.load_config` -- ``configs/crossword.yaml`` checked with file:line.

Renders live in ``wordforge_cli.render.crossword`` (``board_text``, ``boards_svg``) and
``wordforge_cli.render.ipuz`` (``board_ipuz``); all take a record.
"""

from wordforge_cli.crossword.blanks import STYLES
from wordforge_cli.crossword.board import LAYOUTS, Board, Request, check_request, make_board
from wordforge_cli.crossword.lexicon import Lexicon, prepare
from wordforge_cli.crossword.records import record

__all__ = ["LAYOUTS", "STYLES", "Board", "Lexicon", "Request", "check_request", "make_board",
           "prepare", "record"]
