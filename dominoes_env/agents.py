"""Block dominoes' agents: ``random``, ``greedy``, ``heuristic`` (``dominoes_env.kernels``' rules of
thumb) and ``rollout``, the ones every spec gives (``sniff_twelve.agents.builtin.SPEC_AGENTS``).

>>> from dominoes_env import Game
>>> g = Game(num_players=2, seed=0)
>>> g.apply(make_agent("greedy").act(g))
"""

from __future__ import annotations

from dominoes_env.spec import SPEC
from sniff_twelve.agents.builtin import SPEC_AGENTS
from sniff_twelve.agents.registry import agent_maker

AGENTS = dict(SPEC_AGENTS)
make_agent = agent_maker(AGENTS, SPEC)
