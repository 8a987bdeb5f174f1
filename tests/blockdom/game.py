"""``Game``: a match of block dominoes as the shared state object (``BaseGame``)."""

from __future__ import annotations

from sniff_twelve.core.game import BaseGame, slot_accessor
from tests.blockdom import kernels as K
from tests.blockdom.spec import SPEC


class Game(BaseGame):
    """A match for ``num_players`` (2 or 3) to ``target`` points; ``deal=`` (its first deal) as the
    shared one's (the pool is the boneyard)."""

    spec = SPEC
    public_accessors = (*BaseGame.public_accessors, "line", "deals_played")

    @classmethod
    def row_bounds(cls, params) -> list:
        return [
            ("status", (K.STATUS, K.STATUS + 1), K.LIVE, K.OVER),
            ("deals played", (K.DEALS, K.DEALS + 1), 0, int(params[K.P_PLAYERS]) * (int(params[K.P_TARGET]) - 1) + 1),
            ("seat to act", (K.CUR, K.CUR + 1), 0, int(params[K.P_PLAYERS]) - 1),
            ("boneyard head, length, line length", (K.BONE_HEAD, K.LINE_LEN + 1), 0, K.TILES),
            ("hands", (K.HAND, K.BONE), 0, 1),
            ("boneyard", (K.BONE, K.LINE), 0, K.TILES - 1),
            ("line", (K.LINE, K.POINTS), 0, 2),
            ("points", (K.POINTS, K.POINTS + K.MAX_PLAYERS), 0, int(params[K.P_TARGET]) - 1 + K.DEAL_POINTS),
        ]

    @property
    def scores(self) -> list[int]:
        """Every seat's points in the match so far."""
        return self._state[K.POINTS : K.POINTS + self.num_players].tolist()

    deals_played = slot_accessor(K.DEALS, "The deals finished so far (the last one included once the match is over).")

    @property
    def line(self) -> list[tuple[int, int]]:
        """The tiles on the line, left to right, each as its (left, right) pips."""
        pips = self._state[K.LINE : K.LINE + 2 * self._state[K.LINE_LEN]].tolist()
        return list(zip(pips[::2], pips[1::2], strict=True))

    def __str__(self) -> str:
        line = "".join(f"[{a}|{b}]" for a, b in self.line) or "-"
        status = "over" if self.is_terminal() else f"seat {self.current_player} to act"
        return f"line {line} | hand sizes {self.hand_sizes} | boneyard {self.pool_size} | {status}"
