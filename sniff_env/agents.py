"""Built-in Sniff agents: ``random``, ``greedy``, ``heuristic``, ``rollout``, ``pimc``, ``ppo``,
``guided``, ``belief`` (the table: ``sniff_twelve.agents.registry.builtin_agents``).

``greedy`` and ``heuristic`` play ``sniff_env.heuristics``' rules of thumb; ``rollout`` re-deals
the other hands (sizes, known voids) and the boneyard and rolls out to the end of the hand, greedy
moves with random ones mixed in; ``pimc`` solves each re-dealt world exactly to the end of the hand
(``sniff_env.solver``); ``ppo`` plays the checkpoints shipped in ``sniff_env/checkpoints``, which
``guided`` searches with; ``belief`` alone is the policy-guided search on beliefs, the strongest
setting within ``rollout:1024``'s time.

>>> from sniff_env import Game
>>> g = Game(num_players=2, seed=0)
>>> agent = make_agent("greedy")
>>> g.apply(agent.act(g))
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sniff_env import solver
from sniff_env.spec import SPEC
from sniff_twelve.agents.builtin import GUIDED_NAME
from sniff_twelve.agents.registry import agent_maker, builtin_agents, table_maker

if TYPE_CHECKING:
    from sniff_env.game import Game

CHECKPOINTS = Path(__file__).parent / "checkpoints"

AGENTS = builtin_agents(
    SPEC, solver.HOOKS, CHECKPOINTS, strongest_belief={"iterations": 2048, "guide": "auto", "unguided_iterations": 768}
)
make_agent, arena_table = agent_maker(AGENTS, SPEC), table_maker(SPEC)
GreedyAgent, HeuristicAgent, PpoAgent = AGENTS["greedy"], AGENTS["heuristic"], AGENTS["ppo"]
SniffRolloutAgent, SniffPimcAgent = AGENTS["rollout"], AGENTS["pimc"]
SniffGuidedSearchAgent, SniffBeliefAgent = AGENTS[GUIDED_NAME], AGENTS["belief"]


def match_outcome(game: Game) -> dict:
    """How a finished match went, for the arena: ``outcome`` per seat is 1 for the side that
    reached the target and 0 for the others, 0.5 for everyone if the match was truncated;
    ``points`` per seat is its side's final score; ``hands`` the hands played (a match won in the
    middle of a hand counts that hand)."""
    sides = [game.side_of(seat) for seat in range(game.num_players)]
    outcome = [0.5 if game.winner is None else float(side == game.winner) for side in sides]
    hands = game.hands_played + (game.winner is not None)
    return {"outcome": outcome, "points": [game.scores[side] for side in sides], "hands": hands}
