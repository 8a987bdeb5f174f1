"""Block dominoes' rules one by one (docs/dominoes_rules.md, D1–D12), on deals worked out by hand
and on random games."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from dominoes_env import NUM_ACTIONS, TILES, Game, decode_action, encode_action

ROOT = Path(__file__).resolve().parents[2]
# seat 0 holds no 3 or 6 but its lead [3|3]; seat 1 holds every 6 and nothing else
BLOCK = {
    "hands": [
        [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2), (3, 3)],
        [(0, 6), (1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (6, 6)],
    ]
}


def pips(hand: list[tuple[int, int]]) -> int:
    return sum(a + b for a, b in hand)


def random_game(players: int, seed: int) -> Game:
    rng, game = random.Random(seed), Game(num_players=players, seed=seed)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_every_cited_rule_number_is_defined_in_the_rule_book():
    defined = set(re.findall(r"\*\*(D\d{1,2})\*\*", (ROOT / "docs" / "dominoes_rules.md").read_text("utf-8")))
    assert defined == {f"D{i}" for i in range(1, 13)}
    sources = [*(ROOT / "dominoes_env").rglob("*.py"), *(ROOT / "tests" / "dominoes").rglob("*.py")]
    cited = {m for p in sources for m in re.findall(r"(?<![\w.])(D\d{1,2})(?!\w)", p.read_text("utf-8"))}
    assert cited and cited <= defined, cited - defined


def test_d1_two_players_alone_four_in_partnerships():
    assert [Game(num_players=2).side_of(s) for s in range(2)] == [0, 1]
    assert [Game(num_players=4).side_of(s) for s in range(4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="num_players"):
        Game(num_players=3)


def test_d2_the_double_six_set_in_openspiels_order():
    block_dominoes = pytest.importorskip("open_spiel.python.games.block_dominoes")
    assert [tuple(map(int, t)) for t in block_dominoes._DECK] == list(TILES) and len(TILES) == 28


def test_d3_seven_tiles_each_and_two_players_leave_fourteen_undealt():
    for seed in range(20):
        two, four = Game(num_players=2, seed=seed), Game(num_players=4, seed=seed)
        assert two.hand_sizes == [7, 7] and two.pool_size == 14
        assert sorted(two.pool + [TILES.index(t) for s in range(2) for t in two.hand(s)]) == list(range(28))
        assert four.hand_sizes == [7] * 4 and four.pool_size == 0
    with pytest.raises(ValueError, match="twice"):
        Game(num_players=2, deal={"hands": [BLOCK["hands"][0], BLOCK["hands"][0]]})
    with pytest.raises(ValueError, match="7 entries"):
        Game(num_players=2, deal={"hands": [BLOCK["hands"][0][:6], BLOCK["hands"][1]]})


def test_d4_d5_seat_0_leads_any_tile_of_its_hand():
    for seed in range(10):
        game = Game(num_players=4, seed=seed)
        assert game.current_player == 0 and game.open_ends() == []
        assert game.legal_actions() == sorted(encode_action(t) for t in game.hand(0))


def test_d6_openspiels_action_ids_one_placement_per_pip():
    assert NUM_ACTIONS == 77
    assert [decode_action(a) for a in range(3)] == [
        ("lead", (0, 0), None),
        ("place", (0, 0), 0),
        ("lead", (0, 1), None),
    ]
    assert all(encode_action(*decode_action(a)[1:]) == a for a in range(NUM_ACTIONS))
    game = Game(num_players=2, deal=BLOCK)
    game.apply(encode_action((3, 3)))  # both ends show 3: [3|6] has one placement there
    assert game.legal_actions() == [encode_action((3, 6), 3)]
    with pytest.raises(ValueError, match="no 4"):
        encode_action((3, 6), 4)


def test_d7_d8_d10_d11_d12_a_hand_worked_out():
    game = Game(num_players=2, deal=BLOCK)
    game.apply(encode_action((3, 3)))
    assert game.open_ends() == [3, 3] and game.current_player == 1
    game.apply(encode_action((3, 6), 3))  # D7: the end now shows the 6
    assert game.open_ends() == [3, 6]
    assert game.current_player == 1 and game.known_voids(0) == [3, 6]  # D8: seat 0 is skipped
    game.apply(encode_action((6, 6), 6))  # a double leaves the same pip
    assert game.open_ends() == [3, 6] and game.current_player == 1
    game.apply(encode_action((4, 6), 6))
    assert game.open_ends() == [3, 4]
    assert game.is_terminal() and game.hand_sizes == [6, 4]  # D10: nobody holds a 3 or a 4
    assert game.line == [(4, 6), (6, 6), (6, 3), (3, 3)]
    assert pips(game.hand(0)) == 12 and pips(game.hand(1)) == 32
    assert game.returns() == [32.0, -32.0]  # D12: the loser's pips, not the difference


def test_d9_a_game_ends_when_a_hand_is_empty_and_d10_when_nobody_can_place():
    for seed in range(200):
        game = random_game(4, seed)
        if min(game.hand_sizes) == 0:
            assert game.hand_sizes.count(0) == 1
        else:
            ends = game.open_ends()
            assert not any(ends[0] in t or ends[1] in t for s in range(4) for t in game.hand(s))


@pytest.mark.parametrize("players", [2, 4])
def test_d11_d12_returns_from_each_sides_pips(players):
    ties = lost_going_out = 0
    for seed in range(400):
        game = random_game(players, seed)
        sides = [sum(pips(game.hand(s)) for s in range(side, players, 2)) for side in (0, 1)]
        loser = max(sides)
        expected = (
            [0.0] * players
            if sides[0] == sides[1]
            else [float(loser if sides[s % 2] < loser else -loser) for s in range(players)]
        )
        assert game.returns() == expected
        ties += sides[0] == sides[1]
        out = game.hand_sizes.index(0) if 0 in game.hand_sizes else None
        lost_going_out += out is not None and game.returns()[out] < 0
    assert ties > 0
    assert (lost_going_out > 0) == (players == 4)  # D12: a partner's pips can lose the hand


def test_the_environments_pay_the_returns_at_the_end():
    from dominoes_env import raw_env

    for reward, scale in (("points", 32.0), ("win", 1.0)):
        env = raw_env(num_players=2, reward=reward)
        env.reset(seed=0, options={"deal": BLOCK})
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for action in (encode_action((3, 3)), encode_action((3, 6), 3), encode_action((6, 6), 6)):
            env.step(action)
            for agent, r in env.rewards.items():
                totals[agent] += r
        env.step(encode_action((4, 6), 6))
        for agent, r in env.rewards.items():
            totals[agent] += r
        assert totals == {"player_0": scale, "player_1": -scale}
