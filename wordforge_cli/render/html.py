"""``wfkit pack preview``: one self-contained HTML page that shows a pack.

No network at all: CSS inline, every picture an inline SVG drawn by the engines' own
renders (crossword boards, kanji boards) or here (the rarity tier histogram), no external
URL anywhere. A small inline script marks, on ``<body>``, how many boards and charts the
browser actually laid out (``data-boards-drawn``, ``data-charts-drawn``), so a headless
browser test can tell a drawn page from a broken one.
"""

from __future__ import annotations

import json
from pathlib import Path

from wordforge_cli.errors import UsageError
from wordforge_cli.render.svg import esc, rect, svg_document, text

BOARD_KINDS = ("crossword", "endless", "challenge")
TIER_COLOURS = ("#9aa5b1", "#4caf50", "#2196f3", "#9c27b0", "#ff9800", "#e53935")

CSS = """
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
.gallery{display:flex;flex-wrap:wrap;gap:14px;margin:10px 0}
figure{margin:0;border:1px solid #dde2ea;border-radius:8px;padding:6px;background:#fafafa}
figure svg{display:block;max-width:420px;height:auto}
figcaption{font-size:12px;color:#566;text-align:center;margin-top:4px}
.stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:0 24px;
font-size:13px;margin-top:8px}
.stats div{display:flex;justify-content:space-between;border-bottom:1px solid #eef0f3;
padding:3px 0}
.stats span{color:#566;margin-right:12px}
.stats b{font-weight:500;text-align:right;word-break:break-all}
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
})();
"""


def read_records(path: Path, limit: int) -> list[dict]:
    """The first ``limit`` records of a JSON Lines file (never the whole of a big pack)."""
    records: list[dict] = []
    if limit <= 0 or not path.is_file():
        return records
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if len(records) >= limit:
                break
            if line.strip():
                records.append(json.loads(line))
    return records


def pack_page(directory: Path, *, items: int = 6) -> str:
    """The preview page of the pack in ``directory``."""
    from wordforge_cli.pack.store import read_manifest

    manifest = read_manifest(directory)
    if manifest is None:
        raise UsageError("not a wfkit pack (no manifest.json)", path=directory)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(manifest.get('name'))}: wfkit pack preview</title>",
        f"<style>{CSS}</style></head>",
        "<body>",
        "<header>",
        f"<h1>{esc(manifest.get('name'))}</h1>",
    ]
    if manifest.get("description"):
        parts.append(f"<p>{esc(manifest['description'])}</p>")
    shard = manifest.get("shard")
    parts.append(f"<p>seed {esc(manifest.get('seed'))} · wfkit {esc(manifest.get('wfkit'))} · "
                 f"config {esc(manifest.get('config', {}).get('file'))} "
                 f"(sha256 {esc(str(manifest.get('config', {}).get('sha256'))[:12])}…) · "
                 f"{len(manifest.get('sections', []))} sections · "
                 f"{len(manifest.get('files', []))} files"
                 + (f" · shard {shard['index']}/{shard['count']}" if shard else "") + "</p>")
    parts.append("</header><main>")
    for entry in manifest.get("sections", []):
        parts.append(_section(directory, entry, items))
    parts.append(_manifest_block(manifest))
    parts.append(f"</main><script>{SCRIPT}</script></body></html>")
    return "\n".join(parts) + "\n"


def _section(directory: Path, entry: dict, items: int) -> str:
    kind = entry.get("kind")
    out = [f'<section class="pack-section" id="section-{esc(entry["name"])}" '
           f'data-kind="{esc(kind)}">',
           f'<h2>{esc(entry["name"])}<span class="kind">{esc(kind)}</span></h2>',
           f'<p class="muted">{esc(entry.get("records"))} records of {esc(entry.get("count"))} '
           f'asked · file {esc(entry.get("file"))}</p>']
    pictures = _pictures(directory, entry, items)
    if pictures:
        out.append('<div class="gallery">' + "".join(pictures) + "</div>")
    out.append(_stats_table(entry.get("stats", {})))
    out.append("</section>")
    return "\n".join(out)


def _pictures(directory: Path, entry: dict, items: int) -> list[str]:
    kind = entry.get("kind")
    stats = entry.get("stats", {})
    figures = []
    if kind in BOARD_KINDS:
        from wordforge_cli.render.crossword import boards_svg

        for rec in read_records(directory / entry["file"], items):
            svg = boards_svg([rec], title=f"{entry['name']} #{rec['id']}")
            figures.append(_figure("board", svg, f"#{rec['id']} · {rec['answer']} · "
                                                 f"{rec['style']}"))
    elif kind == "kanji":
        from wordforge_cli.pack.kanji import pool_svg

        for rec in read_records(directory / entry["file"], items):
            figures.append(_figure("board", pool_svg(rec), f"pool #{rec.get('id')} · "
                                                           f"{rec.get('kanji_count')} kanji"))
    elif kind == "rarity" and isinstance(stats.get("tiers"), dict):
        figures.append(_figure("chart", tier_chart(stats["tiers"], "rarity tiers"),
                               "words per rarity tier"))
        if isinstance(stats.get("battle_tiers"), dict):
            figures.append(_figure("chart", tier_chart(stats["battle_tiers"], "battle tiers"),
                                   "words per battle tier"))
    return figures


def _figure(cls: str, svg: str, caption: str) -> str:
    return f'<figure class="{cls}">{svg}<figcaption>{esc(caption)}</figcaption></figure>'


def tier_chart(counts: dict, title: str) -> str:
    """A bar chart (SVG) of words per tier, tiers in the config's order."""
    bar_w, gap, height, top, left = 56, 14, 180, 30, 16
    keys = list(counts)
    most = max([int(v) for v in counts.values()] + [1])
    width = left * 2 + len(keys) * (bar_w + gap)
    body = [rect(0, 0, width, height + top + 46, fill="#fff", stroke="none", width=0),
            text(left, 14, title, size=14, anchor="start", fill="#333", weight="bold")]
    for i, key in enumerate(keys):
        n = int(counts[key])
        h = round(height * n / most, 1)
        x = left + i * (bar_w + gap)
        y = top + height - h
        body.append(rect(x, y, bar_w, max(h, 0.5), fill=TIER_COLOURS[i % len(TIER_COLOURS)],
                         stroke="none", width=0, cls="bar"))
        body.append(text(x + bar_w / 2, y - 9, n, size=12))
        body.append(text(x + bar_w / 2, top + height + 14, key.replace("_", " "), size=11,
                         fill="#444"))
    return svg_document(width, height + top + 46, body, title=title)


def _flatten(value, prefix: str = "") -> list[tuple[str, object]]:
    if isinstance(value, dict) and value:
        rows = []
        for key, inner in value.items():
            rows += _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return rows
    return [(prefix, value)]


def _stats_table(stats: dict) -> str:
    rows = "".join(f"<div><span>{esc(k)}</span><b>{esc(json.dumps(v, ensure_ascii=False))}</b>"
                   "</div>" for k, v in _flatten(stats))
    return f'<details open><summary>statistics</summary><div class="stats">{rows}</div></details>'



def _manifest_block(manifest: dict) -> str:
    text_ = json.dumps(manifest, ensure_ascii=False, indent=2)
    return ('<section class="pack-section" id="manifest"><h2>manifest.json</h2>'
            f"<details><summary>show</summary><pre>{esc(text_)}</pre></details></section>")
