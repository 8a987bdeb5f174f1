"""Block dominoes' agents: ``random``, ``greedy``, ``heuristic`` (``dominoes_env.kernels``' rules of
thumb), ``rollout``, ``pimc`` (each re-dealt world solved exactly, ``dominoes_env.solver``) and
``belief``, from ``sniff_twelve.agents.registry.builtin_agents``; no ``ppo`` is shipped, so no
``guided`` either.

>>> from dominoes_env import Game
>>> g = Game(num_players=2, seed=0)
>>> g.apply(make_agent("greedy").act(g))
"""

from __future__ import annotations

from pathlib import Path

from dominoes_env import solver
from dominoes_env.spec import SPEC
from sniff_twelve.agents.builtin import GUIDED_NAME
from sniff_twelve.agents.registry import agent_maker, builtin_agents

AGENTS = {
    name: agent
    for name, agent in builtin_agents(SPEC, solver.HOOKS, Path(__file__).parent / "checkpoints").items()
    if name not in ("ppo", GUIDED_NAME)
}
make_agent = agent_maker(AGENTS, SPEC)
