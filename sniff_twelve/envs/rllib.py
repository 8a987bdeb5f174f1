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
the game ends every agent gets its final observation. ``agents`` stays the whole table until the
next ``reset`` (as in RLlib's own turn-based examples: its env check expects the final step's
rewards to name agents in ``agents``).

**Illegal actions** follow PettingZoo's illegal-move convention (``TerminateIllegalWrapper``), so
RLlib's default env check, which steps random *unmasked* actions, passes without
``disable_env_checking=True``: an action id the mask forbids ends the episode at once — the actor
gets −1 (``ILLEGAL_REWARD``) and ``infos[actor]["illegal_action"] = True``, every other agent 0,
everyone is terminated (``"__all__"`` too) and receives its observation; the game itself is
unchanged. A value that is not an action id at all (a float, a string, an integer outside the
action space) still raises (``sniff_twelve.core.options``), as does a step after the episode ended.

**Registered names**: importing this module registers ``"sniff"`` and ``"twelve"`` with
``ray.tune.registry.register_env``, so a config can name the game and pass its options::

    import sniff_twelve.envs.rllib  # noqa: F401  (registers "sniff" and "twelve")
    config = PPOConfig().environment("sniff", env_config={"num_players": 2, "forced": "auto"})

``env_config`` holds the options of that game's AEC env (a ``"game"`` key, if given, must agree
with the name). They are registered again at every ``ray.init()``, so a new ``ray.init()`` after
``ray.shutdown()`` still knows them; between the two (a local ``EnvRunner`` without Ray),
``register_envs()`` registers them by hand. The env is multi-agent, so the config also needs
``.multi_agent(policies=..., policy_mapping_fn=...)``.

>>> env = RllibEnv({"game": "sniff", "num_players": 2})
>>> obs, infos = env.reset(seed=0)
>>> [agent] = obs
>>> sorted(obs[agent]), obs[agent]["action_mask"].dtype
(['action_mask', 'observations'], dtype('float32'))
>>> illegal = int(np.flatnonzero(obs[agent]["action_mask"] == 0)[0])
>>> obs, rewards, terminated, truncated, infos = env.step({agent: illegal})
>>> rewards[agent], terminated["__all__"], infos[agent]
(-1.0, True, {'illegal_action': True})
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import ray
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.tune.registry import register_env

from sniff_twelve.core.games import GAMES, game_package
from sniff_twelve.core.options import check_int

#: what the actor of an illegal action receives (PettingZoo's ``TerminateIllegalWrapper`` value)
ILLEGAL_REWARD = -1.0


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
        self._over = True  # no episode until reset()

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        observed = self.env.observe(agent)
        mask = observed["action_mask"].astype(np.float32)
        if not mask.any():  # a final observation: RLlib still runs the module on it, log(0) everywhere would give NaNs
            mask[:] = 1.0
        return {"observations": observed["observation"], "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self._over = False
        agent = self.env.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if self._over:
            raise ValueError("the episode is over: call reset()")
        actor = self.env.agent_selection
        if actor not in action_dict:
            raise ValueError(f"{actor} is to act; got actions for {sorted(action_dict)}")
        action = check_int("action", action_dict[actor], 0, self.action_spaces[actor].n - 1)
        if not self.env.game.legal_mask()[action]:
            return self._illegal(actor)
        self.env.step(action)
        rewards = {agent: float(self.env.rewards[agent]) for agent in self.possible_agents}
        terminated = all(self.env.terminations.values())
        truncated = all(self.env.truncations.values())
        if terminated or truncated:
            obs = {agent: self._observe(agent) for agent in self.possible_agents}
            infos = {agent: dict(self.env.infos[agent]) for agent in self.possible_agents}
            self._over = True
        else:
            agent = self.env.agent_selection
            obs, infos = {agent: self._observe(agent)}, {agent: dict(self.env.infos[agent])}
        done = {agent: terminated for agent in self.possible_agents}
        cut = {agent: truncated and not terminated for agent in self.possible_agents}
        done["__all__"], cut["__all__"] = terminated, truncated and not terminated
        return obs, rewards, done, cut, infos

    def _illegal(self, actor: str) -> tuple[dict, dict, dict, dict, dict]:
        """PettingZoo's illegal-move convention: −1 for the actor, 0 for the others, all terminated."""
        self._over = True
        agents = self.possible_agents
        obs = {agent: self._observe(agent) for agent in agents}
        rewards = {agent: ILLEGAL_REWARD if agent == actor else 0.0 for agent in agents}
        infos = {agent: {"illegal_action": True} if agent == actor else {} for agent in agents}
        done = {agent: True for agent in [*agents, "__all__"]}
        cut = {agent: False for agent in [*agents, "__all__"]}
        return obs, rewards, done, cut, infos

    def render(self) -> Any:
        return self.env.render()

    def close(self) -> None:
        self.env.close()


def env_creator(game: str) -> Callable[[dict[str, Any]], RllibEnv]:
    """``register_env``'s creator for ``game``: ``env_config`` holds that game's env options."""
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}; got {game!r}")

    def create(config: dict[str, Any] | None = None) -> RllibEnv:
        options = dict(config or {})
        if options.setdefault("game", game) != game:
            raise ValueError(f"the env registered as {game!r} cannot play game={options['game']!r}")
        return RllibEnv(options)

    return create


def register_envs() -> None:
    """Register every game under its name (``"sniff"``, ``"twelve"``) with ``ray.tune``."""
    for game in GAMES:
        register_env(game, env_creator(game))


register_envs()
# Ray's registry hands its entries to the running cluster at ``ray.init`` and forgets them at
# ``ray.shutdown``; register again at every ``ray.init`` (the hook ``ray.tune.registry`` itself uses),
# so the names survive a shutdown and a new init in the same process.
_init_hooks = getattr(getattr(ray._private, "worker", None), "_post_init_hooks", None)
if isinstance(_init_hooks, list) and register_envs not in _init_hooks:
    _init_hooks.append(register_envs)
