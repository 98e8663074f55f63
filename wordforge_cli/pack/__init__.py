"""Puzzle packs: a config lists sections (crossword batches and sets, kanji pools, rarity tables);
``build`` writes them reproducibly (same bytes whatever ``--jobs`` or ``--shard``), the same
build run against an existing directory checks it (``wfkit pack check``), ``merge`` joins shard
outputs.

Modules: ``config`` (the pack YAML), ``kinds`` (the section kinds, the registry; one module per
engine: ``crossword``, ``kanji``, ``rarity``, each reading its options through the engine's
spec), ``runner`` (fixed chunks, worker processes, results in index order), ``files``
(writing, or comparing for a check), ``store`` (staging directory swapped in atomically),
``build`` (streams -> files + manifest), ``merge``.
"""
