"""The tiny game gets through the shared layers alone: the AEC env (PettingZoo's ``api_test``),
``VectorGame``, the OpenSpiel game, the arena and the web table — each built from its kernels,
spec and drawing (the conformance suite runs on it too: ``tests/conformance``)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import warnings

import numpy as np
import pytest

from sniff_twelve.agents.builtin import SpecGreedyAgent
from sniff_twelve.core.seats import Table
from sniff_twelve.tools.arena import run
from tests import blockdom
from tests.blockdom import Game, VectorGame
from tests.blockdom.spec import SPEC

DEAL = {"hands": [[0, 4], [1, 5]], "pool": [2, 3], "first_player": 0}  # test_rules: 8, 2, 0 and seat 0 is out


@pytest.mark.parametrize("players", [2, 3])
def test_the_aec_env_passes_pettingzoo_api_test(players):
    from pettingzoo.test import api_test

    env = blockdom.env(num_players=players)
    assert env.metadata["name"] == "blockdom_v0"
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=200)
    if players == 3:
        return
    env.reset(seed=0, options={"deal": DEAL})
    for action in (8, 2, 0):
        env.step(action)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert [env._cumulative_rewards[a] for a in env.possible_agents] == [1.0, -1.0]
    with pytest.raises(ValueError, match="reward must be one of 'win'"):
        blockdom.env(reward="score")


def test_vector_game_rows_step_and_its_rule_agents_are_the_agents():
    vg = VectorGame(16, num_players=3, seed=5)
    ended = 0
    for _ in range(30):
        for i in range(vg.num_envs):
            game = vg.game(i)
            assert vg.agent_actions("greedy", np.array([i]))[0] == SpecGreedyAgent().act(game)
        *_, rewards, terminated, truncated = vg.step(vg.sample_actions())
        assert not truncated.any() and np.allclose(rewards.sum(axis=1), 0.0)
        assert set(np.flatnonzero(rewards.any(axis=1))) <= set(np.flatnonzero(terminated))
        ended += int(terminated.sum())
    assert ended >= 16  # a game lasts at most 6 actions with 3 players


def test_the_arena_plays_round_robins_on_two_and_three_seat_tables():
    two = run(Table.of(SPEC, 2), ["random", "greedy"], deals=4, progress=False)
    assert two["games_played"] == 8 and two["game"] == "tests.blockdom"  # each deal from both sides
    assert sum(entry["score"] for entry in two["entries"]) == pytest.approx(1.0)
    three = run(Table.of(SPEC, 3), ["random", "greedy", "heuristic", "rollout:4"], deals=2, progress=False)
    assert three["games_played"] == 4 * 3 * 2  # every line-up of three, in three rotations
    assert all(game["hands"] == 1 and len(game["outcome"]) == 3 for game in three["games"])
    with pytest.raises(ValueError, match="unknown agent 'pimc'"):
        run(Table.of(SPEC, 2), ["random", "pimc"], deals=1, progress=False)


def test_the_arena_counts_the_deals_of_a_match_and_the_points_of_each():
    result = run(Table.of(SPEC, 2, target=13), ["random", "greedy"], deals=3, progress=False)
    assert result["games_played"] == 6
    for game in result["games"]:  # match_outcome: a deal gives at most 12 points, so two deals at least
        assert game["hands"] == len(game["hand_points"]) >= 2 and max(game["points"]) >= 13
        assert np.sum(game["hand_points"], axis=0).tolist() == game["points"]


def test_the_openspiel_game_deals_by_chance_and_plays_our_game():
    pyspiel = pytest.importorskip("pyspiel")
    import tests.blockdom.openspiel  # noqa: F401  (registers python_blockdom)

    for players in (2, 3):
        game = pyspiel.load_game("python_blockdom", {"players": players})
        assert game.num_distinct_actions() == 14 and game.max_game_length() == (12 - 2 * players) * players
        pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = pyspiel.load_game("python_blockdom").new_initial_state()
    for outcome in [*DEAL["hands"][0], *DEAL["hands"][1], *DEAL["pool"], DEAL["first_player"]]:
        assert outcome in dict(state.chance_outcomes())
        state.apply_action(outcome)
    assert np.array_equal(state._engine.state_array, Game(seed=0, deal=DEAL).state_array)
    assert (
        state.observation_string(1) == "p1 hand [0|1] [2|2] | line - | hand sizes [2, 2] | boneyard 2 | seat 0 to act"
    )
    for action in (8, 2, 0):
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    with pytest.raises(ValueError, match="players must be between 2 and 3"):
        pyspiel.load_game("python_blockdom", {"players": 4})
    with pytest.raises(ValueError, match="target must be between 1 and 99"):
        pyspiel.load_game("python_blockdom", {"target": 0})


def test_the_openspiel_game_deals_every_deal_of_a_match_by_chance():
    pyspiel = pytest.importorskip("pyspiel")
    import tests.blockdom.openspiel  # noqa: F401  (registers python_blockdom)

    game = pyspiel.load_game("python_blockdom", {"players": 2, "target": 6})
    assert game.max_game_length() == 16 * (2 * 5 + 1)  # 16 actions a deal, 11 deals at most
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = game.new_initial_state()
    for outcome in [*DEAL["hands"][0], *DEAL["hands"][1], *DEAL["pool"], DEAL["first_player"]]:
        state.apply_action(outcome)
    for action in (8, 2, 0):  # seat 0 goes out with 5 points: one short of the target
        state.apply_action(action)
    assert state.is_chance_node() and state._engine.scores == [5, 0]
    second = {"hands": [[5, 3], [0, 1]], "pool": [2, 4], "first_player": 1}
    for outcome in [*second["hands"][0], *second["hands"][1], *second["pool"], second["first_player"]]:
        state.apply_action(outcome)
    assert state._engine.hand(0) == [3, 5] and state._engine.current_player == 1 and state._engine.line == []
    assert state._engine.deals_played == 1 and state._engine.scores == [5, 0]
    while not state.is_terminal():
        state.apply_action(min(state.legal_actions()) if not state.is_chance_node() else state.chance_outcomes()[0][0])
    a, b = state._engine.scores
    assert max(a, b) >= 6 and state.returns() == ([1.0, -1.0] if a > b else [-1.0, 1.0])


def test_the_web_table_plays_a_whole_game_and_draws_no_hidden_tile(tmp_path):
    pytest.importorskip("starlette")
    from tests.blockdom.web import WEB
    from tests.web.test_web import make_client, new_session

    client, server = make_client(WEB, tmp_path)
    config = client.get("/api/config").json()
    assert config["players"] == [2, 3] and config["agents"]["2"] == ["random", "greedy", "heuristic", "rollout"]
    token = new_session(client, players=2, seat=0, seed=3, agents={"1": "greedy"})
    state, game = client.get(f"/api/sessions/{token}").json(), server.sessions.get(token).game

    def tiles(svg: str) -> list[str]:
        return sorted(re.findall(r'data-tile="([^"]+)"', svg))

    while not state["over"]:  # the table shows my hand and the line, nothing of the other hand
        mine = [SPEC.item_names[t] for t in game.hand(0)]
        line = [f"[{min(a, b)}|{max(a, b)}]" for a, b in game.line]
        assert tiles(state["svg"]) == sorted(mine + line) and tiles("".join(state["hand"])) == mine
        assert [m["action"] for m in state["moves"]] == game.legal_actions()
        body = {"action": state["moves"][-1]["action"], "version": state["version"]}
        state = client.post(f"/api/sessions/{token}/move", json=body).json()
    record = Game.from_record((tmp_path / state["record"]).read_text())
    assert record.is_terminal() and record.scores == game.scores
    winner = "You win" if game.scores[0] > game.scores[1] else "Seat 1 wins"
    assert state["result"] == f"{winner}. Scores: you {game.scores[0]} · seat 1 {game.scores[1]}"
    everything = [SPEC.item_names[t] for seat in range(2) for t in game.hand(seat)]
    assert set(everything) <= set(tiles(state["svg"]))  # the end shows every hand


def test_the_command_line_is_the_shared_one_built_from_the_spec(tmp_path, capsys):
    """The arena, demo and replay commands run on the spec alone: words from ``GameUI.plain``,
    moves named by ``action_name``; a command whose part the game lacks (``analyze``: no solver)
    is a one-line error naming it."""
    from sniff_twelve.core.games import game_names, game_spec
    from sniff_twelve.tools.cli import GameCommands

    assert "blockdom" in game_names() and game_spec("blockdom") is SPEC  # registered when imported
    commands = GameCommands(SPEC)
    out = tmp_path / "arena.json"
    records = tmp_path / "records.jsonl"
    argv = ["arena", "--agents", "greedy", "random", "--deals", "3", "--seed", "4", "--workers", "1"]
    assert commands.main([*argv, "--no-progress", "--json", str(out), "--records", str(records)]) == 0
    result = json.loads(out.read_text())
    assert result["game"] == "tests.blockdom" and result["games_played"] == 6
    assert sorted(entry["entry"] for entry in result["entries"]) == ["greedy", "random"]
    assert sum(entry["score"] for entry in result["entries"]) == pytest.approx(1.0)
    assert commands.main(["demo", "--seed", "2"]) == 0
    demo = capsys.readouterr().out
    assert re.search(r"seat [01]: \[\d\|\d\] (left|right)", demo), demo
    assert commands.main(["replay", str(records), "--game", "1"]) == 0
    assert "seat " in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        commands.main(["analyze", str(records)])
    assert stop.value.code != 0
    assert "'solve' part" in capsys.readouterr().err


def test_a_game_without_a_text_part_shows_its_state_row_and_each_game_its_text():
    from sniff_env import Game as SniffGame
    from sniff_twelve.core.game import BaseGame

    game = Game(num_players=2, seed=0)
    assert BaseGame.__str__(game) == f"Game {game.state_array.tolist()}"  # no ``text`` part: the row
    assert "free spots: any tile opens" in str(SniffGame(num_players=2, seed=0))  # Sniff's ``text`` part
