"""Margins a hand, paired by deal: what ``arena.play`` records and what the summaries report."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sniff_env import Game as SniffGame
from sniff_env.agents import arena_table as sniff_table
from sniff_twelve.tools import arena, crossplay
from sniff_twelve.tools.report import arena_text
from twelve_env import Game as TwelveGame
from twelve_env.agents import arena_table as twelve_table


def test_sniff_hand_points_add_up_to_the_match_and_margin_is_side_minus_side():
    table = sniff_table(4, target=100)
    result = arena.play(arena.GameTask(table, ("greedy", "random", "heuristic", "random"), seed=11, record=True))
    game = SniffGame.from_record(result["record"])
    assert result["finished"] and game.winner is not None
    assert len(result["hand_points"]) == result["hands"] > 1
    totals = np.sum(result["hand_points"], axis=0)
    assert totals.tolist() == [game.scores[s % 2] for s in range(4)]
    per_hand = (game.scores[0] - game.scores[1]) / result["hands"]
    assert result["margin"] == pytest.approx([per_hand, -per_hand, per_hand, -per_hand])


def test_twelve_margin_is_the_seat_score_minus_the_others_mean():
    result = arena.play(arena.GameTask(twelve_table(3), ("greedy", "random", "heuristic"), seed=4, record=True))
    scores = TwelveGame.from_record(result["record"]).scores
    assert result["hand_points"] == [[float(x + 5) for x in scores]]  # the change from -5: five cards dealt (T5, T15)
    expected = [scores[s] - (sum(scores) - scores[s]) / 2 for s in range(3)]
    assert result["margin"] == pytest.approx(expected)


def _slot(seats):
    return arena.Slot((0, 1), tuple(seats))


def test_margin_is_paired_by_deal_with_its_interval_over_deals():
    # two deals, each from both sides: entry 0's paired values are (4 + 2) / 2 = 3 and (-1 + 3) / 2 = 1
    games = [
        (_slot((0, 1)), {"seed": 1, "margin": [4.0, -4.0], "outcome": [1, 0], "points": [4, 0], "hands": 1}),
        (_slot((1, 0)), {"seed": 1, "margin": [-2.0, 2.0], "outcome": [0, 1], "points": [0, 2], "hands": 1}),
        (_slot((0, 1)), {"seed": 2, "margin": [-1.0, 1.0], "outcome": [0, 1], "points": [0, 1], "hands": 1}),
        (_slot((1, 0)), {"seed": 2, "margin": [-3.0, 3.0], "outcome": [0, 1], "points": [0, 3], "hands": 1}),
    ]
    for game in games:
        game[1]["opener"] = 0
    summary = arena.summarize(["a", "b"], games)
    a = next(row for row in summary["entries"] if row["entry"] == "a")
    assert a["margin"] == pytest.approx(2.0)
    assert a["margin_ci95"] == pytest.approx(1.96 * math.sqrt(2.0) / math.sqrt(2))
    b = next(row for row in summary["matchups"] if row["entry"] == "b")
    assert b["margin"] == pytest.approx(-2.0)
    assert "margin_aivat" not in a


def test_a_run_where_no_match_finished_says_so():
    result = arena.run(sniff_table(2, max_hands=1), ["greedy", "random"], 3, seed=2, progress=False)
    assert result["games_finished"] == 0
    text = arena_text(result)
    assert "0.500 ± 0.000 |" not in text.split("first opener")[0]
    assert text.count("no match finished") == 4 + 1  # two entries, two match-ups, and the note
    greedy = next(row for row in result["entries"] if row["entry"] == "greedy")
    assert greedy["margin"] != 0 and math.isfinite(greedy["margin_ci95"])


def test_crossplay_reports_margins_of_the_matrix_shape():
    result = crossplay.run(sniff_table(4, max_hands=1), ["greedy", "random"], "greedy", 2, seed=1, progress=False)
    assert len(result["margin"]) == len(result["margin_ci95"]) == 2
    assert all(cell is not None for row in result["margin"] for cell in row)
    assert "margin_aivat" not in result
