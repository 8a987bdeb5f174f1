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

import numpy as np

from sniff_env.env import check_modes
from sniff_env.game import DEFAULT_MAX_HANDS, Game, make_params
from sniff_env.spec import SPEC
from sniff_twelve.batch import vector
from sniff_twelve.batch.vector import KernelVectorGame
from sniff_twelve.core.options import check_int


class VectorGame(KernelVectorGame):
    """``num_envs`` independent Sniff matches in one ``int32`` array, stepped by compiled kernels.

    Options as ``sniff_env.env`` (``num_players``, ``target``, ``max_hands``, ``max_steps``,
    ``episode``, ``reward``), except that ``forced="auto"`` is the default: every row is a real
    decision. Observations follow the table in ``sniff_env.observation`` and equal, element for
    element, what ``Game`` and the AEC env give for the same state.
    """

    def __init__(
        self,
        num_envs: int,
        num_players: int = 4,
        seed: int | None = None,
        target: int | None = None,
        max_hands: int | None = DEFAULT_MAX_HANDS,
        max_steps: int | None = None,
        episode: str = "match",
        reward: str | None = None,
        forced: str = "auto",
        settlement: str = "deduct",
        undrawn: int = 0,
    ) -> None:
        params = make_params(
            num_players,
            episode == "hand",
            target=target,
            max_hands=max_hands,
            max_steps=max_steps,
            settlement=settlement,
            undrawn=undrawn,
        )
        _, reward_code, forced = check_modes(episode, reward, forced)
        modes = np.array([reward_code, forced == "auto"], dtype=np.int32)
        super().__init__(num_envs, seed, params, modes, Game, num_players)


def random_playouts(states, params, steps_per_game):
    """Play ``steps_per_game`` uniformly random legal actions (DRAW and PASS included) in every
    row, starting new matches as they end; returns the number of matches finished
    (``sniff_twelve.batch.vector.random_playouts``: reproducible per seed, the pure engine throughput)."""
    return vector.random_playouts(SPEC, states, params, steps_per_game)


def vector_env(
    num_envs: int,
    num_players: int = 2,
    opponents: str | list[str] = "greedy",
    partner: str = "greedy",
    seat: int = 0,
    seed: int | None = None,
    action_features: bool = False,
    reward: str | None = None,
    **options,
):
    """``num_envs`` Sniff matches with one learning ``seat`` each, as a ``gymnasium.vector.VectorEnv``
    (``sniff_twelve.envs.vector_env.KernelVectorEnv``; autoreset ``SAME_STEP``, final observation in
    ``infos["final_obs"]``). The other seats — ``opponents`` (one spec for all or one per opponent
    seat) and, with 4 players, the ``partner`` opposite — are played compiled: ``greedy``,
    ``heuristic``, ``random``, ``ppo`` (the shipped checkpoint), ``ppo:PATH`` or an ``MlpPolicy`` (a
    frozen snapshot of the learner; ``set_opponents`` swaps them between steps). Forced draws and
    passes are made for the learner. ``reward`` and the other options (``target``, ``max_hands``,
    ``max_steps``, ``episode``, ``settlement``, ``undrawn``) as ``single_agent_env``;
    ``action_features=True`` appends the learner's flattened ``Game.action_features()`` to the
    observation.

    >>> venv = vector_env(64, num_players=2, opponents="greedy", seed=0)
    >>> obs, infos = venv.reset()
    >>> obs.shape, venv.action_masks().shape
    ((64, 135), (64, 114))
    """
    from sniff_env.agents import make_agent
    from sniff_twelve.envs.vector_env import KernelVectorEnv

    num_envs = check_int("num_envs", num_envs, 1, 1 << 24)
    episode = options.pop("episode", "match")
    params = make_params(num_players, hand_episode=episode == "hand", **options)
    _, reward_mode, _ = check_modes(episode, reward, "auto")
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
        partner=partner if num_players == 4 else None,
        action_features=action_features,
        seed=seed,
    )
