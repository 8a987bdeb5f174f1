"""Agents from outside, by import path (``py:package.module:Name[:ARG]``): built wherever games are
played (worker processes and the CLI included), refused with one clear line when the spec is
wrong, and stopped with the agent named when one fails in a game."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sniff_env
import twelve_env
from sniff_env.agents import arena_table, make_agent
from sniff_twelve.tools import arena, conformance
from twelve_env.agents import make_agent as make_twelve_agent

ROOT = Path(__file__).resolve().parents[2]

PLUGIN = '''
from sniff_twelve.core.agent import Agent


class FirstLegal(Agent):
    """The lowest legal action, from the seat's view."""

    name = "first-legal"

    def __init__(self, offset="0"):
        self.offset = int(offset)

    def choose(self, view):
        legal = view.legal_actions()
        return legal[min(self.offset, len(legal) - 1)]


def make(offset):
    return FirstLegal(offset)


def not_an_agent():
    return 42


class Raises(Agent):
    def choose(self, view):
        raise RuntimeError("lost its way")


class Illegal(Agent):
    def choose(self, view):
        return 10_000


def broken(arg):
    raise KeyError(arg)
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch) -> str:
    """A module ``plug_agents`` importable here and in every process started from here."""
    (tmp_path / "plug_agents.py").write_text(textwrap.dedent(PLUGIN))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(ROOT)]))
    sys.modules.pop("plug_agents", None)
    return "plug_agents"


def test_a_class_or_a_factory_with_its_argument(plugin):
    agent = make_agent(f"py:{plugin}:FirstLegal")
    assert type(agent).__name__ == "FirstLegal" and agent.offset == 0
    assert make_agent(f"py:{plugin}:FirstLegal:2").offset == 2
    assert make_agent(f"py:{plugin}:make:3").offset == 3
    game = sniff_env.Game(num_players=2, seed=4)
    assert agent.act(game) == game.legal_actions()[0]
    assert make_twelve_agent(f"py:{plugin}:FirstLegal").act(twelve_env.Game(seed=1)) in range(13)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("py:", "write py:package.module:Name or py:package.module:Name:ARG"),
        ("py:plug_agents", "write py:package.module:Name"),
        ("py:plug_agents:", "write py:package.module:Name"),
        ("py:no_such_module_here:X", "module 'no_such_module_here' does not import (ModuleNotFoundError"),
        ("py:plug_agents:Missing", "has no agent class or factory 'Missing'"),
        ("py:plug_agents:not_an_agent", "not_an_agent gave a int, not an Agent"),
        ("py:plug_agents:broken:x", "broken('x') raised KeyError"),
    ],
)
def test_a_bad_spec_is_one_clear_line(plugin, spec, message):
    with pytest.raises(ValueError, match="agent spec") as info:
        make_agent(spec)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_an_outside_agent_plays_in_the_arena_with_worker_processes(plugin):
    table = arena_table(2)
    entry = f"py:{plugin}:FirstLegal"
    result = arena.run(table, [entry, "greedy"], deals=2, seed=3, workers=2, progress=False)
    assert result["games_played"] == 4 and entry in [row["entry"] for row in result["entries"]]
    serial = arena.run(table, [entry, "greedy"], deals=2, seed=3, workers=1, progress=False)
    assert [g["outcome"] for g in serial["games"]] == [g["outcome"] for g in result["games"]]


def test_the_cli_takes_outside_agents(plugin):
    entry = f"py:{plugin}:FirstLegal"
    args = ["-m", "sniff_env", "arena", "--players", "2", "--agents", entry, "random", "--deals", "2"]
    run = subprocess.run([sys.executable, *args, "--no-progress", "--workers", "2"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert entry in run.stdout


@pytest.mark.long
def test_outside_agents_in_cross_play_the_ladder_and_analyze(plugin, tmp_path):
    """The CLIs that play many games (cross-play with worker processes, the ladder) take a py:
    agent, and analyze grades its moves from the arena's records."""
    entry = f"py:{plugin}:FirstLegal"

    def cli(*args: str) -> subprocess.CompletedProcess:
        run = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        return run

    matrix = cli(
        "sniff_env", "crossplay", "--agents", entry, "greedy", "--deals", "1", "--workers", "2", "--no-progress"
    )
    assert entry in matrix.stdout
    ladder = cli(
        "benchmarks.ladder", "--game", "twelve", "--deals", "1", "--workers", "1", "--agent", entry, "--out", "."
    )
    assert entry in ladder.stdout and (tmp_path / "ladder.json").exists()
    records = tmp_path / "games.jsonl"
    cli("twelve_env", "arena", "--players", "2", "--agents", entry, "greedy", "--deals", "1", "--records", str(records))
    graded = cli("twelve_env", "analyze", str(records), "--worlds", "1", "--json", "a.json", "--no-progress")
    assert entry in graded.stdout


@pytest.mark.parametrize(
    "name, says",
    [("Raises", "RuntimeError: lost its way"), ("Illegal", "action 10000 (out of range) is illegal")],
)
def test_an_agent_that_fails_in_a_game_stops_the_run_with_its_name(plugin, name, says):
    entry = f"py:{plugin}:{name}"
    with pytest.raises(arena.AgentFailedError) as info:
        arena.run(arena_table(2), [entry, "greedy"], deals=1, seed=5, progress=False)
    message = str(info.value)
    assert f"agent {entry!r} at seat" in message and "with seed" in message and says in message
    run = subprocess.run(
        [sys.executable, "-m", "sniff_env", "arena", "--players", "2", "--agents", entry, "greedy", "--deals", "1"],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1 and f"error: agent {entry!r} at seat" in run.stderr  # a failure, not a usage error


def test_the_twin_check_runs_on_an_outside_agent(plugin, monkeypatch):
    """The seat-view boundary holds for agents from outside: they are handed the same view."""
    monkeypatch.setattr(conformance, "TWIN_AGENTS", (f"py:{plugin}:FirstLegal", f"py:{plugin}:FirstLegal:5"))
    for package, players in ((sniff_env, 4), (twelve_env, 3)):
        checked = conformance.check_no_peek_twins(package, {"num_players": players}, games=6)
        assert checked == list(conformance.TWIN_AGENTS)


def test_agent_objects_play_in_the_arena_and_in_cross_play(plugin):
    """``arena.run`` and cross-play take ``Agent`` objects beside specs: named after the agent
    (``#2`` on a clash), copied into every game, pickled for worker processes."""
    import plug_agents

    from sniff_twelve.tools import crossplay

    table = arena_table(2)
    first, second = plug_agents.FirstLegal(), plug_agents.FirstLegal("1")
    by_object = arena.run(table, [first, second, "greedy"], deals=2, seed=3, workers=2, progress=False)
    assert [row["entry"] for row in by_object["entries"]] == ["first-legal", "first-legal#2", "greedy"]
    specs = [f"py:{plugin}:FirstLegal", f"py:{plugin}:FirstLegal:1", "greedy"]
    by_spec = arena.run(table, specs, deals=2, seed=3, workers=1, progress=False)
    assert [g["outcome"] for g in by_object["games"]] == [g["outcome"] for g in by_spec["games"]]
    assert first.offset == 0 and not hasattr(first, "rng")  # the caller's object is never played on
    four = arena_table(4)
    matrix = crossplay.run(four, [first, "greedy"], "random", deals=1, seed=2, progress=False)
    assert matrix["agents"] == ["first-legal", "greedy"] and matrix["games_played"] == 4 * 2


def test_an_agent_that_cannot_travel_to_workers_is_told_to_use_py(plugin):
    import plug_agents

    agent = plug_agents.FirstLegal()
    agent.scorer = lambda view: 0  # a lambda does not pickle
    with pytest.raises(ValueError, match=r"cannot be sent to worker processes .* py:package\.module:Name"):
        arena.run(arena_table(2), [agent, "greedy"], deals=1, workers=2, progress=False)
    assert arena.run(arena_table(2), [agent, "greedy"], deals=1, workers=1, progress=False)["games_played"] == 2
    with pytest.raises(TypeError, match="an entry is an agent spec"):
        arena.run(arena_table(2), [3, "greedy"], deals=1, progress=False)


@pytest.fixture
def installed(plugin, tmp_path) -> str:
    """``plug_agents`` installed as a distribution registering ``first-legal`` for both games
    (its ``.dist-info`` on the path, as pip leaves it)."""
    info = tmp_path / "plug_agents-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plug-agents\nVersion: 0.1\n")
    groups = "".join(
        f"[{group}]\nfirst-legal = plug_agents:FirstLegal\n" for group in ("sniff_env.agents", "twelve_env.agents")
    )
    (info / "entry_points.txt").write_text(groups)
    return "first-legal"


def test_an_installed_package_adds_agents_by_name(installed):
    assert make_agent(installed).offset == 0 and make_agent(f"{installed}:2").offset == 2
    assert make_twelve_agent(installed).act(twelve_env.Game(seed=1)) in range(13)
    with pytest.raises(ValueError, match=f"built-in agents: .*; installed: {installed}"):
        make_agent("nobody")
    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            "from sniff_env.web import WEB; from twelve_env.web import WEB as T; print(WEB.agents, T.agents)",
        ],
        capture_output=True,
        text=True,
    )
    assert listed.stdout.count(f"'{installed}'") == 2, listed.stderr
    args = ["-m", "sniff_env", "arena", "--players", "2", "--agents", installed, "greedy", "--deals", "1"]
    run = subprocess.run([sys.executable, *args, "--no-progress", "--workers", "2"], capture_output=True, text=True)
    assert run.returncode == 0 and installed in run.stdout, run.stderr


def test_the_twin_check_runs_on_an_installed_agent(installed, monkeypatch):
    monkeypatch.setattr(conformance, "TWIN_AGENTS", (installed, f"{installed}:3"))
    assert conformance.check_no_peek_twins(sniff_env, {"num_players": 3}, games=5) == [installed, f"{installed}:3"]
