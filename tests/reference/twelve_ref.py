"""Independent pure-Python reference for the card game "12" (Jamaican Sniping).

Derived only from the rule book, docs/rules.md Part T (T1-T15 with its Decisions), and the
public API of ``twelve_env``.  Standard library only; written for clarity, not speed.
Used as the oracle of a differential test against the compiled engine.

Rank ids: bridge deck 0..12 = A, 2, ..., 10, J, Q, K; numbers deck 0..10 = values 1..11.

The size dial (every other rule unchanged): the deck may also be a list of values 1..11 (each at
most four times, T1's number cards; or its string ``"1,5,6,6"``), played as the numbers deck
holding only those cards (rank id = value - 1, eleven ranks); and the hand size of T5 (5) may be
any other.  ``deal`` deals such a table; the reference itself takes hands of any size.
"""

from __future__ import annotations

import random
from collections import Counter

NUM_RANKS = {"bridge": 13, "numbers": 11}
SIX = 5  # rank id of a 6 in every deck (T11)
COPIES = 4  # T1: every rank four times
HAND_SIZE = 5  # T5


def deck_of(deck: str | list[int] | tuple[int, ...]) -> str | list[int]:
    """``"bridge"``, ``"numbers"`` or a list deck as its sorted list of values (T1: values 1..11,
    each at most four times; a string ``"1,5,6"`` is read as that list)."""
    if isinstance(deck, str) and deck in NUM_RANKS:
        return deck
    if isinstance(deck, str):
        try:
            deck = [int(part) for part in deck.split(",")]
        except ValueError:
            raise ValueError(f"unknown deck {deck!r}") from None
    if not isinstance(deck, list | tuple) or not deck:
        raise ValueError(f"unknown deck {deck!r}")
    values = sorted(deck)
    if not all(isinstance(v, int) and 1 <= v <= 11 for v in values):
        raise ValueError(f"a list deck holds values 1..11; got {deck!r}")
    if max(Counter(values).values()) > COPIES:
        raise ValueError(f"a list deck holds each value at most {COPIES} times; got {deck!r}")
    return values


def num_ranks(deck: str | list[int]) -> int:
    """Action space: 13 ranks for the bridge deck, 11 for the numbers deck and every list deck."""
    deck = deck_of(deck)
    return NUM_RANKS[deck] if isinstance(deck, str) else NUM_RANKS["numbers"]


def deck_cards(deck: str | list[int]) -> list[int]:
    """Rank ids of every card of the deck, sorted: T1's four of each rank, or a list deck's cards."""
    deck = deck_of(deck)
    if isinstance(deck, str):
        return [r for r in range(NUM_RANKS[deck]) for _ in range(COPIES)]
    return [v - 1 for v in deck]


def deal(num_players: int, deck: str | list[int], rng: random.Random, hand_size: int = HAND_SIZE) -> dict[str, object]:
    """T5 with the size dial: shuffle the deck, ``hand_size`` cards to each seat, the next card
    turned face up, the rest the stock (drawn front first); the first player at random (T6)."""
    cards = deck_cards(deck)
    if hand_size < 1 or num_players * hand_size + 1 > len(cards):
        raise ValueError(f"cannot deal {hand_size} cards to {num_players} seats and one face up from {len(cards)}")
    rng.shuffle(cards)
    hands = [cards[seat * hand_size : (seat + 1) * hand_size] for seat in range(num_players)]
    rest = cards[num_players * hand_size :]
    return {"hands": hands, "stock": rest[1:], "face_up": rest[0], "first_player": rng.randrange(num_players)}


class TwelveReference:
    """One game from a given position (hands of any size, stock drawn front first, the face-up
    card, the first player).  ``deck`` is ``"bridge"``, ``"numbers"`` or a list deck; the position
    may not hold more cards of a rank than the deck does (cards left out are out of play).
    ``captured_cards`` keeps every seat's captured cards (rank ids), ``captured`` their counts."""

    def __init__(
        self,
        num_players: int,
        deck: str | list[int],
        hands: list[list[int]],
        stock: list[int],
        face_up: int,
        first_player: int,
        capture_extra_turn: bool = False,
    ):
        deck = deck_of(deck)
        if not 2 <= num_players <= 7:  # T4
            raise ValueError("num_players must be 2..7")
        if len(hands) != num_players:
            raise ValueError("need one hand per seat")
        if not 0 <= first_player < num_players:
            raise ValueError("first_player out of range")
        n_ranks = num_ranks(deck)
        cards = [c for h in hands for c in h] + list(stock) + [face_up]
        for r in cards:
            if not (isinstance(r, int) and 0 <= r < n_ranks):
                raise ValueError(f"bad rank id {r!r} for deck {deck!r}")
        if Counter(cards) - Counter(deck_cards(deck)):
            raise ValueError(f"the position holds more cards of a rank than the deck {deck!r}")
        if any(len(h) == 0 for h in hands):
            raise ValueError("every hand must hold at least one card")

        self.num_players = num_players
        self.deck = deck
        self.capture_extra_turn = capture_extra_turn
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.stock: list[int] = list(stock)  # next draw first
        self.pile: list[int] = [face_up]  # bottom first (T5)
        self.captured: list[int] = [0] * num_players
        self.captured_cards: list[list[int]] = [[] for _ in range(num_players)]
        self.current_player: int = first_player
        self.over: bool = False
        self.last_round: bool = False
        self._last_round_turns_left = 0
        # T13 Decision: the stock runs out the moment its last card is drawn or turned face
        # up.  The initial face-up card was turned from the stock, so a deal that leaves the
        # stock empty starts the last round at once, beginning with the first player.
        if not self.stock:
            self._start_last_round()

    # ----------------------------------------------------------------- helpers
    @staticmethod
    def value(deck: str | list[int], rank: int) -> int:
        """T2: bridge A=1, 2..10 face value, J/Q/K = 11; numbers and list decks: rank id + 1."""
        if deck == "bridge":
            return rank + 1 if rank <= 9 else 11
        if deck == "numbers" or not isinstance(deck, str):
            return rank + 1
        raise ValueError(f"unknown deck {deck!r}")

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.num_players  # T6: seat order

    def _start_last_round(self) -> None:
        # T13: every player gets exactly one more turn, starting with whoever moves next.
        self.last_round = True
        self._last_round_turns_left = self.num_players

    def _draw(self, seat: int) -> None:
        if self.stock:  # an empty stock gives nothing (T11 Decision / last round)
            self.hands[seat].append(self.stock.pop(0))

    # --------------------------------------------------------------------- API
    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        return sorted(set(self.hands[self.current_player]))

    def apply(self, rank: int) -> None:
        if self.over:
            raise ValueError("game is over")
        if rank not in self.hands[self.current_player]:
            raise ValueError(f"rank {rank!r} not in current player's hand")
        p = self.current_player
        hand = self.hands[p]
        top = self.pile[-1]

        # T7: play the card onto the top face-up card.
        hand.remove(rank)
        self.pile.append(rank)

        # T8 / T3: capture on a sum of 12 or a pair by RANK; automatic.
        capture = rank == top or self.value(self.deck, rank) + self.value(self.deck, top) == 12
        if capture:
            self.captured[p] += len(self.pile)
            self.captured_cards[p] += self.pile
            self.pile = []

        # T12: last card played -> game over right after resolving the play.
        if not hand:
            self.over = True
            return

        # T13/T14: during the last round nobody draws; a capture ends the game (stock empty).
        if self.last_round:
            if capture:
                self.over = True
                return
            self._last_round_turns_left -= 1
            if self._last_round_turns_left == 0:
                self.over = True
                return
            self.current_player = self._next(p)
            return

        if not capture:
            # T9: the card stays, the player draws one card.
            self._draw(p)
            if not self.stock:  # T13: the stock ran out through this draw
                self._start_last_round()
            self.current_player = self._next(p)
            return

        # T11: 6 on 6 -> every other player, in turn order from the next one, draws a card
        # (before the new face-up card is turned).
        if rank == SIX and top == SIX:
            seat = self._next(p)
            for _ in range(self.num_players - 1):
                self._draw(seat)
                seat = self._next(seat)

        # T14: no card left to turn face up -> game ends at once.
        if not self.stock:
            self.over = True
            return

        # T10: turn the next stock card face up; play passes on (or stays with the variant).
        self.pile = [self.stock.pop(0)]
        self.current_player = p if self.capture_extra_turn else self._next(p)
        if not self.stock:  # T13: the stock ran out through the turn-up
            self._start_last_round()

    def scores(self) -> list[int]:
        """T15: captured cards minus cards left in hand."""
        return [self.captured[s] - len(self.hands[s]) for s in range(self.num_players)]
