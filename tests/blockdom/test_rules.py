"""The tiny game's own rules, on deals worked out by hand (the package docstring states them)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.blockdom import Game, raw_env
from tests.blockdom import kernels as K

# tiles: 0 [0|0]  1 [0|1]  2 [0|2]  3 [1|1]  4 [1|2]  5 [2|2]; action 2 * tile + end (0 left, 1 right)
DRAW, PASS = 12, 13


def play(game: Game, *steps: tuple[int, list[int]]) -> None:
    """Check the legal actions before each action, then apply it."""
    for action, legal in steps:
        assert game.legal_actions() == legal, (game.history, game.legal_actions())
        game.apply(action)


def test_tiles_go_on_the_end_they_match_and_going_out_wins():
    game = Game(deal={"hands": [[0, 4], [1, 5]], "pool": [2, 3], "first_player": 0})
    assert game.current_player == 0 and game.pool_size == 2
    play(game, (8, [0, 8]))  # the first tile goes anywhere: [1|2]
    assert game.line == [(1, 2)] and game.current_player == 1
    play(game, (2, [2, 11]))  # [0|1] on the 1 (left), or [2|2] on the 2 (right)
    assert game.line == [(0, 1), (1, 2)]
    play(game, (0, [0]))  # [0|0] on the 0: seat 0 goes out
    assert game.line == [(0, 0), (0, 1), (1, 2)]
    assert game.is_terminal() and game.legal_actions() == [] and game.scores == [1, -4]


def test_who_cannot_place_draws_and_the_turn_passes_then_passes_once_the_boneyard_is_empty():
    game = Game(deal={"hands": [[5, 3], [0, 1]], "pool": [2, 4], "first_player": 0})
    play(game, (10, [6, 10]), (DRAW, [DRAW]))  # [2|2]; seat 1 holds only 0s and 1s
    assert game.hand(1) == [0, 1, 2] and game.current_player == 0 and game.pool_size == 1
    play(game, (DRAW, [DRAW]))  # seat 0's [1|1] does not fit either
    assert game.hand(0) == [3, 4] and game.pool_size == 0
    play(game, (5, [4, 5]), (8, [8]))  # [0|2] on the right: 2-2-0; [1|2] on the left: 1-2-2-2-0
    assert game.line == [(1, 2), (2, 2), (2, 0)]
    play(game, (2, [1, 2, 3]))  # [0|1] turned to put its 1 against the 1
    assert game.line == [(0, 1), (1, 2), (2, 2), (2, 0)]
    play(game, (PASS, [PASS]), (1, [0, 1]))  # [1|1] fits nowhere, nothing to draw; [0|0] goes out
    assert game.is_terminal() and game.scores == [-2, 1]


def test_three_players_pass_and_the_reward_ranks_the_results():
    deal = {"hands": [[5, 0], [3, 1], [2, 4]], "pool": [], "first_player": 0}
    env = raw_env(num_players=3)
    env.reset(seed=0, options={"deal": deal})
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for action, legal in [(10, [0, 10]), (PASS, [PASS]), (8, [4, 5, 8, 9]), (PASS, [PASS]), (6, [2, 6]), (5, [5])]:
        assert env.game.legal_actions() == legal
        env.step(action)
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    assert env.game.scores == [0, -1, 1]  # [0|0] holds no pips, [0|1] one; seat 2 went out
    assert all(env.terminations.values()) and totals == {"player_0": 0.0, "player_1": -1.0, "player_2": 1.0}


def test_a_block_is_won_by_the_fewest_pips():
    """No block can arise from a deal of this set (below), so the position is written as a row:
    the line 0-1, 1-2, 2-0, seat 0 holding [0|0] [1|1], seat 1 [2|2], the boneyard drawn."""
    row = np.zeros(K.STATE_SIZE, dtype=np.int32)
    row[K.HAND + 0], row[K.HAND + 3], row[K.HAND + K.TILES + 5] = 1, 1, 1
    row[K.LINE : K.LINE + 6] = [0, 1, 1, 2, 2, 0]
    row[K.LINE_LEN], row[K.BONE_HEAD], row[K.BONE_LEN] = 3, 2, 2
    game = Game.from_state(row, np.array([2], dtype=np.int32))
    before = np.zeros(Game.spec.SNAPSHOT_SIZE, dtype=np.int32)
    Game.spec.snapshot(game.state_array, before)
    play(game, (0, [0, 1]))  # 0-0 on the left: both ends 0, [1|1] and [2|2] fit nowhere
    assert game.is_terminal() and game.scores == [-2, -4]
    rewards = np.zeros(2)
    Game.spec.write_rewards(game.state_array, game._params, before, 0, rewards)
    assert rewards.tolist() == [1.0, -1.0]


@pytest.mark.parametrize("players", [2, 3])
def test_no_deal_of_this_set_blocks(players):
    """With two tiles each, four tiles on the line would be needed to block both ends, leaving
    one tile per hand for two players or an empty hand for three (who went out first)."""
    for tiles in itertools.permutations(range(6)):
        hands = [list(tiles[2 * s : 2 * s + 2]) for s in range(players)]
        stack = [Game(players, deal={"hands": hands, "pool": list(tiles[2 * players :])})]
        while stack:
            game = stack.pop()
            if game.is_terminal():
                assert 1 in game.scores, game.history
            for action in game.legal_actions():
                stack.append(game.clone())
                stack[-1].apply(action)


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"hands": [[0, 1], [2, 3]], "pool": [4, 4]}, "items of a deal"),
        ({"hands": [[0, 1], [2, 3, 5]], "pool": [4]}, "must have 2 entries"),
        ({"hands": [[0, 1], [2, 3]], "pool": [4, 5], "first": 1}, "unknown keys"),
        ({"hands": [[0, 1], [2, 3]], "pool": [4, 5], "first_player": 2}, "first_player must be between 0 and 1"),
    ],
)
def test_a_bad_deal_is_refused(deal, message):
    with pytest.raises(ValueError, match=message):
        Game(deal=deal)


def test_moves_are_named_and_options_checked():
    game = Game(deal={"hands": [[0, 4], [1, 5]], "pool": [2, 3]})
    assert [game.action_name(a) for a in (0, 9, DRAW, PASS)] == ["[0|0] left", "[1|2] right", "draw", "pass"]
    assert str(game) == "line - | hand sizes [2, 2] | boneyard 2 | seat 0 to act"
    with pytest.raises(ValueError, match="num_players must be between 2 and 3"):
        Game(num_players=4)
