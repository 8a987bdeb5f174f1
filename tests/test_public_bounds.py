"""Bounds at every public entry: every bad argument raises the documented error, and the object
it was given to is byte-identical afterwards (hypothesis fuzz plus the issue's named cases).

The type rules (``sniff_twelve.core.options``): an integer is an ``int``, a NumPy integer or a 0-d integer
array — never a bool, a float, a string, ``None`` or a list — else ``ArgumentTypeError`` (both a
``TypeError`` and a ``ValueError``) naming the argument; an integer out of range is a
``ValueError`` naming it; a flag is a ``bool``; a choice is one of its strings; a seed is ``None``
or a non-negative integer. "Unchanged" is judged on the compiled state row (``state_array``,
``VectorGame.states``) plus ``Game.history``.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sniff_env
import sniff_twelve.core.games
import sniff_twelve.core.options
import twelve_env
from sniff_env.agents import SniffRolloutAgent
from sniff_env.agents import make_agent as sniff_make_agent
from sniff_env.env import single_agent_env as sniff_single
from sniff_env.tiles import PASS, TILES, action_name, decode_action, encode_action, tile_index
from twelve_env.agents import TwelveRolloutAgent
from twelve_env.agents import make_agent as twelve_make_agent
from twelve_env.cards import NUM_RANKS, card_value, rank_name
from twelve_env.env import single_agent_env as twelve_single


class _MissingArgumentTypeError(Exception):
    """Stands in for ``sniff_twelve.core.options.ArgumentTypeError`` while it does not exist: nothing raises
    it, so every wrong-kind check fails until the library defines the real class."""


ArgumentTypeError = getattr(sniff_twelve.core.options, "ArgumentTypeError", _MissingArgumentTypeError)

FUZZ = settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
FEW = settings(FUZZ, max_examples=12)

MAX_LIMIT = 1_000_000_000
BUILT_IN_AGENTS = ("random", "greedy", "heuristic", "rollout", "pimc", "ppo")


# --- strategies -----------------------------------------------------------------------------------
def int_forms(value: int) -> list[Any]:
    """The accepted spellings of an integer: ``int``, ``np.int64`` and a 0-d integer array."""
    forms: list[Any] = [value]
    if -(2**63) <= value < 2**63:
        forms += [np.int64(value), np.array(value, dtype=np.int64)]
    return forms


def integers_like(min_value: int | None = None, max_value: int | None = None) -> st.SearchStrategy:
    return st.integers(min_value, max_value).flatmap(lambda v: st.sampled_from(int_forms(v)))


def outside(low: int, high: int | None = None) -> st.SearchStrategy:
    """Integers (in every accepted spelling) below ``low`` or above ``high``."""
    below = integers_like(max_value=low - 1)
    return below if high is None else st.one_of(below, integers_like(min_value=high + 1))


#: values that are not integers under the type rule (``None`` excluded: some arguments allow it)
NOT_INTEGERS = st.one_of(
    st.booleans(),
    st.sampled_from([np.bool_(True), np.bool_(False), np.array(True)]),
    st.floats(),
    st.integers(-5, 10).map(float),  # 2.0 is a float all the same
    st.integers(-5, 10).map(np.float64),
    st.integers(-5, 10).map(lambda v: np.array(float(v))),
    st.text(max_size=4),
    st.integers(-5, 10).map(str),
    st.lists(st.integers(0, 3), max_size=3),
    st.tuples(st.integers(0, 3)),
    st.integers(0, 3).map(lambda v: np.array([v])),
    st.sampled_from([b"1", 1j, {}, object()]),
)
WRONG_KINDS = st.one_of(NOT_INTEGERS, st.none())
#: anything but a bool / np.bool_ (0-d bool arrays are left out: the contract does not rule on them)
NOT_FLAGS = st.one_of(
    st.integers(-2, 2),
    st.sampled_from([np.int64(1), np.int64(0), np.array(1), "no", "yes", "True", "", 1.0, 0.0, None, [True]]),
    st.text(max_size=4),
    st.floats(),
)


def not_one_of(choices: tuple, none_ok: bool = False) -> st.SearchStrategy:
    """Values that are not one of the strings ``choices``."""
    bad = st.one_of(
        st.text(max_size=10),
        st.sampled_from([c.upper() for c in choices] + [c + " " for c in choices]),
        st.integers(-3, 3),
        st.floats(),
        st.booleans(),
        st.lists(st.sampled_from(choices), max_size=2),
    )
    if not none_ok:
        bad = st.one_of(bad, st.none())
    return bad.filter(lambda v: not (isinstance(v, str) and v in choices))


# --- assertion helpers ----------------------------------------------------------------------------
def raises_kind(name: str, call: Callable, *args: Any, **kwargs: Any) -> BaseException:
    """``call`` raises ``ArgumentTypeError`` (a ``TypeError`` and a ``ValueError``) naming ``name``."""
    with pytest.raises(ArgumentTypeError) as info:
        call(*args, **kwargs)
    error = info.value
    assert isinstance(error, TypeError) and isinstance(error, ValueError), type(error).__mro__
    assert name in str(error), f"{name!r} not named in {error}"
    return error


def raises_range(name: str, call: Callable, *args: Any, bounds: tuple[int, ...] = (), **kwargs: Any) -> BaseException:
    """``call`` raises a plain ``ValueError`` (not a wrong-kind error) naming ``name`` and, when
    ``bounds`` are given, the allowed range (both ends appear in the message)."""
    with pytest.raises(ValueError) as info:
        call(*args, **kwargs)
    error = info.value
    assert not isinstance(error, TypeError), f"a value of the right kind gave {type(error).__name__}: {error}"
    assert name in str(error), f"{name!r} not named in {error}"
    assert set(bounds) <= ints_in(str(error)), f"allowed range {bounds} not stated in {error}"
    return error


def raises_value(name: str, call: Callable, *args: Any, **kwargs: Any) -> BaseException:
    """``call`` raises ``ValueError`` (``ArgumentTypeError`` included) naming ``name``."""
    with pytest.raises(ValueError) as info:
        call(*args, **kwargs)
    assert name in str(info.value), f"{name!r} not named in {info.value}"
    return info.value


def ints_in(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"\d+", text)}


def snap_game(game) -> tuple[bytes, list[int]]:
    return game.state_array.tobytes(), list(game.history)


def snap_vector(vg, returned: tuple) -> tuple[bytes, ...]:
    return (vg.states.tobytes(), *(np.asarray(a).tobytes() for a in returned))


# --- games under test -----------------------------------------------------------------------------
GAMES = {
    "sniff-2": partial(sniff_env.Game, num_players=2),
    "sniff-3": partial(sniff_env.Game, num_players=3),
    "sniff-4": partial(sniff_env.Game, num_players=4),
    "twelve-2": partial(twelve_env.Game, num_players=2),
    "twelve-5-numbers": partial(twelve_env.Game, num_players=5, deck="numbers"),
    "twelve-7": partial(twelve_env.Game, num_players=7),
}


def positions(make: Callable) -> list:
    """A fresh game, one in mid-play and one that is over (a Sniff match truncated by ``max_steps``)."""
    fresh = make(seed=11)
    mid = make(seed=12)
    rnd = random.Random(0)
    for _ in range(9):
        mid.apply(rnd.choice(mid.legal_actions()))
    over = make(seed=13, max_steps=12) if isinstance(fresh, sniff_env.Game) else make(seed=13)
    while not over.is_terminal():
        over.apply(rnd.choice(over.legal_actions()))
    return [fresh, mid, over]


def seat_methods(game) -> dict[str, bool]:
    """Seat-taking methods of ``game`` → whether ``None`` (the seat to act) is allowed."""
    methods = {"observation": True, "seat_view": True, "hand": False}
    if isinstance(game, sniff_env.Game):
        methods["known_voids"] = False
    return methods


# --- the error class --------------------------------------------------------------------------------
def test_argument_type_error_is_both_type_error_and_value_error():
    """Bounds at every public entry: ``sniff_twelve.core.options.ArgumentTypeError`` subclasses both."""
    assert ArgumentTypeError is not _MissingArgumentTypeError, "sniff_twelve.core.options.ArgumentTypeError is missing"
    assert issubclass(ArgumentTypeError, TypeError) and issubclass(ArgumentTypeError, ValueError)


# --- tiles and action ids ---------------------------------------------------------------------------
def test_tile_index_named_cases():
    """Bounds at every public entry: the issue's tile cases."""
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
SNIFF_ENV_CHOICES = {
    "settlement": (("deduct", "allfives"), False),
    "episode": (("match", "hand"), False),
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
        {"settlement": SNIFF_ENV_CHOICES["settlement"]},
        ("hand_episode",),
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
            assert make(**{option: form}) is not None, (option, value)
    for flag in flags:
        for value in (True, False, np.bool_(True)):
            assert make(**{flag: value}) is not None


def test_named_option_cases():
    """Bounds at every public entry: the issue's option cases."""
    raises_range("target", sniff_env.Game, target=2**40)
    raises_range("target", sniff_env.raw_env, target=2**40)
    raises_range("max_hands", sniff_env.Game, max_hands=2**40)
    raises_kind("hand_episode", sniff_env.Game, hand_episode="no")
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
SNIFF_KEYS = ("hands", "boneyard", "opener")
TWELVE_KEYS = ("hands", "stock", "face_up", "first_player")
BAD_TILES = st.one_of(
    st.text(max_size=3),
    st.integers(),
    st.none(),
    st.floats(),
    st.tuples(st.integers(0, 6), NOT_INTEGERS),
    st.lists(st.integers(0, 6), min_size=3, max_size=4),
    st.tuples(st.integers(0, 6)),
    st.tuples(st.integers(7, 100), st.integers(0, 6)),
    st.tuples(st.integers(-100, -1), st.integers(0, 6)),
)
NOT_SEQUENCES = st.one_of(
    st.integers(), st.floats(), st.none(), st.dictionaries(st.integers(0, 3), st.integers(0, 3), max_size=2)
)


SNIFF_DEFECTS = (
    *("not a dict", "unknown key", "no hands", "hands kind", "hand count", "empty hand", "hand kind"),
    *("bad tile", "bad boneyard tile", "dealt twice", "opener", "boneyard kind"),
)
TWELVE_DEFECTS = (
    *("not a dict", "unknown key", "no hands", "no face_up", "hands kind", "hand count", "empty hand"),
    *("hand kind", "rank kind", "rank range", "too many", "face_up", "first_player", "stock kind"),
)


def sniff_deal(n: int) -> dict:
    hands = [list(TILES[3 * i : 3 * i + 3]) for i in range(n)]
    return {"hands": hands, "boneyard": list(TILES[12:16]), "opener": n - 1}


def twelve_deal(n: int) -> dict:
    return {"hands": [[i, i + 1] for i in range(n)], "stock": [8, 9], "face_up": 10, "first_player": n - 1}


@st.composite
def bad_sniff_deals(draw, n: int) -> Any:
    """A malformed first hand for ``n`` players, one defect at a time."""
    deal = sniff_deal(n)
    hands = deal["hands"]
    kind = draw(st.sampled_from(SNIFF_DEFECTS))
    seat = draw(st.integers(0, n - 1))
    if kind == "not a dict":
        return draw(st.one_of(st.lists(st.integers(), max_size=2), st.text(max_size=3), st.integers(), st.just(())))
    if kind == "unknown key":
        deal[draw(st.text(max_size=6).filter(lambda k: k not in SNIFF_KEYS))] = draw(st.integers())
    elif kind == "no hands":
        del deal["hands"]
    elif kind == "hands kind":
        deal["hands"] = draw(st.one_of(NOT_SEQUENCES, st.text(max_size=4)))
    elif kind == "hand count":
        count = draw(st.integers(0, n + 2).filter(lambda k: k != n))
        deal["hands"] = (hands + [list(TILES[20 + i : 21 + i]) for i in range(2)])[:count]
    elif kind == "empty hand":
        hands[seat] = draw(st.sampled_from([[], ()]))
    elif kind == "hand kind":
        hands[seat] = draw(NOT_SEQUENCES)
    elif kind == "bad tile":
        hands[seat][draw(st.integers(0, 2))] = draw(BAD_TILES)
    elif kind == "bad boneyard tile":
        deal["boneyard"][0] = draw(BAD_TILES)
    elif kind == "dealt twice":
        tile = hands[seat][0]
        where = draw(st.sampled_from(["same hand", "other hand", "boneyard"]))
        if where == "same hand":
            hands[seat].append(tuple(reversed(tile)))
        elif where == "other hand":
            hands[(seat + 1) % n].append(tile)
        else:
            deal["boneyard"].append(list(tile))
    elif kind == "opener":
        deal["opener"] = draw(st.one_of(outside(0, n - 1), NOT_INTEGERS))
    else:
        deal["boneyard"] = draw(st.one_of(st.integers(), st.floats()))
    return deal


@st.composite
def bad_twelve_deals(draw, n: int, deck: str) -> Any:
    """A malformed "12" position for ``n`` players, one defect at a time."""
    deal = twelve_deal(n)
    hands = deal["hands"]
    ranks = NUM_RANKS[deck]
    kind = draw(st.sampled_from(TWELVE_DEFECTS))
    seat = draw(st.integers(0, n - 1))
    if kind == "not a dict":
        return draw(st.one_of(st.lists(st.integers(), max_size=2), st.text(max_size=3), st.integers(), st.just(())))
    if kind == "unknown key":
        deal[draw(st.text(max_size=6).filter(lambda k: k not in TWELVE_KEYS))] = draw(st.integers())
    elif kind == "no hands":
        del deal["hands"]
    elif kind == "no face_up":
        del deal["face_up"]
    elif kind == "hands kind":
        deal["hands"] = draw(st.one_of(NOT_SEQUENCES, st.text(max_size=4)))
    elif kind == "hand count":
        count = draw(st.integers(0, n + 2).filter(lambda k: k != n))
        deal["hands"] = [*hands, [0], [1]][:count]
    elif kind == "empty hand":
        hands[seat] = draw(st.sampled_from([[], ()]))
    elif kind == "hand kind":
        hands[seat] = draw(NOT_SEQUENCES)
    elif kind == "rank kind":
        where = draw(st.sampled_from(["hand", "stock", "face_up"]))
        bad = draw(WRONG_KINDS)
        if where == "hand":
            hands[seat][0] = bad
        elif where == "stock":
            deal["stock"][0] = bad
        else:
            deal["face_up"] = bad
    elif kind == "rank range":
        bad = draw(outside(0, ranks - 1))
        where = draw(st.sampled_from(["hand", "stock", "face_up"]))
        if where == "hand":
            hands[seat].append(bad)
        elif where == "stock":
            deal["stock"].append(bad)
        else:
            deal["face_up"] = bad
    elif kind == "too many":
        rank = draw(st.integers(0, ranks - 1))
        extra = 5 - sum(h.count(rank) for h in hands) - deal["stock"].count(rank) - (deal["face_up"] == rank)
        hands[seat].extend([rank] * extra)
    elif kind == "face_up":
        deal["face_up"] = draw(st.one_of(st.lists(st.integers(0, 5), max_size=2), st.just(())))
    elif kind == "first_player":
        deal["first_player"] = draw(st.one_of(outside(0, n - 1), NOT_INTEGERS))
    else:
        deal["stock"] = draw(st.one_of(st.integers(), st.floats()))
    return deal


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
        st.text(max_size=8).filter(lambda s: s.partition(":")[0] not in BUILT_IN_AGENTS),
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
def test_ismcts_iterations_follow_the_integer_rule(agent_cls):
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


# --- VectorGame -------------------------------------------------------------------------------------
VECTORS = {
    "sniff-4": partial(sniff_env.VectorGame, 3, num_players=4),
    "sniff-2-explicit": partial(sniff_env.VectorGame, 3, num_players=2, forced="explicit"),
    "twelve-3": partial(twelve_env.VectorGame, 3, num_players=3),
    "twelve-2-numbers": partial(twelve_env.VectorGame, 3, num_players=2, deck="numbers"),
}


def legal_choice(mask: np.ndarray, rnd: random.Random) -> np.ndarray:
    return np.array([rnd.choice(np.flatnonzero(row).tolist()) for row in mask], dtype=np.int64)


def bad_actions(data, mask: np.ndarray, rnd: random.Random) -> tuple[str, np.ndarray]:
    """A rejected ``actions`` argument for ``step`` and the kind of its defect."""
    n, num_actions = mask.shape
    legal = legal_choice(mask, rnd)
    kind = data.draw(st.sampled_from(["dtype", "shape", "range", "illegal"]))
    if kind == "dtype":
        bad = data.draw(
            st.sampled_from(
                [
                    legal.astype(np.float64),
                    legal.astype(np.float32),
                    legal.astype(bool),
                    legal.astype(object),
                    legal.astype(str),
                    np.ones(n, dtype=bool),
                ]
            )
        )
    elif kind == "shape":
        bad = data.draw(
            st.sampled_from(
                [np.append(legal, legal[:1]), legal[:-1], legal[:, None], legal[None, :], np.int64(legal[0]), legal[:0]]
            )
        )
    else:
        bad = legal.copy()
        row = data.draw(st.integers(0, n - 1))
        illegal = np.flatnonzero(~mask[row]).tolist()
        if kind == "range" or not illegal:
            kind = "range"
            bad[row] = data.draw(st.one_of(st.integers(-(2**63), -1), st.integers(num_actions, 2**63 - 1)))
        else:
            bad[row] = data.draw(st.sampled_from(illegal))
    return kind, bad


@pytest.mark.parametrize("key", VECTORS)
def test_vector_step_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: ``VectorGame.step`` takes an integer array of shape
    ``(num_envs,)`` of legal actions; a rejected call changes nothing (states, the arrays last
    returned) and the next legal step is exactly the twin's."""
    make = VECTORS[key]

    @FEW
    @given(st.data(), st.integers(0, 2**32 - 1))
    def check(data, seed):
        vg, twin = make(seed=seed), make(seed=seed)
        returned, expected = vg.reset(), twin.reset()
        rnd = random.Random(seed)
        for _ in range(data.draw(st.integers(1, 3))):
            before = snap_vector(vg, returned)
            kind, bad = bad_actions(data, np.asarray(returned[1]), rnd)
            if kind == "dtype":
                raises_kind("action", vg.step, bad)
            else:
                raises_range("action", vg.step, bad)
            assert snap_vector(vg, returned) == before, kind
            actions = legal_choice(np.asarray(expected[1]), rnd)
            returned, expected = vg.step(actions.copy()), twin.step(actions.copy())
            assert snap_vector(vg, returned) == snap_vector(twin, expected)

    check()


@pytest.mark.parametrize("key", VECTORS)
def test_vector_returned_arrays_are_read_only(key):
    """Bounds at every public entry: the arrays ``reset`` / ``step`` return are read-only, so the
    engine never trusts a caller-held buffer; an illegal action is still rejected."""
    vg = VECTORS[key](seed=4)
    obs, mask, player = vg.reset()
    for array in (obs, mask, player):
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 1
    legal = legal_choice(np.asarray(mask), random.Random(0))
    illegal_row0 = np.flatnonzero(~np.asarray(mask)[0])
    bad = legal.copy()
    bad[0] = illegal_row0[0]
    before = vg.states.tobytes()
    with pytest.raises(ValueError):
        vg.step(bad)
    assert vg.states.tobytes() == before
    for array in vg.step(legal):
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 0


def test_vector_mask_overwrite_then_opening_pass_is_rejected():
    """Bounds at every public entry: ``mask[:] = True`` fails, and PASS at the opening is still illegal."""
    vg = sniff_env.VectorGame(4, num_players=4, seed=0)
    obs, mask, player = vg.reset()
    assert not np.asarray(mask)[:, PASS].any()
    with pytest.raises(ValueError, match="read-only"):
        mask[:] = True
    before = snap_vector(vg, (obs, mask, player))
    with pytest.raises(ValueError):
        vg.step(np.full(4, PASS, dtype=np.int64))
    assert snap_vector(vg, (obs, mask, player)) == before
    assert not np.asarray(mask)[:, PASS].any()


@pytest.mark.parametrize("key", ["sniff-4", "twelve-3"])
def test_vector_num_envs_game_index_and_agent_rows(key):
    """Bounds at every public entry: ``num_envs`` ≥ 1, ``game(index)`` in ``0 … num_envs-1``,
    ``agent_actions(agent, rows)`` with a built-in rule agent and 1-D integer rows."""
    make = VECTORS[key]
    cls = make.func
    vg = make(seed=1)
    n = vg.num_envs
    before = vg.states.tobytes()
    reference = [vg.game(i).state_array.tobytes() for i in range(n)]
    everyone = vg.agent_actions(vg.rule_agents[0])

    @FUZZ
    @given(st.data())
    def check(data):
        raises_kind("num_envs", cls, data.draw(WRONG_KINDS))
        raises_range("num_envs", cls, data.draw(outside(1, None)), bounds=(1,))
        raises_kind("index", vg.game, data.draw(WRONG_KINDS))
        raises_range("index", vg.game, data.draw(outside(0, n - 1)), bounds=(0, n - 1))
        agent = data.draw(not_one_of(vg.rule_agents))
        raises_value("agent", vg.agent_actions, agent)
        rows = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4)))
        raises_kind("rows", vg.agent_actions, vg.rule_agents[0], rows.astype(np.float64))
        raises_value("rows", vg.agent_actions, vg.rule_agents[0], rows.astype(bool))
        raises_value("rows", vg.agent_actions, vg.rule_agents[0], rows[None, :])
        out_of_range = rows.copy()
        out_of_range[0] = data.draw(st.one_of(st.integers(-(2**40), -1), st.integers(n, 2**40)))
        raises_range("rows", vg.agent_actions, vg.rule_agents[0], out_of_range)
        assert vg.agent_actions(vg.rule_agents[-1], rows).shape == rows.shape
        assert np.array_equal(vg.agent_actions(vg.rule_agents[0], rows), everyone[rows])
        assert vg.states.tobytes() == before

    check()
    for i in range(n):
        for form in int_forms(i):
            assert vg.game(form).state_array.tobytes() == reference[i]
    assert cls(np.int64(2)).num_envs == 2 and cls(np.array(1)).num_envs == 1


@pytest.mark.parametrize("key", ["sniff-4", "twelve-3"])
def test_vector_reset_seed_is_checked_and_changes_nothing(key):
    """Bounds at every public entry: ``VectorGame.reset(seed=bad)`` is rejected and leaves the
    batch (and its remembered seed) as it was."""
    make = VECTORS[key]
    vg, twin = make(seed=7), make(seed=7)
    returned = vg.reset()
    before = snap_vector(vg, returned)
    for bad in ("x", 1.5, True, -1, [1, 2]):
        with pytest.raises(ValueError, match="seed"):
            vg.reset(seed=bad)
        assert snap_vector(vg, returned) == before
    assert snap_vector(vg, vg.reset()) == snap_vector(twin, twin.reset())
    assert snap_vector(vg, vg.reset(seed=np.int64(3))) == snap_vector(twin, twin.reset(seed=3))


# --- AEC envs ---------------------------------------------------------------------------------------
AEC = {
    "sniff-2": (sniff_env, {"num_players": 2}, sniff_deal(2)),
    "sniff-4-auto": (sniff_env, {"num_players": 4, "forced": "auto"}, sniff_deal(4)),
    "twelve-2": (twelve_env, {"num_players": 2}, twelve_deal(2)),
    "twelve-4-numbers": (twelve_env, {"num_players": 4, "deck": "numbers"}, twelve_deal(4)),
}


def aec_state(env) -> tuple[bytes, str]:
    return env.unwrapped.game.state_array.tobytes(), env.unwrapped.agent_selection


def live_env(package, options, wrapped: bool, moves: int = 5, seed: int = 3):
    """An AEC env a few legal moves into an episode, still live."""
    env = (package.env if wrapped else package.raw_env)(**options)
    env.reset(seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(rnd.choice(np.flatnonzero(mask).tolist()))
    assert not env.unwrapped.terminations[env.agent_selection]
    return env


@pytest.mark.parametrize("key", AEC)
def test_raw_env_step_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: ``raw_env.step`` — wrong kind, out of range, illegal; the game
    and the agent to act are unchanged."""
    package, options, _ = AEC[key]
    env = live_env(package, options, wrapped=False)
    before = aec_state(env)
    num_actions = env.action_space(env.agent_selection).n

    @FUZZ
    @given(st.data())
    def check(data):
        raises_kind("action", env.step, data.draw(WRONG_KINDS))
        raises_range("action", env.step, data.draw(outside(0, num_actions - 1)))
        mask = env.observe(env.agent_selection)["action_mask"]
        illegal = np.flatnonzero(mask == 0).tolist()
        if illegal:
            raises_range("action", env.step, data.draw(st.sampled_from(illegal)))
        assert aec_state(env) == before

    check()
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    twin = live_env(package, options, wrapped=False)
    assert aec_state(twin) == before
    env.step(np.array(legal))
    twin.step(legal)
    assert aec_state(env) == aec_state(twin)


@pytest.mark.parametrize("key", AEC)
def test_wrapped_env_step_raises_instead_of_asserting(key):
    """Bounds at every public entry: the wrapped ``env().step`` on a live agent raises
    ``ValueError`` / ``ArgumentTypeError`` for ``None``, out-of-range ids and wrong kinds, never a
    bare ``AssertionError``; the state is unchanged."""
    package, options, _ = AEC[key]
    env = live_env(package, options, wrapped=True)
    before = aec_state(env)
    for action in (None, 200, -1, 1.0, "3"):
        with pytest.raises(ValueError):
            env.step(action)
        assert aec_state(env) == before
    num_actions = env.action_space(env.agent_selection).n

    @FEW
    @given(WRONG_KINDS, outside(0, num_actions - 1))
    def check(wrong, out_of_range):
        raises_value("action", env.step, wrong)
        raises_value("action", env.step, out_of_range)
        assert aec_state(env) == before

    check()
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.array(legal))
    assert aec_state(env) != before


@pytest.mark.parametrize("key", ["sniff-2", "twelve-2"])
def test_wrapped_env_in_range_illegal_action_keeps_pettingzoo_convention(key):
    """Bounds at every public entry: an in-range illegal action on ``env()`` is no error — the game
    ends with −1 for the offender (TerminateIllegalWrapper)."""
    package, options, _ = AEC[key]
    env = live_env(package, options, wrapped=True)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.unwrapped.rewards[offender] == -1
    assert all(env.unwrapped.terminations.values())


@pytest.mark.parametrize("key", AEC)
def test_aec_reset_checks_seed_and_deal_and_stays_usable(key):
    """Bounds at every public entry: ``reset(seed=bad)`` names the seed; ``reset(options={"deal":
    bad})`` is a ``ValueError``; a following ``reset(seed=0)`` works."""
    package, options, _ = AEC[key]
    n = options["num_players"]
    game_options = {k: v for k, v in options.items() if k != "forced"}
    fresh = package.Game(seed=0, **game_options).state_array.tobytes()
    deck = options.get("deck", "bridge")
    deals = bad_sniff_deals(n) if package is sniff_env else bad_twelve_deals(n, deck)
    for wrapped in (False, True):
        env = (package.env if wrapped else package.raw_env)(**options)
        raises_range("seed", env.reset, seed=-1)
        raises_kind("seed", env.reset, seed="x")
        raises_kind("seed", env.reset, seed=1.5)
        env.reset(seed=0)
        if package is twelve_env or options.get("forced") != "auto":
            assert env.unwrapped.game.state_array.tobytes() == fresh

    env = package.raw_env(**options)

    @FEW
    @given(deals, NOT_INTEGERS, outside(0))
    def check(deal, wrong_seed, negative_seed):
        with pytest.raises(ValueError):
            env.reset(seed=1, options={"deal": copy.deepcopy(deal)})
        raises_kind("seed", env.reset, seed=wrong_seed)
        raises_range("seed", env.reset, seed=negative_seed)
        env.reset(seed=0)
        assert env.agents == env.possible_agents
        if package is twelve_env or options.get("forced") != "auto":
            assert env.unwrapped.game.state_array.tobytes() == fresh

    check()
    env.reset(seed=np.int64(0))
    twin = package.raw_env(**options)
    twin.reset(seed=0)
    assert aec_state(env) == aec_state(twin)


def test_aec_named_cases():
    """Bounds at every public entry: the issue's AEC cases — wrapped ``step(None | 200 | 1.0)`` and
    a bad deal at reset."""
    env = sniff_env.env(num_players=4)
    env.reset(seed=0)
    before = aec_state(env)
    for action in (None, 200, 1.0):
        with pytest.raises(ValueError):
            env.step(action)
        assert aec_state(env) == before
    with pytest.raises(ValueError):
        env.reset(options={"deal": {"hands": 5}})
    env.reset(seed=0)
    assert env.unwrapped.game.state_array.tobytes() == sniff_env.Game(seed=0).state_array.tobytes()
    with pytest.raises(ValueError):
        sniff_env.raw_env(target=2**40)
    with pytest.raises(ValueError, match="render_mode"):
        twelve_env.env(render_mode="pixels")


# --- single-seat gymnasium env ---------------------------------------------------------------------
SINGLE = {
    "sniff-2": partial(sniff_single, 2),
    "sniff-4": partial(sniff_single, 4, seat=3),
    "twelve-3": partial(twelve_single, 3, seat=1),
}


def test_single_agent_env_named_cases():
    """Bounds at every public entry: ``single_agent_env(2, seat=1, target=5)`` never resets into a
    finished episode (seeds 0–30)."""
    env = sniff_single(2, seat=1, target=5)
    for seed in range(31):
        _, info = env.reset(seed=seed)
        assert info["action_mask"].any(), f"seed {seed}: reset returned an episode that is over"
        assert env.action_masks().any()
        assert not env.game.is_terminal()


@pytest.mark.parametrize(
    ("make", "n"),
    [(sniff_single, 2), (partial(sniff_single, 4), 4), (twelve_single, 2), (partial(twelve_single, 7), 7)],
    ids=["sniff-2", "sniff-4", "twelve-2", "twelve-7"],
)
def test_single_agent_env_options_are_checked(make, n):
    """Bounds at every public entry: ``seat``, ``opponents`` (and ``partner`` with 4 Sniff players)."""
    assert make(seat=None) is not None and make(seat=np.array(n - 1)) is not None
    assert make(seat=np.int64(n - 1)) is not None
    has_partner = getattr(make, "func", make) is sniff_single and n == 4

    @FEW
    @given(
        NOT_INTEGERS,
        outside(0, n - 1),
        st.one_of(
            st.sampled_from(["nobody", "Greedy", "greedy:3", "rollout:0", "rollout:-3", "rollout:x", "", "random "]),
            st.integers(),
            st.none(),
            st.just(["greedy"] * (n + 1)),
        ),
    )
    def check(wrong_seat, bad_seat, bad_spec):
        raises_kind("seat", make, seat=wrong_seat)
        raises_range("seat", make, seat=bad_seat, bounds=(0, n - 1))
        with pytest.raises(ValueError):
            make(opponents=bad_spec)
        if has_partner and bad_spec is not None:  # partner=None is left undecided by the contract
            with pytest.raises(ValueError):
                make(partner=bad_spec)

    check()


@pytest.mark.parametrize("key", SINGLE)
def test_single_agent_step_rejects_bad_actions_and_changes_nothing(key):
    """Bounds at every public entry: single-seat ``step`` — a wrong kind is ``ArgumentTypeError``,
    an id outside the action space ``ValueError``, both leaving the state as it was; a 0-d integer
    array is an action; an in-range illegal action ends the episode with −1."""
    make = SINGLE[key]
    env, twin = make(), make()
    env.reset(seed=5)
    twin.reset(seed=5)
    before = env.game.state_array.tobytes()
    num_actions = env.action_space.n

    @FUZZ
    @given(WRONG_KINDS, outside(0, num_actions - 1))
    def check(wrong, out_of_range):
        raises_kind("action", env.step, wrong)
        raises_range("action", env.step, out_of_range)
        assert env.game.state_array.tobytes() == before

    check()
    mask = env.action_masks()
    assert mask.any()
    legal = int(np.flatnonzero(mask)[0])
    stepped = env.step(np.array(legal))
    expected = twin.step(legal)
    assert "illegal_action" not in stepped[4]
    assert np.array_equal(stepped[0], expected[0]) and stepped[1:4] == expected[1:4]
    assert env.game.state_array.tobytes() == twin.game.state_array.tobytes()
    env.reset(seed=6)
    before = env.game.state_array.tobytes()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info.get("illegal_action")) == (-1.0, True, True)
    assert env.game.state_array.tobytes() == before


@pytest.mark.parametrize("key", SINGLE)
def test_single_agent_reset_seed_is_checked(key):
    """Bounds at every public entry: single-seat ``reset(seed=…)`` follows the seed rule."""
    env, twin = SINGLE[key](), SINGLE[key]()
    raises_range("seed", env.reset, seed=-1)
    raises_kind("seed", env.reset, seed="x")
    raises_kind("seed", env.reset, seed=1.5)
    raises_kind("seed", env.reset, seed=True)
    obs, _ = env.reset(seed=np.int64(9))
    expected, _ = twin.reset(seed=9)
    assert np.array_equal(obs, expected)
    assert env.game.state_array.tobytes() == twin.game.state_array.tobytes()
