"""``twelve_env.VectorGame``: thousands of "12" games stepped by one compiled call.

>>> vg = VectorGame(256, num_players=3, deck="numbers", seed=0)
>>> obs, mask, player = vg.reset()
>>> obs.shape, mask.shape
((256, 61), (256, 11))
"""

from __future__ import annotations

import numba as nb
import numpy as np

from envkit.options import check_choice
from envkit.rewards import LIVE, TERMINATED
from envkit.rng import pick_legal
from envkit.vector import KernelVectorGame, VectorKernels
from twelve_env import kernels as K
from twelve_env import search
from twelve_env.cards import MAX_RANKS, NUM_RANKS
from twelve_env.env import env_kernels
from twelve_env.game import Game, make_params
from twelve_env.observation import write_observation
from twelve_env.rewards import REWARD_MODES, snapshot, write_rewards
from twelve_env.view import write_view


@nb.njit(cache=True)
def _present(s, params, obs, mask):
    cur = s[K.CUR]
    write_observation(s, params, cur, obs)
    K.legal_mask_into(s, params, mask)
    return cur


@nb.njit(cache=True, parallel=True)
def batch_reset(states, params, streams, obs, mask, player):
    for i in nb.prange(states.shape[0]):
        K.new_game(states[i], params, streams[i, 0], streams[i, 1])
        player[i] = _present(states[i], params, obs[i], mask[i])


@nb.njit(cache=True, parallel=True)
def batch_step(states, params, modes, actions, scratch, obs, mask, player, rewards, terminated, truncated):
    for i in nb.prange(states.shape[0]):
        s = states[i]
        snapshot(s, scratch[i])
        K.apply_action(s, params, actions[i])
        status = write_rewards(s, params, scratch[i], modes[0], rewards[i])
        terminated[i] = status == TERMINATED
        truncated[i] = False
        if status != LIVE:
            K.new_game(s, params, s[K.RNG], s[K.RNG + 1])
        player[i] = _present(s, params, obs[i], mask[i])


@nb.njit(cache=True, parallel=True)
def batch_action_features(states, params, views, out):
    for i in nb.prange(states.shape[0]):
        write_view(states[i], params, states[i, K.CUR], views[i])
        search.action_features(views[i], params, out[i])


@nb.njit(cache=True, parallel=True)
def batch_seat_observations(states, params, views, out):
    for i in nb.prange(states.shape[0]):
        for seat in range(out.shape[1]):
            write_view(states[i], params, seat, views[i])
            write_observation(views[i], params, seat, out[i, seat])


@nb.njit(cache=True, parallel=True)
def batch_agent_actions(states, params, rows, agent, views, out):
    """``agent`` 0: greedy, 1: heuristic (``KERNELS.rule_agents``), each on the seat's view."""
    for j in nb.prange(rows.shape[0]):
        v = views[rows[j]]
        write_view(states[rows[j]], params, states[rows[j], K.CUR], v)
        out[j] = search.greedy_action(v, params) if agent == 0 else search.heuristic_action(v, params)


KERNELS = VectorKernels(
    Game,
    K.STATE_SIZE,
    batch_reset,
    batch_step,
    batch_action_features,
    batch_seat_observations,
    batch_agent_actions,
    ("greedy", "heuristic"),
)


class VectorGame(KernelVectorGame):
    """``num_envs`` independent games of "12" in one ``int32`` array, stepped by compiled kernels.

    Options as ``twelve_env.env`` (``num_players``, ``deck``, ``capture_extra_turn``, ``reward``).
    Observations follow the table in ``twelve_env.observation``; masks are ``[N, 13]`` (bridge) or
    ``[N, 11]`` (numbers).
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        deck: str = "bridge",
        seed: int | None = None,
        capture_extra_turn: bool = False,
        reward: str = "score",
    ) -> None:
        params = make_params(num_players, deck, capture_extra_turn)
        modes = np.array([REWARD_MODES[check_choice("reward", reward, tuple(REWARD_MODES))]], dtype=np.int32)
        super().__init__(num_envs, seed, params, modes, KERNELS, env_kernels(NUM_RANKS[deck]), num_players)


@nb.njit(cache=True, parallel=True)
def random_playouts(states, params, steps_per_game):
    """Play ``steps_per_game`` uniformly random legal cards in every row, dealing new games as they
    end; returns the number of games finished (pure engine throughput, no observations)."""
    finished = 0
    for i in nb.prange(states.shape[0]):
        s = states[i]
        mask = np.empty(MAX_RANKS, dtype=np.bool_)
        for _ in range(steps_per_game):
            K.legal_mask_into(s, params, mask)
            a = pick_legal(mask, s, K.RNG)
            K.apply_action(s, params, a)
            if s[K.STATUS] != K.LIVE:
                finished += 1
                K.new_game(s, params, s[K.RNG], s[K.RNG + 1])
    return finished
