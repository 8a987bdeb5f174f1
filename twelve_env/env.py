"""PettingZoo AEC environment for the card game "12" (Jamaican Sniping).

| Import             | ``import twelve_env; env = twelve_env.env(num_players=4)``              |
|--------------------|-------------------------------------------------------------------------|
| Actions            | Discrete(13) bridge deck (A, 2 … 10, J, Q, K) / Discrete(11) number deck |
| Agents             | ``player_0 … player_{n-1}``, 2 to 7                                     |
| Observation        | dict: ``observation`` float32[69] (bridge) / [61] (numbers), ``action_mask`` int8 |
| State              | ``state()``: the observation of the seat to act + every hidden card (by rank) |

The game is docs/rules.md Part T. The observation layout is the table in ``twelve_env.observation``.

Options:

- ``num_players``: 2 to 7 (default 2, T4).
- ``deck``: ``"bridge"`` (default, 52 cards) or ``"numbers"`` (1–11 four times) (T1).
- ``capture_extra_turn``: the inventor's variant of T10 — the capturer plays again (default off).
- ``reward``: ``"score"`` (default, dense: +1 per card when captured, −1 per card left in hand
  when the game ends; an episode sums to the T15 score) or ``"win"`` (zero-sum by final score
  rank: +1 first … −1 last, evenly spaced; tied players share the mean of their places).
- ``render_mode``: ``None``, ``"ansi"``, ``"human"`` or ``"rgb_array"`` (an RGB image of the table).

One game is one episode (T15). ``reset(seed=…, options={"deal": {...}})`` fixes the position like
``Game(deal=…)``. After each play ``infos[agent]["captured"]`` is the number of cards it took (an
``np.int64``); every other agent's, and everyone's at ``reset``, is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.core.options import OPTION, check_choice
from sniff_twelve.envs.aec import KernelAECEnv
from sniff_twelve.envs.single_agent import SingleAgentEnv, learner_env, register
from twelve_env import kernels as K
from twelve_env.game import Game, make_params
from twelve_env.render import render_text
from twelve_env.rewards import REWARD_MODES
from twelve_env.spec import SPEC

if TYPE_CHECKING:
    from sniff_twelve.batch.vector import Setup


def setup(num_players: int, reward: str = "score", **options: Any) -> Setup:
    """The options row and the modes ``[reward]`` of every "12" environment: ``reward`` as the
    module docstring says, the rules' options as ``Game``'s."""
    params = make_params(num_players, **options)
    return params, np.array([REWARD_MODES[check_choice("reward", reward, tuple(REWARD_MODES))]], dtype=np.int32)


class raw_env(KernelAECEnv):
    """ "12" as a PettingZoo AEC env (see the module docstring for options)."""

    game_cls, setup, render_text = Game, staticmethod(setup), staticmethod(render_text)

    def __init__(
        self,
        num_players: int = 2,
        deck=OPTION,
        render_mode: str | None = None,
        reward: str = "score",
        **options: Any,
    ) -> None:
        super().__init__(num_players, render_mode, reward, deck=deck, **options)

    def _info(self, actor: int, action: int, before: np.ndarray) -> dict[str, Any]:
        return {"captured": np.int64(self.game._state[K.CAPTURED + actor] - before[actor])}

    def _quiet_info(self) -> dict[str, Any]:
        return {"captured": np.int64(0)}


env = raw_env.wrapped


def single_agent_env(
    num_players: int = 2,
    opponents: str | Sequence[str] = "greedy",
    seat: int | None = 0,
    reward: str = "score",
    render_mode: str | None = None,
    **options: Any,
) -> SingleAgentEnv:
    """A ``gymnasium.Env`` where the learner holds ``seat`` (``None``: a random seat each episode)
    and built-in agents (``opponents``: one spec for all, or one per opponent seat) play the rest.
    ``reward`` and the other options as ``raw_env``.

    >>> env = single_agent_env(num_players=3, opponents="greedy")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, env.action_masks().shape
    ((69,), (13,))
    """
    from twelve_env.agents import make_agent

    return learner_env(Game, setup, make_agent, num_players, opponents, None, seat, reward, render_mode, **options)


register(SPEC)  # gymnasium.make("twelve_env/Twelve-v0", ...)
