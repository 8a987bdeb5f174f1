"""The AIVAT margin (``sniff_twelve.tools.evaluation``): exact on positions small enough to
enumerate, unbiased in play (a biased variant is caught), and agreeing with the raw margin."""

from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys

import numpy as np
import pytest

from sniff_env import Game as SniffGame
from sniff_env.agents import PpoAgent
from sniff_env.agents import arena_table as sniff_table
from sniff_env.agents import make_agent as sniff_agent
from sniff_env.tiles import DRAW
from sniff_twelve.agents.builtin import RandomAgent
from sniff_twelve.tools import arena, evaluation
from twelve_env.agents import arena_table as twelve_table

TABLE = sniff_table(2, max_hands=1)
#: a small hand: four tiles each, six in the boneyard (the rest out of play), seat 0 to open
SMALL = {
    "hands": [[(6, 6), (1, 2), (0, 3), (2, 5)], [(5, 5), (0, 1), (3, 4), (1, 6)]],
    "boneyard": [(4, 4), (0, 0), (2, 2), (1, 4), (3, 6), (0, 5)],
    "opener": 0,
}


def _game(deal: dict) -> SniffGame:
    return SniffGame(num_players=2, seed=0, deal=deal, max_hands=1)


def _before_draw(left: int = 4) -> SniffGame:
    """A position of SMALL where the seat to act can only draw, with ``left`` tiles left."""
    game = _game(SMALL)
    while game.legal_actions() != [DRAW] or game.boneyard_size != left:
        game.apply(game.legal_actions()[0])
    return game


def test_the_chance_correction_is_the_mean_over_every_order_of_the_pile():
    game = _before_draw()
    v = evaluation.Values(TABLE, orders=2)
    pre = game.state_array.copy()
    spec, head = TABLE.spec, int(pre[TABLE.spec.POOL_HEAD])
    pile = pre[spec.POOL + head : spec.POOL + head + 4].copy()
    after = {}
    for order in itertools.permutations(pile):  # every order of the pile, each as likely
        trial = pre.copy()
        trial[spec.POOL + head : spec.POOL + head + 4] = order
        child = SniffGame.from_state(trial, game._params)
        child.apply(DRAW)
        after.setdefault(order[0], []).append(v(child.state_array, game._params, 0))
    # v after the draw depends on which tile was drawn, never on the order of the rest
    assert all(len(set(values)) == 1 for values in after.values())
    assert len({values[0] for values in after.values()}) > 1  # the draw matters here
    expected = np.mean([x for values in after.values() for x in values]) - after[pile[0]][0]
    assert evaluation.chance_correction(v, game, pre, DRAW, evaluation.weighted_mean) == pytest.approx(expected)


def test_a_value_that_reads_the_true_order_is_caught(monkeypatch):
    monkeypatch.setattr(evaluation, "canonical", lambda spec, state, order=0: np.array(state, copy=True))
    game = _before_draw(left=6)
    v = evaluation.Values(TABLE, orders=1)
    pre = game.state_array.copy()
    spec, head = TABLE.spec, int(pre[TABLE.spec.POOL_HEAD])
    values = set()
    for order in itertools.permutations(pre[spec.POOL + head + 1 : spec.POOL + head + 6]):
        trial = pre.copy()
        trial[spec.POOL + head + 1 : spec.POOL + head + 6] = order  # the same tile drawn, the rest reordered
        child = SniffGame.from_state(trial, game._params)
        child.apply(DRAW)
        values.add(v(child.state_array, game._params, 0))
    assert len(values) > 1  # what the test above requires to be one value


def test_only_agents_that_draw_from_their_probabilities_get_action_corrections():
    assert evaluation.known_policy(sniff_agent("random"))
    assert not evaluation.known_policy(sniff_agent("greedy"))  # deterministic: no correction needed
    assert not evaluation.known_policy(sniff_agent("rollout:4"))  # random inside, distribution unknown
    assert evaluation.known_policy(PpoAgent(sample=True)) and not evaluation.known_policy(PpoAgent())


@pytest.mark.parametrize("make", [lambda: RandomAgent(0), lambda: PpoAgent(sample=True, seed=0)], ids=["random", "ppo"])
def test_agents_with_known_policies_play_exactly_their_probabilities(make):
    game = SniffGame(num_players=2, seed=3)
    while len(game.legal_actions()) < 3:
        game.apply(game.legal_actions()[0])
    agent = make()
    probabilities = agent.probabilities(game.seat_view())
    counts = np.bincount([agent.act(game) for _ in range(3000)], minlength=len(probabilities))
    expected = probabilities * 3000
    legal = probabilities > 0.01
    assert counts[probabilities == 0].sum() == 0
    chi2 = (((counts - expected) ** 2)[legal] / expected[legal]).sum()
    assert chi2 < 25  # at most a handful of degrees of freedom: p < 0.001 beyond


def _sampled_corrections(expectation, samples: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """From SMALL with the boneyard shuffled afresh each time: greedy (seat 0) against random,
    each game's raw margin and its corrections' sum (seat 0's side)."""
    rng = random.Random(7)
    raw, corrections = [], []
    greedy, rand = sniff_agent("greedy"), sniff_agent("random")
    for i in range(samples):
        deal = {**SMALL, "boneyard": rng.sample(SMALL["boneyard"], len(SMALL["boneyard"]))}
        game = _game(deal)
        rand.reset(i)
        while not game.is_terminal():
            game.apply((greedy if game.current_player == 0 else rand).act(game))
        record = {**game.to_record(), "agents": {"0": "greedy", "1": "random"}}
        raw.append(game.scores[0] - game.scores[1])
        corrections.append(sum(evaluation.aivat_corrections(TABLE, record, expectation=expectation, orders=1)))
    return np.array(raw, dtype=float), np.array(corrections)


def _z(x: np.ndarray) -> float:
    return abs(x.mean()) / (x.std(ddof=1) / np.sqrt(len(x)))


def test_corrections_have_mean_zero_and_reduce_the_variance_from_one_deal():
    raw, corrections = _sampled_corrections(evaluation.weighted_mean)
    assert _z(corrections) < 3.5
    assert np.var(raw + corrections) < np.var(raw)  # from one deal all the variance is luck (measured: 1.3x less)


@pytest.mark.parametrize(
    "biased",
    [lambda values, p: 0.0, lambda values, p: float(np.max(values))],
    ids=["drops the expectation", "takes the best outcome as expected"],
)
def test_a_biased_correction_fails_the_same_check(biased):
    _, corrections = _sampled_corrections(biased)
    assert _z(corrections) > 3.5


def test_corrected_and_raw_margins_agree_over_paired_deals():
    result = arena.run(TABLE, ["greedy", "random"], 24, seed=31, progress=False, estimator="aivat")
    games = result["games"]
    assert all("margin_aivat" in game for game in games)
    slots = [slot for slot, _ in arena.schedule(TABLE, ["greedy", "random"], 24, 31)]
    slotted = list(zip(slots, games, strict=True))
    raw = np.array(arena.paired_margins(slotted, "margin")[((0, 1), 0)])
    corrected = np.array(arena.paired_margins(slotted, "margin_aivat")[((0, 1), 0)])
    difference = raw - corrected
    assert abs(difference.mean()) < 3.5 * difference.std(ddof=1) / np.sqrt(len(difference))
    entry = next(row for row in result["entries"] if row["entry"] == "greedy")
    assert entry["margin_aivat"] == pytest.approx(corrected.mean())


def test_self_play_is_centred_on_zero():
    class Shifted(RandomAgent):  # the same policy on another stream
        def reset(self, seed=None):
            super().reset(None if seed is None else seed + 1)

    result = arena.run(TABLE, [RandomAgent(), Shifted()], 16, seed=5, progress=False, estimator="aivat")
    for row in result["entries"]:
        assert abs(row["margin_aivat"]) < row["margin_aivat_ci95"] * 1.8


def test_aivat_needs_two_sides():
    with pytest.raises(ValueError, match="two sides"):
        arena.run(twelve_table(3), ["greedy", "random", "heuristic"], 1, estimator="aivat", progress=False)
    with pytest.raises(ValueError, match="estimator must be one of"):
        arena.run(TABLE, ["greedy", "random"], 1, estimator="magic", progress=False)


def test_twelve_arena_command_reports_both_margins(tmp_path):
    out = tmp_path / "a.json"
    argv = ["arena", "--agents", "greedy", "random", "--players", "2", "--deals", "3", "--estimator", "aivat"]
    done = subprocess.run(
        [sys.executable, "-m", "twelve_env", *argv, "--workers", "1", "--no-progress", "--json", out],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "AIVAT margin ± 95% CI" in done.stdout
    result = json.loads(out.read_text())
    for row in [*result["entries"], *result["matchups"]]:
        assert math.isfinite(row["margin_aivat"]) and math.isfinite(row["margin_aivat_ci95"])
    greedy = next(row for row in result["entries"] if row["entry"] == "greedy")
    own = [game["margin_aivat"][game["seating"].index("greedy")] for game in result["games"]]
    assert greedy["margin_aivat"] == pytest.approx(np.mean(own))  # both seatings of every deal, one hand each


def test_the_benchmark_compares_raw_and_corrected_margins(tmp_path, capsys):
    from benchmarks import evaluation as bench

    out = tmp_path / "m.json"
    bench.main(
        ["sniff", "4", "greedy", "heuristic", "--deals", "3", "--seed", "1", "--max-hands", "1", "--json", str(out)]
    )
    result = json.loads(out.read_text())
    assert result["hands"] == 6 and result["num_players"] == 4 and result["options"] == {"max_hands": 1}
    assert result["difference"] == pytest.approx(result["margin"] - result["margin_aivat"])
    assert result["variance_reduction"] > 0
