"""The PettingZoo environments ``twelve_env.env`` / ``twelve_env.raw_env`` (docs/api.md "Twelve")."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from pettingzoo.test import render_test

import twelve_env
from twelve_env import Game

A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K = range(13)

CONFIGS = [{"num_players": n, "deck": deck} for n in (2, 4, 7) for deck in ("bridge", "numbers")] + [
    {"num_players": 3, "capture_extra_turn": True},
    {"num_players": 5, "deck": "numbers", "reward": "win"},
]
IDS = [
    f"{c['num_players']}p-{c.get('deck', 'bridge')}"
    + ("-extra" if c.get("capture_extra_turn") else "")
    + (f"-{c['reward']}" if "reward" in c else "")
    for c in CONFIGS
]

# A scripted deal for the step-by-step tests below (2 players, seat 0 first):
#   seat 0 A on Q = 12 takes 2, the 4 is turned; seat 1 2 on 4 = 6, draws the 5;
#   seat 0 7 on 2 = 9, draws the 9 — the stock is empty, last round (T13);
#   seat 1 5 on 7 = 12 takes 4, 2, 7, 5 and ends the game (T14).
DEAL = {"hands": [[A, SEVEN, K], [TWO, THREE]], "stock": [FOUR, FIVE, NINE], "face_up": Q, "first_player": 0}


def snapshot(e) -> dict:
    return {
        "state": np.array(e.game.state_array),
        "history": list(e.game.history),
        "agent": e.agent_selection,
        "rewards": dict(e.rewards),
        "cumulative": dict(e._cumulative_rewards),
        "terminations": dict(e.terminations),
        "infos": {a: dict(i) for a, i in e.infos.items()},
        "obs": {a: e.observe(a)["observation"].copy() for a in e.agents},
    }


def same(a: dict, b: dict) -> bool:
    return (
        (a["state"] == b["state"]).all()
        and all((a["obs"][k] == b["obs"][k]).all() for k in a["obs"])
        and {k: v for k, v in a.items() if k not in ("state", "obs")}
        == {k: v for k, v in b.items() if k not in ("state", "obs")}
    )


# --------------------------------------------------------------------------- rendering (PettingZoo's render_test)
# api_test and seed_test run on every table in tests/conformance (sniff_twelve.tools.conformance)
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_pettingzoo_render(config, capsys):
    """render: ansi returns text, human prints it (PettingZoo's render_test)."""
    render_test(lambda render_mode=None: twelve_env.env(render_mode=render_mode, **config))
    out = capsys.readouterr().out
    assert "face-up pile" in out and "stock:" in out


# --------------------------------------------------------------------------- seeding and deals
@pytest.mark.parametrize("n", [2, 4, 7])
@pytest.mark.parametrize("deck", ["bridge", "numbers"])
def test_reset_seed_plays_the_same_game_as_game_seed(n, deck):
    """docs/api.md: reset(seed=s) deals exactly Game(seed=s); the same moves keep them identical."""
    rng = random.Random(n)
    for seed in (0, 7, 2**40 + 3):
        e = twelve_env.raw_env(num_players=n, deck=deck)
        e.reset(seed=seed)
        g = Game(num_players=n, deck=deck, seed=seed)
        assert (e.game.state_array == g.state_array).all()
        while not g.is_terminal():
            assert e.agent_selection == f"player_{g.current_player}"
            action = rng.choice(g.legal_actions())
            e.step(action)
            g.apply(action)
            assert (e.game.state_array == g.state_array).all()
        assert all(e.terminations.values()) and not any(e.truncations.values())


def test_reset_without_seed_continues_the_seeded_stream():
    """Reset semantics: after reset(seed=s) further reset() calls are reproducible, and differ."""
    a, b = twelve_env.raw_env(num_players=3), twelve_env.raw_env(num_players=3)
    a.reset(seed=11)
    b.reset(seed=11)
    stocks = []
    for _ in range(3):
        a.reset()
        b.reset()
        assert (a.game.state_array == b.game.state_array).all()
        stocks.append(tuple(a.game.stock))
    assert len(set(stocks)) == 3


def test_reset_options_deal():
    """docs/api.md: reset(options={"deal": …}) sets the position exactly as Game(deal=…) does."""
    e = twelve_env.raw_env(num_players=2)
    e.reset(seed=5, options={"deal": {**DEAL, "first_player": 1}})
    g = e.game
    assert [g.hand(0), g.hand(1)] == [[A, SEVEN, K], [TWO, THREE]]
    assert g.stock == [FOUR, FIVE, NINE] and g.pile == [Q]
    assert e.agent_selection == "player_1"
    obs = e.observe("player_1")
    hand = obs["observation"][:13]
    assert hand.tolist() == [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert obs["action_mask"].tolist() == [0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    assert not e.observe("player_0")["action_mask"].any()
    assert (Game(num_players=2, deal={**DEAL, "first_player": 1}).state_array[2:] == g.state_array[2:]).all()


def test_reset_options_deal_in_wrapped_env():
    """docs/api.md: the deal passes through PettingZoo's wrappers too."""
    e = twelve_env.env(num_players=2)
    e.reset(options={"deal": DEAL})
    assert e.unwrapped.game.hand(0) == [A, SEVEN, K]
    obs, reward, terminated, truncated, _ = e.last()
    assert e.agent_selection == "player_0" and reward == 0 and not terminated and not truncated
    assert obs["action_mask"].tolist() == [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]


def test_reset_with_invalid_deal_raises():
    """docs/api.md: an impossible deal is rejected by reset with the same ValueError as Game."""
    e = twelve_env.raw_env(num_players=2)
    with pytest.raises(ValueError, match="3 hands for 2 players"):
        e.reset(options={"deal": {**DEAL, "hands": [[A], [TWO], [THREE]]}})
    with pytest.raises(ValueError, match="more than 4"):
        e.reset(options={"deal": {**DEAL, "hands": [[K, K, K], [K]], "face_up": K}})


def test_unknown_reset_option_only_warns():
    """sniff_twelve: PettingZoo's api_test passes unknown options, so they are warned about, not fatal."""
    e = twelve_env.raw_env(num_players=2)
    with pytest.warns(UserWarning, match="ignoring unknown reset options"):
        e.reset(seed=1, options={"colour": "red"})
    assert (e.game.state_array == Game(num_players=2, seed=1).state_array).all()


# --------------------------------------------------------------------------- stepping
def test_scripted_episode_rewards_infos_and_termination():
    """T8/T13/T14/T15 through the env: infos["captured"] is the number of cards the actor took,
    reward="score" pays +1 per captured card at once and −1 per card left in hand at the end, and
    the capture in the last round terminates every agent (no truncation)."""
    e = twelve_env.raw_env(num_players=2)
    e.reset(options={"deal": DEAL})
    e.step(A)  # A on Q: takes 2
    assert e.infos["player_0"] == {"captured": 2}
    assert e.rewards == {"player_0": 2.0, "player_1": 0.0}
    assert e.agent_selection == "player_1" and e.game.pile == [FOUR]
    e.step(TWO)  # 2 on 4: no capture, draws the 5
    assert e.infos["player_1"] == {"captured": 0}
    assert e.rewards == {"player_0": 0.0, "player_1": 0.0}
    e.step(SEVEN)  # 7 on 2: draws the 9, last round
    assert e.game.last_round and e.game.stock == []
    assert not any(e.terminations.values())
    e.step(FIVE)  # 5 on 7 = 12: takes 4 cards and ends the game (T14)
    assert e.infos["player_1"] == {"captured": 4}
    assert all(e.terminations.values()) and not any(e.truncations.values())
    # seat 0 ends with K, 9 (score 2 − 2 = 0); seat 1 with the 3 (score 4 − 1 = 3)
    assert e.game.scores == [0, 3]
    assert e.rewards == {"player_0": -2.0, "player_1": 4.0 - 1.0}
    while e.agents:  # PettingZoo: every terminated agent is stepped with None once
        e.step(None)


def test_scripted_episode_win_reward():
    """reward="win": 0 until the end, then +1 to the higher T15 score and −1 to the lower."""
    e = twelve_env.raw_env(num_players=2, reward="win")
    e.reset(options={"deal": DEAL})
    for action in (A, TWO, SEVEN):
        e.step(action)
        assert e.rewards == {"player_0": 0.0, "player_1": 0.0}
    e.step(FIVE)
    assert e.rewards == {"player_0": -1.0, "player_1": 1.0}


def test_infos_captured_with_six_on_six():
    """T11: infos["captured"] counts the pile taken by 6 on 6; the other seats' draws are no capture."""
    e = twelve_env.raw_env(num_players=3)
    deal = {"hands": [[SIX, A], [TWO], [THREE]], "stock": [J, Q, EIGHT, NINE], "face_up": SIX}
    e.reset(options={"deal": deal})
    e.step(SIX)
    assert e.infos["player_0"] == {"captured": 2}
    assert e.infos["player_1"] == e.infos["player_2"] == {"captured": 0}  # the same key for every seat
    assert e.game.hand(1) == [TWO, J] and e.game.hand(2) == [THREE, Q]
    assert e.agent_selection == "player_1"


def test_illegal_action_in_raw_env_raises_and_changes_nothing():
    """docs/api.md: raw_env.step with an illegal action raises ValueError naming the legal ranks and
    leaves the game, rewards, infos, observations and the agent to act unchanged."""
    e = twelve_env.raw_env(num_players=2)
    e.reset(options={"deal": DEAL})
    e.step(A)
    before = snapshot(e)
    for bad in (A, K, SEVEN, 13, -1):  # seat 1 holds only 2 and 3
        with pytest.raises(ValueError, match=r"legal: 1 \(2\), 2 \(3\)"):
            e.step(bad)
        assert same(snapshot(e), before)
    e.step(TWO)
    assert e.game.history == [A, TWO]


def test_wrapped_env_penalises_illegal_move():
    """PettingZoo convention (TerminateIllegalWrapper): an action outside the mask ends the episode
    with −1 for the offender and 0 for the others; it does not raise."""
    e = twelve_env.env(num_players=3)
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    state = np.array(e.unwrapped.game.state_array)
    e.step(illegal)
    assert (e.unwrapped.game.state_array == state).all()  # the move was not played
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1
    assert all(r == 0 for a, r in e.rewards.items() if a != agent)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for a in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        assert terminated or truncated
        totals[a] += reward
        e.step(None)
    assert totals[agent] == -1 and sum(totals.values()) == -1
    assert e.agents == []


def test_wrapped_env_rejects_out_of_range_action():
    """Bounds at every entry: an action outside Discrete(13) is a ValueError naming the range (where
    PettingZoo's AssertOutOfBoundsWrapper would assert), and the game is unchanged."""
    e = twelve_env.env(num_players=2)
    e.reset(seed=0)
    before = e.unwrapped.game.state_array.tobytes()
    with pytest.raises(ValueError, match="between 0 and 12"):
        e.step(13)
    assert e.unwrapped.game.state_array.tobytes() == before


def test_wrapped_env_full_episode_scores():
    """T15 through the wrappers: the scripted episode's summed rewards are the final scores."""
    e = twelve_env.env(num_players=2)
    e.reset(options={"deal": DEAL})
    moves = iter([A, TWO, SEVEN, FIVE])
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else next(moves))
    assert totals == {"player_0": 0.0, "player_1": 3.0}


def test_pickle_round_trip():
    """EzPickle: an env pickles to one with the same options."""
    e = twelve_env.raw_env(num_players=4, deck="numbers", capture_extra_turn=True, reward="win")
    e2 = pickle.loads(pickle.dumps(e))
    e2.reset(seed=2)
    assert e2.num_players == 4 and e2.game.deck == "numbers"
    assert e2.action_space("player_0").n == 11


# --------------------------------------------------------------------------- rendering
def test_render_ansi_shows_the_table():
    """render("ansi"): the top card, the stock size, each seat's hand size and captured cards, the
    hand of the seat to act; the last round and the end are announced."""
    e = twelve_env.raw_env(num_players=2, render_mode="ansi")
    e.reset(options={"deal": DEAL})
    text = e.render()
    assert "top Q" in text
    assert "stock: 3" in text
    assert "seat 0: 3 in hand, 0 captured" in text
    assert "seat 1: 2 in hand, 0 captured" in text
    assert "seat 0 holds A 7 K" in text
    e.step(A)  # takes Q, A; the 4 is turned
    text = e.render()
    assert "top 4" in text and "stock: 2" in text
    assert "seat 0: 2 in hand, 2 captured" in text
    assert "seat 1: 2 in hand, 0 captured" in text
    assert "seat 1 holds 2 3" in text
    e.step(TWO)
    e.step(SEVEN)  # the stock runs out: last round
    text = e.render()
    assert "stock: 0" in text and "last round" in text and "top 7" in text
    assert "seat 1 holds 3 5" in text
    e.step(FIVE)
    text = e.render()
    assert "game over" in text
    assert "seat 1: 1 in hand, 4 captured" in text


def test_render_numbers_deck_names_values():
    """render with the number deck names cards by value (1–11)."""
    e = twelve_env.raw_env(num_players=2, deck="numbers", render_mode="ansi")
    e.reset(options={"deal": {"hands": [[10, 0], [4]], "stock": [2, 3], "face_up": 6}})
    text = e.render()
    assert "top 7" in text and "seat 0 holds 1 11" in text


def test_render_human_prints(capsys):
    """render_mode="human": render() prints the table and returns None; step() prints it too."""
    e = twelve_env.raw_env(num_players=2, render_mode="human")
    e.reset(options={"deal": DEAL})
    assert e.render() is None
    assert "seat 0 holds A 7 K" in capsys.readouterr().out
    e.step(A)
    assert "seat 1 holds 2 3" in capsys.readouterr().out


def test_render_without_mode_warns():
    """render() without a render_mode warns and returns None (gymnasium convention)."""
    e = twelve_env.raw_env(num_players=2)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None


def test_game_forces_no_move():
    """T7: a seat always plays a card of its choice, so ``Game.forced_action`` is ``None`` whenever
    a seat is to play, even with one card left."""
    rnd = random.Random(3)
    for seed in range(6):
        g = Game(num_players=3, seed=seed)
        while not g.is_terminal():
            assert g.forced_action() is None
            g.apply(rnd.choice(g.legal_actions()))
