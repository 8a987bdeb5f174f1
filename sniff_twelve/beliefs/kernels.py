"""The compiled part of the beliefs: deals drawn backwards from now through the deal's history.

A *world* is one arrangement of everything a seat cannot see. Before play, every arrangement of
the physical tiles or cards (a uniform shuffle) is equally likely; the play then weighs each by
how likely it makes what the other seats did. ``sample_worlds`` draws worlds by importance
sampling, backwards:

1. deal the items hidden from ``me`` now uniformly at random among the deals that give the
   other hands their sizes and no item the game's ``allowed_items`` rules out for them (Sniff:
   a tile with a pip its holder is known to lack), the rest to the boneyard or stock — exactly
   uniform, by counting the ways to complete a deal (``_completions``);
2. walk the deal's actions from the last to the first, undoing each: the item the actor showed
   goes back into its hand, and every item a seat drew is taken back out of its hand — one of
   its units just after the draw, uniformly; for the actor's own draw only among the items with
   which the step replays to what ``me`` saw (Sniff's forced draw, S19–S20, fixes it to the
   tile then placed);
3. replay every step from the position so rebuilt (``deal_hidden``: the other hands as undone,
   the pool in the order the step consumes it, ``_replays``): the action must be legal there and
   lead to exactly ``me``'s next view (what a draw showed of the drawn tile's fit, a block that
   did not happen, …); at every action of another seat, multiply in the model's probability of
   it, computed from that seat's own view (``write_view``) — or, for a model that is not
   compiled, store the view for the caller to evaluate in one batch.

Each physical arrangement consistent with the history is reached by exactly one sequence of
choices, so a world's importance weight is its likelihood over the probability of its choices:
the number of allowed units at each draw over the copies of the item taken, and — where units
are alike ("12": cards of one rank, T1–T3) — the physical deals behind the hands now over those
behind the hands at the start, ``Π c_now! / c_start!`` per hand and rank (all 1 for Sniff's
distinct tiles). The game's hooks (its ``GameSpec``, ``sniff_twelve.core.spec``) say what an item
is and how a position is rebuilt.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from sniff_twelve.core.rng import below, shuffle
from sniff_twelve.core.rollouts import paired_rollouts
from sniff_twelve.core.seats import seat_after

#: how the other seats are modelled inside the compiled loop
MODEL_NONE, MODEL_RANDOM, MODEL_GREEDY, MODEL_HEURISTIC, MODEL_OUTSIDE = range(5)
RNG = 0  # the sampler's 2-word stream


SEEN_HIDDEN_BEFORE, SEEN_MINE_DRAWN, SEEN_TURNED = range(3)


@nb.njit(cache=True, nogil=True)
def _what_was_seen(hooks, past, actions, now, params, me):
    """``[steps, 3, ITEMS]``, what each step showed ``me`` whatever the world: the items hidden
    from it before the step, the items it drew, and those turned face up from the pool ("12",
    T10) — every item that stopped being hidden but for the one the actor showed and its own."""
    steps, items = actions.shape[0], hooks.ITEMS
    seen = np.zeros((steps, 3, items), dtype=np.int64)
    hidden_after = np.zeros(items, dtype=np.int64)
    mine_before = np.zeros(items, dtype=np.int64)
    mine_after = np.zeros(items, dtype=np.int64)
    for t in range(steps):
        before = past[t]
        after = now if t == steps - 1 else past[t + 1]
        actor = np.int64(before[hooks.CUR])
        shown = hooks.shown_item(before, params, actions[t])
        hooks.hidden_items(before, params, me, seen[t, SEEN_HIDDEN_BEFORE])
        hooks.hidden_items(after, params, me, hidden_after)
        hooks.held_items(before, params, me, mine_before)
        hooks.held_items(after, params, me, mine_after)
        for i in range(items):
            mine = mine_after[i] - mine_before[i] + (actor == me and shown == i)
            seen[t, SEEN_MINE_DRAWN, i] = mine
            revealed = seen[t, SEEN_HIDDEN_BEFORE, i] - hidden_after[i]
            seen[t, SEEN_TURNED, i] = revealed - mine - (actor != me and shown == i)
    return seen


@nb.njit(cache=True, nogil=True)
def _replays(
    hooks, t, before, after, params, me, actor, action, holdings, drawn, seen, counts, pool, state, following, mask
):
    """Whether, with the other hands ``holdings`` before step ``t`` and ``drawn[place]`` the
    items each draws during it, ``action`` is legal and leads to exactly what ``me`` saw next
    (``after``). Leaves the position before the step in ``state`` (its pool in the order the step
    consumes it: the draws in turn order from the actor, then the items turned face up, then the
    rest) and its legal moves in ``mask``; ``following`` is scratch (two rows)."""
    n, items = params[0], hooks.ITEMS
    for i in range(items):
        counts[i] = seen[t, SEEN_HIDDEN_BEFORE, i]
        for place in range(holdings.shape[0]):
            counts[i] -= holdings[place, i]
    size = 0
    for k in range(n + 1):  # the draws in turn order from the actor, then what is turned up
        seat = seat_after(actor, k, n)
        for i in range(items):
            if k == n:
                c = seen[t, SEEN_TURNED, i]
            elif seat == me:
                c = seen[t, SEEN_MINE_DRAWN, i]
            else:
                c = drawn[seat if seat < me else seat - 1, i]
            for _ in range(c):
                pool[size] = i
                size += 1
            counts[i] -= c
    for i in range(items):
        if counts[i] < 0:
            return False
        for _ in range(counts[i]):
            pool[size] = i
            size += 1
    hooks.deal_hidden(before, params, me, holdings, pool[:size], state)
    hooks.legal_mask_into(state, params, mask)
    if not mask[action]:
        return False
    following[0] = state
    hooks.apply_action(following[0], params, action)
    hooks.write_view(following[0], params, me, following[1])
    for j in range(after.shape[0]):
        if following[1, j] != after[j]:
            return False
    return True


@nb.njit(cache=True, nogil=True)
def _seat_of(params, me, place):
    """The seat of the ``place``-th other hand (the other seats in seat order)."""
    return place if place < me else place + 1


@nb.njit(cache=True, nogil=True)
def _take_drawn(hooks, holdings, place, rng, allowed, drawn):
    """Take one item out of ``holdings[place]`` into ``drawn[place]``, uniform over its units
    among ``allowed`` items; returns how many units were allowed (0: none, nothing taken) and
    how many units of the item taken there were."""
    total = 0
    for i in range(hooks.ITEMS):
        if allowed[i]:
            total += holdings[place, i]
    if total == 0:
        return 0, 0
    r = below(rng, RNG, total)
    for i in range(hooks.ITEMS):
        if allowed[i]:
            if r < holdings[place, i]:
                holdings[place, i] -= 1
                drawn[place, i] += 1
                return total, holdings[place, i] + 1
            r -= holdings[place, i]
    return total, 0


@nb.njit(cache=True, nogil=True)
def _completions(units, weights, sizes, radix, table):
    """``table[k, code]``: the ways to deal ``units[k:]`` when the other hands still take the
    counts ``code`` encodes (mixed radix ``radix``), the boneyard or stock the rest, each way
    counted with the product of its units' ``weights[place, item]`` (``[hands + 1, items]``, the
    pool last; 0 where an item may not go, 1 everywhere else for a plain count)."""
    count, hands = units.shape[0], sizes.shape[0]
    table[count, :] = 0.0
    table[count, 0] = 1.0
    for k in range(count - 1, -1, -1):
        unit = units[k]
        for code in range(table.shape[1]):
            room = 0
            for h in range(hands):
                room += (code // radix[h]) % (sizes[h] + 1)
            ways = 0.0
            if count - k > room:  # the pool still has a place for this unit
                ways += weights[hands, unit] * table[k + 1, code]
            for h in range(hands):
                if (code // radix[h]) % (sizes[h] + 1) > 0 and weights[h, unit] > 0:
                    ways += weights[h, unit] * table[k + 1, code - radix[h]]
            table[k, code] = ways


@nb.njit(cache=True, nogil=True)
def _deal_weighted(units, weights, sizes, radix, table, rng, holdings):
    """One deal of ``units`` drawn among those ``table`` counts (``_completions``), each with
    probability proportional to its weight: ``holdings[h]`` the ``h``-th other hand,
    ``holdings[-1]`` the pool."""
    hands = sizes.shape[0]
    holdings[:] = 0
    code = 0
    for h in range(hands):
        code += sizes[h] * radix[h]
    for k in range(units.shape[0]):
        unit = units[k]
        r = _uniform(rng) * table[k, code]
        choice = hands  # the pool, unless a hand is drawn
        for h in range(hands):
            if (code // radix[h]) % (sizes[h] + 1) > 0 and weights[h, unit] > 0:
                w = weights[h, unit] * table[k + 1, code - radix[h]]
                if r < w:
                    choice = h
                    break
                r -= w
        holdings[choice, unit] += 1
        if choice < hands:
            code -= radix[choice]


@nb.njit(cache=True, nogil=True)
def hidden_deal(hooks, now, params, me):
    """What ``me`` cannot see now, as a deal to make: ``(units, sizes, radix, allowed)`` — one
    entry per hidden unit (its item), the other hands' sizes in seat order, their mixed radix
    (``_completions``' codes) and which of them may hold which item (known voids)."""
    places, items = params[0] - 1, hooks.ITEMS
    hidden = np.zeros(items, dtype=np.int64)
    hooks.hidden_items(now, params, me, hidden)
    units = np.empty(hidden.sum(), dtype=np.int64)
    k = 0
    for i in range(items):
        for _ in range(hidden[i]):
            units[k] = i
            k += 1
    sizes = np.zeros(places, dtype=np.int64)
    radix = np.ones(places, dtype=np.int64)
    for place in range(places):
        sizes[place] = hooks.hand_size(now, params, _seat_of(params, me, place))
        if place > 0:
            radix[place] = radix[place - 1] * (sizes[place - 1] + 1)
    allowed = np.zeros((places, items), dtype=np.bool_)
    hooks.allowed_items(now, params, me, allowed)
    return units, sizes, radix, allowed


@nb.njit(cache=True, nogil=True)
def deal_from_weights(hooks, now, params, me, weights, rng, worlds_out):
    """Fill ``worlds_out[w]`` (``[places, ITEMS]``, as ``sample_worlds``) with deals of what
    ``me`` cannot see now, each drawn with probability proportional to the product of its units'
    ``weights[place, item]`` among the deals that give the other hands their sizes and respect the
    known voids (the learned beliefs' worlds). Returns ``False`` when no deal has a weight."""
    units, sizes, radix, allowed = hidden_deal(hooks, now, params, me)
    places = sizes.shape[0]
    masked = weights.copy()
    for place in range(places):
        for i in range(hooks.ITEMS):
            if not allowed[place, i]:
                masked[place, i] = 0.0
    table = np.zeros((units.shape[0] + 1, radix[places - 1] * (sizes[places - 1] + 1)))
    _completions(units, masked, sizes, radix, table)
    if not table[0, -1] > 0:
        return False
    for w in range(worlds_out.shape[0]):
        _deal_weighted(units, masked, sizes, radix, table, rng, worlds_out[w])
    return True


@nb.njit(cache=True, nogil=True)
def balance(m, sizes, hidden, rounds, tolerance):
    """Sinkhorn balancing in place, at most ``rounds`` rounds: each ``m[b]``'s columns scaled to
    ``sizes[b]``, then its rows to ``hidden[b]`` (exact: every hidden unit is somewhere), until no
    column was off by more than ``tolerance`` (``learned.balanced`` at play)."""
    for b in range(m.shape[0]):
        for _ in range(rounds):
            worst = 0.0
            for p in range(m.shape[2]):
                total = 0.0
                for i in range(m.shape[1]):
                    total += m[b, i, p]
                worst = max(worst, abs(total - sizes[b, p]))
                scale = sizes[b, p] / max(total, 1e-30)
                for i in range(m.shape[1]):
                    m[b, i, p] *= scale
            for i in range(m.shape[1]):
                total = 0.0
                for p in range(m.shape[2]):
                    total += m[b, i, p]
                scale = hidden[b, i] / max(total, 1e-30)
                for p in range(m.shape[2]):
                    m[b, i, p] *= scale
            if worst <= tolerance:
                break


@nb.njit(cache=True, nogil=True)
def shown_by_seat(hooks, past, actions, params, me, out):
    """``out[r - 1, i]``: how many units of item ``i`` relative seat ``r`` (seat ``(me + r) % n``)
    has shown this deal — the public history the learned beliefs read besides the observation."""
    n = params[0]
    out[:] = 0.0
    for t in range(actions.shape[0]):
        actor = np.int64(past[t][hooks.CUR])
        shown = hooks.shown_item(past[t], params, actions[t])
        if actor != me and shown >= 0:
            out[seat_after(actor, n - me, n) - 1, shown] += 1.0


@nb.njit(cache=True, nogil=True)
def truth_counts(hooks, states, params, seats, out):
    """``out[b, i, r]``: the units of item ``i`` that seat ``seats[b]`` cannot see and that lie
    with relative seat ``r + 1`` (seat ``(me + r + 1) % n``), the pool last (``r = n - 1``), in
    the full position ``states[b]`` — what learned beliefs and belief heads are trained on."""
    n, items = params[0], hooks.ITEMS
    hidden = np.zeros(items, dtype=np.int64)
    held = np.zeros(items, dtype=np.int64)
    for b in range(states.shape[0]):
        me = seats[b]
        hooks.hidden_items(states[b], params, me, hidden)
        for r in range(1, n):
            hooks.held_items(states[b], params, seat_after(me, r, n), held)
            for i in range(items):
                out[b, i, r - 1] = held[i]
                hidden[i] -= held[i]
        for i in range(items):
            out[b, i, n - 1] = hidden[i]


@nb.njit(cache=True, nogil=True)
def _deal_shuffled(units, sizes, rng, holdings):
    """``units`` shuffled and dealt in order: the other hands (``sizes``), then the pool."""
    shuffle(rng, RNG, units, units.shape[0])
    holdings[:] = 0
    k = 0
    for h in range(sizes.shape[0]):
        for _ in range(sizes[h]):
            holdings[h, units[k]] += 1
            k += 1
    for j in range(k, units.shape[0]):
        holdings[sizes.shape[0], units[j]] += 1


@nb.njit(cache=True, nogil=True)
def _uniform(rng):
    """A uniform float in ``[0, 1)`` from the sampler's stream (53 bits)."""
    return below(rng, RNG, 1 << 26) / 67108864.0 + below(rng, RNG, 1 << 27) / 9007199254740992.0


@nb.njit(cache=True, nogil=True)
def model_logp(hooks, seat_view, params, action, legal, model, epsilon):
    """``log P(action)`` under a compiled model (``MODEL_RANDOM``, ``MODEL_GREEDY``,
    ``MODEL_HEURISTIC``) softened by ``epsilon`` of uniform play over the ``legal`` actions, the
    actor's view already written in ``seat_view``."""
    p = 1.0 / legal
    if model != MODEL_RANDOM:
        if model == MODEL_GREEDY:
            choice = hooks.greedy_action(seat_view, params)
        else:
            choice = hooks.heuristic_action(seat_view, params)
        p = epsilon * p + (1.0 - epsilon) * (choice == action)
    return np.log(p)


@nb.njit(cache=True, nogil=True)
def sample_worlds(
    hooks, past, actions, now, params, me, model, epsilon, max_proposals, rng, worlds_out, logw_out, loglik_out,
    decisions,
):  # fmt: skip
    """Fill ``worlds_out[w]`` (``[places, ITEMS]``: the other hands in seat order, then the
    boneyard or stock), ``logw_out[w]`` (the log weight) and ``loglik_out[w]`` (its part that is the
    model's likelihood) for up to ``worlds_out.shape[0]`` worlds consistent
    with ``me``'s history (``past[t]``: ``me``'s view before ``actions[t]``; ``now``: its view
    now), trying at most ``max_proposals`` deals. With ``model == MODEL_OUTSIDE``,
    ``decisions[w, d]`` receives the view of the ``d``-th action of another seat in world ``w``
    when that seat had a choice there (rows of ``-1`` otherwise). Returns ``(worlds, tried)``."""
    n = params[0]
    places = n - 1
    items = hooks.ITEMS
    steps = actions.shape[0]
    units, sizes, radix, allowed = hidden_deal(hooks, now, params, me)
    free = allowed.all()  # no void: a plain shuffle is uniform, and no table is needed
    weights = np.ones((places + 1, items))
    for place in range(places):
        for i in range(items):
            if not allowed[place, i]:
                weights[place, i] = 0.0
    table = np.zeros((1 if free else units.shape[0] + 1, radix[places - 1] * (sizes[places - 1] + 1)))
    if not free:
        _completions(units, weights, sizes, radix, table)
        if table[0, -1] == 0:
            return 0, 0
    holdings = np.zeros((places + 1, items), dtype=np.int64)
    undone = np.zeros((places, items), dtype=np.int64)
    trial = np.zeros((places, items), dtype=np.int64)
    drawn = np.zeros((places, items), dtype=np.int64)
    drawn_trial = np.zeros((places, items), dtype=np.int64)
    seen = _what_was_seen(hooks, past, actions, now, params, me)
    pool = np.zeros(units.shape[0] + 64, dtype=np.int64)
    counts = np.zeros(items, dtype=np.int64)
    state = np.empty_like(now)
    following = np.empty((2, now.shape[0]), dtype=now.dtype)
    seat_view = np.empty_like(now)
    mask = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    drawable = np.zeros(items, dtype=np.bool_)
    accepted, tried = 0, 0
    while accepted < worlds_out.shape[0] and tried < max_proposals:
        tried += 1
        if free:
            _deal_shuffled(units, sizes, rng, holdings)
        else:
            _deal_weighted(units, weights, sizes, radix, table, rng, holdings)
        undone[:] = holdings[:places]
        logw = loglik = 0.0
        ok = True
        d = 0
        for t in range(steps - 1, -1, -1):
            before = past[t]
            after = now if t == steps - 1 else past[t + 1]
            actor = np.int64(before[hooks.CUR])
            action = actions[t]
            shown = hooks.shown_item(before, params, action)
            drawn[:] = 0
            for place in range(places):
                seat = _seat_of(params, me, place)
                count = hooks.hand_size(after, params, seat) - hooks.hand_size(before, params, seat)
                if seat == actor and shown >= 0:
                    count += 1
                for _ in range(count):
                    if seat == actor:  # only draws that replay to what me saw (S19–S20)
                        for i in range(items):
                            drawable[i] = False
                            if undone[place, i] > 0:
                                trial[:] = undone
                                trial[place, i] -= 1
                                if shown >= 0:
                                    trial[place, shown] += 1
                                drawn_trial[:] = drawn
                                drawn_trial[place, i] += 1
                                drawable[i] = _replays(
                                    hooks, t, before, after, params, me, actor, action, trial, drawn_trial, seen,
                                    counts, pool, state, following, mask,
                                )  # fmt: skip
                    else:
                        drawable[:] = True
                    choices, copies = _take_drawn(hooks, undone, place, rng, drawable, drawn)
                    if choices == 0:
                        ok = False
                        break
                    logw += np.log(choices / copies)
                if not ok:
                    break
                if seat == actor and shown >= 0:
                    undone[place, shown] += 1
            if not ok or not _replays(
                hooks,
                t,
                before,
                after,
                params,
                me,
                actor,
                action,
                undone,
                drawn,
                seen,
                counts,
                pool,
                state,
                following,
                mask,
            ):
                ok = False
                break
            if actor == me:
                continue
            legal = mask.sum()
            if legal > 1 and model != MODEL_NONE:
                hooks.write_view(state, params, actor, seat_view)
                if model == MODEL_OUTSIDE:
                    decisions[accepted, d] = seat_view
                else:
                    loglik += model_logp(hooks, seat_view, params, action, legal, model, epsilon)
            elif model == MODEL_OUTSIDE:
                decisions[accepted, d] = -1
            d += 1
        if not ok:
            continue
        for place in range(places):  # alike units: the physical deals behind each (module docstring)
            for i in range(items):
                logw += math.lgamma(holdings[place, i] + 1) - math.lgamma(undone[place, i] + 1)
        worlds_out[accepted] = holdings
        logw_out[accepted] = logw + loglik
        loglik_out[accepted] = loglik
        accepted += 1
    return accepted, tried


@nb.njit(cache=True, nogil=True)
def world_states(hooks, now, params, me, worlds, picks, rng, out):
    """``out[j]``: the full position of world ``picks[j]`` (``worlds`` as ``sample_worlds`` made
    them), its boneyard or stock in a random order (the order no seat has seen)."""
    places = worlds.shape[1] - 1
    pool = np.empty(worlds[0, places].sum() + 1, dtype=np.int64)
    for j in range(picks.shape[0]):
        w = picks[j]
        size = 0
        for i in range(hooks.ITEMS):
            for _ in range(worlds[w, places, i]):
                pool[size] = i
                size += 1
        shuffle(rng, RNG, pool, size)
        hooks.deal_hidden(now, params, me, worlds[w, :places], pool[:size], out[j])


@nb.njit(cache=True, nogil=True)
def world_values(hooks, states, params, me, actions, rng, greedy_rate, values):
    """``values[i]``: ``actions[i]``'s rollout values added up over the full positions
    ``states`` (``paired_rollouts`` on each: one stream per world)."""
    for w in range(states.shape[0]):
        paired_rollouts(hooks, states[w], params, me, actions, rng, greedy_rate, values)


@nb.njit(cache=True, nogil=True)
def legal_counts(hooks, rows, params, out):
    """``out[i]``: how many legal moves the seat to act has in the view row ``rows[i]``."""
    mask = np.zeros(hooks.MAX_ACTIONS, dtype=np.bool_)
    for i in range(rows.shape[0]):
        hooks.legal_mask_into(rows[i], params, mask)
        out[i] = mask.sum()


@nb.njit(cache=True, nogil=True)
def row_hashes(rows, out):
    """``out[i]``: a 64-bit FNV-1a hash of ``rows[i]`` (equal rows, equal hashes)."""
    for i in range(rows.shape[0]):
        h = np.uint64(14695981039346656037)
        for j in range(rows.shape[1]):
            h = (h ^ np.uint64(rows[i, j] & 0xFFFFFFFF)) * np.uint64(1099511628211)
        out[i] = h
