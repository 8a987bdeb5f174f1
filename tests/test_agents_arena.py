"""Agents (both games) and the duplicate-deal arena: legality, no peeking, reproducibility,
mirrored deals, ratings, and a CI-sized strength ladder with a fixed seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sniff_env.agents as sniff_agents
import twelve_env.agents as twelve_agents
from envkit.arena import bradley_terry, run, schedule
from sniff_env import Game as SniffGame
from twelve_env import Game as TwelveGame

AGENT_SPECS = ["random", "greedy", "heuristic", "ismcts:4"]


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_sniff_agents_only_choose_legal_actions(num_players, spec):
    for seed in range(3):
        game = SniffGame(num_players=num_players, seed=seed, max_steps=400)
        agent = sniff_agents.make_agent(spec)
        agent.reset(seed)
        while not game.is_terminal():
            action = agent.act(game)
            assert action in game.legal_actions()
            game.apply(action)


@pytest.mark.parametrize("deck", ["bridge", "numbers"])
@pytest.mark.parametrize("num_players", [2, 4, 7])
@pytest.mark.parametrize("spec", AGENT_SPECS)
def test_twelve_agents_only_choose_legal_actions(deck, num_players, spec):
    for seed in range(3):
        game = TwelveGame(num_players=num_players, deck=deck, seed=seed)
        agent = twelve_agents.make_agent(spec)
        agent.reset(seed)
        while not game.is_terminal():
            action = agent.act(game)
            assert action in game.legal_actions()
            game.apply(action)


def _swap_hidden_sniff(game: SniffGame) -> SniffGame:
    """The same position for the seat to act, with one tile of another hand swapped for a
    boneyard tile that no known void forbids: everything public and the seat's own hand agree."""
    import sniff_env.kernels as K

    other = game.clone()
    s = other._state
    seat = (game.current_player + 1) % game.num_players
    voids = int(s[K.VOIDS + seat])
    hand = [t for t in range(28) if (int(s[K.HAND + seat]) >> t) & 1]
    for i in range(int(s[K.BONE_HEAD]), int(s[K.BONE_LEN])):
        bone_tile = int(s[K.BONE + i])
        low, high = K.TILE_LOW[bone_tile], K.TILE_HIGH[bone_tile]
        if not voids & ((1 << low) | (1 << high)):
            s[K.HAND + seat] = (int(s[K.HAND + seat]) & ~(1 << hand[0])) | (1 << bone_tile)
            s[K.BONE + i] = hand[0]
            return other
    raise AssertionError("no swappable boneyard tile")


@pytest.mark.parametrize("spec", ["greedy", "heuristic", "ismcts:16", "ppo"])
def test_sniff_agents_do_not_peek_at_hidden_tiles(spec):
    """Changing only what the acting seat cannot see never changes its choice (same agent seed)."""
    checked = 0
    for seed in range(20):
        game = SniffGame(num_players=4, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 6)):
            game.apply(rng.choice(game.legal_actions()))
        if game.boneyard_size == 0:
            continue
        twin = _swap_hidden_sniff(game)
        assert twin.hand(twin.current_player) == game.hand(game.current_player)
        assert twin.boneyard != game.boneyard or twin.hand((game.current_player + 1) % 4) != game.hand(
            (game.current_player + 1) % 4
        )
        np.testing.assert_array_equal(twin.observation(), game.observation())
        np.testing.assert_array_equal(twin.action_features(), game.action_features())
        a, b = sniff_agents.make_agent(spec), sniff_agents.make_agent(spec)
        a.reset(7)
        b.reset(7)
        assert a.act(game) == b.act(twin)
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("spec", ["greedy", "heuristic", "ismcts:16"])
def test_twelve_agents_do_not_peek_at_hidden_cards(spec):
    for seed in range(20):
        game = TwelveGame(num_players=3, seed=seed)
        me, other = game.current_player, (game.current_player + 1) % 3
        hands = [game.hand(s) for s in range(3)]
        stock = game.stock
        # swap the first card of another hand with a stock card of a different rank
        j = next(i for i, r in enumerate(stock) if r != hands[other][0])
        hands[other][0], stock[j] = stock[j], hands[other][0]
        twin = TwelveGame(
            num_players=3, deal={"hands": hands, "stock": stock, "face_up": game.pile[0], "first_player": me}
        )
        original = TwelveGame(
            num_players=3,
            deal={
                "hands": [game.hand(s) for s in range(3)],
                "stock": game.stock,
                "face_up": game.pile[0],
                "first_player": me,
            },
        )
        np.testing.assert_array_equal(twin.observation(), original.observation())
        a, b = twelve_agents.make_agent(spec), twelve_agents.make_agent(spec)
        a.reset(3)
        b.reset(3)
        assert a.act(original) == b.act(twin)


def test_unknown_agent_is_a_clear_error():
    with pytest.raises(ValueError, match="built-in agents: random, greedy, heuristic, ismcts"):
        sniff_agents.make_agent("alphazero")
    with pytest.raises(ValueError, match="iterations"):
        twelve_agents.make_agent("ismcts:many")


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
@pytest.mark.parametrize("players", [2, 4])
def test_ladder_sniff(players):
    """Fixed seed, CI-sized: greedy beats random and ismcts beats greedy, CIs excluding a draw."""
    result = run(
        sniff_agents.arena_table(players),
        ["random", "greedy", "ismcts"],
        deals=12,
        seed=2024,
        workers=2,
        progress=False,
    )
    for strong, weak in (("greedy", "random"), ("ismcts", "greedy")):
        ok, row = _beats(result, strong, weak)
        assert ok, row


@pytest.mark.slow
def test_ladder_twelve_greedy_beats_random():
    result = run(twelve_agents.arena_table(2), ["random", "greedy"], deals=40, seed=2024, workers=2, progress=False)
    ok, row = _beats(result, "greedy", "random")
    assert ok, row
