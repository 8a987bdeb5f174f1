"""The S4a variants, off by default: All Fives settlement and undrawn boneyard tiles."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sniff_env
from sniff_env import DRAW, PASS, Game, encode_action

BIG = 10_000


def test_variants_are_off_by_default():
    """Default settlement deducts (S24); every boneyard tile can be drawn (S19)."""
    g = Game(2, seed=0, target=BIG, deal={"hands": [[(1, 4)], [(6, 6)]], "boneyard": [], "opener": 0})
    g.apply(encode_action((1, 4), 0))  # 4 + 1 = 5: credit 5, domino
    assert g.scores == [5, -10]
    g = Game(2, seed=0, deal={"hands": [[(0, 0), (5, 5)], [(6, 6), (1, 2)]], "boneyard": [(3, 4)], "opener": 0})
    g.apply(encode_action((0, 0), 0))
    assert g.legal_actions() == [DRAW]


def test_all_fives_domino_scores_the_opponents_rounded_pips():
    """S4a: seat 0 goes out (credit 5); seat 1's [6|6] = 12 rounds to 10 and goes to seat 0."""
    g = Game(
        2, seed=0, target=BIG, settlement="allfives", deal={"hands": [[(1, 4)], [(6, 6)]], "boneyard": [], "opener": 0}
    )
    g.apply(encode_action((1, 4), 0))
    assert g.scores == [15, 0]
    assert g.events == [("credit", 0, 5), ("credit", 0, 10)]


def test_all_fives_partnership_rounds_each_opponent_hand_separately():
    """4 players: the opponents hold 3 and 3 pips: 5 + 5 = 10 to the team that went out (not
    round(6) = 5); the partner's own pips count for nobody."""
    hands = [[(2, 3)], [(0, 3)], [(4, 6), (5, 6)], [(1, 2)]]
    g = Game(4, seed=0, target=BIG, settlement="allfives", deal={"hands": hands, "boneyard": [], "opener": 0})
    g.apply(encode_action((2, 3), 0))  # 2 + 3 = 5: credit 5 for team 0+2, domino
    assert g.scores == [15, 0]


def test_all_fives_block_goes_to_the_lowest_hand():
    """Blocked: seat 1 has the fewest pips (3 < 10) and scores seat 0's rounded 10."""
    # seat 0 opens [0|0]; nobody holds a 0 and the boneyard is empty -> blocked at once
    g = Game(
        2,
        seed=0,
        target=BIG,
        settlement="allfives",
        deal={"hands": [[(0, 0), (4, 6)], [(1, 2)]], "boneyard": [], "opener": 0},
    )
    g.apply(encode_action((0, 0), 0))
    assert g.hands_played == 1
    assert g.scores == [0, 10]


def test_all_fives_block_with_tied_lowest_hands_scores_nothing():
    """Blocked after the opening [0|0]: seat 0 keeps [1|3] = 4, seat 1 holds [2|2] = 4 — a tie
    between sides, so nobody scores (decision); with [1|4] = 5 seat 0 would be lowest and score 5."""
    g = Game(
        2,
        seed=0,
        target=BIG,
        settlement="allfives",
        deal={"hands": [[(0, 0), (1, 3)], [(2, 2)]], "boneyard": [], "opener": 0},
    )
    g.apply(encode_action((0, 0), 0))
    assert g.hands_played == 1 and g.scores == [0, 0]
    g = Game(
        2,
        seed=0,
        target=BIG,
        settlement="allfives",
        deal={"hands": [[(0, 0), (1, 3)], [(1, 4)]], "boneyard": [], "opener": 0},
    )
    g.apply(encode_action((0, 0), 0))
    assert g.scores == [5, 0]


def test_all_fives_partners_tied_for_lowest_still_score():
    """Seats 0 and 2 (partners) both hold 4 pips, the fewest: their team scores the opponents'
    5 + 5 — a tie within one side is no tie between sides."""
    hands = [[(0, 0), (1, 3)], [(1, 4)], [(2, 2)], [(2, 3)]]
    g = Game(4, seed=0, target=BIG, settlement="allfives", deal={"hands": hands, "boneyard": [], "opener": 0})
    g.apply(encode_action((0, 0), 0))
    assert g.hands_played == 1 and g.scores == [10, 0]


def test_all_fives_settlement_can_win_the_match():
    """S25 with the variant: the settlement credit that reaches the target wins at once."""
    g = Game(
        2, seed=0, target=14, settlement="allfives", deal={"hands": [[(1, 4)], [(6, 6)]], "boneyard": [], "opener": 0}
    )
    g.apply(encode_action((1, 4), 0))
    assert g.is_terminal() and g.winner == 0 and g.scores == [15, 0]


@pytest.mark.parametrize("undrawn", [1, 2])
def test_undrawn_tiles_stay_in_the_boneyard(undrawn):
    """S4a: with ``undrawn`` tiles left the boneyard counts as empty: no DRAW, PASS is legal,
    and the hand is blocked (S21) with tiles still in it."""
    bone = [(3, 4), (2, 3), (2, 4)][: undrawn + 1]
    g = Game(
        2,
        seed=0,
        target=BIG,
        undrawn=undrawn,
        deal={"hands": [[(0, 0), (0, 5)], [(6, 6), (1, 2)]], "boneyard": bone, "opener": 0},
    )
    g.apply(encode_action((0, 0), 0))
    assert g.legal_actions() == [DRAW]  # one drawable tile beyond the undrawn ones
    g.apply(DRAW)  # [3|4] does not fit the 0s
    assert g.boneyard_size == undrawn
    assert g.legal_actions() == [PASS]  # seat 0 can still play [0|5], so no block yet
    g.apply(PASS)
    g.apply(encode_action((0, 5), 0))
    assert g.hands_played == 1, "blocked with tiles left undrawn"


def test_bad_variant_options_are_rejected():
    with pytest.raises(ValueError, match="settlement"):
        Game(2, settlement="allsixes")
    with pytest.raises(ValueError, match="undrawn"):
        Game(2, undrawn=3)
    with pytest.raises(ValueError, match="undrawn"):
        sniff_env.env(undrawn=-1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_variant_matches_conserve_tiles_and_score_their_events(players):
    for seed in range(30):
        g = Game(players, seed=seed, settlement="allfives", undrawn=seed % 3)
        rng = random.Random(seed)
        while not g.is_terminal():
            g.apply(rng.choice(g.legal_actions()))
            held = sum(len(g.hand(s)) for s in range(players))
            assert held + g.boneyard_size + len(g.describe()["tiles"]) == 28
        totals = [0] * len(g.scores)
        for kind, who, points in g.events:
            assert kind == "credit"
            totals[who] += points
        assert totals == g.scores


def test_vector_game_plays_the_variants_like_game():
    vg = sniff_env.VectorGame(4, num_players=4, seed=3, settlement="allfives", undrawn=2, reward="points")
    games = [vg.game(i) for i in range(4)]
    for _ in range(300):
        actions = vg.sample_actions().copy()
        before = [g.scores for g in games]
        for g, a in zip(games, actions, strict=True):
            g.apply(int(a))
            while not g.is_terminal() and (g.legal_mask()[DRAW] or g.legal_mask()[PASS]):
                g.apply(DRAW if g.legal_mask()[DRAW] else PASS)
        _, _, _, rewards, terminated, truncated = vg.step(actions)
        for i, g in enumerate(games):
            expected = [g.scores[g.side_of(s)] - before[i][g.side_of(s)] for s in range(4)]
            np.testing.assert_allclose(rewards[i], expected)
            if terminated[i] or truncated[i]:
                games[i] = vg.game(i)
            else:
                np.testing.assert_array_equal(vg.states[i], g.state_array)


def test_the_settlement_is_worded_as_settled():
    """S4a/S24 in words (the play screen's and the browser's hand's end): the deducting default names
    the pips deducted; All Fives names the pips counted and whom they went to."""
    from sniff_env.ui import play_settlement

    deal = {"hands": [[(1, 4)], [(6, 6)]], "boneyard": [], "opener": 0}
    deducted = Game(2, seed=0, target=BIG, deal=deal)
    deducted.apply(encode_action((1, 4), 0))
    assert play_settlement(deducted, 0) == (
        "hand 1 over (domino by you); pips deducted: seat 1 10\nscores: you: 5   seat 1: -10"
    )
    credited = Game(2, seed=0, target=BIG, settlement="allfives", deal=deal)
    credited.apply(encode_action((1, 4), 0))
    assert play_settlement(credited, 1) == (
        "hand 1 over (domino by seat 0); pips counted: you 10; seat 0 +10 (S4a)\nscores: seat 0: 15   you: 0"
    )
    tied = {"hands": [[(0, 0), (2, 3)], [(1, 4)]], "boneyard": [], "opener": 0}  # 5 pips each, no 0: blocked
    blocked = Game(2, seed=0, target=BIG, settlement="allfives", deal=tied)
    blocked.apply(encode_action((0, 0), 0))
    assert play_settlement(blocked, 0) == (
        "hand 1 over (blocked); pips counted: you 5, seat 1 5; a tie for the fewest, nobody scores (S4a)\n"
        "scores: you: 0   seat 1: 0"
    )
