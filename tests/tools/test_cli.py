"""Every option a command line gives reaches a command: ``arena`` takes every game option the
browser offers, and the demo's options given before another command are a usage error (exit 2,
one line) instead of being dropped on the way."""

from __future__ import annotations

import json

import pytest

import sniff_env.__main__
import twelve_env.__main__
from sniff_env.web import WEB as SNIFF
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
        (twelve_env.__main__.main, ["--players", "3", "analyze", "x.json"], "twelve analyze takes no --players"),
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
