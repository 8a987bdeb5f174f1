"""A seat's belief carried through the deal: resample-move particles (SMC with MCMC rejuvenation).

``infer`` rebuilds its worlds from the start of the deal at every call, by importance sampling
against the whole history at once; under a sharp model its weights collapse. ``BeliefTracker``
keeps particles from one decision to the next: each new action of another seat reweights them
by the model's probability of it, they are resampled (systematically) when the effective sample
size falls below ``RESAMPLE_BELOW`` of the particles, and every resampling is followed by
Metropolis–Hastings moves that swap hidden units between places and keep every particle
consistent with the seat's views (``sniff_twelve.beliefs.tracking``).

>>> import sniff_env
>>> from sniff_twelve.beliefs.tracker import BeliefTracker
>>> game = sniff_env.Game(num_players=4, seed=1)
>>> tracker = BeliefTracker(0, model="greedy", particles=64, seed=0)
>>> for _ in range(6):
...     game.apply(game.legal_actions()[0])
...     beliefs = tracker.update(game.seat_view(0))
>>> bool(abs(beliefs.marginals.sum(axis=1) - 1).max() < 1e-9)  # each tile is somewhere
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from sniff_twelve.beliefs import COMPILED_MODELS, Beliefs, _resolve, softened_probabilities
from sniff_twelve.beliefs import kernels as BK
from sniff_twelve.beliefs import tracking as TK
from sniff_twelve.core.agent import SOFTENING
from sniff_twelve.core.options import check_int, check_seed
from sniff_twelve.core.rng import stream_state

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.view import SeatView

#: particles when none are asked for, and Metropolis–Hastings moves per particle after each
#: resampling: fewer particles moved more often are as accurate as 2,048 moved 4 times, at a
#: fraction of the time (docs/beliefs.md, "A cheaper tracker")
DEFAULT_PARTICLES, MOVES = 128, 16
#: resample when the effective sample size falls below this share of the particles
RESAMPLE_BELOW = 0.5
#: moves aimed at an item another seat is about to show, before its step (at most ``moves``)
TARGETED = 4
#: the model's answers to views a tracker remembers in a deal (a model called from Python)
REMEMBERED = 1 << 15
#: when the play rules out every particle (a model far from the play), the deal is read again
#: with twice the particles, up to this many times ``particles``
GROWTH = 16


class BeliefTracker:
    """``seat``'s beliefs, updated from each of its successive views (module docstring).

    Args:
        seat: the seat whose views ``update`` reads.
        model: how the other seats are assumed to play (``infer``'s ``model``).
        particles: how many weighted deals are carried (default ``DEFAULT_PARTICLES``).
        seed: the particles' stream; the same views and arguments give the same beliefs.
        epsilon: the share of uniform play mixed into the model (``infer``'s ``epsilon``).
        moves: Metropolis–Hastings moves per particle after each resampling.
    """

    def __init__(
        self,
        seat: int,
        model: Agent | str | None = None,
        particles: int | None = None,
        seed: int | None = 0,
        epsilon: float = SOFTENING,
        moves: int = MOVES,
    ) -> None:
        self.seat = check_int("seat", seat, 0, 64)
        self.particles = check_int("particles", DEFAULT_PARTICLES if particles is None else particles, 1, 1 << 20)
        if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 <= epsilon <= 1:
            raise ValueError(f"epsilon must be a number from 0 to 1; got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.moves = check_int("moves", moves, 0, 1000)
        self.model = model
        self.seed = check_seed(seed)
        self._agent: Agent | None = None
        self._resolved = False
        #: this deal's resamplings, and moves proposed (possible deals) and accepted (diagnostics)
        self.resamplings = self.accepted = self.proposed = 0
        self.reset()

    def reset(self) -> None:
        """Forget the deal: the next ``update`` starts from its first action."""
        self._past: np.ndarray | None = None
        self._beliefs: Beliefs | None = None
        self._forget()

    def update(self, view: SeatView) -> Beliefs:
        """The beliefs after ``view`` (the seat's view now; its memory of the deal is read). A view
        that does not continue the last one (a new deal, another table) starts the deal again."""
        if view.seat != self.seat:
            raise ValueError(f"this tracker follows seat {self.seat}, not seat {view.seat}")
        past, actions, now = view.past, view.past_actions, view.array
        if not self._continues(view, past, actions, now):
            self._forget()
            self._start(view, past, self.particles)
        elif self._beliefs is not None and len(actions) == self._steps and np.array_equal(now, self._now):
            self._beliefs.view = view
            return self._beliefs
        if len(actions):
            self._seen = BK._what_was_seen(view.spec, past, actions, now, view.params, self.seat)
        while not self._run(view, past, actions, now):
            if self._count >= GROWTH * self.particles:
                raise ValueError("no deal of the hidden items is consistent with this view's history")
            self._start(view, past, 2 * self._count)  # every particle ruled out: again, with more
        self._steps, self._past, self._actions, self._now = len(actions), past, actions, now
        self._params = view.params
        self._beliefs = self._result(view)
        return self._beliefs

    def _run(self, view: SeatView, past: np.ndarray, actions: np.ndarray, now: np.ndarray) -> bool:
        """Carry the particles over the steps not yet read; ``False`` if every one is ruled out."""
        for t in range(self._steps, len(actions)):
            actor, shown = int(past[t][view.spec.CUR]), int(view.spec.shown_item(past[t], view.params, actions[t]))
            if actor != self.seat and shown >= 0:  # bring the item shown into the hand before the step
                place = actor if actor < self.seat else actor - 1
                self._move(view, past, actions[:t], past[t], t, min(self.moves, TARGETED), (shown, place))
            self._advance(view, past, actions, now, t)
            self._steps = t + 1
            if not self._live().any():
                return False
            if self._ess() < RESAMPLE_BELOW * self._count:
                self._resample()
                self._move(
                    view, past, actions[: t + 1], past[t + 1] if t + 1 < len(actions) else now, t + 1, self.moves
                )
        return True

    # --- the deal's particles ---------------------------------------------------------------------
    def _continues(self, view: SeatView, past: np.ndarray, actions: np.ndarray, now: np.ndarray) -> bool:
        """Whether ``view`` extends the views already read (same table, same deal so far)."""
        old = self._past
        if old is None or not np.array_equal(view.params, self._params) or len(actions) < self._steps:
            return False
        if not (np.array_equal(past[: self._steps], old) and np.array_equal(actions[: self._steps], self._actions)):
            return False
        return (len(actions) > self._steps and np.array_equal(past[self._steps], self._now)) or np.array_equal(
            now, self._now
        )

    def _start(self, view: SeatView, past: np.ndarray, count: int) -> None:
        """Deal ``count`` particles at the start of the deal: every arrangement of what the seat
        could not see then, equally likely."""
        self._count = count
        if not self._resolved:
            self._agent = _resolve(self.model, view)
            self._kind = (
                BK.MODEL_NONE
                if self._agent is None
                else COMPILED_MODELS.get(getattr(self._agent, "belief_kernel", ""), BK.MODEL_OUTSIDE)
            )
            self._resolved = True
        if self._agent is not None:
            self._agent.check_table(int(view.params[0]))
            self._agent.reset(self.seed)
        spec, me, params = view.spec, self.seat, view.params
        start = past[0] if len(past) else view.array
        units, sizes, _, _ = BK.hidden_deal(spec, start, params, me)
        self._rng = np.array(stream_state(self.seed), dtype=np.int32)
        self._units = np.empty((self._count, units.shape[0]), dtype=np.int64)
        TK.deal(units, self._rng, self._units)
        self._hands = np.zeros((self._count, len(sizes), spec.ITEMS), dtype=np.int64)
        at, every = 0, np.arange(self._count)
        for place, size in enumerate(sizes):
            for j in range(at, at + size):
                np.add.at(self._hands, (every, place, self._units[:, j]), 1)
            at += size
        self._slot_step = np.concatenate([np.full(at, -1), np.full(units.shape[0] - at, -2)]).astype(np.int64)
        self._slot_place = np.concatenate(
            [np.repeat(np.arange(len(sizes)), sizes), np.full(units.shape[0] - at, TK.REST)]
        )
        self._slot_place = self._slot_place.astype(np.int64)
        self._bound = at
        self._logw = np.zeros(self._count)
        self._steplogp = np.zeros((self._count, 16))
        self._steps = 0
        self.resamplings = self.accepted = self.proposed = 0

    def _advance(self, view: SeatView, past: np.ndarray, actions: np.ndarray, now: np.ndarray, t: int) -> None:
        """Step ``t`` for every particle (``tracking.advance``), and the positions it fills."""
        spec, me, params = view.spec, self.seat, view.params
        if t >= self._steplogp.shape[1]:
            self._steplogp = np.concatenate([self._steplogp, np.zeros_like(self._steplogp)], axis=1)
        rows = np.empty((self._count, now.shape[0]), dtype=now.dtype)
        before = past[t]
        after = now if t == len(actions) - 1 else past[t + 1]
        free = TK.free_draws(spec, before, after, params, me, actions[t])
        seen = int(self._seen[t, BK.SEEN_MINE_DRAWN].sum() + self._seen[t, BK.SEEN_TURNED].sum())
        TK.advance(
            spec, past, actions, now, params, me, self._seen, t, self._kind, self.epsilon, self._units,
            self._bound, self._hands, self._logw, self._steplogp, self._rng, rows,
        )  # fmt: skip
        end = self._bound + seen + int(free.sum())
        self._slot_step[self._bound : end] = t
        self._slot_place[self._bound : self._bound + seen] = TK.SEEN
        self._slot_place[self._bound + seen : end] = np.repeat(np.arange(len(free)), free)
        self._bound = end
        if self._kind == BK.MODEL_OUTSIDE:
            asked = np.flatnonzero((rows[:, 0] >= 0) & (self._logw > TK.DEAD))
            if asked.size:
                logp = self._outside(view, rows[asked], np.full(asked.size, actions[t]))
                self._steplogp[asked, t] = logp
                self._logw[asked] += logp

    def _outside(self, view: SeatView, rows: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """``log P(chosen)`` under a model called from Python (``softened_probabilities``). Each
        view is asked once a deal, even when the deal is read again with more particles: the answers
        are remembered (``REMEMBERED`` at most, then again from none), keyed by the row's hash and
        checked against the row itself."""
        hashes = np.empty(rows.shape[0], dtype=np.uint64)
        BK.row_hashes(rows, hashes)
        slot = np.fromiter((self._known.get(h, -1) for h in hashes.tolist()), dtype=np.int64, count=rows.shape[0])
        hit = np.flatnonzero(slot >= 0)
        if hit.size:
            kept = slot[hit]
            hit = hit[(self._memory[kept] == rows[hit]).all(axis=1) & (self._memory_chosen[kept] == chosen[hit])]
        logp = np.empty(rows.shape[0])
        logp[hit] = self._memory_logp[slot[hit]]
        ask = np.setdiff1d(np.arange(rows.shape[0]), hit)
        if ask.size:
            p, inverse = softened_probabilities(self._agent, view, rows[ask], self.epsilon)
            logp[ask] = np.log(np.maximum(p[inverse, chosen[ask]], 1e-300))
            self._remember(rows[ask], hashes[ask], chosen[ask], logp[ask])
        return logp

    def _remember(self, rows: np.ndarray, hashes: np.ndarray, chosen: np.ndarray, logp: np.ndarray) -> None:
        """Keep the model's answers for ``rows`` (their first copy each; a hash already kept for
        another row keeps that row)."""
        _, first = np.unique(hashes, return_index=True)
        first = np.sort(first)
        first = first[[h not in self._known for h in hashes[first].tolist()]]
        if self._memory.shape[1] != rows.shape[1] or self._stored + first.size > REMEMBERED:
            self._forget(rows.shape[1], rows.dtype)
        first = first[: REMEMBERED - self._stored]
        at = np.arange(self._stored, self._stored + first.size)
        self._memory[at], self._memory_chosen[at], self._memory_logp[at] = rows[first], chosen[first], logp[first]
        self._known.update(zip(hashes[first].tolist(), at.tolist(), strict=True))
        self._stored += first.size

    def _forget(self, width: int = 0, dtype: np.dtype | type = np.int64) -> None:
        """Remember no answer of the model (room for ``REMEMBERED`` rows of ``width``)."""
        self._memory = np.empty((REMEMBERED if width else 0, width), dtype=dtype)
        self._memory_chosen = np.empty(self._memory.shape[0], dtype=np.int64)
        self._memory_logp = np.empty(self._memory.shape[0])
        self._known: dict[int, int] = {}
        self._stored = 0

    def _live(self) -> np.ndarray:
        return self._logw > TK.DEAD

    def _weights(self) -> np.ndarray:
        w = np.exp(self._logw - self._logw.max())
        return w / w.sum()

    def _ess(self) -> float:
        return float(1.0 / np.square(self._weights()).sum())

    def _resample(self) -> None:
        """Systematic resampling: particles kept in proportion to their weights, then equal."""
        u = np.empty(1)
        TK.uniforms(self._rng, u)
        cumulative = np.cumsum(self._weights())
        picks = np.searchsorted(cumulative, (u[0] + np.arange(self._count)) / self._count, side="right")
        picks = np.minimum(picks, self._count - 1)
        self._units, self._hands = self._units[picks], self._hands[picks]
        self._steplogp = self._steplogp[picks]
        self._logw = np.zeros(self._count)
        self.resamplings += 1

    def _move(
        self,
        view: SeatView,
        past: np.ndarray,
        actions: np.ndarray,
        now: np.ndarray,
        steps: int,
        repeats: int,
        aim: tuple[int, int] = (-1, -1),
    ) -> None:
        """``repeats`` Metropolis–Hastings moves per live particle over the first ``steps`` steps;
        with an ``aim`` (item, place), moves of that item into or out of that place's starting hand."""
        spec, me, params = view.spec, self.seat, view.params
        movable = np.flatnonzero(self._slot_place != TK.SEEN)
        inside = np.flatnonzero((self._slot_step == -1) & (self._slot_place == aim[1]))
        outside = np.setdiff1d(movable, inside)
        if not repeats or movable.size < 2 or (aim[0] < 0 and steps == 0) or (aim[0] >= 0 and not inside.size):
            return
        hidden = np.bincount(BK.hidden_deal(spec, now, params, me)[0], minlength=spec.ITEMS)
        seen = self._seen[:steps] if steps < len(self._seen) else self._seen
        if self._kind != BK.MODEL_OUTSIDE:  # the whole moves in one compiled call
            accepted, proposed = TK.rejuvenate(
                spec, past[:steps], actions, now, params, me, seen, self._kind, self.epsilon, self._units,
                self._hands, self._slot_step, self._slot_place, movable, self._live(), self._steplogp, self._rng,
                aim[0], inside, outside, hidden, repeats,
            )  # fmt: skip
            self.accepted += accepted
            self.proposed += proposed
            return
        swaps = np.empty((self._count, 2), dtype=np.int64)
        newlogp = np.empty((self._count, self._steplogp.shape[1]))
        new_hands = np.empty_like(self._hands)
        rows = np.empty((max(self._count * steps, 1), now.shape[0]), dtype=now.dtype)
        row_steps = np.empty(rows.shape[0], dtype=np.int64)
        hastings = np.zeros(self._count)
        u = np.empty(self._count)
        for _ in range(repeats):
            TK.uniforms(self._rng, u)
            logu = np.log(np.maximum(u, 1e-300))
            used = TK.propose(
                spec, past[:steps], actions, now, params, me, seen, self._kind, self.epsilon, self._units,
                self._slot_step, self._slot_place, movable, self._live(), self._steplogp, self._rng, swaps, newlogp,
                new_hands, rows, row_steps, aim[0], inside, outside, hastings, hidden, logu,
            )  # fmt: skip
            if used:  # one batched forward pass over every changed step of every particle
                at = row_steps[:used]
                newlogp[at // steps, at % steps] = self._outside(view, rows[:used], actions[at % steps])
            accepted, proposed = TK.accept(
                swaps, newlogp, hastings, logu, steps, self._units, self._hands, new_hands, self._steplogp
            )
            self.accepted += accepted
            self.proposed += proposed

    def _result(self, view: SeatView) -> Beliefs:
        """The particles as ``Beliefs``: the other hands now, and the boneyard or stock."""
        spec, me, params = view.spec, self.seat, view.params
        units, _, _, _ = BK.hidden_deal(spec, view.array, params, me)
        hidden = np.bincount(units, minlength=spec.ITEMS)
        weights = self._weights()
        live = np.flatnonzero(weights > 0)
        hands = self._hands[live]
        holdings = np.concatenate([hands, (hidden - hands.sum(axis=1))[:, None, :]], axis=1)
        weights = weights[live]
        shown = np.flatnonzero(hidden)
        seats = [s for s in range(params[0]) if s != me]
        return Beliefs(
            items=[spec.item_names[i] for i in shown],
            places=[*seats, spec.pool_name],
            marginals=np.einsum("w,wpi->ip", weights, holdings)[shown],
            ess=self._ess(),
            worlds=int(live.size),
            tried=self._count,
            weights=weights,
            holdings=holdings,
            view=view,
        )


def follow(
    tracker: BeliefTracker | None, view: SeatView, model: Agent | None, particles: int, seed: int | None, epsilon: float
) -> BeliefTracker:
    """The tracker an agent keeps for ``view``'s seat: ``tracker`` if it follows that seat, else a
    new one (an agent moved to another seat starts again)."""
    if tracker is not None and tracker.seat == view.seat:
        return tracker
    return BeliefTracker(view.seat, model, particles, 0 if seed is None else seed, epsilon)
