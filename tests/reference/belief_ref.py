"""Brute-force exact beliefs of one seat, for Sniff and "12": an independent reference.

Written from the definition only, on the games' public API (``Game(deal=...)``, ``apply``,
``legal_actions``, ``hand``, ``boneyard``/``stock``, ``seat_view(seat).array``).

*Prior.* At the start of the hand every physical arrangement of the items the observing seat
cannot see — the other hands (sets) and the boneyard/stock (a sequence, drawn front first) — is
equally likely. Sniff tiles are all distinct (S2, S5). Cards of one "12" rank are alike in the
state but physically distinct (T1, T3), so a rank-level arrangement weighs as many physical
arrangements as map to it. The face-up card and the seat's own hand are known (T5).

*Likelihood.* Deal ``D`` is replayed from the same options and opener/first player; it is
consistent iff every action is legal and the seat's view row equals the true one before every
action and after the last. A consistent ``D`` then weighs the product over the other seats'
actions of ``prob_fn(their view)[action]`` (1 without ``prob_fn``).

*Enumeration* (exact, not sampled). The pile is consumed only from its front — Sniff draws
(S19–S21), "12" draws and turn-ups (T9–T11) — and its size is public (in the view row), so every
consistent replay consumes exactly ``d`` = what the true game consumed. Only the other hands and
the first ``d`` pile items can affect a replay; the order of the rest cannot. So the reference
enumerates (drawn prefix, other hands) and gives each the count of physical arrangements of the
whole, ``prod_r m_r! / (prod_{hands,r} c! * prod_r rest_r!) * (#rest)!`` (``m_r``: hidden copies
of item ``r``; all 1 in Sniff). It skips only deals that cannot be consistent: an item another seat
has placed (S9) or played (T7) was in its hand or among the drawn prefix.

Conventions: an item is what ``Game.hand`` returns (Sniff ``(low, high)``, "12" rank id); places
are the other seats in increasing seat order (0, 1, ...) and then the boneyard/stock (last index);
an assignment is one sorted tuple of items per place, after the last action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from math import factorial, prod

import numpy as np

import sniff_env
import twelve_env
from sniff_env.tiles import DRAW, TILES
from sniff_twelve.core.view import SeatView

Game = sniff_env.Game | twelve_env.Game
Item = Hashable
Assignment = tuple[tuple[Item, ...], ...]
ProbFn = Callable[[SeatView], np.ndarray]


# --- the two games through their public API --------------------------------------------------------
def _pile(game: Game) -> list[Item]:
    """The undrawn items, next first: the boneyard (S19) or the stock (T9)."""
    return list(game.boneyard) if isinstance(game, sniff_env.Game) else list(game.stock)


def _build(start: Game, hands: list[list[Item]], pile: list[Item]) -> Game:
    """A fresh game with ``start``'s options and opener/first player, dealt ``hands`` and ``pile``."""
    options = start.record_options()
    if isinstance(start, sniff_env.Game):
        return sniff_env.Game(seed=0, deal={"hands": hands, "boneyard": pile, "opener": start.opener}, **options)
    deal = {"hands": hands, "stock": pile, "face_up": start.pile[-1], "first_player": start.first_player}
    return twelve_env.Game(seed=0, deal=deal, **options)


def _shown(game: Game, action: int) -> Item | None:
    """The item ``action`` takes from the actor's hand: a placed tile (S9) or a played card (T7)."""
    if isinstance(game, sniff_env.Game):
        return TILES[action // 4] if action < DRAW else None
    return action


def _others(game: Game, seat: int) -> list[int]:
    return [s for s in range(game.num_players) if s != seat]


# --- enumeration --------------------------------------------------------------------------------------
def _sub_multisets(pool: Counter, size: int) -> Iterator[Counter]:
    """Every sub-multiset of ``pool`` with ``size`` elements."""
    keys = sorted(k for k, c in pool.items() if c > 0)

    def rec(i: int, left: int) -> Iterator[Counter]:
        if left == 0:
            yield Counter()
            return
        if i == len(keys):
            return
        for take in range(min(pool[keys[i]], left), -1, -1):
            for rest in rec(i + 1, left - take):
                if take:
                    rest[keys[i]] = take
                yield rest

    yield from rec(0, size)


def _sequences(pool: Counter, length: int) -> Iterator[tuple[Item, ...]]:
    """Every distinct sequence of ``length`` items drawn from the multiset ``pool``."""
    if length == 0:
        yield ()
        return
    for k in sorted(k for k, c in pool.items() if c > 0):
        for tail in _sequences(pool - Counter([k]), length - 1):
            yield (k, *tail)


def _hands(pool: Counter, sizes: list[int], needs: list[Counter]) -> Iterator[list[Counter]]:
    """Every way to deal hands of ``sizes`` from ``pool``, hand ``i`` containing ``needs[i]``."""
    if not sizes:
        yield []
        return
    need = needs[0]
    if need - pool or need.total() > sizes[0]:
        return
    for extra in _sub_multisets(pool - need, sizes[0] - need.total()):
        hand = need + extra
        for tail in _hands(pool - hand, sizes[1:], needs[1:]):
            yield [hand, *tail]


def _arrangements(pool: Counter, hands: list[Counter], rest: Counter) -> int:
    """Physical arrangements (distinct copies, ordered pile) with these hands, this drawn prefix
    and this rest of the pile in any order."""
    ways = prod(factorial(c) for c in pool.values()) * factorial(rest.total())
    return ways // prod(factorial(c) for part in (*hands, rest) for c in part.values())


def _expand(counts: Counter) -> list[Item]:
    return [k for k in sorted(counts) for _ in range(counts[k])]


# --- the posterior ----------------------------------------------------------------------------------------
def replay_likelihood(
    start: Game,
    actions: list[int],
    seat: int,
    hands: list[list[Item]],
    pile: list[Item],
    prob_fn: ProbFn | None = None,
    true_views: list[np.ndarray] | None = None,
) -> tuple[float, Assignment | None]:
    """Likelihood of the full deal ``hands`` (one per seat) + ``pile`` (next first) and the
    assignment it leads to; ``(0.0, None)`` if inconsistent with ``seat``'s views of the true
    game (``true_views``: those views, before every action and after the last; computed when
    ``None``)."""
    if true_views is None:
        true_views = _observe(start, actions, seat)[0]
    game = _build(start, hands, pile)
    likelihood = 1.0
    for action, view in zip(actions, true_views, strict=False):
        if not np.array_equal(game.seat_view(seat).array, view) or action not in game.legal_actions():
            return 0.0, None
        actor = game.current_player
        if prob_fn is not None and actor != seat:
            likelihood *= float(prob_fn(game.seat_view(actor))[action])
        game.apply(action)
    if not np.array_equal(game.seat_view(seat).array, true_views[-1]):
        return 0.0, None
    assignment = (*(tuple(sorted(game.hand(o))) for o in _others(game, seat)), tuple(sorted(_pile(game))))
    return likelihood, assignment


def _observe(start: Game, actions: list[int], seat: int) -> tuple[list[np.ndarray], list[Counter], int]:
    """Replay the true game: ``seat``'s view rows before every action and after the last, the items
    each other seat (in seat order) took from its hand, and how many pile items were consumed."""
    if start.history:
        raise ValueError("start must be a game at the start of a hand, with no action applied")
    others = _others(start, seat)
    game = _build(start, [start.hand(s) for s in range(start.num_players)], _pile(start))
    views, shown = [], [Counter() for _ in others]
    for action in actions:
        views.append(game.seat_view(seat).array.copy())
        actor, item = game.current_player, _shown(game, action)
        if actor != seat and item is not None:
            shown[others.index(actor)][item] += 1
        game.apply(action)
    views.append(game.seat_view(seat).array.copy())
    return views, shown, len(_pile(start)) - len(_pile(game))


def exact_posterior(
    start: Game, actions: list[int], seat: int, prob_fn: ProbFn | None = None
) -> list[tuple[float, Assignment]]:
    """Posterior ``[(probability, assignment)]`` over the hidden items after ``actions``, summing
    to 1, sorted by assignment; assignments of probability 0 are left out. ``ValueError`` if no
    deal is consistent (or every consistent one has likelihood 0)."""
    others = _others(start, seat)
    pool = Counter(item for o in others for item in start.hand(o)) + Counter(_pile(start))
    sizes = [len(start.hand(o)) for o in others]
    true_views, shown, drawn = _observe(start, actions, seat)

    posterior: dict[Assignment, float] = {}
    for prefix in _sequences(pool, drawn):
        after_prefix = pool - Counter(prefix)
        for hands in _hands(after_prefix, sizes, [need - Counter(prefix) for need in shown]):
            rest = after_prefix - sum(hands, Counter())
            deal = [
                start.hand(seat) if s == seat else _expand(hands[others.index(s)]) for s in range(start.num_players)
            ]
            likelihood, assignment = replay_likelihood(
                start, actions, seat, deal, [*prefix, *_expand(rest)], prob_fn, true_views
            )
            if likelihood > 0:
                weight = _arrangements(pool, hands, rest) * likelihood
                posterior[assignment] = posterior.get(assignment, 0.0) + weight
    total = sum(posterior.values())
    if total <= 0:
        raise ValueError("no deal is consistent with the seat's observations (with a positive likelihood)")
    return [(w / total, a) for a, w in sorted(posterior.items())]


def exact_marginals(
    start: Game, actions: list[int], seat: int, prob_fn: ProbFn | None = None
) -> dict[tuple[Item, int], float]:
    """``{(item, place): expected count}`` after ``actions`` for every item ``seat`` cannot see and
    every place (zeros included): places are the other seats in seat order, then the pile."""
    posterior = exact_posterior(start, actions, seat, prob_fn)
    items = {item for _, assignment in posterior for part in assignment for item in part}
    places = len(posterior[0][1])
    marginals = {(item, place): 0.0 for item in sorted(items) for place in range(places)}
    for probability, assignment in posterior:
        for place, part in enumerate(assignment):
            for item in part:
                marginals[item, place] += probability
    return marginals
