"""Options declared once (``spec``: the command line, ``--config`` and pack sections read each
field alike) and the Click options every command shares (``shared``)."""
