"""Puzzle packs: a config lists sections (crossword batches and sets, kanji pools, rarity tables);
``build`` writes them reproducibly (same bytes whatever ``--jobs`` or ``--shard``), the same
build run against an existing directory checks it (``wfkit pack check``), ``merge`` joins shard
outputs.

Modules: ``config`` (the pack YAML), ``kinds`` (the section kinds, the registry; one module per
engine: ``crossword``, ``kanji``, ``rarity``, ``balance``, each reading its options through the
engine's spec and drawing its records for the preview), ``runner`` (fixed chunks, worker
processes, results in index order), ``files`` (writing, or comparing for ``pack check``),
``store`` (staging directory swapped in atomically), ``build`` (streams -> files + manifest),
``manifest`` (reading one back, checked field by field), ``merge`` (shards), ``preview`` (the
preview page's records, laid out by ``render.html``).
"""
