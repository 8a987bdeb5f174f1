"""``analyze``: every decision of a record graded against the solver — a worked position whose loss
is known by hand, arena and web records through the CLI, a stop that keeps what was graded, and
bad input refused with one line."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sniff_env
import twelve_env
from sniff_env.solver import solve
from sniff_env.tiles import tile_index
from sniff_twelve.tools import analyze
from tests.tools.test_interrupts import interrupt_when

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"decisions", "hindsight_loss", "hindsight_loss_ci95", "expected_loss", "expected_loss_ci95", "optimal_share"}


def opening_record(tile: tuple[int, int]) -> dict:
    """The position of ``blunder_record`` with seat 0 opening ``tile``, then the first legal moves."""
    deal = {"hands": [[(5, 5), (0, 0)], [(0, 1), (1, 1)]], "boneyard": [], "opener": 0}
    game = sniff_env.Game(num_players=2, seed=0, deal=deal, episode="hand")
    game.apply(tile_index(tile) * 4)
    while not game.is_terminal():
        game.apply(game.legal_actions()[0])
    return {**game.to_record(), "agents": {"0": "alice", "1": "bob"}}


def blunder_record() -> dict:
    """S14, S17, S21–S24 (the position of ``test_solver``): opening [5|5] is worth +15 to seat 0,
    opening [0|0] −10; seat 0 opens [0|0], a loss of 25 whatever the world (every tile is seen:
    the two tiles seat 0 cannot see are seat 1's)."""
    return opening_record((0, 0))


def test_a_known_blunder_costs_its_points():
    record = blunder_record()
    result = analyze.analyze([record], sniff_env.Game, solve, lambda g: g.hands_played, worlds=3, progress=False)
    alice, bob = result["agents"]["alice"], result["agents"]["bob"]
    assert alice["decisions"] == 1 and alice["hindsight_loss"] == 25 and alice["expected_loss"] == 25
    assert alice["optimal_share"] == 0 and alice["costliest"][0]["best"] == ["[5|5] west"]
    assert bob["decisions"] == 1 and bob["hindsight_loss"] == 0 and bob["optimal_share"] == 1  # two mirror spots
    # after the blunder the play is forced or optimal: seat 1 goes out with no credit on the way
    # (S17: ends 0+1, then 0+2) and seat 0 is left holding [5|5], 10 pips deducted (S23–S24)
    assert result["deals"] == [{"record": 1, "deal": 1, "seat": 0, "par": 15, "result": -10}]  # numbered from 1
    assert set(alice) >= KEYS


def test_a_deals_first_position_is_solved_once_for_its_par_and_its_grade():
    """The blunder record has two decisions, seat 0's opening (the deal's first position) and seat
    1's reply; each is solved once in the true deal (its worlds are valued with the solver's
    rules, ``solve.hooks``), and the opening's true deal is the solve that gave the par: two
    solves, not three."""
    calls = []

    def counting_solve(game, **kwargs):
        calls.append(game.num_players)
        return solve(game, **kwargs)

    counting_solve.hooks = solve.hooks
    result = analyze.analyze(
        [blunder_record()], sniff_env.Game, counting_solve, lambda g: g.hands_played, worlds=3, progress=False
    )
    assert result["deals"][0]["par"] == 15 and result["agents"]["alice"]["hindsight_loss"] == 25
    assert result["agents"]["bob"]["decisions"] == 1
    assert len(calls) == 2


def test_the_thread_count_changes_no_grade():
    """Decisions are graded on threads at once; each is graded alike on one thread or two."""
    game = sniff_env.Game(num_players=4, seed=3, max_hands=1)
    while not game.is_terminal():
        game.apply(game.legal_actions()[-1])
    record = {**game.to_record(), "agents": {str(s): f"seat {s}" for s in range(4)}}
    one, two = (
        analyze.analyze([record], sniff_env.Game, solve, lambda g: g.hands_played, worlds=2, progress=False, threads=t)
        for t in (1, 2)
    )
    assert one == two and sum(row["decisions"] for row in one["agents"].values()) > 10
    with pytest.raises(ValueError, match="threads"):
        analyze.analyze([record], sniff_env.Game, solve, lambda g: g.hands_played, progress=False, threads=0)


def test_par_r2_is_the_squared_correlation():
    deals = [{"par": p, "result": r} for p, r in ((0, 1), (10, 9), (20, 23), (30, 29))]
    assert analyze.par_r2(deals) == pytest.approx(490**2 / (500 * 491))  # cov 490, variances 500 and 491
    assert analyze.par_r2([*deals[:2], {"par": None, "result": 3}]) is None  # too few with both


def test_records_decisions_moves_and_deals_count_from_1_as_replay_does(tmp_path):
    """Record N is the N-th line of the file (``replay --game N``); decision N and move N of a
    record are its N-th decision and N-th action; the first hand is deal 1."""
    sound, blunder = opening_record((5, 5)), blunder_record()
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(r) + "\n" for r in (sound, blunder)))
    records = analyze.read_records([games], sniff_env.Game)
    result = analyze.analyze(records, sniff_env.Game, solve, lambda g: g.hands_played, worlds=2, progress=False)
    (costliest,) = result["agents"]["alice"]["costliest"]  # the sound opening loses nothing
    assert (costliest["record"], costliest["decision"], costliest["move"]) == (2, 1, 1)
    assert records[costliest["record"] - 1]["actions"][costliest["move"] - 1] == tile_index((0, 0)) * 4
    assert [(d["record"], d["deal"]) for d in result["deals"]] == [(1, 1), (2, 1)]


def test_web_records_name_the_human(tmp_path):
    record = blunder_record()
    record.pop("agents")
    (tmp_path / "20261202-000000-sniff-0000.json").write_text(
        json.dumps({**record, "human_seat": 0, "agents": {"1": "greedy"}})
    )
    result = analyze.analyze(
        analyze.read_records([tmp_path], sniff_env.Game), sniff_env.Game, solve, lambda g: g.hands_played,
        worlds=1, progress=False,
    )  # fmt: skip
    assert set(result["agents"]) == {"human", "greedy"} and result["agents"]["human"]["hindsight_loss"] == 25


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(("package", "players"), [("sniff_env", "2"), ("twelve_env", "2")])
def test_cli_grades_arena_records(tmp_path, package, players):
    """The arena's records name their agents; the JSON holds the documented keys per agent and a
    par and a result per deal ("12" games from the deal are beyond the budget: their pars are
    unsolved)."""
    records, out = tmp_path / "games.jsonl", tmp_path / "analysis.json"
    options = ["--players", players, "--agents", "random", "greedy", "--deals", "1", "--workers", "1"]
    done = run("-m", package, "arena", *options, "--records", str(records), "--no-progress", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    done = run("-m", package, "analyze", str(records), "--worlds", "2", "--json", str(out), "--max-nodes", "300000",
               "--no-progress", cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert set(result["agents"]) == {"random", "greedy"} and result["records"] == 2
    for row in result["agents"].values():
        assert set(row) >= KEYS and row["decisions"] > 0 and row["hindsight_loss"] >= 0 <= row["expected_loss"]
    assert result["deals"] and all("par" in d and isinstance(d["result"], int) for d in result["deals"])
    assert "par_r2" in result and "hindsight loss" in done.stdout


def test_cli_plays_the_games_it_grades_under_the_options_given(tmp_path):
    """``analyze --agents`` grades the games ``arena --records`` would write with the same table
    and options (and they are not the default options' games)."""
    table = ["--players", "2", "--deals", "1", "--seed", "4"]
    graded = {}
    for deck in ("numbers", "bridge"):
        out = tmp_path / f"{deck}.json"
        done = run("-m", "twelve_env", "analyze", "--agents", "random", "greedy", *table, "--deck", deck,
                   "--worlds", "2", "--max-nodes", "100000", "--no-progress", "--json", str(out), cwd=ROOT)  # fmt: skip
        assert done.returncode == 0, done.stderr
        graded[deck] = json.loads(out.read_text())
    played = graded["numbers"]["played"]
    assert played == {"agents": ["random", "greedy"], "num_players": 2, "options": {"deck": "numbers"},
                      "deals": 1, "seed": 4}  # fmt: skip
    records, out = tmp_path / "games.jsonl", tmp_path / "from-records.json"
    done = run("-m", "twelve_env", "arena", "--agents", "random", "greedy", *table, "--deck", "numbers",
               "--workers", "1", "--records", str(records), "--no-progress", cwd=ROOT)  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = run("-m", "twelve_env", "analyze", str(records), "--seed", "4", "--worlds", "2", "--max-nodes", "100000",
               "--no-progress", "--json", str(out), cwd=ROOT)  # fmt: skip
    from_records = json.loads(out.read_text())
    for key in ("agents", "deals", "records"):
        assert graded["numbers"][key] == from_records[key], key
    assert graded["numbers"]["deals"] != graded["bridge"]["deals"]


def test_cli_takes_records_or_agents(tmp_path):
    for argv in ([], ["x.json", "--agents", "random", "greedy"]):
        done = run("-m", "sniff_env", "analyze", *argv, cwd=ROOT)
        assert done.returncode == 2 and "give record files, or --agents" in done.stderr, argv


def test_cli_refuses_bad_input(tmp_path):
    sniff_record = tmp_path / "sniff.json"
    sniff_record.write_text(json.dumps(blunder_record()))
    done = run("-m", "twelve_env", "analyze", str(sniff_record), cwd=ROOT)
    assert done.returncode == 2 and "not 'twelve'" in done.stderr and "Traceback" not in done.stderr
    done = run("-m", "sniff_env", "analyze", str(sniff_record), "--max-nodes", "0", cwd=ROOT)
    assert "--max-nodes must be at least 1" in done.stderr and "Traceback" not in done.stderr
    done = run("-m", "sniff_env", "analyze", str(tmp_path / "missing.json"), cwd=ROOT)
    assert done.returncode == 2 and "missing.json" in done.stderr and "Traceback" not in done.stderr
    with pytest.raises(ValueError, match="not 'twelve'"):
        analyze.read_records([sniff_record], twelve_env.Game)


def test_an_interrupted_analysis_keeps_what_was_graded(tmp_path):
    records, out = tmp_path / "games.jsonl", tmp_path / "analysis.json"
    options = ["--players", "4", "--agents", "random", "greedy", "--deals", "3", "--workers", "2"]
    assert (
        run("-m", "sniff_env", "arena", *options, "--records", str(records), "--no-progress", cwd=ROOT).returncode == 0
    )

    def some_graded(output: str) -> bool:
        return any(int(n) >= 20 for n in re.findall(r"(\d+)/\d+ \[", output))

    args = ["-m", "sniff_env", "analyze", str(records), "--worlds", "4", "--json", str(out)]
    status, _, stderr = interrupt_when(args, some_graded, tmp_path)
    assert status == 130, stderr[-800:]
    result = json.loads(out.read_text())
    graded = sum(row["decisions"] + row["unsolved"] for row in result["agents"].values())
    assert result["partial"] and graded >= 20 and "interrupted" in stderr and "Traceback" not in stderr
