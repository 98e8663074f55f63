"""wfkit: batches of word-game content (rarity and scores, crossword boards, kanji pools, packs)."""

__version__ = "0.1.0"
