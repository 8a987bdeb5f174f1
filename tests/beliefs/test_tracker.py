"""``BeliefTracker`` held to the exact posterior on positions small enough to enumerate
(``tests/reference/belief_ref.py``), fed one view per action as an agent would be; a tracker that
skips the reweighting fails the same comparison. Twins get identical beliefs, a new deal starts
the tracker again, and bad input is one clear error."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env.agents import make_agent as sniff_agent
from sniff_twelve.beliefs import infer
from sniff_twelve.beliefs import kernels as BK
from sniff_twelve.beliefs import tracking as TK
from sniff_twelve.beliefs.tracker import MOVES, BeliefTracker
from tests.beliefs.test_exact import mixed, sniff_position, twelve_position
from tests.reference.belief_ref import exact_marginals
from twelve_env.agents import make_agent as twelve_agent

PARTICLES = 12_000
TOLERANCE = 0.035  # as the importance sampler's exact test: about 4 standard errors here


def tracked(start, actions, seat, model, particles=PARTICLES, seed=7, moves=MOVES):
    """The tracker's beliefs after ``actions``, updated at every one of them; and the tracker."""
    tracker = BeliefTracker(seat, model, particles=particles, seed=seed, moves=moves)
    game = start.clone()
    beliefs = tracker.update(game.seat_view(seat))
    for action in actions:
        game.apply(action)
        beliefs = tracker.update(game.seat_view(seat))
    return beliefs, tracker


def gap(beliefs, exact) -> float:
    """The largest difference of a marginal from the exact one (per unit of an item's copies)."""
    worst = 0.0
    for (item, place), expected in exact.items():
        got = beliefs.marginals[beliefs.items.index(item), place] if item in beliefs.items else 0.0
        worst = max(worst, abs(got - expected) / max(1, beliefs.marginals.sum(axis=1).max()))
    return worst


def sniff_cases(model, players, count):
    rng = random.Random(f"tracker{model}{players}")
    while count:
        start, actions = sniff_position(rng, players)
        if actions:
            count -= 1
            yield start, actions, rng.randrange(players)


@pytest.mark.parametrize(("model", "players"), [(None, 2), ("greedy", 2), ("greedy", 4), ("heuristic", 4), ("ppo", 2)])
def test_sniff_tracker_matches_the_exact_posterior(model, players):
    agent = sniff_agent(model) if model else None
    prob_fn = None if agent is None else mixed(agent.probabilities) if model == "ppo" else agent.probabilities
    moved = 0
    for start, actions, seat in sniff_cases(model, players, 4):
        beliefs, tracker = tracked(start, actions, seat, agent)
        assert gap(beliefs, exact_marginals(start, actions, seat, prob_fn)) < TOLERANCE, (actions, seat)
        moved += tracker.accepted
    assert model is None or moved > 0  # the rejuvenation moves ran and were accepted


@pytest.mark.parametrize(("model", "players"), [(None, 2), ("greedy", 3)])
def test_twelve_tracker_matches_the_exact_posterior(model, players):
    rng = random.Random(f"tracker{model}{players}")
    agent = twelve_agent(model) if model else None
    checked = 0
    while checked < 4:
        start, actions = twelve_position(rng, players)
        if start is None or not actions:
            continue
        seat = rng.randrange(players)
        beliefs, _ = tracked(start, actions, seat, agent)
        exact = exact_marginals(start, actions, seat, agent.probabilities if agent else None)
        assert gap(beliefs, exact) < TOLERANCE, (actions, seat)
        checked += 1


def test_a_tracker_that_skips_the_reweighting_fails_the_exact_test(monkeypatch):
    """The comparison can fail: keep every consistent particle at its old weight (no model, no
    chance of a draw) and the greedy players' positions land outside the tolerance. (With 4 moves
    after each resampling: many moves towards the posterior would partly undo the mutation.)"""
    real = BeliefTracker._advance

    def unweighted(self, *args):
        before = self._logw.copy()
        real(self, *args)
        self._logw = np.where(self._logw == -np.inf, -np.inf, before)

    greedy = sniff_agent("greedy")
    cases = list(sniff_cases("greedy", 2, 4))

    def worst() -> float:
        return max(
            gap(tracked(*case, greedy, moves=4)[0], exact_marginals(*case, greedy.probabilities)) for case in cases
        )

    assert worst() < TOLERANCE
    monkeypatch.setattr(BeliefTracker, "_advance", unweighted)
    assert worst() > TOLERANCE


def test_many_moves_keep_the_exact_posterior_and_a_move_that_skips_a_changed_decision_fails(monkeypatch):
    """32 Metropolis–Hastings moves after each resampling reach the moves' own stationary law, so
    any error in their acceptance shows. They keep the exact posterior (a forced move left at its
    old probability once moved "12"'s marginals by 0.07). A move that does not ask the model again
    about a decision whose view it changed (the old probability kept) fails the same comparison."""
    agent = sniff_agent("ppo")
    prob_fn = mixed(agent.probabilities)
    cases = list(sniff_cases("ppo", 2, 4))

    def worst() -> float:
        return max(
            gap(tracked(*case, agent, particles=4000, moves=32)[0], exact_marginals(*case, prob_fn)) for case in cases
        )

    assert worst() < TOLERANCE
    real = TK.propose

    def skipping(*args):
        used = real(*args)
        newlogp, row_steps, steplogp, steps = args[17], args[20], args[14], args[2].shape[0]
        at = row_steps[:used]
        newlogp[at // steps, at % steps] = steplogp[at // steps, at % steps]  # the old probability kept
        return 0

    monkeypatch.setattr(TK, "propose", skipping)
    assert worst() > TOLERANCE


def replayed_steps(tracker, view, vector):
    """For the particle ``vector`` of ``tracker`` (its positions), whether each step of ``view``'s
    deal replays (``kernels._replays``, every step on its own, the hands carried from the start)."""
    spec, params, past, actions, now = view.spec, view.params, view.past, view.past_actions, view.array
    step, place = tracker._slot_step, tracker._slot_place
    hands = np.zeros((params[0] - 1, spec.ITEMS), dtype=np.int64)
    np.add.at(hands, (place[step == -1], vector[step == -1]), 1)
    counts, pool = np.zeros(spec.ITEMS, dtype=np.int64), np.zeros(vector.shape[0] + 64, dtype=np.int64)
    state, two, mask = np.empty_like(now), np.empty((2, now.shape[0]), now.dtype), np.zeros(spec.MAX_ACTIONS, bool)
    out = []
    for t in range(len(actions)):
        drawn = np.zeros_like(hands)
        taken = (step == t) & (place >= 0)
        np.add.at(drawn, (place[taken], vector[taken]), 1)
        actor, after = np.int64(past[t][spec.CUR]), now if t == len(actions) - 1 else past[t + 1]
        out.append(
            hands.min() >= 0
            and BK._replays(
                spec, t, past[t], after, params, view.seat, actor, actions[t], hands, drawn, tracker._seen, counts,
                pool, state, two, mask,
            )
        )  # fmt: skip
        hands += drawn
        shown = spec.shown_item(past[t], params, actions[t])
        if actor != view.seat and shown >= 0:
            hands[actor if actor < view.seat else actor - 1, shown] -= 1
    return out


@pytest.mark.parametrize(("package", "players"), [(sniff_env, 4), (sniff_env, 2), (twelve_env, 3)])
def test_a_swap_changes_only_the_steps_a_move_replays(package, players):
    """A move replays only the steps where the swap changes the actor's hand or the step's draws
    (``tracking.propose``): in both games a step reads the other hands only through its actor's
    hand and their union (Sniff's block, S21). Swapped particles replayed step by step: a deal
    that replays at those steps replays at every step."""
    game = package.Game(num_players=players, seed=12)
    greedy = package.Game.spec.part("agents").make_agent("greedy")
    tracker = BeliefTracker(0, "greedy", particles=32, seed=1)
    for _ in range(16):
        view = game.seat_view(0)
        tracker.update(view)
        game.apply(greedy.act(game))
    step, place = tracker._slot_step, tracker._slot_place
    movable = np.flatnonzero(place != TK.SEEN)
    rng = np.random.default_rng(0)
    outcomes = set()
    for p in np.flatnonzero(tracker._live()):
        for a, b in rng.choice(movable, size=(16, 2)):
            vector = tracker._units[p].copy()
            if vector[a] == vector[b] or (step[a], place[a]) == (step[b], place[b]):
                continue
            vector[a], vector[b] = vector[b], vector[a]
            replays = replayed_steps(tracker, view, vector)
            actors = [int(row[view.spec.CUR]) for row in view.past]
            moved = [
                t in (step[a], step[b]) or (s != 0 and s - 1 in (place[a], place[b])) for t, s in enumerate(actors)
            ]
            seen_by_a_move = all(r for r, m in zip(replays, moved, strict=True) if m)
            assert seen_by_a_move == all(replays), (p, a, b)
            outcomes.add(seen_by_a_move)
    assert outcomes == {True, False}


def test_a_model_called_from_python_is_asked_each_view_once_a_deal(monkeypatch):
    """``ppo`` is asked about the actor's view of every particle the tracker moves or carries on;
    a view it was already asked in the deal is answered from memory (each row asked once)."""
    agent = sniff_agent("ppo")
    real, asked = agent.batch_probabilities, []

    def counted(game_cls, rows, params):
        asked.extend(row.tobytes() for row in rows)
        return real(game_cls, rows, params)

    monkeypatch.setattr(agent, "batch_probabilities", counted)
    game = sniff_env.Game(num_players=2, seed=3)
    tracker = BeliefTracker(0, agent, particles=64, seed=1, moves=4)
    for _ in range(10):
        view = game.seat_view(0)
        assert len(view.past_actions) == len(game.history)  # one deal all along
        tracker.update(view)
        game.apply(game.legal_actions()[0])
    assert tracker.accepted > 0 and len(asked) > 100
    assert len(asked) == len(set(asked))


def views(start, actions, seat):
    game, out = start.clone(), []
    for action in actions:
        game.apply(action)
        out.append(game.seat_view(seat))
    return out


def test_twins_get_identical_beliefs():
    """Two deals that differ where the seat cannot see and give it the same views all along."""
    rng = random.Random("twins")
    found = 0
    while found < 3:
        start, actions = sniff_position(rng, 4)
        if len(actions) < 2:
            continue
        deal = start.deal_of(start.initial_state)
        seat = deal["opener"]
        hidden = [t for s, hand in enumerate(deal["hands"]) if s != seat for t in hand] + deal["boneyard"]
        rng.shuffle(hidden)
        hands = [list(h) for h in deal["hands"]]
        for s in range(4):
            if s != seat:
                hands[s], hidden = hidden[: len(hands[s])], hidden[len(hands[s]) :]
        twin = sniff_env.Game(num_players=4, deal={"hands": hands, "boneyard": hidden, "opener": seat})
        if hands == deal["hands"]:
            continue
        try:
            ours, theirs = views(start, actions, seat), views(twin, actions, seat)
        except ValueError:  # an action the twin does not allow: not a twin
            continue
        if not all(np.array_equal(a.array, b.array) for a, b in zip(ours, theirs, strict=True)):
            continue
        a, b = (BeliefTracker(seat, "greedy", particles=64, seed=3) for _ in range(2))
        for x, y in zip(ours, theirs, strict=True):
            np.testing.assert_array_equal(a.update(x).marginals, b.update(y).marginals)
        found += 1


def test_the_same_views_give_the_same_beliefs_and_a_new_deal_starts_again():
    game = sniff_env.Game(num_players=4, seed=5)
    first, again, other = (BeliefTracker(1, "greedy", particles=128, seed=s) for s in (2, 2, 3))
    for _ in range(12):
        game.apply(game.legal_actions()[0])
        a, b, c = (t.update(game.seat_view(1)) for t in (first, again, other))
        np.testing.assert_array_equal(a.marginals, b.marginals)
    assert not np.array_equal(a.marginals, c.marginals)
    new = sniff_env.Game(num_players=4, seed=6)
    new.apply(new.legal_actions()[0])
    fresh = BeliefTracker(1, "greedy", particles=128, seed=2).update(new.seat_view(1))
    np.testing.assert_array_equal(first.update(new.seat_view(1)).marginals, fresh.marginals)


def test_twelve_tracker_keeps_every_card_and_the_stock():
    game = twelve_env.Game(num_players=3, seed=4)
    tracker = BeliefTracker(0, "greedy", particles=64, seed=0)
    for _ in range(10):
        game.apply(game.legal_actions()[0])
        beliefs = tracker.update(game.seat_view(0))
    hidden = beliefs.marginals.sum(axis=1)
    assert np.allclose(hidden, np.round(hidden)) and np.round(hidden).min() >= 1
    assert np.allclose(beliefs.marginals.sum(axis=0)[:-1], [len(game.hand(s)) for s in (1, 2)])
    for sample in beliefs.sample(4, seed=1):
        np.testing.assert_array_equal(sample.seat_view(0).array, game.seat_view(0).array)


def test_bad_input_is_one_clear_error():
    with pytest.raises(ValueError, match="particles"):
        BeliefTracker(0, particles=0)
    with pytest.raises(ValueError, match="epsilon"):
        BeliefTracker(0, epsilon=2)
    tracker = BeliefTracker(0, particles=8)
    with pytest.raises(ValueError, match="seat 0, not seat 1"):
        tracker.update(sniff_env.Game(num_players=2, seed=0).seat_view(1))


def test_a_long_deal_read_by_the_rules_alone_agrees_with_infer():
    """Twenty actions of 3-player Sniff: every placement rules out the particles that put the tile
    elsewhere, so without moves that bring it into the hand the particles collapse; with them the
    tracker stays within sampling error of the importance sampler (max gap ~0.03 at these sizes;
    0.16 before the targeted moves)."""
    game = sniff_env.Game(num_players=3, seed=100)
    greedy = sniff_agent("greedy")
    tracker = BeliefTracker(0, None, particles=2000, seed=1)
    worst = 0.0
    for _ in range(20):
        view = game.seat_view(0)
        ours, theirs = tracker.update(view), infer(view, None, worlds=4000, seed=1)
        assert ours.items == theirs.items and ours.places == theirs.places
        worst = max(worst, float(np.abs(ours.marginals - theirs.marginals).max()))
        game.apply(greedy.act(game))
    assert worst < 0.07, worst


@pytest.mark.parametrize(
    ("make_agent", "package", "spec", "players"),
    [(sniff_agent, sniff_env, "belief:8", 4), (twelve_agent, twelve_env, "pimc:2", 2)],
)
def test_agents_keep_a_tracker_between_decisions_and_stay_deterministic(make_agent, package, spec, players):
    """With ``particles`` the agent's beliefs come from one tracker fed every decision; the same
    seed plays the same moves, and a reset forgets the tracker."""

    def play(agent, seed):
        game, moves = package.Game(num_players=players, seed=seed), []
        while not game.is_terminal() and len(moves) < 12:
            move = agent.act(game) if game.current_player == 0 else game.legal_actions()[0]
            moves.append(move)
            game.apply(move)
        return moves

    cls = type(make_agent(spec))
    a, b = (cls(iterations=int(spec.split(":")[1]), model="greedy", seed=3, particles=32) for _ in range(2))
    first = play(a, 11)
    assert a._tracker is not None and a._tracker.seat == 0 and a._tracker._steps > 0
    assert play(b, 11) == first
    a.reset(3)
    assert a._tracker is None
    assert play(a, 11) == first


def errors_in_self_play(model, positions: int, seed: int) -> np.ndarray:
    """``greedy`` self-play, 4-player Sniff: at decisions after 8 actions, the tracker's bits of
    log-loss of the true deal minus the rules alone's (``infer`` without a model, 2,048 worlds)."""
    from sniff_twelve.tools.reveal import log_loss, truth_of

    out: list[float] = []
    deal = seed
    while len(out) < positions:
        game = sniff_env.Game(num_players=4, seed=deal)
        greedy = sniff_agent("greedy")
        trackers = [BeliefTracker(s, model, seed=deal) for s in range(4)]
        while not game.is_terminal() and len(out) < positions:
            me = game.current_player
            if len(game.legal_actions()) > 1:
                view = game.seat_view(me)
                ours = trackers[me].update(view)
                if len(view.past) >= 8:
                    rules = infer(view, None, worlds=2048, seed=deal)
                    truth = truth_of(game, me, ours.items)
                    out.append(log_loss(ours.marginals, truth) - log_loss(rules.marginals, truth))
            game.apply(greedy.act(game))
        deal += 1
    return np.array(out)


def better_than_the_rules(differences: np.ndarray) -> bool:
    """The mean difference's 95% interval lies below 0 (closer to the deal than the rules)."""
    return differences.mean() + 1.96 * differences.std(ddof=1) / np.sqrt(len(differences)) < 0


def test_with_the_players_own_model_the_defaults_beat_the_rules_alone():
    """4-player Sniff, ``greedy`` players and model, default particles: closer to the true deal than
    the rules alone. A tracker that ignores the model (the rules' particles) fails the same test."""
    assert better_than_the_rules(errors_in_self_play("greedy", 30, 81_000))
    assert not better_than_the_rules(errors_in_self_play(None, 30, 81_000))
