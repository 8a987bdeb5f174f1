"""``twelve_env.VectorGame``: thousands of "12" games stepped by one compiled call.

>>> vg = VectorGame(256, num_players=3, deck="numbers", seed=0)
>>> obs, mask, player = vg.reset()
>>> obs.shape, mask.shape
((256, 61), (256, 11))
"""

from __future__ import annotations

import numpy as np

from sniff_twelve.batch import vector
from sniff_twelve.batch.vector import KernelVectorGame
from sniff_twelve.core.options import check_choice, check_int
from twelve_env.game import Game, make_params
from twelve_env.rewards import REWARD_MODES
from twelve_env.spec import SPEC


class VectorGame(KernelVectorGame):
    """``num_envs`` independent games of "12" in one ``int32`` array, stepped by compiled kernels.

    Options as ``twelve_env.env`` (``num_players``, ``deck``, ``capture_extra_turn``, ``reward``).
    Observations follow the table in ``twelve_env.observation``; masks are ``[N, 13]`` (bridge) or
    ``[N, 11]`` (numbers).
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        deck: str = "bridge",
        seed: int | None = None,
        capture_extra_turn: bool = False,
        reward: str = "score",
    ) -> None:
        params = make_params(num_players, deck=deck, capture_extra_turn=capture_extra_turn)
        modes = np.array([REWARD_MODES[check_choice("reward", reward, tuple(REWARD_MODES))]], dtype=np.int32)
        super().__init__(num_envs, seed, params, modes, Game, num_players)


def random_playouts(states, params, steps_per_game):
    """Play ``steps_per_game`` uniformly random legal cards in every row, dealing new games as they
    end; returns the number of games finished (``sniff_twelve.batch.vector.random_playouts``: pure engine
    throughput, no observations)."""
    return vector.random_playouts(SPEC, states, params, steps_per_game)


def vector_env(
    num_envs: int,
    num_players: int = 2,
    opponents: str | list[str] = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str = "score",
    **options,
):
    """``num_envs`` games of "12" with one learning ``seat`` each, as a ``gymnasium.vector.VectorEnv``
    (``sniff_twelve.envs.vector_env.KernelVectorEnv``; autoreset ``SAME_STEP``, final observation in
    ``infos["final_obs"]``). The other seats (``opponents``: one spec for all or one per opponent
    seat) are played compiled: ``greedy``, ``heuristic``, ``random``, ``ppo:PATH`` or an ``MlpPolicy``
    (a frozen snapshot of the learner; ``set_opponents`` swaps them between steps). ``reward`` and
    the other options (``deck``, ``capture_extra_turn``) as ``single_agent_env``;
    ``action_features=True`` appends the learner's flattened ``Game.action_features()``.

    >>> venv = vector_env(64, num_players=3, opponents="heuristic", seed=0)
    >>> obs, infos = venv.reset()
    >>> obs.shape, venv.action_masks().shape
    ((64, 69), (64, 13))
    """
    from sniff_twelve.envs.vector_env import KernelVectorEnv
    from twelve_env.agents import make_agent

    num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
    params = make_params(num_players, **options)
    reward_mode = REWARD_MODES[check_choice("reward", reward, tuple(REWARD_MODES))]
    seat = check_int("seat", seat, 0, num_players - 1)
    return KernelVectorEnv(
        num_envs,
        game_cls=Game,
        params=params,
        reward_mode=reward_mode,
        num_players=num_players,
        seat=seat,
        make_agent=make_agent,
        opponents=opponents,
        partner=None,
        action_features=action_features,
        seed=seed,
    )
