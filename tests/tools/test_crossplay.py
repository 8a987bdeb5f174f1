"""Cross-play of partners (``sniff_twelve.tools.crossplay``, ``python -m sniff_env crossplay``): the schedule
seats every ordered pair on the same duplicate deals, the matrix and the gap are what they claim,
bad arguments fail in one line before any game, and an interrupted run keeps what it played."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from sniff_env.__main__ import main
from sniff_env.agents import arena_table
from sniff_twelve.tools import crossplay
from tests.bounds import usage_error
from twelve_env.agents import arena_table as twelve_table

ROOT = Path(__file__).resolve().parents[2]
SNIFF4 = arena_table(4)


def test_the_schedule_seats_every_ordered_pair_on_the_same_deals_from_both_sides():
    agents, deals = ["random", "greedy", "heuristic"], 3
    scheduled = crossplay.schedule(SNIFF4, agents, "greedy", deals, seed=5)
    assert len(scheduled) == len(agents) ** 2 * deals * 2
    seeds_by_cell: dict[tuple[str, ...], Counter] = {}
    for slot, task in scheduled:
        pair, opponents = slot.matchup
        assert opponents == len(agents) ** 2  # the fixed opponents are the last entry
        i, j = divmod(pair, len(agents))
        side = 0 if slot.entry_of_seat[0] == pair else 1
        assert slot.entry_of_seat[side] == slot.entry_of_seat[side + 2] == pair
        assert task.seating[side] == agents[i] and task.seating[side + 2] == agents[j]  # i first, j its partner
        assert task.seating[1 - side] == task.seating[3 - side] == "greedy"
        seeds_by_cell.setdefault((agents[i], agents[j]), Counter())[(task.seed, side)] += 1
    assert len(seeds_by_cell) == 9  # every ordered pair, the diagonal included
    first = next(iter(seeds_by_cell.values()))
    assert len(first) == 2 * deals and set(first.values()) == {1}
    assert all(counter == first for counter in seeds_by_cell.values())  # same deals, each from both sides
    assert [task.seed for _, task in scheduled] == sorted(task.seed for _, task in scheduled)  # deal by deal


def test_greedy_partners_beat_random_partners_and_the_gap_is_diagonal_minus_off_diagonal():
    result = crossplay.run(SNIFF4, ["random", "greedy"], "greedy", deals=4, progress=False)
    matrix = result["matrix"]
    assert len(matrix) == len(result["ci95"]) == 2 and all(len(row) == 2 for row in matrix + result["ci95"])
    assert matrix[1][1] > matrix[0][0]  # greedy+greedy beats random+random against greedy opponents
    assert matrix[1][1] == 0.5  # the opponents' own partnership, deal for deal: exactly even
    assert matrix[0][0] == 0.0
    assert result["self_play_mean"] == pytest.approx((matrix[0][0] + matrix[1][1]) / 2)
    assert result["cross_play_mean"] == pytest.approx((matrix[0][1] + matrix[1][0]) / 2)
    assert result["gap"] == pytest.approx(result["self_play_mean"] - result["cross_play_mean"])
    assert result["paired_deals"] == 4 and not result["partial"]
    assert result["cell_deals"] == [[4, 4], [4, 4]]


def test_a_partial_run_summarises_the_cells_it_has():
    scheduled = crossplay.schedule(SNIFF4, ["random", "greedy"], "greedy", 3, seed=0)
    fake = [(slot, {"outcome": [1.0, 0.0, 1.0, 0.0], "seed": task.seed}) for slot, task in scheduled[:9]]
    summary = crossplay.summarize(["random", "greedy"], fake)
    assert summary["paired_deals"] == 1  # deal 0 is complete (8 games), deal 1 has one game
    assert summary["matrix"][0][0] == 0.75 and summary["cell_deals"][0][0] == 2
    assert summary["matrix"][1][1] == 0.5 and summary["cell_deals"][1][1] == 1
    assert summary["ci95"][1][1] is None  # one deal: no interval (and no NaN in the JSON)


def test_the_cli_runs_end_to_end_and_writes_json_and_a_heatmap(tmp_path, capsys):
    out_json, out_png = tmp_path / "cp.json", tmp_path / "cp.png"
    args = ["crossplay", "--agents", "random", "greedy", "heuristic", "--opponents", "greedy", "--deals", "2"]
    status = main([*args, "--workers", "1", "--seed", "3", "--json", str(out_json), "--plot", str(out_png)])
    assert status == 0
    result = json.loads(out_json.read_text())
    for key in ("agents", "matrix", "ci95", "self_play_mean", "cross_play_mean", "gap", "gap_ci95", "opponents"):
        assert key in result
    assert result["agents"] == ["random", "greedy", "heuristic"]
    assert (result["opponents"], result["deals"], result["seed"]) == ("greedy", 2, 3)
    assert len(result["matrix"]) == len(result["ci95"]) == 3 and all(len(r) == 3 for r in result["ci95"])
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    printed = capsys.readouterr().out
    assert "| heuristic |" in printed and "zero-shot-coordination gap" in printed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "greedy"], "at least two agents"),
        (["--agents", "greedy", "nobody"], "unknown agent 'nobody'"),
        (["--agents", "greedy", "heuristic", "--deals", "0"], "deals must be at least 1"),
        (["--agents", "greedy", "greedy"], "agents must differ"),
        (["--agents", "greedy", "heuristic", "--opponents", "nobody"], "unknown agent 'nobody'"),
        (["--agents", "greedy", "random+greedy"], "single agent specs"),
        (["--agents", "greedy", "heuristic", "--players", "2"], "needs a 4-player partnership table"),
        (["--agents", "greedy", "heuristic", "--players", "3"], "needs a 4-player partnership table"),
    ],
)
def test_bad_arguments_fail_in_one_line_before_any_game(args, message, capsys, monkeypatch):
    monkeypatch.setattr(crossplay.arena, "play_tasks", lambda *a, **k: pytest.fail("a game was played"))
    assert message in usage_error(capsys, main, ["crossplay", *args, "--workers", "1"])


def test_twelve_has_no_partnerships_to_cross_play():
    for players in (2, 3):
        with pytest.raises(ValueError, match="needs a 4-player partnership table"):
            crossplay.run(twelve_table(players), ["greedy", "heuristic"], "greedy", deals=1)


def test_an_interrupted_crossplay_writes_what_it_played_marked_partial(tmp_path):
    out, err, out_json = tmp_path / "stdout.txt", tmp_path / "stderr.txt", tmp_path / "cp.json"
    args = ["-m", "sniff_env", "crossplay", "--agents", "rollout:300", "greedy", "--deals", "200", "--workers", "1"]
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [sys.executable, *args, "--json", str(out_json)], cwd=ROOT, stdout=stdout, stderr=stderr
        )
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            done = [int(n) for n in re.findall(r"(\d+)/\d+ \[", err.read_text())]
            if done and max(done) >= 2:
                break
            time.sleep(0.2)
        assert process.poll() is None, err.read_text()[-500:]
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=60)
    assert status == 130, err.read_text()[-800:]
    result = json.loads(out_json.read_text())
    assert result["partial"] and 2 <= result["games_played"] < result["games_scheduled"] == 200 * 4 * 2
    assert "PARTIAL" in out.read_text() and "interrupted" in err.read_text() and "Traceback" not in err.read_text()
