"""Ranks, values and action ids of "12" (docs/rules.md T1–T3, docs/api.md).

``deck="bridge"``: actions ``0 … 12`` = A, 2, …, 10, J, Q, K; ``deck="numbers"``: actions
``0 … 10`` = the values 1 … 11. Every rank comes four times. Rank ``r`` is worth ``r + 1``,
except J, Q, K (10, 11, 12 in the bridge deck), worth 11 each (T2). The size dial's deck, a list
of values 1–11 (each at most four times, a part of the number deck), plays as the number deck
with those cards only.

>>> rank_name("bridge", 12), card_value("bridge", 12), card_value("numbers", 10), card_value([1, 6, 6], 5)
('K', 11, 11, 6)
"""

from __future__ import annotations

import numpy as np

from sniff_twelve.core.options import check_choice, check_int

DECKS = ("bridge", "numbers")
NUM_RANKS = {"bridge": 13, "numbers": 11}
COPIES = 4
LIST_DECK = 2  # the deck code of a list of values (the size dial)
MAX_RANKS = 13
SIX = 5  # rank id of the 6 in both decks (T11)
_BRIDGE_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: ``VALUES[deck_code, rank]``; deck code 0 = bridge, 1 = numbers, 2 = a list of values.
_NUMBERS = [r + 1 if r < 11 else 0 for r in range(MAX_RANKS)]
VALUES = np.array([[min(r + 1, 11) for r in range(MAX_RANKS)], _NUMBERS, _NUMBERS], dtype=np.int32)

Deck = str | list[int]


def deck_code(deck: Deck) -> int:
    """0 for ``"bridge"``, 1 for ``"numbers"``, ``LIST_DECK`` for a (non-empty) list of values 1–11."""
    if isinstance(deck, list | tuple):
        if not deck:
            raise ValueError("deck must be 'bridge', 'numbers' or a list of values 1–11; got []")
        for value in deck:
            check_int("a value of deck", value, 1, 11)
        return LIST_DECK
    return DECKS.index(check_choice("deck", deck, DECKS))


def deck_ranks(deck: Deck) -> str:
    """The ranks ``deck`` plays with: ``"bridge"`` (A…K), else ``"numbers"`` (the values 1–11)."""
    return DECKS[min(deck_code(deck), 1)]


def card_value(deck: Deck, rank: int) -> int:
    """T2: the value a rank adds toward 12."""
    return int(VALUES[deck_code(deck), check_rank(deck, rank)])


def check_rank(deck: Deck, rank: object) -> int:
    """``rank`` as an int rank id of ``deck``, else ``ValueError`` naming the valid ids."""
    ranks = deck_ranks(deck)
    return check_int(f"a {ranks} card (rank id)", rank, 0, NUM_RANKS[ranks] - 1)


def rank_name(deck: Deck, rank: int) -> str:
    """``"A"``, ``"10"``, ``"K"`` for the bridge deck; the value for the others."""
    rank = check_rank(deck, rank)
    return _BRIDGE_NAMES[rank] if deck_ranks(deck) == "bridge" else str(rank + 1)
