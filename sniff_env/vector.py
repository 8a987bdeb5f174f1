"""``sniff_env.VectorGame``: thousands of Sniff matches stepped by one compiled call.

>>> import numpy as np
>>> vg = VectorGame(1024, num_players=4, seed=0)
>>> obs, mask, player = vg.reset()
>>> obs.shape, mask.shape
((1024, 135), (1024, 114))
>>> first_legal = mask.argmax(axis=1)
>>> obs, mask, player, rewards, terminated, truncated = vg.step(first_legal)
"""

from __future__ import annotations

import numba as nb
import numpy as np

from envkit.rewards import LIVE, TERMINATED, TRUNCATED
from envkit.rng import pick_legal
from envkit.vector import KernelVectorGame, VectorKernels
from sniff_env import kernels as K
from sniff_env import search
from sniff_env.env import ENV_KERNELS, check_modes
from sniff_env.game import DEFAULT_MAX_HANDS, Game, make_params
from sniff_env.observation import write_observation
from sniff_env.rewards import snapshot, write_rewards
from sniff_env.tiles import DRAW, NUM_ACTIONS, PASS
from sniff_env.view import write_view


@nb.njit(cache=True)
def play_forced(s, params):
    """``forced="auto"``: draw and pass for the seat to act while that is all it can do (S19, S21)."""
    while s[K.STATUS] == K.LIVE:
        cur = s[K.CUR]
        if K.playable_mask(s, s[K.HAND + cur]) != 0:
            return
        K.apply_action(s, params, DRAW if K.can_draw(s, params) else PASS)


@nb.njit(cache=True)
def _present(s, params, obs, mask):
    """Write the seat to act's observation and legal mask; returns that seat."""
    cur = s[K.CUR]
    write_observation(s, params, cur, obs)
    K.legal_mask_into(s, params, mask)
    return cur


@nb.njit(cache=True, parallel=True)
def batch_reset(states, params, streams, obs, mask, player):
    for i in nb.prange(states.shape[0]):
        K.new_match(states[i], params, streams[i, 0], streams[i, 1])
        player[i] = _present(states[i], params, obs[i], mask[i])


@nb.njit(cache=True, parallel=True)
def batch_step(states, params, modes, actions, scratch, obs, mask, player, rewards, terminated, truncated):
    reward_mode, forced_auto = modes[0], modes[1]
    for i in nb.prange(states.shape[0]):
        s = states[i]
        snapshot(s, scratch[i])
        K.apply_action(s, params, actions[i])
        if forced_auto:
            play_forced(s, params)
        status = write_rewards(s, params, scratch[i], reward_mode, rewards[i])
        terminated[i] = status == TERMINATED
        truncated[i] = status == TRUNCATED
        if status != LIVE:
            K.new_match(s, params, s[K.RNG], s[K.RNG + 1])  # a new match always opens with a placement
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
    """``num_envs`` independent Sniff matches in one ``int32`` array, stepped by compiled kernels.

    Options as ``sniff_env.env`` (``num_players``, ``target``, ``max_hands``, ``max_steps``,
    ``episode``, ``reward``), except that ``forced="auto"`` is the default: every row is a real
    decision. Observations follow the table in ``sniff_env.observation`` and equal, element for
    element, what ``Game`` and the AEC env give for the same state.
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int = 4,
        seed: int | None = None,
        target: int | None = None,
        max_hands: int | None = DEFAULT_MAX_HANDS,
        max_steps: int | None = None,
        episode: str = "match",
        reward: str | None = None,
        forced: str = "auto",
        settlement: str = "deduct",
        undrawn: int = 0,
    ) -> None:
        params = make_params(
            num_players, target, max_hands, max_steps, episode == "hand", settlement=settlement, undrawn=undrawn
        )
        _, reward_code, forced = check_modes(episode, reward, forced)
        modes = np.array([reward_code, forced == "auto"], dtype=np.int32)
        super().__init__(num_envs, seed, params, modes, KERNELS, ENV_KERNELS, num_players)


@nb.njit(cache=True, parallel=True)
def random_playouts(states, params, steps_per_game):
    """Play ``steps_per_game`` uniformly random legal actions (DRAW and PASS included) in every
    row, starting new matches as they end; returns the number of matches finished.

    Choices draw from each row's own stream, so this is reproducible per seed. It is the pure
    engine throughput, with no observations.
    """
    finished = 0
    for i in nb.prange(states.shape[0]):
        s = states[i]
        mask = np.empty(NUM_ACTIONS, dtype=np.bool_)
        for _ in range(steps_per_game):
            K.legal_mask_into(s, params, mask)
            a = pick_legal(mask, s, K.RNG)
            K.apply_action(s, params, a)
            if s[K.STATUS] != K.LIVE:
                finished += 1
                K.new_match(s, params, s[K.RNG], s[K.RNG + 1])
    return finished
