"""Self-checks of the brute-force minimax reference (``minimax_ref``) on its own, no engine involved:
tiny positions whose values were worked out by hand from docs/rules.md (written as literal numbers),
and a cross-check of the memoised search against a naive, memo-free minimax on random small deals."""

from __future__ import annotations

import copy
import random

import pytest

from .minimax_ref import SniffMinimax, TooBigError, TwelveMinimax, clone, sniff_minimax, twelve_minimax
from .sniff_ref import DRAW, PASS, TILES, SniffHandReference, encode
from .twelve_ref import SIX, TwelveReference

A, TWO, THREE, FOUR, SEVEN, EIGHT, J, Q, K = 0, 1, 2, 3, 6, 7, 10, 11, 12  # bridge rank ids


def sniff(hands, boneyard=(), opener=0, scores=None, target=250, **variant) -> SniffHandReference:
    n = len(hands)
    scores = [0] * (2 if n == 4 else n) if scores is None else scores
    return SniffHandReference(n, hands, list(boneyard), opener, scores, target, **variant)


# ------------------------------------------------------------------------------------------ Sniff
def test_credit_versus_settlement():
    """S17, S21, S23, S24: opening [0|5] scores 5, then the hand is blocked: 12 pips round to 10 off
    the opponent (15); opening [1|1] scores 2 (nothing), blocked: own 5 pips off, the opponent's 10
    (5)."""
    g = sniff([[(0, 5), (1, 1)], [(6, 6)]])
    assert sniff_minimax(g) == (15, {encode((0, 5), 0): 15, encode((1, 1), 0): 5})


def test_win_stops_the_hand():
    """S25: with target 5 the opening credit of [0|5] wins at once: no settlement, value 5 only."""
    g = sniff([[(0, 5), (1, 1)], [(6, 6)]], target=5)
    assert sniff_minimax(g) == (5, {encode((0, 5), 0): 5, encode((1, 1), 0): 5})


def test_all_fives_settlement():
    """S4a: blocked, the lowest hand (2 pips, then 5 pips) scores the opponent's 12 rounded to 10."""
    for target in (250, 12):  # with target 12 the settlement credit wins (S25): the same points
        g = sniff([[(0, 5), (1, 1)], [(6, 6)]], target=target, settlement="allfives")
        assert sniff_minimax(g) == (15, {encode((0, 5), 0): 15, encode((1, 1), 0): 10})


def test_the_opponent_minimises():
    """Opening the Sniff [5|5] scores 10, but then the opponent answers [0|5] (10 for them), passes
    the turn back (S21: seat 0 passes) and goes out with [5|6] (16: nothing), leaving seat 0's 2
    pips (rounded to 0): net 0. Opening [1|1] blocks at once (S21): 10 and 16->15 deducted: +5."""
    g = sniff([[(5, 5), (1, 1)], [(0, 5), (5, 6)]])
    assert sniff_minimax(g) == (5, {encode((5, 5), 0): 0, encode((1, 1), 0): 5})
    g.apply(encode((5, 5), 0))  # from the opponent's side, after the opening: +10 for [0|5], 0 for [5|6]
    want = {encode((0, 5), 0): 10, encode((0, 5), 1): 10, encode((5, 6), 0): 0, encode((5, 6), 1): 0}
    assert sniff_minimax(g) == (10, want)


def test_paranoid_three_players():
    """Three players (paranoid): [4|4] blocks at once: -5 for seat 0 against -10 and -10 -> +15;
    [2|3] scores 5, then seat 1 goes out with [3|5] (7: nothing): -5 against 0 and -10 -> +5."""
    g = sniff([[(2, 3), (4, 4)], [(3, 5)], [(6, 6)]])
    assert sniff_minimax(g) == (15, {encode((2, 3), 0): 5, encode((4, 4), 0): 15})


def test_partnerships():
    """S1, S24: seat 0 goes out with 5; its partner's [4|4] (8 -> 10) is deducted from their own
    side, the opponents' 12 -> 10 and 2 -> 0 from theirs: (5 - 10) - (-10) = 5, for either side."""
    g = sniff([[(2, 3)], [(6, 6)], [(4, 4)], [(1, 1)]])
    assert sniff_minimax(g) == (5, {encode((2, 3), 0): 5})
    g = sniff([[(1, 1)], [(2, 3)], [(6, 6)], [(4, 4)]], opener=1)
    assert sniff_minimax(g) == (5, {encode((2, 3), 0): 5})


@pytest.mark.parametrize(
    ("variant", "value"),
    [
        ({}, 10),  # seat 0 then draws the [3|3] and the hand blocks: 14 -> 15 against 12 -> 10
        ({"undrawn": 1}, 5),  # the [3|3] stays undrawn: blocked at once, 8 -> 10 and 12 -> 10
        ({"settlement": "allfives"}, 20),  # blocked, seat 1 lowest (12 < 14): scores 14 -> 15
    ],
)
def test_mid_draw_root(variant, value):
    """S19, S20: seat 1 draws the playable [0|0] and must play it (the Sniff: 5 + 0, credit 5)."""
    g = sniff([[(0, 5), (4, 4)], [(6, 6)]], boneyard=[(0, 0), (3, 3)], **variant)
    g.apply(encode((0, 5), 0))
    assert g.legal_actions() == [DRAW]
    assert sniff_minimax(g) == (value, {DRAW: value})
    g.apply(DRAW)
    assert g.forced == (0, 0)
    assert sniff_minimax(g) == (value, {encode((0, 0), 0): value})


def test_pass_root():
    """S21: a root with only PASS: seat 1 passes, seat 0 goes out with [5|6] (5 + 6 + 0: nothing)."""
    g = sniff([[(5, 5), (5, 6)], [(1, 2)]])
    g.apply(encode((5, 5), 0))
    assert g.legal_actions() == [PASS]
    assert sniff_minimax(g) == (-5, {PASS: -5})  # seat 1: its own 3 pips -> 5 deducted (the 10 came before)


# ------------------------------------------------------------------------------------------- "12"
def test_twelve_last_round():
    """T13 (stock empty from the deal): K on Q draws nothing and the opponent's A captures 3 cards
    with their last card: -3; the 2 instead leaves them no capture: 0."""
    g = TwelveReference(2, "bridge", [[K, TWO], [A]], [], Q, 0)
    assert twelve_minimax(g) == (0, {TWO: 0, K: -3})


def test_twelve_paranoid_six_on_six():
    """T11 with three players: 6 on 6 captures 2, seats 1 and 2 draw the J and Q, the 5 is turned up
    and the last round begins (T13); seat 2 then keeps its Q off seat 0's A (A + Q = 12): +4. The A
    instead draws and lets seat 1 go out at once: -1."""
    g = TwelveReference(3, "bridge", [[SIX, A], [TWO], [THREE]], [J, Q, FOUR], SIX, 0)
    assert twelve_minimax(g) == (4, {A: -1, SIX: 4})


@pytest.mark.parametrize(("extra", "value"), [(True, 4), (False, 2)])
def test_twelve_extra_turn(extra, value):
    """T10: K on K captures 2; with the variant seat 0 moves again and goes out (+4), without it the
    opponent goes out first (+2). The 3 instead draws and the opponent goes out: -1."""
    g = TwelveReference(2, "bridge", [[K, THREE], [FOUR]], [SEVEN, EIGHT], K, 0, capture_extra_turn=extra)
    assert twelve_minimax(g) == (value, {THREE: -1, K: value})


# ------------------------------------------------------------------------------- search mechanics
def naive(game, scores, maximising) -> int:
    """Plain minimax of the utility at the end (no memo, deepcopy, the root's own point of view)."""
    if game.over:
        return scores(game)
    values = []
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        child.apply(action)
        values.append(naive(child, scores, maximising))
    return max(values) if maximising(game) else min(values)


def naive_values(game, two_sided: bool, side_of, score_list) -> dict[int, int]:
    root = game.current_player
    if two_sided:
        me = side_of(root)

        def scores(g):
            s = score_list(g)
            return s[me] - s[1 - me]

        def maximising(g):
            return side_of(g.current_player) == me
    else:

        def scores(g):
            s = score_list(g)
            return s[root] - (sum(s) - s[root])

        def maximising(g):
            return g.current_player == root

    now = scores(game)
    out = {}
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        child.apply(action)
        out[action] = naive(child, scores, maximising) - now
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_sniff_memo_matches_naive_minimax(n):
    """The memoised search (side-0 memo, negated for side 1) equals plain minimax, also when one
    memo serves every root along a random line of play."""
    rng = random.Random(n)
    checked = 0
    for _ in range(60):
        tiles = list(TILES)
        rng.shuffle(tiles)
        hands = [tiles[3 * s : 3 * s + rng.randint(1, 3)] for s in range(n)]
        variant = {"settlement": rng.choice(["deduct", "allfives"]), "undrawn": rng.randint(0, 2)}
        boneyard, opener = tiles[12 : 12 + rng.randint(0, 3)], rng.randrange(n)
        g = sniff(hands, boneyard, opener, target=rng.choice([5, 15, 250]), **variant)
        memo = SniffMinimax()
        while not g.over:
            want = naive_values(g, n != 3, g.side_of, lambda x: x.scores)
            got = memo.solve(g)
            assert got.action_values == want and got.value == max(want.values())
            assert sorted(got.best) == sorted(a for a, v in want.items() if v == got.value)
            checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 100


@pytest.mark.parametrize("n", [2, 3, 5])
def test_twelve_memo_matches_naive_minimax(n):
    rng = random.Random(10 + n)
    checked = 0
    for i in range(60):
        cards = [r for r in range(13) for _ in range(4)]
        rng.shuffle(cards)
        hands = [cards[3 * s : 3 * s + rng.randint(1, 3 if n < 5 else 2)] for s in range(n)]
        stock = cards[3 * n + 1 : 3 * n + 1 + rng.randint(0, 3)]
        g = TwelveReference(n, "bridge", hands, stock, cards[3 * n], rng.randrange(n), capture_extra_turn=i % 2 == 1)
        memo = TwelveMinimax()
        while not g.over:
            want = naive_values(g, n == 2, lambda seat: seat, lambda x: x.scores())
            got = memo.solve(g)
            assert got.action_values == want and got.value == max(want.values())
            checked += 1
            g.apply(rng.choice(g.legal_actions()))
    assert checked > 100


def test_clone_is_independent_and_budget_is_enforced():
    g = sniff([[(5, 5), (1, 1)], [(0, 5), (5, 6)]], boneyard=[(2, 2)])
    c = clone(g)
    c.apply(encode((5, 5), 0))
    assert g.placed == [] and g.hands[0] == [(5, 5), (1, 1)] and g.scores == [0, 0]
    assert c.__dict__ != g.__dict__ and clone(c).__dict__ == c.__dict__
    with pytest.raises(TooBigError):
        SniffMinimax(max_nodes=1).solve(g)
    with pytest.raises(ValueError):
        over = sniff([[(2, 3)], [(6, 6)]])
        over.apply(encode((2, 3), 0))  # domino
        SniffMinimax().solve(over)
