"""Puzzle packs: a config lists sections (crossword batches and sets, kanji pools, rarity tables);
``build`` writes them reproducibly (same bytes whatever ``--jobs`` or ``--shard``), ``check``
compares a directory with what a build would write, ``merge`` joins shard outputs.

Modules: ``config`` (the pack YAML), ``kinds`` (one adapter per engine, the registry),
``runner`` (fixed chunks, worker processes, results in index order), ``store`` (staging
directory swapped in atomically), ``build`` (streams -> files + manifest), ``check``, ``merge``.
"""
