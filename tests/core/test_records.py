"""Match records (sniff_twelve.core.records): round trips, exact replay of every state, clean rejection."""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env import Game as SniffGame
from twelve_env import Game as TwelveGame

GAMES = [
    (SniffGame, {"num_players": 4}),
    (SniffGame, {"num_players": 2, "settlement": "allfives", "undrawn": 1, "target": 120}),
    (TwelveGame, {"num_players": 3, "deck": "numbers"}),
    (TwelveGame, {"num_players": 2, "capture_extra_turn": True}),
]


def _played(cls, options, seed):
    game = cls(seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_terminal():
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("cls", "options"), GAMES)
def test_record_replays_every_state_exactly(cls, options):
    game = cls(seed=None, **options)  # OS entropy: the record, not a seed, must carry the deal
    rng = random.Random(1)
    snapshots = []
    while not game.is_terminal():
        snapshots.append((json.dumps(game.to_record()), game.state_array.copy()))
        game.apply(rng.choice(game.legal_actions()))
    snapshots.append((json.dumps(game.to_record()), game.state_array.copy()))
    for text, state in snapshots[:: max(1, len(snapshots) // 40)] + snapshots[-1:]:
        np.testing.assert_array_equal(cls.from_record(text).state_array, state)


@pytest.mark.parametrize(("cls", "options"), GAMES)
def test_game_round_trips_through_json_and_pickle(cls, options):
    game = _played(cls, options, seed=4)
    again = cls.from_record(json.loads(json.dumps(game.to_record())))
    assert again.history == game.history and again.scores == game.scores
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(game)).state_array, game.state_array)


def _corruptions(record):
    def edit(fn):
        bad = copy.deepcopy(record)
        fn(bad)
        return bad

    return {
        "not JSON": "{not json",
        "not an object": "[1, 2]",
        "other format": edit(lambda r: r.update(format="chess-pgn")),
        "other version": edit(lambda r: r.update(version=99)),
        "other game": edit(lambda r: r.update(game="twelve" if r["game"] == "sniff" else "sniff")),
        "missing actions": edit(lambda r: r.pop("actions")),
        "bad option": edit(lambda r: r["options"].update(num_players=9)),
        "unknown option": edit(lambda r: r["options"].update(colour="red")),
        "bad stream": edit(lambda r: r["start"].update(stream=[1])),
        "bad deal": edit(lambda r: r["start"]["deal"]["hands"][0].append(r["start"]["deal"]["hands"][1][0])),
        "illegal action": edit(lambda r: r["actions"].__setitem__(2, 999)),
        "dropped action": edit(lambda r: r["actions"].pop()),
        "tampered result": edit(lambda r: r["result"]["scores"].__setitem__(0, r["result"]["scores"][0] + 5)),
    }


@pytest.mark.parametrize(("cls", "options"), GAMES)
def test_corrupt_records_are_rejected_with_a_clear_error(cls, options):
    record = _played(cls, options, seed=8).to_record()
    for name, bad in _corruptions(record).items():
        with pytest.raises(ValueError) as error:
            cls.from_record(bad)
        assert len(str(error.value)) > 10, name


def test_tampered_sniff_events_are_rejected():
    record = _played(SniffGame, {"num_players": 2}, seed=2).to_record()
    record["events"][0][2] += 5
    with pytest.raises(ValueError, match="events differ"):
        SniffGame.from_record(record)


@pytest.mark.parametrize(("module", "options"), [(sniff_env, {"num_players": 3}), (twelve_env, {"num_players": 4})])
def test_an_aec_episode_can_be_recorded_and_replayed(module, options):
    env = module.env(**options)
    env.reset(seed=11)
    rng = random.Random(0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    game = env.unwrapped.game
    replayed = type(game).from_record(game.to_record())
    np.testing.assert_array_equal(replayed.state_array, game.state_array)


def test_arena_games_carry_records_that_replay_to_their_outcome():
    from sniff_twelve.tools.arena import run
    from twelve_env.agents import arena_table, match_outcome

    result = run(arena_table(2), ["random", "greedy"], deals=2, seed=1, workers=1, progress=False, records=True)
    assert len(result["games"]) == 4
    for played in result["games"]:
        game = TwelveGame.from_record(played["record"])
        assert game.is_terminal()
        assert match_outcome(game)["outcome"] == played["outcome"]
        assert game.scores == played["points"]


def test_replay_command_shows_the_match_and_writes_images(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    game = _played(TwelveGame, {"num_players": 2}, seed=3)
    good = tmp_path / "match.json"
    good.write_text(json.dumps(game.to_record()))
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run(
        [sys.executable, "-m", "twelve_env", "replay", str(good), "--png", str(tmp_path / "s.png")],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "game over" in run.stdout and run.stdout.count("seat ") > len(game.history)
    assert (tmp_path / "s.png").stat().st_size > 10_000
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**game.to_record(), "actions": game.history[:-1]}))
    run = subprocess.run(
        [sys.executable, "-m", "twelve_env", "replay", str(bad)], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 2 and "error: cannot replay" in run.stderr and "Traceback" not in run.stderr


def test_replay_reads_arena_jsonl_and_keeps_match_images_small(tmp_path):
    """``arena --records`` writes JSON Lines; ``replay FILE --game N`` picks one, and a whole Sniff
    match exports one frame per hand (a grid), not a strip of every move."""
    import subprocess
    import sys
    from pathlib import Path

    from PIL import Image

    root = Path(__file__).resolve().parents[2]

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "sniff_env", *args], cwd=root, capture_output=True, text=True, timeout=300
        )

    records = tmp_path / "games.jsonl"
    run = cli("arena", "--players", "2", "--agents", "greedy", "heuristic", "--deals", "1", "--records", str(records))
    assert run.returncode == 0, run.stderr
    lines = records.read_text().splitlines()
    assert len(lines) >= 2
    record = json.loads(lines[1])
    run = cli(
        "replay",
        str(records),
        "--game",
        "2",
        "--quiet",
        "--png",
        str(tmp_path / "m.png"),
        "--gif",
        str(tmp_path / "m.gif"),
    )
    assert run.returncode == 0, run.stderr
    hands = record["result"]["hands_played"]
    with Image.open(tmp_path / "m.gif") as gif:
        assert gif.n_frames <= hands + 3 < len(record["actions"])
    with Image.open(tmp_path / "m.png") as png:
        assert png.width * png.height < 40_000_000 and png.width < 8 * png.height
    run = cli("replay", str(records), "--game", str(len(lines) + 1))
    assert run.returncode == 2 and f"between 1 and {len(lines)}" in run.stderr


def test_a_game_picked_up_mid_play_cannot_be_recorded():
    from sniff_env import VectorGame

    vg = VectorGame(2, num_players=2, seed=0)
    vg.step(vg.sample_actions())
    with pytest.raises(ValueError, match="middle of play"):
        vg.game(0).to_record()
