"""``Game.is_terminal()`` and ``Game.is_truncated()`` are methods in both games, and a seat's
view answers them too (truncation is public: the hand count is on the table)."""

from __future__ import annotations

import pytest

import sniff_env
import twelve_env


def test_sniff_truncation_is_a_method_and_tells_a_truncated_match_from_a_won_one():
    g = sniff_env.Game(num_players=2, seed=3, max_hands=1)
    assert not g.is_terminal() and g.is_truncated() is False
    while not g.is_terminal():
        g.apply(g.legal_actions()[0])
    assert g.winner is None and g.is_truncated() is True  # S26: one hand, far from the target
    assert g.seat_view(0).is_truncated() is True
    won = sniff_env.Game(num_players=2, seed=3, target=5)
    while not won.is_terminal():
        won.apply(won.legal_actions()[0])
    assert won.winner is not None and won.is_truncated() is False


def test_twelve_never_truncates():
    g = twelve_env.Game(num_players=3, seed=5)
    while not g.is_terminal():
        assert g.is_truncated() is False
        g.apply(g.legal_actions()[0])
    assert g.is_terminal() is True and g.is_truncated() is False


def test_the_old_property_spelling_still_reads_as_the_bool_with_a_deprecation():
    g = sniff_env.Game(num_players=2, seed=3, max_hands=1)
    while not g.is_terminal():
        g.apply(g.legal_actions()[0])
    with pytest.warns(DeprecationWarning, match=r"is_truncated\(\)"):
        assert g.is_truncated
    with pytest.warns(DeprecationWarning):
        assert twelve_env.Game(num_players=2, seed=1).is_truncated == False  # noqa: E712 (the old spelling)
