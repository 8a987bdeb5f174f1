"""Bounds at the state object's public entries: tiles and action ids, ``Game`` options, seeds,
methods and deals.

The type rules and the helpers: ``tests/bounds.py``."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sniff_env
import twelve_env
from sniff_env import single_agent_env as sniff_single
from sniff_env.tiles import PASS, TILES, action_name, decode_action, encode_action, tile_index
from tests.bounds import (
    FEW,
    FUZZ,
    GAMES,
    MAX_LIMIT,
    NOT_FLAGS,
    NOT_INTEGERS,
    WRONG_KINDS,
    ArgumentTypeError,
    _MissingArgumentTypeError,
    bad_sniff_deals,
    bad_twelve_deals,
    int_forms,
    integers_like,
    ints_in,
    not_one_of,
    outside,
    positions,
    raises_kind,
    raises_range,
    raises_value,
    seat_methods,
    snap_game,
    sniff_deal,
    twelve_deal,
)
from twelve_env import single_agent_env as twelve_single
from twelve_env.cards import NUM_RANKS, card_value, rank_name


# --- the error class --------------------------------------------------------------------------------
def test_argument_type_error_is_both_type_error_and_value_error():
    """Bounds at every public entry: ``sniff_twelve.core.options.ArgumentTypeError`` subclasses both."""
    assert ArgumentTypeError is not _MissingArgumentTypeError, "sniff_twelve.core.options.ArgumentTypeError is missing"
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, ValueError)


# --- tiles and action ids ---------------------------------------------------------------------------
def test_tile_index_named_cases():
    """Bounds at every public entry: the named tile cases."""
    raises_kind("tile", tile_index, "12")
    raises_kind("tile", tile_index, (1.7, 3))
    assert isinstance(raises_range("tile", tile_index, (1, 2, 3)), ValueError)
    with pytest.raises(ValueError, match=r"tile|pip"):
        tile_index((7, 0))
    assert tile_index((5, 3)) == tile_index([3, 5]) == tile_index((np.int64(3), np.array(5)))


@FUZZ
@given(st.one_of(st.text(max_size=3), st.integers(), st.floats(), st.none(), st.just(b"12"), st.booleans()))
def test_tile_that_is_no_sequence_is_a_kind_error(tile):
    """Bounds at every public entry: a tile is a tuple or list."""
    error = raises_kind("", tile_index, tile)
    assert "tile" in str(error).lower() or "pip" in str(error).lower()


@FUZZ
@given(st.data())
def test_tile_with_non_integer_pip_is_a_kind_error(data):
    """Bounds at every public entry: pips follow the integer rule."""
    pair = [data.draw(integers_like(0, 6)), data.draw(WRONG_KINDS)]
    if data.draw(st.booleans()):
        pair.reverse()
    tile = tuple(pair) if data.draw(st.booleans()) else pair
    error = raises_kind("", tile_index, tile)
    assert "tile" in str(error).lower() or "pip" in str(error).lower()


@FUZZ
@given(st.one_of(st.lists(integers_like(0, 6), max_size=1), st.lists(integers_like(0, 6), min_size=3, max_size=5)))
def test_tile_of_wrong_length_is_a_value_error(pips):
    """Bounds at every public entry: a tile has exactly two halves."""
    for tile in (pips, tuple(pips)):
        error = raises_range("", tile_index, tile)
        assert "tile" in str(error).lower() or "pip" in str(error).lower()


@FUZZ
@given(st.data())
def test_tile_pips_out_of_range_are_a_value_error(data):
    """Bounds at every public entry: pips run 0–6."""
    pair = [data.draw(outside(0, 6)), data.draw(st.one_of(integers_like(0, 6), outside(0, 6)))]
    if data.draw(st.booleans()):
        pair.reverse()
    error = raises_range("", tile_index, tuple(pair), bounds=(0, 6))
    assert "tile" in str(error).lower() or "pip" in str(error).lower()


@FUZZ
@given(st.data())
def test_encode_action_checks_tile_and_arm(data):
    """Bounds at every public entry: ``encode_action(tile, arm)``, arm 0–3."""
    raises_kind("arm", encode_action, (3, 5), True)
    raises_kind("arm", encode_action, (3, 5), data.draw(WRONG_KINDS))
    raises_range("arm", encode_action, (3, 5), data.draw(outside(0, 3)), bounds=(0, 3))
    raises_kind("", encode_action, data.draw(st.one_of(st.text(max_size=2), st.floats(), st.none())), 0)
    tile = data.draw(st.sampled_from(TILES))
    arm = data.draw(st.integers(0, 3))
    expected = encode_action(tile, arm)
    for form in int_forms(arm):
        assert encode_action(tuple(np.int64(p) for p in reversed(tile)), form) == expected
    assert decode_action(expected) == ("place", tile, arm)


@FUZZ
@given(WRONG_KINDS, outside(0, 113))
def test_decode_action_and_action_name_check_the_id(wrong, out_of_range):
    """Bounds at every public entry: action ids are integers 0–113."""
    for call in (decode_action, action_name):
        raises_kind("action", call, wrong)
        raises_range("action", call, out_of_range, bounds=(0, 113))


def test_decode_action_named_cases():
    """Bounds at every public entry: ``decode_action(2.9)`` is a kind error; NumPy ids are accepted."""
    raises_kind("action", decode_action, 2.9)
    raises_kind("action", action_name, 2.0)
    raises_kind("action", decode_action, True)
    for form in int_forms(81):
        assert decode_action(form) == ("place", (3, 5), 1)
        assert action_name(form) == action_name(81)
    assert decode_action(np.array(PASS)) == ("pass", None, None)


@FUZZ
@given(st.data())
def test_twelve_rank_functions_check_deck_and_rank(data):
    """Bounds at every public entry: "12" rank ids 0–12 (bridge) / 0–10 (numbers), decks by name."""
    deck = data.draw(st.sampled_from(["bridge", "numbers"]))
    bad_deck = data.draw(not_one_of(("bridge", "numbers")))
    raises_value("deck", card_value, bad_deck, 0)
    raises_value("deck", rank_name, bad_deck, 0)
    raises_kind("rank", card_value, deck, data.draw(WRONG_KINDS))
    raises_range("rank", card_value, deck, data.draw(outside(0, NUM_RANKS[deck] - 1)), bounds=(0, NUM_RANKS[deck] - 1))
    raises_kind("rank", rank_name, deck, data.draw(WRONG_KINDS))
    raises_range("rank", rank_name, deck, data.draw(outside(0, NUM_RANKS[deck] - 1)), bounds=(0, NUM_RANKS[deck] - 1))
    rank = data.draw(st.integers(0, NUM_RANKS[deck] - 1))
    for form in int_forms(rank):
        assert card_value(deck, form) == card_value(deck, rank)
        assert rank_name(deck, form) == rank_name(deck, rank)


# --- Game options -----------------------------------------------------------------------------------
SNIFF_INTS = {"num_players": (2, 4, False), "target": (1, MAX_LIMIT, True)}
SNIFF_INTS |= {"max_hands": (1, MAX_LIMIT, True), "max_steps": (1, MAX_LIMIT, True), "undrawn": (0, 2, False)}
SNIFF_INTS |= {"pips": (2, 6, False), "hand_size": (1, 14, True)}
#: the size dial's ends need a table they fit: the double-2 set deals 1 tile a seat to 4, 14 tiles go to 2 seats
WITH = {"pips": {"hand_size": 1}, "hand_size": {"num_players": 2}}
SNIFF_ENV_CHOICES = {
    "settlement": (("deduct", "allfives"), False),
    "episode": (("match", "hand"), True),
    "reward": (("win", "points"), True),
    "forced": (("explicit", "auto"), False),
}
AEC_RENDER = {"render_mode": (("human", "ansi", "rgb_array"), True)}
SINGLE_RENDER = {"render_mode": (("ansi", "rgb_array"), True)}
TWELVE_INTS = {"num_players": (2, 7, False)}
TWELVE_CHOICES = {"deck": (("bridge", "numbers"), False), "reward": (("score", "win"), False)}

#: name → (constructor, integer options {name: (low, high, None allowed)}, choices, flags)
CONSTRUCTORS: dict[str, tuple[Callable, dict, dict, tuple[str, ...]]] = {
    "sniff.Game": (
        sniff_env.Game,
        SNIFF_INTS,
        {"settlement": SNIFF_ENV_CHOICES["settlement"], "episode": SNIFF_ENV_CHOICES["episode"]},
        (),
    ),
    "sniff.raw_env": (sniff_env.raw_env, SNIFF_INTS, SNIFF_ENV_CHOICES | AEC_RENDER, ()),
    "sniff.env": (sniff_env.env, SNIFF_INTS, SNIFF_ENV_CHOICES | AEC_RENDER, ()),
    "sniff.VectorGame": (partial(sniff_env.VectorGame, 2), SNIFF_INTS, SNIFF_ENV_CHOICES, ()),
    "sniff.single_agent_env": (
        sniff_single,
        SNIFF_INTS,
        {k: v for k, v in SNIFF_ENV_CHOICES.items() if k != "forced"} | SINGLE_RENDER,
        (),
    ),
    "twelve.Game": (twelve_env.Game, TWELVE_INTS, {"deck": TWELVE_CHOICES["deck"]}, ("capture_extra_turn",)),
    "twelve.raw_env": (twelve_env.raw_env, TWELVE_INTS, TWELVE_CHOICES | AEC_RENDER, ("capture_extra_turn",)),
    "twelve.env": (twelve_env.env, TWELVE_INTS, TWELVE_CHOICES | AEC_RENDER, ("capture_extra_turn",)),
    "twelve.VectorGame": (partial(twelve_env.VectorGame, 2), TWELVE_INTS, TWELVE_CHOICES, ("capture_extra_turn",)),
    "twelve.single_agent_env": (twelve_single, TWELVE_INTS, TWELVE_CHOICES | SINGLE_RENDER, ("capture_extra_turn",)),
}


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_constructor_options_are_checked(name):
    """Bounds at every public entry: integer options (kind, range), flags and choices at construction."""
    make, ints, choices, flags = CONSTRUCTORS[name]

    @FUZZ
    @given(st.data())
    def check(data):
        option = data.draw(st.sampled_from(sorted(ints)))
        low, high, none_ok = ints[option]
        wrong = data.draw(NOT_INTEGERS if none_ok else WRONG_KINDS)
        raises_kind(option, make, **{option: wrong})
        small = (low, high) if high <= 1000 else ()
        raises_range(option, make, bounds=small, **{option: data.draw(outside(low, high))})
        if choices:
            option = data.draw(st.sampled_from(sorted(choices)))
            allowed, none_ok = choices[option]
            raises_value(option, make, **{option: data.draw(not_one_of(allowed, none_ok))})
        for flag in flags:
            raises_kind(flag, make, **{flag: data.draw(NOT_FLAGS)})

    check()


@pytest.mark.parametrize("name", CONSTRUCTORS)
def test_constructor_accepts_numpy_integers_and_bounds(name):
    """Bounds at every public entry: both ends of every range, as NumPy scalars and 0-d arrays."""
    make, ints, _, flags = CONSTRUCTORS[name]
    for option, (low, high, _) in ints.items():
        for value, form in ((low, np.int64(low)), (high, np.array(high))):
            assert make(**{option: form}, **WITH.get(option, {})) is not None, (option, value)
    for flag in flags:
        for value in (True, False, np.bool_(True)):
            assert make(**{flag: value}) is not None


def test_named_option_cases():
    """Bounds at every public entry: the named option cases."""
    raises_range("target", sniff_env.Game, target=2**40)
    raises_range("target", sniff_env.raw_env, target=2**40)
    raises_range("max_hands", sniff_env.Game, max_hands=2**40)
    raises_value("episode", sniff_env.Game, episode=True)
    raises_kind("capture_extra_turn", twelve_env.Game, capture_extra_turn="no")
    raises_kind("capture_extra_turn", twelve_env.raw_env, capture_extra_turn="no")
    raises_kind("num_players", sniff_env.Game, num_players=2.0)
    raises_range("num_players", twelve_env.Game, num_players=8, bounds=(2, 7))
    g = sniff_env.Game(num_players=np.int64(3), target=np.array(MAX_LIMIT))
    assert (g.num_players, g.target) == (3, MAX_LIMIT)


# --- seeds ------------------------------------------------------------------------------------------
SEEDED = {
    "sniff.Game": lambda seed: sniff_env.Game(seed=seed),
    "twelve.Game": lambda seed: twelve_env.Game(seed=seed),
    "sniff.VectorGame": lambda seed: sniff_env.VectorGame(2, seed=seed),
    "twelve.VectorGame": lambda seed: twelve_env.VectorGame(2, seed=seed),
}


def test_seed_named_cases():
    """Bounds at every public entry: ``Game(seed=-1 | "x" | 1.5 | True)``."""
    for game in (sniff_env.Game, twelve_env.Game):
        raises_range("seed", game, seed=-1)
        raises_kind("seed", game, seed="x")
        raises_kind("seed", game, seed=1.5)
        raises_kind("seed", game, seed=True)


@pytest.mark.parametrize("name", SEEDED)
def test_seed_is_none_or_a_non_negative_integer(name):
    """Bounds at every public entry: a seed is ``None`` or an integer ≥ 0, NumPy spellings included."""
    make = SEEDED[name]

    @FEW
    @given(NOT_INTEGERS, outside(0))
    def check(wrong, negative):
        raises_kind("seed", make, wrong)
        raises_range("seed", make, negative)

    check()

    def state(obj) -> bytes:
        return (obj.states if hasattr(obj, "states") else obj.state_array).tobytes()

    reference = state(make(5))
    assert state(make(np.int64(5))) == reference
    assert state(make(np.array(5))) == reference
    assert make(None) is not None


# --- Game methods ----------------------------------------------------------------------------------
@pytest.mark.parametrize("key", GAMES)
def test_apply_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: ``Game.apply`` — kind, range, legality; message lists the legal
    actions; state and history byte-identical afterwards."""
    games = positions(GAMES[key])
    snaps = [snap_game(g) for g in games]

    @FUZZ
    @given(st.data())
    def check(data):
        i = data.draw(st.sampled_from(range(len(games))))
        game = games[i]
        legal = game.legal_actions()
        kind = data.draw(st.sampled_from(["kind", "range", "illegal"]))
        if kind == "kind":
            raises_kind("action", game.apply, data.draw(WRONG_KINDS))
        else:
            if kind == "range":
                action = data.draw(outside(0, game.num_actions - 1))
            else:
                illegal = [a for a in range(game.num_actions) if a not in legal]
                action = data.draw(st.sampled_from(illegal).flatmap(lambda a: st.sampled_from(int_forms(a))))
            error = raises_range("action", game.apply, action)
            assert set(legal) <= ints_in(str(error)), f"legal actions {legal} not listed in {error}"
        assert snap_game(game) == snaps[i]

    check()


@pytest.mark.parametrize("key", GAMES)
def test_seat_methods_reject_bad_seats_and_change_nothing(key):
    """Bounds at every public entry: ``observation`` / ``hand`` / ``seat_view`` / ``known_voids``
    take a seat ``0 … num_players-1`` (``None`` = the seat to act where documented)."""
    games = positions(GAMES[key])
    snaps = [snap_game(g) for g in games]
    n = games[0].num_players
    # small out-of-range seats first: an unchecked seat must not reach a kernel with a huge index
    for game in games:
        for method in seat_methods(game):
            raises_range("seat", getattr(game, method), n, bounds=(0, n - 1))
            raises_range("seat", getattr(game, method), -1, bounds=(0, n - 1))

    @FUZZ
    @given(st.data())
    def check(data):
        i = data.draw(st.sampled_from(range(len(games))))
        game = games[i]
        method, none_ok = data.draw(st.sampled_from(sorted(seat_methods(game).items())))
        call = getattr(game, method)
        raises_kind("seat", call, data.draw(NOT_INTEGERS if none_ok else WRONG_KINDS))
        raises_range("seat", call, data.draw(outside(0, n - 1)), bounds=(0, n - 1))
        assert snap_game(game) == snaps[i]

    check()


def test_seat_named_cases():
    """Bounds at every public entry: ``observation(seat=9 | 20)`` in 2-player "12"; ``observation(4)``
    and ``known_voids(5)`` in 4-player Sniff."""
    twelve = twelve_env.Game(num_players=2, seed=0)
    before = snap_game(twelve)
    raises_range("seat", twelve.observation, seat=9, bounds=(0, 1))
    raises_range("seat", twelve.observation, seat=20)
    raises_range("seat", twelve.hand, 2)
    assert snap_game(twelve) == before
    sniff = sniff_env.Game(num_players=4, seed=0)
    before = snap_game(sniff)
    raises_range("seat", sniff.observation, seat=4, bounds=(0, 3))
    raises_range("seat", sniff.known_voids, 5, bounds=(0, 3))
    raises_kind("seat", sniff.known_voids, 1.0)
    raises_kind("seat", sniff.observation, True)
    assert snap_game(sniff) == before


@pytest.mark.parametrize("key", ["sniff-4", "twelve-5-numbers"])
def test_numpy_integers_are_accepted_as_seat_and_action(key):
    """Bounds at every public entry: a NumPy integer and a 0-d integer array ARE integers."""
    game = positions(GAMES[key])[1]
    for seat in range(game.num_players):
        for form in int_forms(seat)[1:]:
            assert np.array_equal(game.observation(form), game.observation(seat))
            assert game.hand(form) == game.hand(seat)
            assert game.seat_view(form) is not None
            if isinstance(game, sniff_env.Game):
                assert game.known_voids(form) == game.known_voids(seat)
    assert np.array_equal(game.observation(None), game.observation(game.current_player))
    assert game.seat_view(None) is not None
    action = game.legal_actions()[-1]
    expected = game.clone()
    expected.apply(action)
    for form in int_forms(action)[1:]:
        played = game.clone()
        played.apply(form)
        assert snap_game(played) == snap_game(expected)


# --- deals ------------------------------------------------------------------------------------------
def test_deal_named_cases():
    """Bounds at every public entry: ``Game(deal={"hands": 5})`` and friends are ``ValueError``."""
    with pytest.raises(ValueError, match="hands"):
        sniff_env.Game(num_players=2, deal={"hands": 5})
    with pytest.raises(ValueError, match="hands"):
        twelve_env.Game(num_players=2, deal={"hands": 5, "face_up": 0})
    with pytest.raises(ValueError):
        sniff_env.Game(num_players=2, deal={"hands": [[(0, 0)], []]})
    with pytest.raises(ValueError):
        sniff_env.Game(num_players=2, deal={"hands": [[(0, 0)], [(0, 0)]]})
    with pytest.raises(ValueError):
        twelve_env.Game(num_players=2, deal={"hands": [[0, 0, 0], [0, 0]], "face_up": 1})
    with pytest.raises(ValueError, match="opener"):
        sniff_env.Game(num_players=2, deal={**sniff_deal(2), "opener": 2})
    with pytest.raises(ValueError, match="first_player"):
        twelve_env.Game(num_players=2, deal={**twelve_deal(2), "first_player": 1.0})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_sniff_bad_deals_raise_value_error(n):
    """Bounds at every public entry: a malformed Sniff deal is a ``ValueError`` naming the defect,
    never a bare ``TypeError`` / ``KeyError`` / ``IndexError``."""
    good = sniff_deal(n)
    numpy_deal = {
        "hands": tuple(tuple((np.int64(a), np.array(b)) for a, b in h) for h in good["hands"]),
        "boneyard": [list(t) for t in good["boneyard"]],
        "opener": np.array(n - 1),
    }
    assert sniff_env.Game(num_players=n, deal=numpy_deal).hand(0) == good["hands"][0]

    @FUZZ
    @given(bad_sniff_deals(n))
    def check(deal):
        with pytest.raises(ValueError):
            sniff_env.Game(num_players=n, seed=0, deal=copy.deepcopy(deal))

    check()


@pytest.mark.parametrize(("n", "deck"), [(2, "bridge"), (4, "numbers"), (7, "bridge")])
def test_twelve_bad_deals_raise_value_error(n, deck):
    """Bounds at every public entry: a malformed "12" deal is a ``ValueError`` naming the defect,
    never a bare ``TypeError`` / ``KeyError`` / ``IndexError``."""
    good = twelve_deal(n)
    numpy_deal = {
        "hands": tuple(tuple(np.int64(r) for r in h) for h in good["hands"]),
        "stock": [np.array(r) for r in good["stock"]],
        "face_up": np.int64(10),
        "first_player": np.array(n - 1),
    }
    assert twelve_env.Game(num_players=n, deck=deck, deal=numpy_deal).hand(0) == good["hands"][0]

    @FUZZ
    @given(bad_twelve_deals(n, deck))
    def check(deal):
        with pytest.raises(ValueError):
            twelve_env.Game(num_players=n, deck=deck, seed=0, deal=copy.deepcopy(deal))

    check()
