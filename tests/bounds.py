"""Helpers of the ``test_bounds`` modules, one per layer. Bounds at every public entry: every bad
argument raises the documented error, and the object it was given to is byte-identical afterwards
(hypothesis fuzz plus named cases).

The type rules (``sniff_twelve.core.options``): an integer is an ``int``, a NumPy integer or a 0-d integer
array — never a bool, a float, a string, ``None`` or a list — else ``ArgumentTypeError`` (both a
``TypeError`` and a ``ValueError``) naming the argument; an integer out of range is a
``ValueError`` naming it; a flag is a ``bool``; a choice is one of its strings; a seed is ``None``
or a non-negative integer. "Unchanged" is judged on the compiled state row (``state_array``,
``VectorGame.states``) plus ``Game.history``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import sniff_env
import sniff_twelve.core.games
import sniff_twelve.core.options
import twelve_env
from sniff_env.tiles import TILES
from twelve_env.cards import NUM_RANKS


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


# --- deals ----------------------------------------------------------------------------------------
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


def usage_error(capsys: pytest.CaptureFixture, main: Callable[[list[str]], Any], argv: list[str]) -> str:
    """``main(argv)`` exits 2 with one ``error: …`` line on stderr (the commands' convention,
    ``sniff_twelve.tools.exits``); returns that line."""
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(argv)
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and err.startswith("error: ") and "\n" not in err, (stop.value.code, err)
    return err
