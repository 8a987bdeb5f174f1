"""What the AEC env's ``infos`` hold in American Sniff (``sniff_twelve.envs.aec``).

After a placement, the acting agent's ``infos`` hold ``"credit"`` (an ``np.int64``: its S17
credit) and ``"scored"`` (an ``int64`` array ``[4, 3]``: one row ``(low pip, high pip,
contribution)`` per scored end right after it, S10/S14, unused rows ``-1``); every other agent's,
everyone's after DRAW and PASS and at ``reset``, hold the same keys with credit 0 and no scored
ends. Only numpy scalars and fixed-shape arrays, so batching frameworks (Tianshou's ``Batch``,
TorchRL) can stack them; ``Game.describe()`` and ``Game.events`` keep the full detail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba as nb
import numpy as np

from sniff_env import kernels as K
from sniff_env.tiles import DRAW, TILE_HIGH, TILE_LOW

if TYPE_CHECKING:
    from sniff_env.game import Game


def quiet_info() -> dict[str, Any]:
    """No credit, no scored end."""
    return {"credit": np.int64(0), "scored": np.full((4, 3), -1, dtype=np.int64)}


@nb.njit(cache=True)
def write_scored(s, out):
    """``out[4, 3]``: ``Game.last_scored`` as rows ``(low pip, high pip, contribution)``, the
    unused rows ``-1`` (compiled: this runs after every placement the AEC env makes)."""
    out[:] = -1
    row = 0
    for k in range(4):
        slot = s[K.LAST_SCORED + k]
        if slot >= 0:
            tile = slot // 64
            out[row, 0], out[row, 1], out[row, 2] = TILE_LOW[tile], TILE_HIGH[tile], slot % 64
            row += 1


def step_info(game: Game, actor: int, action: int, before: np.ndarray) -> dict[str, Any]:
    """The placement's credit and scored ends (``Game.last_scored``)."""
    if action >= DRAW:
        return quiet_info()
    scored = np.empty((4, 3), dtype=np.int64)
    write_scored(game._state, scored)
    return {"credit": np.int64(game.last_credit), "scored": scored}
