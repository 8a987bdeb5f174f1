"""``twelve_env.VectorGame``: thousands of "12" games stepped by one compiled call.

>>> vg = VectorGame(256, num_players=3, deck="numbers", seed=0)
>>> obs, mask, player = vg.reset()
>>> obs.shape, mask.shape
((256, 61), (256, 11))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sniff_twelve.batch.vector import KernelVectorGame
from sniff_twelve.core.options import OPTION
from twelve_env.env import setup
from twelve_env.game import Game

if TYPE_CHECKING:
    from sniff_twelve.envs.vector_env import KernelVectorEnv


class VectorGame(KernelVectorGame):
    """``num_envs`` independent games of "12" in one ``int32`` array, stepped by compiled kernels.

    Options as ``twelve_env.env`` (``num_players``, ``deck``, ``capture_extra_turn``, ``reward``);
    ``threads`` caps the threads of each compiled call (``None``: numba's setting; same results).
    Observations follow the table in ``twelve_env.observation``; masks are ``[N, 13]`` (bridge) or
    ``[N, 11]`` (numbers).
    """

    game_cls, setup = Game, staticmethod(setup)

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        deck=OPTION,
        seed: int | None = None,
        reward: str = "score",
        threads: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__(num_envs, num_players, seed, reward, threads, deck=deck, **options)


#: ``KernelVectorGame.random_playouts`` of "12"
random_playouts = VectorGame.random_playouts


def vector_env(
    num_envs: int,
    num_players: int = 2,
    opponents: str | list[str] = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str = "score",
    **options: Any,
) -> KernelVectorEnv:
    """``num_envs`` games of "12" with one learning ``seat`` each, as a ``gymnasium.vector.VectorEnv``
    (``sniff_twelve.envs.vector_env.KernelVectorEnv``; autoreset ``SAME_STEP``, final observation in
    ``infos["final_obs"]``). The other seats (``opponents``: one spec for all or one per opponent
    seat) are played compiled: ``greedy``, ``heuristic``, ``random``, ``ppo:PATH`` or an ``MlpPolicy``
    (a frozen snapshot of the learner; ``set_opponents`` swaps them between steps). ``reward`` and
    the other options (``deck``, ``capture_extra_turn``) as ``single_agent_env``, ``threads`` as
    ``VectorGame``'s;
    ``action_features=True`` appends the learner's flattened ``Game.action_features()``.

    >>> venv = vector_env(64, num_players=3, opponents="heuristic", seed=0)
    >>> obs, infos = venv.reset()
    >>> obs.shape, venv.action_masks().shape
    ((64, 69), (64, 13))
    """
    from sniff_twelve.envs.vector_env import learner_vector_env
    from twelve_env.agents import make_agent

    return learner_vector_env(
        Game, setup, make_agent, num_envs, num_players, opponents, None, seat, seed, action_features, reward, **options
    )
