"""``docs/own_agents.md`` works as printed: its agent module, its Python and its commands run from a
fresh folder, the trained model plays in the arena, in cross-play and in a browser session.

Only the sizes are cut: 2 deals in the arena and in cross-play, and RLlib's training to one
iteration of 256 steps; the commands are the same otherwise."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from sniff_env.__main__ import main
from sniff_env.web import WEB
from tests import loopback
from tests.project.test_train_examples import ROOT
from tests.web.test_web import make_client, new_session, play_out

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "own_agents.md").read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)```", PAGE, flags=re.S)
COMMANDS = [line for block in re.findall(r"```bash\n(.*?)```", PAGE, flags=re.S) for line in block.splitlines()]


def _cli(command: str) -> list[str]:
    """The arguments after ``python -m sniff_env`` with ``--deals`` cut to 2."""
    argv = shlex.split(command)[3:]
    if "--deals" in argv:
        argv[argv.index("--deals") + 1] = "2"
    return argv


def _run(command: str, tmp_path: Path, players: int = 2) -> None:
    """A ``python -m sniff_env`` line of the page: ``serve`` becomes a session on its app (its
    agent seated at a table of ``players`` and played to the end); the others run as the CLI runs
    them."""
    argv = _cli(command)
    if argv[0] == "serve":
        spec = argv[argv.index("--agent") + 1]
        client, _ = make_client(WEB, tmp_path / "records", agents=[spec])
        assert spec in client.get("/api/config").json()["agents"][str(players)]
        agents = {str(seat): spec for seat in range(1, players)}
        token = new_session(client, players=players, agents=agents, seed=1)
        assert play_out(client, token)["over"]
        return
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(argv) == 0
    assert argv[argv.index("--agents") + 1] in out.getvalue()  # the table names the plugged agent


@pytest.fixture
def page_folder(tmp_path, monkeypatch) -> Path:
    """A fresh folder holding the page's ``my_agents.py``, on the path, as the current directory."""
    module = PYTHON[0]
    assert module.startswith("# my_agents.py\n")
    (tmp_path / "my_agents.py").write_text(module)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_the_written_agent_plays_every_command_of_the_page(page_folder):
    commands = [c for c in COMMANDS if "py:my_agents:Heaviest" in c]
    assert [shlex.split(c)[3] for c in commands] == ["arena", "crossplay", "serve"]
    for command in commands:
        _run(command, page_folder)
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(PYTHON[1], "own_agents.md, agent objects", "exec"), namespace)
    assert 0.0 <= float(out.getvalue()) <= 1.0 and namespace["result"]["games_played"] == 40


@pytest.mark.train
def test_the_sb3_round_trip(page_folder):
    """Train with sb3-contrib's own API (the page's code, as printed), then the arena, cross-play
    and a browser session with the saved model."""
    [train] = [block for block in PYTHON if "MaskablePPO" in block]
    exec(compile(train, "own_agents.md, sb3 training", "exec"), {})
    assert (page_folder / "maskable_sniff4.zip").is_file()
    commands = [c for c in COMMANDS if "sb3:maskable_sniff4.zip" in c]
    assert len(commands) == 3
    for command in commands:
        _run(command, page_folder, players=4)


@pytest.mark.train
def test_the_rllib_round_trip(page_folder):
    """The page's training command at smoke size (one iteration of 256 steps, no evaluation), then
    its arena, cross-play and browser commands on the checkpoint it saved."""
    pytest.importorskip("ray.rllib", reason="needs the rllib extra")
    [train, *commands] = [c for c in COMMANDS if "rllib" in c]
    argv = shlex.split(train)[2:]
    assert shlex.split(train)[1] == "examples/rllib_selfplay.py" and argv[argv.index("--players") + 1] == "4"
    argv[argv.index("--iterations") + 1] = "1"
    example = str(ROOT / "examples/rllib_selfplay.py")  # it starts Ray: in a loopback-only network namespace
    loopback.run_python([example, *argv, "--batch", "256", "--env-runners", "0", "--eval-deals", "0"], page_folder)
    assert [shlex.split(c)[3] for c in commands] == ["arena", "crossplay", "serve"]
    for command in commands:
        _run(command, page_folder, players=4)
