"""The tiny game's own rules, on deals worked out by hand (the package docstring states them):
a deal's play, its winners' points, and a match of several deals to the ``target``."""

from __future__ import annotations

import inspect
import itertools
import json
import random

import numpy as np
import pytest

from tests.blockdom import Game, VectorGame, raw_env
from tests.blockdom import kernels as K

# tiles: 0 [0|0]  1 [0|1]  2 [0|2]  3 [1|1]  4 [1|2]  5 [2|2]; action 2 * tile + end (0 left, 1 right)
DRAW, PASS = 12, 13
PIPS = [0, 1, 2, 2, 3, 4]  # each tile's pips
DEAL = {"hands": [[0, 4], [1, 5]], "pool": [2, 3], "first_player": 0}  # 8, 2, 0: seat 0 out, seat 1 keeps [2|2]


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
    assert game.is_terminal() and game.legal_actions() == [] and game.scores == [5, 0]  # 1 + [2|2]'s 4 pips


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
    assert game.is_terminal() and game.scores == [0, 3]  # 1 + [1|1]'s 2 pips


def test_three_players_pass_and_the_reward_ranks_the_points_ties_sharing():
    deal = {"hands": [[5, 0], [3, 1], [2, 4]], "pool": [], "first_player": 0}
    env = raw_env(num_players=3)
    env.reset(seed=0, options={"deal": deal})
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for action, legal in [(10, [0, 10]), (PASS, [PASS]), (8, [4, 5, 8, 9]), (PASS, [PASS]), (6, [2, 6]), (5, [5])]:
        assert env.game.legal_actions() == legal
        env.step(action)
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    assert env.game.scores == [0, 0, 2]  # seat 2 went out: 1 + [0|0]'s 0 pips + [0|1]'s 1
    assert all(env.terminations.values()) and totals == {"player_0": -0.5, "player_1": -0.5, "player_2": 1.0}


def blocked(other: int, target: int = 1) -> Game:
    """No block can arise from a deal of this set (below), so the position is written as a row:
    the line 0-1, 1-2, 2-0, seat 0 holding [0|0] [1|1], seat 1 tile ``other``, the boneyard
    drawn; seat 0 to place [0|0], after which both ends are 0."""
    row = np.zeros(K.STATE_SIZE, dtype=np.int32)
    row[K.HAND + 0], row[K.HAND + 3], row[K.HAND + K.TILES + other] = 1, 1, 1
    row[K.LINE : K.LINE + 6] = [0, 1, 1, 2, 2, 0]
    row[K.LINE_LEN], row[K.BONE_HEAD], row[K.BONE_LEN] = 3, 2, 2
    return Game.from_state(row, Game.make_params(2, target=target))


def test_a_block_is_won_by_the_fewest_pips():
    game = blocked(other=5)
    before = np.zeros(Game.spec.SNAPSHOT_SIZE, dtype=np.int32)
    Game.spec.snapshot(game.state_array, before)
    play(game, (0, [0, 1]))  # 0-0 on the left: [1|1] and [2|2] fit nowhere
    assert game.is_terminal() and game.scores == [5, 0]  # [1|1]'s 2 pips win: 1 + [2|2]'s 4
    rewards = np.zeros(2)
    Game.spec.write_rewards(game.state_array, game._params, before, 0, rewards)
    assert rewards.tolist() == [1.0, -1.0]


def test_a_block_with_equal_pips_is_won_by_both():
    """Both seats hold a [1|1] (a row no deal makes): each wins the deal and scores 1; with a
    target of 3 the match goes on with a new deal."""
    game = blocked(other=3, target=3)
    play(game, (0, [0, 1]))
    assert game.scores == [1, 1] and game.deals_played == 1 and not game.is_terminal()
    assert game.line == [] and game.hand_sizes == [2, 2] and game.pool_size == 2


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
                assert game.hand_sizes.count(0) == 1, game.history  # one seat went out
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
    game = Game(deal=DEAL)
    assert [game.action_name(a) for a in (0, 9, DRAW, PASS)] == ["[0|0] left", "[1|2] right", "draw", "pass"]
    assert str(game) == "line - | hand sizes [2, 2] | boneyard 2 | seat 0 to act"
    with pytest.raises(ValueError, match="num_players must be between 2 and 3"):
        Game(num_players=4)


# --- the target and the match ------------------------------------------------------------------------
def test_the_target_is_an_option_of_every_constructor_and_of_the_options_row():
    assert inspect.signature(Game).parameters["target"].default == 1
    assert Game.make_params(3, target=7).tolist() == [3, 7]
    assert Game(target=4).record_options() == {"num_players": 2, "target": 4}
    env = raw_env(target=4)
    env.reset(seed=0)
    assert env.game.record_options()["target"] == 4 and VectorGame(2, target=4).params.tolist() == [2, 4]


@pytest.mark.parametrize(("target", "message"), [(0, "got 0"), (100, "got 100"), (-3, "got -3")])
def test_a_target_out_of_range_is_refused_naming_it(target, message):
    for make in (lambda: Game(target=target), lambda: raw_env(target=target), lambda: VectorGame(2, target=target)):
        with pytest.raises(ValueError, match=f"target must be between 1 and 99; {message}"):
            make()


def test_a_target_that_is_no_integer_is_refused_naming_it():
    for bad in ("3", 2.5, None):
        with pytest.raises(ValueError, match="target"):
            Game(target=bad)


def test_a_deal_that_reaches_the_target_ends_the_match_and_one_short_deals_again():
    ended = Game(target=5, deal=DEAL)
    play(ended, (8, [0, 8]), (2, [2, 11]), (0, [0]))
    assert ended.is_terminal() and ended.scores == [5, 0] and ended.deals_played == 1
    going_on = Game(target=6, deal=DEAL)
    play(going_on, (8, [0, 8]), (2, [2, 11]), (0, [0]))
    assert not going_on.is_terminal() and going_on.scores == [5, 0] and going_on.deals_played == 1
    assert going_on.line == [] and going_on.hand_sizes == [2, 2] and going_on.pool_size == 2
    assert sorted(going_on.hand(0) + going_on.hand(1) + going_on.pool) == list(range(6))  # every tile again
    assert going_on.history == [8, 2, 0] and len(going_on.seat_view().past) == 0  # the new deal's memory is empty
    points = slice(K.O_POINTS, K.O_POINTS + 3)  # each seat sees the points, its own first
    assert going_on.observation(0)[points].tolist() == [5, 0, 0] and going_on.observation(1)[points].tolist() == [
        0,
        5,
        0,
    ]


def deal_points(game: Game, action: int) -> list[int]:
    """What the deal ``action`` ends gives each seat, worked out from the hands before it: the
    seat that places its last tile, else every seat with the fewest pips, scores 1 plus the others'
    pips."""
    n, actor = game.num_players, game.current_player
    hands = [game.hand(seat) for seat in range(n)]
    if action < DRAW:
        hands[actor].remove(action // 2)
    left = [sum(PIPS[t] for t in hand) for hand in hands]
    winners = [actor] if not hands[actor] else [s for s in range(n) if left[s] == min(left)]
    lost = sum(left[s] for s in range(n) if s not in winners)
    return [1 + lost if s in winners else 0 for s in range(n)]


@pytest.mark.parametrize(("players", "target"), [(2, 9), (3, 8), (2, 1)])
def test_a_match_plays_deals_until_a_seat_has_the_target_and_scores_add_up(players, target):
    for seed in range(6):
        game, rnd, totals, deals = Game(players, seed=seed, target=target), random.Random(seed), [0] * players, 0
        while not game.is_terminal():
            assert max(game.scores) < target and game.scores == totals
            action = rnd.choice(game.legal_actions())
            before = game.clone()
            game.apply(action)
            if game.deals_played == deals:
                assert game.scores == totals
                continue
            deals += 1
            assert game.deals_played == deals
            totals = [a + b for a, b in zip(totals, deal_points(before, action), strict=True)]
            assert game.scores == totals
            if not game.is_terminal():  # a new deal, dealt at once
                assert game.line == [] and game.hand_sizes == [2] * players and game.pool_size == 6 - 2 * players
                assert len(game.seat_view().past) == 0
        assert max(game.scores) >= target and game.scores == totals
        assert deals == game.deals_played and (target > 1 or deals == 1)
        replay = Game.from_record(json.loads(json.dumps(game.to_record())))
        assert np.array_equal(replay.state_array, game.state_array) and replay.scores == game.scores


def test_a_match_lasts_several_deals_and_replays_from_its_record():
    lengths = []
    for seed in range(10):
        game, rnd = Game(3, seed=seed, target=13), random.Random(seed)
        while not game.is_terminal():
            game.apply(rnd.choice(game.legal_actions()))
        lengths.append(game.deals_played)
        record = game.to_record()
        assert record["options"] == {"num_players": 3, "target": 13}
        replay = Game.from_record(json.dumps(record))
        assert replay.history == game.history and replay.scores == game.scores
        assert replay.deals_played == game.deals_played
    # a deal gives at most 1 + the pips off the line, which holds the winner's two tiles at least: 12 < 13
    assert min(lengths) >= 2


def test_the_reward_is_paid_once_at_the_end_of_the_match_by_the_points():
    env = raw_env(num_players=2, target=9)
    env.reset(seed=3)
    rnd, deals, paid = random.Random(3), 0, []
    while not all(env.terminations.values()):
        env.step(rnd.choice(env.game.legal_actions()))
        deals = env.game.deals_played
        paid.append([env.rewards[a] for a in env.possible_agents])
    assert deals >= 2 and all(rewards == [0.0, 0.0] for rewards in paid[:-1])
    a, b = env.game.scores
    assert paid[-1] == ([1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0])
