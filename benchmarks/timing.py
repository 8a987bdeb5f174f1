"""Timing helpers: run a step function until a time budget is spent, return steps per second; an
agent's time per decision on shared positions."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.tools.arena import Table

#: positions an entry's time per decision is the mean over
TIMED_POSITIONS = 100


def window(chunk: Callable[[], int], seconds: float) -> float:
    """Steps per second of ``chunk`` (which returns the steps it did), run until ``seconds`` pass."""
    steps = 0
    start = time.perf_counter()
    while True:
        steps += chunk()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def rate(chunk: Callable[[], int], seconds: float, warmup: int = 1, repeats: int = 3) -> float:
    """Steps per second of ``chunk``: the best of ``repeats`` windows of ``seconds / repeats``
    each, as ``timeit`` takes the best run — on a shared VM the slower windows measure the
    neighbours, not the code."""
    for _ in range(warmup):
        chunk()
    return max(window(chunk, seconds / repeats) for _ in range(repeats))


def interleaved_rates(chunks: dict[str, Callable[[], int]], seconds: float, repeats: int = 3) -> dict[str, float]:
    """``rate`` for several chunks whose ratios matter: their windows take turns (a, b, c, a, b,
    c, …), so a neighbour's load on a shared machine falls on all of them alike, not on whichever
    happened to run during it. ``seconds`` is each chunk's budget."""
    for chunk in chunks.values():
        chunk()
    best = dict.fromkeys(chunks, 0.0)
    for _ in range(repeats):
        for name, chunk in chunks.items():
            best[name] = max(best[name], window(chunk, seconds / repeats))
    return best


def aec_random_loop(env, seed: int, steps: int, sampler: str = "numpy") -> Callable[[], int]:
    """The masked random AEC loop, as a resumable chunk. ``sampler="numpy"`` picks the action
    with ``np.flatnonzero(mask)`` (a lean loop: the figure is the env's cost); ``"space"`` with
    ``env.action_space(agent).sample(mask)``, the loop of PettingZoo's AEC documentation, whose
    gymnasium sampling costs more than a fast env's step."""
    import random

    import numpy as np

    rng = random.Random(seed)
    env.reset(seed=seed)
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + i)
    state = {"it": iter(env.agent_iter())}

    def chunk() -> int:
        done = 0
        while done < steps:
            agent = next(state["it"], None)
            if agent is None:
                env.reset()
                state["it"] = iter(env.agent_iter())
                continue
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            elif sampler == "space":
                action = env.action_space(agent).sample(obs["action_mask"])
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            done += 1
        return done

    return chunk


def decision_positions(make_game: Callable[[int], Any], greedy: Agent, count: int, seed: int = 5) -> list:
    """``count`` positions with a choice, a few from each of the games ``make_game(seed)`` played
    by ``greedy`` (the shared positions that time per decision is measured on)."""
    rng, out = random.Random(seed), []
    for deal in range(100 * count):
        game, taken = make_game(50_000 + deal), 0
        while not game.is_terminal() and taken < max(1, count // 10):
            if len(game.legal_actions()) > 1 and rng.random() < 0.2:
                out.append(game.clone())
                taken += 1
                if len(out) == count:
                    return out
            game.apply(greedy.act(game))
    return out


def ms_per_decision(agent: Agent, positions: list) -> float:
    """Mean milliseconds ``agent`` takes to choose over ``positions`` (one core, compiled first)."""
    agent.reset(1)
    agent.act(positions[0])
    start = time.perf_counter()
    for game in positions:
        agent.act(game)
    return (time.perf_counter() - start) / len(positions) * 1e3


def times_per_decision(table: Table, entries: list[str]) -> dict[str, float]:
    """Every entry's mean milliseconds per decision on the same ``TIMED_POSITIONS`` positions of
    ``table``'s game."""
    game_cls, make_agent = table.spec.part("game"), table.spec.part("agents").make_agent
    positions = decision_positions(
        lambda seed: game_cls(num_players=table.num_players, seed=seed, **table.options),
        make_agent("greedy"),
        TIMED_POSITIONS,
    )
    return {entry: ms_per_decision(make_agent(entry), positions) for entry in entries}
