"""``ViewPolicy``: an agent tabulated on a small table's views, played by ``vector_env``'s compiled
drivers — the same moves as the agent, its probabilities drawn as given, a missing view counted."""

from __future__ import annotations

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env.spec import SPEC as SNIFF
from sniff_twelve.batch.learner import ViewPolicy, tabular_choice, view_key
from sniff_twelve.core.rng import below, stream_state
from sniff_twelve.core.seats import Table
from sniff_twelve.tools.exploitability import GameTree, view_policy
from twelve_env.spec import SPEC as TWELVE

SMALL = {
    "sniff": (sniff_env, SNIFF, {"pips": 2, "hand_size": 2}),  # a boneyard to draw from
    "twelve": (twelve_env, TWELVE, {"deck": [1, 5, 6, 6, 7, 11], "hand_size": 2}),  # a stock
}


@pytest.fixture(scope="module", params=list(SMALL))
def small(request):
    package, spec, options = SMALL[request.param]
    return package, options, GameTree(Table.of(spec, 2, **options))


def play(package, options, opponents, seat, steps=60):
    """Random learner moves (seeded) against ``opponents`` → every step's observations and rewards."""
    env = package.vector_env(64, num_players=2, opponents=opponents, seat=seat, seed=5, margin=True, **options)
    obs, _ = env.reset()
    rng, trace = np.random.default_rng(1), [obs]
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in env.action_masks()])
        obs, rewards, terminated, _, _ = env.step(actions)
        trace += [obs, rewards, terminated]
    return trace, env.unknown_views


@pytest.mark.parametrize("seat", [0, 1])
def test_a_tabulated_agent_plays_exactly_the_agent(small, seat):
    """``greedy`` tabulated from the tree's information states plays every move the compiled
    ``greedy`` plays in the same rows (a view looked up wrong plays at random and shows), and
    meets no view its table lacks."""
    package, options, tree = small
    tabulated, unknown = play(package, options, view_policy(tree, "greedy"), seat)
    compiled, _ = play(package, options, "greedy", seat)
    assert unknown == 0
    for ours, theirs in zip(tabulated, compiled, strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_a_tabulated_search_meets_every_view_in_its_table(small):
    package, options, tree = small
    for seat in (0, 1):
        assert play(package, options, view_policy(tree, "rollout"), seat, steps=100)[1] == 0


def test_each_action_is_drawn_with_its_probability():
    """Given 1/4 and 3/4 on two of four actions, each draw is the first action when the stream's
    next uniform 32-bit word is below 2**30, else the third: never an action given 0."""
    view = np.arange(12, dtype=np.int32)
    policy = ViewPolicy("given", np.array([view_key(view)]), np.array([[0.25, 0.0, 0.75, 0.0]]))
    mask, misses = np.ones(4, dtype=np.bool_), np.zeros(1, dtype=np.int64)
    stream, copy = (np.array(stream_state(0), dtype=np.int32) for _ in range(2))
    for _ in range(2000):
        expected = 0 if below(copy, 0, 2**32) < 2**30 else 2
        assert tabular_choice(view, mask, policy.keys, policy.thresholds, misses, stream) == expected
    assert misses[0] == 0


def test_a_view_the_table_lacks_is_counted_and_played_legally():
    """A table of one unrelated view: every opponent move is a miss, played at random among the
    legal moves (an illegal one would corrupt the game and end it wrongly)."""
    package, _, options = SMALL["twelve"]
    actions = package.vector_env(1, num_players=2, **options).single_action_space.n
    lacking = ViewPolicy("none", np.array([12345]), np.ones((1, actions)))
    trace, unknown = play(package, options, lacking, 0)
    random_trace, _ = play(package, options, "random", 0)
    assert unknown > 0
    for ours, theirs in zip(trace, random_trace, strict=True):  # the same random moves as ``random``
        np.testing.assert_array_equal(ours, theirs)


def test_bad_tables_and_seatings_are_refused():
    options = SMALL["sniff"][2]
    actions = sniff_env.vector_env(1, num_players=3, **options).single_action_space.n
    with pytest.raises(ValueError, match="one row of probabilities a view"):
        ViewPolicy("twice", np.array([1, 1]), np.ones((2, actions)))
    with pytest.raises(ValueError, match="one row of probabilities a key"):
        ViewPolicy("short", np.array([1, 2]), np.ones((1, actions)))
    with pytest.raises(ValueError, match="each row above 0"):
        ViewPolicy("empty", np.array([1, 2]), np.array([[1.0] * actions, [0.0] * actions]))
    narrow = ViewPolicy("narrow", np.array([1]), np.ones((1, actions - 1)))
    with pytest.raises(ValueError, match=f"has {actions - 1} actions; this table has {actions}"):
        sniff_env.vector_env(2, num_players=3, opponents=narrow, **options)
    first, second = (ViewPolicy(name, np.array([1]), np.ones((1, actions))) for name in "ab")
    with pytest.raises(ValueError, match="one ViewPolicy a table"):
        sniff_env.vector_env(2, num_players=3, opponents=[first, second], **options)
    sniff_env.vector_env(2, num_players=3, opponents=[first, first], **options)  # one at two seats is fine
