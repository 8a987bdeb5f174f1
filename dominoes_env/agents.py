"""Block dominoes' agents: ``random``, ``greedy``, ``heuristic`` (``dominoes_env.kernels``' rules of
thumb), ``rollout``, ``pimc`` (each re-dealt world solved exactly, ``dominoes_env.solver``),
``ppo`` (the checkpoints shipped in ``dominoes_env/checkpoints``, trained by
``examples/selfplay_ppo.py --game dominoes``), ``guided`` (the search with ``ppo`` as its prior)
and ``belief``, from ``sniff_twelve.agents.registry.builtin_agents``.

>>> from dominoes_env import Game
>>> g = Game(num_players=2, seed=0)
>>> g.apply(make_agent("greedy").act(g))
"""

from __future__ import annotations

from pathlib import Path

from dominoes_env import solver
from dominoes_env.spec import SPEC
from sniff_twelve.agents.builtin import GUIDED_NAME
from sniff_twelve.agents.registry import agent_maker, builtin_agents, table_maker

CHECKPOINTS = Path(__file__).parent / "checkpoints"

AGENTS = builtin_agents(SPEC, solver.HOOKS, CHECKPOINTS)
make_agent, arena_table = agent_maker(AGENTS, SPEC), table_maker(SPEC)
PpoAgent, DominoesGuidedSearchAgent = AGENTS["ppo"], AGENTS[GUIDED_NAME]
DominoesRolloutAgent, DominoesPimcAgent, DominoesBeliefAgent = AGENTS["rollout"], AGENTS["pimc"], AGENTS["belief"]
