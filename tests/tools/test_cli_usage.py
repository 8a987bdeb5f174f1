"""What a newcomer types: every numeric argument of every command is checked (a usage error: exit 2,
one ``error:`` line, nothing run), an unknown option names the closest one, the help shows the
defaults, the errors suggest what to type, and ``agents`` lists every agent spec the game accepts."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

import sniff_env.__main__
import twelve_env.__main__
from benchmarks import ladder
from sniff_env.agents import make_agent as sniff_agent
from sniff_twelve.tools import arena, roster
from tests.bounds import usage_error
from twelve_env.agents import make_agent as twelve_agent

SNIFF, TWELVE = sniff_env.__main__.main, twelve_env.__main__.main
ROOT = Path(__file__).resolve().parents[2]
LINEUP = ["--players", "2", "--agents", "random", "greedy", "--no-progress"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["arena", *LINEUP, "--deals", "-3"], "--deals must be at least 1; got -3"),
        (["arena", *LINEUP, "--deals", "0"], "--deals must be at least 1; got 0"),
        (["arena", *LINEUP, "--deals", "two"], "--deals must be a whole number; got 'two'"),
        (["arena", *LINEUP, "--workers", "0"], "--workers must be at least 1"),
        (["arena", *LINEUP, "--seed", "-1"], "--seed must be at least 0"),
        (["crossplay", "--agents", "greedy", "heuristic", "--deals", "-1"], "--deals must be at least 1"),
        (["crossplay", "--agents", "greedy", "heuristic", "--seed", "-4"], "--seed must be at least 0"),
        (["crossplay", "--agents", "greedy", "heuristic", "--workers", "0"], "--workers must be at least 1"),
        (["analyze", "x.json", "--worlds", "0"], "--worlds must be at least 1"),
        (["analyze", "x.json", "--max-nodes", "0"], "--max-nodes must be at least 1"),
        (["analyze", "--agents", "random", "greedy", "--deals", "0"], "--deals must be at least 1"),
        (["analyze", "x.json", "--seed", "-1"], "--seed must be at least 0"),
        (["replay", "x.json", "--game", "0"], "--game must be at least 1"),
        (["serve", "--port", "0"], "--port must be from 1 to 65535"),
        (["serve", "--port", "70000"], "--port must be from 1 to 65535"),
        (["play", "--seed", "-1"], "--seed must be at least 0"),
        (["demo", "--seed", "-1"], "--seed must be at least 0"),
        (["--seed", "-1"], "--seed must be at least 0"),
        (["beliefs", "x.json", "--model", "greedy", "--worlds", "-2"], "--worlds must be at least 1"),
        (["beliefs", "x.json", "--model", "greedy", "--epsilon", "1.5"], "--epsilon must be a number from 0 to 1"),
        (["beliefs", "x.json", "--model", "greedy", "--epsilon", "nan"], "--epsilon must be a number from 0 to 1"),
        (["beliefs", "x.json", "--model", "greedy", "--seed", "-1"], "--seed must be at least 0"),
        (["arena", "--players", "5"], "--players: invalid choice: 5"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_a_bad_number_is_one_line_and_nothing_runs(argv, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(arena, "play_tasks", lambda *a, **k: pytest.fail("a game was played"))
    assert says in usage_error(capsys, SNIFF, argv)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("main", "argv", "says"),
    [
        (TWELVE, ["--playrs", "2"], "twelve has no option --playrs (did you mean --players?)"),
        (TWELVE, ["arena", "--num-players", "4"], "twelve arena has no option --num-players (did you mean --players?)"),
        (SNIFF, ["arena", "--deal", "4"], "did you mean --deals?"),  # no abbreviations: a later option cannot break it
        (SNIFF, ["play", "--opponent=greedy"], "did you mean --opponents?"),
        (SNIFF, ["arena", "--colour"], "sniff arena has no option --colour; see sniff arena --help"),
        (TWELVE, ["arean"], "invalid choice: 'arean' (did you mean 'arena'?)"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_an_unknown_option_names_the_closest_one(main, argv, says, capsys):
    assert says in usage_error(capsys, main, argv)


def test_the_benchmark_ladder_checks_its_numbers_too(capsys, tmp_path):
    for argv, says in ((["--deals", "0"], "--deals must be at least 1"), (["--workers", "0"], "--workers must be")):
        assert says in usage_error(capsys, ladder.main, [*argv, "--out", str(tmp_path)])
    assert "did you mean --deals?" in usage_error(capsys, ladder.main, ["--deal", "3"])
    assert not list(tmp_path.iterdir())


def _help(main, argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*argv, "--help"])
    assert stop.value.code == 0
    return " ".join(capsys.readouterr().out.split())


def test_the_help_shows_the_defaults_and_points_to_the_agents(capsys):
    text = _help(TWELVE, ["arena"], capsys)
    assert "seats (default: 3)" in text and "(default: 50)" in text and "(default: random greedy heuristic)" in text
    assert "twelve agents" in text and "partnership" not in text  # "12" has none
    sniff = _help(SNIFF, ["arena"], capsys)
    assert "seats (default: 4)" in sniff and "sniff agents" in sniff and "'a+b' is a mixed one" in sniff
    assert "(default: 0)" in _help(SNIFF, ["play"], capsys)  # --seat, --seed
    assert "(default: 8000)" in _help(SNIFF, ["serve"], capsys)


@pytest.mark.parametrize("package", ["sniff_env", "twelve_env", "dominoes_env"])
def test_the_help_points_to_the_page_of_the_rule_book_that_holds_the_games_rules(package, capsys):
    """``--help`` opens with the game's title and the address of its part of the rule book: the
    documentation page built from ``docs/<page>.md``, which holds that part."""
    main = importlib.import_module(f"{package}.__main__").main
    text = _help(main, [], capsys)
    found = re.search(
        r"\.\.\. ([^.]+)\. Rules, Part ([A-Z]): https://sniff-twelve\.readthedocs\.io/en/latest/(\w+)\.html", text
    )
    assert found, text[:300]
    title, part, page = found.groups()
    assert title[0].isupper() or title[0] == '"', title  # a sentence: "Block dominoes. Rules, …"
    assert re.search(rf"^#.*Part {part}\b", (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8"), re.M)


def test_the_help_is_plain_text(capsys):
    """The descriptions made from docstrings lose their reST markup."""
    for text in (_help(SNIFF, ["beliefs"], capsys), _help(ladder.main, [], capsys)):
        assert "``" not in text and "**" not in text
    assert "scored by the log-loss in bits" in _help(SNIFF, ["beliefs"], capsys)


def test_a_table_short_of_entries_suggests_fewer_players(capsys):
    says = usage_error(capsys, TWELVE, ["arena", "--agents", "greedy", "random", "--no-progress"])
    assert says == "error: a 3-player table needs at least 3 entries (--players 3): give more --agents, or --players 2"


def test_a_guided_search_without_a_checkpoint_names_its_own_spec():
    with pytest.raises(ValueError, match=r"no shipped twelve checkpoint .* pass one as 'guided:64:PATH'"):
        twelve_agent("guided:64").check_table(2)
    with pytest.raises(ValueError, match="pass one as 'ppo:PATH'"):
        twelve_agent("ppo").check_table(2)


@pytest.mark.parametrize(("typed", "meant"), [("gredy", "greedy"), ("rolout:8", "rollout"), ("guidd", "guided")])
def test_a_misspelt_agent_suggests_the_name(typed, meant):
    with pytest.raises(ValueError, match=f"unknown agent '{typed.partition(':')[0]}' \\(did you mean '{meant}'\\?\\)"):
        sniff_agent(typed)


def test_one_deal_prints_its_intervals_as_undefined(capsys):
    assert SNIFF(["arena", *LINEUP, "--deals", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "± n/a" in out and "inf" not in out and "nan" not in out


def test_the_arena_refuses_no_deals_from_python_too():
    table = arena.Table.of(sniff_env.Game.spec, 2)
    for keywords in ({"deals": 0}, {"deals": -3}, {"deals": 2, "workers": 0}, {"deals": 2, "seed": -1}):
        with pytest.raises(ValueError, match="must be"):
            arena.run(table, ["random", "greedy"], progress=False, **keywords)


def _listing(main, capsys) -> list[str]:
    assert main(["agents"]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize(("main", "agents"), [(SNIFF, sniff_env.agents), (TWELVE, twelve_env.agents)])
def test_agents_lists_every_spec_the_game_accepts(main, agents, capsys, monkeypatch):
    monkeypatch.setattr(roster, "installed_agents", lambda group: {"heaviest": "my_agents:Heaviest"})
    lines = _listing(main, capsys)
    forms = [line.split()[0] for line in lines]  # one spec a line, nothing else
    for form in forms:  # each form names something make_agent knows
        assert form.partition(":")[0].partition("[")[0] in [*agents.AGENTS, "py", "heaviest"], form
    expected = {
        "random",
        "greedy",
        "heuristic",
        "rollout[:N]",
        "pimc[:K[:MODEL]]",
        "ppo[:CHECKPOINT]",
        "guided[:N[:CHECKPOINT]]",
        "belief[:N[:MODEL]]",
        "sb3:PATH",
        "rllib:PATH",
        "rollout[:N]@ppo[:CHECKPOINT]",
        "belief[:N[:MODEL]]@ppo[:CHECKPOINT]",
        "py:package.module:Name[:ARG]",
        "heaviest[:ARG]",
    }
    assert set(forms) == expected and len(forms) == len(expected)
    assert any("installed: my_agents:Heaviest" in line for line in lines)


def test_agents_quotes_the_ladder_it_ships(capsys):
    lines = {line.split()[0]: line for line in _listing(SNIFF, capsys)}
    assert "2p: 12 ms, ladder #1/8 0.704 ± 0.051" in lines["belief[:N[:MODEL]]"]
    assert "4p: 0.404 ms, ladder #1/8 0.671 ± 0.056" in lines["guided[:N[:CHECKPOINT]]"]  # tied first
    assert "#3/8 0.636" in lines["rollout[:N]"] and "#3/8 0.636" in lines["pimc[:K[:MODEL]]"]
    twelve = {line.split()[0]: line for line in _listing(TWELVE, capsys)}
    assert "2p: 4.5 ms, ladder #1/6 0.652 ± 0.061" in twelve["belief[:N[:MODEL]]"]
    assert "no checkpoint shipped" in twelve["guided[:N[:CHECKPOINT]]"] and "ms" not in twelve["ppo[:CHECKPOINT]"]
    shipped = json.loads((roster.resources.files("twelve_env") / roster.LADDER_FILE).read_text())
    assert set(shipped["tables"]) == {"2"}


def test_the_demo_names_its_players_and_seed(capsys):
    SNIFF(["--players", "2", "--seed", "7", "--quiet"])
    first = capsys.readouterr().out.splitlines()[0]
    assert "2 players" in first and "random" in first and "seed 7" in first


def test_agents_of_a_game_with_no_ladder_and_no_agents_of_its_own(capsys, monkeypatch):
    """A game that ships no ``ladder.json`` and writes no agents (block dominoes without its
    ``agents`` part) lists the spec's agents, bare."""
    from sniff_twelve.tools.cli import GameCommands
    from tests.blockdom.spec import SPEC

    monkeypatch.setattr(type(SPEC), "parts", {k: v for k, v in SPEC.parts.items() if k != "agents"})
    lines = _listing(GameCommands(SPEC).main, capsys)
    assert [line.split()[0] for line in lines] == [
        "random",
        "greedy",
        "heuristic",
        "rollout[:N]",
        "py:package.module:Name[:ARG]",
    ]
    assert lines[0] == "random"  # nothing measured
