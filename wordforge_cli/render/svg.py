"""Small SVG building blocks shared by the crossword and kanji renders."""

from __future__ import annotations

from xml.sax.saxutils import escape as _escape

from wordforge_cli.core.text import shown

FONT = "'Noto Sans CJK JP','Hiragino Sans','Yu Gothic',sans-serif"


def esc(text: object) -> str:
    """A value as SVG or HTML text or an attribute: markup escaped, and control characters
    shown escaped (an ESC makes XML invalid; none is ever written raw)."""
    return _escape(shown(str(text)), {'"': "&quot;"})


def svg_head(width: float, height: float, *, title: str | None = None) -> str:
    """The opening of an SVG document (with its title), for documents written in parts."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
            f'viewBox="0 0 {width:g} {height:g}" font-family="{esc(FONT)}">\n')
    if title:
        head += f"<title>{esc(title)}</title>\n"
    return head


def svg_tail() -> str:
    return "</svg>\n"


def svg_document(width: float, height: float, body: list[str], *, title: str | None = None) -> str:
    """A standalone SVG document (UTF-8, no external references)."""
    return svg_head(width, height, title=title) + "".join(b + "\n" for b in body) + svg_tail()


def rect(x: float, y: float, w: float, h: float, *, fill: str = "#fff", stroke: str = "#333",
         width: float = 1.5, rx: float = 0, cls: str | None = None) -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<rect{c} x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{width:g}"/>')


def text(x: float, y: float, content: object, *, size: float = 16, fill: str = "#111",
         anchor: str = "middle", weight: str = "normal") -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{fill}" '
            f'text-anchor="{anchor}" dominant-baseline="central" font-weight="{weight}">'
            f"{esc(content)}</text>")


def circle(cx: float, cy: float, r: float, *, fill: str = "none", stroke: str = "#c33",
           width: float = 1.5, cls: str | None = None) -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<circle{c} cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{width:g}"/>')


def line(x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#333",
         width: float = 1.5, dash: str | None = None, cls: str | None = None) -> str:
    c = f' class="{cls}"' if cls else ""
    d = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line{c} x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
            f'stroke-width="{width:g}"{d}/>')
