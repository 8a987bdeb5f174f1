"""A game's built-in agents declared once: ``builtin_agents`` builds its ``AGENTS`` table and
``agent_maker`` its ``make_agent``; the game's ``agents`` module only says what is its own (its
solver, its checkpoints, its tuning).

The agents that need a game's hook (its solver, its checkpoints, its package) are subclasses made
here and named after the game (``SniffRolloutAgent``, ``PpoAgent``, …); the game's ``agents``
module binds each under that name, which is where ``pickle`` finds it (worker processes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sniff_twelve.agents.belief import BeliefAgent
from sniff_twelve.agents.builtin import (
    GUIDED_NAME,
    PimcAgent,
    RandomAgent,
    RolloutAgent,
    SpecGreedyAgent,
    SpecHeuristicAgent,
    build_agent,
)
from sniff_twelve.agents.frameworks import RllibAgent, Sb3Agent
from sniff_twelve.agents.guided import GuidedSearchAgent
from sniff_twelve.agents.policy import PolicyAgent
from sniff_twelve.core.seats import Table

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.spec import GameSpec


def builtin_agents(
    spec: GameSpec,
    solver_hooks: GameSpec,
    checkpoints: Path,
    *,
    rollout_greedy_rate: float = RolloutAgent.default_greedy_rate,
    pimc_horizon: int = PimcAgent.horizon,
    strongest_belief: dict | None = None,
) -> dict[str, type[Agent]]:
    """The game's ``AGENTS``, by spec name: ``random``, ``greedy`` and ``heuristic`` (the spec's
    rules of thumb), ``rollout``, ``pimc``, ``ppo``, ``guided``, ``belief``, ``sb3``, ``rllib``.

    Args:
        spec: the game's ``SPEC`` (its name and package name the classes made here).
        solver_hooks: the game's solver rules (its ``solver.HOOKS``), which ``pimc`` solves with.
        checkpoints: the folder where the game ships ``ppo_<players>p.npz``.
        rollout_greedy_rate: ``rollout``'s share of rule-of-thumb moves in a rollout.
        pimc_horizon: the draw-pile cards each of ``pimc``'s worlds keeps (0: all of them).
        strongest_belief: what ``belief`` alone builds, as keywords (``None``: the defaults).
    """
    title = spec.name.title()
    module = spec.parts["agents"]  # where the classes made here are found again (pickling)

    def own(name: str, base: type[Agent], **hooks: object) -> type[Agent]:
        doc = f"``{base.__name__}`` of {spec.title} (``sniff_twelve.agents.registry.builtin_agents``)."
        return type(name, (base,), {"__module__": module, "__qualname__": name, "__doc__": doc, **hooks})

    ppo = own("PpoAgent", PolicyAgent, game_name=spec.name, checkpoint_dir=checkpoints)
    return {
        "random": RandomAgent,
        "greedy": SpecGreedyAgent,
        "heuristic": SpecHeuristicAgent,
        "rollout": own(f"{title}RolloutAgent", RolloutAgent, default_greedy_rate=rollout_greedy_rate),
        "pimc": own(f"{title}PimcAgent", PimcAgent, solver_hooks=solver_hooks, horizon=pimc_horizon),
        "ppo": ppo,
        GUIDED_NAME: own(f"{title}GuidedSearchAgent", GuidedSearchAgent, policy_agent=ppo),
        "belief": own(f"{title}BeliefAgent", BeliefAgent, game_spec=spec, strongest=strongest_belief),
        "sb3": Sb3Agent,
        "rllib": RllibAgent,
    }


def agent_maker(registry: dict[str, type[Agent]], game: GameSpec) -> Callable[..., Agent]:
    """The ``make_agent(spec, **kwargs)`` of ``game`` whose agents are ``registry``: it also builds
    the agents installed packages register in the entry-point group named as the game's ``agents``
    module (``game.parts``), where it is homed (where ``pickle`` finds it)."""
    module = game.parts["agents"]

    def make_agent(spec: str, **kwargs) -> Agent:
        """The agent ``spec`` names (the grammar and every agent: docs/agents.md; ``python -m
        sniff_env agents`` lists them), built with ``kwargs`` (``seed=…``); a bad spec is a
        ``ValueError`` (``sniff_twelve.agents.builtin.build_agent``)."""
        return build_agent(registry, spec, group=module, **kwargs)

    make_agent.__module__, make_agent.__qualname__ = module, "make_agent"
    return make_agent


def table_maker(game: GameSpec) -> Callable[..., Table]:
    """The ``arena_table(num_players=game.default_players, **options)`` of ``game``'s agents
    module: the arena's view of a table (``Table.of``), its sides those of ``game.sides``."""

    def arena_table(num_players: int = game.default_players, **options) -> Table:
        return Table.of(game, num_players, **options)

    arena_table.__module__, arena_table.__qualname__ = game.parts["agents"], "arena_table"
    return arena_table
