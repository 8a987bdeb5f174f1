"""Block dominoes' agents: ``random``, ``greedy``, ``heuristic`` and ``rollout``, the ones every
spec gives (``sniff_twelve.agents.builtin.SPEC_AGENTS``: it has no solver nor checkpoints for
``pimc``, ``ppo`` and the searches on them), under its own ``make_agent``
(``sniff_twelve.agents.registry.agent_maker``); and how a match went, for the arena.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sniff_twelve.agents.builtin import SPEC_AGENTS
from sniff_twelve.agents.registry import agent_maker
from sniff_twelve.core.rewards import places_by_score
from tests.blockdom.spec import SPEC

if TYPE_CHECKING:
    from tests.blockdom.game import Game

AGENTS = dict(SPEC_AGENTS)
make_agent = agent_maker(AGENTS, SPEC)


def match_outcome(game: Game) -> dict:
    """How a match went, for the arena: each seat's place by its points (``places_by_score``),
    over the deals played."""
    return {**places_by_score(game), "hands": game.deals_played}
