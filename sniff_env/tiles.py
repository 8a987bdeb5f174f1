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

from sniff_twelve.core.options import check_int
from sniff_twelve.core.tiles import (  # the set every domino game shares
    BYTE_PIPS,
    NUM_TILES,
    PIP_TILES,
    TILE_HIGH,
    TILE_INDEX,
    TILE_LOW,
    TILES,
    set_size,
    tile_index,
    tile_name,
)

__all__ = [
    "ARM_NAMES",
    "BYTE_PIPS",
    "DRAW",
    "NUM_ACTIONS",
    "NUM_ARMS",
    "NUM_TILES",
    "PASS",
    "PIP_TILES",
    "TILES",
    "TILE_HIGH",
    "TILE_INDEX",
    "TILE_LOW",
    "action_name",
    "decode_action",
    "encode_action",
    "set_size",
    "tile_index",
    "tile_name",
]

NUM_ARMS = 4
DRAW = NUM_TILES * NUM_ARMS  # 112
PASS = DRAW + 1  # 113
NUM_ACTIONS = PASS + 1  # 114

ARM_NAMES = ("west", "east", "north", "south")


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


def action_name(action: int) -> str:
    """A short human name: ``"[3|5] east"``, ``"draw"``, ``"pass"``."""
    kind, tile, arm = decode_action(action)
    if kind != "place":
        return kind
    return f"{tile_name(tile)} {ARM_NAMES[arm]}"
