"""Text rendering of a Sniff table: the layout as the cross it is on the table.

The main line runs left (arm 0, "west") to right (arm 1, "east"); doubles lie crosswise, so on
the main line they stand upright (pip / bar / pip over three rows). The Sniff's side arms run up
(arm 2, "north") and down (arm 3, "south") from it; their tiles stand upright and their doubles
lie flat. Below the cross: free spots with the pips they accept, the scored ends, scores (S27
tally optional) and the hand of the seat to act with its legal moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sniff_env import kernels as K
from sniff_env.tiles import ARM_NAMES, TILES, action_name, tile_name

if TYPE_CHECKING:
    from sniff_env.game import Game


def arm_chains(game: Game) -> tuple[int, list[list[tuple[int, int, int]]]]:
    """The centre tile and, per arm, ``(tile, inner pip, outer pip)`` from the centre outward."""
    s = game.state_array
    center = -1
    chains: list[list[tuple[int, int, int]]] = [[], [], [], []]
    for i in range(int(s[K.N_PLACED])):
        entry = int(s[K.LOG + i])
        tile, arm, parent = entry & 31, (entry >> 5) & 3, ((entry >> 7) & 31) - 1
        low, high = TILES[tile]
        if parent < 0:
            center = tile
            continue
        inner, outer = (high, low) if (entry >> 15) & 7 == K.HIGH else (low, high)
        chains[arm].append((tile, inner, outer))
    return center, chains


class _Canvas:
    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}

    def put(self, row: int, col: int, text: str) -> None:
        for i, ch in enumerate(text):
            self.cells[(row, col + i)] = ch

    def text(self) -> str:
        if not self.cells:
            return "(empty table)"
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        c0 = min(cols)
        lines = []
        for r in range(min(rows), max(rows) + 1):
            line = "".join(self.cells.get((r, c), " ") for c in range(c0, max(cols) + 1))
            lines.append(line.rstrip())
        return "\n".join(lines)


def _upright(canvas: _Canvas, row: int, col: int, top: int, bottom: int) -> None:
    canvas.put(row - 1, col, str(top))
    canvas.put(row, col, "─")
    canvas.put(row + 1, col, str(bottom))


def draw_layout(game: Game) -> str:
    """The cross of tiles as text."""
    center, chains = arm_chains(game)
    if center < 0:
        return "(empty table)"
    canvas = _Canvas()
    sniff = int(game.state_array[K.SNIFF])
    sniff_col = None

    def lay(tile: int, left_pip: int, right_pip: int, col: int) -> int:
        """Lay a main-line tile at ``col``; returns its width."""
        nonlocal sniff_col
        if TILES[tile][0] == TILES[tile][1]:
            _upright(canvas, 0, col, left_pip, left_pip)
            if tile == sniff:
                sniff_col = col
            return 1
        canvas.put(0, col, f"[{left_pip}|{right_pip}]")
        return 5

    low, high = TILES[center]
    col = 0
    width = lay(center, low, high, col)
    right = col + width
    for tile, inner, outer in chains[1]:
        right += lay(tile, inner, outer, right)
    left = 0
    for tile, inner, outer in chains[0]:
        w = 1 if TILES[tile][0] == TILES[tile][1] else 5
        left -= w
        lay(tile, outer, inner, left)
    if sniff_col is not None:
        for arm, step in ((2, -1), (3, 1)):
            row = 2 * step
            for tile, inner, outer in chains[arm]:
                if TILES[tile][0] == TILES[tile][1]:
                    canvas.put(row, sniff_col - 2, f"[{inner}|{outer}]")
                    row += step
                else:
                    near, far = row, row + 2 * step
                    canvas.put(near, sniff_col, str(inner))
                    canvas.put(row + step, sniff_col, "│")
                    canvas.put(far, sniff_col, str(outer))
                    row += 3 * step
    return canvas.text()


def tally(points: int) -> str:
    """S27's paper tally: ``X`` for each 50 points, ``/`` for each 5 (negative scores get a minus)."""
    sign = "-" if points < 0 else ""
    fifties, rest = divmod(abs(points), 50)
    return sign + "X" * fifties + "/" * (rest // 5)


def render_text(game: Game, show_tally: bool = False) -> str:
    """The table, the scores and the hand of the seat to act."""
    d = game.describe()
    lines = [draw_layout(game), ""]
    spots = [
        f"{ARM_NAMES[k]} {int(game.state_array[K.END_PIP + k])}"
        for k in range(4)
        if game.state_array[K.END_PIP + k] >= 0
    ]
    sniff = f"   Sniff [{d['spinner'][0]}|{d['spinner'][1]}]" if d["spinner"] else ""
    lines.append("free spots: " + (", ".join(spots) if spots else "any tile opens") + sniff)
    scored = " + ".join(str(c) for _, c in d["scored"]) or "0"
    lines.append(f"ends: {scored} = {d['total']}   last credit: {d['credit']}")
    sides = ["0+2", "1+3"] if game.num_players == 4 else [str(i) for i in range(game.num_players)]
    marks = [f" {tally(score)}" if show_tally else "" for score in game.scores]
    pairs = zip(sides, game.scores, marks, strict=True)
    score_text = "  ".join(f"{name}: {score}{mark}" for name, score, mark in pairs)
    lines.append(f"scores ({'teams' if game.num_players == 4 else 'seats'}) {score_text}   target {game.target}")
    sizes = ", ".join(f"{seat}: {len(game.hand(seat))}" for seat in range(game.num_players))
    lines.append(f"hand sizes {sizes}   boneyard {game.boneyard_size}   hand #{game.hands_played + 1}")
    if game.is_terminal() and game.winner is None and not game.is_truncated():
        lines.append("hand over: the episode was this hand")
    elif game.is_terminal():
        result = "truncated" if game.is_truncated() else f"won by {sides[game.winner]}"
        lines.append(f"match over: {result}")
    else:
        seat = game.current_player
        hand = " ".join(map(tile_name, game.hand(seat)))
        moves = ", ".join(f"{a}: {action_name(a)}" for a in game.legal_actions())
        lines.append(f"seat {seat} to act, holding {hand}")
        lines.append(f"legal: {moves}")
    return "\n".join(lines)
