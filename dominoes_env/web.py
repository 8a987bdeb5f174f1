"""Block dominoes in the browser: its drawing; the rest is ``WebGame.plain`` (``sniff_twelve.web``).

From one seat's place: a panel per seat (its tiles face down, or face up with ``reveal`` and for
the seat itself; the pips it is known to lack, D8), the line of play in the middle, wrapped in
rows, its open ends (D7). A tile face up carries ``data-tile="a-b"``.
"""

from __future__ import annotations

import dominoes_env
from dominoes_env.game import Game
from sniff_twelve.core.tiles import tile_name
from sniff_twelve.web import svg
from sniff_twelve.web.svg import FELT, GOLD, PANEL, TEXT
from sniff_twelve.web.table import WebGame

WIDTH, HEIGHT, UNIT, PER_ROW = 1000, 520, 24, 16
PAPER, INK, BACK = "#f7f1e2", "#181818", "#26262c"


def tile(x: float, y: float, pips: tuple[int, int] | None, unit: float = UNIT) -> str:
    """A tile lying flat with its corner at (x, y) showing ``pips`` (left, right), face down when ``None``."""
    face = {"x": x, "y": y, "width": 2 * unit, "height": unit, "rx": unit / 6, "stroke": "#968a70"}
    if pips is None:
        return svg.element("rect", {**face, "fill": BACK})
    parts = [
        svg.element("rect", {**face, "fill": PAPER}),
        svg.element("line", {"x1": x + unit, "y1": y + 3, "x2": x + unit, "y2": y + unit - 3, "stroke": INK}),
    ]
    parts += [
        svg.text(x + (k + 0.5) * unit, y + 0.75 * unit, str(p), 0.6 * unit, text_anchor="middle")
        for k, p in enumerate(pips)
    ]
    return svg.group(parts, fill=INK, data_tile="{}-{}".format(*sorted(pips)))


def draw(game: Game, seat: int, names: list[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    """The table seen from ``seat``."""
    n, parts = game.num_players, [svg.element("rect", {"width": WIDTH, "height": HEIGHT, "fill": FELT})]
    ends = " and ".join(map(str, game.open_ends())) or "none yet"
    parts.append(svg.text(20, 34, f"Block dominoes · open ends {ends}", 22, fill=GOLD))
    w = (WIDTH - 40 - (n - 1) * 10) / n
    for s in range(n):
        x, acting = 20 + s * (w + 10), not game.is_terminal() and game.current_player == s
        box = {"x": x, "y": 50, "width": w, "height": 130, "rx": 8, "fill": PANEL, "stroke": GOLD if acting else PANEL}
        parts += [svg.element("rect", box), svg.text(x + 10, 72, svg.fit(names[s], w - 20, 14), 14, fill=TEXT)]
        shown = game.hand(s) if reveal or s == seat else [None] * game.hand_sizes[s]
        unit = min(UNIT, (w - 20) / 8)
        parts += [tile(x + 10 + (i % 4) * 2.1 * unit, 84 + (i // 4) * 1.2 * unit, p, unit) for i, p in enumerate(shown)]
        voids = game.known_voids(s)
        if voids:
            parts.append(svg.text(x + 10, 150, f"lacks {' '.join(map(str, voids))}", 12, fill=TEXT))
        if last and s in last:
            parts.append(svg.text(x + 10, 170, f"last: {game.action_name(last[s])}", 12, fill=GOLD, data_last=s))
    for i, pips in enumerate(game.line):
        row, col = divmod(i, PER_ROW)
        parts.append(tile(40 + col * 2.3 * UNIT * 1.25, 220 + row * 2 * UNIT * 1.25, pips, UNIT * 1.25))
    if game.is_terminal():
        text = f"over · returns {[int(r) for r in game.returns()]}"
        parts.append(svg.text(WIDTH / 2, HEIGHT - 30, text, 18, fill=GOLD, text_anchor="middle"))
    return svg.document(WIDTH, HEIGHT, f"block dominoes seen from seat {seat}", parts)


def hand(game: Game, seat: int) -> list[str]:
    """The seat's own tiles, one small picture each."""
    return [
        svg.piece(2 * UNIT, UNIT, tile_name(t), [tile(0, 0, t)], data_item=i) for i, t in enumerate(game.hand(seat))
    ]


WEB = WebGame.plain(Game, draw, hand, rules=dominoes_env.__doc__.split("\n\n")[0])
