"""Seeded random streams that never depend on Python's salted ``hash()``.

Every item of a batch draws from its own stream derived from (seed, scope..., index), so an
item is the same whether it is made first or last, alone or in a worker process or a shard.
"""

from __future__ import annotations

import hashlib
import random

SEED_MAX = 2**63 - 1


def derive_seed(seed: int, *scope: object) -> int:
    """A 63-bit seed from ``seed`` and a scope path, stable on every machine and run."""
    text = "\x1f".join([str(int(seed)), *(str(part) for part in scope)])
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & SEED_MAX


def item_rng(seed: int, *scope: object) -> random.Random:
    """The random stream of one item: ``item_rng(seed, "crossword", 17)``."""
    return random.Random(derive_seed(seed, *scope))


def fresh_seed() -> int:
    """A seed for a run that was given none; the run reports it so it can be repeated."""
    return random.SystemRandom().randrange(0, 2**31)
