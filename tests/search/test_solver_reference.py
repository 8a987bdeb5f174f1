"""Differential test: the compiled perfect-information solvers (``sniff_env.solver.solve``,
``twelve_env.solver.solve``) against the independent brute-force minimax of
``tests/reference/minimax_ref.py``, which plays the pure-Python reference games only.

Both implement one value specification (see ``minimax_ref``): the root seat's side against the
other side with two sides, the paranoid root-against-everyone rule with more; a value is the utility
at the end of the hand (Sniff, S21-S25, S4a) or game ("12", T12-T14) minus the utility now.
At every compared position the solver's ``value``, ``action_values`` (keyed by exactly the legal
actions), ``best`` (the arg-max set) must equal the reference's, ``exact`` must be true, and the
solver must leave the game it was given unchanged.

Positions are *lines*: a small or late position is set up in a ``Game`` and in the reference, then
played forward with seeded random actions; every position of the line from the first one whose game
tree the reference can brute-force within ``MAX_NODES`` expansions to the end is compared (the
reference memo makes the later ones cheap). Kinds:

* Sniff ``deal``: a partial first hand (1-4 tiles a hand, 0-3 in the boneyard, the rest out of play)
  at scores 0 with a low target (5-30), so placement credits win the match (S25);
* Sniff ``later``: such a partial hand dealt (``Game.redeal``) after a first partial hand has been
  played and settled, so the scores are non-zero (and may be negative) and near a low target;
* Sniff ``full``: full random deals (S5) played forward hand after hand to a target of 30-80; a
  hand's positions are compared once few tiles are left in the hands and boneyard;
* "12" ``deal``: partial deals (1-4 cards a hand, short stocks, sixes made likely: T11, T13, T14);
* "12" ``seeded``: full seeded deals (T5) played forward until the stock is nearly empty.

Every case cycles through the variants (Sniff: ``settlement`` x ``undrawn``, S4a; "12": deck x the
T10 extra turn) and asserts how many positions it compared and which rule events the compared game
trees contained (S25 wins, All Fives settlements, blocks, mid-draw roots; T11 captures, extra turns,
T13 last rounds, T14 ends, ...). A failing comparison names a reproduction: the ``Game`` arguments,
the actions (and ``redeal``) that reach the position, and both sides' values.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from numbers import Integral
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import sniff_env
import twelve_env
from tests.reference.minimax_ref import Minimax, SniffMinimax, Solution, TooBigError, TwelveMinimax
from tests.reference.sniff_ref import DRAW, PASS, TILES, SniffHandReference
from tests.reference.twelve_ref import SIX, TwelveReference

pytestmark = pytest.mark.slow

MAX_NODES = {"sniff": 3000, "twelve": 2000}  # reference expansions for one root (else the line walks on)
MAX_MISMATCHES = 5  # disagreements reported in full

SNIFF_VARIANTS = [(settlement, undrawn) for settlement in ("deduct", "allfives") for undrawn in (0, 1, 2)]
SNIFF_KINDS = ("deal", "later", "full")
# lines per player count (``full``: matches, each of up to 12 hands)
SNIFF_LINES = {"deal": {2: 160, 3: 160, 4: 160}, "later": {2: 110, 3: 110, 4: 110}, "full": {2: 24, 3: 20, 4: 16}}
SNIFF_HAND, SNIFF_BONEYARD = {2: 5, 3: 4, 4: 4}, {2: 4, 3: 4, 4: 3}  # partial deals: most tiles a hand, boneyard
SNIFF_FULL_LEFT = {2: 14, 3: 13, 4: 15}  # compare once at most this many tiles are in hands + boneyard
SNIFF_MIN_POSITIONS = {"deal": 400, "later": 300, "full": 150}
SNIFF_CASES = [(n, kind) for n in (2, 3, 4) for kind in SNIFF_KINDS]

TWELVE_VARIANTS = [(deck, extra) for deck in ("bridge", "numbers") for extra in (False, True)]
TWELVE_KINDS = ("deal", "seeded")
TWELVE_LINES = {"deal": 150, "seeded": 40}
TWELVE_ESTIMATE = 1500
TWELVE_HAND = {2: 4, 3: 3, 4: 3, 5: 3, 6: 2, 7: 2}  # partial deals: most cards a hand
TWELVE_MIN_POSITIONS = {"deal": 200, "seeded": 50}
RANKS = {"bridge": 13, "numbers": 11}


class Run:
    """Comparison bookkeeping of one test case: position count, tallies, first disagreements."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.positions = 0
        self.stats: Counter = Counter()
        self.mismatches: list[str] = []

    def compare_listed(self, solve: Any, game: Any, want: Solution) -> list[str]:
        """``solve(moves=...)`` with a few of the legal actions (none, one, several, in turn): the
        value, the best actions and the listed actions' values as the reference's; every other
        action only bounded, by a bound at least its true value and below the best."""
        legal = game.legal_actions()
        listed = random.Random(self.positions).sample(legal, self.positions % min(len(legal) + 1, 4))
        got = solve(game, moves=listed)
        problems = []
        if got.value != want.value or sorted(got.best) != sorted(want.best) or not got.exact:
            problems.append(f"moves={listed}: value {got.value}, best {got.best} differ")
        if any(got.action_values.get(a) != want.action_values[a] for a in [*listed, *want.best]):
            problems.append(f"moves={listed}: a listed or best action's value differs")
        for a in set(legal) - set(got.action_values):
            if not want.action_values[a] <= got.action_bounds[a] < want.value:
                problems.append(f"moves={listed}: action {a}'s bound {got.action_bounds[a]} is not below the best")
        self.stats["roots solved with moves="] += 1
        self.stats["actions only bounded"] += len(set(legal) - set(got.action_values))
        return problems

    def compare(self, solve: Any, game: Any, want: Solution, repro: str) -> None:
        """One position: the solver's answer for ``game`` must equal the reference's ``want``."""
        legal = game.legal_actions()
        state, history = game.state_array.copy(), list(game.history)
        try:
            got = solve(game, max_nodes=None)
        except Exception as error:  # reported with its reproduction like any disagreement
            got = SimpleNamespace(value=None, action_values={}, best=[], nodes=None, exact=None)
            problems = [f"solve() raised {error!r}"]
        else:
            problems = []
        if not (np.array_equal(game.state_array, state) and game.history == history):
            problems.append("solve() changed the game it was given")
        if got.exact is not True:
            problems.append(f"exact={got.exact!r}")
        if not isinstance(got.nodes, Integral) or got.nodes < 0:
            problems.append(f"nodes={got.nodes!r}")
        if not isinstance(got.value, Integral) or not all(isinstance(v, Integral) for v in got.action_values.values()):
            problems.append("values are not integers")
        values = {int(a): int(v) for a, v in got.action_values.items()}
        if sorted(values) != legal:
            problems.append(f"action_values keys {sorted(values)} != legal actions {legal}")
        if values != want.action_values:
            problems.append("action_values differ")
        if got.value != want.value:
            problems.append("value differs")
        if sorted(int(a) for a in got.best) != sorted(want.best):
            problems.append("best differs")
        problems += self.compare_listed(solve, game, want)
        self.positions += 1
        self.stats["roots with a choice"] += len(legal) > 1
        self.stats["roots where the choice matters"] += len(set(want.action_values.values())) > 1
        for event in want.events:
            self.stats[event] += 1
        if problems:
            self.stats["mismatches"] += 1
            if len(self.mismatches) < MAX_MISMATCHES:
                self.mismatches.append(
                    f"{'; '.join(problems)}\n  position: {repro}\n  seat to act {game.current_player}, legal {legal}\n"
                    f"  reference: value {want.value}, action_values {want.action_values}, best {sorted(want.best)}\n"
                    f"  solver:    value {got.value}, action_values {values}, best {sorted(got.best)}, "
                    f"exact {got.exact}, nodes {got.nodes}"
                )

    def report(self, minimum: int) -> None:
        print(f"\n{self.name}: {self.positions} positions compared; {dict(sorted(self.stats.items()))}")
        assert not self.mismatches, f"{self.stats['mismatches']} of {self.positions} positions disagree:\n" + (
            "\n".join(self.mismatches)
        )
        assert self.positions >= minimum, (self.positions, minimum)


def try_solve(minimax: Minimax, ref: Any) -> Solution | None:
    """The reference's answer, or ``None`` when its game tree is too big to brute-force."""
    try:
        return minimax.solve(ref)
    except TooBigError:
        return None


# ------------------------------------------------------------------------------------------ Sniff
def sniff_ref_at_hand_start(game: sniff_env.Game, settlement: str, undrawn: int) -> SniffHandReference:
    n = game.num_players
    return SniffHandReference(
        n,
        [game.hand(s) for s in range(n)],
        game.boneyard,
        game.current_player,
        game.scores,
        game.target,
        settlement=settlement,
        undrawn=undrawn,
    )


def sniff_same_position(game: sniff_env.Game, ref: SniffHandReference, where: str) -> None:
    """The engine and the reference stand at the same position (else the comparison is moot)."""
    assert game.current_player == ref.current_player and game.scores == ref.scores, where
    assert game.legal_actions() == ref.legal_actions() and game.boneyard == ref.boneyard, where
    assert all(game.hand(s) == sorted(ref.hands[s]) for s in range(game.num_players)), where


def sniff_small_deal(n: int, rng: random.Random) -> dict:
    """A partial hand: 1-4 tiles a seat (fewer with more players), 0-3 in the boneyard."""
    tiles = list(TILES)
    rng.shuffle(tiles)
    hands = []
    for _ in range(n):
        k = rng.randint(1, SNIFF_HAND[n])
        hands.append(tiles[:k])
        del tiles[:k]
    return {"hands": hands, "boneyard": tiles[: rng.randint(0, SNIFF_BONEYARD[n])], "opener": rng.randrange(n)}


def sniff_line(
    run: Run, solve: Any, game: sniff_env.Game, rng: random.Random, variant: tuple[str, int], setup: str, left: int
) -> None:
    """Walk the hand now starting in ``game`` with random actions; compare every position from the
    first one with at most ``left`` tiles in hands + boneyard whose tree fits ``MAX_NODES``."""
    ref = sniff_ref_at_hand_start(game, *variant)
    minimax = SniffMinimax(MAX_NODES["sniff"])
    start = len(game.history)
    started = False
    while not ref.over:
        where = f"{setup}, then actions {game.history[start:]}"
        sniff_same_position(game, ref, where)
        if started or sum(map(len, ref.hands)) + len(ref.boneyard) <= left:
            want = try_solve(minimax, ref)
            if want is not None:
                started = True
                legal = ref.legal_actions()
                run.stats["opening roots (S8)"] += not ref.placed
                run.stats["mid-draw roots (S20)"] += ref.forced is not None
                run.stats["draw roots"] += legal == [DRAW]
                run.stats["pass roots"] += legal == [PASS]
                run.stats["roots with non-zero scores"] += any(ref.scores)
                run.stats["roots near the target"] += max(ref.scores) >= ref.target - 10
                run.compare(solve, game, want, where)
            else:
                run.stats["too big for the reference"] += 1
        action = rng.choice(ref.legal_actions())
        game.apply(action)
        ref.apply(action)


def sniff_kwargs(n: int, i: int, rng: random.Random, targets: tuple[int, ...]) -> tuple[dict, tuple[str, int]]:
    settlement, undrawn = variant = SNIFF_VARIANTS[i % len(SNIFF_VARIANTS)]
    kwargs = {
        "num_players": n,
        "seed": rng.randrange(2**31),
        "target": rng.choice(targets),
        "settlement": settlement,
        "undrawn": undrawn,
        "max_hands": None,
    }
    return kwargs, variant


def sniff_case(n: int, kind: str, solve: Any) -> Run:
    run = Run(f"sniff {n} players, {kind}")
    rng = random.Random(f"sniff solver {n} {kind}")
    for i in range(SNIFF_LINES[kind][n]):
        if kind == "deal":  # a partial first hand, scores 0
            kwargs, variant = sniff_kwargs(n, i, rng, (5, 10, 15, 20, 25, 30))
            kwargs["deal"] = sniff_small_deal(n, rng)
            kwargs["episode"] = "hand" if rng.random() < 0.5 else "match"
            game = sniff_env.Game(**kwargs)
            sniff_line(run, solve, game, rng, variant, f"sniff_env.Game(**{kwargs})", 99)
        elif kind == "later":  # a partial first hand played at random, then a partial second hand
            kwargs, variant = sniff_kwargs(n, i, rng, (15, 20, 25, 30, 40))
            kwargs["deal"] = sniff_small_deal(n, rng)
            game = sniff_env.Game(**kwargs)
            while game.hands_played == 0 and not game.is_terminal():
                game.apply(rng.choice(game.legal_actions()))
            if game.is_terminal():  # the first hand won the match
                run.stats["first hand won the match (skipped)"] += 1
                continue
            deal = sniff_small_deal(n, rng)
            setup = f"sniff_env.Game(**{kwargs}), actions {game.history}, redeal({deal})"
            game.redeal(deal)
            sniff_line(run, solve, game, rng, variant, setup, 99)
        else:  # full deals played forward, every hand of the match
            kwargs, variant = sniff_kwargs(n, i, rng, (30, 50, 80))
            game = sniff_env.Game(**kwargs)
            while not game.is_terminal() and game.hands_played < 12:
                setup = f"sniff_env.Game(**{kwargs}), actions {game.history}"
                sniff_line(run, solve, game, rng, variant, setup, SNIFF_FULL_LEFT[n])
    return run


@pytest.mark.parametrize(("n", "kind"), SNIFF_CASES)
def test_sniff_solver_matches_reference(n: int, kind: str) -> None:
    """S1-S25, S4a: the solver's values equal the brute-force reference's on Sniff hand endgames."""
    from sniff_env.solver import solve

    run = sniff_case(n, kind, solve)
    run.report(SNIFF_MIN_POSITIONS[kind])
    s = run.stats
    assert s["roots where the choice matters"] >= run.positions // 10, s
    assert s["actions only bounded"] > 0, s
    for event in ("credit", "domino", "blocked", "won by a placement", "draw", "pass", "draw of a playable tile"):
        assert s[event] > 0, (event, s)
    for event in ("all fives credit", "blocked with undrawn tiles", "deduction"):
        assert s[event] > 0, (event, s)
    assert s["won by the settlement"] > 0 and s["mid-draw roots (S20)"] > 0 and s["draw roots"] > 0, s
    if kind == "deal":
        assert s["opening roots (S8)"] > 0, s
    if kind == "later":
        assert s["roots with non-zero scores"] >= run.positions // 2, s


# ------------------------------------------------------------------------------------------- "12"
def twelve_same_position(game: twelve_env.Game, ref: TwelveReference, where: str) -> None:
    assert game.current_player == ref.current_player and game.legal_actions() == ref.legal_actions(), where
    assert game.stock == ref.stock and game.pile == ref.pile and game.captured == ref.captured, where
    assert all(game.hand(s) == sorted(ref.hands[s]) for s in range(game.num_players)), where
    assert game.last_round == ref.last_round, where
    assert game.turns_left == (ref._last_round_turns_left if ref.last_round else None), where


def twelve_small_deal(n: int, deck: str, rng: random.Random) -> dict:
    """A partial deal: 1-4 cards a hand (fewer with more players), a short stock, often many sixes."""
    cards = [r for r in range(RANKS[deck]) for _ in range(4)]
    rng.shuffle(cards)
    if rng.random() < 0.5:  # sixes to the front: T11 captures on most such deals
        cards.sort(key=lambda r: (r != SIX, rng.random()))
        rng.shuffle(cards[: 2 + 2 * n])
    hands = []
    for _ in range(n):
        k = rng.randint(1, TWELVE_HAND[n])
        hands.append(cards[:k])
        del cards[:k]
    face_up = cards.pop(0)
    stock = cards[: rng.choice([0, 1, 2, n - 1, n, rng.randint(0, 4)])]
    return {"hands": hands, "stock": stock, "face_up": face_up, "first_player": rng.randrange(n)}


def twelve_estimate(ref: TwelveReference) -> int:
    """A rough size of the game tree (only to skip hopeless attempts; ``MAX_NODES`` is the real bound):
    one choice among the distinct ranks of each seat still to move in the last round (T13), else of
    every hand, doubled for every stock card."""
    n = ref.num_players
    seats = range(n)
    if ref.last_round:
        seats = [(ref.current_player + k) % n for k in range(ref._last_round_turns_left)]
    return math.prod(len(set(ref.hands[seat])) for seat in seats) << len(ref.stock)


def twelve_line(run: Run, solve: Any, game: twelve_env.Game, extra: bool, rng: random.Random, setup: str) -> None:
    """Walk the game with random actions; compare every position from the first one whose tree fits
    ``MAX_NODES`` (tried once ``twelve_estimate`` is at most ``TWELVE_ESTIMATE``)."""
    n = game.num_players
    hands = [game.hand(s) for s in range(n)]
    ref = TwelveReference(n, game.deck, hands, game.stock, game.pile[0], game.current_player, capture_extra_turn=extra)
    minimax = TwelveMinimax(MAX_NODES["twelve"])
    started = False
    while not ref.over:
        where = f"{setup}, then actions {game.history}"
        twelve_same_position(game, ref, where)
        if started or twelve_estimate(ref) <= TWELVE_ESTIMATE:
            want = try_solve(minimax, ref)
            if want is not None:
                started = True
                run.stats["roots in the last round (T13)"] += ref.last_round
                run.stats[f"roots, {game.deck} deck"] += 1
                run.stats["roots, extra-turn variant"] += extra
                run.compare(solve, game, want, where)
            else:
                run.stats["too big for the reference"] += 1
        action = rng.choice(ref.legal_actions())
        game.apply(action)
        ref.apply(action)


def twelve_case(n: int, kind: str, solve: Any, run: Run) -> None:
    rng = random.Random(f"twelve solver {n} {kind}")
    before = run.positions
    for i in range(TWELVE_LINES[kind]):
        deck, extra = TWELVE_VARIANTS[i % len(TWELVE_VARIANTS)]
        kwargs: dict[str, Any] = {"num_players": n, "deck": deck, "capture_extra_turn": extra}
        if kind == "deal":
            kwargs["deal"] = twelve_small_deal(n, deck, rng)
        else:
            kwargs["seed"] = rng.randrange(2**31)
        game = twelve_env.Game(**kwargs)
        twelve_line(run, solve, game, extra, rng, f"twelve_env.Game(**{kwargs})")
    run.stats[f"positions, {kind}"] += run.positions - before


@pytest.mark.parametrize("n", range(2, 8))
def test_twelve_solver_matches_reference(n: int) -> None:
    """T1-T15: the solver's values equal the brute-force reference's on "12" endgames, from partial
    deals and from full seeded deals."""
    from twelve_env.solver import solve

    run = Run(f"twelve {n} players")
    for kind in TWELVE_KINDS:
        twelve_case(n, kind, solve, run)
    run.report(sum(TWELVE_MIN_POSITIONS.values()))
    s = run.stats
    for kind in TWELVE_KINDS:
        assert s[f"positions, {kind}"] >= TWELVE_MIN_POSITIONS[kind], s
    assert s["roots where the choice matters"] >= run.positions // 10, s
    assert s["actions only bounded"] > 0, s
    assert s["roots, bridge deck"] > 0 and s["roots, numbers deck"] > 0 and s["roots, extra-turn variant"] > 0, s
    for event in ("capture", "extra turn", "six on six", "six on six, stock short for the draws", "last card"):
        assert s[event] > 0, (event, s)
    for event in ("last round starts", "roots in the last round (T13)", "last round played out"):
        assert s[event] > 0, (event, s)
    for event in ("capture ends the last round", "capture empties the stock"):
        assert s[event] > 0, (event, s)
