"""``Game.clone``: a twin that shares nothing the original can see change, late in a match too."""

import copy
import random

import numpy as np
import pytest

import sniff_env
import twelve_env


def _public(game) -> dict:
    """Everything a user reads of a game, as plain values."""
    views = [game.seat_view(seat, past=True) for seat in range(game.num_players)]
    return {
        "row": game.state_array.tolist(),
        "history": list(game.history),
        "events": list(getattr(game, "events", [])),
        "views": [(v.array.tolist(), v.past.tolist(), v.past_actions.tolist()) for v in views],
        "legal": game.legal_actions(),
    }


@pytest.mark.parametrize(("module", "moves"), [(sniff_env, 60), (twelve_env, 12)], ids=["sniff", "twelve"])
def test_a_clone_played_to_the_end_leaves_the_original_as_it_was(module, moves):
    rng = random.Random(5)
    game = module.Game(seed=5)
    for _ in range(moves):  # well into the game: a history, events and the deal's stored rows
        game.apply(rng.choice(game.legal_actions()))
    reference = copy.deepcopy(game)  # the slow, obviously independent copy
    twin = game.clone()
    while not twin.is_terminal():
        twin.apply(rng.choice(twin.legal_actions()))
    assert _public(game) == _public(reference)
    assert np.array_equal(game.state_array, reference.state_array)
    # and the other way round: the original moving on leaves the twin's record alone
    twin_before = _public(twin)
    game.apply(game.legal_actions()[0])
    assert _public(twin) == twin_before
