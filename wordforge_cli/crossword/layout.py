"""The generator's hot-path layout, written once: cell keys and the positional tuples.

Every attempt walks these values millions of times a batch, so they are plain ints and tuples
read by position: unpacking a NamedTuple or reading a dataclass's attributes in the attempt
loop cost about 5x the tuple's indexing (measured on the attempt loop), which is the generator's
whole budget. Each tuple's fields are listed here, once; the code that builds and reads them
(``board.AttemptTables``, ``board._attempt``) names the positions in this order.
"""

from __future__ import annotations

BITS = 15  # keys below 2^30: one CPython digit, so their sums, compares and hashes are the
# small-int fast paths (20 bits took 3% more CPU); a chain reaches 16,383 cells at most
STRIDE = 1 << BITS
MASK = STRIDE - 1
ORIGIN = (STRIDE // 2) * STRIDE + STRIDE // 2
DOWN = STRIDE  # key step along a down word (y + 1)
ACROSS = 1  # key step along an across word (x + 1)

# The work one attempt may spend, in cell checks: a word placed costs its length (word 0's cells
# too), a crossing tried the length of the word it places, a word drawn 1, a pair's crossings how
# many there are, a long word's letters (see board.SHORT_WORD) their number each time they are
# looked through. Long words with many repeated letters would otherwise make one attempt cost
# thousands of checks; the cap bounds the whole budget's time whatever the vocabulary (worst
# case on docs/performance.md) and is a count, never a clock, so boards stay reproducible. The
# attempts on real vocabularies spend at most about 2,000 (English, answers of 6-8 letters). It
# also bounds a board: at most this many cells, no word of more than ATTEMPT_WORK - 4 letters
# (lexicon.LONGEST_WORD).
ATTEMPT_WORK = 4000

Pools = dict[str, tuple[int, ...]]
# letter -> word id -> the words holding the letter that can cross that word
Partners = dict[str, dict[int, tuple[int, ...]]]

# A word as it may cross the word before: (its id, the work of trying it: 1 + its crossings,
# how many crossings, the key offsets from the word before's start to its start, one per
# crossing, its letters (see _spelt), its length, its key span length * step, its letters'
# positions). A word that cannot cross the word before is entered with that word's id, which
# the attempt's check for words already used skips at its work: 1, and a long word's letters
# besides (they were read to find it has no crossing).
Candidate = tuple[int, int, int, tuple[int, ...], str | tuple[str, ...], int, int,
              dict[str, tuple[int, ...]]]
# A pool of words for one answer letter after one word: (the pool, its entries made as they are
# first tried or None when they are kept by pair instead, its length)
CandidatePool = tuple[tuple[int, ...], list[Candidate | None] | None, int]
# One answer letter after the first, as every attempt on that answer meets it: (index,
# letter, step, the step before, 1 if across, the pools by the word before (None when not
# partner-cached), this letter's partner pools, the words holding it, pool work or -1 when not
# partner-cached, the pool of all the words holding it (for -1), the next letter's partner
# pools, the words holding it, the next letter, lookahead work or -1 for none)
Slot = tuple[int, str, int, int, int, dict[int, CandidatePool] | None,
             dict[int, tuple[int, ...]] | None, Pools, int, CandidatePool,
             dict[int, tuple[int, ...]] | None, Pools, str, int]
# An answer's plan: (answer, first letter, the first word's pool, its length, lookahead work of
# the first word or -1, second letter, its partner pools across (None when not kept), the
# words across by letter, the slots)
AnswerPlan = tuple[str, str, tuple[int, ...], int, int, str, dict[int, tuple[int, ...]] | None,
             Pools, tuple[Slot, ...]]
