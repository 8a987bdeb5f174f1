"""Layouts declared once: the kernels' constants, the observers' fields and every documentation
table come from the same ``Layout`` (``sniff_twelve.core.layout``)."""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np
import pytest

import sniff_env
import twelve_env
from sniff_env import kernels as sniff_kernels
from sniff_env import observation as sniff_observation
from sniff_env.tiles import tile_index
from sniff_twelve.core.layout import Layout
from twelve_env import kernels as twelve_kernels
from twelve_env import observation as twelve_observation

DOCS = Path(__file__).resolve().parents[2] / "docs" / "observations.md"


def test_offsets_are_running_sums_of_the_widths() -> None:
    layout = Layout(("a", 2, "x"), ("b", 3, "y"), ("c", 1, "z"))
    assert layout.offsets() == (0, 2, 5) and layout.size == 6
    assert layout.fields() == (("a", 0, 2), ("b", 2, 3), ("c", 5, 1))


def test_symbolic_widths_bind_and_print_as_terms() -> None:
    layout = Layout(("hand", "R", "x"), ("size", 1, "y"), ("hands", "6R", "z"), ("end", 2, "w"))
    assert [row[0] for row in layout.rows()] == ["0", "R", "R+1", "7R+1"]
    assert layout.linear("end") == (7, 1) and layout.end() == (7, 3)
    assert layout.bind(R=11).fields() == (("hand", 0, 11), ("size", 11, 1), ("hands", 12, 66), ("end", 78, 2))
    with pytest.raises(ValueError, match="bind"):
        _ = layout.size


@pytest.mark.parametrize(
    "fields, message",
    [
        ((("a", 1, ""), ("a", 2, "")), "once"),
        ((("a", 0, ""),), "positive"),
        ((("a", "R", ""), ("b", "S", "")), "one symbol"),
        ((("a", "R-1", ""),), "positive"),
    ],
)
def test_bad_declarations_say_what_is_wrong(fields, message) -> None:
    with pytest.raises(ValueError, match=message):
        Layout(*fields)


def test_unknown_field_names_the_fields() -> None:
    with pytest.raises(ValueError, match="fields: a, b"):
        Layout(("a", 1, ""), ("b", 1, "")).offset("c")


@pytest.mark.parametrize("kernels", [sniff_kernels, twelve_kernels], ids=["sniff", "twelve"])
def test_state_slots_are_the_declared_offsets(kernels) -> None:
    """Every field's module constant is its offset (a slot assigned out of order breaks this)."""
    layout = kernels.STATE
    for name, offset, _ in layout.fields():
        assert getattr(kernels, name.upper()) == offset, name
    assert layout.size == kernels.STATE_SIZE
    assert layout.rst() in inspect.getdoc(kernels)  # the docstring table


def test_sniff_observation_constants_and_fields() -> None:
    obs = sniff_observation.OBS
    for name, offset, _ in obs.fields():
        assert getattr(sniff_observation, name.upper()) == offset, name
    assert obs.fields() == sniff_observation.OBS_FIELDS and sniff_observation.OBS_SIZE == obs.size == 135
    assert sniff_observation.CRITIC_SIZE == sniff_observation.CRITIC.size == 135 + 4 * 28
    env = sniff_env.raw_env(num_players=4)
    assert env.state_space.shape == (sniff_observation.CRITIC_SIZE,)
    assert env.observation_spaces["player_0"]["observation"].shape == (obs.size,)


@pytest.mark.parametrize("ranks", [13, 11])
def test_twelve_observation_offsets_follow_the_deck(ranks) -> None:
    obs = twelve_observation.OBS.bind(R=ranks)
    for name, offset, _ in obs.fields():
        a, b = getattr(twelve_observation, name.upper())
        assert a * ranks + b == offset, name
    assert twelve_observation.obs_fields(ranks) == obs.fields() and obs.size == 4 * ranks + 17
    deck = "bridge" if ranks == 13 else "numbers"
    env = twelve_env.raw_env(num_players=3, deck=deck)
    assert env.state_space.shape == (twelve_observation.critic_size(ranks),) == (11 * ranks + 17,)


def test_observation_writer_fills_the_declared_fields() -> None:
    """Known values land where the layout says: hand tiles, the boneyard count, scores."""
    game = sniff_env.Game(num_players=2, seed=3)
    obs = game.observation(game.current_player)
    fields = {name: obs[o : o + w] for name, o, w in sniff_observation.OBS.fields()}
    assert sorted(np.flatnonzero(fields["hand"])) == sorted(tile_index(t) for t in game.hand(game.current_player))
    assert fields["boneyard_size"][0] == game.boneyard_size == 14
    assert fields["hand_sizes"][0] == 7 and not fields["hand_sizes"][1:].any()


@pytest.mark.parametrize(
    "module",
    [sniff_observation, twelve_observation],
    ids=["sniff", "twelve"],
)
def test_docstring_tables_are_generated(module) -> None:
    doc = inspect.getdoc(module)
    assert module.OBS.rst() in doc and module.CRITIC.rst() in doc


def test_docs_page_holds_every_generated_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for layout in (
        sniff_observation.OBS, sniff_observation.CRITIC, sniff_kernels.STATE,
        twelve_observation.OBS, twelve_observation.CRITIC, twelve_kernels.STATE,
    ):  # fmt: skip
        assert layout.markdown() in text, f"regenerate docs/observations.md from {layout!r}"
