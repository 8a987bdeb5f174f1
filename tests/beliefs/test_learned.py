"""Learned beliefs (``sniff_twelve.beliefs.learned``): the worlds drawn from a network's marginals
held to a brute-force enumeration, its marginals to the rules' bookkeeping, the shipped networks to
the referee's deal (calibration, bits against the rules alone), and to their contract (errors).
Twins (the same view, other hidden tiles) get identical learned beliefs in
``tests/agents/test_no_peek.py``.

The exact posterior they approximate is tested in ``test_exact.py``; how close they come to it,
in bits and in time, is measured by ``python -m benchmarks.beliefs learned`` (``docs/beliefs.md``).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sniff_env
import twelve_env
from sniff_env.agents import make_agent as sniff_agent
from sniff_twelve.beliefs import infer
from sniff_twelve.beliefs import kernels as BK
from sniff_twelve.beliefs import learned as LB
from sniff_twelve.core.rng import stream_state
from sniff_twelve.tools import belief_training

SHIPPED = {("sniff", 4): "ppo", ("sniff", 2): "ppo", ("twelve", 2): "greedy"}


def enumerate_deals(units, sizes, weights):
    """Every assignment of the units to the hands (``sizes``) and the pool, by brute force, with
    its probability ∝ the product of its units' weights: {hands-and-pool as sorted tuples: p}."""
    places = len(sizes) + 1
    table: Counter = Counter()
    for assignment in itertools.product(range(places), repeat=len(units)):
        counts = Counter(assignment)
        if any(counts[h] != sizes[h] for h in range(len(sizes))):
            continue
        weight = math.prod(weights[p][u] for p, u in zip(assignment, units, strict=True))
        if weight > 0:
            pairs = list(zip(assignment, units, strict=True))
            key = tuple(tuple(sorted(u for p, u in pairs if p == q)) for q in range(places))
            table[key] += weight
    total = sum(table.values())
    return {key: w / total for key, w in table.items()}


@pytest.mark.parametrize(
    "units, sizes",
    [([0, 1, 2, 3, 4, 5], [2, 1]), ([0, 0, 1, 1, 2, 3], [2, 2]), ([0, 1, 2, 3, 4], [1, 1, 2])],
    ids=["distinct", "alike", "three-hands"],
)
def test_weighted_deals_follow_the_product_of_their_weights(units, sizes):
    """``_deal_weighted`` draws each deal of the units with probability ∝ Π weights (an item may
    not go where its weight is 0): its frequencies over 40,000 draws match the enumeration."""
    rng_np = np.random.default_rng(len(units) + len(sizes))
    items = max(units) + 1
    weights = rng_np.uniform(0.2, 3.0, size=(len(sizes) + 1, items))
    weights[0, 1] = 0.0  # a known void: item 1 is never in the first hand
    exact = enumerate_deals(units, sizes, weights)
    units_a, sizes_a = np.array(units, dtype=np.int64), np.array(sizes, dtype=np.int64)
    radix = np.cumprod([1, *(s + 1 for s in sizes[:-1])]).astype(np.int64)
    table = np.zeros((len(units) + 1, int(radix[-1]) * (sizes[-1] + 1)))
    BK._completions(units_a, weights, sizes_a, radix, table)
    rng = np.array(stream_state(5), dtype=np.int32)
    holdings = np.zeros((len(sizes) + 1, items), dtype=np.int64)
    draws = 40_000
    seen: Counter = Counter()
    for _ in range(draws):
        BK._deal_weighted(units_a, weights, sizes_a, radix, table, rng, holdings)
        seen[tuple(tuple(sorted(np.repeat(np.arange(items), row).tolist())) for row in holdings)] += 1
    assert set(seen) <= set(exact), set(seen) - set(exact)
    for key, p in exact.items():
        assert abs(seen[key] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-3, (key, p, seen[key] / draws)


def sniff_position(players: int, seed: int, steps: int) -> sniff_env.Game:
    game, greedy = sniff_env.Game(num_players=players, seed=seed), sniff_agent("greedy")
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(greedy.act(game))
    return game


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 40),
    logit_seed=st.integers(0, 1 << 30),
)
def test_balanced_marginals_keep_every_unit_and_size_and_worlds_respect_the_rules(players, seed, steps, logit_seed):
    """Whatever the logits: every hidden unit is somewhere (rows add to the hidden counts), every
    place holds its public size (columns, to the play tolerance even for wild logits), nothing
    is where the view rules it out (known voids, empty hands); and every world drawn from them
    deals exactly the hidden units, the sizes and no void broken."""
    game = sniff_position(players, seed, steps)
    if game.is_terminal():
        return
    view = game.seat_view()
    _, hidden, room = LB.encode(view)
    logits = np.random.default_rng(logit_seed).normal(scale=2.0, size=(1, *room.shape))
    m = LB.balanced(logits, hidden[None], room[None])[0]
    np.testing.assert_allclose(m.sum(axis=1), hidden, atol=1e-6)
    np.testing.assert_allclose(m.sum(axis=0), room.max(axis=0), atol=2 * LB.PLAY_TOLERANCE)
    assert (m[room == 0] == 0).all()
    units, sizes, _, allowed = BK.hidden_deal(view.spec, view.array, view.params, view.seat)
    weights = np.vstack([m[:, :-1][:, LB.relative_places(players, view.seat).argsort()].T, m[:, -1]])
    worlds = np.zeros((16, players, view.spec.ITEMS), dtype=np.int64)
    rng = np.array([1, 2], np.int32)
    assert BK.deal_from_weights(view.spec, view.array, view.params, view.seat, weights, rng, worlds)
    np.testing.assert_array_equal(worlds.sum(axis=1), np.tile(np.bincount(units, minlength=28), (16, 1)))
    np.testing.assert_array_equal(worlds[:, :-1].sum(axis=2), np.tile(sizes, (16, 1)))
    assert not (worlds[:, :-1] * ~allowed).any()


def test_training_and_play_balance_alike():
    """The differentiable balancing training runs (torch, ``BALANCING`` rounds) and the compiled
    one play runs give the same marginals where the rounds suffice (logits of a trained size)."""
    torch = pytest.importorskip("torch", reason="needs the train extra")
    views = [sniff_position(n, 40 + n, 10).seat_view() for n in (2, 3, 4)]
    for view in views:
        _, hidden, room = LB.encode(view)
        logits = np.random.default_rng(view.num_players).normal(scale=0.5, size=(1, *room.shape))
        played = LB.balanced(logits, hidden[None], room[None])
        trained = LB.balanced(*(torch.from_numpy(a).double() for a in (logits, hidden[None], room[None])), xp=torch)
        np.testing.assert_allclose(played, trained.numpy(), atol=1e-4)


def test_training_targets_are_the_referees_deal():
    """``collect``'s truth is where the hidden tiles are in the full game (read from its hands and
    boneyard here, not by the kernel), seat-relative, with the pool last."""
    data = belief_training.collect(sniff_env.Game, 3, "greedy", games=2, seed=11)
    replay, greedy, k = sniff_env.Game(num_players=3, seed=11), sniff_agent("greedy"), 0
    while not replay.is_terminal() and k < 30:
        if len(replay.legal_actions()) > 1:
            me = replay.current_player
            for tile_index, tile in enumerate(sniff_env.TILES):
                places = [r for r in (1, 2) if tile in replay.hand((me + r) % 3)]
                if tile in replay.boneyard:
                    places.append(3)
                truth = data["truth"][k, tile_index]
                assert truth.sum() == len(places) and all(truth[p - 1] == 1 for p in places), (k, tile)
            k += 1
        replay.apply(greedy.act(replay))
    assert k == 30


@pytest.mark.parametrize("game, players", list(SHIPPED), ids=[f"{g}{n}" for g, n in SHIPPED])
def test_the_shipped_networks_are_calibrated_and_beat_the_rules_alone(game, players):
    """On fresh self-play of the model each network learned (seeds far from its training games),
    its probabilities match how often they come true (expected calibration error < 0.03 over 10
    bins) and it scores the true deal at least 0.3 bits a decision better than
    every allowed place alike (the networks gain 0.4 to 0.6 on their held-out games)."""
    game_cls = {"sniff": sniff_env, "twelve": twelve_env}[game].Game
    data = belief_training.collect(game_cls, players, SHIPPED[game, players], games=12, seed=900_000)
    net = LB.BeliefNet.load(LB.shipped_path(game_cls.spec, players))
    m = LB.balanced(net.logits(data["x"]), data["hidden"], data["room"])
    alike = LB.balanced(np.zeros_like(data["room"]), data["hidden"], data["room"])
    units = np.maximum(data["hidden"], 1)[..., None]
    bits = -(data["truth"] * np.log2(np.clip(m / units, 1e-12, 1))).sum((1, 2)).mean()
    alike_bits = -(data["truth"] * np.log2(np.clip(alike / units, 1e-12, 1))).sum((1, 2)).mean()
    assert bits < alike_bits - 0.3, (bits, alike_bits)
    live = data["room"] > 0
    predicted, happened = (m / units)[live], (data["truth"] / units)[live]
    weight = np.broadcast_to(units, m.shape)[live]
    bins = np.minimum((predicted * 10).astype(int), 9)
    ece = sum(
        abs(np.average(predicted[bins == b] - happened[bins == b], weights=weight[bins == b]))
        * weight[bins == b].sum()
        / weight.sum()
        for b in range(10)
        if (bins == b).any()
    )
    assert ece < 0.03, ece


def test_a_network_for_another_table_or_players_is_one_clear_error(tmp_path):
    """``infer(learned=...)`` names what is wrong: no such file, not a network, another table size
    or rules, a model the network did not learn; the belief agent says so when seated."""
    view = sniff_position(4, 3, 8).seat_view()
    with pytest.raises(ValueError, match="no such file"):
        infer(view, learned=tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match=r"junk\.npz: not a belief network"):
        infer(view, learned=tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="learned the play of 'ppo', not 'greedy'"):
        infer(view, model="greedy", learned="shipped")
    with pytest.raises(ValueError, match="for sniff with 4 players; the view is sniff with 2"):
        infer(sniff_position(2, 3, 8).seat_view(), learned=LB.shipped_path(view.spec, 4))
    variant = sniff_env.Game(num_players=4, seed=3, undrawn=2)
    with pytest.raises(ValueError, match="options row"):
        infer(variant.seat_view(), learned="shipped")
    with pytest.raises(ValueError, match="no shipped American Sniff belief network for 3 players"):
        infer(sniff_position(3, 3, 8).seat_view(), learned="shipped")
    with pytest.raises(ValueError, match="no shipped American Sniff belief network for 3 players"):
        sniff_agent("belief:8:learned").check_table(3)
    assert infer(view, model="ppo", learned="shipped").worlds == 256  # the model it learned is fine


def test_a_network_trained_here_is_what_infer_reads(tmp_path):
    """``fit`` on a little self-play writes a network ``infer`` and the belief agent read; its
    held-out loss is recorded per epoch, the network kept is the best epoch's, and its marginals
    keep every unit of every hidden item."""
    data = belief_training.collect(sniff_env.Game, 2, "greedy", games=6, seed=3)
    net = belief_training.fit(data, {"game": "sniff", "model": "greedy"}, (32,), epochs=4, lr=0.05)
    history = net.meta["validation_bits"]
    assert len(history) == 4 and net.meta["params"][0] == 2
    held = slice(len(data["x"]) - len(data["x"]) // 10, None)
    m = LB.balanced(net.logits(data["x"][held]), data["hidden"][held], data["room"][held])
    bits = LB.log_loss_bits(m, data["truth"][held], data["hidden"][held]).mean()
    assert bits == pytest.approx(min(history), rel=1e-4), (bits, history)
    net.save(tmp_path / "net.npz")
    view = sniff_position(2, 8, 6).seat_view()
    beliefs = infer(view, learned=tmp_path / "net.npz", worlds=32, seed=1)
    np.testing.assert_allclose(beliefs.marginals.sum(axis=1), 1, atol=1e-6)
    assert beliefs.states(4, seed=2).shape == (4, view.array.shape[0])
