"""Invariants of ``sniff_env.Game`` over random seeds, player counts, deals and action choices
(hypothesis). Each property cites the rules or docs/api.md clause it guards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sniff_env import DRAW, TILES, Game, encode_action
from sniff_env.observation import OBS_FIELDS, OBS_SIZE, write_observation

pytestmark = pytest.mark.slow

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
players = st.sampled_from([2, 3, 4])
seeds = st.integers(0, 2**32 - 1)
targets = st.sampled_from([None, 60, 120])


def random_match(n, seed, target, rnd: random.Random, **kw):
    """Yield the game before every action of a random match, and once more at the end."""
    game = Game(num_players=n, seed=seed, target=target, **kw)
    while not game.is_terminal():
        yield game
        game.apply(rnd.choice(game.legal_actions()))
    yield game


@st.composite
def partial_deals(draw):
    """A first hand with any non-empty hand sizes and boneyard length; the rest is out of play (docs/api.md)."""
    n = draw(players)
    tiles = list(draw(st.permutations(TILES)))
    sizes = [draw(st.integers(1, 7)) for _ in range(n)]
    hands = []
    for size in sizes:
        hands.append(tiles[:size])
        tiles = tiles[size:]
    bone = tiles[: draw(st.integers(0, len(tiles)))]
    return n, {"hands": hands, "boneyard": bone, "opener": draw(st.integers(0, n - 1))}


def side_totals(game: Game) -> list[int]:
    totals = [0] * len(game.scores)
    for kind, who, points in game.events:
        if kind == "credit":
            totals[who] += points
        else:
            totals[game.side_of(who)] -= points
    return totals


@SETTINGS
@given(partial_deals(), seeds, st.randoms(use_true_random=False))
def test_tiles_conserved(deal_spec, seed, rnd):
    """S2/S5: hands + boneyard + table + out-of-play always make the 28 tiles, disjointly."""
    n, deal = deal_spec
    dealt = [t for h in deal["hands"] for t in h] + list(deal["boneyard"])
    out_of_play = [t for t in TILES if t not in dealt]
    for game in random_match(n, seed, 60, rnd, deal=deal):
        if game.is_terminal():
            break
        out = out_of_play if game.hands_played == 0 else []
        parts = [t for s in range(n) for t in game.hand(s)] + game.boneyard + game.describe()["tiles"] + out
        assert len(parts) == 28 and set(parts) == set(TILES)


@SETTINGS
@given(players, seeds, targets, st.randoms(use_true_random=False))
def test_mask_never_empty_while_live(n, seed, target, rnd):
    """S18–S21: a live game always offers a move (place, DRAW or PASS); a finished one offers none."""
    for game in random_match(n, seed, target, rnd):
        mask = game.legal_mask()
        assert mask.shape == (114,) and mask.dtype == np.bool_
        if game.is_terminal():
            assert not mask.any() and game.legal_actions() == []
        else:
            assert mask.any()
            assert game.legal_actions() == np.flatnonzero(mask).tolist()


@SETTINGS
@given(players, seeds, targets, st.randoms(use_true_random=False))
def test_scores_equal_sum_of_events(n, seed, target, rnd):
    """S17/S24: each side's score is its credits minus its seats' deductions, as listed in events."""
    for game in random_match(n, seed, target, rnd):
        assert side_totals(game) == game.scores, game.history[-5:]


@SETTINGS
@given(players, seeds, st.integers(0, 80), st.randoms(use_true_random=False))
def test_clone_is_independent(n, seed, moves, rnd):
    """docs/api.md: clone() is an independent copy; playing on the clone leaves the original unchanged."""
    game = Game(num_players=n, seed=seed)
    for _ in range(moves):
        if game.is_terminal():
            break
        game.apply(rnd.choice(game.legal_actions()))
    state, history, events = np.array(game.state_array), list(game.history), list(game.events)
    copy = game.clone()
    assert np.array_equal(copy.state_array, state) and copy.history == history
    for _ in range(30):
        if copy.is_terminal():
            break
        copy.apply(rnd.choice(copy.legal_actions()))
    assert np.array_equal(game.state_array, state)
    assert game.history == history and game.events == events


@SETTINGS
@given(players, seeds, st.integers(0, 2**32 - 1))
def test_same_seed_same_game(n, seed, choice_seed):
    """S5/S6: the deal and every later deal or lot come from the seed: same seed + same moves = same game."""
    a, b = Game(num_players=n, seed=seed), Game(num_players=n, seed=seed)
    ra, rb = random.Random(choice_seed), random.Random(choice_seed)
    while not a.is_terminal():
        assert np.array_equal(a.state_array, b.state_array)
        a.apply(ra.choice(a.legal_actions()))
        b.apply(rb.choice(b.legal_actions()))
    assert b.is_terminal() and a.scores == b.scores and a.history == b.history


def test_observation_fields_contiguous():
    """Observation layout: OBS_FIELDS are contiguous, start at 0 and cover OBS_SIZE."""
    offset = 0
    for _name, start, size in OBS_FIELDS:
        assert start == offset and size > 0
        offset += size
    assert offset == OBS_SIZE
    assert {name for name, _, _ in OBS_FIELDS} >= {"hand", "table", "boneyard_size", "hand_sizes", "known_voids"}


def field(obs: np.ndarray, name: str) -> np.ndarray:
    (start, size) = next((s, z) for nm, s, z in OBS_FIELDS if nm == name)
    return obs[start : start + size]


def one_hot(tiles) -> np.ndarray:
    v = np.zeros(28, dtype=np.float32)
    for t in tiles:
        v[TILES.index(t)] = 1
    return v


@SETTINGS
@given(players, seeds, targets, st.randoms(use_true_random=False))
def test_observation_agrees_with_game(n, seed, target, rnd):
    """Observation fields (hand, table, boneyard size, hand sizes, known voids, scores) match the accessors."""
    obs = np.empty(OBS_SIZE, dtype=np.float32)
    for game in random_match(n, seed, target, rnd):
        if game.is_terminal() or len(game.history) % 3:
            continue
        for me in range(n):
            write_observation(game.state_array, game._params, me, obs)
            assert np.array_equal(field(obs, "hand"), one_hot(game.hand(me)))
            assert np.array_equal(field(obs, "table"), one_hot(game.describe()["tiles"]))
            assert field(obs, "boneyard_size")[0] == game.boneyard_size
            sizes = [len(game.hand((me + r) % n)) for r in range(1, n)] + [0] * (4 - n)
            assert field(obs, "hand_sizes").tolist() == sizes
            voids = field(obs, "known_voids").reshape(3, 7)
            for r in range(1, n):
                assert np.flatnonzero(voids[r - 1]).tolist() == game.known_voids((me + r) % n)
            scores = [game.scores[game.side_of((me + r) % n)] / game.target for r in range(n)]
            assert np.allclose(field(obs, "scores")[:n], scores)


@SETTINGS
@given(players, seeds, targets, st.randoms(use_true_random=False))
def test_known_voids_are_true(n, seed, target, rnd):
    """S19/S21: a pip is only listed as known void for a seat if that seat really holds no tile with it."""
    for game in random_match(n, seed, target, rnd):
        for seat in range(n):
            pips = {p for tile in game.hand(seat) for p in tile}
            assert not set(game.known_voids(seat)) & pips, (seat, game.known_voids(seat), game.hand(seat))


def test_known_voids_after_drawing_a_playable_tile():
    """S19/S20: after [2|5] seat 1 (holding [0|0]) draws [5|6], which fits: seat 1 now holds a 5,
    so 5 must not be listed as a known void (2 may be: no tile of seat 1 has a 2)."""
    g = Game(num_players=2, seed=0, deal={"hands": [[(2, 5), (6, 6)], [(0, 0)]], "boneyard": [(5, 6)], "opener": 0})
    g.apply(encode_action((2, 5), 0))
    g.apply(DRAW)
    assert g.hand(1) == [(0, 0), (5, 6)]
    assert 5 not in g.known_voids(1)
