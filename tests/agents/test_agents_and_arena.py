"""Agents (both games) and the duplicate-deal arena: legality, reproducibility, mirrored deals,
ratings, and a CI-sized strength ladder with a fixed seed (no peeking: ``test_no_peek.py``)."""

from __future__ import annotations

import importlib
import pickle

import numpy as np
import pytest

import sniff_env.agents as sniff_agents
import twelve_env.agents as twelve_agents
from sniff_env import Game as SniffGame
from sniff_twelve.tools.arena import bradley_terry, run, schedule
from twelve_env import Game as TwelveGame

AGENT_SPECS = ["random", "greedy", "heuristic", "rollout:4"]


def plays_only_legal_moves(make_agent, spec: str, new_game) -> None:
    """``spec``'s agent plays three whole games ``new_game(seed)`` and only ever a legal move."""
    for seed in range(3):
        game = new_game(seed)
        agent = make_agent(spec)
        agent.reset(seed)
        while not game.is_terminal():
            action = agent.act(game)
            assert action in game.legal_actions()
            game.apply(action)


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_sniff_agents_only_choose_legal_actions(num_players, spec):
    plays_only_legal_moves(
        sniff_agents.make_agent, spec, lambda seed: SniffGame(num_players=num_players, seed=seed, max_steps=400)
    )


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
@pytest.mark.parametrize("num_players", [2, 4, 7])
@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_twelve_agents_only_choose_legal_actions(deck, num_players, spec):
    plays_only_legal_moves(
        twelve_agents.make_agent, spec, lambda seed: TwelveGame(num_players=num_players, deck=deck, seed=seed)
    )


def test_unknown_agent_is_a_clear_error():
    with pytest.raises(ValueError, match="built-in agents: random, greedy, heuristic, rollout"):
        sniff_agents.make_agent("alphazero")
    with pytest.raises(ValueError, match="iterations"):
        twelve_agents.make_agent("rollout:many")


@pytest.mark.parametrize("agents, game_cls", [(sniff_agents, SniffGame), (twelve_agents, TwelveGame)])
def test_ismcts_is_the_old_name_of_rollout(agents, game_cls):
    """The spec ``ismcts:N`` (the agent's first name) builds the ``rollout:N`` agent, warning: same
    class, same moves from the same seed; the registry lists only the new name."""
    with pytest.warns(DeprecationWarning, match="write 'rollout:5'"):
        old = agents.make_agent("ismcts:5", seed=3)
    new = agents.make_agent("rollout:5", seed=3)
    assert type(old) is type(new) and old.iterations == new.iterations == 5 and old.name == "rollout"
    assert "rollout" in agents.AGENTS and "ismcts" not in agents.AGENTS
    game_a, game_b = game_cls(seed=11), game_cls(seed=11)
    for _ in range(8):
        if game_a.is_terminal():
            break
        action = old.act(game_a)
        assert action == new.act(game_b)
        game_a.apply(action)
        game_b.apply(action)


def test_duplicate_deals_are_mirrored():
    """Two-sided: every deal of a match-up is played twice with the sides swapped, same seed."""
    table = sniff_agents.arena_table(4)
    tasks = schedule(table, ["greedy", "random+heuristic"], deals=3, seed=5)
    assert len(tasks) == 6
    for (slot_a, a), (slot_b, b) in zip(tasks[::2], tasks[1::2], strict=True):
        assert a.seed == b.seed and slot_a.matchup == slot_b.matchup
        assert a.seating == ("greedy", "random", "greedy", "heuristic")
        assert b.seating == ("random", "greedy", "heuristic", "greedy")
        assert slot_a.entry_of_seat == (0, 1, 0, 1) and slot_b.entry_of_seat == (1, 0, 1, 0)
    # the same seed is the same deal: hand 1 is identical in both games
    g1, g2 = SniffGame(num_players=4, seed=tasks[0][1].seed), SniffGame(num_players=4, seed=tasks[1][1].seed)
    assert [g1.hand(s) for s in range(4)] == [g2.hand(s) for s in range(4)]


def test_a_game_s_arena_table_defaults_to_its_table_size_and_sides():
    """``arena_table()`` without a size: Sniff's four seats in two partnerships (S1), "12"'s two."""
    sniff, twelve = sniff_agents.arena_table(), twelve_agents.arena_table(deck="numbers")
    assert (sniff.num_players, sniff.sides) == (4, ((0, 2), (1, 3)))
    assert (twelve.num_players, twelve.sides, twelve.options) == (2, ((0,), (1,)), {"deck": "numbers"})
    assert sniff_agents.arena_table(3).sides is None


def test_free_for_all_rotates_every_lineup_through_every_seat():
    tasks = schedule(twelve_agents.arena_table(3), ["random", "greedy", "heuristic"], deals=2, seed=0)
    seatings = {t.seating for _, t in tasks}
    assert len(tasks) == 6 and len(seatings) == 3
    for name in ("random", "greedy", "heuristic"):
        assert {s.index(name) for s in seatings} == {0, 1, 2}


def test_arena_is_reproducible_and_worker_count_does_not_matter():
    table = twelve_agents.arena_table(2)
    one = run(table, ["random", "greedy"], deals=6, seed=3, workers=1, progress=False)
    again = run(table, ["random", "greedy"], deals=6, seed=3, workers=1, progress=False)
    two = run(table, ["random", "greedy"], deals=6, seed=3, workers=2, progress=False)
    assert one["games"] == again["games"] == two["games"]
    other_seed = run(table, ["random", "greedy"], deals=6, seed=4, workers=1, progress=False)
    assert other_seed["games"] != one["games"]


def test_bradley_terry_orders_by_strength():
    wins = np.array([[0, 9, 9], [1, 0, 6], [1, 4, 0]], dtype=float)
    elo = bradley_terry(wins)
    assert elo[0] > elo[1] > elo[2]
    assert abs(elo.mean() - 1500) < 1e-6
    even = bradley_terry(np.array([[0, 5], [5, 0]], dtype=float))
    assert abs(even[0] - even[1]) < 1e-6


def _beats(result, entry, other):
    row = next(r for r in result["matchups"] if r["entry"] == entry and r["against"] == [other])
    return row["score"] - row["ci95"] > 0.5, row


@pytest.mark.slow
@pytest.mark.parametrize(("players", "deals"), [(2, 12), (4, 24)])
def test_ladder_sniff(players, deals):
    """Fixed seed, CI-sized: greedy beats random and rollout beats greedy, CIs excluding a draw (4
    players: twice the deals, a partnership's match swinging more: 12 left rollout at 0.625 ± 0.176)."""
    result = run(
        sniff_agents.arena_table(players),
        ["random", "greedy", "rollout"],
        deals=deals,
        seed=2024,
        workers=2,
        progress=False,
    )
    for strong, weak in (("greedy", "random"), ("rollout", "greedy")):
        ok, row = _beats(result, strong, weak)
        assert ok, row


@pytest.mark.slow
def test_ladder_twelve_greedy_beats_random():
    result = run(twelve_agents.arena_table(2), ["random", "greedy"], deals=40, seed=2024, workers=2, progress=False)
    ok, row = _beats(result, "greedy", "random")
    assert ok, row


@pytest.mark.parametrize("agents", [sniff_agents, twelve_agents], ids=["sniff", "twelve"])
def test_each_agent_class_and_make_agent_are_found_where_pickle_looks(agents):
    """``builtin_agents`` makes the game's own classes and ``agent_maker`` its ``make_agent``: each is
    bound in the game's ``agents`` module under its own name, so worker processes can unpickle it."""
    for cls in agents.AGENTS.values():
        assert getattr(importlib.import_module(cls.__module__), cls.__qualname__) is cls
    assert pickle.loads(pickle.dumps(agents.make_agent)) is agents.make_agent
    agent = pickle.loads(pickle.dumps(agents.make_agent("rollout:3", seed=1)))
    assert type(agent) is agents.AGENTS["rollout"] and agent.iterations == 3
