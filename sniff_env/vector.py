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

import functools

import numba as nb
import numpy as np

from envkit.options import check_int
from envkit.rewards import LIVE, TERMINATED, TRUNCATED
from envkit.rng import pick_legal
from envkit.vector import KernelVectorGame, VectorKernels
from envkit.vector_env import FEATURES, MAX_REDEALS, mlp_choice
from sniff_env import kernels as K
from sniff_env import search
from sniff_env.env import ENV_KERNELS, check_modes
from sniff_env.game import DEFAULT_MAX_HANDS, Game, make_params
from sniff_env.observation import OBS_SIZE, write_observation
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


# --- one learning seat per row (``sniff_env.vector_env``, ``envkit.vector_env``) ---------------------


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
    return mlp_choice(obs_buf, mask, feats, meta[cur], weights)


@nb.njit(cache=True)
def _advance(s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats):
    """Play the other seats and the learner's forced DRAW/PASS until the learner must decide or
    the game ends → (the learner's reward on the way, status)."""
    total, status = 0.0, LIVE
    while True:
        cur = s[K.CUR]
        if cur == learner:
            K.legal_mask_into(s, params, mask)
            if mask[DRAW]:
                a = DRAW
            elif mask[PASS]:
                a = PASS
            else:
                break
        else:
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
        K.new_match(s, params, s[K.RNG], s[K.RNG + 1])
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
        nf = feats.shape[1]
        for a in range(NUM_ACTIONS):
            for f in range(nf):
                obs[OBS_SIZE + a * nf + f] = feats[a, f]


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
        ok_mask = work_masks[i, :NUM_ACTIONS]
        obs_buf = obs_bufs[i, :OBS_SIZE]
        pending[i], ok = _deal_learner(
            s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
            ok_mask, obs_buf, feats[i],
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
        work_mask = work_masks[i, :NUM_ACTIONS]
        obs_buf = obs_bufs[i, :OBS_SIZE]
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
        truncated[i] = status == TRUNCATED
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
    partner: str = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str | None = None,
    **options,
):
    """``num_envs`` Sniff matches with one learning ``seat`` each, as a ``gymnasium.vector.VectorEnv``
    (``envkit.vector_env.KernelVectorEnv``; autoreset ``SAME_STEP``, final observation in
    ``infos["final_obs"]``). The other seats — ``opponents`` (one spec for all or one per opponent
    seat) and, with 4 players, the ``partner`` opposite — are played compiled: ``greedy``,
    ``heuristic``, ``random``, ``ppo`` (the shipped checkpoint), ``ppo:PATH`` or an ``MlpPolicy`` (a
    frozen snapshot of the learner; ``set_opponents`` swaps them between steps). Forced draws and
    passes are made for the learner. ``reward`` and the other options (``target``, ``max_hands``,
    ``max_steps``, ``episode``, ``settlement``, ``undrawn``) as ``single_agent_env``;
    ``action_features=True`` appends the learner's flattened ``Game.action_features()`` to the
    observation.

    >>> venv = vector_env(64, num_players=2, opponents="greedy", seed=0)
    >>> obs, infos = venv.reset()
    >>> obs.shape, venv.action_masks().shape
    ((64, 135), (64, 114))
    """
    from envkit.vector_env import KernelVectorEnv, seat_codes
    from sniff_env.agents import make_agent

    num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
    episode = options.pop("episode", "match")
    params = make_params(num_players, hand_episode=episode == "hand", **options)
    _, reward_mode, _ = check_modes(episode, reward, "auto")
    seat = check_int("seat", seat, 0, num_players - 1)
    seat_agents = functools.partial(
        seat_codes, num_players, seat, make_agent=make_agent, obs_size=OBS_SIZE, num_actions=NUM_ACTIONS
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
        partner=partner if num_players == 4 else None,
        obs_size=OBS_SIZE,
        num_actions=NUM_ACTIONS,
        state_size=K.STATE_SIZE,
        action_features=action_features,
        seed=seed,
    )
