"""What the AEC env's ``infos`` hold in "12" (``sniff_twelve.envs.aec``): after each play, the
acting agent's ``"captured"`` is the number of cards it took (an ``np.int64``, T8); every other
agent's, and everyone's at ``reset``, is 0."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from twelve_env import kernels as K

if TYPE_CHECKING:
    from twelve_env.game import Game


def quiet_info() -> dict[str, Any]:
    return {"captured": np.int64(0)}


def step_info(game: Game, actor: int, action: int, before: np.ndarray) -> dict[str, Any]:
    """The cards the play captured (``before`` is the snapshot: captured counts by seat)."""
    return {"captured": np.int64(game._state[K.CAPTURED + actor] - before[actor])}
