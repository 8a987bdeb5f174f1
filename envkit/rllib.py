"""RLlib (new API stack) view of either game: a ``MultiAgentEnv`` over our AEC env.

Needs the ``rllib`` extra (``pip install -e ".[rllib]"``). It exists because RLlib's generic
``PettingZooEnv`` wrapper trips over three things with turn-based, masked games:

- its action-masking module (``ActionMaskingTorchRLModule``) reads the observation under the key
  ``"observations"`` (plural) and takes ``log(mask)``, so the mask must be a float array, not
  PettingZoo's ``int8`` one;
- it orders agents by iterating a ``set`` (so ``player_0`` is not reliably first);
- its ``render()`` passes an argument PettingZoo's ``render()`` does not take.

Only the agent to act receives an observation each step; every agent receives its reward each step
(RLlib adds rewards that arrive between an agent's observations to its previous action), and when
the game ends every agent gets its final observation.

>>> env = RllibEnv({"game": "sniff", "num_players": 2})
>>> obs, infos = env.reset(seed=0)
>>> [agent] = obs
>>> sorted(obs[agent]), obs[agent]["action_mask"].dtype
(['action_mask', 'observations'], dtype('float32'))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from envkit import game_package


class RllibEnv(MultiAgentEnv):
    """``config``: ``{"game": "sniff" | "twelve", **options of that game's env}`` (the AEC env's
    options: ``num_players``, ``reward``, ``forced``, …). Agents are ``player_0 …`` in seat order."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        options = dict(config or {})
        self.env = game_package(options.pop("game", "sniff")).raw_env(**options)
        self.possible_agents = list(self.env.possible_agents)
        self.agents = list(self.possible_agents)
        first = self.possible_agents[0]
        n = self.env.action_space(first).n
        observation = self.env.observation_space(first)["observation"]
        space = spaces.Dict(
            {"observations": observation, "action_mask": spaces.Box(0.0, 1.0, shape=(n,), dtype=np.float32)}
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: self.env.action_space(agent) for agent in self.possible_agents}

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        observed = self.env.observe(agent)
        mask = observed["action_mask"].astype(np.float32)
        if not mask.any():  # a final observation: RLlib still runs the module on it, log(0) everywhere would give NaNs
            mask[:] = 1.0
        return {"observations": observed["observation"], "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        agent = self.env.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: dict[str, int]) -> tuple[dict, dict, dict, dict, dict]:
        actor = self.env.agent_selection
        if actor not in action_dict:
            raise ValueError(f"{actor} is to act; got actions for {sorted(action_dict)}")
        self.env.step(int(action_dict[actor]))
        rewards = {agent: float(self.env.rewards[agent]) for agent in self.possible_agents}
        terminated = all(self.env.terminations.values())
        truncated = all(self.env.truncations.values())
        if terminated or truncated:
            obs = {agent: self._observe(agent) for agent in self.possible_agents}
            infos = {agent: dict(self.env.infos[agent]) for agent in self.possible_agents}
            self.agents = []
        else:
            agent = self.env.agent_selection
            obs, infos = {agent: self._observe(agent)}, {agent: dict(self.env.infos[agent])}
        done = {agent: terminated for agent in self.possible_agents}
        cut = {agent: truncated and not terminated for agent in self.possible_agents}
        done["__all__"], cut["__all__"] = terminated, truncated and not terminated
        return obs, rewards, done, cut, infos

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()
