"""The policy-guided search ``rollout[:N]@ppo[:CHECKPOINT]``, the preset ``guided[:N[:CHECKPOINT]]`` (its old
spellings: test_agent_spec): its spellings everywhere agents are named, the moves it keeps (the policy's most
likely, up to the prior mass asked for), and its search, which with nothing pruned and no prior weight is
``rollout:N``'s. Its no-peek twins are in test_no_peek."""

from __future__ import annotations

import numpy as np
import pytest

import sniff_env
from sniff_env.agents import make_agent
from sniff_twelve.agents.guided import GuidedSearchAgent
from sniff_twelve.agents.spec import partners
from sniff_twelve.tools.arena import run
from twelve_env.agents import make_agent as twelve_agent

SHIPPED_4P = str(sniff_env.agents.PpoAgent.shipped()[4])
#: the policy-guided search and its preset, for either game
SPELLINGS = (("rollout@ppo", "guided"), ("rollout:24@ppo", "guided:24"))


def positions(num_players: int, count: int, seed: int = 0):
    """Positions of ``greedy`` self-play with at least two legal moves."""
    greedy, out = make_agent("greedy"), []
    for k in range(100):
        game = sniff_env.Game(num_players=num_players, seed=seed + k)
        while not game.is_terminal() and len(out) < count:
            if len(game.legal_actions()) >= 2:
                out.append(game.clone())
            game.apply(greedy.act(game))
        if len(out) >= count:
            return out
    raise AssertionError("not enough positions")


@pytest.mark.parametrize(
    ("spec", "iterations", "checkpoint"),
    [
        ("guided", 64, None),
        ("guided:32", 32, None),
        (f"guided:5:{SHIPPED_4P}", 5, SHIPPED_4P),
        ("rollout:32@ppo", 32, None),
        ("rollout@ppo", 64, None),
        (f"rollout:5@ppo:{SHIPPED_4P}", 5, SHIPPED_4P),
    ],
)
def test_the_spec_builds_the_guided_search(spec, iterations, checkpoint):
    agent = make_agent(spec)
    assert isinstance(agent, GuidedSearchAgent) and agent.iterations == iterations
    assert agent.policy.checkpoint == checkpoint
    assert type(make_agent("rollout:8")).__name__ == "SniffRolloutAgent"  # unguided: the flat search
    assert partners(spec) == [spec] and partners(f"{spec}+greedy") == [spec, "greedy"]


@pytest.mark.parametrize(
    ("agents", "old", "new"),
    [
        *((agents, old, new) for agents in (sniff_env.agents.make_agent, twelve_agent) for old, new in SPELLINGS),
        (sniff_env.agents.make_agent, f"rollout:5@ppo:{SHIPPED_4P}", f"guided:5:{SHIPPED_4P}"),  # a Sniff checkpoint
    ],
)
def test_the_preset_builds_the_same_agent(agents, old, new):
    """``rollout[:N]@ppo[:PATH]`` builds what ``guided[:N[:PATH]]`` does: the same class, iterations,
    checkpoint, search settings and random stream."""
    before, after = agents(old, seed=7), agents(new, seed=7)
    assert type(before) is type(after) and isinstance(after, GuidedSearchAgent)
    settings = ("iterations", "greedy_rate", "coverage", "width", "prior_weight")
    assert [getattr(before, k) for k in settings] == [getattr(after, k) for k in settings]
    assert before.policy.checkpoint == after.policy.checkpoint and repr(before) == repr(after)
    assert np.array_equal(before._rng, after._rng)


def test_both_spellings_play_the_same_moves():
    for game in positions(4, 6, seed=11):
        old, new = make_agent("rollout:8@ppo", seed=2), make_agent("guided:8", seed=2)
        assert old.act(game) == new.act(game)


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("rollout:x@ppo", "number of iterations"),
        ("rollout:0@ppo", "iterations"),
        ("rollout:8@ppo:/no/such.npz", "no such file"),
        ("guided:x", "N in guided:N"),
        ("guided:0", "N in guided:N"),
        ("guided:8:/no/such.npz", "no such file"),
    ],
)
def test_a_bad_spec_says_what_is_wrong(spec, says):
    with pytest.raises(ValueError, match=says):
        make_agent(spec)


def test_it_needs_a_policy_for_the_table():
    with pytest.raises(ValueError, match="no shipped sniff checkpoint for 3 players"):
        make_agent("rollout:8@ppo").check_table(3)
    with pytest.raises(ValueError, match="no shipped twelve checkpoint"):
        twelve_agent("rollout:8@ppo").check_table(2)


def test_the_kept_moves_are_the_policys_most_likely_up_to_the_coverage():
    """Worked from the prior, not from the agent: sort the legal moves by the policy's probability,
    keep them until their mass reaches ``coverage``, at most ``width``."""
    ppo = make_agent("ppo")
    for coverage, width in ((0.95, 3), (0.5, 5), (1.0, 2), (0.0, 3)):
        agent = make_agent("rollout:4@ppo")
        agent.coverage, agent.width = coverage, width
        for game in positions(4, 40):
            view = game.seat_view()
            prior = ppo.prior(view)
            legal = game.legal_actions()
            assert (
                np.isclose(prior[legal].sum(), 1) and prior[[a for a in range(len(prior)) if a not in legal]].sum() == 0
            )
            ranked = sorted(legal, key=lambda a: -prior[a])
            expected, mass = [], 0.0
            for action in ranked:
                if len(expected) == width or (expected and mass >= coverage - 1e-9):
                    break
                expected.append(action)
                mass += prior[action]
            kept, kept_prior = agent.candidates(view)
            assert sorted(kept.tolist()) == sorted(expected) and np.allclose(kept_prior, prior[kept])


def test_a_move_the_policy_is_sure_of_costs_no_search():
    """One kept move: it is played, and the search's stream is not touched."""
    agent = make_agent("rollout:64@ppo", seed=3)
    agent.width = 1
    ppo = make_agent("ppo")
    for game in positions(4, 20, seed=50):
        before = agent._rng.copy()
        assert agent.act(game) == ppo.act(game)
        assert np.array_equal(agent._rng, before)


@pytest.mark.parametrize("num_players", [2, 4])
def test_with_nothing_pruned_and_no_prior_weight_it_is_rollouts_search(num_players):
    """Coverage 1, room for every legal move and a prior weight of 0 leave the rollouts alone to
    choose: a move with the best mean of ``rollout:N`` with the same seed (the same determinizations
    and streams, scored per move whatever order the moves come in; of tied moves ``rollout`` takes
    the lowest id, the guided search the likeliest)."""
    for k, game in enumerate(positions(num_players, 25, seed=7)):
        guided, rollout = make_agent("rollout:24@ppo", seed=k), make_agent("rollout:24", seed=k)
        guided.coverage, guided.width, guided.prior_weight = 1.0, 1000, 0.0
        legal = game.legal_actions()
        means = rollout.rollout_means(game.seat_view(), np.array(legal))
        assert means[legal.index(guided.act(game))] == means.max()


def test_it_plays_in_the_arena_as_one_agent_and_the_same_with_two_workers():
    table = sniff_env.agents.arena_table(4, target=60)
    one = run(table, ["rollout:4@ppo", "greedy"], deals=2, seed=5, workers=1, progress=False)
    two = run(table, ["rollout:4@ppo", "greedy"], deals=2, seed=5, workers=2, progress=False)
    assert one["games"] == two["games"] and len(one["games"]) == 4
    seated = {name for game in one["games"] for name in game["seating"]}
    assert seated == {"rollout:4@ppo", "greedy"}  # one agent, not a partnership of rollout:4 and ppo
