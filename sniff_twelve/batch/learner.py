"""The compiled drivers behind ``vector_env``: one learning seat per row of a batch of games.

``learner_reset`` deals every row up to the learner's first decision; ``learner_step`` applies the
learner's actions, then plays every other seat (and the learner's forced moves) inside one
``numba.prange`` call until the learner is to act again or the game ends, dealing finished games
again in the same call. The other seats are agent codes: the rule agents' own kernels, a random
legal move from the row's stream, or a packed ``MlpPolicy`` (``pack_policies``, ``mlp_choice``).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.agent import seat_specs
from sniff_twelve.core.options import ArgumentTypeError
from sniff_twelve.core.rewards import LIVE, TERMINATED, TRUNCATED
from sniff_twelve.core.rng import pick_legal

#: deals a reset tries before it gives up on options under which the learner never gets a turn
MAX_REDEALS = 100

#: agent codes the compiled drivers play, by seat (``LEARNER`` marks the learning seat)
LEARNER, GREEDY, HEURISTIC, RANDOM, MLP = -1, 0, 1, 2, 3
COMPILED_AGENTS = {"greedy": GREEDY, "heuristic": HEURISTIC, "random": RANDOM}
MAX_LAYERS = 8
# layers, (w offset, in, out, b offset) per layer, input features, gains offset, features read
META_SIZE = 1 + 4 * MAX_LAYERS + 3
INPUT_FEATURES, GAINS, FEATURES = META_SIZE - 3, META_SIZE - 2, META_SIZE - 1


@nb.njit(cache=True)
def mlp_choice(obs, mask, feats, meta, weights):
    """The masked argmax of a packed ReLU MLP (``meta`` one row of ``pack_policies``): its input is
    ``obs``, followed by the flattened ``feats`` when the checkpoint reads them as input; the
    logits add ``feats @ gains`` when it has gains. Ties go to the lowest action, like ``np.argmax``."""
    n_obs, n_in, nf = obs.shape[0], meta[2], meta[INPUT_FEATURES]
    x = np.empty(n_in, dtype=np.float64)
    for k in range(n_obs):
        x[k] = obs[k]
    for a in range((n_in - n_obs) // max(nf, 1)):
        for f in range(nf):
            x[n_obs + a * nf + f] = feats[a, f]
    layers = meta[0]
    for layer in range(layers):
        w_off, n_in, n_out, b_off = meta[1 + 4 * layer], meta[2 + 4 * layer], meta[3 + 4 * layer], meta[4 + 4 * layer]
        y = np.empty(n_out, dtype=np.float64)
        for j in range(n_out):
            y[j] = weights[b_off + j]
        for k in range(n_in):
            xk = x[k]
            if xk != 0.0:
                row = w_off + k * n_out
                for j in range(n_out):
                    y[j] += xk * weights[row + j]
        if layer < layers - 1:
            for j in range(n_out):
                if y[j] < 0.0:
                    y[j] = 0.0
        x = y
    gains = meta[GAINS]
    best, best_value = -1, -np.inf
    for a in range(x.shape[0]):
        if not mask[a]:
            continue
        value = x[a]
        if gains >= 0:
            for f in range(meta[FEATURES]):
                value += feats[a, f] * weights[gains + f]
        if best < 0 or value > best_value:
            best, best_value = a, value
    return best


# --- the compiled drivers: one learning seat per row, the game's kernels from its ``GameSpec`` ---


@nb.njit(cache=True)
def _agent_move(g, s, params, cur, code, meta, weights, stream, view, mask, obs_buf, feats):
    """The compiled agent ``code`` of seat ``cur``, on that seat's view."""
    g.write_view(s, params, cur, view)
    if code == GREEDY:
        return g.greedy_action(view, params)
    if code == HEURISTIC:
        return g.heuristic_action(view, params)
    g.legal_mask_into(view, params, mask)
    if code == RANDOM:
        return pick_legal(mask, stream, 0)
    g.write_observation(view, params, cur, obs_buf)
    if meta[cur, FEATURES] > 0:
        g.action_features(view, params, feats)
    return mlp_choice(obs_buf[: g.obs_size(params)], mask, feats, meta[cur], weights)


@nb.njit(cache=True)
def _advance(g, s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats):
    """Play the other seats and the learner's forced moves (Sniff's DRAW/PASS) until the learner
    must decide or the game ends → (the learner's reward on the way, status)."""
    total, status = 0.0, LIVE
    while True:
        cur = s[g.CUR]
        if cur == learner:
            a = g.forced_action(s, params, mask)
            if a < 0:
                break
        else:
            a = _agent_move(g, s, params, cur, codes[cur], meta, weights, stream, view, mask, obs_buf, feats)
        g.snapshot(s, before)
        g.apply_action(s, params, a)
        status = g.write_rewards(s, params, before, mode, rewards)
        total += rewards[learner]
        if status != LIVE:
            break
    return total, status


@nb.njit(cache=True)
def _deal_learner(
    g, s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats
):  # fmt: skip
    """Deal from the row's stream until a game reaches the learner's first decision (at most
    ``MAX_REDEALS`` deals) → (the learner's reward before that decision, whether one came)."""
    for _ in range(MAX_REDEALS):
        g.new_game(s, params, s[g.RNG], s[g.RNG + 1])
        pending, status = _advance(
            g, s, params, mode, learner, codes, meta, weights, stream, before, rewards, view, mask, obs_buf, feats
        )
        if status == LIVE:
            return pending, True
    return 0.0, False


@nb.njit(cache=True)
def _present_learner(g, s, params, learner, view, obs, mask, feats, use_features):
    """The learner's observation (from its view), legal mask and, optionally, action features."""
    g.write_view(s, params, learner, view)
    g.write_observation(view, params, learner, obs)
    g.legal_mask_into(s, params, mask)
    if use_features:
        g.action_features(view, params, feats)
        base, nf = g.obs_size(params), feats.shape[1]
        for a in range(g.num_actions(params)):
            for f in range(nf):
                obs[base + a * nf + f] = feats[a, f]


@nb.njit(cache=True, parallel=True)
def learner_reset(
    g, states, params, mode, learner, codes, meta, weights, agent_streams, scratch, views, rewards, obs, mask, feats,
    work_masks, obs_bufs, use_features, pending, streams,
):  # fmt: skip
    """Deal every row from ``streams`` and play up to the learner's first decision; returns the
    number of rows where ``MAX_REDEALS`` deals never reached one."""
    failures = 0
    for i in nb.prange(states.shape[0]):
        s = states[i]
        s[g.RNG], s[g.RNG + 1] = streams[i, 0], streams[i, 1]
        work_mask = work_masks[i, : g.MAX_ACTIONS]
        obs_buf = obs_bufs[i, : g.MAX_OBS]
        pending[i], ok = _deal_learner(
            g, s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
            work_mask, obs_buf, feats[i],
        )  # fmt: skip
        if not ok:
            failures += 1
        _present_learner(g, s, params, learner, views[i], obs[i], mask[i], feats[i], use_features)
    return failures


@nb.njit(cache=True, parallel=True)
def learner_step(
    g, states, params, mode, learner, codes, meta, weights, agent_streams, scratch, views, rewards, obs, mask, feats,
    work_masks, obs_bufs, use_features, pending, actions, out_rewards, terminated, truncated, final_obs,
):  # fmt: skip
    """Apply the learner's action in every row, play on to its next decision; a finished game's
    last learner observation goes to ``final_obs`` and the row is dealt again (same call)."""
    for i in nb.prange(states.shape[0]):
        s = states[i]
        work_mask = work_masks[i, : g.MAX_ACTIONS]
        obs_buf = obs_bufs[i, : g.MAX_OBS]
        g.snapshot(s, scratch[i])
        g.apply_action(s, params, actions[i])
        status = g.write_rewards(s, params, scratch[i], mode, rewards[i])
        total = rewards[i, learner] + pending[i]
        pending[i] = 0.0
        if status == LIVE:
            more, status = _advance(
                g, s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
                work_mask, obs_buf, feats[i],
            )  # fmt: skip
            total += more
        out_rewards[i] = total
        terminated[i] = status == TERMINATED
        truncated[i] = status == TRUNCATED
        if status != LIVE:
            _present_learner(g, s, params, learner, views[i], final_obs[i], work_mask, feats[i], use_features)
            pending[i], _ = _deal_learner(
                g, s, params, mode, learner, codes, meta, weights, agent_streams[i], scratch[i], rewards[i], views[i],
                work_mask, obs_buf, feats[i],
            )  # fmt: skip
        _present_learner(g, s, params, learner, views[i], obs[i], mask[i], feats[i], use_features)


def pack_policies(policies: dict[int, Any], num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """``(meta [P, META_SIZE] int64, weights float32)``: every seat's ``MlpPolicy`` flattened for
    ``mlp_choice`` (seats without one get an all-zero row)."""
    meta = np.zeros((num_players, META_SIZE), dtype=np.int64)
    meta[:, GAINS] = -1
    chunks: list[np.ndarray] = []
    offset = 0

    def add(array: np.ndarray) -> int:
        nonlocal offset
        chunks.append(np.asarray(array, np.float32).reshape(-1))
        start, offset = offset, offset + chunks[-1].size
        return start

    packed: dict[int, np.ndarray] = {}
    for seat, policy in policies.items():
        if id(policy) in packed:
            meta[seat] = packed[id(policy)]
            continue
        layers = [*policy.layers, policy.policy_head]
        if len(layers) > MAX_LAYERS:
            raise ValueError(f"compiled opponents run at most {MAX_LAYERS} layers; the checkpoint has {len(layers)}")
        meta[seat, 0] = len(layers)
        for i, (w, b) in enumerate(layers):
            meta[seat, 1 + 4 * i : 5 + 4 * i] = add(w), w.shape[0], w.shape[1], add(b)
        meta[seat, INPUT_FEATURES] = policy.input_features
        if policy.action_feature_gains is not None:
            meta[seat, GAINS] = add(policy.action_feature_gains)
        if policy.uses_action_features:
            meta[seat, FEATURES] = policy.input_features or policy.action_feature_gains.size
        packed[id(policy)] = meta[seat].copy()
    weights = np.concatenate(chunks) if chunks else np.zeros(1, dtype=np.float32)
    return meta, weights


def seat_codes(
    num_players: int,
    seat: int,
    opponents: Any,
    partner: Any,
    make_agent,
    obs_size: int,
    num_actions: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The agent code of every seat (``LEARNER`` at ``seat``) and the packed checkpoints. A spec
    is a compiled agent's name, ``ppo`` / ``ppo:PATH``, or an ``MlpPolicy`` (e.g. a frozen
    snapshot of the learner)."""
    codes = np.full(num_players, LEARNER, dtype=np.int32)
    policies: dict[int, Any] = {}
    loaded: dict[str, Any] = {}
    supported = "greedy, heuristic, random, ppo, ppo:PATH or an MlpPolicy"
    for other, spec in seat_specs(num_players, seat, opponents, partner, (str, MlpPolicy)).items():
        if isinstance(spec, MlpPolicy):
            make_agent("ppo").check_policy(spec, num_players, name=f"the policy for seat {other}")
            policy = spec
        elif not isinstance(spec, str):
            raise ArgumentTypeError(f"an agent spec is a string such as 'greedy' or an MlpPolicy; got {spec!r}")
        elif spec in COMPILED_AGENTS:
            codes[other] = COMPILED_AGENTS[spec]
            continue
        elif spec == "ppo" or spec.startswith("ppo:"):
            if spec not in loaded:
                loaded[spec] = make_agent(spec).policy_for(num_players)
            policy = loaded[spec]
        else:
            raise ValueError(f"vector_env plays these agents compiled: {supported}; got {spec!r}")
        meta = policy.meta
        if meta["obs_size"] != obs_size or meta["num_actions"] != num_actions:
            name = spec if isinstance(spec, str) else "policy"
            raise ValueError(
                f"checkpoint {name!r} maps {meta['obs_size']} inputs to {meta['num_actions']} actions; "
                f"this table has {obs_size} and {num_actions}"
            )
        codes[other] = MLP
        policies[other] = policy
    meta, weights = pack_policies(policies, num_players)
    return codes, meta, weights
