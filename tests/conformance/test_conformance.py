"""The checks every game must pass (``sniff_twelve.tools.conformance``), run on every installed
game (Sniff, "12", block dominoes) and every variant table in ``tests/conftest.py``, and on the
test-only game ``tests.blockdom``
(its kernels, spec, agents and drawing; one deal, or a match of several to a target), and shown
able to fail. No check knows which game it runs on."""

from __future__ import annotations

import zlib

import pytest

import sniff_env
import twelve_env
from sniff_twelve.core.agent import Agent
from sniff_twelve.tools import conformance
from tests import blockdom
from tests.conftest import GAMES, TABLES, table_id

#: the third game: every table size it plays, one deal, and a match of several deals
THIRD = {"blockdom": blockdom}
THIRD_TABLES = {"blockdom": [{"num_players": 2}, {"num_players": 3}, {"num_players": 3, "target": 9}]}
CASES = [(game, options) for game, tables in {**TABLES, **THIRD_TABLES}.items() for options in tables]


@pytest.mark.parametrize("check", list(conformance.CHECKS))
@pytest.mark.parametrize("game, options", CASES, ids=[f"{g}-{table_id(o)}" for g, o in CASES])
def test_game_passes(game, options, check):
    conformance.CHECKS[check]({**GAMES, **THIRD}[game], options)


@pytest.mark.parametrize("package", [*GAMES.values(), blockdom], ids=[*GAMES, "blockdom"])
def test_every_table_size_is_covered(package):
    covered = {options["num_players"] for options in {**TABLES, **THIRD_TABLES}[package.Game.spec.name]}
    assert covered >= {min(package.Game.spec.players), max(package.Game.spec.players)}


class Peeker(Agent):
    """Plays the lowest or the highest legal move by a checksum of the referee's row: its choice
    depends on tiles and cards its seat cannot see."""

    def act(self, game) -> int:
        legal = game.legal_actions()
        return legal[0] if zlib.crc32(game.state_array.tobytes()) % 2 else legal[-1]


@pytest.mark.parametrize("package", [sniff_env, twelve_env, blockdom], ids=["sniff", "twelve", "blockdom"])
def test_the_twin_check_catches_an_agent_that_peeks(package, monkeypatch):
    agents = package.Game.spec.part("agents")
    monkeypatch.setitem(agents.AGENTS, "peeker", Peeker)
    monkeypatch.setattr(agents, "make_agent", lambda spec: Peeker())
    monkeypatch.setattr(conformance, "TWIN_AGENTS", ("peeker",))
    with pytest.raises(AssertionError, match="peeker moved differently on a twin"):
        conformance.check_no_peek_twins(package, {"num_players": 3}, games=8)


def test_the_twin_check_skips_the_agents_a_game_does_not_declare_and_fails_with_no_position(monkeypatch):
    """Blockdom declares no ``ppo`` (``tests.blockdom.agents``): not tried, so not "skipped for
    failing"; and a check that found no live position to try twins on fails, not passes."""
    checked = conformance.check_no_peek_twins(blockdom, {"num_players": 2})
    assert checked == ["random", "greedy", "heuristic", "rollout:4"]
    assert "ppo" not in blockdom.Game.spec.part("agents").AGENTS
    monkeypatch.setattr(conformance, "_random_game", lambda *args, **kwargs: blockdom.Game(seed=0).clone())
    monkeypatch.setattr(blockdom.Game, "is_terminal", lambda self: True)
    with pytest.raises(AssertionError, match="no random game had a live position"):
        conformance.check_no_peek_twins(blockdom, {"num_players": 2})


def test_the_bounds_check_catches_a_row_taken_unchecked(monkeypatch):
    monkeypatch.setattr(sniff_env.Game, "from_state", classmethod(lambda cls, state, params: None))
    with pytest.raises(AssertionError, match="from_state took"):
        conformance.check_bounds(sniff_env, {"num_players": 2})


def test_the_observation_bounds_check_catches_an_entry_outside(monkeypatch):
    """Hand sizes capped at 6: a 2-player hand holds 7 tiles, so the first position is outside."""
    from sniff_env.observation import OBS

    spec = type(sniff_env.Game.spec)
    bounds = spec.observation_bounds

    def too_tight(params):
        low, high = bounds(params)
        high[OBS.offset("hand_sizes") : OBS.offset("boneyard_size")] = 6
        return low, high

    monkeypatch.setattr(spec, "observation_bounds", staticmethod(too_tight))
    with pytest.raises(AssertionError, match="outside"):
        conformance.check_observation_bounds(sniff_env, {"num_players": 2}, games=1)


def test_the_vector_check_catches_a_row_that_drifts(monkeypatch):
    original = twelve_env.VectorGame.step

    def drifting(self, actions):
        out = original(self, actions)
        self._states[0, twelve_env.Game.spec.CUR + 3] += 1  # a slot the mirror game never sees change
        return out

    monkeypatch.setattr(twelve_env.VectorGame, "step", drifting)
    with pytest.raises(AssertionError, match="row 0 left the game it mirrors"):
        conformance.check_vector_matches_game(twelve_env, {"num_players": 2})


def test_the_twin_check_covers_every_cheap_built_in_agent():
    assert conformance.check_no_peek_twins(sniff_env, {"num_players": 4}) == list(conformance.TWIN_AGENTS)
    assert conformance.check_no_peek_twins(twelve_env, {"num_players": 2}) == [
        "random",
        "greedy",
        "heuristic",
        "rollout:4",
    ]


def test_a_part_a_game_leaves_out_is_the_shared_default_or_the_callers():
    """``spec.part``: "12" declares no arena outcome, so it is the shared places by score (T15);
    Sniff and the test game declare their own; a part without a shared default is the caller's."""
    from sniff_twelve.core.rewards import places_by_score

    assert twelve_env.Game.spec.part("outcome") is places_by_score
    assert sniff_env.Game.spec.part("outcome") is not places_by_score
    assert blockdom.Game.spec.part("outcome") is not places_by_score
    assert blockdom.Game.spec.part("solve") is None and blockdom.Game.spec.part("solve", "none") == "none"
