"""The agent grammar (docs/agents.md), parsed by ``AgentSpec``: specs written back as parsed, ``+``
a partnership only, a guide after ``@``, the old spellings warned about and playing as the new ones,
unknown names answered with the closest."""

from __future__ import annotations

import re
import warnings

import pytest

import sniff_env
import twelve_env
from sniff_env.agents import make_agent
from sniff_twelve.agents.builtin import spec_make_agent
from sniff_twelve.agents.spec import AgentSpec, partners
from sniff_twelve.tools.arena import schedule
from twelve_env.agents import make_agent as twelve_agent

SHIPPED_4P = str(sniff_env.agents.PpoAgent.shipped()[4])

#: every current form, written as ``str`` writes it back
CURRENT = (
    "greedy",
    "rollout:64",
    "rollout@ppo",
    "rollout:64@ppo",
    "rollout:64@ppo:runs/sniff4/best.npz",
    "belief",
    "belief:2048:greedy@ppo",
    "guided:8:runs/a.npz",
    "pimc:4:heuristic",
    "ppo:runs/a@b.npz",
    "py:my_agents:Heaviest:3",
)
#: the old spellings and the new ones they name
OLD_AND_NEW = (
    ("ismcts", "rollout"),
    ("ismcts:6", "rollout:6"),
    ("ismcts+ppo", "rollout@ppo"),
    ("ismcts:6+ppo", "rollout:6@ppo"),
    (f"ismcts:6+ppo:{SHIPPED_4P}", f"rollout:6@ppo:{SHIPPED_4P}"),
    ("belief:6:greedy+ppo", "belief:6:greedy@ppo"),
    ("belief:6+ppo", "belief:6@ppo"),
)


@pytest.mark.parametrize("text", CURRENT)
def test_a_current_spec_reads_back_as_written_without_a_warning(text):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = AgentSpec.parse(text)
    assert str(spec) == text and AgentSpec.parse(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("greedy", AgentSpec("greedy")),
        ("rollout:64", AgentSpec("rollout", "64")),
        ("belief:64:greedy@ppo", AgentSpec("belief", "64:greedy", AgentSpec("ppo"))),
        ("rollout:8@ppo:runs/a@b.npz", AgentSpec("rollout", "8", AgentSpec("ppo", "runs/a@b.npz"))),
        ("ppo:runs/a@b.npz", AgentSpec("ppo", "runs/a@b.npz")),  # an @ inside a path guides nothing
        ("py:my_agents:Heaviest:3", AgentSpec("py", "my_agents:Heaviest:3")),
    ],
)
def test_the_parts_of_a_spec(text, parsed):
    assert AgentSpec.parse(text) == parsed


def test_plus_is_a_partnership_only():
    """``+`` joins the agents of an arena entry, one a seat of its side; ``AgentSpec`` (one agent)
    refuses it; ``rollout:4+ppo`` is two agents, ``rollout:4@ppo`` one."""
    for entry in ("greedy+heuristic", "rollout:4+ppo"):
        with pytest.raises(ValueError, match="is a partnership"):
            AgentSpec.parse(entry)
    assert partners("greedy+heuristic") == ["greedy", "heuristic"]
    assert partners("rollout:4+ppo") == ["rollout:4", "ppo"]
    assert partners("rollout:4@ppo+greedy") == ["rollout:4@ppo", "greedy"]
    assert partners("belief:8:greedy+ppo:x.npz") == ["belief:8:greedy", "ppo:x.npz"]  # as it always was
    table = sniff_env.agents.arena_table(4)
    seatings = {task.seating for _, task in schedule(table, ["rollout:4@ppo+greedy", "rollout:4+ppo"], 1, 0)}
    assert seatings == {
        ("rollout:4@ppo", "rollout:4", "greedy", "ppo"),
        ("rollout:4", "rollout:4@ppo", "ppo", "greedy"),
    }


@pytest.mark.parametrize(("old", "new"), OLD_AND_NEW)
def test_an_old_spelling_warns_with_the_new_one(old, new):
    with pytest.warns(DeprecationWarning, match=re.escape(f"agent spec {old!r} is deprecated: write {new!r}")):
        assert str(AgentSpec.parse(old)) == new


@pytest.mark.parametrize(("old", "new"), OLD_AND_NEW)
def test_an_old_spelling_plays_as_the_new_one(old, new):
    """The same class, settings and moves from the same seed (its stream kept in step over a game)."""
    with pytest.warns(DeprecationWarning):
        before = make_agent(old, seed=5)
    after = make_agent(new, seed=5)
    assert type(before) is type(after) and repr(before) == repr(after)
    game = sniff_env.Game(num_players=4, seed=3)
    for _ in range(6):
        action = before.act(game)
        assert action == after.act(game)
        game.apply(action)


def test_the_old_name_plays_as_rollout_in_twelve_too():
    with pytest.warns(DeprecationWarning, match="write 'rollout:5'"):
        before = twelve_agent("ismcts:5", seed=2)
    after = twelve_agent("rollout:5", seed=2)
    game = twelve_env.Game(num_players=2, seed=4)
    for _ in range(6):
        action = before.act(game)
        assert action == after.act(game)
        game.apply(action)


def test_the_preset_guided_is_rollout_guided_by_ppo():
    game = sniff_env.Game(num_players=4, seed=9)
    for spec in ("rollout:6@ppo", f"rollout:6@ppo:{SHIPPED_4P}"):
        preset = "guided:6" + spec.removeprefix("rollout:6@ppo")
        a, b = make_agent(spec, seed=1), make_agent(preset, seed=1)
        assert type(a) is type(b) and repr(a) == repr(b) and a.act(game) == b.act(game)
    guided = make_agent("belief:6:greedy@ppo")
    assert (guided.iterations, guided.model, guided.guide) == (6, "greedy", "ppo")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("rolout:8", "unknown agent 'rolout' (did you mean 'rollout'?)"),
        ("gided", "unknown agent 'gided' (did you mean 'guided'?)"),
        ("ismct:4", "unknown agent 'ismct' (did you mean 'rollout'?)"),  # an old name points to the new
        ("pimc:2@ppo", "'pimc' takes no @POLICY (a policy guides rollout, belief)"),
        ("guided:8@ppo", "'guided' takes no @POLICY"),
        ("rollout:8@greedy", "a search is guided by the trained policy, @ppo[:CHECKPOINT]; got @greedy"),
        ("rollout@ppo@ppo", "a guide takes no guide of its own"),
        ("rollout:x@ppo", "what follows ':' is a number of iterations"),
        ("rollout:8@ppo:/no/such.npz", "no such file"),
        (":8", "unknown agent ''; built-in agents: random, greedy"),
    ],
)
def test_a_bad_spec_is_one_clear_error(text, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        make_agent(text)


def test_a_game_without_a_guided_search_says_so():
    with pytest.raises(ValueError, match="this game has no guided search"):
        spec_make_agent("rollout:4@ppo")
