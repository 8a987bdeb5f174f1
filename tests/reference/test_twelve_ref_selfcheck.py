"""Self-checks of the pure-Python "12" reference on its own (no engine involved)."""

import random

import pytest

from .twelve_ref import TwelveReference as T
from .twelve_ref import deal, deck_cards, deck_of, num_ranks

A, SIX, TEN, J, Q, K = 0, 5, 9, 10, 11, 12


def test_values():
    assert [T.value("bridge", r) for r in range(13)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11]
    assert [T.value("numbers", r) for r in range(11)] == list(range(1, 12))


def test_king_on_queen_is_no_capture_and_draws():
    g = T(2, "bridge", [[K, 2], [3, 4]], stock=[7, 8, 9], face_up=Q, first_player=0)
    g.apply(K)
    assert g.captured == [0, 0]
    assert g.pile == [Q, K]
    assert sorted(g.hands[0]) == [2, 7]
    assert g.stock == [8, 9]
    assert g.current_player == 1 and not g.over and not g.last_round


def test_king_on_king_pair_captures():
    g = T(2, "bridge", [[K, 2], [3, 4]], stock=[7, 8, 9], face_up=K, first_player=0)
    g.apply(K)
    assert g.captured == [2, 0]
    assert g.pile == [7] and g.stock == [8, 9]
    assert g.hands[0] == [2] and g.current_player == 1


@pytest.mark.parametrize("face", [J, Q, K])
def test_ace_on_face_card_captures(face):
    g = T(3, "bridge", [[A, 2], [3], [4]], stock=[7, 8, 9], face_up=face, first_player=0)
    g.apply(A)
    assert g.captured == [2, 0, 0]
    assert g.pile == [7] and g.current_player == 1


def test_sum_twelve_captures_whole_pile():
    # numbers deck: rank id r has value r + 1
    g = T(2, "numbers", [[3, 9], [1, 6]], stock=[0, 8, 7], face_up=2, first_player=0)
    g.apply(3)  # 4 on 3 = 7: no capture, p0 draws rank 0
    g.apply(1)  # 2 on 4 = 6: no capture, p1 draws rank 8
    assert g.pile == [2, 3, 1] and g.captured == [0, 0]
    g.apply(9)  # 10 on 2 = 12: p0 takes all four cards, rank 7 turned up
    assert g.captured == [4, 0] and g.pile == [7] and g.stock == []
    assert g.last_round and g.current_player == 1


def test_six_on_six_draws_in_order_before_turn_up():
    g = T(4, "bridge", [[2], [3], [SIX, 1], [4]], stock=[10, 11, 12, 7, 8, 9], face_up=SIX, first_player=2)
    g.apply(SIX)
    assert g.captured == [0, 0, 2, 0]
    # seats 3, 0, 1 draw J, Q, K in that order, then the 8 is turned face up
    assert g.hands[3] == [4, 10] and g.hands[0] == [2, 11] and g.hands[1] == [3, 12]
    assert g.hands[2] == [1]
    assert g.pile == [7] and g.stock == [8, 9]
    assert g.current_player == 3 and not g.last_round


def test_six_on_six_draws_empty_stock_ends_game():
    g = T(3, "bridge", [[SIX, 1], [2], [3]], stock=[10, 11], face_up=SIX, first_player=0)
    g.apply(SIX)
    assert g.over and g.pile == [] and g.stock == []
    assert g.hands == [[1], [2, 10], [3, 11]]
    assert g.scores() == [2 - 1, -2, -2]


def test_six_on_six_partial_draws():
    g = T(3, "bridge", [[SIX, 1], [2], [3]], stock=[10], face_up=SIX, first_player=0)
    g.apply(SIX)
    assert g.over and g.hands == [[1], [2, 10], [3]]


def test_last_round_each_player_exactly_one_turn_no_draw():
    # the draw of p0 empties the stock -> last round starts with p1: p1, p2, p0
    g = T(3, "bridge", [[1, 1, 1], [2, 2, 2], [3, 3, 3]], stock=[4], face_up=7, first_player=0)
    g.apply(1)  # 2 on 8: no capture, draws the 5 -> stock empty
    assert g.last_round and g.stock == [] and g.current_player == 1
    order = []
    while not g.over:
        order.append(g.current_player)
        g.apply(g.legal_actions()[0])  # 3 on 2, 4 on 3, then p0's 2 on 4: no captures
    assert order == [1, 2, 0]
    assert [len(h) for h in g.hands] == [2, 2, 2]  # 3 + 1 drawn - 2 played; 3 - 1; 3 - 1
    assert g.captured == [0, 0, 0] and g.legal_actions() == []


def test_turn_up_empties_stock_starts_last_round():
    g = T(2, "bridge", [[K, 1], [2, 3]], stock=[4], face_up=K, first_player=0)
    g.apply(K)  # pair, turns up the 5 -> stock empty -> last round from p1
    assert g.pile == [4] and g.last_round and g.current_player == 1 and not g.over


def test_capture_in_last_round_ends_game():
    g = T(2, "bridge", [[K, 1], [6, 3]], stock=[4], face_up=K, first_player=0)
    g.apply(K)  # last round, top is a 5, p1 holds a 7
    g.apply(6)  # 7 on 5 = 12 -> capture, no card to turn -> over
    assert g.over and g.captured == [2, 2] and g.pile == []
    assert g.scores() == [2 - 1, 2 - 1]


def test_last_card_ends_game_and_its_capture_counts():
    g = T(2, "bridge", [[K], [2, 3]], stock=[4, 5, 6], face_up=Q, first_player=0)
    g.apply(K)  # last card, no capture: game over, no draw
    assert g.over and g.hands[0] == [] and g.stock == [4, 5, 6] and g.pile == [Q, K]
    g = T(2, "bridge", [[A], [2, 3]], stock=[4, 5, 6], face_up=Q, first_player=0)
    g.apply(A)  # last card captures
    assert g.over and g.captured == [2, 0] and g.pile == [] and g.stock == [4, 5, 6]
    assert g.scores() == [2, -2]
    g = T(3, "bridge", [[SIX], [2], [3]], stock=[4, 5, 6], face_up=SIX, first_player=0)
    g.apply(SIX)  # last-card 6 on 6: no draws for the others
    assert g.over and g.hands == [[], [2], [3]] and g.stock == [4, 5, 6]


def test_extra_turn_variant():
    g = T(2, "bridge", [[K, 1], [2]], stock=[4, 5], face_up=K, first_player=0, capture_extra_turn=True)
    g.apply(K)
    assert g.current_player == 0 and g.pile == [4]


def test_illegal_actions_rejected():
    g = T(2, "bridge", [[K, 1], [2]], stock=[4, 5], face_up=Q, first_player=0)
    assert g.legal_actions() == [1, K]
    with pytest.raises(ValueError):
        g.apply(2)
    g.apply(1)
    g.apply(2)
    assert g.over
    with pytest.raises(ValueError):
        g.apply(K)


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_random_games_conserve_cards_and_terminate(deck):
    rng = random.Random(1234)
    n_ranks = 13 if deck == "bridge" else 11
    for _ in range(300):
        n = rng.randint(2, 7)
        cards = [r for r in range(n_ranks) for _ in range(4)]
        rng.shuffle(cards)
        hands = [cards[5 * i : 5 * i + 5] for i in range(n)]
        rest = cards[5 * n :]
        g = T(n, deck, hands, rest[1:], rest[0], rng.randrange(n), rng.random() < 0.5)
        for _ in range(len(cards) + 10 * n):
            if g.over:
                break
            g.apply(rng.choice(g.legal_actions()))
            total = sum(map(len, g.hands)) + len(g.stock) + len(g.pile) + sum(g.captured)
            assert total == len(cards)
            assert g.over or g.pile
        assert g.over
        assert sum(g.scores()) == sum(g.captured) - sum(map(len, g.hands))


# ---------------------------------------------------------------- the size dial (list decks, hand size)
def test_list_decks():
    """T1 with the size dial: values 1-11, each at most four times, as a list or ``"1,5,6"``;
    eleven ranks (rank id = value - 1) as in the number deck (T2)."""
    assert deck_of("1,6,5,6") == [1, 5, 6, 6] == deck_of((6, 5, 6, 1)) and deck_of("bridge") == "bridge"
    assert deck_cards([1, 6, 11, 6]) == [0, 5, 5, 10] and len(deck_cards("numbers")) == 44
    assert num_ranks([6, 6]) == 11 and num_ranks("bridge") == 13
    assert [T.value([1, 11], r) for r in (0, 5, 10)] == [1, 6, 11]
    for bad in ([], [0], [12], [6] * 5, "1,x", "jokers", 7):
        with pytest.raises(ValueError):
            deck_of(bad)


def test_a_list_deck_position_holds_only_its_cards():
    """T1: a position on a list deck may not use more of a value than the list holds."""
    T(2, [1, 5, 6, 6, 7, 11], [[5, 0], [5]], stock=[10], face_up=4, first_player=0)
    with pytest.raises(ValueError):
        T(2, [1, 5, 6, 6, 7, 11], [[5, 0], [5]], stock=[5], face_up=4, first_player=0)  # a third 6
    with pytest.raises(ValueError):
        T(2, [1, 5, 6, 6, 7, 11], [[5, 0], [5]], stock=[1], face_up=4, first_player=0)  # a 2
    with pytest.raises(ValueError):
        T(2, [1, 5, 6, 6, 7, 11], [[5, 11], [5]], stock=[], face_up=4, first_player=0)  # no rank 11


def test_six_on_six_with_a_list_deck():
    """T11 on a list deck: 6 on 6 captures, the other player draws the last stock card, so no card
    can be turned face up and the game ends (T14); T15 scores."""
    g = T(2, [1, 6, 6, 6, 6, 11], [[SIX, 0], [10]], stock=[SIX], face_up=SIX, first_player=0)
    g.apply(SIX)
    assert g.over and g.captured == [2, 0] and g.captured_cards == [[SIX, SIX], []]
    assert g.hands == [[0], [10, SIX]] and g.stock == [] and g.scores() == [1, -2]


@pytest.mark.parametrize(("n", "deck", "size", "stock"), [(2, [1, 5, 6, 6, 7, 11], 2, 1), (3, [6] * 4, 1, 0)])
def test_deal_of_a_small_table(n, deck, size, stock):
    """T5 with the size dial: ``size`` cards each, one face up, the rest the stock; a deck dealt
    out to its last card starts the last round at once (T13 Decision)."""
    d = deal(n, deck, random.Random(5), size)
    assert [len(h) for h in d["hands"]] == [size] * n and len(d["stock"]) == stock
    assert sorted([c for h in d["hands"] for c in h] + d["stock"] + [d["face_up"]]) == deck_cards(deck)
    g = T(n, deck, d["hands"], d["stock"], d["face_up"], d["first_player"])
    assert g.last_round == (stock == 0)
    with pytest.raises(ValueError):
        deal(n, deck, random.Random(5), (len(deck) - 1) // n + 1)  # no card left to turn face up


def test_random_list_deck_games_conserve_every_value():
    """T7-T11 move cards, never make or lose one: hands, stock, pile and captured cards hold the
    deck's cards value by value, for random list decks and hand sizes."""
    rng = random.Random(99)
    for _ in range(300):
        n = rng.randint(2, 7)
        deck = [v for v in range(1, 12) for _ in range(rng.randint(0, 4))] or [6, 6, 6]
        if len(deck) < n + 1:
            continue
        d = deal(n, deck, rng, rng.randint(1, (len(deck) - 1) // n))
        g = T(n, deck, d["hands"], d["stock"], d["face_up"], d["first_player"], rng.random() < 0.5)
        while not g.over:
            g.apply(rng.choice(g.legal_actions()))
            held = [c for h in g.hands for c in h] + g.stock + g.pile + [c for cs in g.captured_cards for c in cs]
            assert sorted(held) == deck_cards(deck)
        assert g.captured == [len(cs) for cs in g.captured_cards]
