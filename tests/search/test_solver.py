"""The perfect-information solvers beyond the brute-force comparison (``tests/search/test_solver_reference.py``):
principal variations replay through ``Game`` to exactly the value, settlements decide moves (S23–S24,
S4a), the node budget gives true bounds, and bad input is refused without touching the game."""

from __future__ import annotations

import random

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env import kernels as K
from sniff_env.agents import make_agent
from sniff_env.solver import solve as solve_sniff
from sniff_env.tiles import tile_index
from sniff_twelve.search.solver import Workspace, _order
from twelve_env.solver import solve as solve_twelve


def sniff_difference(game: sniff_env.Game, root: int) -> int:
    """The root's side's score minus the others' (one other side, or both others with 3 players)."""
    mine = game.side_of(root)
    return sum(score if side == mine else -score for side, score in enumerate(game.scores))


def twelve_difference(game: twelve_env.Game, root: int) -> int:
    return sum(score if seat == root else -score for seat, score in enumerate(game.scores))


def random_position(make, stop, seed):
    """A live game played at random from the deal until ``stop(game)`` (or until the next move
    would end it)."""
    rng = random.Random(seed)
    game = make(seed)
    while not stop(game):
        after = game.clone()
        after.apply(rng.choice(game.legal_actions()))
        if after.is_terminal():
            break
        game = after
    return game


def sniff_endgame(seed: int) -> sniff_env.Game:
    n = (2, 3, 4)[seed % 3]
    settlement = ("deduct", "allfives")[seed % 2]
    return random_position(
        lambda s: sniff_env.Game(num_players=n, seed=s, target=60, settlement=settlement, undrawn=seed % 3),
        lambda g: sum(g.hand_sizes) + g.boneyard_size <= 13,
        seed,
    )


@pytest.mark.parametrize("seed", range(60))
def test_sniff_principal_variation_replays_to_the_value(seed):
    """S17–S25: playing the principal variation through ``Game`` earns exactly ``value`` (credits,
    settlement or the match-winning credit), and the hand ends with its last action."""
    game = sniff_endgame(seed)
    solution = solve_sniff(game)
    root, hand, before = game.current_player, game.hands_played, sniff_difference(game, game.current_player)
    replay = game.clone()
    for i, action in enumerate(solution.pv):
        assert replay.hands_played == hand and not replay.is_terminal(), f"the hand ended before action {i}"
        replay.apply(action)
    assert replay.hands_played == hand + 1 or replay.is_terminal()
    assert sniff_difference(replay, root) - before == solution.value
    assert solution.pv[0] in solution.best


@pytest.mark.parametrize("seed", range(40))
def test_twelve_principal_variation_replays_to_the_value(seed):
    """T8–T15: the principal variation earns exactly ``value`` of T15 score difference and ends the game."""
    n = (2, 3, 4, 5)[seed % 4]
    game = random_position(
        lambda s: twelve_env.Game(num_players=n, seed=s, deck=("bridge", "numbers")[s % 2]),
        lambda g: g.stock_size <= 8,
        seed,
    )
    root, before = game.current_player, twelve_difference(game, game.current_player)
    solution = solve_twelve(game)
    replay = game.clone()
    for action in solution.pv:
        replay.apply(action)
    assert replay.is_terminal()
    assert twelve_difference(replay, root) - before == solution.value


def test_the_settlement_decides_the_opening():
    """S21–S24: both openings block the hand at once; the deduction of the tiles kept decides.
    Opening [6|6] keeps [1|2] (3 pips, −5); opening [1|2] keeps [6|6] (12 pips, −10)."""
    deal = {"hands": [[(1, 2), (6, 6)], [(0, 0)]], "boneyard": [], "opener": 0}
    game = sniff_env.Game(num_players=2, seed=0, deal=deal)
    six, one_two = tile_index((6, 6)) * 4, tile_index((1, 2)) * 4
    solution = solve_sniff(game)
    assert solution.action_values == {one_two: -10, six: -5}
    assert solution.best == [six] and solution.value == -5
    # S4a All Fives: the lowest hand (seat 1, no pips) scores the opener's rounded pips instead
    allfives = solve_sniff(sniff_env.Game(num_players=2, seed=0, deal=deal, settlement="allfives"))
    assert allfives.action_values == {one_two: -10, six: -5}


def test_the_other_sides_deduction_and_a_domino_count():
    """S14, S17, S21–S24, worked by hand. Opening [5|5] credits 10 (S14), blocks the hand, and
    seat 1's [0|1] + [1|1] (3 pips) is deducted as 5: +15. Opening [0|0] lets seat 1 play [0|1],
    seat 0 pass and seat 1 go out with [1|1]; seat 0's [5|5] is deducted: −10."""
    deal = {"hands": [[(5, 5), (0, 0)], [(0, 1), (1, 1)]], "boneyard": [], "opener": 0}
    solution = solve_sniff(sniff_env.Game(num_players=2, seed=0, deal=deal))
    five, blank = tile_index((5, 5)) * 4, tile_index((0, 0)) * 4
    assert solution.action_values == {five: 15, blank: -10}
    assert solution.best == [five] and solution.pv == [five]


def test_a_match_winning_credit_ends_the_value():
    """S25: a credit that reaches the target ends the match; nothing after it counts."""
    deal = {"hands": [[(0, 5), (6, 6)], [(1, 1), (2, 2)]], "boneyard": [], "opener": 0}
    game = sniff_env.Game(num_players=2, seed=0, deal=deal, target=5)
    solution = solve_sniff(game)
    five = tile_index((0, 5)) * 4
    assert solution.action_values[five] == 5 and solution.best == [five] and solution.pv == [five]


@pytest.mark.parametrize("graded", [False, True])
def test_budget_gives_bounds_around_the_exact_value(graded):
    """A budget cut leaves bounds around the exact value and only exact action values — with
    ``moves=`` too, where the cut falls in the position's own search, before any action is valued."""
    game = sniff_env.Game(num_players=4, seed=3)
    exact = solve_sniff(game)
    moves = game.legal_actions()[-1:] if graded else None
    cut = solve_sniff(game, moves=moves, max_nodes=max(solve_sniff(game, moves=moves).nodes // 4, 1))
    assert exact.exact and not cut.exact
    assert not graded or cut.action_values == {}  # the case the docstring names, not a later cut
    assert cut.lower <= exact.value <= cut.upper
    assert cut.value == cut.lower and cut.pv == []
    for action, value in cut.action_values.items():
        assert value == exact.action_values[action]
    assert set(cut.best) <= set(cut.action_values)


@pytest.mark.parametrize(("name", "players"), [("sniff", 4), ("sniff", 2), ("twelve", 2)])
def test_listed_moves_get_the_full_solves_values(name, players):
    """``solve(moves=...)`` from the deal and on through each hand: the value, the best actions and
    the listed actions' values are the full solve's; every other action's bound is at least its
    value and below the best — in far fewer nodes where a bad move is costly to value exactly."""
    solve, make = (solve_sniff, sniff_env.Game) if name == "sniff" else (solve_twelve, twelve_env.Game)
    rng = random.Random(players)
    positions = bounded = fewer = 0
    for seed in range(6):
        game = make(num_players=players, seed=seed)
        while not game.is_terminal() and positions < 12 * (seed + 1):
            legal = game.legal_actions()
            if len(legal) > 1 and (name == "sniff" or game.stock_size <= 8):
                full = solve(game, max_nodes=3_000_000)
                listed = rng.sample(legal, 1)
                part = solve(game, moves=listed, max_nodes=3_000_000)
                if full.exact:
                    positions += 1
                    assert part.exact and (part.value, sorted(part.best)) == (full.value, sorted(full.best))
                    assert all(part.action_values[a] == full.action_values[a] for a in [*listed, *full.best])
                    for a, bound in part.action_bounds.items():
                        assert full.action_values[a] <= bound < full.value
                    bounded += len(part.action_bounds)
                    fewer += part.nodes < full.nodes
            game.apply(rng.choice(legal))
    assert positions >= 20 and bounded > 0 and fewer > 0


def test_solving_leaves_the_game_as_it_was():
    game = sniff_env.Game(num_players=4, seed=5)
    game.apply(game.legal_actions()[0])
    state, history = game.state_array.copy(), list(game.history)
    solve_sniff(game)
    assert np.array_equal(game.state_array, state) and game.history == history


@pytest.mark.parametrize(
    ("solve", "make"),
    [(solve_sniff, lambda: sniff_env.Game(num_players=2, seed=1)), (solve_twelve, lambda: twelve_env.Game(seed=1))],
)
def test_bad_input_is_refused(solve, make):
    game = make()
    with pytest.raises(TypeError, match="seat view"):
        solve(game.seat_view())
    with pytest.raises(TypeError, match="Game"):
        solve(game.state_array)
    with pytest.raises(ValueError, match="max_nodes"):
        solve(game, max_nodes=0)
    illegal = next(a for a in range(200) if a not in game.legal_actions())
    with pytest.raises(ValueError, match=rf"\[{illegal}\] are not \(legal: \[{game.legal_actions()[0]}, "):
        solve(game, moves=[illegal])
    other = twelve_env.Game(seed=1) if solve is solve_sniff else sniff_env.Game(seed=1)
    with pytest.raises(TypeError, match="Game"):
        solve(other)
    rng = random.Random(0)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    with pytest.raises(ValueError, match="finished"):
        solve(game)


def test_a_finished_one_hand_episode_is_refused():
    """``episode="hand"``: the hand is over and no next one is dealt, so there is nothing to solve."""
    game = sniff_env.Game(num_players=2, seed=2, episode="hand")
    rng = random.Random(2)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    with pytest.raises(ValueError, match="finished"):
        solve_sniff(game)


def test_a_budget_sizes_the_table_a_search_probes():
    """A search with a budget probes a table cut to a power of two near an eighth of it, from the
    64k entries the cache holds up to the whole 1M; the cut is the whole table's start, in place."""
    ws = Workspace(solve_sniff.hooks)
    rows = {budget: ws.sized(budget)[0].shape[0] for budget in (0, 1, 500_000, 600_000, 2_000_000, 20_000_000)}
    assert rows == {0: 1 << 20, 1: 1 << 16, 500_000: 1 << 16, 600_000: 1 << 17, 2_000_000: 1 << 18, 20_000_000: 1 << 20}
    table = ws.sized(500_000)[0]
    assert np.shares_memory(table, ws.tables[0]) and table.flags.c_contiguous
    assert all(part is whole for part, whole in zip(ws.sized(500_000)[1:], ws.tables[1:], strict=True))


def test_a_budgeted_search_is_exact_in_its_smaller_table():
    """The same values whatever the budget's table, once the search fits it (S17, S23–S24)."""
    game = sniff_env.Game(num_players=4, seed=8)
    whole, cut = solve_sniff(game), solve_sniff(game, max_nodes=400_000)
    assert cut.exact and (cut.value, cut.action_values) == (whole.value, whole.action_values)


@pytest.mark.parametrize(
    ("solve", "maximize", "first", "expected"),
    [
        (solve_sniff, True, -1, [1, 0, 2]),  # gains 0, 4, 0: the 4 first, then the lower action of two
        (solve_twelve, True, -1, [1, 2, 0]),  # "12" sets HIGHER_FIRST: the higher
        (solve_sniff, False, -1, [0, 2, 1]),  # the seat minimises: the gain of 4 last
        (solve_twelve, False, -1, [2, 0, 1]),
        (solve_twelve, True, 2, [0, 1, 2]),  # the table's move before any gain
    ],
)
def test_children_are_searched_by_table_move_then_gain_then_the_games_tie_order(solve, maximize, first, expected):
    moves = np.zeros((1, 3, 3), dtype=np.int32)
    moves[0, :, 0], moves[0, :, 1] = [2, 5, 9], [0, 4, 0]  # actions 2, 5, 9 and their gains
    order = np.full((1, 3), -1, dtype=np.int64)
    _order(solve.hooks, moves, 0, 3, first, maximize, order)
    assert order[0].tolist() == expected


def _recording_search_params(monkeypatch) -> list:
    """The options rows the Sniff searches ask ``search_params`` for, from here on."""
    rows, cls = [], type(solve_sniff.hooks)
    real = cls.search_params

    def recorded(self, params):
        rows.append(real(self, params))
        return rows[-1]

    monkeypatch.setattr(cls, "search_params", recorded)
    return rows


@pytest.mark.parametrize("seed", range(24))
def test_the_search_settles_a_hand_as_a_match_would(seed, monkeypatch):
    """The search stops at the hand's end, so ``solve`` runs with the options of a hand episode,
    which settle the hand (S22–S24, S4a, S25) and deal no next one (S5): every value, the principal
    variation and the nodes are those of the match's own options (2, 3 and 4 players, both
    settlements), and the game's options row is left as it was."""
    game = sniff_endgame(seed)
    before = game._params.copy()
    rows = _recording_search_params(monkeypatch)
    searched = solve_sniff(game)
    (row,) = rows
    assert (
        row[K.P_HAND_EPISODE] == 1 and (np.delete(row, K.P_HAND_EPISODE) == np.delete(before, K.P_HAND_EPISODE)).all()
    )
    assert (game._params == before).all() and before[K.P_HAND_EPISODE] == 0
    monkeypatch.setattr(type(solve_sniff.hooks), "search_params", lambda self, params: params)
    matched = solve_sniff(game)
    assert (searched.action_values, searched.pv, searched.nodes) == (matched.action_values, matched.pv, matched.nodes)


def test_pimc_searches_its_worlds_with_the_search_options(monkeypatch):
    """``pimc`` values its worlds with the options row of the search (``search_params``), as ``solve`` does."""
    rows = _recording_search_params(monkeypatch)
    game = sniff_env.Game(num_players=2, seed=5)
    make_agent("pimc:2").act(game)
    assert rows and all(row[K.P_HAND_EPISODE] == 1 for row in rows)
