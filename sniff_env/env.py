"""PettingZoo AEC environment for American Sniff.

| Import             | ``import sniff_env; env = sniff_env.env(num_players=4)``               |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(114): ``tile * 4 + arm`` places (0–111), 112 DRAW, 113 PASS    |
| Agents             | ``player_0 … player_{n-1}``; with 4, ``player_0``+``player_2`` vs 1+3   |
| Observation        | dict: ``observation`` float32[135], ``action_mask`` int8[114]           |
| State              | float32[247] (``state()``): the observation of the seat to act + hidden tiles |

The game is docs/rules.md Part S. The observation layout is the table in ``sniff_env.observation``.

Options (``sniff_env.env(**options)`` / ``raw_env(**options)``):

- ``num_players``: 2, 3 or 4 (default 4; 4 plays fixed partnerships, S1).
- ``target``: points that win the match (default 250 / 200 / 200 for 2 / 3 / 4 players, S3).
- ``max_hands`` (default 200) / ``max_steps`` (default ``None``): truncate a match that has not
  ended after that many hands / actions (S26); ``None`` disables the limit.
- ``episode``: ``"match"`` (default: play to the target) or ``"hand"`` (each episode is the first
  hand of a fresh match, ending when that hand is settled).
- ``reward``: ``"win"`` — +1 to the side that reaches the target, −1 shared by the others (two
  sides: −1; three players: −0.5 each), 0 on truncation; the default for ``episode="match"``,
  because winning the match, not scoring, is the goal and zero-sum ±1 is PettingZoo's
  convention for classic games. ``"points"`` — each seat receives its side's score changes as
  they happen (placement credits, S17, and settlement deductions, S24; partners share); the
  default (and the only choice) for ``episode="hand"``.
- ``forced``: ``"explicit"`` (default: DRAW and PASS are actions the agent takes when they are its
  only legal move) or ``"auto"`` (the env draws and passes for the agent, so every turn it sees
  is a placement).
- ``settlement``: ``"deduct"`` (default, S23–S24) or ``"allfives"`` (S4a variant: the player who
  went out — or, when blocked, the lowest hand — scores the opponents' rounded pips instead).
- ``undrawn``: 0 (default), 1 or 2 — the S4a variant that leaves the last boneyard tiles undrawn.
- ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the table as text), ``"human"``
  (prints it after every step) or ``"rgb_array"`` (``render()`` returns an RGB image of the table).

``reset(seed=…, options={"deal": {...}})`` fixes the first hand exactly like ``Game(deal=…)``.
After every step, ``infos[agent]`` of the agent that acted holds ``"credit"`` (an ``np.int64``:
the S17 credit of its placement, 0 for DRAW and PASS) and ``"scored"`` (an ``int64`` array
``[4, 3]``: one row ``(low pip, high pip, contribution)`` per scored end right after the placement,
S10/S14, unused rows ``-1``); every other agent's infos, and everyone's at ``reset``, hold the same
keys with credit 0 and no scored ends (TorchRL reads the keys at reset). Only numpy scalars and
fixed-shape arrays, so batching frameworks (Tianshou's ``Batch``, TorchRL) can stack them;
``Game.describe()`` and ``Game.events`` keep the full detail.
An illegal action raises ``ValueError`` in ``raw_env``; ``env()`` adds PettingZoo's standard
wrappers, which end the game with −1 for the offender instead (``sniff_twelve.envs.aec``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_env import kernels as K
from sniff_env.game import Game, make_params
from sniff_env.render import render_text
from sniff_env.rewards import REWARD_MODES
from sniff_env.spec import SPEC
from sniff_env.tiles import DRAW
from sniff_twelve.core.options import OPTION, check_choice
from sniff_twelve.envs.aec import KernelAECEnv
from sniff_twelve.envs.single_agent import SingleAgentEnv, learner_env, register

if TYPE_CHECKING:
    from sniff_twelve.batch.vector import Setup


def setup(
    num_players: int, reward: str | None = None, episode: str = "match", forced: str = "explicit", **options: Any
) -> Setup:
    """The options row and the modes ``[reward, forced == "auto"]`` of every Sniff environment:
    ``episode``, ``reward`` and ``forced`` as the module docstring says, the rules' options as ``Game``'s."""
    params = make_params(num_players, episode == "hand", **options)
    check_choice("episode", episode, ("match", "hand"))
    check_choice("forced", forced, ("explicit", "auto"))
    if reward is None:
        reward = "win" if episode == "match" else "points"
    check_choice("reward", reward, tuple(REWARD_MODES))
    if episode == "hand" and reward == "win":
        raise ValueError('reward="win" needs episode="match": a single hand has no match winner')
    return params, np.array([REWARD_MODES[reward], forced == "auto"], dtype=np.int32)


def learner_setup(num_players: int, reward: str | None = None, **options: Any) -> Setup:
    """``setup`` of ``single_agent_env`` and ``vector_env``: the learner's forced moves are made for it."""
    return setup(num_players, reward, forced="auto", **options)


class raw_env(KernelAECEnv):
    """American Sniff as a PettingZoo AEC env (see the module docstring for options)."""

    game_cls, setup, render_text = Game, staticmethod(setup), staticmethod(render_text)

    def __init__(
        self,
        num_players: int = 4,
        render_mode: str | None = None,
        target=OPTION,
        episode: str = "match",
        reward: str | None = None,
        forced: str = "explicit",
        **options: Any,
    ) -> None:
        super().__init__(num_players, render_mode, reward, episode=episode, forced=forced, target=target, **options)

    def _info(self, actor: int, action: int, before: np.ndarray) -> dict[str, Any]:
        info = self._quiet_info()
        if action < DRAW:
            for row, ((low, high), contribution) in enumerate(self.game.last_scored()):
                info["scored"][row] = low, high, contribution
            info["credit"] = np.int64(self.game.last_credit)
        return info

    def _quiet_info(self) -> dict[str, Any]:
        return {"credit": np.int64(0), "scored": np.full((4, 3), -1, dtype=np.int64)}

    def _play_forced(self) -> None:
        """``forced="auto"``: draw and pass for the seat to act while that is all it can do."""
        if not self._modes[1]:
            return
        game = self.game
        while not game.is_terminal() and (action := forced_move(game)) is not None:
            game.apply(action)


env = raw_env.wrapped


def forced_move(game: Game) -> int | None:
    """DRAW or PASS when that is all the seat to act can do (S19, S21), else ``None``."""
    action = K.forced_move(game._state, game._params)
    return None if action < 0 else int(action)


def single_agent_env(
    num_players: int = 2,
    opponents: str | Sequence[str] = "greedy",
    partner: str = "greedy",
    seat: int | None = 0,
    reward: str | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> SingleAgentEnv:
    """A ``gymnasium.Env`` where the learner holds ``seat`` (``None``: a random seat each episode)
    and built-in agents play the rest: ``opponents`` (one spec for all, or one per opponent seat
    in seat order) and, with 4 players, the ``partner`` opposite. Forced draws and passes are made
    for the learner. ``reward`` and the other options as ``raw_env`` (``forced`` does not apply).

    >>> env = single_agent_env(num_players=2, opponents="greedy")
    >>> obs, info = env.reset(seed=0)
    >>> obs.shape, env.action_masks().dtype
    ((135,), dtype('bool'))
    """
    from sniff_env.agents import make_agent

    return learner_env(
        Game,
        learner_setup,
        make_agent,
        num_players,
        opponents,
        partner,
        seat,
        reward,
        render_mode,
        forced_move,
        **options,
    )


register(SPEC)  # gymnasium.make("sniff_env/Sniff-v0", ...)
