"""Independent pure-Python reference for the card game "12" (Jamaican Sniping).

Derived only from the rule book, docs/rules.md Part T (T1-T15 with its Decisions), and the
public API of ``twelve_env``.  Standard library only; written for clarity, not speed.
Used as the oracle of a differential test against the compiled engine.

Rank ids: bridge deck 0..12 = A, 2, ..., 10, J, Q, K; numbers deck 0..10 = values 1..11.
"""

from __future__ import annotations

NUM_RANKS = {"bridge": 13, "numbers": 11}
SIX = 5  # rank id of a 6 in both decks (T11)


class TwelveReference:
    def __init__(
        self,
        num_players: int,
        deck: str,
        hands: list[list[int]],
        stock: list[int],
        face_up: int,
        first_player: int,
        capture_extra_turn: bool = False,
    ):
        if deck not in NUM_RANKS:
            raise ValueError(f"unknown deck {deck!r}")
        if not 2 <= num_players <= 7:  # T4
            raise ValueError("num_players must be 2..7")
        if len(hands) != num_players:
            raise ValueError("need one hand per seat")
        if not 0 <= first_player < num_players:
            raise ValueError("first_player out of range")
        n_ranks = NUM_RANKS[deck]
        for r in [c for h in hands for c in h] + list(stock) + [face_up]:
            if not (isinstance(r, int) and 0 <= r < n_ranks):
                raise ValueError(f"bad rank id {r!r} for deck {deck!r}")
        if any(len(h) == 0 for h in hands):
            raise ValueError("every hand must hold at least one card")

        self.num_players = num_players
        self.deck = deck
        self.capture_extra_turn = capture_extra_turn
        self.hands: list[list[int]] = [list(h) for h in hands]
        self.stock: list[int] = list(stock)  # next draw first
        self.pile: list[int] = [face_up]  # bottom first (T5)
        self.captured: list[int] = [0] * num_players
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
    def value(deck: str, rank: int) -> int:
        """T2: bridge A=1, 2..10 face value, J/Q/K = 11; numbers: rank id + 1."""
        if deck == "bridge":
            return rank + 1 if rank <= 9 else 11
        if deck == "numbers":
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
