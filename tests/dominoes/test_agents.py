"""The template's agents, solver, drawing and command line on block dominoes."""

from __future__ import annotations

import random

import pytest

from dominoes_env import Game
from dominoes_env.agents import AGENTS, arena_table, make_agent
from dominoes_env.solver import solve
from dominoes_env.web import WEB
from sniff_twelve.tools.arena import run


def minimax(game: Game, root: int) -> int:
    """The root's return (D12) under perfect play, every hand seen, by brute force."""
    if game.is_terminal():
        return int(game.returns()[root])
    values = []
    for action in game.legal_actions():
        child = game.clone()
        child.apply(action)
        values.append(minimax(child, root))
    return max(values) if game.current_player % 2 == root % 2 else min(values)


def late_position(players: int, seed: int, left: int) -> Game:
    """A random game played at random until at most ``left`` tiles are left in the hands."""
    rng, game = random.Random(seed), Game(num_players=players, seed=seed)
    while not game.is_terminal() and sum(game.hand_sizes) > left:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("players, left", [(2, 10), (4, 9)])
def test_the_solver_agrees_with_brute_force(players, left):
    checked = 0
    for seed in range(40):
        game = late_position(players, seed, left)
        if game.is_terminal():
            continue
        solution = solve(game)
        root = game.current_player
        assert solution.exact and solution.value == minimax(game, root), seed
        for action, value in solution.action_values.items():
            child = game.clone()
            child.apply(action)
            assert value == minimax(child, root), (seed, action)
        checked += 1
    assert checked > 20


def test_the_solver_is_not_fooled_by_a_wrong_return(monkeypatch):
    """Brute force on a changed return rule disagrees: the comparison can fail."""
    game = next(g for s in range(40) if not (g := late_position(2, s, 10)).is_terminal() and solve(g).value)
    monkeypatch.setattr(Game, "returns", lambda self: [0.0] * self.num_players)
    assert solve(game).value != minimax(game, game.current_player)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(
    "agent", ["random", "greedy", "heuristic", "rollout:4", "pimc:2", "belief:8", "ppo", "guided:8"]
)
def test_every_agent_plays_a_whole_game(agent, players):
    """Each built-in agent, the shipped ``ppo`` of the table and the search it guides included."""
    assert {"random", "greedy", "heuristic", "rollout", "pimc", "belief", "ppo", "guided"} <= set(AGENTS)
    game = Game(num_players=players, seed=3)
    agents = [make_agent(agent) for _ in range(players)]
    while not game.is_terminal():
        action = agents[game.current_player].act(game)
        assert action in game.legal_actions()
        game.apply(action)
    assert sum(game.returns()) == 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_shipped_ppo_beats_greedy(players):
    """``ppo`` (dominoes_env/checkpoints) over ``greedy`` on 400 duplicate deals: the 95% interval
    of its score lies above a half (docs/training.md, "Block dominoes")."""
    result = run(arena_table(players), ["ppo", "greedy"], deals=400, seed=11, progress=False)
    row = next(r for r in result["entries"] if r["entry"] == "ppo")
    assert row["score"] - row["ci95"] > 0.5, row


def test_greedy_sheds_the_heaviest_tile():
    game = Game(num_players=4, seed=0)
    heaviest = max(game.hand(0), key=sum)
    assert game.action_name(make_agent("greedy").act(game)) == f"[{heaviest[0]}|{heaviest[1]}] lead"


def test_the_web_table_shows_the_seat_its_own_tiles_only():
    game = Game(num_players=4, seed=2)
    svg = WEB.draw(game, 1, ["a", "b", "c", "d"], False)
    own = {"{}-{}".format(*t) for t in game.hand(1)}
    assert {s.split('"')[0] for s in svg.split('data-tile="')[1:]} == own
    revealed = WEB.draw(game, 1, ["a", "b", "c", "d"], True)
    assert revealed.count("data-tile=") == 28
