"""The compiled part of ``BeliefTracker``: particles carried forwards through the deal.

A particle is one arrangement of every unit hidden from ``me`` when the deal began, as a vector
of items over *positions* shared by all particles: the other hands at the start (``hand``
positions), then, step by step, the units each step took from the boneyard or stock (its
``slot`` positions: those ``me`` saw, fixed; those another seat drew, free), then the units not
yet taken (the *rest*, in no order). The hands now follow from it by replaying the deal.

Before play every physical arrangement is equally likely; the play weighs each by the model's
probability of the other seats' actions and rules out those the seat's views contradict. Each
step (``advance``) moves every particle on: the units the step takes are drawn from the rest as
a shuffle would give them — the seen ones fixed, the weight multiplied by their chance; a free
one drawn among the items with which the step (and the next, when it is known and takes nothing
unseen) replays to what ``me`` saw, the weight multiplied by that set's chance — then the model's
probability of the action. ``propose`` is half a Metropolis–Hastings move that keeps the
posterior: swap the items of two free positions and replay the steps the swap changes (uniform
prior over physical arrangements and a symmetric proposal: accept with the ratio of the
likelihoods); ``rejuvenate`` runs whole moves under a compiled model. Positions replay with
``kernels._replays``, the importance sampler's own check.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.beliefs.kernels import (
    MODEL_NONE,
    MODEL_OUTSIDE,
    RNG,
    SEEN_HIDDEN_BEFORE,
    SEEN_MINE_DRAWN,
    SEEN_TURNED,
    _replays,
    _seat_of,
    _uniform,
    model_logp,
)
from sniff_twelve.core.rng import below, shuffle

#: ``slot_place`` of a position: the rest, and a unit ``me`` saw (its own draw, one turned up)
REST, SEEN = -2, -1
DEAD = -np.inf
#: a swap is rejected early only when out of reach by more than this (the sums' rounding)
MARGIN = 1e-9


@nb.njit(cache=True, nogil=True)
def deal(units, rng, out):
    """``out[p]``: ``units`` in a fresh uniform order for every particle (the start's shuffle)."""
    for p in range(out.shape[0]):
        out[p] = units
        shuffle(rng, RNG, out[p], units.shape[0])


@nb.njit(cache=True, nogil=True)
def free_draws(hooks, before, after, params, me, action):
    """``[places]``: the units each other seat takes unseen during the step (public counts)."""
    n = params[0]
    actor = np.int64(before[hooks.CUR])
    shown = hooks.shown_item(before, params, action)
    out = np.zeros(n - 1, dtype=np.int64)
    for place in range(n - 1):
        seat = _seat_of(params, me, place)
        out[place] = hooks.hand_size(after, params, seat) - hooks.hand_size(before, params, seat)
        if seat == actor and shown >= 0:
            out[place] += 1
    return out


@nb.njit(cache=True, nogil=True)
def advance(
    hooks, past, actions, now, params, me, seen, t, model, epsilon, units, bound, hands, logw, steplogp, rng, rows
):
    """Move every live particle over step ``t`` (module docstring). ``units[p, bound:]`` is the
    rest; the step's units go to the positions from ``bound`` on, the seen ones first (items in
    order), then the free ones by place. ``hands[p]``: the other hands before the step, then
    after it. ``logw[p]`` gains the step's log weight (``DEAD`` when nothing replays);
    ``steplogp[p, t]`` the model's part. With ``MODEL_OUTSIDE``, ``rows[p]`` receives the
    actor's view where the model is to be asked (``rows[p, 0] = -1`` elsewhere)."""
    items, places = hooks.ITEMS, params[0] - 1
    steps = actions.shape[0]
    before = past[t]
    after = now if t == steps - 1 else past[t + 1]
    actor = np.int64(before[hooks.CUR])
    action = actions[t]
    shown = hooks.shown_item(before, params, action)
    free = free_draws(hooks, before, after, params, me, action)
    single = free.sum() == 1
    look = single and t + 1 < steps  # the next step is known: rule out draws it contradicts
    following = now
    if look:
        following = now if t + 1 == steps - 1 else past[t + 2]
        look = free_draws(hooks, after, following, params, me, actions[t + 1]).sum() == 0
    counts = np.zeros(items, dtype=np.int64)
    scratch = np.zeros(items, dtype=np.int64)
    drawn = np.zeros((places, items), dtype=np.int64)
    trial = np.zeros((places, items), dtype=np.int64)
    empty = np.zeros((places, items), dtype=np.int64)
    pool = np.zeros(units.shape[1] + 64, dtype=np.int64)
    state = np.empty_like(now)
    spare = np.empty_like(now)
    two = np.empty((2, now.shape[0]), dtype=now.dtype)
    seat_view = np.empty_like(now)
    mask = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    spare_mask = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    candidates = np.zeros(items, dtype=np.int64)
    for p in range(units.shape[0]):
        rows[p, 0] = -1
        steplogp[p, t] = 0.0
        if logw[p] == DEAD:
            continue
        total = 0
        for i in range(items):
            counts[i] = seen[t, SEEN_HIDDEN_BEFORE, i]
            for place in range(places):
                counts[i] -= hands[p, place, i]
            total += counts[i]
        lw = 0.0
        at = bound
        ok = True
        for kind in (SEEN_MINE_DRAWN, SEEN_TURNED):  # the seen units, in any order (a shuffle is exchangeable)
            for i in range(items):
                for _ in range(seen[t, kind, i]):
                    if counts[i] <= 0:
                        ok = False
                        break
                    lw += np.log(counts[i] / total)
                    counts[i] -= 1
                    total -= 1
                    at = _take(units[p], at, i)
        drawn[:] = 0
        for place in range(places):
            if not ok:
                break
            for _ in range(free[place]):
                if single:  # only the items with which the step replays
                    chance = 0
                    for i in range(items):
                        candidates[i] = 0
                        if counts[i] > 0:
                            trial[:] = drawn
                            trial[place, i] += 1
                            if _replays(
                                hooks, t, before, after, params, me, actor, action, hands[p], trial, seen,
                                scratch, pool, state, two, mask,
                            ):  # fmt: skip
                                if look:
                                    trial[:] = hands[p] + trial
                                    if shown >= 0 and actor != me:
                                        trial[actor if actor < me else actor - 1, shown] -= 1
                                    if not _replays(
                                        hooks, t + 1, after, following, params, me, np.int64(after[hooks.CUR]),
                                        actions[t + 1], trial, empty, seen, scratch, pool, spare, two, spare_mask,
                                    ):  # fmt: skip
                                        continue
                                candidates[i] = counts[i]
                                chance += counts[i]
                    if chance == 0:
                        ok = False
                        break
                    lw += np.log(chance / total)
                    r = below(rng, RNG, chance)
                else:
                    if total == 0:
                        ok = False
                        break
                    candidates[:] = counts
                    r = below(rng, RNG, total)
                i = 0
                while r >= candidates[i]:
                    r -= candidates[i]
                    i += 1
                counts[i] -= 1
                total -= 1
                drawn[place, i] += 1
                at = _take(units[p], at, i)
        if not ok or not _replays(
            hooks, t, before, after, params, me, actor, action, hands[p], drawn, seen, scratch, pool, state, two, mask
        ):
            logw[p] = DEAD
            continue
        if actor != me and model != MODEL_NONE and mask.sum() > 1:
            if model == MODEL_OUTSIDE:
                hooks.write_view(state, params, actor, rows[p])
            else:
                hooks.write_view(state, params, actor, seat_view)
                steplogp[p, t] = model_logp(hooks, seat_view, params, action, mask.sum(), model, epsilon)
                lw += steplogp[p, t]
        for place in range(places):
            for i in range(items):
                hands[p, place, i] += drawn[place, i]
        if actor != me and shown >= 0:
            hands[p, actor if actor < me else actor - 1, shown] -= 1
        logw[p] += lw


@nb.njit(cache=True, nogil=True)
def _take(vector, at, item):
    """Swap a unit of ``item`` from the rest (``vector[at:]``) to position ``at``; returns ``at + 1``."""
    for j in range(at, vector.shape[0]):
        if vector[j] == item:
            vector[j] = vector[at]
            vector[at] = item
            return at + 1
    return at  # unreachable for a consistent particle: the caller checked the counts


@nb.njit(cache=True, nogil=True)
def propose(
    hooks, past, actions, now, params, me, seen, model, epsilon, units, slot_step, slot_place, movable, live,
    steplogp, rng, swaps, newlogp, new_hands, rows, row_steps, target, inside, outside, hastings, hidden, logu,
):  # fmt: skip
    """Half a Metropolis–Hastings move for every live particle: swap the items of two positions of
    ``movable`` (the start's hands, the free draws, the rest) held in different places, both items
    with units still ``hidden`` after the steps (a swap keeps them so: the proposal is symmetric),
    and replay the deal. ``swaps[p]``: the two positions (``-1``: no move, an impossible deal or alike
    items); ``newlogp[p]``: the model's log-probabilities per step after the swap (those the
    swap leaves unchanged copied; ``NaN`` where ``rows`` holds the actor's view for an outside
    model, its step in ``row_steps``); ``new_hands[p]``: the other hands now. Returns the rows
    used. The caller accepts by ``logu < Σ newlogp - Σ steplogp + hastings``.

    Replays are cut short, exactly: the steps before the first one whose hands or draws the swap
    changes replay as before and keep their probabilities; and since no probability exceeds 1,
    a step can raise the sum by at most ``-steplogp`` there, so a swap whose sum could no longer
    reach ``logu[p]`` is rejected at once (``swaps[p, 0] = -2``) without replaying the rest.

    With ``target >= 0`` the swap aims at one item (an item a seat is about to show): with even
    chances, a unit of ``target`` among the positions ``outside`` moves into a position of
    ``inside`` (that seat's hand at the start), or one inside moves out; ``hastings[p]`` is the
    log ratio of the reverse move's chance to this one's (0 for the untargeted swap)."""
    items, places = hooks.ITEMS, params[0] - 1
    steps = actions.shape[0]
    counts = np.zeros(items, dtype=np.int64)
    pool = np.zeros(units.shape[1] + 64, dtype=np.int64)
    state = np.empty_like(now)
    two = np.empty((2, now.shape[0]), dtype=now.dtype)
    seat_view = np.empty_like(now)
    mask = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    old = np.zeros((places, items), dtype=np.int64)
    new = np.zeros((places, items), dtype=np.int64)
    old_drawn = np.zeros((places, items), dtype=np.int64)
    new_drawn = np.zeros((places, items), dtype=np.int64)
    used = 0
    eligible = np.empty(movable.shape[0], dtype=np.int64)
    first = np.zeros(steps + 1, dtype=np.int64)  # positions of step t: first[t] … first[t + 1]
    k = 0
    while k < slot_step.shape[0] and slot_step[k] == -1:
        k += 1
    for t in range(steps + 1):
        first[t] = k
        while k < slot_step.shape[0] and slot_step[k] == t:
            k += 1
    for p in range(units.shape[0]):
        swaps[p, 0] = -1
        swaps[p, 1] = -1
        if not live[p]:
            continue
        hastings[p] = 0.0
        vector = units[p]
        if target < 0:  # among the positions whose items are still hidden (the others cannot move)
            size = 0
            for j in movable:
                if hidden[vector[j]] > 0:
                    eligible[size] = j
                    size += 1
            if size < 2:
                continue
            a = eligible[below(rng, RNG, size)]
            b = eligible[below(rng, RNG, size)]
        else:
            n_in = _count(vector, inside, target)
            n_out = _count(vector, outside, target)
            if below(rng, RNG, 2) == 0:  # in
                if n_out == 0:
                    continue
                a = inside[below(rng, RNG, inside.shape[0])]
                b = _kth(vector, outside, target, below(rng, RNG, n_out))
                hastings[p] = np.log(inside.shape[0] * n_out) - np.log((n_in + 1) * outside.shape[0])
            else:  # out
                if n_in == 0:
                    continue
                a = _kth(vector, inside, target, below(rng, RNG, n_in))
                b = outside[below(rng, RNG, outside.shape[0])]
                hastings[p] = np.log(n_in * outside.shape[0]) - np.log(inside.shape[0] * (n_out + 1))
        if vector[a] == vector[b] or (slot_step[a] == slot_step[b] and slot_place[a] == slot_place[b]):
            continue
        x, y = vector[a], vector[b]
        old[:] = 0
        new[:] = 0
        for j in range(first[0]):
            old[slot_place[j], vector[j]] += 1
        new[:] = old
        changed = steps  # the first step whose hands or draws the swap changes
        for j, gone, came in ((a, x, y), (b, y, x)):
            if slot_step[j] == -1 and slot_place[j] >= 0:
                new[slot_place[j], gone] -= 1
                new[slot_place[j], came] += 1
                changed = 0
            elif slot_step[j] >= 0 and slot_place[j] >= 0:
                changed = min(changed, slot_step[j])
        slack = hastings[p]  # the most the log ratio can still reach
        for t in range(steps):
            slack -= steplogp[p, t]
        ok = slack >= logu[p] - MARGIN
        if not ok:
            swaps[p, 0] = -2
        dirty = True
        for t in range(steps if ok else 0):
            before = past[t]
            after = now if t == steps - 1 else past[t + 1]
            actor = np.int64(before[hooks.CUR])
            action = actions[t]
            drew = first[t + 1] > first[t]  # the step takes units (else no draws to count)
            if drew or dirty:
                old_drawn[:] = 0
                for j in range(first[t], first[t + 1]):
                    if slot_place[j] >= 0:
                        old_drawn[slot_place[j], vector[j]] += 1
                new_drawn[:] = old_drawn
                for j, gone, came in ((a, x, y), (b, y, x)):
                    if slot_step[j] == t and slot_place[j] >= 0:
                        new_drawn[slot_place[j], gone] -= 1
                        new_drawn[slot_place[j], came] += 1
                dirty = drew
            newlogp[p, t] = steplogp[p, t]
            place = actor if actor < me else actor - 1
            replay = t >= changed and (
                (actor != me and (place == slot_place[a] or place == slot_place[b]))
                or slot_step[a] == t
                or slot_step[b] == t
            )
            if replay and (
                new.min() < 0
                or not _replays(
                    hooks, t, before, after, params, me, actor, action, new, new_drawn, seen, counts, pool, state,
                    two, mask,
                )
            ):  # fmt: skip
                ok = False
                break
            if replay and actor != me and model != MODEL_NONE:
                same = True
                for i in range(items):
                    if old[place, i] != new[place, i]:
                        same = False
                if not same:
                    if mask.sum() <= 1:  # a forced move: probability 1, whatever the model
                        newlogp[p, t] = 0.0
                    elif model == MODEL_OUTSIDE:
                        hooks.write_view(state, params, actor, rows[used])
                        row_steps[used] = p * steps + t
                        used += 1
                        newlogp[p, t] = np.nan  # at most 1: the step may raise the sum by -steplogp
                    else:
                        hooks.write_view(state, params, actor, seat_view)
                        newlogp[p, t] = model_logp(hooks, seat_view, params, action, mask.sum(), model, epsilon)
            if not np.isnan(newlogp[p, t]):
                slack += newlogp[p, t]  # the step's bound -steplogp becomes its change
                if slack < logu[p] - MARGIN:  # out of reach: rejected whatever the rest replays
                    swaps[p, 0] = -2
                    ok = False
                    break
            shown = hooks.shown_item(before, params, action)
            for place in range(places if drew else 0):
                for i in range(items):
                    old[place, i] += old_drawn[place, i]
                    new[place, i] += new_drawn[place, i]
            if actor != me and shown >= 0:
                old[actor if actor < me else actor - 1, shown] -= 1
                new[actor if actor < me else actor - 1, shown] -= 1
        if ok:
            swaps[p, 0] = a
            swaps[p, 1] = b
            new_hands[p] = new
        else:
            while used > 0 and row_steps[used - 1] // steps == p:  # rows of a rejected deal
                used -= 1
    return used


@nb.njit(cache=True, nogil=True)
def rejuvenate(
    hooks, past, actions, now, params, me, seen, model, epsilon, units, hands, slot_step, slot_place, movable, live,
    steplogp, rng, target, inside, outside, hidden, repeats,
):  # fmt: skip
    """``repeats`` whole Metropolis–Hastings moves of every live particle under a compiled model
    (no ``MODEL_OUTSIDE``): ``propose``, then ``accept``. Returns (accepted, proposed)."""
    count, steps = units.shape[0], actions.shape[0]
    swaps = np.empty((count, 2), dtype=np.int64)
    newlogp = np.empty_like(steplogp)
    new_hands = np.empty_like(hands)
    rows = np.empty((1, now.shape[0]), dtype=now.dtype)
    row_steps = np.empty(1, dtype=np.int64)
    hastings = np.zeros(count)
    logu = np.empty(count)
    accepted = proposed = 0
    for _ in range(repeats):
        for p in range(count):
            logu[p] = np.log(max(_uniform(rng), 1e-300))
        propose(
            hooks, past, actions, now, params, me, seen, model, epsilon, units, slot_step, slot_place, movable,
            live, steplogp, rng, swaps, newlogp, new_hands, rows, row_steps, target, inside, outside, hastings,
            hidden, logu,
        )  # fmt: skip
        took, tried = accept(swaps, newlogp, hastings, logu, steps, units, hands, new_hands, steplogp)
        accepted += took
        proposed += tried
    return accepted, proposed


@nb.njit(cache=True, nogil=True)
def accept(swaps, newlogp, hastings, logu, steps, units, hands, new_hands, steplogp):
    """The other half of the move ``propose`` began: each swap whose log ratio
    ``Σ newlogp - Σ steplogp + hastings`` is above ``logu`` is made in ``units``, ``hands`` and
    ``steplogp``. Returns (accepted, proposed: the swaps tried, those rejected early included)."""
    accepted = proposed = 0
    for p in range(units.shape[0]):
        proposed += swaps[p, 0] != -1
        if swaps[p, 0] < 0:
            continue
        gain = hastings[p]
        for t in range(steps):
            gain += newlogp[p, t] - steplogp[p, t]
        if logu[p] < gain:
            a, b = swaps[p, 0], swaps[p, 1]
            units[p, a], units[p, b] = units[p, b], units[p, a]
            steplogp[p, :steps] = newlogp[p, :steps]
            hands[p] = new_hands[p]
            accepted += 1
    return accepted, proposed


@nb.njit(cache=True, nogil=True)
def _count(vector, positions, item):
    """How many of ``positions`` hold ``item`` in ``vector``."""
    c = 0
    for j in positions:
        c += vector[j] == item
    return c


@nb.njit(cache=True, nogil=True)
def _kth(vector, positions, item, k):
    """The ``k``-th of ``positions`` that holds ``item``."""
    for j in positions:
        if vector[j] == item:
            if k == 0:
                return j
            k -= 1
    return -1


@nb.njit(cache=True, nogil=True)
def uniforms(rng, out):
    """``out[i]``: uniform floats in ``[0, 1)`` from the stream."""
    for i in range(out.shape[0]):
        out[i] = _uniform(rng)
