"""Where the tiles of a Sniff table lie (S10–S17), in units of one pip square, for every drawing of it.

The table's one drawing, the SVG of ``sniff_env.web`` (in the browser and, rasterised, as the
picture ``Game.image``), lays it out here, landscape and portrait alike:

- the main line runs left (arm 0, west) to right (arm 1, east); the Sniff's side arms run up
  (arm 2, north) and down (arm 3, south) from it; every double lies crosswise;
- the pivot — the Sniff when there is one, else the opening tile — sits at (0, 0);
- every free end is a ``Spot`` with its scored contribution, ``None`` when not scored (S15);
- long arms bend, each into its own quarter of the table (west turns south, south turns east,
  east turns north, north turns west) and then step outward like a staircase, so no two arms can
  ever meet.

``PIPS`` places the pips on a half of a tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from sniff_env import kernels as K
from sniff_env.render import arm_chains
from sniff_env.tiles import TILES

if TYPE_CHECKING:
    from sniff_env.game import Game

WEST, EAST, NORTH, SOUTH = (-1, 0), (1, 0), (0, -1), (0, 1)
#: the quarter each leg bends into: a pinwheel, so the four arms never cross
TURN = {WEST: SOUTH, SOUTH: EAST, EAST: NORTH, NORTH: WEST}
FIRST_RUN = {True: 12.0, False: 6.0}  # units from the pivot's centre before the first bend (horizontal?)
RUN = {True: 8.0, False: 6.0}  # length of every later straight run of the staircase
#: the runs of a table drawn for a screen held upright: short across, long down
PORTRAIT = ({True: 9.0, False: 3.0}, {True: 10.0, False: 2.0})

# pip centres on a half (unit square) of an upright tile; a lying tile uses them transposed
_A, _B, _C = 0.26, 0.5, 0.74
PIPS = {
    0: (),
    1: ((_B, _B),),
    2: ((_C, _A), (_A, _C)),
    3: ((_C, _A), (_B, _B), (_A, _C)),
    4: ((_A, _A), (_C, _A), (_A, _C), (_C, _C)),
    5: ((_A, _A), (_C, _A), (_B, _B), (_A, _C), (_C, _C)),
    6: ((_A, _A), (_A, _B), (_A, _C), (_C, _A), (_C, _B), (_C, _C)),
}


@dataclass(frozen=True)
class Piece:
    """A tile on the table: centre in units, upright or lying, pips top/bottom or left/right."""

    x: float
    y: float
    vertical: bool
    first: int
    second: int
    sniff: bool = False

    def box(self) -> tuple[float, float, float, float]:
        hw, hh = (0.5, 1.0) if self.vertical else (1.0, 0.5)
        return self.x - hw, self.y - hh, self.x + hw, self.y + hh


@dataclass(frozen=True)
class Spot:
    """A free attachment spot of ``arm`` (0–3, the action's arm): ``value`` is its scored
    contribution, ``None`` when not scored."""

    x: float
    y: float
    value: int | None
    arm: int


def _halves(d: tuple[int, int], inner: int, outer: int) -> tuple[int, int]:
    """(top, bottom) or (left, right) pips of a tile running in direction ``d`` from its inner end."""
    return (inner, outer) if d in (EAST, SOUTH) else (outer, inner)


def _lay_leg(
    pieces: list[Piece],
    chain: list[tuple[int, int, int]],
    start: tuple[float, float],
    d: tuple[int, int],
    runs: tuple[dict[bool, float], dict[bool, float]],
) -> tuple[tuple[float, float], tuple[int, int]]:
    """Lay ``chain`` (``(tile, inner, outer)`` outward) from the face at ``start`` heading ``d``;
    ``runs``: the first run and every later one, by direction (horizontal?).

    Returns the outer face's centre and the direction the leg ends in. A tile that would pass the
    run's end turns the corner (lying across the line's end, its inner half touching it); the leg
    then alternates between ``TURN[d]`` and ``d``, a staircase that stays in its own quarter.
    Doubles never turn a corner (they are one unit long and may overrun a little).
    """
    base, (first_run, run) = d, runs
    x, y = start
    room = first_run[d[1] == 0] - abs(x if d[1] == 0 else y)
    for tile, inner, outer in chain:
        low, high = TILES[tile]
        if low == high:
            pieces.append(Piece(x + d[0] * 0.5, y + d[1] * 0.5, d[1] == 0, inner, inner))
            x, y, room = x + d[0], y + d[1], room - 1
        elif room < 2:
            n = TURN[base] if d == base else base
            a, b = _halves(n, inner, outer)
            cx, cy = x + d[0] * 0.5, y + d[1] * 0.5
            pieces.append(Piece(cx + n[0] * 0.5, cy + n[1] * 0.5, n[1] != 0, a, b))
            x, y, d = cx + n[0] * 1.5, cy + n[1] * 1.5, n
            room = run[d[1] == 0] - 1.5
        else:
            a, b = _halves(d, inner, outer)
            pieces.append(Piece(x + d[0], y + d[1], d[1] != 0, a, b))
            x, y, room = x + 2 * d[0], y + 2 * d[1], room - 2
    return (x, y), d


def table_layout(
    game: Game, runs: tuple[dict[bool, float], dict[bool, float]] = (FIRST_RUN, RUN)
) -> tuple[list[Piece], list[Spot]]:
    """Every tile on the table and every free spot, in units of one pip square, pivot at (0, 0).

    The pivot is the Sniff when there is one, else the opening tile; ``runs`` sets where the arms
    bend (``PORTRAIT``: a table narrower than it is tall).
    """
    state = np.array(game.state_array)
    center, chains = arm_chains(game)
    if center < 0:
        return [], []
    low, high = TILES[center]
    # the main line west to east as (tile, left pip, right pip)
    line = [(t, outer, inner) for t, inner, outer in reversed(chains[0])]
    line.append((center, low, high))
    line += [(t, inner, outer) for t, inner, outer in chains[1]]
    sniff = int(state[K.SNIFF])
    p = next((i for i, (t, _, _) in enumerate(line) if t == sniff), len(chains[0]))
    tile, left, right = line[p]
    pieces: list[Piece] = []
    if TILES[tile][0] == TILES[tile][1]:
        pieces.append(Piece(0.0, 0.0, True, left, left, sniff=tile == sniff))
        half = 0.5
    else:
        pieces.append(Piece(0.0, 0.0, False, left, right))
        half = 1.0
    west = [(t, r, lft) for t, lft, r in reversed(line[:p])]
    east = [(t, lft, r) for t, lft, r in line[p + 1 :]]
    legs = {0: (west, (-half, 0.0), WEST), 1: (east, (half, 0.0), EAST)}
    if tile == sniff:
        legs[2] = (chains[2], (0.0, -1.0), NORTH)
        legs[3] = (chains[3], (0.0, 1.0), SOUTH)
    spots = []
    for arm, (chain, start, d) in legs.items():
        (x, y), d_end = _lay_leg(pieces, chain, start, d, runs)
        if state[K.END_PIP + arm] >= 0:
            value = int(K.arm_contribution(state, arm))
            spots.append(Spot(x + d_end[0] * 0.62, y + d_end[1] * 0.62, value if value >= 0 else None, arm))
    return pieces, spots
