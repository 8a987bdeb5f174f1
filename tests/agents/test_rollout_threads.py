"""``threads=`` on the rollout searches (``rollout``, ``guided``, ``belief``): one thread or two,
the same rollout values bit for bit and the same choices, on both games; the same seed, the same
moves; a bad count is a ``ValueError``."""

from __future__ import annotations

import numba as nb
import numpy as np
import pytest

import sniff_env
import sniff_env.agents as sniff_agents
import twelve_env
import twelve_env.agents as twelve_agents
from sniff_twelve.batch.mlp import MlpPolicy

GAMES = {"sniff": (sniff_env.Game, sniff_agents, 4), "twelve": (twelve_env.Game, twelve_agents, 2)}
SEARCHES = ["rollout", "guided", "belief"]


def positions(name: str, count: int) -> list:
    """Positions of ``greedy`` self-play with at least two legal moves, a few from each game."""
    game_cls, agents, players = GAMES[name]
    greedy, out = agents.make_agent("greedy"), []
    for seed in range(100):
        game, step = game_cls(num_players=players, seed=seed), 0
        while not game.is_terminal() and len(out) < count:
            if len(game.legal_actions()) >= 2 and step % 3 == 0:
                out.append(game.clone())
            game.apply(greedy.act(game))
            step += 1
        if len(out) == count:
            return out
    raise AssertionError("not enough positions")


@pytest.fixture(scope="module")
def twelve_policy(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small random policy for "12", near uniform (the game ships none) to guide its search."""
    rng = np.random.default_rng(0)
    game = twelve_env.Game(seed=0)
    sizes = (game.observation().size, game.legal_mask().size)
    weights = {
        "w0": 0.1 * rng.normal(size=(sizes[0], 16)).astype(np.float32),
        "b0": np.zeros(16, np.float32),
        "policy_w": 0.01 * rng.normal(size=(16, sizes[1])).astype(np.float32),
        "policy_b": np.zeros(sizes[1], np.float32),
        "value_w": np.zeros((16, 1), np.float32),
        "value_b": np.zeros(1, np.float32),
    }
    meta = {"game": "twelve", "num_players": 2, "obs_size": sizes[0], "num_actions": sizes[1]}
    path = tmp_path_factory.mktemp("policy") / "twelve.npz"
    MlpPolicy(weights, meta).save(path)
    return str(path)


def search(name: str, kind: str, checkpoint: str, **kwargs):
    agents = GAMES[name][1]
    if kind == "rollout":
        return agents.make_agent("rollout:16", **kwargs)
    if kind == "guided":  # every move kept (up to 3), so the rollouts score several
        extra = {"checkpoint": checkpoint} if name == "twelve" else {}
        return agents.AGENTS["guided"](iterations=16, coverage=1.0, **extra, **kwargs)
    return agents.make_agent("belief:16:greedy", worlds=16, **kwargs)


def values(agent, view) -> tuple[np.ndarray, np.ndarray]:
    """The moves the agent scores and their rollout values (guided: with the prior's bonus)."""
    if hasattr(agent, "scores"):
        return agent.scores(view)
    legal = np.flatnonzero(view.legal_mask())
    return legal, agent.rollout_means(view, legal)


@pytest.mark.parametrize("kind", SEARCHES)
@pytest.mark.parametrize("name", GAMES)
def test_one_thread_or_two_give_the_same_values_and_choices(name: str, kind: str, twelve_policy: str) -> None:
    one, two = (search(name, kind, twelve_policy, seed=4, threads=t) for t in (1, 2))
    searched = 0
    for game in positions(name, 24):
        view = game.seat_view(past=True)
        (moves1, v1), (moves2, v2) = values(one, view), values(two, view)
        assert np.array_equal(moves1, moves2) and np.array_equal(v1, v2), (name, kind)
        assert one.act(game) == two.act(game)
        searched += moves1.size > 1
    assert searched >= 12


@pytest.mark.parametrize("kind", SEARCHES)
def test_the_same_seed_gives_the_same_moves(kind: str, twelve_policy: str) -> None:
    games = positions("twelve", 16)
    first, again, other = (search("twelve", kind, twelve_policy, seed=s) for s in (9, 9, 10))
    moves = [first.act(game) for game in games]
    assert moves == [again.act(game) for game in games]
    again.reset(9)
    assert moves == [again.act(game) for game in games]
    legal = np.flatnonzero(games[0].seat_view(past=True).legal_mask())
    assert not np.array_equal(first.rollout_means(games[0].seat_view(past=True), legal),
                              other.rollout_means(games[0].seat_view(past=True), legal))  # fmt: skip


@pytest.mark.parametrize("kind", SEARCHES)
@pytest.mark.parametrize("threads", [0, -1, nb.config.NUMBA_NUM_THREADS + 1, 1.5, "2"])
def test_a_bad_thread_count_is_refused(kind: str, threads, twelve_policy: str) -> None:
    with pytest.raises(ValueError, match="threads"):
        search("twelve", kind, twelve_policy, threads=threads)
