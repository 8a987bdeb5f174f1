"""Batched self-play shared by both games: ``N`` games in one 2-D array, one compiled call a step.

The drivers here loop over rows in ``numba.prange`` (one row per game, no Python loop), each
reusing the game's own single-row kernels from its ``GameSpec`` (``sniff_twelve.core.spec``), so a row
evolves exactly as ``Game`` does. Finished games are reset inside the same call, continuing the
row's own random stream. Action features, seat observations and the built-in agents' choices are
computed from each seat's view (``sniff_twelve.core.view``), written per row first.

The ``VectorGame`` owns its rows: the arrays it returns are read-only views of its buffers, and
``step`` checks actions against its own legal masks before any row changes. What a game's
environment options come to — its options row and modes — is made by ``GameSpec.setup``, which
this ``VectorGame`` and the environments above (``sniff_twelve.envs``) share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numba as nb
import numpy as np

from sniff_twelve.batch.threads import check_threads, thread_count
from sniff_twelve.core.options import ArgumentTypeError, check_int, check_seed, derive_init_signature
from sniff_twelve.core.rewards import LIVE, TERMINATED, TRUNCATED
from sniff_twelve.core.rng import pick_legal, seed_key, stream_states

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame

#: the built-in agents ``batch_agent_actions`` plays, by index
RULE_AGENTS = ("greedy", "heuristic")


@nb.njit(cache=True)
def _present(g, s, params, obs, mask):
    """Write the seat to act's observation and legal mask; returns that seat."""
    cur = np.int64(s[g.CUR])  # int64, as the Python layers pass a seat: one compiled copy of each kernel
    g.write_observation(s, params, cur, obs)
    g.legal_mask_into(s, params, mask)
    return cur


@nb.njit(cache=True)
def play_forced(g, s, params, modes):
    """``forced="auto"`` (``modes[1]``, in a game that has the option): make every move forced on
    the seat to act, one after another, while the game's ``forced_move`` names one."""
    if modes.shape[0] < 2 or not modes[1]:
        return
    action = g.forced_move(s, params)
    while action >= 0:
        g.apply_action(s, params, action)
        action = g.forced_move(s, params)


@nb.njit(cache=True, parallel=True)
def batch_play(
    g, states, params, modes, reset, streams, actions, scratch, obs, mask, player, rewards, terminated, truncated
):
    """With ``reset``, deal every row afresh from ``streams``, else apply ``actions``: one compiled
    kernel for both, since numba optimises and generates code for everything a kernel calls, the
    whole game included, and a parallel kernel several times over."""
    for i in nb.prange(states.shape[0]):
        s = states[i]
        if reset:
            g.new_game(s, params, np.int64(streams[i, 0]), np.int64(streams[i, 1]))
        else:
            g.snapshot(s, scratch[i])
            g.apply_action(s, params, actions[i])
            play_forced(g, s, params, modes)
            status = g.write_rewards(s, params, scratch[i], modes[0], rewards[i])
            terminated[i] = status == TERMINATED
            truncated[i] = status == TRUNCATED
            if status != LIVE:
                g.new_game(s, params, np.int64(s[g.RNG]), np.int64(s[g.RNG + 1]))
        player[i] = _present(g, s, params, obs[i], mask[i])


@nb.njit(cache=True, parallel=True)
def batch_action_features(g, states, params, views, out):
    """``Game.action_features`` of every row → ``out[N, A, F]``."""
    for i in nb.prange(states.shape[0]):
        g.write_view(states[i], params, np.int64(states[i, g.CUR]), views[i])
        g.action_features(views[i], params, out[i])


@nb.njit(cache=True, parallel=True)
def batch_seat_observations(g, states, params, views, out):
    """Every seat's observation of every row → ``out[N, P, D]``."""
    for i in nb.prange(states.shape[0]):
        for seat in range(out.shape[1]):
            g.write_view(states[i], params, seat, views[i])
            g.write_observation(views[i], params, seat, out[i, seat])


@nb.njit(cache=True, parallel=True)
def batch_agent_actions(g, states, params, rows, agent, views, out):
    """``agent`` 0: greedy, 1: heuristic (``RULE_AGENTS``), each on the seat's view."""
    for j in nb.prange(rows.shape[0]):
        v = views[rows[j]]
        g.write_view(states[rows[j]], params, np.int64(states[rows[j], g.CUR]), v)
        out[j] = g.greedy_action(v, params) if agent == 0 else g.heuristic_action(v, params)


@nb.njit(cache=True, parallel=True)
def batch_random_playouts(g, states, params, steps_per_game):
    """Play ``steps_per_game`` uniformly random legal actions in every row, starting new games as
    they end; returns the number of games finished.

    Choices draw from each row's own stream, so this is reproducible per seed. It is the pure
    engine throughput, with no observations.
    """
    finished = 0
    for i in nb.prange(states.shape[0]):
        s = states[i]
        mask = np.empty(g.MAX_ACTIONS, dtype=np.bool_)
        for _ in range(steps_per_game):
            g.legal_mask_into(s, params, mask)
            a = pick_legal(mask, s, g.RNG)
            g.apply_action(s, params, a)
            if s[g.STATUS] != g.LIVE:
                finished += 1
                g.new_game(s, params, np.int64(s[g.RNG]), np.int64(s[g.RNG + 1]))
    return finished


@nb.njit(cache=True)
def first_illegal(mask, actions):
    """Index of the first row whose action is out of range or not legal there, else ``-1``."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or not mask[i, a]:
            return i
    return -1


@nb.njit(cache=True, parallel=True)
def sample_legal(mask, streams, out):
    """Write into ``out[i]`` a uniformly random legal action of row ``i`` (row ``i`` draws from
    its own stream ``streams[i]``, so the choice is reproducible whatever the thread count)."""
    for i in nb.prange(mask.shape[0]):
        out[i] = pick_legal(mask[i], streams[i], 0)


def checked_actions(actions: Any, num_envs: int) -> np.ndarray:
    """One action a row as the compiled steps take it (contiguous ``int64``); ``ArgumentTypeError``
    for an array that is not of integers, ``ValueError`` for one not of shape ``(num_envs,)``."""
    actions = np.asarray(actions)
    if not np.issubdtype(actions.dtype, np.integer):
        raise ArgumentTypeError(f"actions must be an integer array; got dtype {actions.dtype}")
    if actions.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},); got {actions.shape}")
    return np.ascontiguousarray(actions, dtype=np.int64)


_NO_STREAMS = np.zeros((0, 2), dtype=np.int32)
_NO_ACTIONS = np.zeros(0, dtype=np.int64)


def read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view of ``array`` (the owner keeps writing through ``array`` itself)."""
    view = array.view()
    view.flags.writeable = False
    return view


class BaseVectorGame:
    """``num_envs`` independent games stepped together: ``VectorGame(num_envs, num_players, seed,
    reward, threads, **options)`` of a game's ``game_cls``, its options (the rules' and the
    environments', ``GameSpec.env_options``) listed in the signature from their declarations,
    every move forced on the seat to act made for it (``forced="auto"`` where a game has the
    option): every row is a real decision.

    Arrays returned by ``reset`` and ``step`` (and ``states``, ``obs``, ``mask``, ``player``,
    ``rewards``, ``terminated``, ``truncated``) are read-only views of buffers that the next call
    overwrites — copy what you keep. Observations are written for the seat to act in each row.
    ``threads`` caps the threads its compiled calls use (``None``: numba's setting; the same
    results for any count, see ``sniff_twelve.batch.threads``).
    """

    game_cls: ClassVar[type[BaseGame]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game_cls" in vars(cls):
            spec = cls.game_cls.spec
            defaults = {"num_players": spec.default_players, "reward": spec.default_reward, "forced": "auto"}
            derive_init_signature(cls, spec.options + spec.env_options, defaults)

    @classmethod
    def random_playouts(cls, states: np.ndarray, params: np.ndarray, steps_per_game: int) -> int:
        """Play ``steps_per_game`` uniformly random legal actions in every row of ``states``,
        starting new games as they end; returns the number of games finished (compiled; each row
        draws from its own stream, so reproducible per seed: the pure engine throughput)."""
        with thread_count(None):
            return batch_random_playouts(cls.game_cls.spec, states, params, steps_per_game)

    def __init__(
        self,
        num_envs: int,
        num_players: int,
        seed: int | None = None,
        reward: str | None = None,
        threads: int | None = None,
        **options: Any,
    ) -> None:
        spec = self.game_cls.spec
        params, modes = spec.setup(num_players, reward, **options)
        n = check_int("num_envs", num_envs, 1)
        self.num_envs = n
        #: the threads each compiled call uses (``None``: numba's setting; ``sniff_twelve.batch.threads``)
        self.threads = check_threads(threads)
        self.num_players = num_players
        self._params = params
        self.params = read_only(params)
        self._modes = modes
        #: the modes ``play_forced`` reads after each action (read-only)
        self.modes = read_only(modes)
        self._hooks = spec
        obs_size, _, num_actions = spec.widths(params)
        self._seed = check_seed(seed)
        self._states = np.zeros((n, spec.ROW_SIZE), dtype=np.int32)
        self._views = np.zeros((n, spec.ROW_SIZE), dtype=np.int32)
        self._scratch = np.zeros((n, spec.SNAPSHOT_SIZE), dtype=np.int32)
        self._obs = np.zeros((n, obs_size), dtype=np.float32)
        self._mask = np.zeros((n, num_actions), dtype=np.bool_)
        self._player = np.zeros(n, dtype=np.int32)
        self._rewards = np.zeros((n, num_players), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self.states, self.obs, self.mask, self.player, self.rewards, self.terminated, self.truncated = map(
            read_only,
            (self._states, self._obs, self._mask, self._player, self._rewards, self._terminated, self._truncated),
        )
        self._sample_streams = np.zeros((n, 2), dtype=np.int32)
        self._sampled = np.zeros(n, dtype=np.int64)
        features = len(spec.action_feature_names)
        self._action_features = np.zeros((n, num_actions, features), dtype=np.float32)
        self.reset()

    def game(self, index: int) -> BaseGame:
        """A ``Game`` copy of row ``index`` as it stands now (to inspect, render or search from)."""
        index = check_int("index", index, 0, self.num_envs - 1)
        return self.game_cls._from_row(self._states[index], self._params)

    def action_features(self) -> np.ndarray:
        """``Game.action_features`` of every row → ``[N, A, F]`` (a buffer the next call
        overwrites): the one-step look-ahead of every action, an input for learned policies."""
        with thread_count(self.threads):
            batch_action_features(self._hooks, self._states, self._params, self._views, self._action_features)
        return self._action_features

    def seat_observations(self) -> np.ndarray:
        """What every seat observes in every row now → ``[N, num_players, D]`` (a new array), for
        turn-based learners that bootstrap each seat's value at the end of a rollout, or for
        critics that look at the whole table."""
        out = np.empty((self.num_envs, self.num_players, self.obs.shape[1]), dtype=np.float32)
        with thread_count(self.threads):
            batch_seat_observations(self._hooks, self._states, self._params, self._views, out)
        return out

    @property
    def rule_agents(self) -> tuple[str, ...]:
        """The built-in agents ``agent_actions`` plays."""
        return RULE_AGENTS

    def agent_actions(self, agent: str, rows: np.ndarray | None = None) -> np.ndarray:
        """What the built-in rule-based ``agent`` (``"greedy"`` or ``"heuristic"``) would play in
        each of ``rows`` (default: every row) → int64 actions, one compiled parallel call. For
        opponents and teachers inside batched training; same choices as the agent on ``game(i)``."""
        agents = self.rule_agents
        if agent not in agents:
            raise ValueError(f"agent_actions plays {', '.join(agents)}; got {agent!r}")
        rows = np.arange(self.num_envs) if rows is None else np.asarray(rows)
        if not np.issubdtype(rows.dtype, np.integer) and rows.size:
            raise ArgumentTypeError(f"rows must be integer row indices; got dtype {rows.dtype}")
        if rows.ndim != 1 or (rows.size and (rows.min() < 0 or rows.max() >= self.num_envs)):
            raise ValueError(f"rows must be a 1-D array of row indices below {self.num_envs}")
        rows = rows.astype(np.int64)
        out = np.empty(rows.shape[0], dtype=np.int64)
        with thread_count(self.threads):
            batch_agent_actions(self._hooks, self._states, self._params, rows, agents.index(agent), self._views, out)
        return out

    @property
    def bytes_per_game(self) -> int:
        """Bytes of compiled game state per game (the state row)."""
        return self.states.shape[1] * self.states.itemsize

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Deal every game afresh → ``(obs [N, D], mask [N, A], player [N])``.

        Game ``i`` under seed ``s`` starts exactly like ``Game(seed=s)`` would for ``i == 0``, and
        is reproducible for every ``i``. ``seed=None`` reuses the constructor's seed (fresh
        entropy if that was ``None`` too).
        """
        if seed is not None:
            self._seed = check_seed(seed)
        key = seed_key(self._seed)
        streams = np.empty((self.num_envs, 2), dtype=np.int32)
        stream_states(key, 0, streams)
        stream_states(key, self.num_envs, self._sample_streams)
        self._play(True, streams, _NO_ACTIONS)
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        return self.obs, self.mask, self.player

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action for every row (compiled; reproducible per seed).

        The returned buffer is overwritten by the next call.
        """
        with thread_count(self.threads):
            sample_legal(self._mask, self._sample_streams, self._sampled)
        return self._sampled

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        """Apply one action per game → ``(obs, mask, player, rewards [N, P], terminated, truncated)``.

        Raises ``ValueError`` (and changes nothing) if any action is illegal in its row. A game
        that ends is reset in the same call: its row then holds the new game's first observation,
        while ``rewards`` / ``terminated`` / ``truncated`` describe the step that ended it.
        """
        actions = checked_actions(actions, self.num_envs)
        bad = first_illegal(self._mask, actions)
        if bad >= 0:
            legal = np.flatnonzero(self._mask[bad]).tolist()
            raise ValueError(
                f"action {int(actions[bad])} is illegal in game {bad} (seat {int(self._player[bad])} "
                f"to act); legal there: {legal}"
            )
        self._play(False, _NO_STREAMS, actions)
        return self.obs, self.mask, self.player, self.rewards, self.terminated, self.truncated

    def _play(self, reset: bool, streams: np.ndarray, actions: np.ndarray) -> None:
        with thread_count(self.threads):
            batch_play(
                self._hooks,
                self._states,
                self._params,
                self._modes,
                reset,
                streams,
                actions,
                self._scratch,
                self._obs,
                self._mask,
                self._player,
                self._rewards,
                self._terminated,
                self._truncated,
            )
