"""Renders shared by all engines: text, SVG, ipuz, HTML. Pure functions from records to text."""
