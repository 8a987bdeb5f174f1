"""Bounds at ``VectorGame``'s public entries.

The type rules and the helpers: ``tests/bounds.py``."""

from __future__ import annotations

import random
from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sniff_env
import twelve_env
from sniff_env.tiles import PASS
from tests.bounds import (
    FEW,
    FUZZ,
    WRONG_KINDS,
    int_forms,
    not_one_of,
    outside,
    raises_kind,
    raises_range,
    raises_value,
    snap_vector,
)

# --- VectorGame -------------------------------------------------------------------------------------
VECTORS = {
    "sniff-4": partial(sniff_env.VectorGame, 3, num_players=4),
    "sniff-2-explicit": partial(sniff_env.VectorGame, 3, num_players=2, forced="explicit"),
    "twelve-3": partial(twelve_env.VectorGame, 3, num_players=3),
    "twelve-2-numbers": partial(twelve_env.VectorGame, 3, num_players=2, deck="numbers"),
}


def legal_choice(mask: np.ndarray, rnd: random.Random) -> np.ndarray:
    return np.array([rnd.choice(np.flatnonzero(row).tolist()) for row in mask], dtype=np.int64)


def bad_actions(data, mask: np.ndarray, rnd: random.Random) -> tuple[str, np.ndarray]:
    """A rejected ``actions`` argument for ``step`` and the kind of its defect."""
    n, num_actions = mask.shape
    legal = legal_choice(mask, rnd)
    kind = data.draw(st.sampled_from(["dtype", "shape", "range", "illegal"]))
    if kind == "dtype":
        bad = data.draw(
            st.sampled_from(
                [
                    legal.astype(np.float64),
                    legal.astype(np.float32),
                    legal.astype(bool),
                    legal.astype(object),
                    legal.astype(str),
                    np.ones(n, dtype=bool),
                ]
            )
        )
    elif kind == "shape":
        bad = data.draw(
            st.sampled_from(
                [np.append(legal, legal[:1]), legal[:-1], legal[:, None], legal[None, :], np.int64(legal[0]), legal[:0]]
            )
        )
    else:
        bad = legal.copy()
        row = data.draw(st.integers(0, n - 1))
        illegal = np.flatnonzero(~mask[row]).tolist()
        if kind == "range" or not illegal:
            kind = "range"
            bad[row] = data.draw(st.one_of(st.integers(-(2**63), -1), st.integers(num_actions, 2**63 - 1)))
        else:
            bad[row] = data.draw(st.sampled_from(illegal))
    return kind, bad


@pytest.mark.parametrize("key", VECTORS)
def test_vector_step_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: ``VectorGame.step`` takes an integer array of shape
    ``(num_envs,)`` of legal actions; a rejected call changes nothing (states, the arrays last
    returned) and the next legal step is exactly the twin's."""
    make = VECTORS[key]

    @FEW
    @given(st.data(), st.integers(0, 2**32 - 1))
    def check(data, seed):
        vg, twin = make(seed=seed), make(seed=seed)
        returned, expected = vg.reset(), twin.reset()
        rnd = random.Random(seed)
        for _ in range(data.draw(st.integers(1, 3))):
            before = snap_vector(vg, returned)
            kind, bad = bad_actions(data, np.asarray(returned[1]), rnd)
            if kind == "dtype":
                raises_kind("action", vg.step, bad)
            else:
                raises_range("action", vg.step, bad)
            assert snap_vector(vg, returned) == before, kind
            actions = legal_choice(np.asarray(expected[1]), rnd)
            returned, expected = vg.step(actions.copy()), twin.step(actions.copy())
            assert snap_vector(vg, returned) == snap_vector(twin, expected)

    check()


@pytest.mark.parametrize("key", VECTORS)
def test_vector_returned_arrays_are_read_only(key):
    """Bounds at every public entry: the arrays ``reset`` / ``step`` return are read-only, so the
    engine never trusts a caller-held buffer; an illegal action is still rejected."""
    vg = VECTORS[key](seed=4)
    obs, mask, player = vg.reset()
    for array in (obs, mask, player):
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 1
    legal = legal_choice(np.asarray(mask), random.Random(0))
    illegal_row0 = np.flatnonzero(~np.asarray(mask)[0])
    bad = legal.copy()
    bad[0] = illegal_row0[0]
    before = vg.states.tobytes()
    with pytest.raises(ValueError):
        vg.step(bad)
    assert vg.states.tobytes() == before
    for array in vg.step(legal):
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 0


def test_vector_mask_overwrite_then_opening_pass_is_rejected():
    """Bounds at every public entry: ``mask[:] = True`` fails, and PASS at the opening is still illegal."""
    vg = sniff_env.VectorGame(4, num_players=4, seed=0)
    obs, mask, player = vg.reset()
    assert not np.asarray(mask)[:, PASS].any()
    with pytest.raises(ValueError, match="read-only"):
        mask[:] = True
    before = snap_vector(vg, (obs, mask, player))
    with pytest.raises(ValueError):
        vg.step(np.full(4, PASS, dtype=np.int64))
    assert snap_vector(vg, (obs, mask, player)) == before
    assert not np.asarray(mask)[:, PASS].any()


@pytest.mark.parametrize("key", ["sniff-4", "twelve-3"])
def test_vector_num_envs_game_index_and_agent_rows(key):
    """Bounds at every public entry: ``num_envs`` ≥ 1, ``game(index)`` in ``0 … num_envs-1``,
    ``agent_actions(agent, rows)`` with a built-in rule agent and 1-D integer rows."""
    make = VECTORS[key]
    cls = make.func
    vg = make(seed=1)
    n = vg.num_envs
    before = vg.states.tobytes()
    reference = [vg.game(i).state_array.tobytes() for i in range(n)]
    everyone = vg.agent_actions(vg.rule_agents[0])

    @FUZZ
    @given(st.data())
    def check(data):
        raises_kind("num_envs", cls, data.draw(WRONG_KINDS))
        raises_range("num_envs", cls, data.draw(outside(1, None)), bounds=(1,))
        raises_kind("index", vg.game, data.draw(WRONG_KINDS))
        raises_range("index", vg.game, data.draw(outside(0, n - 1)), bounds=(0, n - 1))
        agent = data.draw(not_one_of(vg.rule_agents))
        raises_value("agent", vg.agent_actions, agent)
        rows = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4)))
        raises_kind("rows", vg.agent_actions, vg.rule_agents[0], rows.astype(np.float64))
        raises_value("rows", vg.agent_actions, vg.rule_agents[0], rows.astype(bool))
        raises_value("rows", vg.agent_actions, vg.rule_agents[0], rows[None, :])
        out_of_range = rows.copy()
        out_of_range[0] = data.draw(st.one_of(st.integers(-(2**40), -1), st.integers(n, 2**40)))
        raises_range("rows", vg.agent_actions, vg.rule_agents[0], out_of_range)
        assert vg.agent_actions(vg.rule_agents[-1], rows).shape == rows.shape
        assert np.array_equal(vg.agent_actions(vg.rule_agents[0], rows), everyone[rows])
        assert vg.states.tobytes() == before

    check()
    for i in range(n):
        for form in int_forms(i):
            assert vg.game(form).state_array.tobytes() == reference[i]
    assert cls(np.int64(2)).num_envs == 2 and cls(np.array(1)).num_envs == 1


@pytest.mark.parametrize("key", ["sniff-4", "twelve-3"])
def test_vector_reset_seed_is_checked_and_changes_nothing(key):
    """Bounds at every public entry: ``VectorGame.reset(seed=bad)`` is rejected and leaves the
    batch (and its remembered seed) as it was."""
    make = VECTORS[key]
    vg, twin = make(seed=7), make(seed=7)
    returned = vg.reset()
    before = snap_vector(vg, returned)
    for bad in ("x", 1.5, True, -1, [1, 2]):
        with pytest.raises(ValueError, match="seed"):
            vg.reset(seed=bad)
        assert snap_vector(vg, returned) == before
    assert snap_vector(vg, vg.reset()) == snap_vector(twin, twin.reset())
    assert snap_vector(vg, vg.reset(seed=np.int64(3))) == snap_vector(twin, twin.reset(seed=3))
