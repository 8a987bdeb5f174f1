"""``twelve_env.Game``: one game of "12" as an OpenSpiel-style state object.

>>> g = Game(num_players=3, seed=1)
>>> [len(g.hand(s)) for s in range(3)], g.stock_size, len(g.pile)
([5, 5, 5], 36, 1)
>>> g.apply(g.legal_actions()[0])
>>> sum(g.scores) <= 0
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sniff_twelve.core.game import BaseGame, slot_accessor
from sniff_twelve.core.options import check_deal_hands, check_int, check_keys, check_sequence
from twelve_env import kernels as K
from twelve_env.cards import COPIES, MAX_RANKS, Deck, check_rank, rank_name
from twelve_env.spec import SPEC


def load_deal(state: np.ndarray, params: np.ndarray, deck: Deck, deal: dict[str, Any]) -> None:
    """Set up a given position: ``{"hands": [[rank, …], …], "stock": [rank, …], "face_up": rank,
    "first_player": seat}`` (stock drawn front first). Cards left out are out of play. Raises
    ``ValueError`` saying what is wrong, before touching ``state``."""
    n = int(params[K.P_PLAYERS])
    check_keys("deal", deal, ("hands", "face_up"), ("stock", "first_player"))
    hands = check_deal_hands(deal, n, "card")
    hand_counts = np.zeros((n, MAX_RANKS), dtype=np.int32)
    for seat, hand in enumerate(hands):
        for rank in hand:
            hand_counts[seat, check_rank(deck, rank)] += 1
    stock = [check_rank(deck, r) for r in check_sequence("deal['stock']", deal.get("stock", []))]
    face_up = check_rank(deck, deal["face_up"])
    counts = hand_counts.sum(axis=0) + np.bincount([*stock, face_up], minlength=MAX_RANKS)
    held = [int(K.copies(params, r)) for r in range(K.num_ranks(params))]  # T1, or the size dial's deck
    over = [f"{c} cards of rank {rank_name(deck, r)}" for r, c in enumerate(held) if counts[r] > c]
    if over:
        raise ValueError(f"the deal uses more than {', '.join(over)}")
    first = check_int("first_player", deal.get("first_player", 0), 0, n - 1)
    rng = state[K.RNG : K.RNG + 2].copy()
    state[:] = 0
    state[K.RNG : K.RNG + 2] = rng
    state[K.HAND : K.HAND + n * MAX_RANKS] = hand_counts.ravel()
    # start_game turns the face-up card from the stock's front, so it goes first
    state[K.STOCK : K.STOCK + len(stock) + 1] = [face_up, *stock]
    state[K.STOCK_LEN] = len(stock) + 1
    K.start_game(state, params, first)


class Game(BaseGame):
    """One game of "12" (docs/rules.md T1–T15); one game is one episode.

    Args:
        num_players: 2 to 7 (T4); seats play in order (T6).
        deck: ``"bridge"`` (52 cards, actions 0–12 = A…K) or ``"numbers"`` (1–11 ×4, actions 0–10),
            or the size dial's list of values 1–11 (each at most four times; played as the number deck).
        seed: the game's random stream; ``None`` for fresh entropy.
        deal: a given position (see ``load_deal``).
        capture_extra_turn: the inventor's variant of T10 (the capturer plays again); off by default.
    """

    spec = SPEC
    public_accessors = (
        *BaseGame.public_accessors,
        "captured",
        "stock_size",
        "pile",
        "first_player",
        "last_round",
        "turns_left",
    )

    def _deal(self, deal: dict[str, Any]) -> None:
        load_deal(self._state, self._params, self.deck, deal)

    @classmethod
    def row_bounds(cls, params: np.ndarray) -> list:
        last_seat, ranks, cards = int(params[K.P_PLAYERS]) - 1, MAX_RANKS, COPIES * MAX_RANKS
        return [
            ("status", (K.STATUS, K.STATUS + 1), K.LIVE, K.OVER),
            ("seat to act, first player", (K.CUR, K.FIRST + 1), 0, last_seat),
            ("last round", (K.LAST_ROUND, K.LAST_ROUND + 1), -1, last_seat + 1),
            ("stock head, length", (K.STOCK_HEAD, K.STOCK_LEN + 1), 0, cards),
            ("pile length", (K.PILE_LEN, K.PILE_LEN + 1), 0, cards - 1),
            ("hands", (K.HAND, K.HAND + 7 * ranks), 0, COPIES),
            ("captured", (K.CAPTURED, K.CAPTURED + 7), 0, cards),
            ("seen", (K.SEEN, K.SEEN + ranks), 0, COPIES),
            ("stock, pile", (K.STOCK, K.PILE + cards), 0, ranks - 1),
        ]

    @property
    def scores(self) -> list[int]:
        """T15: captured cards minus cards in hand, per seat."""
        out = np.zeros(self.num_players, dtype=np.int64)
        K.write_scores(self._state, self._params, out)
        return out.tolist()

    captured = slot_accessor(K.CAPTURED, "Cards each seat has captured (T8).", per_seat=True)

    stock, stock_size = BaseGame.pool, BaseGame.pool_size  # next card first (T5)

    @property
    def pile(self) -> list[int]:
        """The face-up cards, bottom first; the last one is the top card."""
        return self._state[K.PILE : K.PILE + self._state[K.PILE_LEN]].tolist()

    first_player = slot_accessor(K.FIRST, "Seat that played first (T6).")

    @property
    def last_round(self) -> bool:
        """Whether the last round (T13) is being played."""
        return int(self._state[K.LAST_ROUND]) >= 0 and not self.is_terminal()

    @property
    def turns_left(self) -> int | None:
        """Turns left in the last round, ``None`` before it."""
        return int(self._state[K.LAST_ROUND]) if self.last_round else None

    # --- records (sniff_twelve.core.records) -------------------------------------------------------------
    def deal_of(self, state: np.ndarray) -> dict[str, Any]:
        """``BaseGame``'s hands and pool, the stock; the face-up card and the first player."""
        dealt = super().deal_of(state)
        face_up, first = int(state[K.PILE]), int(state[K.FIRST])
        return {"hands": dealt["hands"], "stock": dealt["pool"], "face_up": face_up, "first_player": first}

    def record_result(self) -> dict[str, Any]:
        return {"scores": self.scores, "captured": self.captured, "terminal": self.is_terminal()}

    def action_name(self, action: int) -> str:
        return rank_name(self.deck, action)
