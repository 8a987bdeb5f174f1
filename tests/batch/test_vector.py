"""``VectorGame`` (both games) held against ``Game`` step by step, determinism and buffers."""

from __future__ import annotations

import numba
import numpy as np
import pytest

import sniff_env.kernels as SK
from sniff_env import Game as SniffGame
from sniff_env import VectorGame as SniffVector
from sniff_env.observation import OBS_SIZE as SNIFF_OBS
from sniff_env.observation import write_observation as sniff_obs
from sniff_env.tiles import DRAW, PASS
from twelve_env import Game as TwelveGame
from twelve_env import VectorGame as TwelveVector
from twelve_env.observation import obs_size
from twelve_env.observation import write_observation as twelve_obs

N = 6
STEPS = 400


def sniff_expected(game: SniffGame, action: int, forced: bool, reward: str) -> tuple[np.ndarray, bool, bool]:
    """Apply ``action`` (and forced draws/passes) to ``game``; rewards from score changes (API)."""
    before = game.scores
    game.apply(action)
    while forced and not game.is_terminal():
        mask = game.legal_mask()
        if not (mask[DRAW] or mask[PASS]):
            break
        game.apply(DRAW if mask[DRAW] else PASS)
    n = game.num_players
    rewards = np.zeros(n)
    if reward == "points":
        rewards = np.array([game.scores[game.side_of(s)] - before[game.side_of(s)] for s in range(n)], float)
    elif game.winner is not None:
        sides = len(game.scores)
        rewards = np.array([1.0 if game.side_of(s) == game.winner else -1.0 / (sides - 1) for s in range(n)])
    status = int(game.state_array[SK.STATUS])
    return rewards, status in (SK.WON, SK.HAND_OVER), status == SK.TRUNCATED


def twelve_expected(game: TwelveGame, action: int, reward: str) -> tuple[np.ndarray, bool, bool]:
    before = np.array(game.captured)
    game.apply(action)
    done = game.is_terminal()
    if reward == "score":
        rewards = np.array(game.captured) - before
        if done:
            rewards = rewards - np.array([len(game.hand(s)) for s in range(game.num_players)])
    else:
        rewards = np.zeros(game.num_players)
        if done:
            scores = np.array(game.scores)
            n = len(scores)
            for i in range(n):
                better, equal = (scores > scores[i]).sum(), (scores == scores[i]).sum()
                rewards[i] = 1 - 2 * (better + (equal - 1) / 2) / (n - 1)
    return rewards.astype(float), done, False


def observation_of(game, write, size) -> np.ndarray:
    out = np.empty(size, dtype=np.float32)
    write(game.state_array, game._params, game.current_player, out)
    return out


SNIFF_CASES = [
    dict(num_players=2),
    dict(num_players=3, reward="points"),
    dict(num_players=4),
    dict(num_players=4, forced="explicit", reward="points"),
    dict(num_players=2, episode="hand", target=60),
    dict(num_players=3, max_steps=50),
]


@pytest.mark.parametrize("options", SNIFF_CASES, ids=str)
def test_sniff_vector_matches_game_step_by_step(options):
    vg = SniffVector(N, seed=11, **options)
    obs, mask, player = vg.reset()
    games = [vg.game(i) for i in range(N)]
    forced = options.get("forced", "auto") == "auto"
    reward = options.get("reward") or ("win" if options.get("episode", "match") == "match" else "points")
    resets = 0
    for _ in range(STEPS):
        actions = vg.sample_actions().copy()
        expected = [sniff_expected(g, int(a), forced, reward) for g, a in zip(games, actions, strict=True)]
        obs, mask, player, rewards, terminated, truncated = vg.step(actions)
        for i, (exp_rewards, exp_term, exp_trunc) in enumerate(expected):
            np.testing.assert_allclose(rewards[i], exp_rewards, err_msg=f"row {i}")
            assert (terminated[i], truncated[i]) == (exp_term, exp_trunc)
            if exp_term or exp_trunc:
                resets += 1
                game = vg.game(i)
                assert game.describe()["tiles"] == [] and game.scores == [0] * len(game.scores)
                games[i] = game
            g = games[i]
            assert player[i] == g.current_player
            np.testing.assert_array_equal(mask[i], g.legal_mask())
            np.testing.assert_array_equal(obs[i], observation_of(g, sniff_obs, SNIFF_OBS))
            np.testing.assert_array_equal(vg.states[i], g.state_array)
    if options.get("episode") == "hand" or options.get("max_steps"):
        assert resets > 0, "the auto-reset path was never exercised"


@pytest.mark.parametrize(
    "options",
    [
        dict(num_players=2),
        dict(num_players=5, deck="numbers"),
        dict(num_players=7, reward="win"),
        dict(num_players=3, capture_extra_turn=True),
    ],
    ids=str,
)
def test_twelve_vector_matches_game_step_by_step(options):
    vg = TwelveVector(N, seed=5, **options)
    vg.reset()
    games = [vg.game(i) for i in range(N)]
    size = obs_size(games[0].num_actions)
    resets = 0
    for _ in range(STEPS):
        actions = vg.sample_actions().copy()
        reward = options.get("reward", "score")
        expected = [twelve_expected(g, int(a), reward) for g, a in zip(games, actions, strict=True)]
        obs, mask, player, rewards, terminated, truncated = vg.step(actions)
        for i, (exp_rewards, exp_term, _) in enumerate(expected):
            np.testing.assert_allclose(rewards[i], exp_rewards, err_msg=f"row {i}")
            assert terminated[i] == exp_term and not truncated[i]
            if exp_term:
                resets += 1
                games[i] = vg.game(i)
                assert games[i].captured == [0] * games[i].num_players
            g = games[i]
            assert player[i] == g.current_player
            np.testing.assert_array_equal(mask[i], g.legal_mask())
            np.testing.assert_array_equal(obs[i], observation_of(g, twelve_obs, size))
    assert resets > 0


def test_row_zero_is_the_game_with_the_same_seed_and_every_row_is_reproducible():
    a, b = SniffVector(64, num_players=3, seed=99), SniffVector(64, num_players=3, seed=99)
    np.testing.assert_array_equal(a.states[0], SniffGame(num_players=3, seed=99).state_array)
    for _ in range(200):
        act = a.sample_actions()
        np.testing.assert_array_equal(act, b.sample_actions())
        a.step(act)
        b.step(act)
    np.testing.assert_array_equal(a.states, b.states)
    assert len({a.states[i, SK.HAND].item() for i in range(64)}) > 1, "rows must differ"
    t = TwelveVector(3, num_players=4, seed=7)
    np.testing.assert_array_equal(t.states[0], TwelveGame(num_players=4, seed=7).state_array)
    t.reset(seed=8)
    np.testing.assert_array_equal(t.states[0], TwelveGame(num_players=4, seed=8).state_array)


def test_illegal_action_raises_and_changes_nothing():
    vg = SniffVector(4, num_players=2, seed=1)
    before = vg.states.copy(), vg.obs.copy(), vg.mask.copy()
    actions = vg.sample_actions().copy()
    illegal = int(np.flatnonzero(~vg.mask[2])[0])
    actions[2] = illegal
    with pytest.raises(ValueError, match=r"illegal in game 2.*legal there: \["):
        vg.step(actions)
    for x, y in zip(before, (vg.states, vg.obs, vg.mask), strict=True):
        np.testing.assert_array_equal(x, y)
    with pytest.raises(ValueError, match="shape"):
        vg.step(actions[:3])
    with pytest.raises(ValueError, match="illegal"):
        vg.step(np.full(4, 500))


def test_bad_options_are_rejected():
    with pytest.raises(ValueError, match="num_envs"):
        SniffVector(0)
    with pytest.raises(ValueError, match="forced"):
        SniffVector(2, forced="sometimes")
    with pytest.raises(ValueError, match="deck"):
        TwelveVector(2, deck="tarot")


def test_state_fits_in_a_kilobyte_per_game():
    assert SniffVector(1).bytes_per_game <= 1024
    assert TwelveVector(1).bytes_per_game <= 1024


def test_random_playouts_are_legal_and_finish_games():
    sniff_playouts, twelve_playouts = SniffVector.random_playouts, TwelveVector.random_playouts

    vg = SniffVector(8, num_players=4, seed=3)
    states, params = vg.states.copy(), vg.params.copy()  # the VectorGame's rows are read-only
    assert sniff_playouts(states, params, 3000) > 0
    for i in range(8):  # every row is still a consistent position: 28 tiles accounted for
        g = SniffGame.from_state(states[i], params)
        held = sum(len(g.hand(s)) for s in range(4))
        assert held + g.boneyard_size + len(g.describe()["tiles"]) == 28
    tv = TwelveVector(8, num_players=3, seed=3)
    assert twelve_playouts(tv.states.copy(), tv.params.copy(), 500) > 0


@pytest.mark.parametrize("cls", [SniffVector, TwelveVector], ids=["sniff", "twelve"])
def test_thread_count_changes_no_result(cls):
    """The same seed plays the same games on one thread, two, or numba's setting."""
    runs = []
    for threads in (1, 2, None):
        vg = cls(64, seed=5, threads=threads)
        trace = [vg.agent_actions("greedy").copy(), vg.action_features().copy(), vg.seat_observations()]
        for _ in range(60):
            obs, mask, player, rewards, terminated, truncated = vg.step(vg.sample_actions())
            trace += [obs.copy(), mask.copy(), player.copy(), rewards.copy(), terminated.copy(), truncated.copy()]
        runs.append(trace)
    for other in runs[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(runs[0], other, strict=True))


def test_calls_leave_numbas_thread_count_as_they_found_it():
    """``threads=1`` holds for the object's own calls only; the default (``None``) keeps
    numba's setting, whatever it is."""
    before = numba.get_num_threads()
    one, default = SniffVector(4, seed=0, threads=1), SniffVector(4, seed=0)
    one.step(one.sample_actions())
    one.reset(seed=1)
    assert numba.get_num_threads() == before
    numba.set_num_threads(1)
    try:
        default.step(default.sample_actions())
        assert numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("threads", [0, -1, 10**6])
def test_bad_thread_counts_are_rejected_naming_what_is_allowed(threads):
    with pytest.raises(ValueError, match=r"threads must be None .* or an int from 1 to"):
        SniffVector(4, seed=0, threads=threads)


_SPIN_SCRIPT = """
import os, sys
import numba
from sniff_env import VectorGame
{before}
vg = VectorGame(8, seed=0)
vg.step(vg.sample_actions())
print(numba.threading_layer(), os.environ.get("GOMP_SPINCOUNT"), os.environ.get("OMP_WAIT_POLICY"))
"""


@pytest.mark.parametrize(
    ("env", "before", "shown"),
    [
        ({}, "", "GOMP_SPINCOUNT = '1000'"),  # the drivers' short spin
        ({"GOMP_SPINCOUNT": "77"}, "", "GOMP_SPINCOUNT = '77'"),  # the user's setting wins
        ({"OMP_WAIT_POLICY": "passive"}, "", "OMP_WAIT_POLICY = 'PASSIVE'"),
        ({}, "numba.get_num_threads()", "GOMP_SPINCOUNT = '300000'"),  # started before: left alone
    ],
    ids=["library", "user-spin", "user-policy", "started-before"],
)
def test_openmp_threads_wait_briefly_unless_told_otherwise(env, before, shown):
    """``start_threads``: numba's libgomp is loaded spinning ``SPIN_COUNT`` turns before a waiting
    thread sleeps (libgomp prints what it read, ``OMP_DISPLAY_ENV``), the process's environment is
    left as it was, and a setting of the user's — or threads started by other code — rule."""
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    done = subprocess.run(
        [sys.executable, "-c", _SPIN_SCRIPT.format(before=before)],
        env={**clean, **env, "OMP_DISPLAY_ENV": "verbose", "NUMBA_THREADING_LAYER": "omp"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown in done.stderr
    layer, spin, policy = done.stdout.split()
    assert layer == "omp"
    assert (spin, policy) == (env.get("GOMP_SPINCOUNT", "None"), env.get("OMP_WAIT_POLICY", "None"))
