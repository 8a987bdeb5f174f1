"""The double-six set (S2) and the action ids of docs/api.md.

Tile index ``i`` enumerates ``(0,0), (0,1), … (0,6), (1,1), … (6,6)``. Action ``tile * 4 + arm``
places a tile on arm 0/1 (the main line's ends) or 2/3 (the Sniff's side arms); ``DRAW`` (S19)
and ``PASS`` (S21) follow.

>>> encode_action((3, 5), 1)
81
>>> decode_action(81)
('place', (3, 5), 1)
>>> decode_action(DRAW)
('draw', None, None)
"""

from __future__ import annotations

import numpy as np

from sniff_twelve.core.options import ArgumentTypeError, check_int

NUM_TILES = 28
NUM_ARMS = 4
DRAW = NUM_TILES * NUM_ARMS  # 112
PASS = DRAW + 1  # 113
NUM_ACTIONS = PASS + 1  # 114

TILES: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(7) for b in range(a, 7))
TILE_INDEX: dict[tuple[int, int], int] = {t: i for i, t in enumerate(TILES)}

#: low and high half of every tile, as arrays the kernels read.
TILE_LOW = np.array([a for a, _ in TILES], dtype=np.int32)
TILE_HIGH = np.array([b for _, b in TILES], dtype=np.int32)
#: ``PIP_TILES[p]``: bit mask of the tiles that carry pip ``p`` on either half.
PIP_TILES = np.array([sum(1 << i for i, (a, b) in enumerate(TILES) if p in (a, b)) for p in range(7)], dtype=np.int32)
#: ``BYTE_PIPS[k, b]``: the pips of the tiles whose bits ``8k … 8k+7`` of a tile mask are the byte ``b``.
BYTE_PIPS = np.array(
    [
        [sum(sum(TILES[8 * k + i]) for i in range(8) if b >> i & 1 and 8 * k + i < NUM_TILES) for b in range(256)]
        for k in range(4)
    ],
    dtype=np.int32,
)
ARM_NAMES = ("west", "east", "north", "south")


def set_size(pips: int) -> int:
    """Tiles in the double-``pips`` set: ``(pips + 1)(pips + 2) / 2`` (28 for the double six, S2)."""
    return (pips + 1) * (pips + 2) // 2


def tile_index(tile: tuple[int, int]) -> int:
    """Index of ``tile``, a pair of pips ``(a, b)`` (a tuple or list of two integers, 0–6); the
    halves may come in either order."""
    if not isinstance(tile, tuple | list):
        raise ArgumentTypeError(f"a tile is a pair of pips (a, b); got {tile!r} ({type(tile).__name__})")
    if len(tile) != 2:
        raise ValueError(f"a tile is a pair of pips (a, b); got {len(tile)} values in {tile!r}")
    a, b = (check_int("a tile's pip", x, 0, 6) for x in tile)
    return TILE_INDEX[(min(a, b), max(a, b))]


def encode_action(tile: tuple[int, int], arm: int) -> int:
    """Action id that places ``tile`` on ``arm`` (0–3; the opening tile uses arm 0)."""
    return tile_index(tile) * NUM_ARMS + check_int("arm", arm, 0, NUM_ARMS - 1)


def decode_action(action: int) -> tuple[str, tuple[int, int] | None, int | None]:
    """``("place", tile, arm)``, ``("draw", None, None)`` or ``("pass", None, None)``."""
    action = check_int("action", action, 0, NUM_ACTIONS - 1)
    if action == DRAW:
        return ("draw", None, None)
    if action == PASS:
        return ("pass", None, None)
    return ("place", TILES[action // NUM_ARMS], action % NUM_ARMS)


def tile_name(tile: tuple[int, int]) -> str:
    """``"[3|5]"``: how every text and picture names a tile."""
    return f"[{tile[0]}|{tile[1]}]"


def action_name(action: int) -> str:
    """A short human name: ``"[3|5] east"``, ``"draw"``, ``"pass"``."""
    kind, tile, arm = decode_action(action)
    if kind != "place":
        return kind
    return f"{tile_name(tile)} {ARM_NAMES[arm]}"
