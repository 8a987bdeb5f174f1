"""``python -m sniff_env play`` / ``python -m twelve_env play``: human play driven by piped input."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sniff_env import __main__ as sniff_main
from sniff_env.agents import make_agent as sniff_agent
from sniff_env.game import Game as SniffGame
from sniff_env.ui import PLAY_UI as SNIFF_UI
from sniff_twelve.tools.play import Screen, parse_choice, play
from twelve_env import __main__ as twelve_main

ROOT = Path(__file__).resolve().parents[2]
ALWAYS_FIRST = "1\n" * 3000  # far more entries than any game here needs


def run_cli(module: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, "play", "--ascii", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def run_main(main, argv: list[str], stdin: str, monkeypatch, capsys) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "--ascii", *argv])
    return code, capsys.readouterr().out


def test_sniff_match_to_the_end():
    proc = run_cli("sniff_env", "--players", "2", "--target", "60", "--seed", "3", stdin=ALWAYS_FIRST)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = proc.stdout
    assert "-- Your moves --" in out
    assert re.search(r"^1\) \[\d\|\d\] (to open the hand|on the (west|east) end|on the Sniff's)", out, re.M)
    assert re.search(r"\(scores \d+", out)  # a move that scores says how much
    assert "game over" in out
    assert re.search(r"(You|Seat 1) won the match", out)
    assert re.search(r"final scores: you: -?\d+   seat 1: \d+", out)
    assert re.search(r"hands played: \d+", out)


def test_twelve_game_to_the_end():
    proc = run_cli("twelve_env", "--players", "3", "--seed", "2", stdin=ALWAYS_FIRST)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert re.search(r"^1\) play (\d+|[AJQK]) on the (\d+|[AJQK]) \((captures \d+ cards?|no capture)", out, re.M)
    assert re.search(r"played \S+ on the \S+: (captured|no capture)", out)
    assert "game over" in out
    assert re.search(r"(You won with|Seat \d won with|Tie between)", out)
    assert "final scores (captured minus in hand): you" in out


def test_bad_entries_are_refused_and_play_goes_on(monkeypatch, capsys):
    code, out = run_main(sniff_main.main, ["--players", "2", "--seed", "1"], "x\n99\n\n1\nq\n", monkeypatch, capsys)
    assert code == 0
    assert "'x' is not a move number" in out
    assert "There is no move 99" in out
    assert "Nothing entered" in out
    assert out.count("your turn") == 2  # the "1" was played and the next turn came
    assert "You quit the game." in out


def test_help_then_move(monkeypatch, capsys):
    code, out = run_main(twelve_main.main, ["--seed", "4"], "h\n?\n2\nq\n", monkeypatch, capsys)
    assert code == 0
    assert out.count("== Help ==") == 2
    assert "sum to 12" in out
    assert out.count("your turn") == 2
    assert "You quit the game." in out


def test_eof_ends_cleanly():
    for module in ("sniff_env", "twelve_env"):
        proc = run_cli(module, "--players", "2", stdin="1\n")
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        assert "Input ended: game abandoned." in proc.stdout


def test_quit(monkeypatch, capsys):
    code, out = run_main(twelve_main.main, ["--players", "4", "--deck", "numbers"], "q\n", monkeypatch, capsys)
    assert code == 0
    assert "You quit the game." in out
    assert "game over" not in out


def test_four_player_sniff_seats(monkeypatch, capsys):
    argv = ["--seat", "1", "--partner", "greedy", "--opponents", "random", "greedy", "--seed", "5"]
    code, out = run_main(sniff_main.main, argv, "q\n", monkeypatch, capsys)
    assert code == 0
    assert "seat 0 (random), you (seat 1), seat 2 (greedy), partner (seat 3, greedy)" in out
    assert "your team (seats 1+3)" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--opponents", "random", "greedy", "random"], "--opponents takes one agent for all or one per opponent seat"),
        (["--seat", "5"], "--seat must be between 0 and 3"),
        (["--opponents", "nobody"], "unknown agent 'nobody'"),
        (["--players", "2", "--partner", "greedy"], "--partner needs --players 4"),
    ],
)
def test_bad_options(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        sniff_main.main(["play", "--players", "4", *argv])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_parse_choice():
    assert parse_choice(" 2 ", 3) == ("move", 1)
    assert parse_choice("Q", 3) == ("quit", None)
    assert parse_choice("?", 3) == ("help", None)
    assert parse_choice("0", 3)[0] == parse_choice("-1", 3)[0] == parse_choice("1.5", 3)[0] == "error"


def test_rich_screen(monkeypatch):
    """The coloured screen (a terminal is forced) shows the same content in boxes."""
    buf = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nx\n"))
    game = SniffGame(num_players=2, seed=0)
    agent = sniff_agent("greedy")
    agent.reset(0)
    screen = Screen(file=buf, force_terminal=True)
    assert not screen.plain
    finished = play(game, SNIFF_UI, 0, {1: agent}, {0: "you", 1: "seat 1 (greedy)"}, screen)
    assert not finished
    out = re.sub(r"\x1b\[[0-9;]*m", "", buf.getvalue())
    assert "╭─ Your moves" in out
    assert "1) [" in out
    assert "is not a move number" in out
    assert "Input ended" in out
