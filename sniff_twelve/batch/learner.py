"""The compiled drivers behind ``vector_env``: one learning seat per row of a batch of games.

``learner_reset`` deals every row up to the learner's first decision; ``learner_step`` applies the
learner's actions, then plays every other seat (and the learner's forced moves) inside one
``numba.prange`` call until the learner is to act again or the game ends, dealing finished games
again in the same call. The other seats are agent codes: the rule agents' own kernels, a random
legal move from the row's stream, a packed ``MlpPolicy`` (``pack_policies``, ``mlp_choice``), or a
``ViewPolicy``: an agent's choices tabulated by the views it can meet (``tabular_choice``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numba as nb
import numpy as np

from sniff_twelve.batch.mlp import MlpPolicy
from sniff_twelve.core.agent import seat_specs
from sniff_twelve.core.options import ArgumentTypeError
from sniff_twelve.core.rewards import LIVE, TERMINATED, TRUNCATED
from sniff_twelve.core.rng import below, mix64, pick_legal

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec

#: deals a reset tries before it gives up on options under which the learner never gets a turn
MAX_REDEALS = 100

#: agent codes the compiled drivers play, by seat (``LEARNER`` marks the learning seat)
LEARNER, GREEDY, HEURISTIC, RANDOM, MLP, TABULAR = -1, 0, 1, 2, 3, 4
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


#: a ``ViewPolicy``'s probabilities are drawn as 32-bit integers: ``THRESHOLD`` stands for 1
THRESHOLD = 1 << 32


@nb.njit(cache=True)
def view_key(view):
    """A 64-bit hash of a view row (``GameSpec.write_view``): the key a ``ViewPolicy`` looks up."""
    h = np.uint64(0)
    for k in range(view.shape[0]):
        h = mix64(h ^ np.uint64(np.uint32(view[k])))
    return np.int64(h)


class ViewPolicy:
    """An agent as a table: at each view it can meet (a key of ``view_key``), its probability of
    every action. Built from a small table's information states
    (``sniff_twelve.tools.exploitability.view_policy``), it plays that agent at compiled speed —
    a search too — as an opponent of ``vector_env``.

    ``keys`` [K] int64 sorted, ``thresholds`` [K, A] int64 (A: the table's actions): each row's
    cumulative probabilities in units of ``1 / THRESHOLD``, its last entry ``THRESHOLD``."""

    def __init__(self, name: str, keys: np.ndarray, probabilities: np.ndarray) -> None:
        keys, probs = np.asarray(keys, dtype=np.int64), np.asarray(probabilities, dtype=np.float64)
        if probs.ndim != 2 or probs.shape[0] != keys.shape[0]:
            raise ValueError(f"a ViewPolicy takes one row of probabilities a key; got {probs.shape} for {keys.shape}")
        if not (np.all(probs >= 0) and np.all(probs.sum(axis=1) > 0)):
            raise ValueError("a ViewPolicy's probabilities are at least 0, each row above 0 in all")
        order = np.argsort(keys)
        self.name = name
        self.keys = np.ascontiguousarray(keys[order])
        if np.any(self.keys[1:] == self.keys[:-1]):
            raise ValueError("a ViewPolicy takes one row of probabilities a view")
        probs = probs[order]
        cumulative = np.cumsum(probs / probs.sum(axis=1, keepdims=True), axis=1)
        self.thresholds = np.minimum(np.round(cumulative * THRESHOLD), THRESHOLD).astype(np.int64)
        last = probs.shape[1] - 1 - np.argmax(probs[:, ::-1] > 0, axis=1)  # each row's last possible action
        self.thresholds[np.arange(probs.shape[1])[None, :] >= last[:, None]] = THRESHOLD  # rounding never passes it

    def __repr__(self) -> str:
        return f"ViewPolicy({self.name!r}, {len(self.keys)} views)"

    def __str__(self) -> str:
        return f"{self.name} (tabulated)"


@nb.njit(cache=True)
def tabular_choice(view, mask, keys, thresholds, misses, stream):
    """A ``ViewPolicy``'s draw at ``view`` from the row's agent ``stream``; a view missing from
    its table counts in ``misses[0]`` and plays a random legal move."""
    key = view_key(view)
    k = np.searchsorted(keys, key)
    if k == keys.shape[0] or keys[k] != key:
        misses[0] += 1
        return pick_legal(mask, stream, 0)
    u = below(stream, 0, THRESHOLD)
    row = thresholds[k]
    a = 0
    while u >= row[a]:
        a += 1
    return a


class Seating(NamedTuple):
    """Who plays the seats: an agent code per seat (``LEARNER`` at the learner's), the packed
    checkpoints of the ``MLP`` seats (``pack_policies``), the table of the ``TABULAR`` seats (one
    ``ViewPolicy``'s ``keys`` and ``thresholds``; ``misses`` counts views it lacked) and what the
    learner is paid of each seat's reward (``credit``: its own, or its margin, ``seat_credit``)."""

    codes: np.ndarray  # [P] int32
    meta: np.ndarray  # [P, META_SIZE] int64
    weights: np.ndarray  # float32
    keys: np.ndarray  # [K] int64
    thresholds: np.ndarray  # [K, A] int64
    misses: np.ndarray  # [1] int64
    credit: np.ndarray  # [P] float64: the learner's reward is ``credit @ seat rewards``


class LearnerBuffers(NamedTuple):
    """Every array of ``N`` rows the drivers read and write (``learner_buffers`` sizes them)."""

    states: np.ndarray  # [N, ROW_SIZE] int32: the games
    views: np.ndarray  # [N, ROW_SIZE] int32: the acting seat's view, written on the way
    streams: np.ndarray  # [N, 2] int32: each row's deal stream (set before a reset)
    agent_streams: np.ndarray  # [N, 2] int32: each row's stream for the random agent
    scratch: np.ndarray  # [N, SNAPSHOT_SIZE] int32: what the reward kernel compares against
    seat_rewards: np.ndarray  # [N, P] float64: the last move's reward per seat
    pending: np.ndarray  # [N] float64: the learner's reward before its first decision, paid next step
    obs: np.ndarray  # [N, W] float32: the learner's observation (W: with the action features)
    final_obs: np.ndarray  # [N, W] float32: its last observation of a game that just ended
    mask: np.ndarray  # [N, A] bool: its legal actions
    feats: np.ndarray  # [N, MAX_ACTIONS, F] float32: action features of the seat being observed
    work_masks: np.ndarray  # [N, MAX_ACTIONS] bool: scratch for the other seats' masks
    obs_bufs: np.ndarray  # [N, MAX_OBS] float32: scratch for the other seats' observations
    rewards: np.ndarray  # [N] float64: the learner's reward this step
    terminated: np.ndarray  # [N] bool
    truncated: np.ndarray  # [N] bool


def learner_buffers(
    spec: GameSpec, params: np.ndarray, num_envs: int, num_players: int, use_features: bool
) -> LearnerBuffers:
    """Zeroed buffers for ``num_envs`` rows of the game ``spec`` under ``params``, the scratch
    sized for the widest mask and observation the spec declares."""
    n, features = num_envs, len(spec.action_feature_names)
    obs_size, _, num_actions = spec.widths(params)
    width = obs_size + (num_actions * features if use_features else 0)
    rows = (n, spec.ROW_SIZE)
    return LearnerBuffers(
        states=np.zeros(rows, dtype=np.int32),
        views=np.zeros(rows, dtype=np.int32),
        streams=np.zeros((n, 2), dtype=np.int32),
        agent_streams=np.zeros((n, 2), dtype=np.int32),
        scratch=np.zeros((n, spec.SNAPSHOT_SIZE), dtype=np.int32),
        seat_rewards=np.zeros((n, num_players), dtype=np.float64),
        pending=np.zeros(n, dtype=np.float64),
        obs=np.zeros((n, width), dtype=np.float32),
        final_obs=np.zeros((n, width), dtype=np.float32),
        mask=np.zeros((n, num_actions), dtype=np.bool_),
        feats=np.zeros((n, spec.MAX_ACTIONS, max(features, 1)), dtype=np.float32),
        work_masks=np.zeros((n, spec.MAX_ACTIONS), dtype=np.bool_),
        obs_bufs=np.zeros((n, spec.MAX_OBS), dtype=np.float32),
        rewards=np.zeros(n, dtype=np.float64),
        terminated=np.zeros(n, dtype=np.bool_),
        truncated=np.zeros(n, dtype=np.bool_),
    )


# --- the compiled drivers: one learning seat per row, the game's kernels from its ``GameSpec`` ---


@nb.njit(cache=True, inline="always")
def _agent_move(g, s, params, cur, seating, buf, i):
    """The compiled agent of seat ``cur`` in row ``i``, on that seat's view."""
    code, view, feats = seating.codes[cur], buf.views[i], buf.feats[i]
    g.write_view(s, params, cur, view)
    if code == GREEDY:
        return g.greedy_action(view, params)
    if code == HEURISTIC:
        return g.heuristic_action(view, params)
    mask = buf.work_masks[i, : g.MAX_ACTIONS]
    g.legal_mask_into(view, params, mask)
    if code == RANDOM:
        return pick_legal(mask, buf.agent_streams[i], 0)
    if code == TABULAR:
        return tabular_choice(view, mask, seating.keys, seating.thresholds, seating.misses, buf.agent_streams[i])
    obs = buf.obs_bufs[i, : g.MAX_OBS]
    g.write_observation(view, params, cur, obs)
    if seating.meta[cur, FEATURES] > 0:
        g.action_features(view, params, feats)
    return mlp_choice(obs[: g.obs_size(params)], mask, feats, seating.meta[cur], seating.weights)


@nb.njit(cache=True, inline="always")
def _credited(rewards, credit):
    """The learner's share of one move's seat ``rewards``: ``credit @ rewards``."""
    total = 0.0
    for p in range(credit.shape[0]):
        total += credit[p] * rewards[p]
    return total


@nb.njit(cache=True)
def _advance(g, s, params, mode, learner, seating, buf, i):
    """Play the other seats and the learner's forced moves (Sniff's DRAW/PASS) in row ``i`` until
    the learner must decide or the game ends → (the learner's reward on the way, status)."""
    total, status = 0.0, LIVE
    before, rewards = buf.scratch[i], buf.seat_rewards[i]
    while True:
        cur = np.int64(s[g.CUR])  # int64, as the Python layers pass a seat: one compiled copy of each kernel
        if cur == learner:
            a = g.forced_move(s, params)
            if a < 0:
                break
        else:
            a = _agent_move(g, s, params, cur, seating, buf, i)
        g.snapshot(s, before)
        g.apply_action(s, params, a)
        status = g.write_rewards(s, params, before, mode, rewards)
        total += _credited(rewards, seating.credit)
        if status != LIVE:
            break
    return total, status


@nb.njit(cache=True, inline="always")
def _deal_learner(g, s, params, mode, learner, seating, buf, i):
    """Deal from the row's stream until a game reaches the learner's first decision (at most
    ``MAX_REDEALS`` deals) → (the learner's reward before that decision, whether one came)."""
    for _ in range(MAX_REDEALS):
        g.new_game(s, params, np.int64(s[g.RNG]), np.int64(s[g.RNG + 1]))
        pending, status = _advance(g, s, params, mode, learner, seating, buf, i)
        if status == LIVE:
            return pending, True
    return 0.0, False


@nb.njit(cache=True, inline="always")
def _present_learner(g, s, params, learner, use_features, buf, i, obs):
    """The learner's observation ``obs`` (from its view), legal mask and, optionally, action features."""
    view, feats = buf.views[i], buf.feats[i]
    g.write_view(s, params, learner, view)
    g.write_observation(view, params, learner, obs)
    g.legal_mask_into(s, params, buf.mask[i])
    if use_features:
        g.action_features(view, params, feats)
        base, nf = g.obs_size(params), feats.shape[1]
        for a in range(g.num_actions(params)):
            for f in range(nf):
                obs[base + a * nf + f] = feats[a, f]


@nb.njit(cache=True)
def _play_row(g, params, mode, learner, use_features, seating, buf, i, actions, reset):
    """Row ``i``: with ``reset``, deal it from its stream; else the learner's ``actions[i]``, the
    other seats on to its next decision, and a new deal when the game ends (its last learner
    observation to ``buf.final_obs``). Returns whether a deal reached a learner decision."""
    s = buf.states[i]
    deal = reset
    if reset:
        s[g.RNG], s[g.RNG + 1] = buf.streams[i, 0], buf.streams[i, 1]
    else:
        before, rewards = buf.scratch[i], buf.seat_rewards[i]
        g.snapshot(s, before)
        g.apply_action(s, params, actions[i])
        status = g.write_rewards(s, params, before, mode, rewards)
        total = _credited(rewards, seating.credit) + buf.pending[i]
        buf.pending[i] = 0.0
        if status == LIVE:
            more, status = _advance(g, s, params, mode, learner, seating, buf, i)
            total += more
        buf.rewards[i] = total
        buf.terminated[i] = status == TERMINATED
        buf.truncated[i] = status == TRUNCATED
        if status != LIVE:
            _present_learner(g, s, params, learner, use_features, buf, i, buf.final_obs[i])
            deal = True
    reached = True
    if deal:
        buf.pending[i], reached = _deal_learner(g, s, params, mode, learner, seating, buf, i)
    _present_learner(g, s, params, learner, use_features, buf, i, buf.obs[i])
    return reached


# The prange body is one call of the per-row function. Written inline, the row's body lost stores
# into arrays reached through ``buf`` under numba 0.68's parfor pass (terminated rows reported as
# live); tests/envs/test_vector_env.py compares every row with single_agent_env and catches it.
# Reset and step are one compiled kernel: each kernel numba compiles optimises and generates code
# for everything it calls, the whole game included, and a parallel one several times over.


@nb.njit(cache=True, parallel=True)
def _play_rows(g, params, mode, learner, use_features, seating, buf, actions, reset):
    """``_play_row`` on every row → the number of rows where ``MAX_REDEALS`` deals never reached
    a learner decision."""
    failures = 0
    for i in nb.prange(buf.states.shape[0]):
        if not _play_row(g, params, mode, learner, use_features, seating, buf, np.int64(i), actions, reset):
            failures += 1
    return failures


_NO_ACTIONS = np.zeros(0, dtype=np.int64)


def learner_reset(
    g: GameSpec, params: np.ndarray, mode: int, learner: int, use_features: bool, seating: Seating, buf: LearnerBuffers
) -> int:
    """Deal every row from ``buf.streams`` and play up to the learner's first decision; returns
    the number of rows where ``MAX_REDEALS`` deals never reached one."""
    return _play_rows(g, params, mode, learner, use_features, seating, buf, _NO_ACTIONS, True)


def learner_step(
    g: GameSpec,
    params: np.ndarray,
    mode: int,
    learner: int,
    use_features: bool,
    seating: Seating,
    buf: LearnerBuffers,
    actions: np.ndarray,
) -> None:
    """Apply the learner's ``actions`` (int64) in every row, play on to its next decision; a
    finished game's last learner observation goes to ``buf.final_obs`` and the row is dealt again
    (same call)."""
    _play_rows(g, params, mode, learner, use_features, seating, buf, actions, False)


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


def plays_compiled(agent: str) -> bool:
    """Whether the drivers play the agent spec ``agent`` compiled: a rule agent of
    ``COMPILED_AGENTS``, ``ppo`` or ``ppo:PATH``.

    >>> plays_compiled("heuristic"), plays_compiled("ppo:runs/a.npz"), plays_compiled("rollout")
    (True, True, False)
    """
    return agent in COMPILED_AGENTS or agent == "ppo" or agent.startswith("ppo:")


def seat_codes(
    spec: GameSpec,
    num_players: int,
    seat: int,
    opponents: Any,
    partner: Any,
    make_agent,
    obs_size: int,
    num_actions: int,
    margin: bool = False,
) -> Seating:
    """The agent code of every seat of ``spec``'s game (``LEARNER`` at ``seat``), the packed
    checkpoints, the tabulated agent and the learner's ``credit`` (``seat_credit``). An agent is
    a compiled agent's name, ``ppo`` / ``ppo:PATH``, an ``MlpPolicy`` (e.g. a frozen snapshot of
    the learner) or a ``ViewPolicy`` (one a table)."""
    codes = np.full(num_players, LEARNER, dtype=np.int32)
    policies: dict[int, Any] = {}
    loaded: dict[str, Any] = {}
    tabulated: ViewPolicy | None = None
    supported = "greedy, heuristic, random, ppo, ppo:PATH, an MlpPolicy or a ViewPolicy"
    for other, agent in seat_specs(spec, num_players, seat, opponents, partner, (str, MlpPolicy, ViewPolicy)).items():
        if isinstance(agent, ViewPolicy):
            if tabulated is not None and agent is not tabulated:
                raise ValueError("vector_env seats one ViewPolicy a table (at any number of seats)")
            if agent.thresholds.shape[1] != num_actions:
                width = agent.thresholds.shape[1]
                raise ValueError(f"the ViewPolicy has {width} actions; this table has {num_actions}")
            tabulated, codes[other] = agent, TABULAR
            continue
        if isinstance(agent, MlpPolicy):
            make_agent("ppo").check_policy(agent, num_players, name=f"the policy for seat {other}")
            policy = agent
        elif not isinstance(agent, str):
            raise ArgumentTypeError(
                f"an agent spec is a string such as 'greedy', an MlpPolicy or a ViewPolicy; got {agent!r}"
            )
        elif agent in COMPILED_AGENTS:
            codes[other] = COMPILED_AGENTS[agent]
            continue
        elif plays_compiled(agent):
            if agent not in loaded:
                loaded[agent] = make_agent(agent).policy_for(num_players)
            policy = loaded[agent]
        else:
            raise ValueError(f"vector_env plays these agents compiled: {supported}; got {agent!r}")
        meta = policy.meta
        if meta["obs_size"] != obs_size or meta["num_actions"] != num_actions:
            name = agent if isinstance(agent, str) else "policy"
            raise ValueError(
                f"checkpoint {name!r} maps {meta['obs_size']} inputs to {meta['num_actions']} actions; "
                f"this table has {obs_size} and {num_actions}"
            )
        codes[other] = MLP
        policies[other] = policy
    meta, weights = pack_policies(policies, num_players)
    table = tabulated or ViewPolicy("none", np.zeros(0, np.int64), np.zeros((0, 1)))
    misses = np.zeros(1, dtype=np.int64)
    credit = seat_credit(spec, num_players, seat, margin)
    return Seating(codes, meta, weights, table.keys, table.thresholds, misses, credit)


def seat_credit(spec: GameSpec, num_players: int, seat: int, margin: bool) -> np.ndarray:
    """What the learner at ``seat`` is paid of each seat's reward: its own (``margin=False``), or
    its margin — its reward minus the mean reward of the seats outside its side, as
    ``Table.margins`` counts a margin (zero-sum whatever the reward).

    >>> from sniff_env.spec import SPEC
    >>> seat_credit(SPEC, 4, 1, True).tolist(), seat_credit(SPEC, 3, 0, False).tolist()
    ([-0.5, 1.0, -0.5, 0.0], [1.0, 0.0, 0.0])
    """
    credit = np.zeros(num_players, dtype=np.float64)
    credit[seat] = 1.0
    if margin:
        side = next((side for side in spec.sides(num_players) or () if seat in side), (seat,))
        others = [other for other in range(num_players) if other not in side]
        credit[others] = -1.0 / len(others)
    return credit
