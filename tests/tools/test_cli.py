"""Every option a command line gives reaches a command: ``arena`` takes every game option the
browser offers, and the demo's options given before another command are a usage error (exit 2,
one line) instead of being dropped on the way. Every command takes every option of the game, or
its help says why not; so does the ladder, table by table."""

from __future__ import annotations

import argparse
import json

import pytest

import sniff_env.__main__
import twelve_env.__main__
from benchmarks import ladder
from sniff_env.web import WEB as SNIFF
from sniff_twelve.tools.flags import RECORDS_HOLD_OPTIONS
from tests.bounds import usage_error
from twelve_env.web import WEB as TWELVE

ARENA = ["arena", "--players", "2", "--agents", "random", "greedy", "--deals", "1", "--workers", "1", "--no-progress"]


@pytest.mark.parametrize(
    ("main", "web", "options"),
    [
        (sniff_env.__main__.main, SNIFF, {"target": 60, "settlement": "allfives", "undrawn": 1}),
        (twelve_env.__main__.main, TWELVE, {"deck": "numbers", "capture_extra_turn": True}),
    ],
    ids=["sniff", "twelve"],
)
def test_arena_takes_every_option_the_browser_offers(main, web, options, tmp_path, capsys):
    assert set(options) == {option.name for option in web.options}
    flags = []
    for name, value in options.items():
        flag = "--" + name.replace("_", "-")
        flags += [flag] if value is True else [flag, str(value)]
    out, records = tmp_path / "arena.json", tmp_path / "records.jsonl"
    assert main([*ARENA, *flags, "--json", str(out), "--records", str(records)]) == 0
    assert json.loads(out.read_text())["options"] == options
    for line in records.read_text().splitlines():  # the games were played with them
        played = json.loads(line)["options"]
        assert {name: played[name] for name in options} == options


def test_arena_leaves_an_option_not_given_to_the_game(tmp_path, capsys):
    out = tmp_path / "arena.json"
    assert sniff_env.__main__.main([*ARENA, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["options"] == {}


@pytest.mark.parametrize(
    ("main", "argv", "says"),
    [
        (sniff_env.__main__.main, ["--players", "2", "arena"], "--players goes after the command: sniff arena"),
        (sniff_env.__main__.main, ["--seed", "3", "crossplay", "--agents", "a", "b"], "sniff crossplay --seed"),
        (sniff_env.__main__.main, ["--seed", "3", "replay", "x.json"], "sniff replay takes no --seed"),
        (sniff_env.__main__.main, ["--quiet", "serve"], "sniff serve takes no --quiet"),
        (twelve_env.__main__.main, ["--deck", "numbers", "play"], "--deck goes after the command: twelve play --deck"),
        (twelve_env.__main__.main, ["--players", "3", "analyze", "x.json"], "--players goes after the command"),
        (twelve_env.__main__.main, ["--quiet", "analyze", "x.json"], "twelve analyze takes no --quiet"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_an_option_before_a_command_is_a_usage_error(main, argv, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert says in usage_error(capsys, main, argv)
    assert not list(tmp_path.iterdir())  # nothing run, nothing written


def test_with_no_command_the_options_are_the_demos(capsys):
    sniff_env.__main__.main(["--players", "2", "--seed", "5", "--quiet"])
    bare = capsys.readouterr().out
    sniff_env.__main__.main(["demo", "--players", "2", "--seed", "5", "--quiet"])
    assert bare == capsys.readouterr().out
    scores = next(line for line in bare.splitlines() if line.startswith("scores"))
    assert " 1: " in scores and " 2: " not in scores  # two players


def _commands(main_module) -> dict:
    parser = main_module.COMMANDS.parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


@pytest.mark.parametrize("main_module", [sniff_env.__main__, twelve_env.__main__], ids=["sniff", "twelve"])
def test_every_command_takes_every_option_or_says_why_not(main_module):
    options = main_module.COMMANDS.spec.options
    for name, command in _commands(main_module).items():
        flags = set(command._option_string_actions)
        taken = {option.flag for option in options if option.flag in flags}
        if name in ("replay", "beliefs"):  # a record holds its options
            assert not taken and RECORDS_HOLD_OPTIONS in command.description, name
        elif name == "study":  # the study file declares its table's options
            assert not taken and "the table (players and options)" in command.description, name
        elif name == "agents":  # a list: no game is played
            assert not taken and "takes no game option" in command.description, name
        elif name == "serve":  # the start page's defaults; those it does not offer hold for every game
            assert taken == {option.flag for option in options}, name
            for option in options:
                assert option.web or option.flag in " ".join(command.description.split()), option.flag
        else:
            assert taken == {option.flag for option in options}, name


def test_only_a_game_with_partnerships_has_crossplay_and_a_partner():
    assert "crossplay" in _commands(sniff_env.__main__) and "crossplay" not in _commands(twelve_env.__main__)
    assert "--partner" in _commands(sniff_env.__main__)["play"]._option_string_actions
    assert "--partner" not in _commands(twelve_env.__main__)["play"]._option_string_actions


def test_the_ladder_plays_its_tables_under_the_options_given(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ladder, "TABLES", {"t": ("twelve", 2, ["random", "greedy"])})
    monkeypatch.setattr(ladder, "times_per_decision", lambda table, entries: dict.fromkeys(entries, 0.0))
    ladder.main(["--deals", "1", "--workers", "1", "--out", str(tmp_path), "--deck", "numbers", "--capture-extra-turn"])
    played = json.loads((tmp_path / "ladder.json").read_text())["t"]["options"]
    assert played == {"deck": "numbers", "capture_extra_turn": True}


def test_the_ladder_refuses_an_option_of_a_game_it_does_not_play(tmp_path, capsys):
    argv = ["--game", "twelve", "--undrawn", "1", "--out", str(tmp_path)]
    assert "--undrawn: an option of American Sniff" in usage_error(capsys, ladder.main, argv)
    assert not list(tmp_path.iterdir())
