"""The PettingZoo environments ``sniff_env.env`` / ``sniff_env.raw_env`` (docs/api.md "Environments")."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import render_test

import sniff_env
from sniff_env import DRAW, PASS, Game, encode_action
from sniff_env.observation import OBS_SIZE, write_observation

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 4, "forced": "auto"},
    {"num_players": 3, "episode": "hand"},
    {"num_players": 2, "forced": "auto", "episode": "hand"},
]
IDS = ["2p", "3p", "4p", "4p-auto", "3p-hand", "2p-auto-hand"]


def live(e) -> bool:
    return not e.game.is_terminal()


def random_episode(e, rnd: random.Random, seed: int, on_step=None) -> dict[str, float]:
    """Play one episode of a raw env with random legal actions; returns each agent's summed rewards."""
    e.reset(seed=seed)
    totals = {a: e.rewards[a] for a in e.agents}
    while live(e):
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        action = rnd.choice(np.flatnonzero(mask).tolist())
        before = {"scores": list(e.game.scores), "hands": e.game.hands_played, "actor": e.game.current_player}
        e.step(action)
        for a in e.agents:
            totals[a] += e.rewards[a]
        if on_step is not None:
            on_step(e, agent, action, before)
    return totals


# --------------------------------------------------------------------------- rendering (PettingZoo's render_test)
# api_test and seed_test run on every table in tests/conformance (sniff_twelve.tools.conformance)
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_render(config, capsys):
    """S27/render: ansi returns text, human prints it (PettingZoo's render_test)."""
    render_test(lambda render_mode=None: sniff_env.env(render_mode=render_mode, **config))
    assert "free spots" in capsys.readouterr().out


# --------------------------------------------------------------------------- rewards
@pytest.mark.parametrize("n", [2, 3, 4])
def test_win_reward_zero_sum_at_match_end(n):
    """S25 + reward="win": the winning side gets +1 per seat, the others share −1; the episode sums to 0."""
    rnd = random.Random(n)
    for seed in range(6):
        e = sniff_env.raw_env(num_players=n, target=60)
        totals = random_episode(e, rnd, seed)
        assert e.game.winner is not None
        assert sum(totals.values()) == pytest.approx(0.0)
        for agent, total in totals.items():
            seat = e.agent_name_mapping[agent]
            if e.game.side_of(seat) == e.game.winner:
                assert total == 1.0
            else:
                assert total == pytest.approx(-1.0 / (n - 1) if n == 3 else -1.0)
        assert all(e.terminations.values()) and not any(e.truncations.values())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_win_reward_zero_on_truncation(n):
    """S26 + reward="win": a truncated match gives every agent 0 and sets the truncation flags."""
    rnd = random.Random(n)
    for seed in range(4):
        e = sniff_env.raw_env(num_players=n, target=10_000, max_hands=1)
        totals = random_episode(e, rnd, seed)
        assert e.game.is_truncated()
        assert all(t == 0.0 for t in totals.values())
        assert all(e.truncations.values()) and not any(e.terminations.values())


@pytest.mark.parametrize(
    "config",
    [
        {"episode": "match"},
        {"episode": "hand"},
        {"episode": "match", "forced": "auto"},
        {"episode": "hand", "forced": "auto"},
    ],
)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_points_reward_sums_to_side_score(n, config):
    """S17/S24 + reward="points": an agent's summed rewards equal its side's score change."""
    rnd = random.Random(7 * n)
    for seed in range(4):
        e = sniff_env.raw_env(num_players=n, reward="points", target=80, **config)
        totals = random_episode(e, rnd, seed)
        for agent, total in totals.items():
            seat = e.agent_name_mapping[agent]
            assert total == e.game.scores[e.game.side_of(seat)]


# --------------------------------------------------------------------------- forced moves, infos
@pytest.mark.parametrize("n", [2, 3, 4])
def test_forced_auto_never_offers_draw_or_pass(n):
    """S19/S21 + forced="auto": the env draws and passes itself; every mask seen has a placement only."""
    rnd = random.Random(n)
    seen = Counter()

    def check(e, agent, action, before):
        seen["steps"] += 1
        if live(e):
            mask = e.observe(e.agent_selection)["action_mask"]
            assert mask[DRAW] == 0 and mask[PASS] == 0 and mask[:DRAW].any()

    for seed in range(5):
        e = sniff_env.raw_env(num_players=n, forced="auto", target=80)
        random_episode(e, rnd, seed, on_step=check)
        assert any(a == DRAW for a in e.game.history)  # the env did draw on the agents' behalf
    assert seen["steps"] > 0


def test_game_forced_action_is_the_draw_or_pass_left():
    """S19/S21: ``Game.forced_action`` (what both environments' ``forced="auto"`` play) is DRAW or
    PASS when that is the one legal move, else ``None``: a placement to choose, or the match over."""
    rnd = random.Random(7)
    seen = Counter()
    for seed in range(12):
        g = Game(num_players=4, seed=seed, target=60)
        while not g.is_terminal():
            legal = g.legal_actions()
            expected = legal[0] if legal in ([DRAW], [PASS]) else None
            assert g.forced_action() == expected, (seed, legal)
            seen[expected] += 1
            g.apply(rnd.choice(legal))
        assert g.forced_action() is None
    assert seen[DRAW] and seen[PASS] and seen[None]


def scored_ends(info: dict) -> list:
    """The ``[4, 3]`` ``scored`` rows of an info as ``describe()``'s ``((low, high), contribution)``."""
    return [((int(a), int(b)), int(c)) for a, b, c in info["scored"] if c >= 0]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_infos_carry_credit_and_scored_after_placements(n):
    """docs/api.md/S17: after a placement that leaves the hand running, infos[actor] holds its credit
    (the actor side's score change) and the scored contributions of describe()."""
    rnd = random.Random(n)
    seen = Counter()

    def check(e, agent, action, before):
        info = e.infos[agent]
        assert set(info) == {"credit", "scored"} and info["scored"].shape == (4, 3)
        if action >= DRAW:
            assert info["credit"] == 0 and (info["scored"] == -1).all()
            return
        if e.game.hands_played == before["hands"] and live(e):
            seen["placements"] += 1
            side = e.game.side_of(before["actor"])
            assert info["credit"] == e.game.scores[side] - before["scores"][side]
            assert Counter(scored_ends(info)) == Counter(e.game.describe()["scored"])

    for seed in range(3):
        random_episode(sniff_env.raw_env(num_players=n, target=80), rnd, seed, on_step=check)
    assert seen["placements"] > 20


def test_info_credit_of_last_tile_of_hand():
    """S17/S22: [1|4] (4 + 1 = 5) is seat 0's last tile: its info reports credit 5 and the ends 4 and 1."""
    e = sniff_env.raw_env(num_players=2, reward="points")
    e.reset(seed=0, options={"deal": {"hands": [[(1, 4)], [(6, 6)]], "boneyard": [], "opener": 0}})
    e.step(encode_action((1, 4), 0))
    assert e.rewards["player_0"] == 5  # +5 credit, nothing deducted
    assert e.infos["player_0"]["credit"] == 5
    assert Counter(scored_ends(e.infos["player_0"])) == Counter({((1, 4), 4): 1, ((1, 4), 1): 1})


# --------------------------------------------------------------------------- observations, seeding, deals
@pytest.mark.parametrize("n", [2, 3, 4])
def test_observation_is_write_observation_of_the_game(n):
    """Observation layout: env.observe(agent) is exactly write_observation of the Game for that seat,
    with an int8 mask equal to the Game's legal mask for the seat to act and zeros for the others."""
    rnd = random.Random(n)
    expected = np.empty(OBS_SIZE, dtype=np.float32)

    def check(e, agent, action, before):
        game = e.game
        for a in e.agents:
            seat = e.agent_name_mapping[a]
            obs = e.observe(a)
            write_observation(game.state_array, game._params, seat, expected)
            assert obs["observation"].dtype == np.float32
            assert np.array_equal(obs["observation"], expected)
            assert obs["action_mask"].dtype == np.int8
            if seat == game.current_player and live(e):
                assert np.array_equal(obs["action_mask"].astype(bool), game.legal_mask())
            else:
                assert not obs["action_mask"].any()

    random_episode(sniff_env.raw_env(num_players=n, target=60), rnd, n, on_step=check)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_reset_seed_plays_same_game_as_game_seed(n):
    """docs/api.md: reset(seed=s) yields the same game as Game(seed=s)."""
    rnd = random.Random(n)
    for seed in (0, 11, 2024):
        e = sniff_env.raw_env(num_players=n, target=100)
        e.reset(seed=seed)
        g = Game(num_players=n, seed=seed, target=100)
        while not g.is_terminal():
            assert np.array_equal(e.game.state_array, g.state_array)
            assert e.agent_selection == f"player_{g.current_player}"
            action = rnd.choice(g.legal_actions())
            g.apply(action)
            e.step(action)
        assert np.array_equal(e.game.state_array, g.state_array) and e.game.is_terminal()


def test_reset_with_deal_option():
    """docs/api.md: reset(options={"deal": …}) fixes the first hand like Game(deal=…)."""
    deal = {"hands": [[(1, 4), (2, 2)], [(3, 3)], [(0, 6), (5, 5)]], "boneyard": [(0, 0)], "opener": 2}
    e = sniff_env.raw_env(num_players=3)
    e.reset(seed=1, options={"deal": deal})
    assert [e.game.hand(s) for s in range(3)] == [[(1, 4), (2, 2)], [(3, 3)], [(0, 6), (5, 5)]]
    assert e.game.boneyard == [(0, 0)]
    assert e.agent_selection == "player_2"
    mask = e.observe("player_2")["action_mask"]
    assert np.flatnonzero(mask).tolist() == sorted([encode_action((0, 6), 0), encode_action((5, 5), 0)])


def test_reset_with_bad_deal_raises():
    """docs/api.md: an invalid deal in the reset options is a ValueError."""
    e = sniff_env.raw_env(num_players=2)
    with pytest.raises(ValueError, match="twice"):
        e.reset(seed=1, options={"deal": {"hands": [[(1, 4)], [(4, 1)]], "boneyard": [], "opener": 0}})


# --------------------------------------------------------------------------- illegal actions
def test_raw_env_illegal_action_raises_and_changes_nothing():
    """docs/api.md: raw_env.step with an illegal action raises ValueError naming the legal moves; nothing changes."""
    e = sniff_env.raw_env(num_players=2)
    e.reset(
        seed=0, options={"deal": {"hands": [[(2, 5), (6, 6)], [(5, 6), (0, 0)]], "boneyard": [(1, 1)], "opener": 0}}
    )
    e.step(encode_action((2, 5), 0))
    legal = encode_action((5, 6), 1)
    state = np.array(e.game.state_array)
    snapshot = (
        e.agent_selection,
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
        {a: dict(i) for a, i in e.infos.items()},
        list(e.game.history),
    )
    obs = e.observe("player_1")["observation"].copy()
    with pytest.raises(ValueError, match=str(legal)):
        e.step(DRAW)
    assert np.array_equal(e.game.state_array, state)
    assert snapshot == (
        e.agent_selection,
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
        {a: dict(i) for a, i in e.infos.items()},
        list(e.game.history),
    )
    assert np.array_equal(e.observe("player_1")["observation"], obs)


def test_wrapped_env_penalises_illegal_action():
    """PettingZoo convention (TerminateIllegalWrapper): an illegal move ends the episode, −1 for the
    offender, 0 for the others, and the game itself is not changed."""
    e = sniff_env.env(num_players=3)
    e.reset(seed=3)
    offender = e.agent_selection
    mask = e.observe(offender)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    history = list(e.unwrapped.game.history)
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[offender] == -1
    assert all(r == 0 for a, r in e.rewards.items() if a != offender)
    assert e.unwrapped.game.history == history
