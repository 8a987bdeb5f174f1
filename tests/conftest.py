"""Shared fixtures: the game packages every game-generic test runs on, and the tables they use."""

from __future__ import annotations

from types import ModuleType

import pytest

import dominoes_env
import sniff_env
import twelve_env

GAMES: dict[str, ModuleType] = {"sniff": sniff_env, "twelve": twelve_env, "dominoes": dominoes_env}

#: tables (options of ``env`` / ``VectorGame``; ``Game`` takes the rules' part) the conformance
#: suite runs each check on, covering every variant
TABLES: dict[str, list[dict]] = {
    "sniff": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4},
        {"num_players": 4, "forced": "auto"},
        {"num_players": 3, "episode": "hand"},
        {"num_players": 2, "settlement": "allfives", "undrawn": 2},
    ],
    "twelve": [
        {"num_players": 2},
        {"num_players": 4, "deck": "numbers"},
        {"num_players": 7},
        {"num_players": 3, "capture_extra_turn": True},
        {"num_players": 5, "deck": "numbers", "reward": "win"},
    ],
    "dominoes": [{"num_players": 2}, {"num_players": 4}, {"num_players": 4, "reward": "win"}],
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` start the run: pytest-xdist then hands the short ones to whichever
    worker is free, so neither waits alone on a long one at the end (the order is the same in every
    worker; no test depends on it)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def table_id(options: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items())


@pytest.fixture(params=list(GAMES), ids=list(GAMES))
def game_package(request: pytest.FixtureRequest) -> ModuleType:
    """Each game package in turn (``sniff_env``, ``twelve_env``, ``dominoes_env``)."""
    return GAMES[request.param]
