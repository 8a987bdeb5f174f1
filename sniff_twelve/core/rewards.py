"""Zero-sum rewards by final placing, shared by both games' ``reward="win"``."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np


@nb.njit(cache=True)
def rank_rewards(values, n, out):
    """Write into ``out[:n]`` a zero-sum reward by rank of ``values[:n]`` (higher is better).

    Places are worth ``1 - 2 * place / (n - 1)`` (first +1, last −1, evenly between); tied
    players share the mean of the places they occupy, so the rewards always sum to zero.

    Two players: +1 / −1. Three players where one won and two lost: +1, −0.5, −0.5.
    """
    for i in range(n):
        better = 0
        equal = 0
        for j in range(n):
            if values[j] > values[i]:
                better += 1
            elif values[j] == values[i]:
                equal += 1
        mean_place = better + (equal - 1) / 2.0
        out[i] = 1.0 - 2.0 * mean_place / (n - 1)


# What a game's ``write_rewards`` kernel returns about the episode after a step.
LIVE, TERMINATED, TRUNCATED = 0, 1, 2


def places_by_score(game: Any) -> dict[str, Any]:
    """How a finished one-deal game went, for a game whose ``agents`` module says nothing else
    (``match_outcome``): each seat's place by ``Game.scores`` mapped to [0, 1] (first 1, last 0,
    ties share), ``points`` its score."""
    scores = np.array(game.scores, dtype=np.float64)
    places = np.empty(game.num_players)
    rank_rewards(scores, game.num_players, places)
    return {"outcome": ((places + 1) / 2).tolist(), "points": scores.tolist(), "hands": 1}
