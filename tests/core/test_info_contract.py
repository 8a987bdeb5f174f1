"""The info contract batching frameworks rely on (Tianshou's ``Batch``, RLlib, vectorised
wrappers): every value in ``infos`` is a scalar or a fixed-shape numeric array, the same kind and
shape for a key in every step of every game, under every option set of both games."""

from __future__ import annotations

import itertools
import random
from numbers import Number

import numpy as np
import pytest

import sniff_env
import twelve_env

SNIFF_OPTIONS = [
    {"num_players": n, "forced": forced, "episode": episode, "settlement": settlement, "undrawn": undrawn}
    for n, forced, episode, settlement, undrawn in itertools.product(
        (2, 3, 4), ("explicit", "auto"), ("match", "hand"), ("deduct", "allfives"), (0, 2)
    )
]
TWELVE_OPTIONS = [
    {"num_players": n, "deck": deck, "capture_extra_turn": extra, "reward": reward}
    for n, deck, extra, reward in itertools.product((2, 4, 7), ("bridge", "numbers"), (False, True), ("score", "win"))
]


def signature(value) -> tuple:
    """What must stay fixed for a key: ``("scalar",)`` or ``("array", dtype kind, shape)``."""
    if isinstance(value, np.ndarray):
        assert value.dtype.kind in "biuf", f"non-numeric array {value.dtype}"
        return ("array", value.dtype.kind, value.shape)
    assert isinstance(value, Number | np.number) and not isinstance(value, complex), f"not a scalar: {value!r}"
    return ("scalar",)


def check_infos(make_env, options: dict, games: int) -> int:
    seen: dict[str, tuple] = {}
    steps = 0
    rng = random.Random(0)
    for seed in range(games):
        env = make_env(**options)
        env.reset(seed=seed)
        for _agent in env.agent_iter(max_iter=3000):
            obs, _, terminated, truncated, _info = env.last()
            action = None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            for values in env.infos.values():
                for key, value in values.items():
                    seen.setdefault(key, signature(value))
                    assert signature(value) == seen[key], (options, key, value)
            steps += 1
    assert seen, "the contract was never exercised"
    return steps


@pytest.mark.parametrize("options", SNIFF_OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_sniff_infos_are_scalars_or_fixed_shape_arrays(options):
    assert check_infos(sniff_env.env, {**options, "target": 60}, games=2) > 20


@pytest.mark.parametrize("options", TWELVE_OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_twelve_infos_are_scalars_or_fixed_shape_arrays(options):
    assert check_infos(twelve_env.env, options, games=2) > 20


def test_infos_stack_into_a_batch():
    """What a batching framework does with them: stack every key across steps."""
    env = sniff_env.env(num_players=2, target=60)
    env.reset(seed=3)
    rows = []
    rng = random.Random(3)
    for _agent in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, _info = env.last()
        env.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        rows += [i for i in env.infos.values() if i]
    batch = {key: np.stack([np.asarray(r[key]) for r in rows]) for key in rows[0]}
    assert batch["scored"].shape == (len(rows), 4, 3) and batch["credit"].shape == (len(rows),)
