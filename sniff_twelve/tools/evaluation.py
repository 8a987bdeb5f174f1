"""Variance-reduced margins from match records: an estimator of the AIVAT family (Burch, Schmid,
Moravčík, Morrill and Bowling, *AIVAT: A New Variance Reduction Technique for Agent Evaluation
in Imperfect Information Games*, AAAI 2018).

A game's raw margin (seat 0's side's points minus the other side's, ``arena.seat_margins``) is
luck and skill together. Along the record, every event whose distribution is known gets a
correction *E[v after the event] − v(after what happened)*:

- **chance**: every item taken from the boneyard or stock (a draw, "12"'s face-up card after a
  capture), uniform over the items left — the pile is shuffled at the deal, and nothing any seat
  sees depends on its order, so given the play so far the next item is uniform among them. A
  move whose outcome depends on more than one pile item ("12"'s T11 draws) gets no correction;
- **actions** of the agents whose action distribution is known exactly (``known_policy``: the
  ``random`` agent, or an agent setting ``plays_probabilities = True``, whose ``act`` draws from
  ``probabilities``): *Σ_a π(a) v(h·a) − v(h·a_played)*. Deterministic agents need none.

Each correction has mean zero given everything before it, whatever ``v`` is, so the corrected
margin is an unbiased estimate of the expected margin. The deal itself is not corrected: in a
two-sided duplicate pair both seatings play the same deal, and ``v`` is zero-sum, so the deal's
term (its expectation included) cancels exactly from the pair's mean; Sniff's later deals of a
match are not corrected either (omitting a term keeps the estimate unbiased).

``v`` (``Values``) is fixed before any game is seen: the points made so far plus the rest of the
hand (Sniff's hand, "12"'s game) on ``worlds`` of the position — the pile put in canonical orders
that depend only on which items are left, never on their true order, each item in turn drawn
first — so ``v`` never reads the true future draws. The rest of a world is a playout by the
seats' own agents where they are rules of thumb or ``random``, ``greedy`` elsewhere, or, with
``max_nodes`` > 0, the game's exact solver within that budget first.

Only two-sided tables (Sniff with 2 or 4 players, "12" with 2): the margin must be zero-sum.
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.agents.builtin import RandomAgent, SpecPolicyAgent, game_agents
from sniff_twelve.core.records import replay_steps
from sniff_twelve.tools.arena import seat_margins

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.seats import Table

#: the solver's budget per position (nodes) before ``Values`` falls back on a playout (0: playouts only)
MAX_NODES = 0

#: the canonical orders of the pile ``v`` averages over
ORDERS = 1

#: the agents that play their own seat in ``v``'s playouts (cheap; the others are played by ``greedy``)
PLAYOUT_AGENTS = (SpecPolicyAgent, RandomAgent)

#: ``expectation(values, probabilities)``: how a correction's expectation is taken (tests swap it)
Expectation = Callable[[np.ndarray, np.ndarray], float]


def weighted_mean(values: np.ndarray, probabilities: np.ndarray) -> float:
    """The exact expectation of ``values`` under ``probabilities``."""
    return float(np.dot(values, probabilities))


def known_policy(agent: Agent) -> bool:
    """Whether ``agent``'s moves are drawn from its ``probabilities`` exactly (AIVAT's action
    corrections need the true distribution): the ``random`` agent, or one that says so."""
    return isinstance(agent, RandomAgent) or bool(getattr(agent, "plays_probabilities", False))


@dataclass
class Values:
    """``v``: seat 0's side's margin so far plus the rest of the hand from its side, on the state
    with the pile in its canonical orders (module docstring). ``max_nodes``: the solver's budget
    (0: playouts only); ``orders``: how many canonical orders ``v`` averages over."""

    table: Table
    max_nodes: int = MAX_NODES
    orders: int = ORDERS
    #: the agent of each seat (by seat): a rule of thumb or ``random`` plays its own seat in the playouts
    agents: Mapping[int, Agent] = field(default_factory=dict)
    solves: int = 0
    playouts: int = 0

    def __post_init__(self) -> None:
        spec = self.table.spec
        self.game_cls = spec.part("game")
        self.solve = spec.part("solve")
        self.outcome = spec.part("outcome")
        greedy = game_agents(spec).make_agent("greedy")
        self.policies = {
            seat: self.agents[seat] if isinstance(self.agents.get(seat), PLAYOUT_AGENTS) else greedy
            for seat in range(self.table.num_players)
        }

    def margin(self, game: BaseGame) -> float:
        """Seat 0's margin so far (``arena.seat_margins`` of the points)."""
        return seat_margins(self.table, self.outcome(game)["points"])[0]

    def sign(self, seat: int) -> int:
        """+1 for a seat of seat 0's side, −1 for the other side."""
        return 1 if seat in self.table.sides[0] else -1

    def hand(self, state: np.ndarray) -> int:
        spec = self.table.spec
        return int(state[spec.HANDS]) if spec.HANDS >= 0 else 0

    def __call__(self, state: np.ndarray, params: np.ndarray, hand: int) -> float:
        """``v`` of the state row ``state``: the margin so far, plus the rest of hand ``hand``
        (nothing when the game is over or a new hand was dealt: its deal is not corrected)
        averaged over ``worlds``."""
        game = self.game_cls.from_state(state, params)
        v = self.margin(game)
        if game.is_terminal() or self.hand(state) != hand:
            return v
        return v + sum(p * self.rest(world) for p, world in self.worlds(game))

    def worlds(self, game: BaseGame) -> list[tuple[float, BaseGame]]:
        """``game`` with its pile in ``orders`` canonical orders (``canonical``), each with every
        item left brought to the front (one world each), with their weights: every next item as
        likely as it is, the rest in an order that is the same whichever item comes first. So
        ``v`` before an item is drawn is close to the mean of ``v`` after each, and between draws
        ``v`` stays put where the agents play as in its playouts: the corrections then cancel
        along a game but for what the second item drawn changes."""
        spec, state = self.table.spec, game.state_array
        head, end = spec.POOL + int(state[spec.POOL_HEAD]), spec.POOL + int(state[spec.POOL_LEN])
        out = []
        for k in range(self.orders):
            row = canonical(spec, state, k)
            items, first = np.unique(row[head:end], return_index=True)
            if len(items) == 0:
                out.append((1.0 / self.orders, self.game_cls.from_state(row, game._params)))
            for item, j in zip(items, first, strict=True):
                world = row.copy()
                world[head : head + j + 1] = np.roll(row[head : head + j + 1], 1)  # item first, the rest in order
                weight = np.count_nonzero(row[head:end] == item) / (end - head) / self.orders
                out.append((weight, self.game_cls.from_state(world, game._params)))
        return out

    def rest(self, game: BaseGame) -> float:
        """The rest of the hand from seat 0's side in ``game`` as it is (its pile in its order):
        exact within ``max_nodes`` (0: no solve), else one playout (``playout``)."""
        if self.max_nodes > 0:
            self.solves += 1
            solution = self.solve(game, max_nodes=self.max_nodes)
            if solution.exact:
                return self.sign(game.current_player) * solution.value
        return self.playout(game)

    def action_values(self, game: BaseGame, actions: Sequence[int]) -> np.ndarray:
        """``v`` after each of ``actions`` on the same ``worlds`` as ``v`` here, seat 0's side's view."""
        hand = self.hand(game.state_array)
        values = np.zeros(len(actions))
        for p, world in self.worlds(game):
            for i, a in enumerate(actions):
                child = world.clone()
                child.apply(a)
                ended = child.is_terminal() or self.hand(child.state_array) != hand
                values[i] += p * (self.margin(child) + (0.0 if ended else self.rest(child)))
        return values

    def playout(self, game: BaseGame) -> float:
        """Seat 0's margin gained to the end of the hand in one playout: each seat played by its
        own agent when that is a rule of thumb or ``random`` (its stream seeded by the position, less
        the game's own stream words, which the deal's seed made along with the pile's order), else
        by ``greedy``."""
        self.playouts += 1
        game = game.clone()
        row = np.array(game.state_array, copy=True)
        row[self.table.spec.RNG : self.table.spec.RNG + 2] = 0  # the stream words come from the deal's seed
        seed = zlib.crc32(row.tobytes())
        for seat, agent in self.policies.items():
            agent.reset(seed + seat)
        start, hand = self.margin(game), self.hand(game.state_array)
        while not game.is_terminal() and self.hand(game.state_array) == hand:
            game.apply(self.policies[game.current_player].act(game))
        return self.margin(game) - start


def canonical(spec: Any, state: np.ndarray, order: int = 0) -> np.ndarray:
    """A copy of the state row with the undrawn pile in canonical order ``order``: by a ranking
    of the items drawn from a seed made of the whole pile dealt (what is known from the deal, the
    items' order aside) and ``order``. It depends only on which items are left, never on their
    true order, and drawing an item leaves the others in the same order, so ``v`` after a draw
    reads the same future as before it, less that item."""
    out = np.array(state, copy=True)
    head, end = spec.POOL + int(state[spec.POOL_HEAD]), spec.POOL + int(state[spec.POOL_LEN])
    dealt = np.sort(out[spec.POOL : end]).astype(np.int64)
    seed = zlib.crc32(dealt.tobytes()) + (order << 32)
    rank = np.random.default_rng(seed).permutation(int(dealt.max(initial=0)) + 1)
    left = out[head:end]
    out[head:end] = left[np.argsort(rank[left], kind="stable")]
    return out


def aivat_margins(
    table: Table,
    record: Mapping[str, Any],
    objects: Mapping[str, Agent] | None = None,
    max_nodes: int = MAX_NODES,
    expectation: Expectation = weighted_mean,
    orders: int = ORDERS,
) -> list[float]:
    """Every seat's AIVAT-corrected margin over the whole game of ``record`` (``arena --records``:
    a record with ``"agents"``, seat → spec), the sum over its hands (divide by the hands for a
    margin a hand). ``objects``: agents given as objects, by name. ``ValueError`` for a table
    without two sides."""
    corrections = aivat_corrections(table, record, objects, max_nodes, expectation, orders)
    game = table.spec.part("game").from_record(dict(record))
    outcome = table.spec.part("outcome")
    raw = seat_margins(table, outcome(game)["points"])
    total = sum(corrections)  # seat 0's side's; the other side's is its negative (zero-sum)
    return [raw[seat] + (total if seat in table.sides[0] else -total) for seat in range(table.num_players)]


def aivat_corrections(
    table: Table,
    record: Mapping[str, Any],
    objects: Mapping[str, Agent] | None = None,
    max_nodes: int = MAX_NODES,
    expectation: Expectation = weighted_mean,
    orders: int = ORDERS,
) -> list[float]:
    """The corrections of ``record``'s game, one per corrected event, from seat 0's side (module
    docstring). ``expectation`` takes each correction's expectation (the exact weighted mean)."""
    if not table.two_sided:
        raise ValueError(f"AIVAT needs two sides (a zero-sum margin); a {table.num_players}-player table has none")
    spec = table.spec
    agents_module = game_agents(spec)
    objects = objects or {}
    names = record.get("agents") or {}
    agents = {
        int(seat): objects[name] if name in objects else agents_module.make_agent(name) for seat, name in names.items()
    }
    v = Values(table, max_nodes, orders, {seat: copy.deepcopy(agent) for seat, agent in agents.items()})
    corrections: list[float] = []
    for game, action in replay_steps(dict(record), spec.part("game")):
        if action is None:
            break
        actor, pre = game.current_player, game.state_array.copy()
        legal = game.legal_actions()
        agent = agents.get(actor)
        if agent is not None and len(legal) > 1 and known_policy(agent):
            pi = np.asarray(agent.probabilities(game.seat_view(actor)), dtype=float)[legal]
            q = v.action_values(game, legal)
            corrections.append(expectation(q, pi) - q[legal.index(action)])
        term = chance_correction(v, game, pre, action, expectation)
        if term is not None:
            corrections.append(term)
    return corrections


def chance_correction(
    v: Values, game: BaseGame, pre: np.ndarray, action: int, expectation: Expectation
) -> float | None:
    """The correction for the pile item ``action`` takes from ``pre`` (the state before it), or
    ``None`` when the action takes none, or takes more than one (its outcome then depends on
    items after the first: no correction)."""
    spec = v.table.spec
    head, end = int(pre[spec.POOL_HEAD]), int(pre[spec.POOL_LEN])
    items = pre[spec.POOL + head : spec.POOL + end]
    distinct, counts = np.unique(items, return_counts=True)
    if len(distinct) < 2:
        return None
    hand = v.hand(pre)
    after, actual = [], None
    for item in distinct:
        trial = pre.copy()
        j = head + int(np.flatnonzero(items == item)[0])
        trial[spec.POOL + head], trial[spec.POOL + j] = trial[spec.POOL + j], trial[spec.POOL + head]
        child = v.game_cls.from_state(trial, game._params)
        child.apply(action)
        row = child.state_array
        if v.hand(row) == hand and int(row[spec.POOL_HEAD]) != head + 1:
            return None  # no item taken, or more than one
        after.append(v(row, game._params, hand))
        if item == items[0]:
            actual = after[-1]
    return expectation(np.array(after), counts / counts.sum()) - actual
