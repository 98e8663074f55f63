"""``wfkit pack preview``: one self-contained HTML page that shows a pack.

The page is laid out here from what the pack gives it (``pack/preview.py`` reads the manifest
and the records, and each section kind draws its own records with the figure functions below:
``board_figure``, ``pool_figure``, ``tier_charts``), so no render imports the pack.
No network at all: CSS inline, every picture an inline SVG drawn by the engines' own
renders (crossword boards, kanji boards) or here (the rarity tier histogram), no external
URL anywhere. A small inline script marks, on ``<body>``, how many boards and charts the
browser actually laid out (``data-boards-drawn``, ``data-charts-drawn``), so a headless
browser test can tell a drawn page from a broken one.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from wordforge_cli.core.errors import UsageError
from wordforge_cli.render.svg import esc, rect, svg_document, text

TIER_COLOURS = ("#9aa5b1", "#4caf50", "#2196f3", "#9c27b0", "#ff9800", "#e53935")

CSS = """
:root{--u:.85px}
body{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans CJK JP',sans-serif;margin:0;
background:#f4f5f7;color:#1d2330}
header{background:#1d2330;color:#fff;padding:18px 28px}
header h1{margin:0 0 4px;font-size:24px}
header p{margin:2px 0;color:#c9d1dc;font-size:14px}
main{padding:18px 28px}
section.pack-section{background:#fff;border-radius:10px;box-shadow:0 1px 3px #0002;
margin:0 0 22px;padding:16px 20px}
section h2{margin:0 0 6px;font-size:20px}
.kind{display:inline-block;background:#e8eef7;border-radius:6px;padding:1px 8px;
font-size:13px;margin-left:6px;color:#345}
.gallery{display:flex;flex-wrap:wrap;gap:14px;margin:10px 0;align-items:flex-start}
figure{margin:0;border:1px solid #dde2ea;border-radius:8px;padding:8px 10px;background:#fff;
max-width:100%;box-sizing:border-box;overflow-x:auto}
figure svg{display:block;max-width:100%;height:auto}
.pic{flex:none;width:calc(var(--w)*var(--u))}
.pic svg{width:100%;max-width:none}
figure.board{flex:1 1 440px;display:flex;flex-wrap:wrap;gap:6px 18px;align-items:flex-start}
figure.board figcaption{flex-basis:100%;text-align:left}
.clues{flex:1 1 200px;font-size:14px;line-height:1.45}
.clues h2{font-size:13px;margin:2px 0;color:#566;text-transform:uppercase;letter-spacing:.04em}
.clues ol{margin:0 0 6px;padding:0;list-style:none}
.clues li{margin:1px 0;padding-left:1.9em;text-indent:-1.9em}
.clues b{display:inline-block;min-width:1.6em;text-indent:0;color:#345}
figure.chart{flex:0 1 auto}
figure.chart figcaption{width:0;min-width:100%}
figcaption{font-size:13px;color:#566;text-align:center;margin-top:4px}
.compounds{flex:1 1 240px;font-size:15px;line-height:1.6;margin:0 2px;text-align:left}
.compounds p{margin:2px 0}
.compounds b{font-weight:600;color:#345;margin-right:6px}
.compounds .hidden{color:#a33}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;font-size:14px;margin:6px 0 2px;
align-items:center}
.legend span{display:inline-flex;align-items:center;gap:6px}
.legend i{display:inline-block;width:18px;height:18px;border:1px solid #8a6d3b;
border-radius:4px}
.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:0 24px;
font-size:14px;margin-top:8px}
.stats div{display:flex;justify-content:space-between;border-bottom:1px solid #eef0f3;
padding:4px 0}
.stats span{color:#455;margin-right:12px;cursor:help}
.stats b{font-weight:500;text-align:right;word-break:break-all}
@media (max-width:640px){
:root{--u:.56px}
header{padding:14px 14px}header h1{font-size:21px}
main{padding:10px 8px}
section.pack-section{padding:12px 10px;border-radius:8px}
.gallery{gap:10px}
.stats{grid-template-columns:1fr}
figure{padding:8px}
}
pre{background:#1d2330;color:#e6edf3;padding:12px;border-radius:8px;overflow:auto;
font-size:12px;max-height:480px}
details summary{cursor:pointer;font-weight:600;margin:6px 0}
.muted{color:#778;font-size:13px}
"""

SCRIPT = """
(function(){
  function drawn(selector){
    var n=0;
    document.querySelectorAll(selector).forEach(function(svg){
      var box=svg.getBoundingClientRect();
      var shapes=svg.querySelectorAll('rect,circle,path,text').length;
      if(box.width>0&&box.height>0&&shapes>0){svg.setAttribute('data-drawn','yes');n++;}
    });
    return n;
  }
  document.body.setAttribute('data-boards-drawn',drawn('figure.board svg'));
  document.body.setAttribute('data-charts-drawn',drawn('figure.chart svg'));
  document.body.setAttribute('data-page-width',document.documentElement.scrollWidth);
})();
"""


MAX_TIERS = 64


class SectionEntry(Protocol):
    """What the preview reads of a manifest's section (``pack.manifest.SectionEntry`` is one,
    named here so that a render needs nothing from the pack)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def count(self) -> int: ...
    @property
    def records(self) -> int: ...
    @property
    def stats(self) -> dict[str, Any]: ...


@dataclass
class SectionView:
    """One section of the page: its manifest entry, the figures its kind drew of its
    records and the charts of its statistics, and what its kind calls a record (``noun``)
    and what its count counts when not records (``group``: "5 sets of 10 boards")."""

    entry: SectionEntry
    figures: list[str] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)
    legend: str = ""  # what the figures' colours mean, shown above them
    noun: str = "record"
    group: str | None = None


def pack_page(manifest: Any, sections: Sequence[SectionView]) -> str:
    """The preview page of a pack: ``manifest`` (a checked ``pack.manifest.Manifest``) and
    its sections with their figures (every value escaped)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(manifest.name)}: wfkit pack preview</title>",
        f"<style>{CSS}</style></head>",
        "<body>",
        "<header>",
        f"<h1>{esc(manifest.name)}</h1>",
    ]
    if manifest.description:
        parts.append(f"<p>{esc(manifest.description)}</p>")
    shard = manifest.shard
    parts.append(f"<p>seed {esc(manifest.seed)} · wfkit {esc(manifest.wfkit)} · "
                 f"config {esc(manifest.config_file)} "
                 f"(sha256 {esc(manifest.config_sha256[:12])}…) · "
                 f"{len(manifest.sections)} sections · "
                 f"{len(manifest.files) + 1} files"  # the manifest lists all but itself
                 + (f" · shard {esc(shard[0])}/{esc(shard[1])}" if shard else "") + "</p>")
    parts.append("</header><main>")
    for view in sections:
        parts.append(_section(view))
    parts.append(_manifest_block(manifest.raw))
    parts.append(f"</main><script>{SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


def _section(view: SectionView) -> str:
    entry = view.entry
    out = [f'<section class="pack-section" id="section-{esc(entry.name)}" '
           f'data-kind="{esc(entry.kind)}">',
           f'<h2>{esc(entry.name)}<span class="kind">{esc(entry.kind)}</span></h2>',
           f'<p class="muted">{esc(size_words(view))} · file {esc(entry.file)}</p>']
    if view.figures and view.legend:
        out.append(view.legend)
    if view.figures:
        out.append('<div class="gallery">' + "".join(view.figures) + "</div>")
    if view.charts:
        out.append('<div class="gallery charts">' + "".join(view.charts) + "</div>")
    out.append(_stats_table(entry.stats, shown=not view.charts))
    out.append("</section>")
    return "\n".join(out)


def counted(number: int, noun: str) -> str:
    """``1 board``, ``5 boards``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def size_words(view: SectionView) -> str:
    """A section's size in the game's words: "200 boards", "98 of 100 pools (2 missing)",
    "5 sets of 10 boards"."""
    entry, noun, group = view.entry, view.noun, view.group
    records, count = entry.records, entry.count
    if group is None or count <= 0:
        if records >= count:
            return counted(records, noun)
        return f"{records:,} of {counted(count, noun)} ({count - records:,} missing)"
    failed = entry.stats.get("failed") if isinstance(entry.stats, dict) else None
    failed = failed if isinstance(failed, int) and not isinstance(failed, bool) else 0
    asked = records + max(failed, 0)
    each = asked // count
    if asked % count or not each or records % each:
        return f"{counted(records, noun)} in {counted(count, group)}"
    made = records // each
    whole = f"{counted(count, group)} of {counted(each, noun)}"
    return whole if made == count else f"{made:,} of {whole} ({count - made:,} missing)"


def board_figure(section: str, rec: dict[str, Any]) -> str:
    """A crossword board of a section: its grid and answer strip at the page's one scale
    (``.pic``), its clues as text that wraps beside or under it (the ones wfkit writes in the
    vocabulary's language, as its record's letters show it), its answer and its style with
    the style's label (in the vocabulary's language)."""
    from wordforge_cli.render.crossword import (
        clues_html,
        grid_svg,
        grid_width,
        record_hints,
        record_language,
        spelled,
    )
    from wordforge_cli.render.ipuz import entries

    language = record_language(rec)
    found = entries(rec, record_hints(rec), language)
    svg = grid_svg(rec, found, solution=False)
    spelling = rec.get("spelling")
    answer = spelled(rec["answer"], spelling if isinstance(spelling, str) else None)
    label = rec.get("label")
    style = f"{rec['style']} ({label})" if isinstance(label, str) and label else rec["style"]
    caption = f"#{rec['id']} · {answer} ({len(rec['answer'])} letters) · style {style}"
    return (f'<figure class="board crossword">{picture(svg, grid_width(rec))}'
            f"{clues_html(found, language)}<figcaption>{esc(caption)}</figcaption></figure>")


def picture(svg: str, width: float) -> str:
    """An SVG ``width`` units wide at the page's one scale (``--u`` pixels a unit), so every
    board is drawn alike whatever its size or its clues."""
    return f'<div class="pic" style="--w:{width:g}">{svg}</div>'


def tier_charts(stats: dict[str, Any]) -> list[tuple[str, str]]:
    """(svg, caption) of a rarity section's words per tier and per battle tier."""
    out: list[tuple[str, str]] = []
    if _counts(stats.get("tiers")):
        out.append((tier_chart(stats["tiers"], "rarity tiers"), "words per rarity tier"))
        if _counts(stats.get("battle_tiers")):
            out.append((tier_chart(stats["battle_tiers"], "battle tiers"),
                        "words per battle tier"))
    return out


def _counts(value: object) -> bool:
    """A tier histogram worth drawing: a few names, each with a whole count >= 0."""
    return (isinstance(value, dict) and 0 < len(value) <= MAX_TIERS
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**63
                    for v in value.values()))


@contextlib.contextmanager
def record_errors(path: Path, line: int, kind: str) -> Iterator[None]:
    """A record the renders cannot draw (a pack edited by hand): one line naming it."""
    try:
        yield
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
            RecursionError) as exc:
        raise UsageError(f"not a {kind} record wfkit writes ({type(exc).__name__})",
                         path=path, line=line) from None


def figure(cls: str, svg: str, caption: str) -> str:
    return f'<figure class="{cls}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def pool_figure(rec: dict[str, Any], grades: dict[str, int]) -> str:
    """A kanji pool: the tile board (SVG, scaled to the card) and its compound lists as page
    text, so they stay readable on a phone instead of shrinking with the picture."""
    from wordforge_cli.render.kanji import INDEX_A, pool_svg, pools_width

    svg = picture(pool_svg(rec, reveal=False, grades=grades, legend=False),
                  pools_width([rec], lists=False))
    lists = "".join(
        f'<p{cls}><b>{label}</b>{esc(" ".join(map(str, rec.get(key) or [])))}</p>'
        for key, label, cls in (("base", "base", ""), ("picked", "picked", ""),
                                ("hidden", "hidden", ' class="hidden"'))
        if rec.get(key))
    caption = (f"pool #{rec.get('id')} · {rec.get('kanji_count')} kanji · "
               f"{INDEX_A} {rec.get('index_a')} · {rec.get('hidden_count')} hidden compounds")
    return (f'<figure class="board pool">{svg}<div class="compounds">{lists}</div>'
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def grade_legend() -> str:
    """What the tile colours mean (school grade bands, then jōyō, jinmeiyō, other)."""
    from wordforge_cli.render.kanji import GRADE_FILL, GRADE_NAME

    swatches = "".join(f'<span><i style="background:{GRADE_FILL[grade]}"></i>{esc(name)}</span>'
                       for grade, name in GRADE_NAME.items())
    return f'<div class="legend" aria-label="tile colours"><b>tiles:</b>{swatches}</div>'


def tier_chart(counts: dict[str, int], title: str) -> str:
    """A bar chart (SVG) of words per tier, tiers in the config's order."""
    bar_w, gap, height, top, left = 56, 14, 180, 52, 16  # top: the title, then the count above
    # the tallest bar (its count sits above it, below the title)
    keys = list(counts)
    most = max([int(v) for v in counts.values()] + [1])
    width = left * 2 + len(keys) * (bar_w + gap)
    body = [rect(0, 0, width, height + top + 46, fill="#fff", stroke="none", width=0),
            text(left, 18, title, size=15, anchor="start", fill="#333", weight="bold")]
    for i, key in enumerate(keys):
        n = int(counts[key])
        h = round(height * n / most, 1)
        x = left + i * (bar_w + gap)
        y = top + height - h
        body.append(rect(x, y, bar_w, max(h, 0.5), fill=TIER_COLOURS[i % len(TIER_COLOURS)],
                         stroke="none", width=0, cls="bar"))
        body.append(text(x + bar_w / 2, y - 10, n, size=13))
        body.append(text(x + bar_w / 2, top + height + 14, key.replace("_", " "), size=11,
                         fill="#444"))
    return svg_document(width, height + top + 46, body, title=title)


def _flatten(value: object, prefix: str = "") -> list[tuple[str, object]]:
    if isinstance(value, dict) and value:
        rows = []
        for key, inner in value.items():
            rows += _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return rows
    return [(prefix, value)]


# words for the statistics' keys; a key not listed shows with its underscores as spaces
STAT_LABELS = {
    "failed": "failed (budget ran out)", "rate": "rate %", "of": "out of",
    "evenness": "evenness (0-1)", "ambiguous": "ambiguous boards",
    "ambiguous_rejected": "rejected as ambiguous", "kanji_count": "kanji per pool",
    "chars": "characters", "index_a": "index A", "orphan_count": "orphan kanji",
    "hidden_count": "hidden compounds", "picked_scores": "picked-word scores",
    "histogram": "words scoring", "p10": "10th percentile", "p90": "90th percentile",
    "tiers": "tier", "battle_tiers": "battle tier", "sources": "decided by",
    "cefr_via_lemma": "CEFR level via a lemma",
}


def stat_label(key: str) -> str:
    """``blank_failure.tail.boards`` -> ``blank failure › tail › boards``."""
    return " › ".join(STAT_LABELS.get(part, part.replace("_", " ")) for part in key.split("."))


def _stats_table(stats: dict[str, Any], *, shown: bool = True) -> str:
    """Every figure of the statistics as a row (folded away under a section's charts)."""
    flat = _flatten(stats)
    rows = "".join(f'<div><span title="{esc(k)}">{esc(stat_label(k))}</span>'
                   f"<b>{esc(json.dumps(v, ensure_ascii=False))}</b></div>"
                   for k, v in flat)
    summary = "statistics" if shown else f"statistics: all {len(flat)} figures"
    return (f"<details{' open' if shown else ''}><summary>{summary}</summary>"
            f'<div class="stats">{rows}</div></details>')


def _manifest_block(manifest: dict[str, Any]) -> str:
    text_ = json.dumps(manifest, ensure_ascii=False, indent=2)
    return ('<section class="pack-section" id="manifest"><h2>manifest.json</h2>'
            f"<details><summary>show</summary><pre>{esc(text_)}</pre></details></section>")
