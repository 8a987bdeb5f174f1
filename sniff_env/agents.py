"""Built-in Sniff agents: ``random``, ``greedy``, ``heuristic``, ``rollout``, ``pimc``, ``ppo``.

>>> from sniff_env import Game
>>> g = Game(num_players=2, seed=0)
>>> agent = make_agent("greedy")
>>> g.apply(agent.act(g))
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sniff_env import search, solver
from sniff_env.spec import SPEC
from sniff_twelve.agents.belief import BeliefAgent
from sniff_twelve.agents.builtin import KernelPolicyAgent, PimcAgent, RandomAgent, RolloutAgent, build_agent
from sniff_twelve.agents.frameworks import RllibAgent, Sb3Agent
from sniff_twelve.agents.guided import GuidedSearchAgent
from sniff_twelve.agents.policy import PolicyAgent
from sniff_twelve.tools.arena import Table

if TYPE_CHECKING:
    from sniff_env.game import Game
    from sniff_twelve.core.agent import Agent

CHECKPOINTS = Path(__file__).parent / "checkpoints"


class GreedyAgent(KernelPolicyAgent):
    """Highest immediate credit (S17); ties go to the heaviest tile (shed pips before S23)."""

    name = "greedy"
    policy = staticmethod(search.greedy_action)
    belief_kernel = "greedy"


class HeuristicAgent(KernelPolicyAgent):
    """Greedy, but also avoids leaving the next opponent an easy five-count (what it could score at
    once with tiles it may hold), and prefers ends the opponents are known to lack and the partner
    is not — the partnership inference of known voids."""

    name = "heuristic"
    policy = staticmethod(search.heuristic_action)
    belief_kernel = "heuristic"


class SniffRolloutAgent(RolloutAgent):
    """``RolloutAgent`` over the Sniff kernels: re-deals the other hands (sizes, known voids) and the
    boneyard; rollouts run to the end of the hand, greedy moves with random ones mixed in."""

    values = staticmethod(search.rollout_values)


class SniffPimcAgent(PimcAgent):
    """``PimcAgent`` over the Sniff solver: each world re-deals the other hands and the boneyard
    (sizes, known voids) and is solved exactly to the end of the hand (``sniff_env.solver``)."""

    solver_hooks = solver.HOOKS


class PpoAgent(PolicyAgent):
    """A self-play PPO policy (``examples/selfplay_ppo.py``): the checkpoint shipped in
    ``sniff_env/checkpoints`` for the table's number of players, or ``ppo:PATH``."""

    game_name = "sniff"
    checkpoint_dir = CHECKPOINTS


class SniffGuidedSearchAgent(GuidedSearchAgent):
    """``GuidedSearchAgent`` over the Sniff kernels: the ``ppo`` policy proposes, ``rollout``'s
    paired rollouts decide (``ismcts:N+ppo[:PATH]``)."""

    values = staticmethod(search.rollout_values)
    policy_agent = PpoAgent


class SniffBeliefAgent(BeliefAgent):
    """``BeliefAgent`` over Sniff: its model is one of the game's agents; ``belief`` alone is the
    policy-guided search on beliefs, the strongest setting within ``rollout:1024``'s time."""

    package = "sniff_env"
    strongest = {"iterations": 2048, "guide": "auto", "unguided_iterations": 768}


#: the entry-point group where installed packages register sniff agents (``sniff_twelve.agents.external``)
AGENT_GROUP = "sniff_env.agents"

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "heuristic": HeuristicAgent,
    "rollout": SniffRolloutAgent,
    "pimc": SniffPimcAgent,
    "ppo": PpoAgent,
    "ismcts+ppo": SniffGuidedSearchAgent,
    "belief": SniffBeliefAgent,
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
    """How a finished match went, for the arena: ``outcome`` per seat is 1 for the side that
    reached the target and 0 for the others, 0.5 for everyone if the match was truncated;
    ``points`` per seat is its side's final score; ``hands`` the hands played (a match won in the
    middle of a hand counts that hand)."""
    sides = [game.side_of(seat) for seat in range(game.num_players)]
    outcome = [0.5 if game.winner is None else float(side == game.winner) for side in sides]
    hands = game.hands_played + (game.winner is not None)
    return {"outcome": outcome, "points": [game.scores[side] for side in sides], "hands": hands}


def arena_table(num_players: int = 4, **options) -> Table:
    """The arena's view of a Sniff table: two sides (partnerships 0+2 / 1+3 with 4) or, with 3
    players, every seat for itself (``SPEC.sides``)."""
    return Table.of(SPEC, num_players, **options)
