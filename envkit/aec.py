"""PettingZoo AEC plumbing shared by both games.

``KernelAECEnv`` follows PettingZoo's classic conventions: agents ``player_0 …``, dict
observations ``{"observation": float32 vector, "action_mask": int8 vector}`` (the mask is all zeros
for agents not to act), ``np_random`` seeding, ``EzPickle``, ``state()`` / ``state_space`` for
centralised critics, ``render_mode`` ``"ansi"`` / ``"human"``. A game subclass supplies the
``Game`` it wraps, its observation and reward kernels, and its text renderer.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from envkit.game import KernelGame
from envkit.options import check_choice


def wrap(env: AECEnv) -> AECEnv:
    """PettingZoo's standard wrapper stack for classic games."""
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


class KernelAECEnv(AECEnv, EzPickle):
    """An AEC env over a ``KernelGame``; subclasses implement the ``_`` hooks below."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        num_players: int,
        render_mode: str | None,
        obs_size: int,
        state_size: int,
        num_actions: int,
        **ezpickle_kwargs: Any,
    ) -> None:
        EzPickle.__init__(self, num_players=num_players, render_mode=render_mode, **ezpickle_kwargs)
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.num_players = num_players
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents = self.possible_agents[:]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        observation = spaces.Box(-np.inf, np.inf, shape=(obs_size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(num_actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(-np.inf, np.inf, shape=(state_size,), dtype=np.float32)
        self._obs_size = obs_size
        self._state_size = state_size
        self._num_actions = num_actions
        self._reward_buffer = np.zeros(num_players, dtype=np.float64)
        self.np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self.game: KernelGame | None = None

    # --- hooks ----------------------------------------------------------------------------------
    def _new_game(self, seed: int, deal: Any) -> KernelGame:
        raise NotImplementedError

    def _write_observation(self, seat: int, out: np.ndarray) -> None:
        raise NotImplementedError

    def _write_state(self, out: np.ndarray) -> None:
        raise NotImplementedError

    def _snapshot(self) -> np.ndarray:
        """What the reward kernel compares against after a step (e.g. the scores)."""
        raise NotImplementedError

    def _write_rewards(self, before: np.ndarray, out: np.ndarray) -> None:
        raise NotImplementedError

    def _episode_over(self) -> tuple[bool, bool]:
        """``(terminated, truncated)`` of the episode now."""
        raise NotImplementedError

    def _info(self, actor: int, action: int, before: np.ndarray) -> dict[str, Any]:
        """``infos`` of the agent that just acted."""
        return {}

    def _play_forced(self) -> None:
        """Apply moves the env makes on the agents' behalf (Sniff's ``forced="auto"``)."""

    def _render_text(self) -> str:
        raise NotImplementedError

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
        options = dict(options or {})
        deal = options.pop("deal", None)
        if options:  # PettingZoo's api_test passes unknown keys, so they are only warned about
            gymnasium.logger.warn(f"ignoring unknown reset options {sorted(options)}; the only one is 'deal'")
        if seed is not None or self.np_random is None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        self.game = self._new_game(game_seed, deal)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        before = self._snapshot()
        self._play_forced()
        self._finish_step(before)

    def step(self, action: int) -> None:
        """Apply ``action`` for ``agent_selection``; an illegal one raises ``ValueError`` and
        changes nothing (the wrapped ``env()`` turns it into PettingZoo's illegal-move penalty)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        actor = self.game.current_player
        before = self._snapshot()
        self.game.apply(action)
        self._cumulative_rewards[agent] = 0.0
        self.infos = {a: {} for a in self.agents}
        self.infos[agent] = self._info(actor, int(action), before)
        self._play_forced()
        self._finish_step(before)
        if self.render_mode == "human":
            self.render()

    def _finish_step(self, before: np.ndarray) -> None:
        self._write_rewards(before, self._reward_buffer)
        self.rewards = dict(zip(self.agents, self._reward_buffer.tolist(), strict=False))
        terminated, truncated = self._episode_over()
        if terminated or truncated:
            self.terminations = {a: terminated for a in self.agents}
            self.truncations = {a: truncated for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.agent_name_mapping[agent]
        observation = np.empty(self._obs_size, dtype=np.float32)
        self._write_observation(seat, observation)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if seat == self.game.current_player and not self.game.is_terminal():
            mask[:] = self.game.legal_mask()
        return {"observation": observation, "action_mask": mask}

    def state(self) -> np.ndarray:
        out = np.empty(self._state_size, dtype=np.float32)
        self._write_state(out)
        return out

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
