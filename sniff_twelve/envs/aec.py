"""PettingZoo AEC plumbing shared by both games.

``BaseAECEnv`` follows PettingZoo's classic conventions: agents ``player_0 …``, dict
observations ``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask is all zeros
for agents not to act), ``np_random`` seeding, ``EzPickle``, ``state()`` / ``state_space`` for
centralised critics, ``render_mode`` ``"ansi"`` / ``"human"`` / ``"rgb_array"`` (a game with a
drawing, the spec's ``web`` part, as ``Game.image`` rasterises it). A game's ``raw_env`` is ``BaseAECEnv`` with its
``game_cls`` (``sniff_twelve.envs.package``); ``env = raw_env.wrapped``.

Versions: a game's env is named ``<game>_v0`` (``metadata["name"]``, the module
``sniff_env.sniff_v0`` / ``twelve_env.twelve_v0`` that re-exports ``env``, ``raw_env`` and
``single_agent_env``, and the gymnasium id ``sniff_env/Sniff-v0``). The version moves when a
change would alter what an env returns for the same seed and actions; ``docs/changelog.md``
records each move.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from sniff_twelve.core.game import BaseGame, IllegalActionError
from sniff_twelve.core.options import check_choice, check_int, check_seed, derive_init_signature
from sniff_twelve.core.rewards import LIVE, TERMINATED, TRUNCATED
from sniff_twelve.core.row_calls import row_calls


def _forwarded(name: str, before_reset_error: bool = True) -> property:
    """A read-only attribute of the wrapped env, looked up directly (no ``__getattr__`` chain);
    before ``reset`` it raises the ``AttributeError`` of ``OrderEnforcingWrapper``."""
    get = attrgetter(name)

    def fget(self: ClassicWrapper) -> Any:
        if before_reset_error and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return get(self.env)

    return property(fget, doc=f"The wrapped env's ``{name}``.")


class ClassicWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's standard wrapper stack for classic games, fused into one layer.

    The same behaviour as ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(
    env, illegal_reward=-1)))``, without a ``__getattr__`` chain and a mask copy on every call:

    - **order**: ``step``, ``observe``, ``state``, ``render`` and ``agent_iter`` before ``reset``
      raise, and so do ``agent_selection``, ``rewards``, ``terminations``, ``truncations``,
      ``infos``, ``agents`` and ``num_agents`` (``OrderEnforcingWrapper``; it is a subclass, so
      ``agent_iter`` enforces a ``step`` per agent too);
    - **action ids**: a live agent's action must be an action id — ``ArgumentTypeError`` for
      ``None``, a float or a string, ``ValueError`` outside the action space (where PettingZoo
      raises a bare ``AssertionError``); a finished agent's must be ``None``;
    - **illegal moves**: an action the mask forbids ends the game, with −1 for the actor and 0 for
      the others, every agent terminated and truncated, and PettingZoo's warning
      (``TerminateIllegalWrapper``). The raw env's ``IllegalActionError`` signals it, so legal
      steps pay nothing for the check.
    """

    illegal_reward = -1.0

    agent_selection = _forwarded("agent_selection")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    agents = _forwarded("agents")
    num_agents = _forwarded("num_agents")
    _cumulative_rewards = _forwarded("_cumulative_rewards", before_reset_error=False)

    def __init__(self, env: BaseAECEnv) -> None:
        super().__init__(env)
        self._num_actions = env._num_actions

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env._was_dead_step(action)
            return
        check_int("action", action, 0, self._num_actions - 1)
        try:
            env.step(action)
        except IllegalActionError:
            self._end_by_illegal_move(agent)

    def _end_by_illegal_move(self, agent: str) -> None:
        """``TerminateIllegalWrapper``'s penalty, step for step."""
        EnvLogger.warn_on_illegal_move()
        env = self.env
        env._cumulative_rewards[agent] = 0
        env.terminations = dict.fromkeys(env.agents, True)
        env.truncations = dict.fromkeys(env.agents, True)
        env.rewards = dict.fromkeys(env.agents, 0)
        env.rewards[agent] = self.illegal_reward
        env._accumulate_rewards()
        env._deads_step_first()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        env = self.env
        agent = env.agent_selection
        observation = env.observe(agent) if observe else None
        return (
            observation,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def observation_space(self, agent: str) -> spaces.Space:
        return self.env.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.env.action_spaces[agent]

    def __str__(self) -> str:
        return str(self.env)


class BaseAECEnv(AECEnv, EzPickle):
    """The AEC env of a game's ``game_cls``: ``raw_env(num_players, render_mode, reward, **options)``,
    its options (the rules' and the environments', ``GameSpec.env_options``) listed in the
    signature from their declarations. The ``infos`` part of the game's spec (``GameSpec.part``),
    where it has one, fills ``infos``: ``step_info(game, actor, action, before)`` for the agent
    that acted (``before`` the pre-step snapshot) and ``quiet_info()`` for the others and at
    ``reset``, the same keys with neutral values (TorchRL reads the keys at reset)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_cls: ClassVar[type[BaseGame]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game_cls" in vars(cls):
            spec = cls.game_cls.spec
            modes = cls.metadata["render_modes"]
            modes = modes if spec.parts.get("web") else [mode for mode in modes if mode != "rgb_array"]
            cls.metadata = {**cls.metadata, "name": f"{spec.name}_v0", "render_modes": modes}
            defaults = {"num_players": spec.default_players, "reward": spec.default_reward}
            derive_init_signature(cls, spec.options + spec.env_options, defaults)

    @classmethod
    def wrapped(cls, **options: Any) -> ClassicWrapper:
        """``env()``: this env behind PettingZoo's classic-game wrappers (order enforcement,
        action-id checks, −1 for an illegal move), fused into one fast layer (``ClassicWrapper``)."""
        return ClassicWrapper(cls(**options))

    def __init__(
        self, num_players: int, render_mode: str | None = None, reward: str | None = None, **options: Any
    ) -> None:
        spec = self.game_cls.spec
        params, self._modes = spec.setup(num_players, reward, **options)
        EzPickle.__init__(self, num_players=num_players, render_mode=render_mode, reward=reward, **options)
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.num_players = num_players
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents = self.possible_agents[:]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_size, self._critic_size, self._num_actions = spec.widths(params)
        observation = spaces.Box(*spec.observation_bounds(params), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self._num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(-np.inf, np.inf, shape=(self._critic_size,), dtype=np.float32)
        self._spec = spec
        self._calls = row_calls(spec)
        self._params = params
        self._reward_mode = int(self._modes[0])
        self._forced = spec.forced_moves and bool(self._modes[1])
        self._infos = spec.part("infos")
        self._before = np.zeros(spec.SNAPSHOT_SIZE, dtype=np.int32)
        self._reward_buffer = np.zeros(num_players, dtype=np.float64)
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self.game: BaseGame | None = None
        self._quiet_infos: dict[str, dict[str, Any]] = {}

    # --- infos and forced moves ---------------------------------------------------------------
    def _info(self, actor: int, action: int, before: np.ndarray) -> dict[str, Any]:
        return {} if self._infos is None else self._infos.step_info(self.game, actor, action, before)

    def _quiet_info(self) -> dict[str, Any]:
        return {} if self._infos is None else self._infos.quiet_info()

    def _play_forced(self) -> None:
        """``forced="auto"``: make the moves forced on the seat to act (``Game.forced_action``)."""
        while self._forced and (action := self.game.forced_action()) is not None:
            self.game.apply(action)

    # --- PettingZoo API ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode. ``options={"deal": …}`` fixes the first position (see ``Game``).

        A given ``seed`` yields the same game as ``Game(seed=seed)``; without one the env's
        ``np_random`` stream continues.
        """
        seed = check_seed(seed)
        options = dict(options or {})
        deal = options.pop("deal", None)
        if options:  # PettingZoo's api_test passes unknown keys, so they are only warned about
            gymnasium.logger.warn(f"ignoring unknown reset options {sorted(options)}; the only one is 'deal'")
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        self.game = self.game_cls(seed=game_seed, deal=deal, _params=self._params)
        self._cur_slot = self.game.spec.CUR
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        # the agents that do not act share these, built once an episode (as PettingZoo's own envs
        # keep their info dicts): building them every step cost a third of the raw env's speed
        self._quiet_infos = {a: self._quiet_info() for a in self.agents}
        self.infos = dict(self._quiet_infos)
        self._calls.snapshot(self.game._state, self._before)
        self._play_forced()
        self._finish_step()

    def step(self, action: int) -> None:
        """Apply ``action`` for ``agent_selection``; an illegal one raises ``IllegalActionError`` (a
        ``ValueError``) and changes nothing (the wrapped ``env()`` turns it into PettingZoo's illegal-move penalty)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        self._calls.snapshot(game._state, self._before)
        game.apply(action)
        self._cumulative_rewards[agent] = 0.0
        if self._infos is not None:
            self.infos = dict(self._quiet_infos)
            self.infos[agent] = self._info(self.agent_name_mapping[agent], int(action), self._before)
        if self._forced:
            self._play_forced()
        self._finish_step()
        if self.render_mode == "human":
            self.render()

    def _finish_step(self) -> None:
        state = self.game._state
        status = self._calls.write_rewards(state, self._params, self._before, self._reward_mode, self._reward_buffer)
        rewards = self._reward_buffer.tolist()
        if any(rewards) or any(self.rewards.values()):  # a step with no reward after one with none changes nothing
            self.rewards = dict(zip(self.agents, rewards, strict=False))
            cumulative = self._cumulative_rewards
            for agent, reward in zip(self.agents, rewards, strict=False):  # PettingZoo's _accumulate_rewards
                cumulative[agent] += reward
        if status != LIVE:
            self.terminations = dict.fromkeys(self.agents, status == TERMINATED)
            self.truncations = dict.fromkeys(self.agents, status == TRUNCATED)
        self.agent_selection = self.possible_agents[state[self._cur_slot]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(self.possible_agents)}")
        state = self.game._state
        observation = np.empty(self._obs_size, dtype=np.float32)
        self._calls.write_observation(state, self._params, seat, observation)
        mask = np.zeros(self._num_actions, dtype=np.bool_)  # the kernels' own mask type: one compiled copy
        if seat == state[self._cur_slot]:
            self._calls.legal_mask_into(state, self._params, mask)  # all zero once the game is over
        return {"observation": observation, "action_mask": mask.view(np.int8)}

    def state(self) -> np.ndarray:
        out = np.empty(self._critic_size, dtype=np.float32)
        self._spec.write_state(self.game._state, self._params, out)
        return out

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass 'ansi', 'human' or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            return self.game.image()
        text = str(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
