"""The CLI layer: one module per command. Each imports only Click at module level and loads its
engine inside the command, so ``wfkit --help`` and ``wfkit rarity WORD`` start fast."""
