"""Throughput of this library's layers, for both games."""

from __future__ import annotations

import random
from collections.abc import Callable

from benchmarks.timing import rate

GAMES = {
    "sniff": {"players": 4, "import": "sniff_env"},
    "twelve": {"players": 4, "import": "twelve_env"},
}


def _module(game: str):
    import importlib

    return importlib.import_module(GAMES[game]["import"])


def kernel_playouts(game: str, seconds: float, num_envs: int = 4096) -> float:
    """Random playouts chosen inside the compiled kernel, all cores, no observations."""
    vg = _module(game).VectorGame(num_envs, num_players=GAMES[game]["players"], seed=0)
    steps = 64
    states, params = vg.states.copy(), vg.params.copy()  # the VectorGame's own rows are read-only

    def chunk() -> int:
        vg.random_playouts(states, params, steps)
        return num_envs * steps

    return rate(chunk, seconds)


def vector_step(game: str, num_envs: int, seconds: float) -> float:
    """``VectorGame.step`` with observations, masks and rewards, actions from ``sample_actions``."""
    vg = _module(game).VectorGame(num_envs, num_players=GAMES[game]["players"], seed=0)
    calls = max(1, 4096 // num_envs)

    def chunk() -> int:
        for _ in range(calls):
            vg.step(vg.sample_actions())
        return calls * num_envs

    return rate(chunk, seconds)


def game_apply(game: str, seconds: float) -> float:
    """``Game.legal_actions()`` + ``Game.apply()`` in a Python loop."""
    module = _module(game)
    rng = random.Random(0)
    holder = {"g": module.Game(num_players=GAMES[game]["players"], seed=0)}

    def chunk() -> int:
        g = holder["g"]
        for _ in range(1000):
            if g.is_terminal():
                g = holder["g"] = module.Game(num_players=GAMES[game]["players"], seed=rng.randrange(2**31))
            g.apply(rng.choice(g.legal_actions()))
        return 1000

    return rate(chunk, seconds)


LEARNER_SIZES = (1, 64, 1024, 4096)


def learner_vector_env(game: str, num_envs: int, seconds: float) -> float:
    """Learner steps per second of ``vector_env`` (2 players, ``greedy`` opponent played compiled;
    the learner plays its first legal action, so the figure is the environment's cost alone)."""
    venv = _module(game).vector_env(num_envs, num_players=2, opponents="greedy", seed=0)
    venv.reset()
    calls = max(1, 4096 // num_envs)

    def chunk() -> int:
        for _ in range(calls):
            venv.step(venv.action_masks().argmax(axis=1))
        return calls * num_envs

    return rate(chunk, seconds)


def learner_single_agent(game: str, seconds: float) -> float:
    """Learner steps per second of ``single_agent_env`` (2 players, ``greedy`` opponent), the same
    first-legal learner as ``learner_vector_env``."""
    env = _module(game).single_agent_env(num_players=2, opponents="greedy")
    env.reset(seed=0)

    def chunk() -> int:
        for _ in range(200):
            _, _, terminated, truncated, _ = env.step(int(env.action_masks().argmax()))
            if terminated or truncated:
                env.reset()
        return 200

    return rate(chunk, seconds)


def measurements(quick: bool) -> list[tuple[str, Callable[[], float]]]:
    """Every figure of ours, by name (``game.figure``), with the callable that measures it."""
    seconds = 0.3 if quick else 2.0
    sizes = (1, 256, 4096) if quick else (1, 16, 256, 1024, 4096, 16384)
    jobs: list[tuple[str, Callable[[], float]]] = []
    for game in GAMES:
        jobs.append((f"{game}.kernel_playouts", lambda g=game: kernel_playouts(g, seconds)))
        for n in sizes:
            jobs.append((f"{game}.vector[{n}]", lambda g=game, n=n: vector_step(g, n, seconds)))
        jobs.append((f"{game}.game_apply", lambda g=game: game_apply(g, seconds)))
        jobs.append((f"{game}.single_agent_env", lambda g=game: learner_single_agent(g, seconds)))
        for n in LEARNER_SIZES:
            jobs.append((f"{game}.vector_env[{n}]", lambda g=game, n=n: learner_vector_env(g, n, seconds)))
    return jobs
