"""Independent pure-Python reference for ONE HAND of American Sniff (dominoes).

Derived only from docs/rules.md Part S (S1-S27 with its Decisions, including the S4a variants),
the public action/layout conventions of the Sniff API and the worked examples of the
original rule text.  Standard library only; written for clarity, not speed.  Used as the
oracle of a differential test against the compiled engine.

Variants (S4a, off by default):
  * ``settlement="allfives"`` - instead of everyone deducting their own rounded pips (S24),
    the side that went out (when blocked: the side of the lowest hand) is credited the
    opponents' pips, each hand rounded on its own (S23); that credit can win the match (S25);
  * ``undrawn=k`` (0, 1 or 2) - the last ``k`` boneyard tiles are never drawn: once only they
    remain, the boneyard counts as empty for drawing (S19), passing and blocking (S21).

The size dial (a smaller table than S2 and S5's, every other rule unchanged):
  * ``pips=N`` (2..6) - the double-N set: the tiles (a, b) with 0 <= a <= b <= N instead of S2's
    double six; tile ids (and so action ids) stay those of the full 28-tile order;
  * a hand size other than S5's 7 / 6 / 5: the reference takes its hands as given, of any size;
    ``deal`` shuffles the set and deals ``hand_size`` tiles to each seat, the rest is the boneyard.
  A *small table* (N < 6, or a hand size other than S5's) is one hand: ``episode_of``.

Match-level limits (S26 truncation, one-hand episodes) are not modelled here: one
reference object is one hand; the differential harness drives the match.

Layout model (deliberately direct):
  * ``placed``       - the tiles on the table in placement order;
  * ``connections``  - list of ((existing tile, side), (attached tile, side));
  * ``arms``         - for each of the four arms 0..3 the spot (tile, side) that is its
                       current free end, or None (arms 2/3 stay None until the Sniff's
                       two line sides both have a tile attached, S13).
Scored ends and free spots for describe() are recomputed from ``placed`` and
``connections`` tile by tile (S10, S11, S14), independently of ``arms``; ``arms`` is
only used to name actions.
"""

from __future__ import annotations

import random

MAX_PIPS = 6  # S2: the double-six set
TILES: list[tuple[int, int]] = [(a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1)]
TILE_INDEX: dict[tuple[int, int], int] = {t: i for i, t in enumerate(TILES)}
DRAW, PASS = 112, 113
TARGETS = {2: 250, 3: 200, 4: 200}  # S3 (the harness passes the target explicitly)
HAND_SIZES = {2: 7, 3: 6, 4: 5}  # S5
SETTLEMENTS = ("deduct", "allfives")  # S24 (default) and the S4a All Fives variant
MIN_PIPS = 2  # the size dial's smallest set, the double two


def tile_set(pips: int = MAX_PIPS) -> list[tuple[int, int]]:
    """The double-``pips`` set in tile-id order: (a, b) with 0 <= a <= b <= pips (S2 for pips=6)."""
    if not MIN_PIPS <= pips <= MAX_PIPS:
        raise ValueError(f"pips must be {MIN_PIPS}..{MAX_PIPS}")
    return [t for t in TILES if t[1] <= pips]


def hand_size_of(num_players: int, hand_size: int | None = None) -> int:
    """Tiles dealt to each seat: S5's 7 / 6 / 5 for 2 / 3 / 4 players unless the dial sets it."""
    return HAND_SIZES[num_players] if hand_size is None else hand_size


def is_small_table(num_players: int, pips: int = MAX_PIPS, hand_size: int | None = None) -> bool:
    """A smaller set than S2's or another hand size than S5's."""
    return pips < MAX_PIPS or hand_size_of(num_players, hand_size) != HAND_SIZES[num_players]


def episode_of(num_players: int, pips: int = MAX_PIPS, hand_size: int | None = None, episode: str | None = None) -> str:
    """An episode left unset is one hand (settled, S22-S24) on a small table, else the match (S3, S25)."""
    if episode is not None:
        return episode
    return "hand" if is_small_table(num_players, pips, hand_size) else "match"


def deal(num_players: int, rng: random.Random, pips: int = MAX_PIPS, hand_size: int | None = None) -> dict[str, object]:
    """S5 on the double-``pips`` set: shuffle it, ``hand_size`` tiles to each seat (S5's count by
    default), the rest is the boneyard (drawn front first); the opener by lot (S6)."""
    tiles = tile_set(pips)
    size = hand_size_of(num_players, hand_size)
    if size < 1 or num_players * size > len(tiles):
        raise ValueError(f"cannot deal {size} tiles to {num_players} seats from {len(tiles)}")
    rng.shuffle(tiles)
    hands = [tiles[seat * size : (seat + 1) * size] for seat in range(num_players)]
    return {"hands": hands, "boneyard": tiles[num_players * size :], "opener": rng.randrange(num_players)}


def is_double(tile: tuple[int, int]) -> bool:
    return tile[0] == tile[1]


def pip_of(tile: tuple[int, int], side: str) -> int:
    """Pip a spot accepts: the half's value for a non-double, v for any side of a double."""
    if side == "high":
        return tile[1]
    return tile[0]  # "low", or any side of a double


def round5(pips: int) -> int:
    """S23: nearest multiple of 5; remainders 1, 2 round down, 3, 4 round up."""
    r = pips % 5
    return pips - r if r <= 2 else pips + (5 - r)


def pips(hand: list[tuple[int, int]]) -> int:
    """S2: a hand's pip count, the sum of its tiles' halves."""
    return sum(a + b for a, b in hand)


def encode(tile: tuple[int, int], arm: int) -> int:
    return TILE_INDEX[tile] * 4 + arm


class SniffHandReference:
    """One hand from a given deal (hands, boneyard drawn front first, opener) and the
    match scores before it; ``settlement`` and ``undrawn`` select the S4a variants, ``pips``
    the set the tiles come from (S2; the size dial's double-N set).  Hands may have any size
    (S5 or the dial); tiles of the set left out of hands and boneyard are out of play.

    After the hand: ``result`` is "domino" or "blocked" (S22, settled) or "won" (S25, a
    placement credit reached the target: over at once, not settled); ``winner`` is the side
    that reached the target, also when the All Fives settlement credit reached it.
    ``events`` lists ``("credit", side, points)`` and ``("deduct", seat, points)`` with
    non-zero points in the order they happen; the scores moved by exactly their sum.
    """

    def __init__(
        self,
        num_players: int,
        hands: list[list[tuple[int, int]]],
        boneyard: list[tuple[int, int]],
        opener: int,
        scores: list[int],
        target: int,
        settlement: str = "deduct",
        undrawn: int = 0,
        pips: int = MAX_PIPS,
    ):
        if num_players not in (2, 3, 4):  # S1
            raise ValueError("num_players must be 2, 3 or 4")
        if settlement not in SETTLEMENTS:  # S4a
            raise ValueError(f"settlement must be one of {SETTLEMENTS}")
        if undrawn not in (0, 1, 2):  # S4a: "the last one or two boneyard tiles"
            raise ValueError("undrawn must be 0, 1 or 2")
        if len(hands) != num_players:
            raise ValueError("need one hand per seat")
        if not 0 <= opener < num_players:
            raise ValueError("opener out of range")
        n_sides = 2 if num_players == 4 else num_players
        if len(scores) != n_sides:
            raise ValueError(f"need {n_sides} scores")
        norm = lambda t: (min(t), max(t))  # noqa: E731
        self.num_players = num_players
        self.pips = pips
        self.hands: list[list[tuple[int, int]]] = [[norm(t) for t in h] for h in hands]
        self.boneyard: list[tuple[int, int]] = [norm(t) for t in boneyard]
        all_tiles = [t for h in self.hands for t in h] + self.boneyard
        if len(set(all_tiles)) != len(all_tiles) or not set(all_tiles) <= set(tile_set(pips)):
            raise ValueError(f"tiles must be distinct tiles of the double-{pips} set")
        if not self.hands[opener]:
            raise ValueError("the opener needs a tile")
        self.current_player: int = opener
        self.scores: list[int] = list(scores)
        self.target = target
        self.settlement = settlement
        self.undrawn = undrawn
        self.over = False
        self.result: str | None = None
        self.out_player: int | None = None
        self.winner: int | None = None
        self.deductions: list[int] = [0] * num_players  # S24 (deduct settlement only)
        self.settled_side: int | None = None  # S4a All Fives: the side credited at the hand end
        self.settled_points = 0
        self.events: list[tuple[str, int, int]] = []
        self.last_credit = 0
        self.forced: tuple[int, int] | None = None  # S20: drawn playable tile that must be placed
        # layout
        self.placed: list[tuple[int, int]] = []
        self.connections: list[tuple[tuple[tuple[int, int], str], tuple[tuple[int, int], str]]] = []
        self.spinner: tuple[int, int] | None = None
        self.arms: list[tuple[tuple[int, int], str] | None] = [None, None, None, None]

    # ------------------------------------------------------------------ helpers
    def side_of(self, seat: int) -> int:
        """Score index of a seat: partnership seat % 2 with 4 players (S1), else the seat."""
        return seat % 2 if self.num_players == 4 else seat

    def used_sides(self, tile: tuple[int, int]) -> set[str]:
        """Sides of a placed tile that take part in a connection (either end of it)."""
        used = set()
        for (t1, s1), (t2, s2) in self.connections:
            if t1 == tile:
                used.add(s1)
            if t2 == tile:
                used.add(s2)
        return used

    def placements_of(self, tile: tuple[int, int]) -> list[int]:
        """Action ids placing ``tile`` on the current layout (S8, S9)."""
        if not self.placed:
            return [encode(tile, 0)]  # S8: any tile opens, on arm 0
        out = []
        for arm, spot in enumerate(self.arms):
            if spot is not None and pip_of(*spot) in tile:
                out.append(encode(tile, arm))
        return out

    def can_place(self, seat: int) -> bool:
        return any(self.placements_of(t) for t in self.hands[seat])

    def can_draw(self) -> bool:
        """S19/S4a: a tile can be drawn while more than ``undrawn`` tiles are left; otherwise
        the boneyard counts as empty (for drawing, passing and blocking, S21)."""
        return len(self.boneyard) > self.undrawn

    def credit(self, side: int, points: int) -> None:
        """Add ``points`` to a side's score; reaching the target wins at once (S3, S25)."""
        if points:
            self.scores[side] += points
            self.events.append(("credit", side, points))
        if self.scores[side] >= self.target:
            self.over, self.winner = True, side

    # ------------------------------------------------------------------ API
    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        seat = self.current_player
        if self.forced is not None:  # S20: only the drawn tile may be played
            return sorted(self.placements_of(self.forced))
        acts = sorted(a for t in self.hands[seat] for a in self.placements_of(t))
        if acts:
            return acts  # S18: must play
        if self.can_draw():
            return [DRAW]  # S19
        return [PASS]  # S21 (with S4a: only undrawn tiles may be left)

    def apply(self, action: int) -> None:
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action!r}; legal actions: {legal}")
        seat = self.current_player
        n = self.num_players
        if action == DRAW:  # S19: one tile; the turn does not end
            tile = self.boneyard.pop(0)
            self.hands[seat].append(tile)
            if self.placements_of(tile):
                self.forced = tile  # S20
            self.check_block()
            return
        if action == PASS:  # S21
            self.current_player = (seat + 1) % n
            self.check_block()
            return
        tile, arm = TILES[action // 4], action % 4
        self.hands[seat].remove(tile)
        self.forced = None
        self.place(tile, arm)
        # S17: credit of this placement
        total = sum(v for _, v in self.scored())
        credit = total if total > 0 and total % 5 == 0 else 0
        self.last_credit = credit
        self.credit(self.side_of(seat), credit)
        if self.winner is not None:  # S25: immediate win, no settlement
            self.result = "won"
            return
        if not self.hands[seat]:  # S22: domino
            self.out_player = seat
            self.settle("domino")
            return
        if self.check_block():
            return
        self.current_player = (seat + 1) % n  # S7

    def check_block(self) -> bool:
        """S21 Decision: blocked as soon as the boneyard is empty (S4a: holds only undrawn
        tiles) and nobody can place."""
        if self.can_draw() or any(self.can_place(s) for s in range(self.num_players)):
            return False
        self.settle("blocked")
        return True

    def settle(self, result: str) -> None:
        """S23: every hand's pips rounded on its own; then S24 or the S4a All Fives settlement."""
        self.over, self.result = True, result
        rounded = [round5(pips(hand)) for hand in self.hands]
        if self.settlement == "deduct":  # S24: each seat's rounded pips off its side's score
            for seat, amount in enumerate(rounded):
                self.deductions[seat] = amount
                self.scores[self.side_of(seat)] -= amount
                if amount:
                    self.events.append(("deduct", seat, amount))
            return
        side = self.all_fives_side()
        if side is None:
            return
        # S4a: the opponents' hands, each rounded separately (S23); a partner's pips count for nobody
        points = sum(amount for seat, amount in enumerate(rounded) if self.side_of(seat) != side)
        self.settled_side, self.settled_points = side, points
        self.credit(side, points)  # S4a/S25: this credit can win the match

    def all_fives_side(self) -> int | None:
        """S4a: who scores the All Fives settlement.  After a domino the side that went out;
        when blocked the side of the lowest hand (fewest pips, before rounding).  Decision (the
        rule text is silent on ties): nobody scores when seats of different sides tie for the
        fewest; partners tying is no tie, their side scores."""
        if self.result == "domino":
            return self.side_of(self.out_player)
        counts = [pips(hand) for hand in self.hands]
        lowest = {self.side_of(seat) for seat, c in enumerate(counts) if c == min(counts)}
        return lowest.pop() if len(lowest) == 1 else None

    # ------------------------------------------------------------------ layout
    def place(self, tile: tuple[int, int], arm: int) -> None:
        """Put ``tile`` on ``arm`` (legality already checked) and update the arm ends."""
        if is_double(tile) and self.spinner is None:
            self.spinner = tile  # S12: first double of the hand
        if not self.placed:
            self.placed.append(tile)
            if is_double(tile):
                self.arms[0], self.arms[1] = (tile, "line_a"), (tile, "line_b")
            else:
                self.arms[0], self.arms[1] = (tile, "low"), (tile, "high")
            return
        spot = self.arms[arm]
        pip = pip_of(*spot)
        if is_double(tile):
            attach, free = "line_a", "line_b"  # S10/S13: attaches by A, B continues the arm
        elif tile[0] == pip:
            attach, free = "low", "high"
        else:
            attach, free = "high", "low"
        self.placed.append(tile)
        self.connections.append((spot, (tile, attach)))
        self.arms[arm] = (tile, free)
        # S13: side arms become free once both of the Sniff's line sides have a tile attached
        sp = self.spinner
        if sp is not None and self.arms[2] is None and {"line_a", "line_b"} <= self.used_sides(sp):
            self.arms[2], self.arms[3] = (sp, "arm_a"), (sp, "arm_b")

    def free_spots(self) -> list[tuple[tuple[int, int], str, int]]:
        """Every free attachment spot, derived tile by tile from the connections (S9-S15)."""
        out = []
        for tile in self.placed:
            used = self.used_sides(tile)
            if not is_double(tile):
                sides = ["low", "high"]
            elif tile == self.spinner and {"line_a", "line_b"} <= used:
                sides = ["arm_a", "arm_b"]
            else:
                sides = ["line_a", "line_b"]  # a non-Sniff double always has line_a used
            out += [(tile, s, pip_of(tile, s)) for s in sides if s not in used]
        return out

    def scored(self) -> list[tuple[tuple[int, int], int]]:
        """(tile, contribution) of every currently scored end (S10, S14, S15)."""
        out = []
        for tile in self.placed:
            used = self.used_sides(tile)
            v = tile[0]
            if not is_double(tile):
                out += [(tile, pip_of(tile, s)) for s in ("low", "high") if s not in used]
            elif not {"line_a", "line_b"} <= used:
                out.append((tile, 2 * v))  # end double: both halves, once
            elif tile == self.spinner:
                out += [(tile, v) for s in ("arm_a", "arm_b") if s not in used]
            # an interior non-Sniff double scores nothing
        return out

    def describe(self) -> dict:
        scored = self.scored()
        return {
            "tiles": list(self.placed),
            "spinner": self.spinner,
            "connections": list(self.connections),
            "open_spots": self.free_spots(),
            "scored": scored,
            "total": sum(v for _, v in scored),
            "credit": self.last_credit,
        }
