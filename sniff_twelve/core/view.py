"""A seat's view: everything one seat may know of a game, as a value of its own.

The boundary between the referee (``Game``, which holds every tile and card) and the players
(agents, searches, learned policies, the action features, compiled opponents) is one compiled
function per game, ``write_view(state, params, seat, out)``. It writes a row with the state's
layout, so every rule kernel runs on it unchanged, in which

- the seat's own hand and everything public (the layout or pile, hand sizes, boneyard or stock
  size, known voids, cards seen, scores, whose turn, the public history) are copied as they are;
- the tiles or cards the seat cannot see are dealt in a fixed canonical order — ascending, to
  the other hands in seat order (their sizes kept) and then to the boneyard or stock — so they
  carry no information;
- the game's random stream and the record of past draws are zeroed.

So a view is a function of the seat's information set alone: two positions that look the same
to the seat give byte-identical views (tested on twins), and anything computed from a view — an
agent's choice, a determinized search, an action feature — cannot depend on hidden information.
That holds by construction, not by discipline.

>>> import sniff_env
>>> game = sniff_env.Game(num_players=2, seed=3)
>>> view = game.seat_view()
>>> view.hand() == game.hand(game.current_player), view.boneyard_size == game.boneyard_size
(True, True)
>>> bool((view.observation() == game.observation()).all())
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba as nb
import numpy as np

from sniff_twelve.core.rng import stream_state

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.spec import GameSpec


def _same(a: np.ndarray | None, b: np.ndarray | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))


def _bytes(row: np.ndarray | None) -> bytes:
    return b"" if row is None else row.tobytes()


@nb.njit(cache=True)
def copy_public(s, out, rng):
    """The start of every game's ``write_view``: ``out[:] = s`` with the random stream's two words
    (from slot ``rng``) zeroed; the game then deals what the seat cannot see canonically."""
    out[:] = s
    out[rng] = 0
    out[rng + 1] = 0


@nb.njit(cache=True)
def write_views(hooks, rows, params, seat, out):
    """``out[t]``: ``seat``'s view of ``rows[t]`` (the game's ``write_view`` of every row)."""
    for t in range(rows.shape[0]):
        hooks.write_view(rows[t], params, seat, out[t])


class SeatView:
    """What ``seat`` may know of a game (see the module docstring).

    Built by ``Game.seat_view(seat)``. The compiled row is ``array`` (read-only, the game's state
    layout with hidden slots canonical); public accessors of the game (its
    ``public_accessors``, e.g. ``scores``, ``describe()``, ``boneyard_size``, ``pile``) read it.
    ``sample(seed)`` deals the hidden tiles or cards at random, consistently with the view: a
    full ``Game`` a search can play on (OpenSpiel's ``resample_from_infostate``).

    The seat's memory of the current deal is part of its view: ``past[t]`` is its view before
    the deal's ``t``-th action, ``past_actions[t]`` that action (public), so what the other seats'
    choices reveal can be read from the view alone (``sniff_twelve.beliefs``). A game built from
    a raw row (``Game.from_state``) remembers from that row on.
    """

    def __init__(
        self,
        game_cls: type[BaseGame],
        array: np.ndarray,
        params: np.ndarray,
        seat: int,
        obs_size: int,
        num_actions: int,
        past: np.ndarray | None = None,
        past_actions: np.ndarray | None = None,
    ) -> None:
        self._game_cls = game_cls
        self.seat = seat
        self.obs_size = obs_size
        self.num_actions = num_actions
        self._row = array  # private and writable: kernels get the same array types as from Game
        self.params = params
        self._public: BaseGame | None = None
        self._past, self._past_actions = past, past_actions  # None: taken without the seat's memory
        for row in (past, past_actions):
            if row is not None:
                row.flags.writeable = False

    @property
    def past(self) -> np.ndarray:
        """``[T, row]``: this seat's view before each action of the current deal (read-only);
        ``ValueError`` for a view taken without it (``Game.seat_view(past=False)``)."""
        return self._remembered(self._past)

    @property
    def past_actions(self) -> np.ndarray:
        """``[T]``: the actions of the current deal so far, in order (read-only)."""
        return self._remembered(self._past_actions)

    @staticmethod
    def _remembered(row: np.ndarray | None) -> np.ndarray:
        if row is None:
            raise ValueError("this view was taken without the seat's memory of the deal: use Game.seat_view(seat)")
        return row

    @property
    def array(self) -> np.ndarray:
        """The view row (read-only): the game's state layout, hidden slots canonical."""
        view = self._row.view()
        view.flags.writeable = False
        return view

    def run(self, kernel, *args: Any) -> Any:
        """``kernel(view_row, params, *args)``: a compiled function of the view, such as an
        agent's policy or search (it works on this view's own copy of the row)."""
        return kernel(self._row, self.params, *args)

    # --- the seat's own information ---------------------------------------------------------------
    @property
    def spec(self) -> GameSpec:
        """The game's registration (``sniff_twelve.core.spec``): kernels, slots, sizes."""
        return self._game_cls.spec

    @property
    def current_player(self) -> int:
        return int(self._row[self.spec.CUR])

    @property
    def is_to_act(self) -> bool:
        """Whether this seat is to act (and the game is not over)."""
        return self.current_player == self.seat and not self.is_terminal()

    def is_terminal(self) -> bool:
        return int(self._row[self.spec.STATUS]) != self.spec.LIVE

    def hand(self) -> list:
        """The seat's own hand (in the game's ``hand`` format)."""
        return self._game().hand(self.seat)

    def observation(self) -> np.ndarray:
        """The seat's observation vector, equal to ``Game.observation(seat)``."""
        out = np.empty(self.obs_size, dtype=np.float32)
        self.spec.write_observation(self._row, self.params, self.seat, out)
        return out

    def legal_mask(self) -> np.ndarray:
        """The seat's legal actions; all ``False`` when it is not to act."""
        mask = np.zeros(self.spec.MAX_ACTIONS, dtype=np.bool_)
        if self.is_to_act:
            self.spec.legal_mask_into(self._row, self.params, mask)
        return mask[: self.num_actions]

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self.legal_mask()).tolist()

    def action_features(self) -> np.ndarray:
        """The one-step look-ahead of every action → ``[A, F]`` float32 (see
        ``Game.action_features``); all zero when the seat is not to act."""
        out = np.zeros((self.num_actions, len(self.spec.action_feature_names)), dtype=np.float32)
        if self.is_to_act:
            self.spec.action_features(self._row, self.params, out)
        return out

    def sample(self, seed: int | None = None) -> BaseGame:
        """A full game consistent with this view: the hidden tiles or cards dealt at random
        (respecting what is public, e.g. hand sizes and known voids), the rest as it is."""
        rng = np.array(stream_state(seed), dtype=np.int32)
        state = np.empty_like(self._row)
        self.spec.resample(self._row, self.params, self.seat, state, rng)
        return self._game_cls._from_row(state, self.params)

    # --- public accessors of the game, read from the view ----------------------------------------------
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._game_cls.public_accessors:
            raise AttributeError(
                f"{name!r} is not part of a seat's view; public: {', '.join(self._game_cls.public_accessors)}"
            )
        return getattr(self._game(), name)

    def _game(self) -> BaseGame:
        """The view as a ``Game`` object, for the public accessors (never handed out)."""
        if self._public is None:
            self._public = self._game_cls._from_row(self._row, self.params)
        return self._public

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, SeatView)
            and self._game_cls is other._game_cls
            and self.seat == other.seat
            and np.array_equal(self.params, other.params)
            and np.array_equal(self._row, other._row)
            and _same(self._past, other._past)
            and _same(self._past_actions, other._past_actions)
        )

    def __hash__(self) -> int:
        return hash(
            (self._game_cls.__name__, self.seat, self.params.tobytes(), self._row.tobytes(), _bytes(self._past))
        )

    def __repr__(self) -> str:
        return f"SeatView({self._game_cls.__module__}.{self._game_cls.__name__}, seat={self.seat})"
