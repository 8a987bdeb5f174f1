"""One learning seat per row of a ``VectorGame``, as a standard ``gymnasium.vector.VectorEnv``.

``sniff_env.vector_env(...)`` / ``twelve_env.vector_env(...)`` build a ``LearnerVectorEnv``: ``N``
independent games in one ``int32`` array, where the learner holds ``seat`` in every row and every
other seat (a 4-player Sniff partner included) is played inside one compiled ``numba.prange`` call
per step (``learner_step``, the game's kernels from its ``sniff_twelve.core.spec.GameSpec``) — the learner's
action, then the other seats (and the learner's forced Sniff DRAW/PASS) until the learner is to act
again or the game ends. Finished games are dealt again in the same call
(``AutoresetMode.SAME_STEP``): the returned observation is the new game's first decision,
``infos["final_obs"][i]`` (with ``infos["_final_obs"]``) the learner's last observation of the
game that ended. ``infos`` hold what ``SyncVectorEnv`` stacks from ``single_agent_env`` rows:
``action_mask`` (``[N, A]``), ``seat`` and ``illegal_action`` (always ``False``: an illegal action
raises), each with its ``_key`` row mask, and in ``final_info`` the finished games' last infos;
``call`` / ``get_attr`` / ``set_attr`` answer per row as ``SyncVectorEnv``'s do. The compiled
agents choose from the acting seat's view (``sniff_twelve.core.view``):
``greedy`` and ``heuristic`` are the rule agents' own kernels, ``random`` draws from each row's own
stream, ``ppo`` / ``ppo:PATH`` / an ``MlpPolicy`` object (a frozen snapshot of the learner) run the
checkpoint's ReLU MLP (and action-feature gains) compiled, and a ``ViewPolicy`` (any agent tabulated
on a small table, ``sniff_twelve.tools.exploitability.view_policy``) draws from its table;
``set_opponents`` swaps them between steps.

Rewards are the learner's, from the game's reward kernel, summed over the other seats' moves in
between (what ``single_agent_env`` gives for the same games and agents); with ``margin=True``
its margin instead: its reward minus the mean reward of the seats outside its side, zero-sum (what
a best response to the other seats maximises, ``sniff_twelve.tools.exploit``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from sniff_twelve.agents.builtin import game_agents
from sniff_twelve.batch.learner import MAX_REDEALS, learner_buffers, learner_reset, learner_step, seat_codes
from sniff_twelve.batch.threads import check_threads, thread_count
from sniff_twelve.batch.vector import checked_actions, first_illegal
from sniff_twelve.core.options import check_flag, check_int, check_seed
from sniff_twelve.core.rng import seed_key, stream_states
from sniff_twelve.envs.single_agent import table_partner

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame

#: what ``set_attr`` may not change: the table and the spaces the buffers were built for
FIXED_ATTRIBUTES = frozenset(
    {"num_envs", "num_players", "seat", "margin", "metadata", "spec", "observation_space", "action_space"}
    | {"single_observation_space", "single_action_space"}
)


def _same(a: Any, b: Any) -> bool:
    """Whether two ``set_attr`` values are equal (arrays compared whole)."""
    try:
        return bool(np.all(a == b))
    except (TypeError, ValueError):
        return False


class LearnerVectorEnv(VectorEnv):
    """``num_envs`` games with one learning seat each (see the module docstring).

    Built by the games' ``vector_env``. ``action_masks()`` gives the learner's legal actions
    ``[N, A]`` (sb3-contrib's convention); with ``action_features=True`` the observation ends with
    the flattened ``Game.action_features()`` of the learner (``[A * F]``).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        *,
        game_cls: type,
        params: np.ndarray,
        reward_mode: int,
        num_players: int,
        seat: int,
        make_agent: Callable[[str], Any],
        opponents: Any,
        partner: Any,
        action_features: bool = False,
        seed: int | None = None,
        threads: int | None = None,
        margin: bool = False,
    ) -> None:
        n = self.num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
        #: the threads each compiled call uses (``None``: numba's setting; ``sniff_twelve.batch.threads``)
        self.threads = check_threads(threads)
        self._game_cls = game_cls
        self._hooks = spec = game_cls.spec
        obs_size, _, num_actions = spec.widths(params)
        self._params = params
        self._mode = np.int64(reward_mode)
        self.num_players = num_players
        self.seat = seat
        #: whether the learner is paid its margin (``seat_credit``) rather than its own reward
        self.margin = check_flag("margin", margin)
        self._seat_agents = functools.partial(
            seat_codes,
            spec,
            num_players,
            seat,
            make_agent=make_agent,
            obs_size=obs_size,
            num_actions=num_actions,
            margin=self.margin,
        )
        self.set_opponents(opponents, partner)
        self._use_features = check_flag("action_features", action_features)
        features = len(spec.action_feature_names)
        width = obs_size + (num_actions * features if self._use_features else 0)
        low, high = np.full(width, -np.inf, np.float32), np.full(width, np.inf, np.float32)
        low[:obs_size], high[:obs_size] = spec.observation_bounds(params)  # the action features: unbounded
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = spaces.Box(np.tile(low, (n, 1)), np.tile(high, (n, 1)), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, num_actions))
        self._buf = learner_buffers(spec, params, n, num_players, self._use_features)
        self._seed = check_seed(seed)
        self._seed_rng: np.random.Generator | None = None

    def set_opponents(self, opponents: Any, partner: Any = None) -> None:
        """Seat other agents from the next step on (games in progress go on with them): specs as
        ``vector_env``'s — a compiled agent's name, ``ppo:PATH``, an ``MlpPolicy``, such as a
        frozen snapshot of the learner for self-play, or a ``ViewPolicy``; ``partner`` only where
        the learner has one (``sniff_twelve.core.agent.partner_seat``)."""
        self._seating = self._seat_agents(opponents, partner)

    # --- gymnasium API -----------------------------------------------------------------------------
    def reset(self, *, seed: int | list | None = None, options: dict[str, Any] | None = None):
        """Deal every row afresh and play up to the learner's first decision → ``(obs, infos)``.
        Row ``i`` under a seed is reproducible; ``seed=None`` continues from the last seed given."""
        if options:
            raise ValueError(f"vector_env reset takes no options; got {sorted(options)}")
        if isinstance(seed, list | tuple):  # gymnasium allows one seed per row; the first one seeds all
            seed = seed[0] if seed else None
        seed = check_seed(seed)
        if seed is None and self._seed is not None:
            seed, self._seed = self._seed, None
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            key_seed = seed
        elif self._seed_rng is not None:
            key_seed = int(self._seed_rng.integers(2**62))
        else:
            key_seed = None
        key = seed_key(key_seed)
        stream_states(key, 0, self._buf.streams)
        stream_states(key, self.num_envs, self._buf.agent_streams)
        with thread_count(self.threads):
            failures = learner_reset(*self._driver_args())
        if failures:
            raise ValueError(
                f"in {MAX_REDEALS} deals the game always ended before seat {self.seat} had a decision: "
                "are the options (a tiny target?) leaving the learner no turn?"
            )
        return self._buf.obs.copy(), self._infos()

    def step(self, actions):
        actions = checked_actions(actions, self.num_envs)
        bad = first_illegal(self._buf.mask, actions)
        if bad >= 0:
            legal = np.flatnonzero(self._buf.mask[bad]).tolist()
            raise ValueError(f"action {int(actions[bad])} is illegal in row {bad}; legal there: {legal}")
        with thread_count(self.threads):
            learner_step(*self._driver_args(), actions)
        buf = self._buf
        infos = self._infos()
        done = buf.terminated | buf.truncated
        if done.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final[i] = buf.final_obs[i].copy()
            final_info = {  # a finished game's last info, as single_agent_env gives it: no legal move
                "action_mask": np.zeros_like(buf.mask),
                "seat": np.where(done, self.seat, 0),
                "illegal_action": np.zeros(self.num_envs, dtype=bool),
            }
            final_info.update({f"_{key}": done.copy() for key in list(final_info)})
            infos.update(final_obs=final, _final_obs=done.copy(), final_info=final_info, _final_info=done.copy())
        return buf.obs.copy(), buf.rewards.copy(), buf.terminated.copy(), buf.truncated.copy(), infos

    def _infos(self) -> dict[str, Any]:
        """Every row's info as ``SyncVectorEnv`` stacks ``single_agent_env``'s: the learner's
        legal actions, its seat and ``illegal_action`` (always ``False`` here: an illegal action
        raises), each with its ``_key`` row mask."""
        n = self.num_envs
        infos = {
            "action_mask": self._buf.mask.copy(),
            "seat": np.full(n, self.seat, dtype=np.int64),
            "illegal_action": np.zeros(n, dtype=bool),
        }
        infos.update({f"_{key}": np.ones(n, dtype=bool) for key in list(infos)})
        return infos

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every row → ``[N, A]`` bool (a copy)."""
        return self._buf.mask.copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass

    # --- SyncVectorEnv's attribute access: a row stands for each sub-env -----------------------------
    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple:
        """One result per row, as ``SyncVectorEnv.call`` gives for ``single_agent_env`` rows:
        ``game`` and ``action_masks`` answer per row (row ``i``'s ``Game`` copy, its legal actions);
        any other attribute is shared by the rows — a method is called once with the arguments —
        and its value is repeated for every row."""
        if name == "game":
            return tuple(self.game(i) for i in range(self.num_envs))
        if name == "action_masks":
            return tuple(self.action_masks())
        if name.startswith("_") or not hasattr(self, name):
            raise AttributeError(f"vector_env has no public attribute {name!r}")
        value = getattr(self, name)
        if callable(value):
            value = value(*args, **kwargs)
        return (value,) * self.num_envs

    def get_attr(self, name: str) -> tuple:
        """``call(name)``, as in ``SyncVectorEnv``."""
        return self.call(name)

    def set_attr(self, name: str, values: Any) -> None:
        """Set an attribute the rows share: one value, or one per row (all the same). The table's
        own attributes (seat, sizes, spaces) and private ones are fixed; ``set_opponents`` seats
        other agents."""
        if isinstance(values, list | tuple):
            if len(values) != self.num_envs:
                raise ValueError(f"set_attr takes one value or {self.num_envs} (one per row); got {len(values)}")
            if any(value is not values[0] and not _same(value, values[0]) for value in values):
                raise ValueError(f"the rows of a vector_env share {name!r}: give one value, not one per row")
            values = values[0]
        if name.startswith("_") or name in FIXED_ATTRIBUTES:
            raise ValueError(f"{name!r} is fixed when a vector_env is built")
        setattr(self, name, values)

    # --- helpers ----------------------------------------------------------------------------------
    def _driver_args(self) -> tuple:
        return self._hooks, self._params, self._mode, self.seat, self._use_features, self._seating, self._buf

    def game(self, index: int):
        """A ``Game`` copy of row ``index`` as it stands now (the learner is to act)."""
        index = check_int("index", index, 0, self.num_envs - 1)
        return self._game_cls._from_row(self._buf.states[index], self._params)

    @property
    def unknown_views(self) -> int:
        """How many times since the opponents were seated a ``ViewPolicy`` met a view its table
        lacks (and played a random legal move instead): 0 when the table covers the game."""
        return int(self._seating.misses[0])

    @property
    def pending_rewards(self) -> np.ndarray:
        """The learner's reward from the other seats' moves before its first decision of each
        row's current game, paid with its next step (a copy)."""
        return self._buf.pending.copy()


def learner_vector_env(
    game_cls: type[BaseGame],
    num_envs: int,
    num_players: int,
    opponents: str | Sequence[Any] = "greedy",
    partner: Any = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str | None = None,
    threads: int | None = None,
    margin: bool = False,
    **options: Any,
) -> LearnerVectorEnv:
    """A game's ``vector_env`` (the module docstring): the options row and the reward mode from
    ``GameSpec.learner_setup``, the ``opponents`` and, at a table with partners
    (``table_partner``), the learner's ``partner`` from the game's agents (``game_agents``);
    ``threads`` caps the threads of each compiled call (``None``: numba's setting;
    ``sniff_twelve.batch.threads``); with ``margin`` the learner is paid its margin — its
    reward minus the mean reward of the seats outside its side — instead of its own reward."""
    spec = game_cls.spec
    num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
    params, modes = spec.learner_setup(num_players, reward, **options)
    seat = check_int("seat", seat, 0, num_players - 1)
    return LearnerVectorEnv(
        num_envs,
        game_cls=game_cls,
        params=params,
        reward_mode=int(modes[0]),
        num_players=num_players,
        seat=seat,
        make_agent=game_agents(spec).make_agent,
        opponents=opponents,
        partner=table_partner(spec, num_players, partner),
        action_features=action_features,
        seed=seed,
        threads=threads,
        margin=margin,
    )
