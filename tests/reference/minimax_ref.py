"""Independent brute-force perfect-information minimax over the pure-Python reference games.

Written from docs/rules.md and the solver's value specification only; it computes every value by
playing the reference games (``sniff_ref.SniffHandReference``, ``twelve_ref.TwelveReference``) move
by move: clone, ``apply``, recurse, over every legal action, with no pruning. Standard library only.

Value (the specification the compiled solver implements too). The *root seat* is the seat to act in
the solved position; ``score(x)`` is the Sniff match score of side ``x`` (one per seat with 2-3
players, one per partnership 0+2 / 1+3 with 4, S1, S3) or the "12" score of seat ``x`` (T15:
captured cards minus cards in hand, at that moment).

* Two sides (Sniff with 2 or 4 players, "12" with 2): the utility is ``score(root side) -
  score(other side)``; seats of the root's side maximise, the others minimise.
* More sides (Sniff with 3 players, "12" with 3-7): the *paranoid* utility ``score(root) -
  sum(score(others))``; the root seat maximises, every other seat minimises it.
* A value is the utility at the end minus the utility now, under optimal play. The end is the end
  of the hand for Sniff (domino or block, settled, S21-S24 or the S4a All Fives settlement; or a
  credit reaching the target, S25, after which nothing is played or settled) and the end of the game
  for "12" (T12-T14). DRAW and PASS (S19, S21) are ordinary moves with one choice: the boneyard and
  stock orders are known.
* ``action_values[a]`` is the value of the position after ``a`` (same root point of view, measured
  from the utility *before* ``a``, so the gain made by ``a`` itself is included);
  ``value = max(action_values.values())`` - the root always maximises.

Because a value is "end minus now", the value of a position depends only on that position (and the
point of view), not on how it was reached: the memo below maps (point of view, complete state)
to it. The complete state is every attribute of the reference object except its write-only history
(``events``, ``last_credit`` of the Sniff reference); two equal keys therefore have identical futures.
With two sides the memo always stores the side-0 point of view (the game is zero-sum between the two
sides, so the other side's value is its negation); with paranoid values the root seat is in the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .sniff_ref import DRAW, PASS, SniffHandReference
from .twelve_ref import SIX, TwelveReference

Game = Any  # a SniffHandReference or a TwelveReference
TWO_SIDES = -1  # the point of view "side 0 against side 1" (two-sided games)


class TooBigError(Exception):
    """The search expanded more than ``max_nodes`` positions (the caller skips the position)."""


ATOMS = frozenset({int, str, bool, type(None)})


def clone(obj: Game) -> Game:
    """An independent copy of a reference game: every attribute copied, lists recursively; anything
    else must be hashable (ints, strings, None, tuples of those), so no mutable state is shared."""
    new = object.__new__(type(obj))
    new.__dict__ = {name: _copy(value) for name, value in obj.__dict__.items()}
    return new


def _copy(value: Any) -> Any:
    if type(value) is list:
        return [v if type(v) in ATOMS else _copy(v) for v in value]
    if type(value) not in ATOMS:
        hash(value)  # TypeError for anything mutable the copy would share
    return value


def _freeze(value: Any) -> Any:
    """``value`` as a hashable key: lists (recursively) become tuples."""
    if type(value) is list:
        return tuple(v if type(v) in ATOMS else _freeze(v) for v in value)
    if type(value) not in ATOMS:
        hash(value)
    return value


@dataclass
class Solution:
    """The minimax answer for one root: ``value``, ``action_values`` (legal action -> value), the
    arg-max set ``best``, the positions ``nodes`` expanded for it (memo hits not counted), and
    ``events``: the names of the rule events reachable in the root's game tree (``EVENTS``)."""

    value: int
    action_values: dict[int, int]
    best: list[int]
    nodes: int
    events: frozenset[str]


class Minimax:
    """Memoised brute-force minimax over one reference game family; subclasses say how to score.

    One instance may solve many roots (a memo shared between them stays valid: see the module
    docstring); ``max_nodes`` bounds the expansions of one ``solve`` call (``TooBigError`` beyond it).
    """

    EVENTS: tuple[str, ...] = ()
    HISTORY: tuple[str, ...] = ()  # write-only attributes left out of the state key

    def __init__(self, max_nodes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.memo: dict[tuple, tuple[int, int]] = {}
        self._budget = 0

    # -- game specific ------------------------------------------------------------------------
    def two_sided(self, game: Game) -> bool:
        raise NotImplementedError

    def side(self, game: Game, seat: int) -> int:
        return seat

    def score(self, game: Game) -> list[int]:
        raise NotImplementedError

    def edge_events(self, parent: Game, action: int, child: Game) -> set[str]:
        """Names (from ``EVENTS``) of what ``action`` caused between ``parent`` and ``child``."""
        return set()

    # -- generic ------------------------------------------------------------------------------
    def key(self, game: Game) -> tuple:
        """The complete state: every (attribute, value) but the write-only history."""
        return tuple((name, _freeze(v)) for name, v in game.__dict__.items() if name not in self.HISTORY)

    def utility(self, game: Game, view: int) -> int:
        """``view`` is ``TWO_SIDES`` (side 0 minus side 1) or the root seat (paranoid)."""
        s = self.score(game)
        if view == TWO_SIDES:
            return s[0] - s[1]
        return s[view] - sum(s) + s[view]

    def maximising(self, game: Game, view: int) -> bool:
        if view == TWO_SIDES:
            return self.side(game, game.current_player) == 0
        return game.current_player == view

    def _bits(self, names: set[str]) -> int:
        return sum(1 << self.EVENTS.index(name) for name in names)

    def _step(self, game: Game, here: int, action: int, view: int) -> tuple[int, int]:
        """(utility gain of ``action`` plus the value after it, events bitmask) from ``view``;
        ``here`` is the utility of ``game``."""
        child = clone(game)
        child.apply(action)
        later, events = self._value(child, view)
        gain = self.utility(child, view) - here
        return gain + later, events | self._bits(self.edge_events(game, action, child))

    def _value(self, game: Game, view: int) -> tuple[int, int]:
        """Value of ``game`` (end minus now) from ``view`` and the events reachable from it."""
        if game.over:
            return 0, 0
        key = (view, self.key(game))
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._budget -= 1
        if self._budget < 0:
            raise TooBigError
        values, events, here = [], 0, self.utility(game, view)
        for action in game.legal_actions():
            v, e = self._step(game, here, action, view)
            values.append(v)
            events |= e
        result = (max(values) if self.maximising(game, view) else min(values)), events
        self.memo[key] = result
        return result

    def solve(self, game: Game) -> Solution:
        """Value and action values of the live position ``game`` for its seat to act."""
        if game.over:
            raise ValueError("the position is over: nothing to solve")
        root = game.current_player
        if self.two_sided(game):
            view, sign = TWO_SIDES, (1 if self.side(game, root) == 0 else -1)
        else:
            view, sign = root, 1
        self._budget = self.max_nodes if self.max_nodes is not None else 1 << 62
        start = self._budget
        action_values, events, here = {}, 0, self.utility(game, view)
        for action in game.legal_actions():
            v, e = self._step(game, here, action, view)
            action_values[action] = sign * v
            events |= e
        value = max(action_values.values())
        best = [a for a, v in action_values.items() if v == value]
        names = frozenset(name for i, name in enumerate(self.EVENTS) if events >> i & 1)
        return Solution(value, action_values, best, start - self._budget + 1, names)


class SniffMinimax(Minimax):
    """Minimax over one Sniff hand (``SniffHandReference``): two sides with 2 or 4 players (S1),
    paranoid with 3; the end is the end of the hand (S21-S25, S4a)."""

    HISTORY = ("events", "last_credit")
    EVENTS = (
        "draw",  # S19
        "draw of a playable tile",  # S20
        "pass",  # S21
        "side arms open",  # S13
        "credit",  # S17
        "domino",  # S22
        "blocked",  # S21, S22
        "blocked with undrawn tiles",  # S4a
        "deduction",  # S23, S24
        "all fives credit",  # S4a
        "all fives tie",  # S4a (nobody scores)
        "won by a placement",  # S25
        "won by the settlement",  # S4a + S25
    )

    def two_sided(self, game: SniffHandReference) -> bool:
        return game.num_players in (2, 4)

    def side(self, game: SniffHandReference, seat: int) -> int:
        return game.side_of(seat)

    def score(self, game: SniffHandReference) -> list[int]:
        return game.scores

    def edge_events(self, parent: SniffHandReference, action: int, child: SniffHandReference) -> set[str]:
        out = set()
        if action == DRAW:
            out.add("draw")
            if child.forced is not None:
                out.add("draw of a playable tile")
        elif action == PASS:
            out.add("pass")
        elif child.last_credit:
            out.add("credit")
        if parent.arms[2] is None and child.arms[2] is not None:
            out.add("side arms open")
        if not child.over:
            return out
        if child.result == "won":
            out.add("won by a placement")
            return out
        out.add(child.result)
        if child.result == "blocked" and child.boneyard:
            out.add("blocked with undrawn tiles")
        if any(child.deductions):
            out.add("deduction")
        if child.settlement == "allfives":
            if child.settled_side is None:
                out.add("all fives tie")
            elif child.settled_points:
                out.add("all fives credit")
            if child.winner is not None:
                out.add("won by the settlement")
        return out


class TwelveMinimax(Minimax):
    """Minimax over a game of "12" (``TwelveReference``): two sides with 2 players, paranoid with
    3-7; the end is the end of the game (T12-T14); values count T15 scores."""

    EVENTS = (
        "capture",  # T8
        "extra turn",  # T10 variant: the capturer moves again
        "six on six",  # T11
        "six on six, stock short for the draws",  # T11 Decision: an empty stock gives nothing
        "last card",  # T12
        "last round starts",  # T13
        "last round played out",  # T13
        "capture ends the last round",  # T14
        "capture empties the stock",  # T14 (outside the last round)
    )

    def two_sided(self, game: TwelveReference) -> bool:
        return game.num_players == 2

    def score(self, game: TwelveReference) -> list[int]:
        return game.scores()

    def edge_events(self, parent: TwelveReference, action: int, child: TwelveReference) -> set[str]:
        out = set()
        seat = parent.current_player
        capture = child.captured[seat] > parent.captured[seat]
        last_card = not child.hands[seat]
        if capture:
            out.add("capture")
            if action == SIX and parent.pile[-1] == SIX and not last_card:
                out.add("six on six")
                if len(parent.stock) < parent.num_players - 1:
                    out.add("six on six, stock short for the draws")
            if not child.over and child.current_player == seat:
                out.add("extra turn")
        if last_card:
            out.add("last card")
        elif child.over and parent.last_round:
            out.add("capture ends the last round" if capture else "last round played out")
        elif child.over:
            out.add("capture empties the stock")
        if not parent.last_round and child.last_round and not child.over:
            out.add("last round starts")
        return out


def sniff_minimax(game: SniffHandReference, max_nodes: int | None = None) -> tuple[int, dict[int, int]]:
    """``(value, {action: value after it})`` of a live Sniff hand for its seat to act (no memo kept)."""
    solution = SniffMinimax(max_nodes).solve(game)
    return solution.value, solution.action_values


def twelve_minimax(game: TwelveReference, max_nodes: int | None = None) -> tuple[int, dict[int, int]]:
    """``(value, {action: value after it})`` of a live game of "12" for its seat to act (no memo kept)."""
    solution = TwelveMinimax(max_nodes).solve(game)
    return solution.value, solution.action_values
