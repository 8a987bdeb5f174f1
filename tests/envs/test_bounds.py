"""Bounds at the environments' public entries: the AEC envs and the single-seat gymnasium env.

The type rules and the helpers: ``tests/bounds.py``."""

from __future__ import annotations

import copy
import random
from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sniff_env
import twelve_env
from sniff_env import single_agent_env as sniff_single
from tests.bounds import (
    FEW,
    FUZZ,
    NOT_INTEGERS,
    WRONG_KINDS,
    bad_sniff_deals,
    bad_twelve_deals,
    outside,
    raises_kind,
    raises_range,
    raises_value,
    sniff_deal,
    twelve_deal,
)
from twelve_env import single_agent_env as twelve_single

# --- AEC envs ---------------------------------------------------------------------------------------
AEC = {
    "sniff-2": (sniff_env, {"num_players": 2}, sniff_deal(2)),
    "sniff-4-auto": (sniff_env, {"num_players": 4, "forced": "auto"}, sniff_deal(4)),
    "twelve-2": (twelve_env, {"num_players": 2}, twelve_deal(2)),
    "twelve-4-numbers": (twelve_env, {"num_players": 4, "deck": "numbers"}, twelve_deal(4)),
}


def aec_state(env) -> tuple[bytes, str]:
    return env.unwrapped.game.state_array.tobytes(), env.unwrapped.agent_selection


def live_env(package, options, wrapped: bool, moves: int = 5, seed: int = 3):
    """An AEC env a few legal moves into an episode, still live."""
    env = (package.env if wrapped else package.raw_env)(**options)
    env.reset(seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rnd.choice(np.flatnonzero(mask).tolist()))
    assert not env.unwrapped.terminations[env.agent_selection]
    return env


@pytest.mark.parametrize("key", AEC)
def test_raw_env_step_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: ``raw_env.step`` — wrong kind, out of range, illegal; the game
    and the agent to act are unchanged."""
    package, options, _ = AEC[key]
    env = live_env(package, options, wrapped=False)
    before = aec_state(env)
    num_actions = env.action_space(env.agent_selection).n

    @FUZZ
    @given(st.data())
    def check(data):
        raises_kind("action", env.step, data.draw(WRONG_KINDS))
        raises_range("action", env.step, data.draw(outside(0, num_actions - 1)))
        mask = env.observe(env.agent_selection)["action_mask"]
        illegal = np.flatnonzero(mask == 0).tolist()
        if illegal:
            raises_range("action", env.step, data.draw(st.sampled_from(illegal)))
        assert aec_state(env) == before

    check()
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    twin = live_env(package, options, wrapped=False)
    assert aec_state(twin) == before
    env.step(np.array(legal))
    twin.step(legal)
    assert aec_state(env) == aec_state(twin)


@pytest.mark.parametrize("key", AEC)
def test_wrapped_env_step_raises_instead_of_asserting(key):
    """Bounds at every public entry: the wrapped ``env().step`` on a live agent raises
    ``ValueError`` / ``ArgumentTypeError`` for ``None``, out-of-range ids and wrong kinds, never a
    bare ``AssertionError``; the state is unchanged."""
    package, options, _ = AEC[key]
    env = live_env(package, options, wrapped=True)
    before = aec_state(env)
    for action in (None, 200, -1, 1.0, "3"):
        with pytest.raises(ValueError):
            env.step(action)
        assert aec_state(env) == before
    num_actions = env.action_space(env.agent_selection).n

    @FEW
    @given(WRONG_KINDS, outside(0, num_actions - 1))
    def check(wrong, out_of_range):
        raises_value("action", env.step, wrong)
        raises_value("action", env.step, out_of_range)
        assert aec_state(env) == before

    check()
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.array(legal))
    assert aec_state(env) != before


@pytest.mark.parametrize("key", ["sniff-2", "twelve-2"])
def test_wrapped_env_in_range_illegal_action_keeps_pettingzoo_convention(key):
    """Bounds at every public entry: an in-range illegal action on ``env()`` is no error — the game
    ends with −1 for the offender (TerminateIllegalWrapper)."""
    package, options, _ = AEC[key]
    env = live_env(package, options, wrapped=True)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.unwrapped.rewards[offender] == -1
    assert all(env.unwrapped.terminations.values())


@pytest.mark.parametrize("key", AEC)
def test_aec_reset_checks_seed_and_deal_and_stays_usable(key):
    """Bounds at every public entry: ``reset(seed=bad)`` names the seed; ``reset(options={"deal":
    bad})`` is a ``ValueError``; a following ``reset(seed=0)`` works."""
    package, options, _ = AEC[key]
    n = options["num_players"]
    game_options = {k: v for k, v in options.items() if k != "forced"}
    fresh = package.Game(seed=0, **game_options).state_array.tobytes()
    deck = options.get("deck", "bridge")
    deals = bad_sniff_deals(n) if package is sniff_env else bad_twelve_deals(n, deck)
    for wrapped in (False, True):
        env = (package.env if wrapped else package.raw_env)(**options)
        raises_range("seed", env.reset, seed=-1)
        raises_kind("seed", env.reset, seed="x")
        raises_kind("seed", env.reset, seed=1.5)
        env.reset(seed=0)
        if package is twelve_env or options.get("forced") != "auto":
            assert env.unwrapped.game.state_array.tobytes() == fresh

    env = package.raw_env(**options)

    @FEW
    @given(deals, NOT_INTEGERS, outside(0))
    def check(deal, wrong_seed, negative_seed):
        with pytest.raises(ValueError):
            env.reset(seed=1, options={"deal": copy.deepcopy(deal)})
        raises_kind("seed", env.reset, seed=wrong_seed)
        raises_range("seed", env.reset, seed=negative_seed)
        env.reset(seed=0)
        assert env.agents == env.possible_agents
        if package is twelve_env or options.get("forced") != "auto":
            assert env.unwrapped.game.state_array.tobytes() == fresh

    check()
    env.reset(seed=np.int64(0))
    twin = package.raw_env(**options)
    twin.reset(seed=0)
    assert aec_state(env) == aec_state(twin)


def test_aec_named_cases():
    """Bounds at every public entry: the named AEC cases — wrapped ``step(None | 200 | 1.0)`` and
    a bad deal at reset."""
    env = sniff_env.env(num_players=4)
    env.reset(seed=0)
    before = aec_state(env)
    for action in (None, 200, 1.0):
        with pytest.raises(ValueError):
            env.step(action)
        assert aec_state(env) == before
    with pytest.raises(ValueError):
        env.reset(options={"deal": {"hands": 5}})
    env.reset(seed=0)
    assert env.unwrapped.game.state_array.tobytes() == sniff_env.Game(seed=0).state_array.tobytes()
    with pytest.raises(ValueError):
        sniff_env.raw_env(target=2**40)
    with pytest.raises(ValueError, match="render_mode"):
        twelve_env.env(render_mode="pixels")


# --- single-seat gymnasium env ---------------------------------------------------------------------
SINGLE = {
    "sniff-2": partial(sniff_single, 2),
    "sniff-4": partial(sniff_single, 4, seat=3),
    "twelve-3": partial(twelve_single, 3, seat=1),
}


def test_single_agent_env_named_cases():
    """Bounds at every public entry: ``single_agent_env(2, seat=1, target=5)`` never resets into a
    finished episode (seeds 0–30)."""
    env = sniff_single(2, seat=1, target=5)
    for seed in range(31):
        _, info = env.reset(seed=seed)
        assert info["action_mask"].any(), f"seed {seed}: reset returned an episode that is over"
        assert env.action_masks().any()
        assert not env.game.is_terminal()


@pytest.mark.parametrize(
    ("make", "n"),
    [(sniff_single, 2), (partial(sniff_single, 4), 4), (twelve_single, 2), (partial(twelve_single, 7), 7)],
    ids=["sniff-2", "sniff-4", "twelve-2", "twelve-7"],
)
def test_single_agent_env_options_are_checked(make, n):
    """Bounds at every public entry: ``seat``, ``opponents`` (and ``partner`` with 4 Sniff players)."""
    assert make(seat=None) is not None and make(seat=np.array(n - 1)) is not None
    assert make(seat=np.int64(n - 1)) is not None
    has_partner = getattr(make, "func", make) is sniff_single and n == 4

    @FEW
    @given(
        NOT_INTEGERS,
        outside(0, n - 1),
        st.one_of(
            st.sampled_from(["nobody", "Greedy", "greedy:3", "rollout:0", "rollout:-3", "rollout:x", "", "random "]),
            st.integers(),
            st.none(),
            st.just(["greedy"] * (n + 1)),
        ),
    )
    def check(wrong_seat, bad_seat, bad_spec):
        raises_kind("seat", make, seat=wrong_seat)
        raises_range("seat", make, seat=bad_seat, bounds=(0, n - 1))
        with pytest.raises(ValueError):
            make(opponents=bad_spec)
        if has_partner and bad_spec is not None:  # partner=None is left undecided by the contract
            with pytest.raises(ValueError):
                make(partner=bad_spec)

    check()


@pytest.mark.parametrize("key", SINGLE)
def test_single_agent_step_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: single-seat ``step`` — a wrong kind is ``ArgumentTypeError``,
    an id outside the action space ``ValueError``, both leaving the state as it was; a 0-d integer
    array is an action; an in-range illegal action ends the episode with −1."""
    make = SINGLE[key]
    env, twin = make(), make()
    env.reset(seed=5)
    twin.reset(seed=5)
    before = env.game.state_array.tobytes()
    num_actions = env.action_space.n

    @FUZZ
    @given(WRONG_KINDS, outside(0, num_actions - 1))
    def check(wrong, out_of_range):
        raises_kind("action", env.step, wrong)
        raises_range("action", env.step, out_of_range)
        assert env.game.state_array.tobytes() == before

    check()
    mask = env.action_masks()
    assert mask.any()
    legal = int(np.flatnonzero(mask)[0])
    stepped = env.step(np.array(legal))
    expected = twin.step(legal)
    assert not stepped[4]["illegal_action"]
    assert np.array_equal(stepped[0], expected[0]) and stepped[1:4] == expected[1:4]
    assert env.game.state_array.tobytes() == twin.game.state_array.tobytes()
    env.reset(seed=6)
    before = env.game.state_array.tobytes()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info.get("illegal_action")) == (-1.0, True, True)
    assert env.game.state_array.tobytes() == before


@pytest.mark.parametrize("key", SINGLE)
def test_single_agent_reset_seed_is_checked(key):
    """Bounds at every public entry: single-seat ``reset(seed=…)`` follows the seed rule."""
    env, twin = SINGLE[key](), SINGLE[key]()
    raises_range("seed", env.reset, seed=-1)
    raises_kind("seed", env.reset, seed="x")
    raises_kind("seed", env.reset, seed=1.5)
    raises_kind("seed", env.reset, seed=True)
    obs, _ = env.reset(seed=np.int64(9))
    expected, _ = twin.reset(seed=9)
    assert np.array_equal(obs, expected)
    assert env.game.state_array.tobytes() == twin.game.state_array.tobytes()
