"""The arena's luck/skill decomposition (``sniff_twelve.tools.arena.luck_skill``): how much of a match-up's
outcome variance the deal explains. Expected values are worked out by hand in each test."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sniff_env.agents import arena_table as sniff_table
from sniff_twelve.tools.arena import Slot, luck_skill, play_tasks, run, schedule, summarize
from sniff_twelve.tools.report import arena_text
from twelve_env.agents import arena_table as twelve_table


def seat0(rows: list[list[float]]) -> np.ndarray:
    """``outcomes[d, k, s]`` of a zero-sum 2-seat table from seat 0's outcome per deal and replay."""
    y = np.array(rows, dtype=float)
    return np.stack([y, 1 - y], axis=-1)


def test_the_deal_decides_everything():
    # seat 0 wins deals 0 and 1 and loses deals 2 and 3, whoever sits there:
    # deal means 1, 1, 0, 0, grand mean 1/2; MSB = 2 * 4 * (1/2)^2 / 3 = 2/3; MSW = 0
    # σ²_deal = (2/3 - 0) / 2 = 1/3, share 1
    d = luck_skill(seat0([[1, 1], [1, 1], [0, 0], [0, 0]]))
    assert d["deal_share"] == pytest.approx(1.0)
    assert d["deal_variance"] == pytest.approx(1 / 3)
    assert d["within_variance"] == pytest.approx(0.0)
    assert d["deals"] == 4


def test_the_policy_decides_everything():
    # the entry in seat 0 in the first replay wins both: seat 0 scores 1 then 0 on every deal;
    # deal means all 1/2, MSB = 0; MSW = 4 * (1/4 + 1/4) / (4 * 1) = 1/2; σ²_deal = max(0, -1/4) = 0
    d = luck_skill(seat0([[1, 0]] * 4))
    assert d["deal_share"] == 0.0
    assert d["deal_variance"] == 0.0
    assert d["within_variance"] == pytest.approx(0.5)


def test_half_and_half():
    # deal means 1, 1/2, 0, grand 1/2: MSB = 2 * (1/4 + 0 + 1/4) / 2 = 1/2
    # MSW = (0 + (1/4 + 1/4) + 0) / (3 * 1) = 1/6; σ²_deal = (1/2 - 1/6) / 2 = 1/6; share 1/2
    d = luck_skill(seat0([[1, 1], [1, 0], [0, 0]]))
    assert d["deal_share"] == pytest.approx(0.5)
    assert d["deal_variance"] == pytest.approx(1 / 6)
    assert d["within_variance"] == pytest.approx(1 / 6)


def test_three_replays_and_seats_averaged():
    # one seat, three replays (a rotated 3-seat line-up): deal means 1/2 and 1, grand 3/4
    # MSB = 3 * (1/16 + 1/16) / 1 = 3/8; MSW = ((1/4 + 0 + 1/4) + 0) / (2 * 2) = 1/8
    # σ²_deal = (3/8 - 1/8) / 3 = 1/12; share = (1/12) / (1/12 + 1/8) = 2/5
    one = np.array([[1, 0.5, 0], [1, 1, 1]], dtype=float)[:, :, None]
    assert luck_skill(one)["deal_share"] == pytest.approx(0.4)
    # seat 1: [[0, 1, 0.5], [0.5, 0.5, 0.5]]: deal means 1/2, 1/2: MSB = 0;
    # MSW = ((1/4 + 1/4 + 0) + 0) / 4 = 1/8. Averaged: MSB = 3/16, MSW = 1/8
    # σ²_deal = (3/16 - 2/16) / 3 = 1/48; share = (1/48) / (1/48 + 6/48) = 1/7
    two = np.stack([one[:, :, 0], np.array([[0, 1, 0.5], [0.5, 0.5, 0.5]])], axis=-1)
    d = luck_skill(two)
    assert d["deal_share"] == pytest.approx(1 / 7)
    assert d["within_variance"] == pytest.approx(1 / 8)


def test_pure_noise_reads_about_zero_where_the_raw_sum_of_squares_reads_half():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, (4000, 2)).astype(float)  # fair coins, nothing shared by a deal's replays
    assert luck_skill(seat0(y.tolist()))["deal_share"] < 0.05
    between = 2 * ((y.mean(1) - y.mean()) ** 2).sum()
    assert between / ((y - y.mean()) ** 2).sum() == pytest.approx(0.5, abs=0.02)


@pytest.mark.parametrize(
    "rows",
    [
        [[1, 0]],  # one deal: no between-deal variance to estimate
        [[0.5, 0.5], [0.5, 0.5]],  # every game a tie: no variance at all
    ],
)
def test_undefined_is_nan(rows):
    assert math.isnan(luck_skill(seat0(rows))["deal_share"])


def fake_results(seat0_outcomes: list[list[float]]) -> list[tuple[Slot, dict]]:
    """A 2-player duplicate match-up of entries 0 and 1: replay 0 seats entry 0 in seat 0, replay
    1 seats entry 1 there; ``seat0_outcomes[d][k]`` is seat 0's outcome."""
    slotted = []
    for d, replays in enumerate(seat0_outcomes):
        for k, o in enumerate(replays):
            slot = Slot((0, 1), (0, 1) if k == 0 else (1, 0))
            result = {"outcome": [o, 1 - o], "points": [o, 1 - o], "hands": 1, "opener": 0, "seed": 100 + d}
            slotted.append((slot, result))
    return slotted


def test_summarize_reads_the_outcome_from_the_seat_not_the_entry():
    # seat 0 wins every game: entry 0 wins deal 0's first replay, entry 1 its second — luck only
    same_seat = summarize(["a", "b"], fake_results([[1, 1], [0, 0], [1, 1]]))
    for row in same_seat["matchups"]:
        assert row["score"] == 0.5
        assert row["deal_share"] == pytest.approx(1.0)
    # entry 0 wins every game, from either seat: skill only
    same_entry = summarize(["a", "b"], fake_results([[1, 0], [1, 0], [1, 0]]))
    scores = {row["entry"]: row["score"] for row in same_entry["matchups"]}
    assert scores == {"a": 1.0, "b": 0.0}
    assert all(row["deal_share"] == 0.0 for row in same_entry["matchups"])


def test_summarize_leaves_out_a_deal_cut_short():
    slotted = fake_results([[1, 1], [1, 0], [0, 0], [1, 1]])[:-1]  # the last deal lost its second replay
    rows = summarize(["a", "b"], slotted)["matchups"]
    assert rows[0]["deal_share"] == pytest.approx(0.5)  # the three complete deals of test_half_and_half
    assert rows[0]["deal_variance"] == pytest.approx(1 / 6)


def shares(result: dict) -> dict[tuple[str, str], float]:
    return {(row["entry"], *row["against"]): row["deal_share"] for row in result["matchups"]}


def test_real_twelve_arena_luck_and_skill():
    result = run(twelve_table(2), ["random", "greedy", "heuristic"], deals=100, seed=5, progress=False)
    share = shares(result)
    assert share["greedy", "heuristic"] == share["heuristic", "greedy"] > 0.7  # the cards decide
    assert share["random", "greedy"] < 0.1 and share["random", "heuristic"] < 0.1  # the agents do
    text = arena_text(result)
    assert "| score ± 95% CI | margin/hand ± 95% CI | deal share | deals |" in text
    row = next(r for r in result["matchups"] if (r["entry"], *r["against"]) == ("greedy", "heuristic"))
    margin = f"{row['margin']:+.2f} ± {row['margin_ci95']:.2f}"
    assert (
        f"| greedy | heuristic | {row['score']:.3f} ± {row['ci95']:.3f} | {margin} | {row['deal_share']:.2f} | 100 |"
        in text
    )
    json.loads(json.dumps(result))
    for row in result["matchups"]:  # the keys the arena always had are still there
        assert {"entry", "against", "deals", "score", "ci95"} <= set(row)


def test_real_random_against_itself_is_all_deal():
    # both seats' random streams follow the deal and the seat, so both replays are the same game
    table = twelve_table(2)
    scheduled = schedule(table, ["random", "random"], deals=30, seed=3)
    results = play_tasks([task for _, task in scheduled], progress=False)
    summary = summarize(["random", "random"], [(slot, r) for (slot, _), r in zip(scheduled, results, strict=True)])
    assert summary["matchups"][0]["deal_share"] == pytest.approx(1.0)


@pytest.mark.parametrize("players", [2, 4])
def test_real_sniff_arena_reports_the_share(players):
    result = run(sniff_table(players), ["random", "greedy"], deals=6, seed=5, progress=False)
    assert all(0.0 <= row["deal_share"] <= 0.2 for row in result["matchups"])
    assert "deal share" in arena_text(result)


def test_real_free_for_all_arena_reports_the_share():
    result = run(twelve_table(3), ["random", "greedy", "heuristic"], deals=20, seed=5, progress=False)
    (row,) = [r for r in result["matchups"] if r["entry"] == "random"]
    assert 0.0 <= row["deal_share"] <= 1.0
    assert row["deal_variance"] >= 0.0 and row["within_variance"] > 0.0
