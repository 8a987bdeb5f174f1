"""The AEC figures, ours and PettingZoo's ``connect_four_v3``, measured in interleaved windows.

Two loops, both with masked random actions: the lean loop (``np.flatnonzero(mask)``, what the
targets use) and the loop of PettingZoo's AEC documentation
(``env.action_space(agent).sample(mask)``). The second spends ~15 µs per step in gymnasium's
sampling whatever the env, so every ratio it reports is smaller; the two loops disagreeing is
that constant, not the envs.
"""

from __future__ import annotations

from benchmarks.timing import aec_random_loop, interleaved_rates

LOOPS = {"": "numpy", "_docs_loop": "space"}  # figure-name suffix → aec_random_loop sampler


def envs() -> dict[str, object]:
    """Every env measured, by figure prefix (4 players for ours; ``connect_four_v3`` if installed)."""
    import sniff_env
    import twelve_env

    made: dict[str, object] = {}
    for name, module in (("sniff", sniff_env), ("twelve", twelve_env)):
        made[f"{name}.aec_raw"] = lambda m=module: m.raw_env(num_players=4)
        made[f"{name}.aec_wrapped"] = lambda m=module: m.env(num_players=4)
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return made
    made["pettingzoo.connect_four_v3_wrapped"] = connect_four_v3.env
    return made


def names() -> list[str]:
    """The figure names ``figures`` reports (with the ``bench`` extra installed)."""
    return [prefix + suffix for suffix in LOOPS for prefix in envs()]


def figures(seconds: float) -> dict[str, float]:
    """Agent-steps per second of every env under both loops, windows interleaved (``interleaved_rates``)."""
    chunks = {
        prefix + suffix: aec_random_loop(make(), 0, 500, sampler)
        for suffix, sampler in LOOPS.items()
        for prefix, make in envs().items()
    }
    return interleaved_rates(chunks, seconds)
