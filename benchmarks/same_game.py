"""The same game on both sides, in one run: block dominoes as OpenSpiel plays it (docs/dominoes_rules.md),
ours (``dominoes_env``: ``VectorGame`` and the raw AEC env) against OpenSpiel's own
``python_team_dominoes`` (4 players) and ``python_block_dominoes`` (2 players).

Random legal play on every side, windows interleaved (``interleaved_rates``) so a neighbour's
load falls on all alike. OpenSpiel's figure counts player actions (its chance nodes are sampled
too, uncounted). The ``VectorGame``'s counts one action per game per ``step`` (observations,
masks and rewards written); ``random_playouts``' one per game per move chosen in the kernel. The
AEC env's counts agent steps of the lean masked loop (``aec_random_loop``), the finished agents'
last steps included, as PettingZoo's loop makes them.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from benchmarks.anchors import _pyspiel, _random_game
from benchmarks.timing import aec_random_loop, interleaved_rates

#: table size → OpenSpiel's game of the same rules
SPIEL = {4: "python_team_dominoes", 2: "python_block_dominoes"}
NUM_ENVS = 4096


def names() -> list[str]:
    """The figure names ``figures`` reports (with the ``bench`` extra installed)."""
    kinds = ("dominoes.vector", "dominoes.kernel_playouts", "dominoes.aec_raw", "openspiel.dominoes")
    return [f"{kind}{n}" for n in SPIEL for kind in kinds]


def _vector(n: int) -> Callable[[], int]:
    import dominoes_env

    vg = dominoes_env.VectorGame(NUM_ENVS, num_players=n, seed=0)

    def chunk() -> int:
        for _ in range(4):
            vg.step(vg.sample_actions())
        return 4 * NUM_ENVS

    return chunk


def _playouts(n: int) -> Callable[[], int]:
    """``VectorGame.random_playouts``: random legal moves chosen inside the compiled kernel, no observations."""
    import dominoes_env

    vg = dominoes_env.VectorGame(NUM_ENVS, num_players=n, seed=0)
    states, params = vg.states.copy(), vg.params.copy()

    def chunk() -> int:
        vg.random_playouts(states, params, 16)
        return 16 * NUM_ENVS

    return chunk


def _spiel(name: str) -> Callable[[], int] | None:
    pyspiel = _pyspiel()
    if pyspiel is None:
        return None
    game, rng = pyspiel.load_game(name), random.Random(0)
    return lambda: sum(_random_game(game, rng) for _ in range(10))


def figures(seconds: float) -> dict[str, float | None]:
    """Steps per second of each side on each table size, ours and OpenSpiel's, interleaved."""
    import dominoes_env

    chunks: dict[str, Callable[[], int]] = {}
    for n, name in SPIEL.items():
        chunks[f"dominoes.vector{n}"] = _vector(n)
        chunks[f"dominoes.kernel_playouts{n}"] = _playouts(n)
        chunks[f"dominoes.aec_raw{n}"] = aec_random_loop(dominoes_env.raw_env(num_players=n), 0, 500)
        spiel = _spiel(name)
        if spiel is not None:
            chunks[f"openspiel.dominoes{n}"] = spiel
    rates: dict[str, float | None] = dict.fromkeys(names())
    rates.update(interleaved_rates(chunks, seconds))
    return rates


if __name__ == "__main__":
    for figure, value in figures(2.0).items():
        print(f"{figure}: {value:,.0f}" if value else f"{figure}: n/a")
