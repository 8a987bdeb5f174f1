"""Ranks, values and action ids of "12" (docs/rules.md T1–T3, docs/api.md).

``deck="bridge"``: actions ``0 … 12`` = A, 2, …, 10, J, Q, K; ``deck="numbers"``: actions
``0 … 10`` = the values 1 … 11. Every rank comes four times. Rank ``r`` is worth ``r + 1``,
except J, Q, K (10, 11, 12 in the bridge deck), worth 11 each (T2).

>>> rank_name("bridge", 12), card_value("bridge", 12), card_value("numbers", 10)
('K', 11, 11)
"""

from __future__ import annotations

import numpy as np

from sniff_twelve.core.options import check_choice, check_int

DECKS = ("bridge", "numbers")
NUM_RANKS = {"bridge": 13, "numbers": 11}
COPIES = 4
MAX_RANKS = 13
SIX = 5  # rank id of the 6 in both decks (T11)
_BRIDGE_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

#: ``VALUES[deck_code, rank]``; deck code 0 = bridge, 1 = numbers.
VALUES = np.array(
    [[min(r + 1, 11) for r in range(MAX_RANKS)], [r + 1 if r < 11 else 0 for r in range(MAX_RANKS)]],
    dtype=np.int32,
)


def deck_code(deck: str) -> int:
    return DECKS.index(check_choice("deck", deck, DECKS))


def card_value(deck: str, rank: int) -> int:
    """T2: the value a rank adds toward 12."""
    return int(VALUES[deck_code(deck), check_rank(deck, rank)])


def check_rank(deck: str, rank: object) -> int:
    """``rank`` as an int rank id of ``deck``, else ``ValueError`` naming the valid ids."""
    return check_int(f"a {deck} card (rank id)", rank, 0, NUM_RANKS[check_choice("deck", deck, DECKS)] - 1)


def rank_name(deck: str, rank: int) -> str:
    """``"A"``, ``"10"``, ``"K"`` for the bridge deck; the value for the number deck."""
    rank = check_rank(deck, rank)
    return _BRIDGE_NAMES[rank] if deck == "bridge" else str(rank + 1)
