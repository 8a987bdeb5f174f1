"""Scripted positions for every rule of "12" (docs/rules.md Part T, T1–T15 with the Decisions).

Every expectation below is worked out by hand from the rule it cites. Bridge rank ids are
A, 2, …, 10, J, Q, K = 0 … 12 (docs/api.md); number-deck id ``v - 1`` is the card of value ``v``.
Hands read back from ``Game.hand`` are sorted rank ids; the stock is drawn front first.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from gymnasium import spaces

import twelve_env
from twelve_env import Game, card_value, rank_name

A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K = range(13)
BRIDGE_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
# T2, written out by hand: A 1, 2–10 face value, J/Q/K 11; the number deck is 1–11.
BRIDGE_VALUES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11]
NUMBER_VALUES = list(range(1, 12))
DECKS = {"bridge": (13, BRIDGE_VALUES), "numbers": (11, NUMBER_VALUES)}


def num(value: int) -> int:
    """Rank id of the number-deck card worth ``value``."""
    return value - 1


def make(hands, stock, face_up, first=0, deck="bridge", extra=False) -> Game:
    deal = {"hands": hands, "stock": stock, "face_up": face_up, "first_player": first}
    return Game(num_players=len(hands), deck=deck, deal=deal, capture_extra_turn=extra)


def hands(g: Game) -> list[list[int]]:
    return [g.hand(s) for s in range(g.num_players)]


def all_cards(g: Game) -> Counter:
    """Every card not captured: hands, pile and stock, per rank."""
    cards = Counter(g.pile) + Counter(g.stock)
    for s in range(g.num_players):
        cards += Counter(g.hand(s))
    return cards


# ------------------------------------------------------------------------------------------- T1
@pytest.mark.parametrize("n", range(2, 8))
@pytest.mark.parametrize(("deck", "size"), [("bridge", 52), ("numbers", 44)])
def test_t1_deck_composition(deck, size, n):
    """T1: the bridge deck is 13 ranks × 4 = 52 cards, the number deck 11 values × 4 = 44; suits are
    ignored, so a fresh deal holds every rank exactly four times."""
    ranks = DECKS[deck][0]
    for seed in range(3):
        g = Game(num_players=n, deck=deck, seed=seed)
        cards = all_cards(g)
        assert sum(cards.values()) == size == 4 * ranks
        assert cards == Counter({r: 4 for r in range(ranks)})
        assert sum(g.captured) == 0


@pytest.mark.parametrize(("deck", "ranks"), [("bridge", 13), ("numbers", 11)])
def test_t1_action_spaces(deck, ranks):
    """T1/docs/api.md: one action per rank — Discrete(13) for the bridge deck, Discrete(11) for numbers."""
    g = Game(num_players=3, deck=deck, seed=4)
    assert g.num_actions == ranks
    assert g.legal_mask().shape == (ranks,)
    e = twelve_env.env(num_players=3, deck=deck)
    for agent in e.possible_agents:
        assert e.action_space(agent) == spaces.Discrete(ranks)
        assert e.observation_space(agent)["action_mask"].shape == (ranks,)


def test_t1_unknown_deck_rejected():
    """T1: only "bridge" and "numbers" exist; anything else is a ValueError naming them."""
    for bad in ("tarot", "Bridge", None, 52):
        with pytest.raises(ValueError, match="bridge"):
            Game(num_players=2, deck=bad)


# ------------------------------------------------------------------------------------------- T2
def test_t2_card_values():
    """T2: Ace 1, 2–10 face value, Jack/Queen/King 11 each; number cards are their value."""
    assert [card_value("bridge", r) for r in range(13)] == BRIDGE_VALUES
    assert [card_value("numbers", r) for r in range(11)] == NUMBER_VALUES
    assert [rank_name("bridge", r) for r in range(13)] == BRIDGE_NAMES
    assert [rank_name("numbers", r) for r in range(11)] == [str(v) for v in range(1, 12)]


@pytest.mark.parametrize("face", [J, Q, K])
def test_t2_face_cards_count_eleven(face):
    """T2+T8: J, Q and K count 11, so an Ace (1) on any of them makes 12 and captures, and so does
    the face card played on an Ace; a 2 on a face card makes 13 and does not."""
    g = make([[A, THREE], [FOUR]], [EIGHT, NINE], face)
    g.apply(A)
    assert g.captured == [2, 0]
    g = make([[face, THREE], [FOUR]], [EIGHT, NINE], A)
    g.apply(face)
    assert g.captured == [2, 0]
    g = make([[TWO, THREE], [FOUR]], [EIGHT, NINE], face)
    g.apply(TWO)
    assert g.captured == [0, 0] and g.pile == [face, TWO]


def test_t2_ten_is_worth_ten():
    """T2: the 10 counts 10 — a 2 on it makes 12 (capture), an Ace on it 11 (no capture)."""
    g = make([[TWO, THREE], [FOUR]], [EIGHT, NINE], TEN)
    g.apply(TWO)
    assert g.captured == [2, 0]
    g = make([[A, THREE], [FOUR]], [EIGHT, NINE], TEN)
    g.apply(A)
    assert g.captured == [0, 0]


# ------------------------------------------------------------------------------------------- T3
def test_t3_king_on_queen_is_no_pair():
    """T3: a pair is by rank — King on Queen is no pair although both count 11 (22, not 12): the King
    stays on the pile and the player draws (T9)."""
    g = make([[K, TWO], [THREE]], [SEVEN, EIGHT], Q)
    g.apply(K)
    assert g.captured == [0, 0]
    assert g.pile == [Q, K]
    assert g.hand(0) == [TWO, SEVEN]


def test_t3_king_on_king_is_a_pair():
    """T3: King on King is a pair and captures (T8)."""
    g = make([[K, TWO], [THREE]], [SEVEN, EIGHT], K)
    g.apply(K)
    assert g.captured == [2, 0]
    assert g.hand(0) == [TWO]


@pytest.mark.parametrize(("a", "b"), [(J, Q), (Q, J), (J, K), (K, J), (Q, K)])
def test_t3_mixed_face_cards_never_pair(a, b):
    """T3: J, Q, K are three different ranks; two different ones never pair."""
    g = make([[a, TWO], [THREE]], [SEVEN, EIGHT], b)
    g.apply(a)
    assert g.captured == [0, 0] and g.pile == [b, a]


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_t3_t8_capture_table(deck):
    """T3/T8, every top card × every played card: capture exactly when the ranks are equal or the
    values (T2) sum to 12; with the number deck rank and value coincide."""
    ranks, values = DECKS[deck]
    for top in range(ranks):
        for played in range(ranks):
            filler = next(r for r in range(ranks) if r not in (top, played))
            g = make([[played, filler], [filler]], [filler, filler], top, deck=deck)
            g.apply(played)
            expected = played == top or values[played] + values[top] == 12
            where = f"{rank_name(deck, played)} on {rank_name(deck, top)}"
            if expected:
                assert g.captured == [2, 0], where
                assert g.pile == [filler] and g.hand(0) == [filler], where
            else:
                assert g.captured == [0, 0], where
                assert g.pile == [top, played] and g.hand(0) == [filler, filler], where


def test_t3_numbers_pair_is_value():
    """T3: with the number deck an 11 on an 11 is a pair, and 11 on 1 sums to 12."""
    g = make([[num(11), num(2)], [num(3)]], [num(7), num(8)], num(11), deck="numbers")
    g.apply(num(11))
    assert g.captured == [2, 0]
    g = make([[num(11), num(2)], [num(3)]], [num(7), num(8)], num(1), deck="numbers")
    g.apply(num(11))
    assert g.captured == [2, 0]


# ------------------------------------------------------------------------------------------- T4
@pytest.mark.parametrize("n", range(2, 8))
def test_t4_two_to_seven_players(n):
    """T4: 2 to 7 players are accepted with both decks."""
    for deck in ("bridge", "numbers"):
        g = Game(num_players=n, deck=deck, seed=n)
        assert g.num_players == n
        assert len(g.scores) == n and len(g.captured) == n


@pytest.mark.parametrize("n", [1, 8, 0, -2, 2.0, "3", None, True])
def test_t4_other_player_counts_rejected(n):
    """T4: anything but an integer 2–7 is a ValueError naming the option."""
    with pytest.raises(ValueError, match="num_players"):
        Game(num_players=n)
    with pytest.raises(ValueError, match="num_players"):
        twelve_env.env(num_players=n)


# ------------------------------------------------------------------------------------------- T5
@pytest.mark.parametrize("n", range(2, 8))
@pytest.mark.parametrize(("deck", "size"), [("bridge", 52), ("numbers", 44)])
def test_t5_five_cards_each_and_one_face_up(deck, size, n):
    """T5: 5 cards each, one card turned face up, the rest (size − 5n − 1) is the stock."""
    for seed in range(5):
        g = Game(num_players=n, deck=deck, seed=seed)
        assert [len(g.hand(s)) for s in range(n)] == [5] * n
        assert len(g.pile) == 1
        assert g.stock_size == len(g.stock) == size - 5 * n - 1
        assert not g.last_round and g.turns_left is None
        assert g.captured == [0] * n and g.history == []


def test_t5_face_up_card_comes_from_the_stock_top():
    """T5: the face-up card is the stock's top card: in the compiled state (kernels.py layout) the
    dealt stock starts with the face-up card and the remaining stock is the rest, in order."""
    from twelve_env import kernels as K

    for seed in range(20):
        g = Game(num_players=3, seed=seed)
        s = g.state_array
        dealt = s[K.STOCK : K.STOCK + s[K.STOCK_LEN]].tolist()
        assert dealt[0] == g.pile[0]
        assert dealt[1:] == g.stock


def test_t5_deal_option_sets_position():
    """T5/docs/api.md: a given deal is used as is — hands, stock front first, the face-up card; cards left
    out are out of play."""
    g = make([[A, TWO, THREE], [FOUR]], [FIVE, SIX, SEVEN], EIGHT, first=1)
    assert hands(g) == [[A, TWO, THREE], [FOUR]]
    assert g.stock == [FIVE, SIX, SEVEN] and g.stock_size == 3
    assert g.pile == [EIGHT]
    assert g.current_player == 1 == g.first_player
    assert not g.last_round


def test_t5_deal_with_four_copies_is_accepted():
    """T1/T5: exactly four cards of a rank in a deal is fine (it is the whole rank)."""
    g = make([[K, K], [K]], [TWO], K)
    assert hands(g) == [[K, K], [K]]


# ------------------------------------------------------------------------------------------- T6
def test_t6_turns_pass_in_seat_order_from_first_player():
    """T6: play goes in seat order from the first player, wrapping around: 2, 3, 0, 1, then 2 again.

    3 on K = 14, 4 on 3 = 7, 2 on 4 = 6, 3 on 2 = 5: no captures, everyone draws an Ace."""
    g = make([[TWO, TWO], [TWO, THREE], [THREE, THREE], [FOUR, FOUR]], [A, A, A, A, FIVE], K, first=2)
    seats = []
    for card in (THREE, FOUR, TWO, THREE):
        seats.append(g.current_player)
        g.apply(card)
    assert seats == [2, 3, 0, 1]
    assert g.current_player == 2
    assert g.captured == [0, 0, 0, 0]
    assert hands(g) == [[A, TWO], [A, TWO], [A, THREE], [A, FOUR]]
    assert g.stock == [FIVE]


@pytest.mark.parametrize("n", range(2, 8))
def test_t6_first_player_from_seed(n):
    """T6: without a deal the seed picks the first player: reproducibly, and every seat can start."""
    firsts = set()
    for seed in range(40 * n):
        g = Game(num_players=n, seed=seed)
        assert g.current_player == g.first_player
        assert Game(num_players=n, seed=seed).first_player == g.first_player
        firsts.add(g.first_player)
    assert firsts == set(range(n))


def test_t6_first_player_from_deal():
    """T6: the deal's first_player starts; without one, seat 0 does."""
    for first in range(4):
        g = make([[A], [TWO], [THREE], [FOUR]], [FIVE], SEVEN, first=first)
        assert g.current_player == first == g.first_player
    g = Game(num_players=2, deal={"hands": [[A], [TWO]], "stock": [FIVE], "face_up": SEVEN})
    assert g.current_player == 0 == g.first_player


# ------------------------------------------------------------------------------------------- T7
def test_t7_legal_actions_are_the_ranks_held():
    """T7: the player to act must play a card they hold: the legal actions are exactly the distinct
    ranks in that hand (the mask has one flag per rank)."""
    g = make([[A, K, K, FIVE], [TWO, THREE]], [SEVEN, SEVEN], NINE)
    assert g.legal_actions() == [A, FIVE, K]
    mask = np.zeros(13, dtype=bool)
    mask[[A, FIVE, K]] = True
    assert (g.legal_mask() == mask).all()
    g.apply(K)  # K on 9 = 20: no capture, draws a 7
    assert g.current_player == 1
    assert g.legal_actions() == [TWO, THREE]


def test_t7_card_not_held_is_illegal():
    """T7: playing a rank one does not hold (or another seat's card) raises ValueError."""
    g = make([[A, K], [TWO, THREE]], [SEVEN, SEVEN], NINE)
    for bad in (TWO, THREE, Q, FIVE):
        with pytest.raises(ValueError):
            g.apply(bad)


# ------------------------------------------------------------------------------------------- T8
@pytest.mark.parametrize(("played", "top"), [(FIVE, SEVEN), (SEVEN, FIVE), (TWO, TEN), (FOUR, EIGHT), (THREE, NINE)])
def test_t8_sum_twelve_captures(played, top):
    """T8: values summing to 12 (5 on 7, 7 on 5, 2 on 10, 4 on 8, 3 on 9) capture."""
    g = make([[played, K], [Q]], [J, A], top)
    g.apply(played)
    assert g.captured == [2, 0]


def test_t8_capture_takes_whole_pile_including_played_card():
    """T8: the capture takes the whole face-up pile and the card just played.

    7 face up; seat 0 plays 2 (9, draws K); seat 1 plays 5 (7, draws Q); seat 0 plays 7 on the 5:
    12, takes 7, 2, 5, 7 = 4 cards; the next stock card (J) is turned (T10)."""
    g = make([[TWO, SEVEN, FOUR], [FIVE, EIGHT, NINE]], [K, Q, J, THREE, EIGHT], SEVEN)
    g.apply(TWO)
    g.apply(FIVE)
    assert g.pile == [SEVEN, TWO, FIVE]
    g.apply(SEVEN)
    assert g.captured == [4, 0]
    assert g.pile == [J]
    assert g.stock == [THREE, EIGHT]
    assert hands(g) == [[FOUR, K], [EIGHT, NINE, Q]]


def test_t8_capture_is_automatic():
    """T8 Decision: the capture is never declined — a capturing play always takes the pile."""
    g = make([[SEVEN, SEVEN], [A]], [TWO, THREE], FIVE)
    g.apply(SEVEN)
    assert g.captured == [2, 0] and g.pile == [TWO]


# ------------------------------------------------------------------------------------------- T9
def test_t9_no_capture_card_stays_and_one_card_is_drawn():
    """T9: no 12 and no pair — the card stays on the pile and the player draws exactly the next
    stock card; nothing is captured and play passes on."""
    g = make([[TWO, THREE, FOUR], [FIVE, EIGHT, NINE]], [K, Q, J], SEVEN)
    g.apply(TWO)  # 2 on 7 = 9
    assert g.pile == [SEVEN, TWO]
    assert hands(g) == [[THREE, FOUR, K], [FIVE, EIGHT, NINE]]
    assert g.stock == [Q, J] and g.stock_size == 2
    assert g.captured == [0, 0] and g.current_player == 1
    g.apply(FIVE)  # 5 on 2 = 7
    assert g.pile == [SEVEN, TWO, FIVE]
    assert g.hand(1) == [EIGHT, NINE, Q]
    assert g.stock == [J]


# ------------------------------------------------------------------------------------------ T10
def test_t10_after_capture_new_card_turned_and_next_player_plays():
    """T10: after a capture the next stock card starts a new pile and the next player acts."""
    g = make([[K, TWO], [THREE, FOUR], [FIVE, SIX]], [EIGHT, NINE, TEN], K)
    g.apply(K)
    assert g.captured == [2, 0, 0]
    assert g.pile == [EIGHT] and g.stock == [NINE, TEN]
    assert g.current_player == 1
    assert hands(g) == [[TWO], [THREE, FOUR], [FIVE, SIX]]  # the capturer draws nothing (T9 only)


def test_t10_variant_capture_extra_turn():
    """T10 variant (capture_extra_turn): the capturer plays again; after a play without a capture
    the turn passes on as usual."""
    g = make([[K, FOUR, TWO], [THREE, FIVE]], [J, NINE, TEN, A], K, extra=True)
    g.apply(K)  # pair: takes 2, J turned up, seat 0 again
    assert g.captured == [2, 0]
    assert g.pile == [J] and g.current_player == 0
    g.apply(FOUR)  # 4 on J = 15: no capture, draws the 9
    assert g.current_player == 1
    assert g.hand(0) == [TWO, NINE]
    assert g.pile == [J, FOUR]


def test_t10_variant_off_by_default():
    """T10: the extra turn is a variant, off by default (also in the env)."""
    g = Game(num_players=2, deal={"hands": [[K, TWO], [THREE]], "stock": [EIGHT, NINE], "face_up": K})
    g.apply(K)
    assert g.current_player == 1


def test_t10_variant_repeated_captures():
    """T10 variant: every capture gives another turn, so one seat can capture twice in a row."""
    g = make([[K, FOUR, SIX], [THREE, FIVE]], [EIGHT, SIX, TEN, A], K, extra=True)
    g.apply(K)  # takes K K, turns the 8
    g.apply(FOUR)  # 4 on 8 = 12: takes 8 4, turns the 6
    assert g.captured == [4, 0]
    assert g.pile == [SIX] and g.current_player == 0
    assert g.stock == [TEN, A]


# ------------------------------------------------------------------------------------------ T11
def test_t11_six_on_six_others_draw_in_turn_order_then_turn_up():
    """T11: 6 on 6 captures; then every other player, starting with the next, draws one card — seats
    4, 0, 1, 2 get J, Q, K, 2 in that order — and only then is the next card (the 8) turned face up.
    The capturer draws nothing; play passes to seat 4 (T10)."""
    g = make([[A], [THREE], [FOUR], [SIX, FIVE], [SEVEN]], [J, Q, K, TWO, EIGHT, NINE], SIX, first=3)
    g.apply(SIX)
    assert g.captured == [0, 0, 0, 2, 0]
    assert hands(g) == [[A, Q], [THREE, K], [TWO, FOUR], [FIVE], [SEVEN, J]]
    assert g.pile == [EIGHT]
    assert g.stock == [NINE]
    assert g.current_player == 4
    assert not g.last_round


def test_t11_six_on_six_numbers_deck():
    """T11 with the number deck: the 6 (id 5) on a 6 makes the others draw too."""
    six = num(6)
    g = make([[six, num(1)], [num(2)], [num(3)]], [num(9), num(10), num(4), num(5)], six, deck="numbers")
    g.apply(six)
    assert hands(g) == [[num(1)], [num(2), num(9)], [num(3), num(10)]]
    assert g.pile == [num(4)] and g.stock == [num(5)]
    assert g.current_player == 1


@pytest.mark.parametrize(("played", "top"), [(FIVE, SEVEN), (K, K), (SEVEN, SEVEN), (A, Q)])
def test_t11_other_captures_make_nobody_draw(played, top):
    """T11 is only for 6 on 6: other 12s and other pairs do not make anyone draw."""
    g = make([[played, TWO], [THREE], [FOUR]], [J, NINE, TEN], top)
    g.apply(played)
    assert g.captured == [2, 0, 0]
    assert hands(g) == [[TWO], [THREE], [FOUR]]
    assert g.pile == [J] and g.stock == [NINE, TEN]


def test_t11_six_on_six_stock_runs_out_during_draws():
    """T11 Decision + T14: with 2 stock cards and 3 others, seats 1 and 2 draw, seat 3 draws nothing;
    no card is left to turn face up, so the game ends at once."""
    g = make([[SIX, A], [TWO], [THREE], [FOUR]], [J, Q], SIX)
    g.apply(SIX)
    assert g.is_terminal()
    assert hands(g) == [[A], [TWO, J], [THREE, Q], [FOUR]]
    assert g.pile == [] and g.stock == [] and g.stock_size == 0
    assert g.scores == [2 - 1, -2, -2, -1]


def test_t11_six_on_six_draws_take_exactly_the_last_cards():
    """T11 + T14: every other seat draws and that empties the stock — nothing to turn, game over."""
    g = make([[SIX, A], [TWO], [THREE]], [J, Q], SIX)
    g.apply(SIX)
    assert g.is_terminal()
    assert hands(g) == [[A], [TWO, J], [THREE, Q]]
    assert g.scores == [1, -2, -2]


def test_t11_six_on_six_draws_then_last_card_turned_starts_last_round():
    """T11 + T13: the draws leave one card; it is turned face up, the stock has run out, and the last
    round starts with the next player."""
    g = make([[SIX, A], [TWO], [THREE]], [J, Q, EIGHT], SIX)
    g.apply(SIX)
    assert not g.is_terminal()
    assert g.pile == [EIGHT] and g.stock == []
    assert g.last_round and g.turns_left == 3
    assert g.current_player == 1


def test_t11_six_on_six_with_extra_turn_variant():
    """T11 + T10 variant: the others draw, the new card is turned, then the capturer plays again."""
    g = make([[SIX, A], [TWO], [THREE]], [J, Q, EIGHT, NINE], SIX, first=0, extra=True)
    g.apply(SIX)
    assert hands(g) == [[A], [TWO, J], [THREE, Q]]
    assert g.pile == [EIGHT] and g.stock == [NINE]
    assert g.current_player == 0


# ------------------------------------------------------------------------------------------ T12
def test_t12_last_card_without_capture_ends_game_without_draw():
    """T12: playing one's last card ends the game at once; the card stays on the pile, nothing is
    drawn, nobody else plays."""
    g = make([[K], [TWO, THREE]], [FOUR, FIVE], Q)
    g.apply(K)  # K on Q: no capture
    assert g.is_terminal()
    assert g.pile == [Q, K]
    assert g.hand(0) == [] and g.stock == [FOUR, FIVE]
    assert g.legal_actions() == [] and not g.legal_mask().any()
    assert g.scores == [0, -2]


def test_t12_capture_with_last_card_counts():
    """T12 Decision: a capture made with the last card counts; no card is turned or drawn after it."""
    g = make([[A], [TWO, THREE]], [FOUR, FIVE], Q)
    g.apply(A)
    assert g.is_terminal()
    assert g.captured == [2, 0]
    assert g.pile == [] and g.stock == [FOUR, FIVE]
    assert g.scores == [2, -2]


def test_t12_last_card_six_on_six_no_draws():
    """T12 Decision: a last-card 6 on 6 captures but the others do not draw (T11 does not apply)."""
    g = make([[SIX], [TWO], [THREE]], [FOUR, FIVE, SEVEN], SIX)
    g.apply(SIX)
    assert g.is_terminal()
    assert hands(g) == [[], [TWO], [THREE]]
    assert g.stock == [FOUR, FIVE, SEVEN]
    assert g.scores == [2, -1, -1]


def test_t12_last_card_ends_the_last_round_early():
    """T12 in the last round (T13): the game ends when a player plays their last card even if other
    players still had a last turn to come."""
    g = make([[TWO, THREE], [FOUR], [FIVE, FIVE]], [], EIGHT)
    assert g.last_round and g.turns_left == 3
    g.apply(TWO)  # 2 on 8 = 10
    g.apply(FOUR)  # 4 on 2 = 6, seat 1's last card
    assert g.is_terminal()
    assert hands(g) == [[THREE], [], [FIVE, FIVE]]
    assert g.scores == [-1, 0, -2]


def test_t12_mid_game_last_card_after_draws():
    """T12: the hand runs empty only by playing, and then the game is over with the stock unused."""
    g = make([[TWO], [THREE, FOUR]], [FIVE, SEVEN, EIGHT], NINE, first=1)
    g.apply(FOUR)  # 4 on 9 = 13, seat 1 draws the 5
    g.apply(TWO)  # 2 on 4 = 6, seat 0's last card
    assert g.is_terminal()
    assert g.stock == [SEVEN, EIGHT]
    assert hands(g) == [[], [THREE, FIVE]]
    assert g.scores == [0, -2]


# ------------------------------------------------------------------------------------------ T13
def test_t13_stock_runs_out_by_a_draw():
    """T13: the draw of the last stock card starts the last round; starting with the next player,
    each player has exactly one more turn, without drawing; then the game ends."""
    g = make([[TWO, TWO, TWO], [THREE, THREE, THREE], [FOUR, FOUR, FOUR]], [FIVE], NINE)
    assert not g.last_round and g.turns_left is None
    g.apply(TWO)  # 2 on 9 = 11, draws the 5: the stock is empty
    assert g.stock == [] and g.hand(0) == [TWO, TWO, FIVE]
    assert g.last_round and g.turns_left == 3 and g.current_player == 1
    g.apply(THREE)  # 3 on 2 = 5, no draw
    assert g.hand(1) == [THREE, THREE] and g.turns_left == 2 and g.current_player == 2
    g.apply(FOUR)  # 4 on 3 = 7, no draw
    assert g.hand(2) == [FOUR, FOUR] and g.turns_left == 1 and g.current_player == 0
    assert not g.is_terminal()
    g.apply(TWO)  # 2 on 4 = 6: seat 0's last-round turn
    assert g.is_terminal() and not g.last_round
    assert hands(g) == [[TWO, FIVE], [THREE, THREE], [FOUR, FOUR]]
    assert g.pile == [NINE, TWO, THREE, FOUR, TWO]
    assert g.scores == [-2, -2, -2]


def test_t13_stock_runs_out_by_the_turn_up_after_a_capture():
    """T13 Decision: turning the last stock card face up after a capture also runs the stock out; the
    last round starts with the next player (2 players: seats 1, 0)."""
    g = make([[K, TWO, THREE], [FOUR, FIVE, A]], [EIGHT], K)
    g.apply(K)  # pair, takes 2, turns the 8
    assert g.pile == [EIGHT] and g.stock == []
    assert g.last_round and g.turns_left == 2 and g.current_player == 1
    g.apply(FIVE)  # 5 on 8 = 13, no draw
    assert g.hand(1) == [A, FOUR] and g.current_player == 0
    g.apply(TWO)  # 2 on 5 = 7
    assert g.is_terminal()
    assert hands(g) == [[THREE], [A, FOUR]]
    assert g.scores == [2 - 1, -2]


def test_t13_turn_up_runs_out_with_extra_turn_variant():
    """T13 + T10 variant: the capturer who turned the last card plays the first last-round turn,
    then every other seat once."""
    g = make([[K, TWO, THREE], [FOUR, FIVE, A]], [EIGHT], K, extra=True)
    g.apply(K)
    assert g.last_round and g.turns_left == 2 and g.current_player == 0
    g.apply(TWO)  # 2 on 8 = 10
    assert g.current_player == 1 and g.turns_left == 1
    g.apply(FIVE)  # 5 on 2 = 7
    assert g.is_terminal()
    assert hands(g) == [[THREE], [A, FOUR]]


def test_t13_deal_without_stock_starts_in_the_last_round():
    """T13 Decision: the stock runs out when its last card is turned — a deal whose face-up card is
    the last card starts in the last round, first player first, one turn each."""
    g = make([[TWO, TWO], [THREE, THREE]], [], NINE, first=1)
    assert g.last_round and g.turns_left == 2 and g.current_player == 1
    g.apply(THREE)  # 3 on 9 = 12: capture in the last round → over (T14)
    assert g.is_terminal() and g.captured == [0, 2]
    g = make([[TWO, TWO], [FOUR, FOUR]], [], NINE, first=1)
    g.apply(FOUR)  # 4 on 9 = 13
    g.apply(TWO)  # 2 on 4 = 6
    assert g.is_terminal()
    assert hands(g) == [[TWO], [FOUR]]


def test_t13_last_round_with_five_players():
    """T13: with 5 players the last round is exactly 5 turns, one per seat in order, none drawing.

    Seat 4 plays A on K = 12 and captures; the last stock card (an A) is turned up, so the last
    round starts with seat 0: 2 on A = 3, 3 on 2 = 5, 5 on 3 = 8, 4 on 5 = 9, 9 on 4 = 13."""
    g = make([[TWO, TWO], [TWO, THREE], [FIVE, FIVE], [FOUR, FOUR], [FOUR, A, NINE]], [A], K, first=4)
    g.apply(A)
    assert g.captured == [0, 0, 0, 0, 2]
    assert g.pile == [A] and g.stock == []
    sizes = [2, 2, 2, 2, 2]
    for turn, (seat, card) in enumerate(zip(range(5), [TWO, THREE, FIVE, FOUR, NINE], strict=True)):
        assert g.last_round and g.turns_left == 5 - turn
        assert g.current_player == seat
        g.apply(card)
        sizes[seat] -= 1
        assert [len(h) for h in hands(g)] == sizes
    assert g.is_terminal()
    assert hands(g) == [[TWO], [TWO], [FIVE], [FOUR], [FOUR]]
    assert g.scores == [-1, -1, -1, -1, 2 - 1]


# ------------------------------------------------------------------------------------------ T14
def test_t14_capture_in_last_round_ends_game():
    """T14: in the last round a capture ends the game at once — the remaining players get no turn."""
    g = make([[TWO, TWO], [TEN, THREE], [FOUR, FOUR]], [FIVE], NINE)
    g.apply(TWO)  # 2 on 9 = 11, draws the 5: last round from seat 1
    assert g.last_round
    g.apply(TEN)  # 10 on 2 = 12: takes 9, 2, 10
    assert g.is_terminal()
    assert g.captured == [0, 3, 0]
    assert g.pile == []
    assert hands(g) == [[TWO, FIVE], [THREE], [FOUR, FOUR]]
    assert g.scores == [-2, 3 - 1, -2]


def test_t14_pair_in_last_round_ends_game_even_with_extra_turn():
    """T14 + T10 variant: a pair in the last round ends the game; the extra turn cannot happen since
    no card can be turned face up."""
    g = make([[TWO, TWO], [TWO, THREE], [FOUR, FOUR]], [FIVE], NINE, extra=True)
    g.apply(TWO)  # 2 on 9 = 11, draws the last card
    g.apply(TWO)  # 2 on 2: pair
    assert g.is_terminal()
    assert g.captured == [0, 3, 0]
    assert hands(g) == [[TWO, FIVE], [THREE], [FOUR, FOUR]]


def test_t14_capture_leaving_stock_empty_ends_game():
    """T14: whenever a capture leaves no card to turn face up, the game ends at once (here the 6-on-6
    draws took the last stock card)."""
    g = make([[SIX, A, A], [TWO]], [Q], SIX)
    g.apply(SIX)
    assert g.is_terminal()
    assert hands(g) == [[A, A], [TWO, Q]]
    assert g.pile == [] and g.stock == []
    assert g.scores == [0, -2]


# ------------------------------------------------------------------------------------------ T15
def test_t15_score_is_captured_minus_hand():
    """T15: score = captured cards − cards in hand, at any time; scores may be negative."""
    g = make([[TWO, SEVEN, FOUR], [FIVE, EIGHT, NINE]], [K, Q, J, THREE, EIGHT], SEVEN)
    assert g.scores == [-3, -3]
    g.apply(TWO)
    g.apply(FIVE)
    g.apply(SEVEN)  # takes 4 cards, hands 2 and 3
    assert g.captured == [4, 0]
    assert g.scores == [4 - 2, 0 - 3]


def test_t15_negative_final_scores():
    """T15: a player who never captures ends with minus their hand size."""
    g = make([[TWO, TWO, TWO], [THREE, THREE, THREE], [FOUR, FOUR, FOUR]], [FIVE], NINE)
    for card in (TWO, THREE, FOUR, TWO):
        g.apply(card)
    assert g.is_terminal()
    assert g.scores == [-2, -2, -2]
    assert all(s < 0 for s in g.scores)


# ----------------------------------------------------------------------------- illegal actions
def test_illegal_action_names_legal_ranks_and_changes_nothing():
    """T7/docs/api.md: an illegal action raises ValueError naming the legal ranks; the state row and the
    history are unchanged."""
    g = make([[A, K, K], [TWO, THREE]], [SEVEN, SEVEN], NINE)
    g.apply(K)  # K on 9: no capture, draws a 7
    state = np.array(g.state_array)
    history = list(g.history)
    assert g.current_player == 1
    for bad in (A, K, Q, 13, -1, 99):
        with pytest.raises(ValueError, match="legal") as err:
            g.apply(bad)
        msg = str(err.value)
        assert "1 (2)" in msg and "2 (3)" in msg
        assert (g.state_array == state).all()
        assert g.history == history
    for bad in ("K", 1.5, None):
        with pytest.raises(ValueError):
            g.apply(bad)
        assert (g.state_array == state).all() and g.history == history
    g.apply(TWO)  # legal afterwards
    assert g.history == [K, TWO]


def test_no_action_after_game_over():
    """T12/docs/api.md: once the game is over every action is a ValueError and nothing changes."""
    g = make([[K], [TWO, THREE]], [FOUR, FIVE], Q)
    g.apply(K)
    state = np.array(g.state_array)
    for a in range(13):
        with pytest.raises(ValueError, match="over"):
            g.apply(a)
    assert (g.state_array == state).all() and g.history == [K]


def test_state_array_is_read_only():
    """docs/api.md: state_array is a read-only view (the rules can only be changed through apply)."""
    g = Game(num_players=2, seed=0)
    with pytest.raises(ValueError):
        g.state_array[0] = 1


# ----------------------------------------------------------------------------- invalid deals
GOOD = {"hands": [[A, TWO], [THREE]], "stock": [FOUR], "face_up": FIVE, "first_player": 0}


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ({"hands": [[K, K, K], [K]], "face_up": K}, "more than 4 cards of rank K"),
        ({"hands": [[K, K], [K]], "stock": [K, K]}, "more than 4"),
        ({"hands": [[A], [TWO], [THREE]]}, "3 hands for 2 players"),
        ({"hands": [[A, TWO]]}, "1 hands for 2 players"),
        ({"hands": [[A, 13], [THREE]]}, "between 0 and 12"),
        ({"hands": [[A, -1], [THREE]]}, "between 0 and 12"),
        ({"stock": [FOUR, 13]}, "between 0 and 12"),
        ({"face_up": 13}, "between 0 and 12"),
        ({"hands": [[A, "K"], [THREE]]}, "rank id"),
        ({"hands": [[A, TWO], []]}, "hand 1 is empty"),
        ({"first_player": 2}, "first_player"),
        ({"first_player": -1}, "first_player"),
        ({"first_player": "0"}, "first_player"),
    ],
)
def test_invalid_deal_rejected(change, pattern):
    """T1/T4/T5/T6/docs/api.md: an impossible deal is a ValueError saying what is wrong."""
    with pytest.raises(ValueError, match=pattern):
        Game(num_players=2, deal={**GOOD, **change})


def test_invalid_deal_numbers_deck_rank_out_of_range():
    """T1: the number deck has rank ids 0..10 only; 11 and 12 (J, Q, K of the bridge deck) are errors."""
    for bad in (11, 12):
        with pytest.raises(ValueError, match="between 0 and 10"):
            Game(num_players=2, deck="numbers", deal={**GOOD, "face_up": bad})
    Game(num_players=2, deck="numbers", deal={**GOOD, "face_up": 10})


@pytest.mark.parametrize(
    "deal",
    [
        [[A], [TWO]],
        {"hands": [[A], [TWO]]},
        {"hands": [[A], [TWO]], "stock": [], "face_up": FIVE, "opener": 0},
        {"stock": [FOUR], "face_up": FIVE},
    ],
    ids=["not-a-dict", "no-face-up", "unknown-key", "no-hands"],
)
def test_malformed_deal_rejected(deal):
    """docs/api.md: the deal is a dict with hands, stock, face_up and first_player; anything else is a
    ValueError showing the expected shape."""
    with pytest.raises(ValueError, match=r"deal (must be a dict|lacks|has unknown keys)"):
        Game(num_players=2, deal=deal)


def test_invalid_options_rejected():
    """T1/T4/docs/api.md: bad options are ValueErrors naming the option."""
    with pytest.raises(ValueError, match="deck"):
        twelve_env.env(deck="tarot")
    with pytest.raises(ValueError, match="reward"):
        twelve_env.env(reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        twelve_env.env(render_mode="opengl")
    with pytest.raises(ValueError, match="num_players"):
        Game(num_players=9)
