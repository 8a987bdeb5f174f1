"""``sniff_env.Game``: one American Sniff match as an OpenSpiel-style state object.

>>> g = Game(num_players=2, seed=7)
>>> g.current_player in (0, 1), len(g.hand(0)), g.boneyard_size
(True, 7, 14)
>>> g.apply(g.legal_actions()[0])
>>> len(g.describe()["tiles"])
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sniff_env import kernels as K
from sniff_env.spec import SPEC
from sniff_env.tiles import DRAW, NUM_TILES, TILES, tile_index
from sniff_twelve.core.game import BaseGame, slot_accessor
from sniff_twelve.core.options import check_deal_hands, check_int, check_keys, check_sequence

if TYPE_CHECKING:
    import numpy as np


def load_deal(state: np.ndarray, params: np.ndarray, deal: dict[str, Any]) -> None:
    """Overwrite the current (fresh) hand of ``state`` with a given position.

    ``deal = {"hands": [[(a, b), …], …], "boneyard": [(a, b), …], "opener": seat}``; the boneyard
    is drawn front first. Tiles left out of both are out of play for that hand. Raises
    ``ValueError`` saying what is wrong, before touching ``state``.
    """
    n = int(params[K.P_PLAYERS])
    check_keys("deal", deal, ("hands",), ("boneyard", "opener"))
    hands = check_deal_hands(deal, n, "tile")
    seen: set[int] = set()

    pips = int(params[K.P_PIPS])

    def take(tile: Any, where: str) -> int:
        t = tile_index(tile)
        if TILES[t][1] > pips:
            raise ValueError(f"tile {TILES[t]} ({where}) is not in the double-{pips} set of this table (pips={pips})")
        if t in seen:
            raise ValueError(f"tile {TILES[t]} is dealt twice ({where})")
        seen.add(t)
        return t

    masks = []
    for seat, hand in enumerate(hands):
        masks.append(sum(1 << take(tile, f"hand {seat}") for tile in hand))
    bone = [take(tile, "boneyard") for tile in check_sequence("deal['boneyard']", deal.get("boneyard", []))]
    opener = check_int("opener", deal.get("opener", 0), 0, n - 1)
    for seat in range(4):
        state[K.HAND + seat] = masks[seat] if seat < n else 0
    state[K.BONE : K.BONE + NUM_TILES] = 0
    state[K.BONE : K.BONE + len(bone)] = bone
    state[K.BONE_HEAD] = 0
    state[K.BONE_LEN] = len(bone)
    state[K.OPENER] = opener
    state[K.CUR] = opener


class Game(BaseGame):
    """One match of American Sniff to the target score (docs/rules.md S1–S27).

    When a hand ends (S22) it is settled (S23–S24) and the next hand is dealt at once from the
    match's own random stream; ``current_player`` is then the new opener (S6). DRAW (112) and
    PASS (113) are always explicit actions here.

    ``Game(num_players, seed, target, deal, **options)``: 2, 3 or 4 players (4 = partnerships
    0+2 vs 1+3, S1), the match's random stream (``None``: fresh entropy), the first hand fixed by
    ``deal = {"hands": …, "boneyard": …, "opener": seat}`` (``load_deal``), and the options of
    ``SPEC.options`` and ``SPEC.env_options`` by name, each in the signature with its default.

    ``events`` holds ``("credit", side, points)`` and ``("deduct", seat, points)`` in order; the
    scores are their sum.
    """

    spec = SPEC
    public_accessors = (
        *BaseGame.public_accessors,
        "boneyard_size",
        "opener",
        "hands_played",
        "winner",
        "last_credit",
        "known_voids",
        "describe",
        "scored",
        "last_scored",
    )

    def _deal(self, deal: dict[str, Any]) -> None:
        load_deal(self._state, self._params, deal)

    @classmethod
    def row_bounds(cls, params: np.ndarray) -> list:
        last_seat, seats = int(params[K.P_PLAYERS]) - 1, 4
        return [
            ("status", (K.STATUS, K.STATUS + 1), K.LIVE, K.HAND_OVER),
            ("seat to act, opener", (K.CUR, K.OPENER + 1), 0, last_seat),
            ("hands", (K.HAND, K.HAND + seats), 0, (1 << NUM_TILES) - 1),
            ("boneyard", (K.BONE, K.BONE + NUM_TILES), 0, NUM_TILES - 1),
            ("boneyard head, length", (K.BONE_HEAD, K.BONE_LEN + 1), 0, NUM_TILES),
            ("tiles on the table", (K.PLAYED, K.PLAYED + 1), 0, (1 << NUM_TILES) - 1),
            ("placements", (K.N_PLACED, K.N_PLACED + 1), 0, NUM_TILES),
            ("placement log", (K.LOG, K.LOG + NUM_TILES), 0, (1 << 18) - 1),
            ("sniff", (K.SNIFF, K.SNIFF + 1), -1, NUM_TILES - 1),
            ("end tiles", (K.END_TILE, K.END_TILE + 4), -1, NUM_TILES - 1),
            ("end sides", (K.END_SIDE, K.END_SIDE + 4), 0, len(K.SIDE_NAMES) - 1),
            ("end pips", (K.END_PIP, K.END_PIP + 4), -1, 6),
            ("known voids", (K.VOIDS, K.VOIDS + seats), 0, 127),
            ("held voids", (K.VOIDS_HELD, K.VOIDS_HELD + 1), -1, 127),
            ("last scored", (K.LAST_SCORED, K.LAST_SCORED + 4), -1, NUM_TILES * 64 - 1),
            ("winner", (K.WINNER, K.WINNER + 1), -1, seats - 1),
            ("last out", (K.LAST_OUT, K.LAST_OUT + 1), -1, seats - 1),
            ("settled side", (K.SETTLED_SIDE, K.SETTLED_SIDE + 1), -1, seats - 1),
        ]

    # --- accessors (docs/api.md) ---------------------------------------------------------------------
    @property
    def scores(self) -> list[int]:
        """One score per player (2–3 players) or per partnership (4 players: seats 0+2, 1+3)."""
        sides = 2 if self.num_players == 4 else self.num_players
        return self._state[K.SCORE : K.SCORE + sides].tolist()

    def hand(self, seat: int) -> list[tuple[int, int]]:
        """Tiles held by ``seat``, in set order."""
        return [TILES[t] for t in super().hand(seat)]

    @property
    def boneyard(self) -> list[tuple[int, int]]:
        """Remaining boneyard, next draw first (hidden information)."""
        return [TILES[t] for t in self.pool]

    boneyard_size = BaseGame.pool_size

    opener = slot_accessor(K.OPENER, "Seat that opened this hand (S6).")
    hands_played = slot_accessor(K.HANDS_DONE, "Hands settled so far in this match.")
    last_credit = slot_accessor(K.CREDIT, "Credit of the last placement (S17).")

    @property
    def winner(self) -> int | None:
        """Side that reached the target (S25), else ``None``."""
        return None if self._state[K.WINNER] < 0 else int(self._state[K.WINNER])

    def hand_as_ended(self, action: int) -> Game | None:
        """If ``action`` ends the hand: a copy of the game after it that stops at the settlement —
        the layout and every hand as they were counted, the pips deducted (S22–S24) — where this
        game deals the next hand at once (S5, S6); else ``None``. ``ValueError`` if ``action`` is
        illegal.

        >>> g = Game(num_players=2, seed=7)
        >>> g.hand_as_ended(g.legal_actions()[0]) is None  # the first tile ends nothing
        True
        """
        params = self._params.copy()
        params[K.P_HAND_EPISODE] = 1  # the environments' hand episodes: settle, then stop
        settled = Game._from_row(self._state, params)
        settled.apply(action)
        return settled if settled.hands_played > self.hands_played else None

    def known_voids(self, seat: int) -> list[int]:
        """Pips ``seat`` is publicly known to lack this hand (it drew or passed while they were open)."""
        voids = int(self._state[K.VOIDS + self.check_seat(seat)])
        return [p for p in range(7) if (voids >> p) & 1]

    def redeal(self, deal: dict[str, Any]) -> None:
        """Replace the hand about to start — before its opening placement — with ``deal`` (the
        ``deal=`` format), for callers that deal by their own chance events (e.g. OpenSpiel's
        chance nodes). ``ValueError`` once the hand has begun or the match is over."""
        if self.is_terminal() or self._state[K.N_PLACED] != 0:
            raise ValueError("redeal needs a hand that has not begun (no tile placed) in a live match")
        load_deal(self._state, self._params, deal)
        if not self.history:
            self.initial_state[:] = self._state

    # --- the layout in the rule texts' terms ----------------------------------------------------
    def describe(self) -> dict[str, Any]:
        """The layout as the worked examples state it (docs/api.md): tiles, spinner, connections,
        open spots with their pips, scored contributions, their total and the last credit."""
        s = self._state
        tiles, connections = [], []
        for i in range(int(s[K.N_PLACED])):
            entry = int(s[K.LOG + i])
            tile = TILES[entry & 31]
            tiles.append(tile)
            parent = ((entry >> 7) & 31) - 1
            if parent >= 0:
                parent_side = K.SIDE_NAMES[(entry >> 12) & 7]
                connections.append(((TILES[parent], parent_side), (tile, K.SIDE_NAMES[(entry >> 15) & 7])))
        open_spots = [
            (TILES[s[K.END_TILE + k]], K.SIDE_NAMES[s[K.END_SIDE + k]], int(s[K.END_PIP + k]))
            for k in range(4)
            if s[K.END_PIP + k] >= 0
        ]
        scored = self.scored()
        sniff = int(s[K.SNIFF])
        return {
            "tiles": tiles,
            "spinner": TILES[sniff] if sniff >= 0 else None,
            "connections": connections,
            "open_spots": open_spots,
            "scored": scored,
            "total": sum(c for _, c in scored),
            "credit": int(s[K.CREDIT]) if tiles else 0,
        }

    def scored(self) -> list[tuple[tuple[int, int], int]]:
        """``(tile, contribution)`` of every currently scored end (S10, S14), zeros included: the
        rule's kernel run as Python (``py_func``), since a display has nothing to gain from a compile."""
        s = self._state
        contributions = [K.arm_contribution.py_func(s, k) for k in range(4)]
        return [(TILES[int(s[K.END_TILE + k])], int(c)) for k, c in enumerate(contributions) if c >= 0]

    def last_scored(self) -> list[tuple[tuple[int, int], int]]:
        """The scored ends right after the last placement, even if it ended the hand (S17)."""
        slots = self._state[K.LAST_SCORED : K.LAST_SCORED + 4].tolist()
        return [(TILES[v // 64], v % 64) for v in slots if v >= 0]

    # --- records (sniff_twelve.core.records) -------------------------------------------------------------
    def deal_of(self, state: np.ndarray) -> dict[str, Any]:
        """``BaseGame``'s hands, and its pool as the boneyard; the opener."""
        dealt = super().deal_of(state)
        return {"hands": dealt["hands"], "boneyard": [TILES[t] for t in dealt["pool"]], "opener": int(state[K.OPENER])}

    def record_result(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "winner": self.winner,
            "terminal": self.is_terminal(),
            "truncated": self.is_truncated(),
            "hands_played": self.hands_played,
        }

    # --- bookkeeping ------------------------------------------------------------------------------
    def _after_apply(self, actor: int, action: int, events: int) -> None:
        s = self._state
        if action < DRAW and s[K.CREDIT] > 0:
            self.events.append(("credit", self.side_of(actor), int(s[K.CREDIT])))
        if not events & K.EV_HAND_END:
            return
        if self._params[K.P_ALL_FIVES]:
            if s[K.SETTLED_POINTS] > 0:
                self.events.append(("credit", int(s[K.SETTLED_SIDE]), int(s[K.SETTLED_POINTS])))
            return
        for seat in range(self.num_players):
            if s[K.DEDUCT + seat]:
                self.events.append(("deduct", seat, int(s[K.DEDUCT + seat])))
