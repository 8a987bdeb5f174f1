"""Seat-relative observation of "12", written by one compiled kernel for every layer.

Relative seat ``r`` is absolute seat ``(me + r) % n`` (``r = 1`` acts next); slots for seats a
smaller table lacks are 0. ``R`` is the number of ranks: 13 (bridge deck) or 11 (number deck),
so the vector has ``4R + 17`` entries (69 or 61). All values are ``float32``. The observation
(``OBS``):

{OBS}

The omniscient ``state`` for centralised critics (``CRITIC``):

{CRITIC}
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sniff_twelve.core.layout import Layout, with_tables
from sniff_twelve.core.seats import seat_after
from twelve_env import kernels as K
from twelve_env.cards import MAX_RANKS

OBS = Layout(
    ("hand", "R", "my hand: cards held of each rank"),
    ("top", "R", "the top face-up card, one-hot (all 0 when there is no pile)"),
    ("pile", "R", "the face-up pile: cards of each rank in it (the pile is public)"),
    ("pile_size", 1, "pile size"),
    ("seen", "R", "cards of each rank seen face up so far (played or turned; 4 of each exist)"),
    ("stock_size", 1, "stock size"),
    ("hand_sizes", 6, "hand sizes of relative seats 1–6"),
    ("captured", 7, "captured cards of relative seats 0–6"),
    ("last_round", 1, "1 while the last round (T13) is being played"),
    ("turns_left", 1, "turns left in the last round (0 before it)"),
)
# (a, b): the field starts at a * R + b
HAND, TOP, PILE, PILE_SIZE, SEEN, STOCK_SIZE, HAND_SIZES, CAPTURED, LAST_ROUND, TURNS_LEFT = (
    OBS.linear(name) for name in OBS.names()
)
_OBS_END = OBS.end()


def observation_bounds(params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of every observation entry under ``params``: the envs' ``Box``. Four cards
    of each rank exist (T1), so a rank count lies in [0, 4] and a pile, hand, stock or capture
    size within the deck; the last round lasts at most one turn a player (T13)."""
    r = int(K.num_ranks(params))
    ranks, cards, flags = (0, 4), (0, 4 * r), (0, 1)
    return OBS.bind(R=r).bounds(
        {
            "hand": ranks,
            "top": flags,
            "pile": ranks,
            "pile_size": cards,
            "seen": ranks,
            "stock_size": cards,
            "hand_sizes": cards,
            "captured": cards,
            "last_round": flags,
            "turns_left": (0, int(params[K.P_PLAYERS])),
        }
    )


CRITIC = Layout(
    ("observation", "4R+17", "the observation of the seat to act"),
    ("hands", "6R", "the hands of relative seats 1–6, by rank"),
    ("stock", "R", "the stock's cards by rank"),
)
_HIDDEN_HANDS, _STOCK, _CRITIC_END = CRITIC.linear("hands"), CRITIC.linear("stock"), CRITIC.end()
__doc__ = with_tables(__doc__, OBS=OBS, CRITIC=CRITIC)


def obs_fields(num_ranks: int) -> tuple[tuple[str, int, int], ...]:
    """``(name, offset, size)`` of every field for a deck with ``num_ranks`` ranks."""
    return OBS.bind(R=num_ranks).fields()


def obs_size(num_ranks: int) -> int:
    return OBS.bind(R=num_ranks).size


def critic_size(num_ranks: int) -> int:
    """The width of the omniscient ``state`` (``CRITIC``)."""
    return CRITIC.bind(R=num_ranks).size


@nb.njit(cache=True, inline="always")
def _at(field, r):
    """Where a field (``(a, b)`` of ``OBS.linear``) starts with ``r`` ranks."""
    return field[0] * r + field[1]


@nb.njit(cache=True)
def write_observation(s, params, me, out):
    """Fill ``out[:obs_size]`` with what seat ``me`` sees (layout in the module docstring)."""
    n = params[K.P_PLAYERS]
    r = K.num_ranks(params)
    out[: _at(_OBS_END, r)] = 0.0
    for k in range(r):
        out[_at(HAND, r) + k] = s[K.HAND + MAX_RANKS * me + k]
        out[_at(SEEN, r) + k] = s[K.SEEN + k]
    pile = s[K.PILE_LEN]
    for i in range(pile):
        out[_at(PILE, r) + s[K.PILE + i]] += 1.0
    if pile > 0:
        out[_at(TOP, r) + s[K.PILE + pile - 1]] = 1.0
    out[_at(PILE_SIZE, r)] = pile
    out[_at(STOCK_SIZE, r)] = s[K.STOCK_LEN] - s[K.STOCK_HEAD]
    for rel in range(n):
        seat = seat_after(me, rel, n)
        if rel > 0:
            out[_at(HAND_SIZES, r) + rel - 1] = K.hand_size(s, seat)
        out[_at(CAPTURED, r) + rel] = s[K.CAPTURED + seat]
    if s[K.LAST_ROUND] >= 0:
        out[_at(LAST_ROUND, r)] = 1.0
        out[_at(TURNS_LEFT, r)] = s[K.LAST_ROUND]


@nb.njit(cache=True)
def write_state(s, params, out):
    """Fill ``out[:critic_size]`` (``CRITIC``): the observation of the seat to act plus every hidden card."""
    n = params[K.P_PLAYERS]
    r = K.num_ranks(params)
    me = np.int64(s[K.CUR])
    write_observation(s, params, me, out)
    hands, stock = _at(_HIDDEN_HANDS, r), _at(_STOCK, r)
    out[hands : _at(_CRITIC_END, r)] = 0.0
    for rel in range(1, n):
        seat = seat_after(me, rel, n)
        for k in range(r):
            out[hands + (rel - 1) * r + k] = s[K.HAND + MAX_RANKS * seat + k]
    for i in range(s[K.STOCK_HEAD], s[K.STOCK_LEN]):
        out[stock + s[K.STOCK + i]] += 1.0
