"""Bounds at the agents' public entries: agent specs and their arguments.

The type rules and the helpers: ``tests/bounds.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sniff_env
import sniff_twelve.core.games
import sniff_twelve.core.options
from sniff_env.agents import SniffRolloutAgent
from sniff_env.agents import make_agent as sniff_make_agent
from tests.bounds import (
    BUILT_IN_AGENTS,
    FEW,
    FUZZ,
    NOT_INTEGERS,
    outside,
    raises_kind,
    raises_range,
    raises_value,
)
from twelve_env.agents import TwelveRolloutAgent
from twelve_env.agents import make_agent as twelve_make_agent

#: every name an agent spec may start with: the built-in agents, the presets and the old spellings
ACCEPTED = (*BUILT_IN_AGENTS, "guided", "belief", "ismcts")


# --- agents -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("make_agent", [sniff_make_agent, twelve_make_agent], ids=["sniff", "twelve"])
def test_agent_specs_are_checked(make_agent):
    """Bounds at every public entry: an agent spec is a ``str`` naming a built-in agent; ``rollout:N``
    needs an integer N ≥ 1; argument-less agents take none."""
    for spec in ("rollout:0", "rollout:-3", "rollout:1.5", "rollout:x", "greedy:3", "random:1", "heuristic:x"):
        with pytest.raises(ValueError):
            make_agent(spec)
    assert make_agent("rollout:2").iterations == 2
    assert make_agent("greedy").name == "greedy"

    @FUZZ
    @given(
        st.one_of(st.integers(), st.none(), st.floats(), st.lists(st.just("greedy"), max_size=2), st.just(b"greedy")),
        st.text(max_size=8).filter(lambda s: s.partition(":")[0] not in ACCEPTED and not {"+", "@"} & set(s)),
        st.one_of(
            st.integers(max_value=0).map(str),
            st.floats(allow_nan=False, allow_infinity=False).map(repr),
            st.text(alphabet="abcxyz.-+ ", min_size=1, max_size=4),
        ),
    )
    def check(not_a_str, unknown, bad_iterations):
        error = raises_kind("", make_agent, not_a_str)
        assert "spec" in str(error) or "agent" in str(error)
        error = raises_value("", make_agent, unknown)
        assert all(agent in str(error) for agent in BUILT_IN_AGENTS), f"built-in agents not listed in {error}"
        raises_value("", make_agent, f"rollout:{bad_iterations}")

    check()


@pytest.mark.parametrize("agent_cls", [SniffRolloutAgent, TwelveRolloutAgent], ids=["sniff", "twelve"])
def test_rollout_iterations_follow_the_integer_rule(agent_cls):
    """Bounds at every public entry: rollout iterations are an integer ≥ 1."""

    @FEW
    @given(NOT_INTEGERS, outside(1))
    def check(wrong, too_few):
        raises_kind("iterations", agent_cls, iterations=wrong)
        raises_range("iterations", agent_cls, iterations=too_few, bounds=(1,))

    check()
    assert agent_cls(iterations=np.int64(3)).iterations == 3


def test_game_package_names_a_game():
    """Bounds at every public entry: ``sniff_twelve.core.games.game_package`` takes "sniff" or "twelve"."""
    assert sniff_twelve.core.games.game_package("sniff") is sniff_env
    for bad in ("Sniff", "", "chess", 3, None):
        raises_value("game", sniff_twelve.core.games.game_package, bad)
