"""``SPEC.options``: every game option declared once (name, default, kind, rule, help), and every
one accepted — by its own name — by ``Game``, the envs, ``VectorGame``, the OpenSpiel game and the
``arena`` / ``crossplay`` CLIs (``--name-with-dashes``), with the same default everywhere."""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

import sniff_env
import twelve_env
from sniff_env.__main__ import main as sniff_main
from sniff_twelve.core.options import ArgumentTypeError, GameOption
from twelve_env.__main__ import main as twelve_main

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"sniff": (sniff_env, sniff_main, 2), "twelve": (twelve_env, twelve_main, 2)}
#: what each game's options are, written out here (the schema must declare exactly these)
EXPECTED = {
    "sniff": {
        "target": None,
        "max_hands": 200,
        "max_steps": None,
        "settlement": "deduct",
        "undrawn": 0,
        "pips": 6,
        "hand_size": None,
    },
    "twelve": {"deck": "bridge", "capture_extra_turn": False, "hand_size": 5},
}
#: a value other than the default for each option, and what the game then reports
OTHER = {"target": 150, "max_hands": 7, "max_steps": 90, "settlement": "allfives", "undrawn": 2, "pips": 5}
OTHER |= {"deck": "numbers", "capture_extra_turn": True, "hand_size": 4}
CASES = [(game, name) for game, names in EXPECTED.items() for name in names]


def _spec(game: str):
    return GAMES[game][0].Game.spec


def _option(game: str, name: str) -> GameOption:
    return _spec(game).option(name)


def test_each_game_declares_its_options_once_with_name_default_rule_and_help():
    for game, expected in EXPECTED.items():
        options = _spec(game).options
        assert {o.name: o.default for o in options} == expected
        assert len({o.name for o in options}) == len(options)
        assert all(o.label and o.rule[:1] in "ST" and o.kind in ("int", "limit", "choice", "bool") for o in options)


@pytest.mark.parametrize(("game", "name"), CASES)
def test_game_envs_and_vector_game_take_the_option_by_name(game, name):
    package = GAMES[game][0]
    value = OTHER[name]
    assert package.Game(num_players=2, seed=0, **{name: value}).record_options()[name] == value
    wrapped, raw, single = (
        make(num_players=2, **{name: value}) for make in (package.env, package.raw_env, package.single_agent_env)
    )
    for env in (wrapped, raw, single):
        env.reset(seed=0)
    games = [wrapped.unwrapped.game, raw.game, single.game]
    vector = package.VectorGame(4, num_players=2, seed=0, **{name: value})
    vector.reset()
    learner = package.vector_env(4, num_players=2, seed=0, **{name: value})
    learner.reset(seed=0)
    games += [vector.game(3), learner.game(3)]
    assert [game.record_options()[name] for game in games] == [value] * 5


@pytest.mark.parametrize(("game", "name"), CASES)
def test_a_game_and_every_seat_s_view_read_the_option_back_by_name(game, name):
    package = GAMES[game][0]
    played = package.Game(num_players=3, seed=1, **{name: OTHER[name]})
    played.apply(played.legal_actions()[0])
    assert getattr(played, name) == OTHER[name]
    assert [getattr(played.seat_view(seat), name) for seat in range(3)] == [OTHER[name]] * 3


def test_an_option_named_like_an_attribute_of_every_game_is_refused():
    from sniff_twelve.core.game import BaseGame
    from tests.blockdom.spec import BlockdomSpec

    class ClashingSpec(BlockdomSpec):
        options = (GameOption("hand_sizes", 1, "Shadows Game.hand_sizes", "int", slot=1),)

    with pytest.raises(TypeError, match="'hand_sizes'"):
        type("Clashing", (BaseGame,), {"spec": ClashingSpec()})


def test_an_option_left_to_the_table_reads_back_resolved():
    assert [sniff_env.Game(n).target for n in (2, 3, 4)] == [250, 200, 200]  # S3
    assert sniff_env.Game(2).max_steps is None and twelve_env.Game(2).deck == "bridge"


@pytest.mark.parametrize(("game", "name"), CASES)
def test_every_signature_default_is_the_declared_default(game, name):
    package = GAMES[game][0]
    default = _option(game, name).default
    for constructor in (package.Game, package.raw_env, package.VectorGame):
        parameter = inspect.signature(constructor).parameters[name]
        assert parameter.default == default, (constructor, name)


def test_no_signature_restates_an_option():
    """An option's default and type are declared once, in ``SPEC.options``: a parameter named after
    an option that has a default anywhere in the packages is never given one of its own
    (``with_options`` puts the declared default in the signature)."""
    names = set(EXPECTED["sniff"]) | set(EXPECTED["twelve"])
    restated = []
    for package in ("sniff_env", "twelve_env", "sniff_twelve"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    arguments = node.args
                    positional = arguments.posonlyargs + arguments.args
                    defaults = dict(zip([a.arg for a in positional][::-1], arguments.defaults[::-1], strict=False))
                    keyword = zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
                    defaults |= {a.arg: d for a, d in keyword if d}
                    restated += [
                        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}({name}=…)"
                        for name, default in defaults.items()
                        if name in names
                    ]
    assert not restated, restated


def test_the_positional_orders_of_the_api_hold():
    """``sniff_env.Game(num_players, seed, target, deal)``, ``twelve_env.Game(num_players, deck, seed, deal)``,
    ``twelve_env.VectorGame(num_envs, num_players, deck, seed)`` (docs/api.md)."""
    assert sniff_env.Game(2, 5, 150).to_record() == sniff_env.Game(num_players=2, seed=5, target=150).to_record()
    twelve = twelve_env.Game(3, "numbers", 5).to_record()
    assert twelve == twelve_env.Game(num_players=3, deck="numbers", seed=5).to_record()
    assert twelve != twelve_env.Game(num_players=3, deck="numbers", seed=6).to_record()
    vector = twelve_env.VectorGame(2, 3, "numbers", 5)
    vector.reset()
    assert vector.game(0).deck == "numbers" and vector.num_players == 3


@pytest.mark.parametrize(("game", "name"), CASES)
def test_a_bad_value_is_refused_naming_the_option_and_what_it_allows(game, name):
    package = GAMES[game][0]
    bad: dict[str, Any] = {"int": 0, "limit": -1, "choice": "nonsense", "bool": 1}
    with pytest.raises(ValueError, match=name):
        package.Game(num_players=2, **{name: bad[_option(game, name).kind]})


def test_an_unknown_option_names_the_real_ones():
    from sniff_env.spec import SPEC

    names = "target, max_hands, max_steps, settlement, undrawn, pips, hand_size, episode"
    with pytest.raises(ArgumentTypeError, match=names):
        SPEC.make_params(2, tagret=150)


@pytest.mark.parametrize(("game", "name"), CASES)
def test_the_openspiel_game_takes_the_option_by_its_name(game, name):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip({"sniff": "sniff_env.openspiel", "twelve": "twelve_env.openspiel"}[game])  # registers it
    short = f"python_{game}"
    spiel = pyspiel.load_game(short, {"players": 2, name: OTHER[name]})
    assert spiel.get_parameters()[name] == OTHER[name]
    option = _option(game, name)
    if option.kind != "bool":  # OpenSpiel itself refuses a flag of the wrong type
        bad = "nonsense" if isinstance(option.default, str) else -5
        with pytest.raises(ValueError, match=name):
            pyspiel.load_game(short, {"players": 2, name: bad})


@pytest.mark.parametrize(("game", "name"), CASES)
def test_the_arena_cli_takes_the_option_as_a_flag(game, name, tmp_path):
    _, main, players = GAMES[game]
    option = _option(game, name)
    value = OTHER[name]
    given = [option.flag] if value is True else [option.flag, str(value)]
    out = tmp_path / "arena.json"
    argv = ["arena", "--players", str(players), "--agents", "random", "greedy", "--deals", "1", "--workers", "1"]
    assert main([*argv, *given, "--no-progress", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["options"] == {name: value}


@pytest.mark.parametrize("name", list(EXPECTED["sniff"]))
def test_the_crossplay_cli_takes_the_option_as_a_flag(name, monkeypatch):
    from sniff_twelve.tools import crossplay

    seen = {}
    monkeypatch.setattr(crossplay, "main", lambda args, table: seen.setdefault("table", table) and 0)
    flag = _option("sniff", name).flag
    assert sniff_main(["crossplay", "--agents", "random", "greedy", flag, str(OTHER[name])]) == 0
    assert seen["table"].options == {name: OTHER[name]}


def test_a_bad_flag_value_is_a_usage_error_naming_the_flag(capsys):
    with pytest.raises(SystemExit) as exit:
        sniff_main(["arena", "--players", "2", "--agents", "random", "greedy", "--target", "0"])
    assert exit.value.code == 2 and "--target" in capsys.readouterr().err


def test_the_start_page_offers_the_options_marked_for_it():
    from sniff_env.web import WEB as SNIFF_WEB
    from twelve_env.web import WEB as TWELVE_WEB

    assert [o.name for o in SNIFF_WEB.options] == ["target", "settlement", "undrawn"]
    assert [o.name for o in TWELVE_WEB.options] == ["deck", "capture_extra_turn"]


def test_the_environment_options_are_declared_once_and_checked_together():
    """``SPEC.env_options`` and the rewards (``GameSpec.setup``): a single hand has no match winner,
    so ``reward="win"`` with ``episode="hand"`` is refused naming both; the reward defaults by
    episode (``reward_choices``), and ``forced`` goes to the modes row, ``episode`` to its slot."""
    from sniff_env.spec import SPEC

    with pytest.raises(ValueError, match=r"reward='win' does not go with .*episode='hand'.*choose 'points'"):
        sniff_env.env(episode="hand", reward="win")
    params, modes = SPEC.setup(4, episode="hand", forced="auto")
    assert modes.tolist() == [SPEC.reward_modes["points"], 1]
    assert SPEC.record_options(params)["episode"] == "hand"
    _, modes = SPEC.setup(4)
    assert modes.tolist() == [SPEC.reward_modes["win"], 0]
    with pytest.raises(ValueError, match="forced"):
        SPEC.setup(4, forced="sometimes")
