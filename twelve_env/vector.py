"""``twelve_env.VectorGame``: thousands of "12" games stepped by one compiled call.

>>> vg = VectorGame(256, num_players=3, deck="numbers", seed=0)
>>> obs, mask, player = vg.reset()
>>> obs.shape, mask.shape
((256, 61), (256, 11))
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from envkit.options import check_choice, check_int
from envkit.rewards import LIVE, TERMINATED
from envkit.rng import pick_legal
from envkit.vector import KernelVectorGame, VectorKernels
from envkit.vector_env import FEATURES, MAX_REDEALS, mlp_choice
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


# --- one learning seat per row (``twelve_env.vector_env``, ``envkit.vector_env``) --------------------


@nb.njit(cache=True)
def _agent_move(s, params, cur, code, meta, weights, stream, view, mask, obs_buf, feats):
    """The compiled agent ``code`` (``envkit.vector_env``) of seat ``cur``, on that seat's view."""
    write_view(s, params, cur, view)
    if code == 0:
        return search.greedy_action(view, params)
    if code == 1:
        return search.heuristic_action(view, params)
    K.legal_mask_into(view, params, mask)
    if code == 2:
        return pick_legal(mask, stream, 0)
    write_observation(view, params, cur, obs_buf)
    if meta[cur, FEATURES] > 0:
        search.action_features(view, params, feats)
    return mlp_choice(obs_buf[: 4 * K.num_ranks(params) + 17], mask, feats, meta[cur], weights)


@nb.njit(cache=True)
def _advance(s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats):
    """Play the other seats until the learner must decide or the game ends → (the learner's
    reward on the way, status)."""
    total, status = 0.0, LIVE
    while s[K.CUR] != learner:
        cur = s[K.CUR]
        a = _agent_move(s, params, cur, codes[cur], meta, weights, stream, view, mask, obs_buf, feats)
        snapshot(s, before)
        K.apply_action(s, params, a)
        status = write_rewards(s, params, before, mode, rewards)
        total += rewards[learner]
        if status != LIVE:
            break
    return total, status


@nb.njit(cache=True)
def _deal_learner(s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats):
    """Deal from the row's stream until a game reaches the learner's first decision (at most
    ``MAX_REDEALS`` deals) → (the learner's reward before that decision, whether one came)."""
    for _ in range(MAX_REDEALS):
        K.new_game(s, params, s[K.RNG], s[K.RNG + 1])
        pending, status = _advance(
            s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats
        )
        if status == LIVE:
            return pending, True
    return 0.0, False


@nb.njit(cache=True)
def _present_learner(s, params, learner, view, obs, mask, feats, use_features):
    """The learner's observation (from its view), legal mask and, optionally, action features."""
    write_view(s, params, learner, view)
    write_observation(view, params, learner, obs)
    K.legal_mask_into(s, params, mask)
    if use_features:
        search.action_features(view, params, feats)
        r, nf = K.num_ranks(params), feats.shape[1]
        base = 4 * r + 17
        for a in range(r):
            for f in range(nf):
                obs[base + a * nf + f] = feats[a, f]


@nb.njit(cache=True, parallel=True)
def learner_reset(
    states, params, mode, learner, codes, meta, weights, agent_streams, scratch, views, rewards, obs, mask, feats,
    work_masks, obs_bufs, use_features, pending, streams,
):  # fmt: skip
    """Deal every row from ``streams`` and play up to the learner's first decision; returns the
    number of rows where ``MAX_REDEALS`` deals never reached one."""
    failures = 0
    for i in nb.prange(states.shape[0]):
        s = states[i]
        s[K.RNG], s[K.RNG + 1] = streams[i, 0], streams[i, 1]
        work_mask = work_masks[i, :MAX_RANKS]
        obs_buf = obs_bufs[i, : 4 * MAX_RANKS + 17]
        pending[i], ok = _deal_learner(
            s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
            work_mask, obs_buf, feats[i],
        )  # fmt: skip
        if not ok:
            failures += 1
        _present_learner(s, params, learner, views[i], obs[i], mask[i], feats[i], use_features)
    return failures


@nb.njit(cache=True, parallel=True)
def learner_step(
    states, params, mode, learner, codes, meta, weights, agent_streams, scratch, views, rewards, obs, mask, feats,
    work_masks, obs_bufs, use_features, pending, actions, out_rewards, terminated, truncated, final_obs,
):  # fmt: skip
    """Apply the learner's action in every row, play on to its next decision; a finished game's
    last learner observation goes to ``final_obs`` and the row is dealt again (same call)."""
    for i in nb.prange(states.shape[0]):
        s = states[i]
        work_mask = work_masks[i, :MAX_RANKS]
        obs_buf = obs_bufs[i, : 4 * MAX_RANKS + 17]
        snapshot(s, scratch[i])
        K.apply_action(s, params, actions[i])
        status = write_rewards(s, params, scratch[i], mode, rewards[i])
        total = rewards[i, learner] + pending[i]
        pending[i] = 0.0
        if status == LIVE:
            more, status = _advance(
                s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
                work_mask, obs_buf, feats[i],
            )  # fmt: skip
            total += more
        out_rewards[i] = total
        terminated[i] = status == TERMINATED
        truncated[i] = False
        if status != LIVE:
            _present_learner(s, params, learner, views[i], final_obs[i], work_mask, feats[i], use_features)
            pending[i], _ = _deal_learner(
                s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
                work_mask, obs_buf, feats[i],
            )  # fmt: skip
        _present_learner(s, params, learner, views[i], obs[i], mask[i], feats[i], use_features)


def vector_env(
    num_envs: int,
    num_players: int = 2,
    opponents: str | list[str] = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str = "score",
    **options,
):
    """``num_envs`` games of "12" with one learning ``seat`` each, as a ``gymnasium.vector.VectorEnv``
    (``envkit.vector_env.KernelVectorEnv``; autoreset ``SAME_STEP``, final observation in
    ``infos["final_obs"]``). The other seats (``opponents``: one spec for all or one per opponent
    seat) are played compiled: ``greedy``, ``heuristic``, ``random``, ``ppo:PATH`` or an ``MlpPolicy``
    (a frozen snapshot of the learner; ``set_opponents`` swaps them between steps). ``reward`` and
    the other options (``deck``, ``capture_extra_turn``) as ``single_agent_env``;
    ``action_features=True`` appends the learner's flattened ``Game.action_features()``.

    >>> venv = vector_env(64, num_players=3, opponents="heuristic", seed=0)
    >>> obs, infos = venv.reset()
    >>> obs.shape, venv.action_masks().shape
    ((64, 69), (64, 13))
    """
    from envkit.vector_env import KernelVectorEnv, seat_codes
    from twelve_env.agents import make_agent

    num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
    params = make_params(num_players, **options)
    num_actions = int(K.num_ranks(params))
    reward_mode = REWARD_MODES[check_choice("reward", reward, tuple(REWARD_MODES))]
    seat = check_int("seat", seat, 0, num_players - 1)
    obs_size = 4 * num_actions + 17
    seat_agents = functools.partial(
        seat_codes, num_players, seat, make_agent=make_agent, obs_size=obs_size, num_actions=num_actions
    )
    return KernelVectorEnv(
        num_envs,
        game_cls=Game,
        drivers=(learner_reset, learner_step),
        params=params,
        reward_mode=reward_mode,
        num_players=num_players,
        seat=seat,
        seat_agents=seat_agents,
        opponents=opponents,
        partner=None,
        obs_size=obs_size,
        num_actions=num_actions,
        state_size=K.STATE_SIZE,
        action_features=action_features,
        seed=seed,
    )
