"""Built-in agents for "12": ``random``, ``greedy``, ``heuristic`` (card counting), ``rollout``,
``pimc``, ``ppo`` (a checkpoint of your own: ``ppo:PATH``).

>>> from twelve_env import Game
>>> g = Game(num_players=3, seed=0)
>>> g.apply(make_agent("heuristic").act(g))
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sniff_twelve.agents.belief import BeliefAgent
from sniff_twelve.agents.builtin import KernelPolicyAgent, PimcAgent, RandomAgent, RolloutAgent, build_agent
from sniff_twelve.agents.frameworks import RllibAgent, Sb3Agent
from sniff_twelve.agents.guided import GuidedSearchAgent
from sniff_twelve.agents.policy import PolicyAgent
from sniff_twelve.core.rewards import rank_rewards
from sniff_twelve.tools.arena import Table
from twelve_env import search, solver
from twelve_env.spec import SPEC

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from twelve_env.game import Game

CHECKPOINTS = Path(__file__).parent / "checkpoints"


class GreedyAgent(KernelPolicyAgent):
    """Capture when possible (6 on 6 first, T11); otherwise play the card the fewest unseen cards
    could capture."""

    name = "greedy"
    policy = staticmethod(search.greedy_action)
    belief_kernel = "greedy"


class HeuristicAgent(KernelPolicyAgent):
    """Card counting: weighs each card's capture now against the pile it leaves the next player,
    using how many unseen cards could capture it and how many cards that player holds."""

    name = "heuristic"
    policy = staticmethod(search.heuristic_action)
    belief_kernel = "heuristic"


class TwelveRolloutAgent(RolloutAgent):
    """``RolloutAgent`` over the "12" kernels: re-deals the other hands and the stock; rollouts
    play one round of card-counting moves and compare scores then."""

    values = staticmethod(search.rollout_values)
    default_greedy_rate = 1.0


class TwelvePimcAgent(PimcAgent):
    """``PimcAgent`` over the "12" solver: each world re-deals the other hands and the stock and
    keeps the next ``horizon`` stock cards (a whole game from the deal is beyond an exact solve
    per move: docs/solvers.md), so a world ends with its shortened stock (T13); within the horizon
    of the true end, every world is solved exactly to it."""

    solver_hooks = solver.HOOKS
    horizon = 10


class PpoAgent(PolicyAgent):
    """A self-play PPO policy (``examples/selfplay_ppo.py --game twelve``) from ``ppo:PATH``; plain
    ``ppo`` uses a checkpoint in ``twelve_env/checkpoints`` (none is shipped for "12")."""

    game_name = "twelve"
    checkpoint_dir = CHECKPOINTS


class TwelveGuidedSearchAgent(GuidedSearchAgent):
    """``GuidedSearchAgent`` over the "12" kernels: the ``ppo`` policy proposes, ``rollout``'s
    paired rollouts decide (``ismcts:N+ppo[:PATH]``)."""

    values = staticmethod(search.rollout_values)
    policy_agent = PpoAgent


class TwelveBeliefAgent(BeliefAgent):
    """``BeliefAgent`` over "12": its model is one of the game's agents."""

    package = "twelve_env"


#: the entry-point group where installed packages register twelve agents (``sniff_twelve.agents.external``)
AGENT_GROUP = "twelve_env.agents"

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "heuristic": HeuristicAgent,
    "rollout": TwelveRolloutAgent,
    "pimc": TwelvePimcAgent,
    "ppo": PpoAgent,
    "ismcts+ppo": TwelveGuidedSearchAgent,
    "belief": TwelveBeliefAgent,
    "sb3": Sb3Agent,
    "rllib": RllibAgent,
}


def make_agent(spec: str, **kwargs) -> Agent:
    """A built-in agent: ``random``, ``greedy``, ``heuristic``, ``rollout`` (``rollout:ITERATIONS``;
    ``ismcts:N`` is its old name), ``pimc`` (``pimc:WORLDS``), ``ppo`` (``ppo:CHECKPOINT``),
    ``ismcts:N+ppo`` (``ismcts:N+ppo:CHECKPOINT``: the search guided by the policy),
    ``belief`` (``belief:N:MODEL``: the rollout search on worlds drawn from what the other
    seats' play reveals, ``sniff_twelve.agents.belief``), ``sb3`` (``sb3:PATH``, a
    Stable-Baselines3 model) or ``rllib`` (``rllib:PATH``, an RLlib
    checkpoint)."""
    return build_agent(AGENTS, spec, group=AGENT_GROUP, **kwargs)


def match_outcome(game: Game) -> dict:
    """How a finished game went, for the arena: ``outcome`` per seat is its place by T15 score
    mapped to [0, 1] (first 1, last 0, ties share), ``points`` its score."""
    scores = np.array(game.scores, dtype=np.float64)
    places = np.empty(game.num_players)
    rank_rewards(scores, game.num_players, places)
    return {"outcome": ((places + 1) / 2).tolist(), "points": scores.tolist(), "hands": 1}


def arena_table(num_players: int = 2, **options) -> Table:
    """The arena's view of a "12" table: two sides with 2 players, else every seat for itself."""
    return Table.of(SPEC, num_players, **options)
