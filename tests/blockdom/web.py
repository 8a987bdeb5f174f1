"""Block dominoes in the browser: its drawing; the rest is ``WebGame.plain`` (``sniff_twelve.web``).

From one seat's place: a panel per seat (its tiles face down, or face up with ``reveal`` and for
the seat itself; its last move), the line in the middle. A tile face up carries ``data-tile``.
"""

from __future__ import annotations

from sniff_twelve.web import svg
from sniff_twelve.web.svg import FELT, GOLD, PANEL, TEXT
from sniff_twelve.web.table import WebGame
from tests import blockdom
from tests.blockdom.game import Game
from tests.blockdom.kernels import HIGH, LOW

WIDTH, HEIGHT, TILE_W, TILE_H = 900, 400, 72, 36
PAPER, INK = "#fcfbf6", "#1c1c22"


def tile(x: float, y: float, pips: tuple[int, int] | None) -> str:
    """A tile with its corner at (x, y) showing ``pips`` (left, right), face down when ``None``."""
    face = {"x": x, "y": y, "width": TILE_W, "height": TILE_H, "rx": 5, "stroke": INK}
    if pips is None:
        return svg.element("rect", {**face, "fill": "#1e3e8e", "class": "back"})
    mid = x + TILE_W / 2
    parts = [
        svg.element("rect", {**face, "fill": PAPER}),
        svg.element("line", {"x1": mid, "y1": y + 4, "x2": mid, "y2": y + 32, "stroke": INK}),
    ]
    parts += [
        svg.text(mid + (i - 0.5) * TILE_W / 2, y + 25, str(p), 20, text_anchor="middle") for i, p in enumerate(pips)
    ]
    return svg.group(parts, data_tile="[{}|{}]".format(*sorted(pips)))


def draw(game: Game, seat: int, names: list[str], reveal: bool, last: dict[int, int] | None = None) -> str:
    n, parts = game.num_players, [svg.element("rect", {"width": WIDTH, "height": HEIGHT, "fill": FELT})]
    parts.append(svg.text(20, 36, f"Block dominoes · boneyard {game.pool_size} · points {game.scores}", 22, fill=GOLD))
    w = (WIDTH - 40 - (n - 1) * 10) / n
    for s in range(n):
        x, acting = 20 + s * (w + 10), not game.is_terminal() and game.current_player == s
        box = {"x": x, "y": 56, "width": w, "height": 110, "rx": 8, "fill": PANEL, "stroke": GOLD if acting else PANEL}
        parts += [svg.element("rect", box), svg.text(x + 10, 78, svg.fit(names[s], w - 20, 14), 14, fill=TEXT)]
        shown = [(LOW[t], HIGH[t]) for t in game.hand(s)] if reveal or s == seat else [None] * game.hand_sizes[s]
        parts += [tile(x + 10 + i * 80, 90, p) for i, p in enumerate(shown)]
        if last and s in last:
            parts.append(svg.text(x + 10, 156, f"last: {game.action_name(last[s])}", 13, fill=GOLD, data_last=s))
    x0 = (WIDTH - (TILE_W + 4) * len(game.line)) / 2
    parts += [tile(x0 + i * (TILE_W + 4), 230, p) for i, p in enumerate(game.line)]
    if game.is_terminal():
        parts.append(svg.text(WIDTH / 2, 330, f"over · scores {game.scores}", 18, fill=GOLD, text_anchor="middle"))
    return svg.document(WIDTH, HEIGHT, f"block dominoes seen from seat {seat}", parts)


def hand(game: Game, seat: int) -> list[str]:
    items = enumerate(game.hand(seat))
    return [
        svg.piece(TILE_W, TILE_H, Game.spec.item_names[t], [tile(0, 0, (LOW[t], HIGH[t]))], data_item=i)
        for i, t in items
    ]


WEB = WebGame.plain(Game, draw, hand, rules=blockdom.__doc__.split("The rules:")[1].strip())
