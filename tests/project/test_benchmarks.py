"""Smoke run of ``python -m benchmarks --quick``: every figure is in the JSON (not how fast)."""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sniff_env
from benchmarks import aec, anchors, information, ours, pimc_curve, same_game, solvers
from sniff_env import kernels as SK
from sniff_env.spec import SPEC as SNIFF_SPEC
from sniff_twelve.core.rng import stream_state
from sniff_twelve.tools import arena

ROOT = Path(__file__).resolve().parents[2]


def run_module(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.long
@pytest.mark.slow
def test_quick_benchmark_reports_every_figure(tmp_path):
    run = run_module("benchmarks", "--quick", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads((tmp_path / "latest.json").read_text())
    expected = [name for name, _ in ours.measurements(quick=True) + anchors.measurements(quick=True)] + aec.names()
    expected += solvers.names() + same_game.names()
    for game in ours.GAMES:
        expected += [f"{game}.vector_best", f"{game}.cold_start_s", f"{game}.warm_start_s"]
    for name in expected:
        value = result["figures"].get(name)
        assert isinstance(value, float) and (value > 0 or name.endswith("solved_share")), (name, value)
    assert all(v is not None and v > 0 for v in result["ratios"].values()), result["ratios"]
    assert {"cpu", "cores", "numba"} <= set(result["machine"])
    assert (tmp_path / "throughput.png").stat().st_size > 10_000
    assert "| ratio | value |" in run.stdout


def test_time_to_skill_recipes_are_the_documented_training_commands():
    """``benchmarks.training`` times the commands docs/training.md gives under "Self-play PPO" and
    "Expert iteration" (less the budget, threads and output flags it sets itself; not the Ray
    variant), so the table measures what users run."""
    from benchmarks import training

    page = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    documented = []
    for heading, example in (
        ("## Self-play PPO on `VectorGame`", "selfplay_ppo.py"),
        ("## Expert iteration", "expert_iteration.py"),
    ):
        section = page.split(heading, 1)[1].split("\n```\n", 1)[0]
        lines = [c for c in section.replace("\\\n", " ").splitlines() if f"examples/{example}" in c]
        for argv in (shlex.split(line, comments=True) for line in lines):
            if "--address" in argv:  # the same recipe with its labels made on a Ray cluster
                continue
            args = argv[argv.index(f"examples/{example}") + 1 :]
            for flag in ("--minutes", "--threads", "--out"):
                if flag in args:
                    i = args.index(flag)
                    del args[i : i + 2]
            documented.append((example, tuple(args)))
    assert documented == [(r.example.script, r.args) for r in training.RECIPES.values()]


def test_time_to_skill_targets():
    """A score target is met at its bound; the head-to-head target only when its whole 95% interval
    is above 0.5; targets whose snapshot was not measured are left out."""
    from benchmarks import training

    def point(minutes, greedy, heuristic, ppo):
        scores = {"greedy": greedy, "heuristic": heuristic, "ppo": ppo}
        return {"minutes": minutes, "scores": {o: {"score": s, "ci95": c} for o, (s, c) in scores.items()}}

    result = {
        "recipes": {
            "exit4": [
                point(5.0, (0.8, 0.1), (0.8, 0.1), (0.9, 0.1)),
                point(20.0, (0.75, 0.04), (0.649, 0.04), (0.54, 0.041)),
            ]
        }
    }
    got = training.targets(result)
    assert {name: t["met"] for name, t in got.items()} == {
        "exit4 vs greedy after 20 min >= 0.75": True,
        "exit4 vs heuristic after 20 min >= 0.65": False,
        "exit4 vs ppo after 20 min: 95% interval above 0.5": False,
    }
    result["recipes"]["exit4"][1]["scores"]["ppo"]["ci95"] = 0.039
    assert training.targets(result)["exit4 vs ppo after 20 min: 95% interval above 0.5"]["met"]


@pytest.mark.train
@pytest.mark.long
def test_quick_time_to_skill_reports_every_snapshot(tmp_path):
    """``python -m benchmarks.training --quick``: a snapshot at each mark of training time for a
    self-play and the expert-iteration recipe, each scored raw and inside search against every
    opponent on the evaluation deals, with the search's time per decision, the table, JSON and plot."""
    pytest.importorskip("torch", reason="needs the train extra")
    from benchmarks import training

    out = tmp_path / "results"
    run = run_module(
        "benchmarks.training", "--quick", "--recipes", "sniff2", "exit4", "--search", "8", "--out", str(out)
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads((out / "training.json").read_text())
    assert list(result["recipes"]) == ["sniff2", "exit4"] and result["search"] == 8
    for recipe, experience in (("sniff2", "env_steps"), ("exit4", "labels")):
        points = result["recipes"][recipe]
        assert [p["minutes"] for p in points] == list(training.QUICK_MARKS)
        made = [p[experience] for p in points]
        assert made == sorted(made) and made[0] > 0
        for point in points:
            for scores in (point["scores"], point["in_search"]["scores"]):
                assert set(scores) == set(training.OPPONENTS)
                assert all(0.0 <= s["score"] <= 1.0 and s["ci95"] >= 0 for s in scores.values())
            assert point["in_search"]["ms_per_decision"] > 0
        assert (out / "training_runs" / recipe / "at_0.05min.npz").exists()
    assert (out / "training.png").stat().st_size > 10_000
    assert "| sniff2 | 0.2 |" in run.stdout and "| exit4 | 0.2 |" in run.stdout
    assert "guided:8: ms per decision" in run.stdout


def test_time_to_skill_without_the_train_extra_says_what_to_install(monkeypatch, capsys):
    """Without torch, ``benchmarks.training`` stops before any run with a one-line message."""
    from benchmarks import training

    monkeypatch.setitem(sys.modules, "torch", None)  # what an install without the train extra sees
    monkeypatch.setattr(training, "train", lambda *args: pytest.fail("a training run started"))
    with pytest.raises(SystemExit) as stopped:
        training.main(["--quick"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip() == (
        "error: python -m benchmarks.training needs torch, which is not installed: "
        'pip install -e ".[train]" in your clone of sniff-twelve (it is not on the package index)'
    )


def test_partner_worlds_keep_what_the_side_knows():
    """The informed worlds of the value-of-information study deal only the opponents' tiles:
    the seat's and its partner's hands stay, every hand keeps its size, and an opponent gets no
    tile with a pip it is known to lack (S19, S21)."""
    game = sniff_env.Game(num_players=4, seed=4)
    rng = random.Random(4)
    while sum(bin(int(v)).count("1") for v in game.state_array[SK.VOIDS : SK.VOIDS + 4]) < 2:
        game.apply(rng.choice(game.legal_actions()))  # play until some seat is known to lack a pip
    me = game.current_player
    worlds = [information.partner_world(game, np.array(stream_state(k), dtype=np.int32)) for k in range(30)]
    for world in worlds:
        assert world.hand(me) == game.hand(me) and world.hand((me + 2) % 4) == game.hand((me + 2) % 4)
        assert world.hand_sizes == game.hand_sizes
        for seat in ((me + 1) % 4, (me + 3) % 4):
            voids = int(game.state_array[SK.VOIDS + seat])
            assert not any(voids >> a & 1 or voids >> b & 1 for a, b in world.hand(seat))
    assert len({tuple(w.hand((me + 1) % 4)) for w in worlds}) > 1


def test_information_study_smoke(tmp_path):
    information.main(["--deals", "1", "--worlds", "1", "--out", str(tmp_path)])
    result = json.loads((tmp_path / "information.json").read_text())
    for name in ("sniff4.partner.points_per_hand", "sniff4.all.points_per_hand", "twelve2.all_vs_greedy.win_share"):
        assert result[name]["deals"] == 1 and np.isfinite(result[name]["mean"])


def test_pimc_curve_smoke(tmp_path):
    options = ["--worlds", "1", "--deals", "1", "--positions", "3", "--workers", "1", "--target", "30"]
    pimc_curve.main([*options, "--out", str(tmp_path)])
    result = json.loads((tmp_path / "pimc_curve.json").read_text())
    (point,) = result["points"]
    assert point["agent"] == "pimc:1" and point["ms_per_decision"] > 0 and 0 <= point["score"] <= 1
    assert result["reference"] == "rollout:1024" and result["reference_ms"] > 0


def test_cluster_throughput_smoke():
    """``benchmarks.cluster`` at its smallest, on a one-CPU local Ray cluster (in a loopback-only
    network namespace): the same games as the local run, and the rates printed."""
    pytest.importorskip("ray", reason='needs Ray: pip install -e ".[rllib]"')
    from tests import loopback

    done = loopback.run_python(["-m", "benchmarks.cluster", "--deals", "1", "--cpus", "1"], cwd=ROOT)
    rows = json.loads(done.stdout.strip().splitlines()[-1])["rows"]
    assert [row[0] for row in rows] == ["local, 1 process", "Ray, 1 worker"] and all(row[2] > 0 for row in rows)


def test_beliefs_benchmark_smoke():
    """``python -m benchmarks.beliefs`` at smoke size: infer's speed for every model kind, and an
    entry beside its two controls against an opponent, with the time per decision of each."""
    from benchmarks import beliefs

    speed = beliefs.speed(positions=2, worlds=16)
    assert set(speed["models"]) == {"none", "random", "greedy", "heuristic", "ppo"}
    assert all(row["ms"] > 0 and 1 <= row["ess"] <= 16 for row in speed["models"].values())
    played = beliefs.strength("twelve_env", 2, "greedy", "belief:8", 2, 1)
    assert set(played["ms_per_decision"]) == {"greedy", "belief:8", "uniform", "clairvoyant"}
    for name in ("belief:8", "uniform", "clairvoyant"):
        assert 0 <= played[name]["score"] <= 1
    entry, uniform, seer = (played[name]["score"] for name in ("belief:8", "uniform", "clairvoyant"))
    expected = None if seer == uniform else (entry - uniform) / (seer - uniform)
    assert beliefs.gap_closed(played, "belief:8") == expected


def test_every_seat_for_itself_strength_reads_the_places():
    """``benchmarks.beliefs strength`` at a table where every seat plays for itself ("12", 3
    players): the entry's outcome in each seat is its place by the shared default (a game without
    an ``outcome`` part), between 0 (last) and 1 (first)."""
    from benchmarks import beliefs
    from twelve_env.agents import make_agent

    outcomes = beliefs._one_against_all(("twelve_env", 3, make_agent("greedy"), "greedy", 5))
    assert len(outcomes) == 3 and all(0 <= outcome <= 1 for outcome in outcomes)


def test_tracker_benchmark_smoke():
    """``python -m benchmarks.beliefs tracker`` at smoke size: every kind's difference from the
    rules alone, the share of the converged one, the ESS and the time of an update."""
    from benchmarks import beliefs

    out = beliefs.tracked("twelve_env", 2, "greedy", 0.05, 3, 7, depth=2, particles=8)
    assert {"infer 256", "tracker", "tracker 16×", "infer 8192"} <= set(out)
    assert all(np.isfinite(out[k][0]) for k in ("infer 256", "tracker", "tracker 16×", "infer 8192"))
    best = min(out["tracker 16×"][0], out["infer 8192"][0])
    assert out["share_of_converged"] == (out["tracker"][0] / best if best else None)
    assert out["ms_per_update"] > 0 and out["cpu_ms_per_update"] >= 0 and 0 < out["ess_share_median"] <= 1


def test_tracker_benchmark_reference():
    """``--reference N`` names the converged tracker by its particles; ``0`` leaves it out, and
    ``infer`` at 8,192 worlds alone is the converged posterior."""
    from benchmarks import beliefs

    out = beliefs.tracked("twelve_env", 2, "greedy", 0.05, 2, 7, depth=2, particles=8, reference=32)
    assert out["reference"] == 32 and "tracker 32" in out and "tracker 16×" not in out
    alone = beliefs.tracked("twelve_env", 2, "greedy", 0.05, 2, 7, depth=2, particles=8, reference=0)
    assert not any(kind.startswith("tracker ") for kind in alone)
    best = alone["infer 8192"][0]
    assert alone["share_of_converged"] == (alone["tracker"][0] / best if best else None)


def test_tracker_benchmark_moves(monkeypatch):
    """``--moves M`` reaches the measured tracker; the converged one keeps the default moves."""
    from benchmarks import beliefs

    made, real = [], beliefs.BeliefTracker
    monkeypatch.setattr(beliefs, "BeliefTracker", lambda *args: made.append(args[2:]) or real(*args))
    out = beliefs.tracked("twelve_env", 2, "greedy", 0.05, 1, 7, depth=2, particles=8, moves=3)
    assert out["moves"] == 3 and {(n, m) for n, _, _, m in made} == {(8, 3), (128, beliefs.MOVES)}


def test_carried_benchmark_feeds_a_tracker(monkeypatch):
    """``python -m benchmarks.beliefs carried``: a decision's time in whole games, the searcher's
    beliefs carried by a tracker of the size asked, fed through the deal."""
    import twelve_env.agents as agents
    from benchmarks import beliefs

    built, real = [], agents.make_agent
    monkeypatch.setattr(agents, "make_agent", lambda spec, **kw: built.append(real(spec, **kw)) or built[-1])
    for particles in (16, None):
        assert beliefs.carried_ms("twelve_env", 2, "belief:32:greedy", particles, 1, 5) > 0
    tracked, rebuilt = (agent for agent in built if hasattr(agent, "particles"))
    assert tracked.particles == 16 and tracked._tracker is not None and tracked._tracker._steps > 0
    assert rebuilt.particles is None and rebuilt._tracker is None


def test_tracking_entry_carries_its_particles():
    """``py:benchmarks.beliefs:tracking:GAME:SPEC:PARTICLES`` is the game's agent ``SPEC`` with a
    tracker of ``PARTICLES``, for the arena (the ``SPEC``'s own colons kept)."""
    from twelve_env.agents import make_agent

    agent = make_agent("py:benchmarks.beliefs:tracking:twelve_env:belief:96:greedy:40")
    assert type(agent) is type(make_agent("belief:96:greedy"))
    assert (agent.particles, agent.iterations) == (40, 96)


def test_learned_beliefs_benchmark_smoke():
    """``python -m benchmarks.beliefs learned`` at smoke size: bits and milliseconds of the rules,
    the exact posterior and the shipped network on the same decisions, and the ratios derived."""
    from benchmarks import beliefs

    row = beliefs.learned_vs_exact("sniff_env", 2, "ppo", decisions=3)
    kinds = ("rules", "exact ε=0.05", "exact ε=0.3", "learned")
    assert all(row[k]["bits"] > 0 and row[k]["ms"] > 0 for k in kinds), row
    exact = row["best_exact"]
    assert row[exact]["bits"] == min(row["exact ε=0.05"]["bits"], row["exact ε=0.3"]["bits"])
    assert row["learned_over_exact"] == row["learned"]["bits"] / row[exact]["bits"]
    assert row["speedup"] == row[exact]["ms"] / row["learned"]["ms"]
    one = beliefs.learned_vs_exact("sniff_env", 2, "ppo", decisions=3, worlds=1)
    assert (one["worlds"], row["worlds"]) == (1, 256)
    assert one["rules"]["bits"] > 3 * row["rules"]["bits"]  # one world: every unseen tile placed for sure


def test_learned_beliefs_command_passes_its_worlds_on(tmp_path, monkeypatch):
    """``python -m benchmarks.beliefs learned --worlds N``: every network's row is measured with N
    worlds and says so."""
    from benchmarks import beliefs

    monkeypatch.setattr(beliefs, "RESULTS", tmp_path / "beliefs.json")
    beliefs.main(["learned", "--decisions", "2", "--worlds", "8"])
    rows = json.loads((tmp_path / "beliefs.json").read_text())["learned"]
    assert len(rows) == len(beliefs.LEARNED) and {row["worlds"] for row in rows.values()} == {8}


def test_signalling_study_smoke(tmp_path):
    """``python -m benchmarks.signalling --quick``: for each partner the bits its partner's beliefs
    gain, the points of every searcher variant on the same deals, the share of the open
    partnership's value recovered, and the cross-play gap of a mismatched model; a second run
    adds its rows to the same file."""
    from benchmarks import signalling

    signalling.main(
        ["--quick", "--partners", "ppo", "greedy", "--workers", "1", "--worlds", "32", "--out", str(tmp_path)]
    )
    result = json.loads((tmp_path / "signalling.json").read_text())
    ppo, greedy = result["partners"]["ppo"], result["partners"]["greedy"]
    assert ppo["bits"]["worlds"] == greedy["run"]["worlds"] == 32  # --worlds reaches the bits
    assert set(ppo["points"]) == {"rules", "beliefs", "open", "learned"} and "learned" not in greedy["points"]
    assert set(ppo["bits"]) >= {"beliefs", "learned", "rules_bits"} and ppo["bits"]["decisions"] > 0
    for row in (ppo, greedy):
        assert all(len(points) == 2 for points in row["points"].values())
        gain = np.mean(np.subtract(row["points"]["beliefs"], row["points"]["rules"]))
        assert row["value"]["beliefs_gain"]["mean"] == pytest.approx(gain)
    assert set(result["cross_play"]) == {"partner ppo, modelled as greedy", "partner greedy, modelled as ppo"}
    assert ppo["run"]["command"].startswith("python -m benchmarks.signalling --quick")
    signalling.main(["--quick", "--partners", "heuristic", "--models", "ppo", "--workers", "1", "--out", str(tmp_path)])
    merged = json.loads((tmp_path / "signalling.json").read_text())
    assert set(merged["partners"]) == {"ppo", "greedy", "heuristic"} and merged["partners"]["ppo"] == ppo
    assert "partner heuristic, modelled as ppo" in merged["cross_play"] and len(merged["cross_play"]) == 3


def test_signalling_tracked_row(tmp_path):
    """``--particles N`` adds the ``tracked`` row: the beliefs search with a tracker of ``N``
    particles, on the same deals, with its gain and share of the open value; ``beliefs`` keeps
    ``infer``."""
    from benchmarks import signalling

    args = ["--quick", "--partners", "greedy", "--models", "greedy", "--workers", "1", "--worlds", "8"]
    signalling.main([*args, "--particles", "16", "--out", str(tmp_path)])
    row = json.loads((tmp_path / "signalling.json").read_text())["partners"]["greedy"]
    assert set(row["points"]) == {"rules", "beliefs", "tracked", "open"} and row["run"]["particles"] == 16
    gain = np.mean(np.subtract(row["points"]["tracked"], row["points"]["rules"]))
    assert row["value"]["tracked_gain"]["mean"] == pytest.approx(gain) and "tracked_recovered" in row["value"]
    assert signalling.searcher("tracked", "greedy", 8, 16).particles == 16
    assert signalling.searcher("beliefs", "greedy", 8, 16).particles is None


def test_signalling_bits_read_their_worlds():
    """The bits' beliefs come from ``worlds`` weighted worlds: one world puts every unseen tile in
    or out of the partner's hand for sure, so a wrong guess costs the log-loss's floor, and the
    rules alone then leave several times the bits that 64 worlds leave."""
    from benchmarks import signalling

    one, many = (signalling.bits("greedy", hands=1, seed=60_000, worlds=n) for n in (1, 64))
    assert one["worlds"] == 1 and many["worlds"] == 64 and one["decisions"] == many["decisions"] > 0
    assert one["rules_bits"] > 3 * many["rules_bits"]


def test_contention_benchmark_smoke(tmp_path):
    """``python -m benchmarks.contention`` at smoke size: every case and setting under every load
    measured for each way of waiting, each in its own process with its environment, a table
    printed and the JSON written."""
    from benchmarks import contention

    out = tmp_path / "contention.json"
    args = ["--envs", "16", "--seconds", "0.02", "--repeats", "1", "--loads", "quiet", "spin"]
    contention.main([*args, "--waits", "library", "passive", "--out", str(out)])
    results = json.loads(out.read_text())
    assert list(results["waits"]) == ["library", "passive"]
    assert results["waits"]["passive"]["omp_wait_policy"] == "passive"
    assert results["waits"]["library"]["omp_wait_policy"] is None
    for run in results["waits"].values():
        assert run["loads"] == ["quiet", "spin"]
        for case in contention.CASES:
            for setting in contention.SETTINGS:
                assert set(run["steps_per_second"][case][setting]) == {"quiet", "spin"}
                assert set(run["ratio_to_quiet_default"][case][setting]) == {"spin"}
        assert run["ratio_to_quiet_default"]["sniff VectorGame 4p"]["default"]["spin"] > 0
    lines = contention.table(results).splitlines()
    assert len(lines) == 1 + 2 * len(contention.CASES) * len(contention.SETTINGS)


def test_contention_load_is_stopped_by_its_id_on_interrupt(monkeypatch):
    """The busy process of ``benchmarks.contention`` ends when the run is interrupted."""
    from benchmarks import contention

    started = []
    real_popen = subprocess.Popen

    def popen(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(contention.subprocess, "Popen", popen)
    with pytest.raises(KeyboardInterrupt), contention.busy("spin"):
        raise KeyboardInterrupt
    assert started and started[0].poll() is not None


def test_startup_benchmark_times_cold_then_warm_and_names_what_compiles(tmp_path, monkeypatch):
    """``python -m benchmarks.startup``: each entry point cold (an empty numba cache) then warm
    (the cache it left), a table and the JSON; ``--kernels`` names what a cold run compiles, from
    numba's compile events, each kernel's time without the kernels it compiles on the way."""
    from benchmarks import startup

    program = (
        "import numba\n@numba.njit\ndef inner(x):\n    return x + 1\n"
        "@numba.njit\ndef outer(x):\n    return inner(x) * 2\nassert outer(1) == 4\n"
    )
    monkeypatch.setattr(startup, "ENTRY_POINTS", {"tiny": ["-c", program]})
    out = tmp_path / "startup.json"
    startup.main(["--entries", "tiny", "--kernels", "tiny", "--out", str(out)])
    results = json.loads(out.read_text())
    runs = results["entry_points"]["tiny"]
    assert runs["cold"]["s"] > 0 and runs["warm"]["s"] > 0
    compiled = results["kernels"]["seconds"]
    assert set(compiled) == {"__main__.inner", "__main__.outer"} and all(v > 0 for v in compiled.values())
    assert startup.table(results).splitlines()[1].startswith("tiny ")


def test_startup_benchmark_runs_the_readme_quick_tour():
    """The quick tour timed is the README's own Python, every block of its section."""
    from benchmarks import startup

    tour = startup.quick_tour()
    assert "sniff_env.Game(num_players=4, seed=1)" in tour and "VectorGame(4096" in tour
    assert "```" not in tour


def test_thread_timing_smoke(capsys):
    """``python -m benchmarks.timing`` at smoke size: a time per decision for each search and each
    thread count, and the speed-up; a search that takes no ``threads=`` is a usage error."""
    from benchmarks import timing

    timing.main(["--game", "twelve", "--agents", "rollout:8", "belief:8", "--positions", "2", "--repeats", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| agent | 1 thread, ms | 2 threads, ms | speed-up 2/1 |"
    rows = [line.strip("| ").split(" | ") for line in lines[2:]]
    assert [row[0] for row in rows] == ["`rollout:8`", "`belief:8`"]
    assert all(float(row[1]) > 0 and float(row[2]) > 0 and row[3].endswith("×") for row in rows)
    with pytest.raises(SystemExit) as stop:
        timing.main(["--agents", "greedy"])
    assert stop.value.code == 2 and capsys.readouterr().err.strip() == "error: greedy takes no threads="


def test_occupancy_splits_a_window_by_the_searches_running():
    """Two threads over [0, 10]: a search over [1, 4] and one over [3, 8] leave 1 + 2 seconds with
    none running, 2 + 4 with one and 1 with both; a span reaching past the window is cut to it."""
    from benchmarks.timing import occupancy

    assert occupancy([(1.0, 4.0), (3.0, 8.0)], 0.0, 10.0, 2) == [3.0, 6.0, 1.0]
    assert occupancy([(-5.0, 2.0), (1.0, 12.0)], 0.0, 10.0, 1) == [0.0, 10.0]
    assert occupancy([], 0.0, 10.0, 2) == [10.0, 0.0, 0.0]


def test_thread_timing_occupancy_smoke(capsys):
    """``--occupancy`` at smoke size: for each thread count, shares of a decision summing to one,
    none with more searches running than threads; a search that solves no worlds is a usage error."""
    from benchmarks import timing

    timing.main(["--game", "twelve", "--agents", "pimc:2", "--positions", "2", "--occupancy"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "| agent | threads | ms | 0 running | 1 running | 2 running |"
    one, two = ([cell.strip() for cell in line.split("|")[1:-1]] for line in lines[2:])
    assert one[:2] == ["`pimc:2`", "1"] and one[5] == "" and two[:2] == ["`pimc:2`", "2"]
    for row in one[3:5], two[3:]:
        assert abs(sum(float(cell.rstrip("%")) for cell in row) - 100) <= len(row)  # rounded
    with pytest.raises(SystemExit) as stop:
        timing.main(["--game", "twelve", "--agents", "rollout:8", "--positions", "2", "--occupancy"])
    assert stop.value.code == 2 and "rollout:8 solves no worlds" in capsys.readouterr().err


def test_luck_split_of_known_variances():
    """``benchmarks.luck.decompose`` on plays made of a deal's part (variance 3) and the agents'
    (variance 1, drawn afresh in each play): the agents' share is 1/4, inside its interval."""
    from benchmarks import luck

    rng = np.random.default_rng(5)
    deal = rng.normal(0, np.sqrt(3), 20000)
    first, second = deal + rng.normal(0, 1, deal.size), deal + rng.normal(0, 1, deal.size)
    split = luck.decompose(first, second)
    assert split["variance"] == pytest.approx(4, rel=0.05) and split["agents_variance"] == pytest.approx(1, rel=0.05)
    assert split["agents_share_low"] < 0.25 < split["agents_share_high"] < 0.3
    assert luck.decompose(first, first)["agents_share"] == 0
    with pytest.raises(ValueError, match="two plays"):
        luck.decompose(first[:3], second[:4])


@pytest.mark.parametrize(("a", "b", "random_agents"), [("greedy", "heuristic", False), ("random", "greedy", True)])
def test_luck_benchmark_smoke(a, b, random_agents):
    """Deterministic agents play a deal the same way on any stream (no agents' share); ``random``
    plays it otherwise on the second play's streams, so its share is not 0."""
    from benchmarks import luck

    table = arena.Table.of(SNIFF_SPEC, 2, max_hands=1)
    out = luck.measure(table, a, b, deals=6, seed=3, workers=1)
    assert (out["agents_variance"] > 0) == random_agents
    assert (out["margin"] == out["margin_again"]) == (not random_agents)
