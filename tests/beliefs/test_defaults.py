"""``infer`` at its defaults, and the beliefs the ``belief`` agent plays on, are closer to the true
deal than the rules alone when the model is the players' own.

A correct posterior is, in expectation: the squared error of the marginals is a proper score. The
test table is "12" with 3 players and ``greedy``, where the plain importance sampler's weights
collapse onto a few worlds and it ends *further* from the deal than the rules alone (its
``min_ess=0``); a sampler that ignores the model fails the same test. The exact posterior of
small positions is ``test_exact.py``'s; the measurement on every table is ``python -m
benchmarks.beliefs defaults`` (docs/beliefs.md).
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

import twelve_env
from sniff_twelve.agents.belief import BeliefAgent
from sniff_twelve.beliefs import MIN_ESS, infer
from sniff_twelve.tools.belief_training import self_play
from sniff_twelve.tools.reveal import truth_of
from twelve_env.agents import make_agent as twelve_agent

POSITIONS, SEED = 40, 83_000
BELIEF_AGENTS = {"worlds": BeliefAgent.default_worlds, "epsilon": BeliefAgent.default_epsilon}


@cache
def positions() -> tuple[twelve_env.Game, ...]:
    """``POSITIONS`` decisions with a choice, after 8 actions of ``greedy`` self-play, "12" with 3
    players, from deal ``SEED`` on."""
    deep = (game.clone() for game in self_play(twelve_env.Game, 3, "greedy", SEED) if len(game.history) >= 8)
    return tuple(itertools.islice(deep, POSITIONS))


def squared_error(game: twelve_env.Game, beliefs) -> float:
    """The squared error of the marginals about where the unseen cards truly are."""
    truth = truth_of(game, game.current_player, beliefs.items)
    return float(np.square(beliefs.marginals - truth).sum())


def differences(model: str | None, **options) -> np.ndarray:
    """Per position: the beliefs' squared error minus the rules alone's (2,048 worlds)."""
    out = []
    for k, game in enumerate(positions()):
        view = game.seat_view()
        rules = infer(view, None, worlds=2048, seed=k)
        out.append(squared_error(game, infer(view, model, seed=k, **options)) - squared_error(game, rules))
    return np.array(out)


def better_than_the_rules(difference: np.ndarray) -> bool:
    """The mean difference's 95% interval lies below 0 (closer to the deal than the rules)."""
    return difference.mean() + 1.96 * difference.std(ddof=1) / np.sqrt(len(difference)) < 0


@pytest.mark.parametrize("options", [{}, BELIEF_AGENTS], ids=["infer", "belief's"])
def test_the_defaults_with_the_players_own_model_beat_the_rules_alone(options):
    assert better_than_the_rules(differences("greedy", **options))


@pytest.mark.parametrize(
    ("model", "options"),
    [(None, {}), ("greedy", {"min_ess": 0}), ("greedy", {**BELIEF_AGENTS, "min_ess": 0})],
    ids=["the model ignored", "the plain sampler", "the plain sampler, belief's"],
)
def test_a_sampler_that_ignores_the_model_or_lets_its_weights_collapse_fails(model, options):
    assert not better_than_the_rules(differences(model, **options))


def collapsed_view():
    """The first test position whose plain weights collapse below ``MIN_ESS``."""
    for game in positions():
        if infer(game.seat_view(), "greedy", min_ess=0).ess < MIN_ESS:
            return game.seat_view()
    raise AssertionError("no test position collapses the plain sampler's weights")


def test_collapsed_weights_are_tempered_to_the_floor_and_more_worlds_are_drawn_if_asked():
    view = collapsed_view()
    plain = infer(view, "greedy", min_ess=0)
    tempered = infer(view, "greedy")
    assert plain.temperature == 1.0 and plain.ess < MIN_ESS
    assert 0 <= tempered.temperature < 1 and tempered.ess >= MIN_ESS
    assert tempered.worlds == plain.worlds and np.array_equal(tempered.holdings, plain.holdings)
    more = infer(view, "greedy", max_worlds=1024)
    assert plain.worlds < more.worlds <= 1024 and np.array_equal(more.holdings[: plain.worlds], plain.holdings)
    for beliefs in (tempered, more):
        assert np.allclose(beliefs.marginals.sum(axis=1), plain.marginals.sum(axis=1))
    rules = infer(view, None, min_ess=10**6)
    assert rules.temperature == 1.0  # no model: nothing to temper


def test_a_bad_floor_or_budget_is_one_clear_error():
    view = positions()[0].seat_view()
    with pytest.raises(ValueError, match="min_ess"):
        infer(view, "greedy", min_ess=-1)
    with pytest.raises(ValueError, match="max_worlds"):
        infer(view, "greedy", worlds=256, max_worlds=100)
    with pytest.raises(ValueError, match="min_ess"):
        twelve_agent("belief:16:greedy", min_ess="many")
