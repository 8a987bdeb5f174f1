"""Self-checks of the brute-force belief reference (tests/reference/belief_ref.py).

Hand-worked Bayes computations, conservation laws, the prior, and a cross-check against a naive
enumeration of every physical permutation of the hidden items.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations
from math import factorial, prod

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env.tiles import DRAW, TILES, encode_action

from .belief_ref import exact_marginals, exact_posterior, replay_likelihood

SIX_SIX = encode_action((6, 6), 0)  # opens the hand: the Sniff, two free line sides (S12-S13)


def sniff(hands: list, boneyard: list, opener: int = 0) -> sniff_env.Game:
    return sniff_env.Game(num_players=len(hands), seed=0, deal={"hands": hands, "boneyard": boneyard, "opener": opener})


def twelve(hands: list, stock: list, face_up: int, first: int = 0) -> twelve_env.Game:
    deal = {"hands": hands, "stock": stock, "face_up": face_up, "first_player": first}
    return twelve_env.Game(num_players=len(hands), seed=0, deal=deal)


def highest(view, p: float = 0.9) -> np.ndarray:
    """Plays the legal action with the highest pip count (Sniff) or rank ("12"), lowest id on
    ties, with probability ``p``; the other legal actions share the rest evenly."""
    legal = view.legal_actions()
    is_sniff = view.num_actions == DRAW + 2

    def key(a: int) -> int:
        return (sum(TILES[a // 4]) if a < DRAW else -1) if is_sniff else a

    best = max(legal, key=lambda a: (key(a), -a))
    out = np.zeros(view.num_actions)
    if len(legal) == 1:
        out[best] = 1.0
        return out
    out[legal] = (1 - p) / (len(legal) - 1)
    out[best] = p
    return out


def as_dict(posterior: list) -> dict:
    return {assignment: p for p, assignment in posterior}


# --- (a) Sniff worked by hand ---------------------------------------------------------------------------
def test_sniff_void_revealed_by_draws() -> None:
    # Seat 0 holds [6|6] [0|0]; hidden: A=[2|3] B=[3|4] C=[4|5] D=[0|2], [5|6], [1|6]; seat 1 has 2,
    # the boneyard 4. Seat 0 opens [6|6] (only 6 is open); seat 1 draws (S19: it held no 6), draws
    # again (the first drawn tile has no 6, else S20 would make it play it) and places [5|6],
    # which must be the 2nd boneyard tile. Of the C(6,2) * 4! = 360 physical deals, consistent:
    # hand = 2 of {A,B,C,D} (6) * boneyard[0] one of the 2 others (2) * order of the last two (2) = 24.
    # Afterwards seat 1 holds 3 of {A,B,C,D}, the boneyard the 4th and [1|6]; each missing tile X
    # arises from 3 * 2 of the 24 deals: each of the 4 assignments 1/4, so every one of A-D is in
    # seat 1 with 3/4 and [1|6] in the boneyard with 1.
    a, b, c, d = (2, 3), (3, 4), (4, 5), (0, 2)
    start = sniff([[(6, 6), (0, 0)], [a, b]], [c, (5, 6), (1, 6), d])
    actions = [SIX_SIX, DRAW, DRAW, encode_action((5, 6), 0)]
    posterior = exact_posterior(start, actions, 0)
    tiles = [a, b, c, d]
    expected = {(tuple(sorted(set(tiles) - {x})), tuple(sorted([x, (1, 6)]))): 0.25 for x in tiles}
    assert as_dict(posterior) == pytest.approx(expected)
    marginals = exact_marginals(start, actions, 0)
    assert marginals == pytest.approx(
        {**{(x, 0): 0.75 for x in tiles}, **{(x, 1): 0.25 for x in tiles}, ((1, 6), 0): 0.0, ((1, 6), 1): 1.0}
    )
    assert sum(naive_weights(start, actions, 0).values()) == 24  # consistent physical deals


def test_sniff_prob_fn_ratio_by_hand() -> None:
    # Seat 0 holds [6|6] [0|0]; hidden: [1|6] [5|6] [2|3] [0|4], seat 1 has 2, the boneyard 2.
    # Seat 0 opens [6|6]; seat 1 places [1|6] on arm 0 (action 48). Consistent: seat 1 holds [1|6]
    # and a partner p, each with 2 boneyard orders. Model `highest`: with p = [5|6] the legal moves
    # are [1|6] and [5|6] on arms 0/1 (48, 49, 104, 105); [5|6]@0 is highest (0.9), so 48 has
    # 0.1/3 = 1/30. With p = [2|3] or [0|4] only 48, 49 are legal; 48 wins the tie: 0.9.
    # Posterior ratio p=[5|6] : p=[2|3] = (1/30) : (9/10) = 1 : 27, so 1/55, 27/55, 27/55.
    start = sniff([[(6, 6), (0, 0)], [(1, 6), (2, 3)]], [(5, 6), (0, 4)])
    actions = [SIX_SIX, encode_action((1, 6), 0)]
    posterior = as_dict(exact_posterior(start, actions, 0, highest))
    with_56 = posterior[((5, 6),), ((0, 4), (2, 3))]
    with_23 = posterior[((2, 3),), ((0, 4), (5, 6))]
    assert with_23 / with_56 == pytest.approx(27)
    assert with_56 == pytest.approx(1 / 55) and posterior[((0, 4),), ((2, 3), (5, 6))] == pytest.approx(27 / 55)
    marginals = exact_marginals(start, actions, 0, highest)
    assert marginals[(5, 6), 0] == pytest.approx(1 / 55) and marginals[(5, 6), 1] == pytest.approx(54 / 55)
    # without a model the three partners are equally likely
    assert sorted(as_dict(exact_posterior(start, actions, 0)).values()) == pytest.approx([1 / 3] * 3)


# --- (b) "12" worked by hand, with rank multiplicities ------------------------------------------------
SEVEN, NINE, TWO, THREE, FOUR, Q, K = 6, 8, 1, 2, 3, 11, 12  # bridge rank ids


def test_twelve_rank_multiplicities_by_hand() -> None:
    # Seat 0 holds Q K; face-up 9; hidden physical cards 7a 7b 2 3 4: seat 1 has 2, the stock 3.
    # Seat 1 plays a 7 (7 + 9 = 16, no pair: T8 fails, T9 it draws stock[0]). So seat 1 held a 7:
    # physical hands with a 7: C(5,2) - C(3,2) = 7, namely {7a,7b} (1) and {7x,y}, y in {2,3,4} (6).
    # P({7,7}) = 1/7, P({7,y}) = 2/7 each. Then seat 1 keeps one card and draws uniformly from the
    # 3 physical cards left: after {7,7} it holds {7,y'} (1/21 each y'); after {7,y} it draws the
    # other 7 (1/3) or one of the two other small cards. Assignments (seat 1 | stock):
    #   {7,y} | rest: 1/21 + 2/21 = 1/7 each;   {y,w} | {7,v}: 2/21 + 2/21 = 4/21 each.
    # E[#7 in seat 1] = 3/7 (a uniform prior over rank-level deals would give 1/2 instead);
    # P(2 in seat 1) = 1/7 + 2 * 4/21 = 11/21.
    start = twelve([[Q, K], [SEVEN, TWO]], [SEVEN, THREE, FOUR], face_up=NINE, first=1)
    posterior = as_dict(exact_posterior(start, [SEVEN], 0))
    small = [TWO, THREE, FOUR]
    expected = {}
    for v in small:
        others = tuple(s for s in small if s != v)
        expected[tuple(sorted((SEVEN, v))), others] = 1 / 7
        expected[others, tuple(sorted((SEVEN, v)))] = 4 / 21
    assert posterior == pytest.approx(expected)
    marginals = exact_marginals(start, [SEVEN], 0)
    assert marginals[SEVEN, 0] == pytest.approx(3 / 7) and marginals[SEVEN, 1] == pytest.approx(4 / 7)
    assert marginals[TWO, 0] == pytest.approx(11 / 21)


# --- an independent, naive enumeration: every permutation of the labelled hidden items -------------------
def pile_of(game) -> list:
    return list(game.boneyard) if isinstance(game, sniff_env.Game) else list(game.stock)


def naive_weights(start, actions: list[int], seat: int, prob_fn=None) -> dict:
    """Unnormalised posterior over assignments: each permutation of the physical hidden items
    (copies of a "12" rank told apart by position) dealt to the other hands in seat order, then
    to the pile, weighs its likelihood; divided by prod(hand size!), the times each physical deal
    appears, a weight counts physical deals."""
    others = [s for s in range(start.num_players) if s != seat]
    hidden = [item for o in others for item in start.hand(o)] + pile_of(start)
    weights: dict = {}
    for order in permutations(hidden):
        hands, at = [], 0
        for s in range(start.num_players):
            size = len(start.hand(s)) if s != seat else 0
            hands.append(list(order[at : at + size]) if s != seat else start.hand(seat))
            at += size
        likelihood, assignment = replay_likelihood(start, actions, seat, hands, list(order[at:]), prob_fn)
        if assignment is not None:
            weights[assignment] = weights.get(assignment, 0) + likelihood
    scale = prod(factorial(len(start.hand(o))) for o in others)
    return {a: w / scale for a, w in weights.items()}


# --- small random positions ----------------------------------------------------------------------------------
def play_randomly(start, rng: random.Random, steps: int) -> list[int]:
    """Up to ``steps`` random legal actions, none of which ends the hand or the game."""
    game, actions = start.clone(), []
    for _ in range(steps):
        action = rng.choice(game.legal_actions())
        after = game.clone()
        after.apply(action)
        if after.is_terminal() or (isinstance(game, sniff_env.Game) and game.hand_as_ended(action) is not None):
            break
        game, actions = after, [*actions, action]
    return actions


def random_sniff(seed: int, sizes: tuple[int, ...], bone: int, steps: int) -> tuple:
    """Seat ``i`` is dealt ``sizes[i]`` random tiles, the boneyard ``bone``; seat 0 opens."""
    rng = random.Random(seed)
    tiles = rng.sample(TILES, sum(sizes) + bone)
    hands = [tiles[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    start = sniff(hands, tiles[sum(sizes) :])
    return start, play_randomly(start, rng, steps), rng.randrange(len(sizes))


def random_twelve(seed: int, players: int, hand: int, stock: int, steps: int) -> tuple:
    rng = random.Random(seed)  # few ranks, so ranks repeat, and sixes meet (T11)
    cards = rng.sample([r for r in (TWO, FOUR, 5, SEVEN, NINE) for _ in range(4)], players * hand + stock + 1)
    hands = [cards[i * hand : (i + 1) * hand] for i in range(players)]
    start = twelve(hands, cards[players * hand : -1], face_up=cards[-1], first=rng.randrange(players))
    return start, play_randomly(start, rng, steps), rng.randrange(players)


SMALL = [  # (maker, seed, hand size(s), pile, steps), at most 6 hidden items, for the naive check
    *[(random_sniff, seed, (2, 2), 4, 5) for seed in range(4)],
    *[(random_sniff, seed, (2, 1, 1), 3, 4) for seed in range(3)],
    *[(random_sniff, seed, (2, 1, 1, 1), 2, 4) for seed in range(3)],
    *[(random_twelve, seed, 2, 2, 4, 3) for seed in range(4)],
    *[(random_twelve, seed, 3, 2, 2, 3) for seed in range(2)],
]
LARGER = [
    *[(random_sniff, seed, (3, 3), 4, 6) for seed in range(3)],
    *[(random_sniff, seed, (2, 2, 2), 3, 5) for seed in range(2)],
    *[(random_sniff, seed, (2, 2, 2, 2), 2, 5) for seed in range(2)],
    *[(random_twelve, seed, 2, 3, 5, 4) for seed in range(3)],
    *[(random_twelve, seed, 3, 2, 3, 4) for seed in range(2)],
]


def case_id(case: tuple) -> str:
    return f"{case[0].__name__}-" + "-".join(map(str, case[1:]))


def position(case: tuple) -> tuple:
    """``(start, actions, seat, truth)``: the true game after the actions."""
    start, actions, seat = case[0](*case[1:])
    truth = start.clone()
    for action in actions:
        truth.apply(action)
    return start, actions, seat, truth


@pytest.mark.parametrize("model", [None, highest], ids=["uniform", "highest"])
@pytest.mark.parametrize("case", SMALL, ids=case_id)
def test_matches_naive_permutations(case: tuple, model) -> None:
    start, actions, seat, _ = position(case)
    naive = naive_weights(start, actions, seat, model)
    total = sum(naive.values())
    expected = {a: w / total for a, w in naive.items() if w}
    assert as_dict(exact_posterior(start, actions, seat, model)) == pytest.approx(expected)


# --- (c) conservation ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("model", [None, highest], ids=["uniform", "highest"])
@pytest.mark.parametrize("case", SMALL + LARGER, ids=case_id)
def test_marginals_conserve_items_and_place_sizes(case: tuple, model) -> None:
    start, actions, seat, truth = position(case)
    others = [s for s in range(truth.num_players) if s != seat]
    sizes = [len(truth.hand(o)) for o in others] + [len(pile_of(truth))]
    hidden = Counter(pile_of(truth)) + Counter(item for o in others for item in truth.hand(o))
    marginals = exact_marginals(start, actions, seat, model)
    assert set(marginals) == {(item, place) for item in hidden for place in range(len(sizes))}
    for item, count in hidden.items():  # Sniff: 1 each; "12": the hidden copies of the rank
        assert sum(marginals[item, place] for place in range(len(sizes))) == pytest.approx(count)
    for place, size in enumerate(sizes):
        assert sum(p for (_, where), p in marginals.items() if where == place) == pytest.approx(size)
    true_now = (*(tuple(sorted(truth.hand(o))) for o in others), tuple(sorted(pile_of(truth))))
    assert as_dict(exact_posterior(start, actions, seat, model)).get(true_now, 0) > 0


# --- (d) the prior --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", [c for c in SMALL + LARGER if c[1] == 0], ids=case_id)
def test_prior_is_proportional_to_place_sizes(case: tuple) -> None:
    start, _, seat = case[0](*case[1:])
    others = [s for s in range(start.num_players) if s != seat]
    sizes = [len(start.hand(o)) for o in others] + [len(pile_of(start))]
    hidden = Counter(pile_of(start)) + Counter(item for o in others for item in start.hand(o))
    expected = {
        (item, place): count * size / sum(sizes) for item, count in hidden.items() for place, size in enumerate(sizes)
    }
    assert exact_marginals(start, [], seat) == pytest.approx(expected)


def test_no_consistent_deal_raises() -> None:
    start = sniff([[(6, 6), (0, 0)], [(1, 6), (2, 3)]], [(5, 6), (0, 4)])
    with pytest.raises(ValueError, match="no deal is consistent"):
        exact_posterior(start, [SIX_SIX, encode_action((1, 6), 0)], 0, lambda view: np.zeros(view.num_actions))
