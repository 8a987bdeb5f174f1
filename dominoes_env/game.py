"""``dominoes_env.Game``: one game of block dominoes as OpenSpiel plays it (D1–D12).

>>> g = Game(num_players=2, deal={"hands": [[(0, 0), (0, 1)] + [(6, b) for b in range(1, 6)], [(1, 1), (1, 2)]]})
Traceback (most recent call last):
ValueError: deal['hands'][1] must have 7 entries; got 2
>>> g = Game(num_players=4, seed=3)
>>> g.current_player, g.open_ends(), len(g.hand(2))
(0, [], 7)
>>> g.apply(encode_action(g.hand(0)[0]))
>>> len(g.open_ends()), g.current_player in (1, 2, 3)
(2, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dominoes_env import kernels as K
from dominoes_env.spec import SPEC
from sniff_twelve.core.game import BaseGame
from sniff_twelve.core.options import check_keys, check_sequence
from sniff_twelve.core.tiles import NUM_TILES, TILES, tile_index


def encode_action(tile: tuple[int, int], pip: int | None = None) -> int:
    """The action that leads ``tile`` (``pip=None``) or puts it on an open end showing ``pip`` (D6).

    >>> encode_action((3, 5), 5), decode_action(encode_action((3, 5), 5))
    (58, ('place', (3, 5), 5))
    """
    t = tile_index(tile)
    if pip is not None and pip not in TILES[t]:
        raise ValueError(f"tile {TILES[t]} has no {pip!r} to put against an end")
    return int(K.FIRST_ACTION[t]) + (0 if pip is None else 1 + (pip != TILES[t][0]))


def decode_action(action: int) -> tuple[str, tuple[int, int], int | None]:
    """``("lead", tile, None)`` or ``("place", tile, pip)``: the tile goes on an end showing ``pip``."""
    a = int(action)
    if not 0 <= a < K.NUM_ACTIONS:
        raise ValueError(f"action must lie in 0 … {K.NUM_ACTIONS - 1}; got {action!r}")
    pip = int(K.ACTION_PIP[a])
    return ("lead", TILES[K.ACTION_TILE[a]], None) if pip < 0 else ("place", TILES[K.ACTION_TILE[a]], pip)


class Game(BaseGame):
    """A game of ``num_players`` (2 or 4, D1) from the deal of ``seed`` or ``deal=`` (the tiles of
    every hand, ``{"hands": [[(a, b), …], …]}``; with 2 players the 14 tiles left out are undealt)."""

    spec = SPEC
    public_accessors = (*BaseGame.public_accessors, "open_ends", "line", "known_voids")

    @classmethod
    def row_bounds(cls, params: np.ndarray) -> list:
        n = int(params[0])
        return [
            ("status", (K.STATUS, K.STATUS + 1), K.LIVE, K.OVER),
            ("seat to act", (K.CUR, K.CUR + 1), 0, n - 1),
            ("placements", (K.STEPS, K.STEPS + 1), 0, NUM_TILES),
            ("open ends", (K.ENDS, K.ENDS + 2), -1, 6),
            ("hands, tiles placed", (K.HAND, K.PLAYED + 1), 0, (1 << NUM_TILES) - 1),
            ("voids", (K.VOIDS, K.VOIDS + K.MAX_PLAYERS), 0, 127),
            ("log", (K.LOG, K.LOG + NUM_TILES), 0, K.MAX_PLAYERS * K.NUM_ACTIONS - 1),
            ("undealt", (K.BONE, K.BONE + K.UNDEALT), 0, NUM_TILES - 1),
            ("undealt head", (K.BONE_HEAD, K.BONE_HEAD + 1), 0, 0),
            ("undealt length", (K.BONE_LEN, K.BONE_LEN + 1), 0, K.UNDEALT),
        ]

    # --- the deal (D3) ------------------------------------------------------------------------------
    def _deal(self, deal: dict[str, Any]) -> None:
        n = self.num_players
        check_keys("deal", deal, ("hands",))
        hands = check_sequence("deal['hands']", deal["hands"], n)
        tiles = [
            [tile_index(t) for t in check_sequence(f"deal['hands'][{s}]", hand, K.HAND_SIZE)]
            for s, hand in enumerate(hands)
        ]
        dealt = [t for hand in tiles for t in hand]
        if len(set(dealt)) != len(dealt):
            raise ValueError("a tile is dealt twice")
        undealt = sorted(set(range(NUM_TILES)) - set(dealt))
        s = self._state
        s[K.HAND : K.HAND + K.MAX_PLAYERS] = 0
        for seat, hand in enumerate(tiles):
            s[K.HAND + seat] = sum(1 << t for t in hand)
        s[K.BONE : K.BONE + len(undealt)] = undealt
        s[K.BONE_LEN] = len(undealt)

    def deal_of(self, state: np.ndarray) -> dict[str, Any]:
        """The hands of ``state`` in the ``deal=`` format."""
        game = Game._from_row(state, self._params)
        return {"hands": [game.hand(seat) for seat in range(self.num_players)]}

    # --- accessors (API: Game) -------------------------------------------------------------------------
    def hand(self, seat: int) -> list[tuple[int, int]]:
        """Tiles held by ``seat``, in set order."""
        return [TILES[t] for t in super().hand(seat)]

    @property
    def boneyard(self) -> list[tuple[int, int]]:
        """The tiles left undealt (2 players, D3: never drawn; hidden information), in set order."""
        return [TILES[t] for t in self.pool]

    def open_ends(self) -> list[int]:
        """The pips of the two open ends, sorted (D7); empty before the lead."""
        ends = self._state[K.ENDS : K.ENDS + 2].tolist()
        return [] if ends[0] < 0 else sorted(ends)

    def returns(self) -> list[float]:
        """OpenSpiel's returns per seat (D11, D12): zero until the game is over."""
        out = np.zeros(self.num_players)
        if self.is_terminal():
            K.write_returns(self._state, self._params, out)
        return out.tolist()

    @property
    def scores(self) -> list[float]:
        """The returns (the arena's places follow them)."""
        return self.returns()

    def known_voids(self, seat: int) -> list[int]:
        """Pips ``seat`` is publicly known to lack: it was skipped while they were open (D8)."""
        voids = int(self._state[K.VOIDS + self.check_seat(seat)])
        return [p for p in range(7) if voids >> p & 1]

    @property
    def placements(self) -> list[tuple[int, int]]:
        """Every placement so far as ``(seat, action)``, in order."""
        log = self._state[K.LOG : K.LOG + self._state[K.STEPS]].tolist()
        return [divmod(entry, K.NUM_ACTIONS) for entry in log]

    @property
    def line(self) -> list[tuple[int, int]]:
        """The tiles on the table from one end to the other, each turned so touching halves match."""
        line: list[tuple[int, int]] = []
        for _, action in self.placements:
            _, (lo, hi), pip = decode_action(action)
            if pip is None:
                line = [(lo, hi)]
            elif line[0][0] == pip:
                line.insert(0, (lo, hi) if hi == pip else (hi, lo))
            else:
                line.append((lo, hi) if lo == pip else (hi, lo))
        return line

    def __str__(self) -> str:
        line = " ".join(f"[{a}|{b}]" for a, b in self.line) or "-"
        status = f"over, returns {self.returns()}" if self.is_terminal() else f"seat {self.current_player} to act"
        return f"line {line} | hand sizes {self.hand_sizes} | {status}"
