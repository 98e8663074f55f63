"""WordForge, the word rarity and battle-score engine (spec: the article
wordforge-rarity-and-score): tiers and scores (``rarity``), the English tables (``english``),
what a hand can make (``hands``), simulated games (``balance``), deal statistics
(``deal_stats``) and its options declared once (``config``)."""
