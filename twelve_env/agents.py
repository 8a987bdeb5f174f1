"""Built-in agents for "12": ``random``, ``greedy``, ``heuristic`` (card counting), ``rollout``,
``pimc``, ``ppo`` (a checkpoint of your own: ``ppo:PATH``), ``guided``, ``belief`` (the table:
``sniff_twelve.agents.registry.builtin_agents``).

``greedy`` and ``heuristic`` play ``twelve_env.heuristics``' rules of thumb; ``rollout`` re-deals
the other hands and the stock and plays one round of card-counting moves, comparing scores then
(every rollout move by the rule of thumb: ``rollout_greedy_rate`` 1); ``pimc`` solves each
re-dealt world (``twelve_env.solver``) keeping the next ``PIMC_HORIZON`` stock cards — a whole
game from the deal is beyond an exact solve per move (docs/solvers.md) — so a world ends with its
shortened stock (T13), and within the horizon of the true end every world is solved exactly to
it; ``ppo`` plays ``ppo:PATH`` (plain ``ppo`` a checkpoint in ``twelve_env/checkpoints``, none is
shipped for "12"), which ``guided`` searches with.

>>> from twelve_env import Game
>>> g = Game(num_players=3, seed=0)
>>> g.apply(make_agent("heuristic").act(g))
"""

from __future__ import annotations

from pathlib import Path

from sniff_twelve.agents.builtin import GUIDED_NAME
from sniff_twelve.agents.registry import agent_maker, builtin_agents, table_maker
from sniff_twelve.core.rewards import places_by_score
from twelve_env import solver
from twelve_env.spec import SPEC

CHECKPOINTS = Path(__file__).parent / "checkpoints"
#: the stock cards each of ``pimc``'s worlds keeps (module docstring)
PIMC_HORIZON = 10

AGENTS = builtin_agents(SPEC, solver.HOOKS, CHECKPOINTS, rollout_greedy_rate=1.0, pimc_horizon=PIMC_HORIZON)
make_agent, arena_table = agent_maker(AGENTS, SPEC), table_maker(SPEC)
GreedyAgent, HeuristicAgent, PpoAgent = AGENTS["greedy"], AGENTS["heuristic"], AGENTS["ppo"]
TwelveRolloutAgent, TwelvePimcAgent = AGENTS["rollout"], AGENTS["pimc"]
TwelveGuidedSearchAgent, TwelveBeliefAgent = AGENTS[GUIDED_NAME], AGENTS["belief"]
#: how a finished game went, for the arena: each seat's place by its T15 score (the shared default)
match_outcome = places_by_score
