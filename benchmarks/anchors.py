"""The tools users would otherwise reach for, measured in the same run (``bench`` extra).

Each returns ``None`` when its package is not installed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from benchmarks.timing import rate


def _pyspiel():
    try:
        import open_spiel.python.games  # noqa: F401  (registers the python_* games)
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def _random_game(game, rng: random.Random) -> int:
    """Play one game of ``game`` uniformly at random in Python; returns the player moves.

    The choices come from Python's ``random``, as in the loops that time our ``Game`` and AEC
    env: ``numpy``'s ``Generator.choice`` on a list costs about as much as a move of OpenSpiel's
    Python dominoes, and would halve its figure."""
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def openspiel_python_game(name: str, seconds: float) -> float | None:
    """Random play through ``pyspiel`` (player actions per second; chance nodes sampled too)."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    return rate(lambda: _random_game(game, rng), seconds)


def openspiel_cpp_crazy_eights(seconds: float) -> float | None:
    """OpenSpiel's C++ ``crazy_eights`` played entirely in C++ (``evaluate_bots``, uniform random
    bots): games per second times the mean game length (measured over 300 games here)."""
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    game = pyspiel.load_game("crazy_eights")
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]
    rng = random.Random(0)
    mean_length = float(np.mean([_random_game(game, rng) for _ in range(300)]))
    seed = iter(range(10**9))

    def chunk() -> int:
        for _ in range(100):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seed))
        return 100

    return rate(chunk, seconds) * mean_length


def measurements(quick: bool) -> list[tuple[str, Callable[[], float | None]]]:
    seconds = 0.3 if quick else 2.0
    return [
        ("openspiel.python_team_dominoes", lambda: openspiel_python_game("python_team_dominoes", seconds)),
        ("openspiel.python_block_dominoes", lambda: openspiel_python_game("python_block_dominoes", seconds)),
        ("openspiel.crazy_eights_cpp", lambda: openspiel_cpp_crazy_eights(seconds)),
    ]
