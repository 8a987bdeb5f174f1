"""``sniff_env.VectorGame``: thousands of Sniff matches stepped by one compiled call.

>>> import numpy as np
>>> vg = VectorGame(1024, num_players=4, seed=0)
>>> obs, mask, player = vg.reset()
>>> obs.shape, mask.shape
((1024, 135), (1024, 114))
>>> first_legal = mask.argmax(axis=1)
>>> obs, mask, player, rewards, terminated, truncated = vg.step(first_legal)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sniff_env.env import learner_setup, setup
from sniff_env.game import Game
from sniff_twelve.batch.vector import KernelVectorGame
from sniff_twelve.core.options import OPTION

if TYPE_CHECKING:
    from sniff_twelve.envs.vector_env import KernelVectorEnv


class VectorGame(KernelVectorGame):
    """``num_envs`` independent Sniff matches in one ``int32`` array, stepped by compiled kernels.

    Options as ``sniff_env.env`` (``num_players``, ``target``, ``max_hands``, ``max_steps``,
    ``episode``, ``reward``, ``settlement``, ``undrawn``), except that ``forced="auto"`` is the
    default: every row is a real decision; ``threads`` caps the threads of each compiled call
    (``None``: numba's setting; same results for any count). Observations follow the table in
    ``sniff_env.observation`` and equal, element for element, what ``Game`` and the AEC env give
    for the same state.
    """

    game_cls, setup = Game, staticmethod(setup)

    def __init__(
        self,
        num_envs: int,
        num_players: int = 4,
        seed: int | None = None,
        target=OPTION,
        episode: str = "match",
        reward: str | None = None,
        forced: str = "auto",
        threads: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__(
            num_envs, num_players, seed, reward, threads, episode=episode, forced=forced, target=target, **options
        )


#: ``KernelVectorGame.random_playouts`` of Sniff (DRAW and PASS are among the random actions)
random_playouts = VectorGame.random_playouts


def vector_env(
    num_envs: int,
    num_players: int = 2,
    opponents: str | list[str] = "greedy",
    partner: str = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str | None = None,
    **options: Any,
) -> KernelVectorEnv:
    """``num_envs`` Sniff matches with one learning ``seat`` each, as a ``gymnasium.vector.VectorEnv``
    (``sniff_twelve.envs.vector_env.KernelVectorEnv``; autoreset ``SAME_STEP``, final observation in
    ``infos["final_obs"]``). The other seats — ``opponents`` (one spec for all or one per opponent
    seat) and, with 4 players, the ``partner`` opposite — are played compiled: ``greedy``,
    ``heuristic``, ``random``, ``ppo`` (the shipped checkpoint), ``ppo:PATH`` or an ``MlpPolicy`` (a
    frozen snapshot of the learner; ``set_opponents`` swaps them between steps). Forced draws and
    passes are made for the learner. ``reward`` and the other options (``target``, ``max_hands``,
    ``max_steps``, ``episode``, ``settlement``, ``undrawn``) as ``single_agent_env``, ``threads`` as
    ``VectorGame``'s;
    ``action_features=True`` appends the learner's flattened ``Game.action_features()`` to the
    observation.

    >>> venv = vector_env(64, num_players=2, opponents="greedy", seed=0)
    >>> obs, infos = venv.reset()
    >>> obs.shape, venv.action_masks().shape
    ((64, 135), (64, 114))
    """
    from sniff_env.agents import make_agent
    from sniff_twelve.envs.vector_env import learner_vector_env

    return learner_vector_env(
        Game,
        learner_setup,
        make_agent,
        num_envs,
        num_players,
        opponents,
        partner,
        seat,
        seed,
        action_features,
        reward,
        **options,
    )
