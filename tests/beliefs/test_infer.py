"""``infer``: the posterior over what a seat cannot see, held to hand-worked Bayes, to the rules'
bookkeeping, to calibration against the referee's deal, and to its own contract (seeds, errors).

The exact posterior of small positions by brute force lives in ``tests/reference/belief_ref.py``
and is compared in ``test_exact.py``; twins (the same view, other hidden tiles) get identical
beliefs in ``tests/agents/test_no_peek.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sniff_env
import twelve_env
from sniff_env.agents import make_agent as sniff_agent
from sniff_env.tiles import TILE_INDEX
from sniff_twelve.beliefs import infer
from sniff_twelve.core.agent import Agent
from twelve_env.agents import make_agent as twelve_agent


def opening_then_reply() -> sniff_env.Game:
    """S8, S12–S13: seat 0 opens the Sniff [6|6]; seat 1, holding [1|6] and one unseen tile,
    plays [1|6] (12 + 1 = 13: no credit, S17). Seat 0 sees [2|2] in its hand; [0|0], [1|1] and
    [3|6] are unseen: one is seat 1's, two are in the boneyard."""
    deal = {"hands": [[(6, 6), (2, 2)], [(1, 6), (0, 0)]], "boneyard": [(3, 6), (1, 1)], "opener": 0}
    game = sniff_env.Game(num_players=2, deal=deal)
    game.apply(TILE_INDEX[(6, 6)] * 4)
    game.apply(TILE_INDEX[(1, 6)] * 4)
    return game


def test_a_reply_worked_by_hand():
    """Bayes by hand on ``opening_then_reply``. Before the reply every pair of the four unseen
    tiles was equally likely as seat 1's hand; it played [1|6], so it held [1|6] and one of
    x = [0|0], [1|1], [3|6]. With [3|6] it had 4 legal moves (two tiles, two free line sides of
    the opening Sniff, S13), else 2.
    - rules only: P(x) = 1/3 each;
    - ``random``: likelihoods 1/2, 1/2, 1/4 → 0.4, 0.4, 0.2;
    - ``greedy`` softened by ε = 0.05: greedy plays [1|6] on the first line side unless it holds
      [3|6], whose 12 + 3 = 15 credits 15 (S17); likelihoods 0.95 + 0.05/2, the same, and
      0.05/4 → 0.975 / 1.9625 = 0.49682, the same, 0.0125 / 1.9625 = 0.00637."""
    game = opening_then_reply()
    view = game.seat_view(0)
    assert len(view.past) == 2 and view.past_actions.tolist() == game.history
    expected = {
        None: [1 / 3, 1 / 3, 1 / 3],
        "random": [0.4, 0.4, 0.2],
        "greedy": [0.975 / 1.9625, 0.975 / 1.9625, 0.0125 / 1.9625],
    }
    for model, seat1 in expected.items():
        beliefs = infer(view, model, worlds=20_000, seed=1)
        assert beliefs.items == [(0, 0), (1, 1), (3, 6)] and beliefs.places == [1, "boneyard"]
        np.testing.assert_allclose(beliefs.about(1), seat1, atol=0.015, err_msg=str(model))
        np.testing.assert_allclose(beliefs.about("boneyard"), 1 - np.array(seat1), atol=0.015)


def test_a_forced_draw_rules_out_what_would_have_fitted():
    """S18–S20: seat 1 draws, so it held nothing with a 6 or a 2 (the open ends); it then draws
    [2|3], which fits and must be placed at once. Every consistent deal keeps [2|6] and [6|6]
    out of seat 1's hand, whatever the model; only [1|1] or [3|4] can be its other tile."""
    deal = {
        "hands": [[(2, 6), (5, 5)], [(1, 1), (0, 4)]],
        "boneyard": [(2, 3), (6, 6), (3, 4), (0, 1)],
        "opener": 0,
    }
    game = sniff_env.Game(num_players=2, deal=deal)
    game.apply(TILE_INDEX[(2, 6)] * 4)  # ends 2 and 6
    assert game.legal_actions() == [sniff_env.DRAW]
    game.apply(sniff_env.DRAW)  # [2|3]: it fits
    placement = game.legal_actions()[0]
    assert sniff_env.decode_action(placement)[1] == (2, 3)
    game.apply(placement)
    beliefs = infer(game.seat_view(0), None, worlds=4000, seed=2)
    held = dict(zip(beliefs.items, beliefs.about(1), strict=True))
    assert held[(6, 6)] == 0 and (2, 6) not in held  # [2|6] was played by seat 0
    assert held[(1, 1)] > 0.2 and held[(0, 4)] > 0.2
    np.testing.assert_allclose(sum(held.values()), 2)  # seat 1 holds two tiles


SNIFF_OPTIONS = st.sampled_from(
    [{}, {"settlement": "allfives"}, {"undrawn": 2}, {"settlement": "allfives", "undrawn": 1}]
)


def played(make_game, make_agent, spec: str, steps: int):
    game = make_game()
    agent = make_agent(spec)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(agent.act(game))
    return game


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 60),
    options=SNIFF_OPTIONS,
    model=st.sampled_from([None, "random", "greedy", "heuristic"]),
)
def test_sniff_marginals_keep_every_tile_and_every_size(players, seed, steps, options, model):
    """Every unseen tile is somewhere (its row sums to 1), each place holds its public size,
    the truth has positive probability, and the seat's own and played tiles are never unseen."""
    game = played(lambda: sniff_env.Game(num_players=players, seed=seed, **options), sniff_agent, "greedy", steps)
    if game.is_terminal():
        return
    me = seed % players
    beliefs = infer(game.seat_view(me), model, worlds=64, seed=seed)
    marginals = beliefs.marginals
    np.testing.assert_allclose(marginals.sum(axis=1), 1)
    sizes = [len(game.hand(s)) for s in range(players) if s != me] + [len(game.boneyard)]
    np.testing.assert_allclose(marginals.sum(axis=0), sizes)
    truth = {t: i for i, s in enumerate(s for s in range(players) if s != me) for t in game.hand(s)}
    truth |= {t: len(sizes) - 1 for t in game.boneyard}
    assert sorted(truth) == sorted(beliefs.items)
    assert min(marginals[beliefs.items.index(t), p] for t, p in truth.items()) >= 0
    assert not set(game.hand(me)) & set(beliefs.items)
    assert 1 <= beliefs.ess <= beliefs.worlds <= 64


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4, 7]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 40),
    deck=st.sampled_from(["bridge", "numbers"]),
    model=st.sampled_from([None, "greedy", "heuristic"]),
)
def test_twelve_marginals_are_counts_of_the_hidden_cards(players, seed, steps, deck, model):
    """ "12": ranks are alike (T1–T3), so a rank's row sums to its hidden count (the other hands
    and the stock, by the seat's own count of what it saw), each place to its size."""
    game = played(lambda: twelve_env.Game(num_players=players, seed=seed, deck=deck), twelve_agent, "greedy", steps)
    if game.is_terminal():
        return
    me = seed % players
    beliefs = infer(game.seat_view(me), model, worlds=64, seed=seed)
    hidden = [r for s in range(players) if s != me for r in game.hand(s)] + game.stock
    assert beliefs.items == sorted(set(hidden))
    np.testing.assert_allclose(beliefs.marginals.sum(axis=1), [hidden.count(r) for r in beliefs.items])
    sizes = [len(game.hand(s)) for s in range(players) if s != me] + [game.stock_size]
    np.testing.assert_allclose(beliefs.marginals.sum(axis=0), sizes)


def test_samples_are_full_games_the_view_could_be():
    """``sample(k)``: games whose view for the seat is its view now, their hidden tiles a world
    the history allows (the seat's beliefs about a sample's other hands hold them)."""
    game = played(lambda: sniff_env.Game(num_players=4, seed=5), sniff_agent, "greedy", 30)
    view = game.seat_view(1)
    beliefs = infer(view, "greedy", worlds=128, seed=0)
    samples = beliefs.sample(20, seed=4)
    assert len(samples) == 20
    for sample in samples:
        np.testing.assert_array_equal(sample.seat_view(1).array, view.array)
        for seat in (0, 2, 3):
            for tile in sample.hand(seat):
                assert beliefs.about(seat)[beliefs.items.index(tile)] > 0
    assert len({tuple(map(tuple, (s.hand(0), s.hand(2)))) for s in samples}) > 1
    first = [s.state_array.tobytes() for s in beliefs.sample(5, seed=9)]
    assert first == [s.state_array.tobytes() for s in beliefs.sample(5, seed=9)]


def test_the_same_view_and_seed_give_the_same_beliefs_and_other_seeds_other_worlds():
    game = played(lambda: sniff_env.Game(num_players=4, seed=11), sniff_agent, "heuristic", 25)
    view = game.seat_view(2)
    a, b, c = (infer(view, "heuristic", worlds=64, seed=s) for s in (3, 3, 4))
    np.testing.assert_array_equal(a.marginals, b.marginals)
    assert not np.array_equal(a.marginals, c.marginals)


def entropy_bits(marginals: np.ndarray, truth: list[int]) -> float:
    """The log-loss in bits of the true place of every unseen tile (computed here, not by the
    library): -Σ log2 P(tile at its true place)."""
    return float(-sum(np.log2(max(marginals[i, p], 1e-12)) for i, p in enumerate(truth)))


def test_beliefs_are_calibrated_against_the_deal_and_the_model_reveals_bits():
    """Greedy players, greedy model: the predicted probability of "tile t is at place p" matches
    how often it is true (expected calibration error over 10 bins < 0.04), and the model's
    beliefs score the true deal better than the rules alone (fewer bits of log-loss)."""
    predicted, outcomes, bits = [], [], {"uniform": 0.0, "model": 0.0}
    for seed in range(60):
        game = played(lambda s=seed: sniff_env.Game(num_players=4, seed=s), sniff_agent, "greedy", 6 + seed % 18)
        if game.is_terminal():
            continue
        me = seed % 4
        others = [s for s in range(4) if s != me]
        for name, model in (("uniform", None), ("model", "greedy")):
            beliefs = infer(game.seat_view(me), model, worlds=512, seed=seed)
            place = {t: i for i, s in enumerate(others) for t in game.hand(s)}
            truth = [place.get(t, len(others)) for t in beliefs.items]
            bits[name] += entropy_bits(beliefs.marginals, truth)
            if name == "model":
                for i, p_true in enumerate(truth):
                    for p in range(len(others) + 1):
                        predicted.append(beliefs.marginals[i, p])
                        outcomes.append(p == p_true)
    predicted, outcomes = np.array(predicted), np.array(outcomes, dtype=float)
    bins = np.minimum((predicted * 10).astype(int), 9)
    ece = sum(
        abs(predicted[bins == b].mean() - outcomes[bins == b].mean()) * (bins == b).mean()
        for b in range(10)
        if (bins == b).any()
    )
    assert ece < 0.04, ece
    assert bits["model"] < bits["uniform"] - 20, bits


def test_probabilities_of_every_built_in_agent():
    """The contract a model meets: a distribution over the legal moves; deterministic agents put
    1 - ε + ε/n on their choice (ε = SOFTENING), ``random`` 1/n, ``ppo`` its softmax."""
    from sniff_twelve.core.agent import SOFTENING

    game = played(lambda: sniff_env.Game(num_players=4, seed=2), sniff_agent, "greedy", 9)
    view = game.seat_view()
    legal = view.legal_mask()
    n = int(legal.sum())
    assert n > 1
    for spec in ("random", "greedy", "heuristic", "rollout:8", "pimc:2", "ppo", "rollout:8@ppo", "belief:8:greedy"):
        agent = sniff_agent(spec)
        agent.reset(0)
        p = agent.probabilities(view)
        assert p.shape == (view.num_actions,) and np.isclose(p.sum(), 1), spec
        assert (p[~legal] == 0).all() and (p[legal] > 0).all(), spec
        if spec == "random":
            np.testing.assert_allclose(p[legal], 1 / n)
        elif spec != "ppo":
            agent.reset(0)
            choice = agent.act(game)
            assert np.isclose(p[choice], 1 - SOFTENING + SOFTENING / n), spec
    ppo = sniff_agent("ppo")
    np.testing.assert_allclose(ppo.probabilities(view), ppo.prior(view))
    rows = np.stack([view.array, game.seat_view().array])
    np.testing.assert_allclose(
        ppo.batch_probabilities(sniff_env.Game, rows, view.params)[0], ppo.prior(view), rtol=1e-5, atol=1e-7
    )


class NoProbabilities(Agent):
    name = "plain"

    def choose(self, view):
        return view.legal_actions()[0]


def test_a_bad_model_is_one_clear_error():
    game = opening_then_reply()
    view = game.seat_view(0)
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        infer(view, "nope")
    with pytest.raises(TypeError, match="model must be an agent, an agent spec or None"):
        infer(view, 3)
    with pytest.raises(NotImplementedError, match="defines no probabilities"):
        infer(view, NoProbabilities())
    with pytest.raises(ValueError, match="worlds"):
        infer(view, None, worlds=0)
    with pytest.raises(ValueError, match="no shipped twelve checkpoint for 3 players"):
        infer(played(lambda: twelve_env.Game(num_players=3, seed=0), twelve_agent, "greedy", 4).seat_view(0), "ppo")


def test_beliefs_forget_the_previous_hand():
    """S5: each hand is a new deal, so the seat's history — and the beliefs' evidence — starts
    again with it."""
    game = sniff_env.Game(num_players=2, seed=3)
    agent = sniff_agent("greedy")
    hands = game.hands_played
    while game.hands_played == hands:
        game.apply(agent.act(game))
    view = game.seat_view(0)
    assert len(view.past) == 0
    game.apply(agent.act(game))
    assert len(game.seat_view(0).past) == 1


def test_the_belief_agent_spec_and_its_fallback(monkeypatch):
    """``belief:N[:MODEL]`` builds the search its spec names; a bad count or model is one error;
    when ``infer`` finds no consistent deal within its budget the agent still moves, on the rules'
    worlds."""
    agent = sniff_agent("belief:12:heuristic")
    assert (agent.iterations, agent.model, agent.worlds) == (12, "heuristic", 128)
    strongest = sniff_agent("belief")  # Sniff's strongest setting: the policy guides where one is shipped
    assert (strongest.iterations, strongest.model, strongest.guide, strongest.unguided_iterations) == (
        2048,
        "greedy",
        "auto",
        768,
    )
    assert twelve_agent("belief").iterations == 768  # "12" ships no policy
    with pytest.raises(ValueError, match="N in belief:N"):
        sniff_agent("belief:x")
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        sniff_agent("belief:8:nope")
    game = played(lambda: sniff_env.Game(num_players=4, seed=3), sniff_agent, "greedy", 10)
    import sniff_twelve.beliefs as beliefs_module

    monkeypatch.setattr(beliefs_module, "PROPOSALS_PER_WORLD", 0)
    monkeypatch.setattr(beliefs_module, "MIN_PROPOSALS", 0)
    with pytest.raises(ValueError, match="no deal"):
        infer(game.seat_view(), "greedy", worlds=8)
    assert agent.act(game) in game.legal_actions()


def test_distinct_views_are_found_even_if_two_hashes_collide(monkeypatch):
    """The model is evaluated once per distinct view (found by a hash of each row); should two
    rows share a hash, the rows themselves decide."""
    from sniff_twelve.beliefs import _distinct
    from sniff_twelve.beliefs import kernels as BK

    rows = np.array([[1, 2], [3, 4], [1, 2], [5, 6], [3, 4]], dtype=np.int32)
    for collide in (False, True):
        if collide:
            monkeypatch.setattr(BK, "row_hashes", lambda rows, out: out.fill(7))
        distinct, inverse = _distinct(rows)
        assert sorted(map(tuple, distinct.tolist())) == [(1, 2), (3, 4), (5, 6)]
        np.testing.assert_array_equal(distinct[inverse], rows)


def test_the_policy_guided_belief_search_plays_only_what_the_policy_proposes():
    """``belief:N[:MODEL]@ppo`` is one agent (in an arena entry too): the belief search over the
    moves the shipped policy keeps, as ``rollout:N@ppo`` does; a bad guide is one clear error."""
    from sniff_twelve.agents.belief import BeliefAgent
    from sniff_twelve.agents.spec import partners

    agent = sniff_agent("belief:12:heuristic@ppo")
    assert (agent.iterations, agent.model, agent.guide) == (12, "heuristic", "ppo")
    assert sniff_agent("belief:12").guide is None
    assert partners("belief:12:heuristic@ppo+greedy") == ["belief:12:heuristic@ppo", "greedy"]
    proposer = sniff_agent("rollout:1@ppo")
    searched = 0
    for seed, steps in itertools.product(range(4), range(4)):
        game = played(lambda s=seed: sniff_env.Game(num_players=4, seed=s), sniff_agent, "greedy", steps)
        kept, _ = proposer.candidates(game.seat_view())
        searched += kept.size > 1
        assert agent.act(game) in kept.tolist()
    assert searched >= 2  # the search had a choice to make
    with pytest.raises(ValueError, match="guide is None, 'ppo' or 'auto'"):
        type(agent)(guide="mcts")
    with pytest.raises(ValueError, match="no shipped sniff checkpoint for 3 players"):
        agent.check_table(3)
    auto = type(agent)(iterations=12, guide="auto", unguided_iterations=5)
    auto.check_table(3)  # no policy for 3 players: every legal move is searched there
    three = sniff_env.Game(num_players=3, seed=2)
    assert auto.act(three) in three.legal_actions() and auto._guided_tables == {3: False}
    assert issubclass(type(agent), BeliefAgent)


def test_pimc_on_beliefs_solves_worlds_drawn_from_them():
    """``pimc:K:MODEL`` solves worlds drawn from the seat's beliefs (``none``: uniform over the
    consistent deals) and reads the seat's memory of the deal; ``pimc:K`` keeps the rules' worlds;
    the same view and seed give the same move."""
    game = played(lambda: twelve_env.Game(num_players=3, seed=4), twelve_agent, "greedy", 6)
    plain, believer = twelve_agent("pimc:3"), twelve_agent("pimc:3:heuristic", seed=1)
    assert (plain.model, plain.reads_past) == (None, False)
    assert (believer.iterations, believer.model, believer.reads_past) == (3, "heuristic", True)
    values = believer.action_values(game.seat_view())
    assert values is not None and set(values) == set(game.legal_actions())
    twin = twelve_agent("pimc:3:heuristic", seed=1)
    assert twin.action_values(game.seat_view()) == values
    assert twelve_agent("pimc:3:none", seed=1).act(game) in game.legal_actions()
    with pytest.raises(ValueError, match="K in pimc:K"):
        twelve_agent("pimc:x:greedy")
    with pytest.raises(ValueError, match="unknown agent 'nope'"):
        twelve_agent("pimc:2:nope")
