"""The batch layer: the one road from a command (or a pack section) to an engine.

An engine's adapter (``crossword``, ``kanji``, ``rarity``, ``balance``) turns options into a
prepared :class:`~wordforge_cli.batch.kinds.Section` (``context``: what a section reads its
options through); ``runner`` runs its items in fixed chunks, here or in forked ``workers``,
and hands the results back in item order to a sink (a stream, or a pack).
"""
