"""A few SVG helpers: elements as strings, every attribute and text escaped.

>>> element("rect", {"x": 1, "width": 2.5, "class": "a<b"})
'<rect x="1" width="2.5" class="a&lt;b"/>'
>>> text(10, 20, "5 & 10", 12)
'<text x="10" y="20" font-size="12">5 &amp; 10</text>'
>>> fit("partner (seat 2, heuristic)", 120, 14)
'partner (sea…'
"""

from __future__ import annotations

from html import escape
from typing import Any

#: the colours every game's table is drawn in: the felt, a header's or footer's panel, a seat's
#: panel and its edge, text, dimmed text, gold (the seat to act, a winner, a last move), a negative score
FELT, PANEL, SEAT, EDGE = "#1c6842", "#0e3420", "#164a2e", "#306848"
TEXT, MUTED, GOLD, RED = "#ecf0e8", "#b0ccba", "#ffd046", "#ff786e"


def _value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return escape(str(value))


def element(tag: str, attrs: dict[str, Any] | None = None, *children: str) -> str:
    """``<tag attrs>children</tag>`` (self-closing without children); ``None`` attributes are left out."""
    parts = "".join(f' {key}="{_value(value)}"' for key, value in (attrs or {}).items() if value is not None)
    if not children:
        return f"<{tag}{parts}/>"
    return f"<{tag}{parts}>{''.join(children)}</{tag}>"


def text(x: float, y: float, content: str, size: float, **attrs: Any) -> str:
    """A ``<text>`` element; keyword arguments become attributes (``_`` in a name becomes ``-``)."""
    extra = {key.replace("_", "-"): value for key, value in attrs.items()}
    return element("text", {"x": x, "y": y, "font-size": size, **extra}, escape(content))


def fit(content: str, width: float, size: float) -> str:
    """``content`` cut (with an ellipsis) to what ``width`` pixels hold at font ``size``: a name never
    runs into what is drawn beside it (a character of DejaVu Sans is at most ~0.62 em wide)."""
    most = max(1, int(width / (0.62 * size)))
    return content if len(content) <= most else content[: most - 1] + "…"


def group(children: list[str], **attrs: Any) -> str:
    """A ``<g>`` of ``children``."""
    return element("g", {key.replace("_", "-"): value for key, value in attrs.items()}, *children)


def document(width: int, height: int, label: str, children: list[str], least_width: float | None = None) -> str:
    """A scalable SVG document (``viewBox``, width 100%) with an accessible label; with
    ``least_width`` it is never drawn narrower than that many px (its box then scrolls across)."""
    attrs = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {width} {height}",
        "role": "img",
        "aria-label": label,
        "font-family": "DejaVu Sans, Verdana, sans-serif",
        "style": None if least_width is None else f"min-width: {round(least_width)}px",
    }
    return element("svg", attrs, *children)


def piece(width: float, height: float, label: str, children: list[str], **attrs: Any) -> str:
    """A small SVG of ``width`` × ``height`` pixels (a tile or card of the player's hand, which the
    page lays out as a row that wraps on a narrow screen); keyword arguments become attributes."""
    extra = {key.replace("_", "-"): value for key, value in attrs.items()}
    size = {"width": width, "height": height, "viewBox": f"0 0 {_value(width)} {_value(height)}"}
    attrs = {"xmlns": "http://www.w3.org/2000/svg", **size, "role": "img", "aria-label": label, **extra}
    return element("svg", attrs, *children)


def panel(x: float, y: float, width: float, height: float, lit: bool, fill: str = SEAT) -> str:
    """A seat's or a side's rounded panel, edged in gold when ``lit`` (to act, or the winner)."""
    edge = {"rx": 8, "stroke": GOLD if lit else EDGE, "stroke-width": 2, "fill": fill}
    return element("rect", {"x": x, "y": y, "width": width, "height": height, **edge})


def spot(children: list[str], index: int) -> str:
    """A place a move goes to (``data-spot``: ``index``), taking clicks on its whole area."""
    return group(children, **{"class": "spot", "pointer-events": "all"}, data_spot=index)
