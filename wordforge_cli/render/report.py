"""A run's report page (``--report FILE.html`` of ``wfkit balance`` and kanji self-play): the
figures drawn as charts with their 95% intervals (``render.charts``), then the command's own
tables, on one self-contained page.

The page is the pack preview's (``render.html``): its style and its small inline script that
marks on ``<body>`` how many charts the browser laid out (``data-charts-drawn``), so a headless
browser test can tell a drawn page from a broken one. Nothing is fetched: CSS and script
inline, every chart an inline SVG, every text escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from wordforge_cli.render.svg import esc

# beside the preview's style: a chart's caption wraps under it, a table shows whole
STYLE = ".report figure.chart{max-width:520px}.report pre{max-height:none}"


@dataclass
class Part:
    """One section of the page: a heading, its charts ``(svg, caption)`` and a table (the
    command's text report, shown as it prints)."""

    heading: str
    charts: list[tuple[str, str]] = field(default_factory=list)
    table: str = ""


def report_page(title: str, lines: Sequence[str], parts: Sequence[Part]) -> str:
    """The page: ``title`` and ``lines`` (what was run) in its header, then each part."""
    from wordforge_cli.render.html import CSS, SCRIPT, figure

    out = ["<!DOCTYPE html>",
           '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{esc(title)}</title>",
           f"<style>{CSS}{STYLE}</style></head>",
           '<body class="report">', "<header>", f"<h1>{esc(title)}</h1>"]
    out += [f"<p>{esc(line)}</p>" for line in lines]
    out.append("</header><main>")
    for number, part in enumerate(parts):
        out.append(f'<section class="pack-section" id="part-{number}">')
        out.append(f"<h2>{esc(part.heading)}</h2>")
        if part.charts:
            out.append('<div class="gallery">' + "".join(
                figure("chart", svg, caption) for svg, caption in part.charts) + "</div>")
        if part.table:
            out.append(f"<pre>{esc(part.table.rstrip())}</pre>")
        out.append("</section>")
    out.append(f"</main><script>{SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"
