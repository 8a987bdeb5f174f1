"""The OpenSpiel-style state object both games share.

A ``BaseGame`` is a thin Python handle on one state row and one options row; every rule lives
in the game's compiled kernels, named by its ``GameSpec`` (``sniff_twelve.core.spec``). Subclasses add the game's own
accessors (hands, scores, layout) and action names.
"""

from __future__ import annotations

import copy
import importlib
import warnings
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from sniff_twelve.core.options import (
    ArgumentTypeError,
    as_integer,
    check_int,
    check_keys,
    check_sequence,
    derive_init_signature,
)
from sniff_twelve.core.rng import stream_state
from sniff_twelve.core.row_calls import row_calls
from sniff_twelve.core.seats import seat_sides
from sniff_twelve.core.view import SeatView, write_views

if TYPE_CHECKING:
    from sniff_twelve.core.options import GameOption
    from sniff_twelve.core.spec import GameSpec


def slot_accessor(slot: int, doc: str, per_seat: bool = False) -> property:
    """A read-only accessor of the state row: slot ``slot`` as an ``int``, or (``per_seat``) a
    list of one entry per seat from ``slot`` on (``Game.opener``, ``Game.captured``)."""
    if per_seat:
        return property(lambda game: game._state[slot : slot + game.num_players].tolist(), doc=doc)
    return property(lambda game: int(game._state[slot]), doc=doc)


def option_accessor(option: GameOption) -> property:
    """``game.<option's name>``: the option's value in this game, read from its options row."""
    rule = f" ({option.rule})" if option.rule else ""
    choices = f": one of {', '.join(map(repr, option.choices))}" if option.choices else ""
    doc = f"The option ``{option.name}``, {option.label[0].lower()}{option.label[1:]}{rule}{choices}."
    return property(lambda game: option.read(game._params), doc=doc)


class IllegalActionError(ValueError):
    """An action id that is not legal in the position (or any action once the game is over); the
    message names the legal ones. ``Game.apply`` raises it before touching the state."""


class _Truncated:
    """``Game.is_truncated``: call it for the bool; read as a bool (the old property), it warns."""

    __slots__ = ("_value",)

    def __init__(self, value: bool) -> None:
        self._value = value

    def __call__(self) -> bool:
        return self._value

    def _deprecated(self) -> bool:
        warnings.warn("Game.is_truncated is a method: call is_truncated()", DeprecationWarning, stacklevel=3)
        return self._value

    def __bool__(self) -> bool:
        return self._deprecated()

    def __eq__(self, other: object) -> bool:
        return self._deprecated() == other

    def __hash__(self) -> int:
        return hash(self._value)

    def __repr__(self) -> str:
        return f"<bound method is_truncated: {self._value}>"


class BaseGame:
    """The state object of every game: one state row and one options row, every rule in the
    game's compiled kernels (its ``GameSpec``). A game writes ``class Game(BaseGame): spec =
    SPEC`` and only what is its own: accessors (``scores`` and the like; ``slot_accessor`` for a
    slot shown as it is), ``row_bounds``, action names and its ``deal=`` format where it has its
    own; ``str`` is the spec's ``text`` part. Every option of the options row is an accessor of
    its own name (``option_accessor``), public to every seat.

    ``Game(num_players, seed, deal, **options)``: the table (default ``spec.default_players``), the
    random stream (``None``: fresh entropy), a given position (``deal``, below) and the options
    (``spec.row_options``), each listed in the signature from its declaration (``after`` places it
    among the positional parameters). The default ``deal=`` format: ``{"hands": [[item, …], …],
    "pool": [item, …], "first_player": seat}`` — the items a deal of the table puts in play, each
    hand and the pool as large as there (the pool: the spec's boneyard or stock, ``POOL`` slots,
    drawn from ``POOL_HEAD`` up to ``POOL_LEN``), written by the spec's ``deal_hidden``."""

    spec: ClassVar[GameSpec]  # the game's registration: kernels, slots, sizes
    #: what a ``SeatView`` may read through this class (public information only)
    public_accessors: ClassVar[tuple[str, ...]] = (
        "num_players",
        "num_actions",
        "action_name",
        "hand_sizes",
        "scores",
        "is_truncated",
        "pool_size",
        "side_of",
    )
    record_name: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "spec" in vars(cls):
            derive_init_signature(cls, cls.spec.row_options, {"num_players": cls.spec.default_players})
            options = cls.spec.row_options
            for option in options:
                if hasattr(BaseGame, option.name):
                    raise TypeError(f"an option may not be named {option.name!r}: every game has that attribute")
                if option.name not in vars(cls):
                    setattr(cls, option.name, option_accessor(option))
            cls.public_accessors = tuple(dict.fromkeys((*cls.public_accessors, *(o.name for o in options))))
            if "record_name" not in vars(cls):
                cls.record_name = cls.spec.name

    def __init__(
        self,
        num_players: int,
        seed: int | None = None,
        deal: dict[str, Any] | None = None,
        _params: np.ndarray | None = None,
        **options: Any,
    ) -> None:
        spec = self.spec
        if _params is None:
            _params = spec.make_params(num_players, **options)
        self._state = state = np.zeros(spec.ROW_SIZE, dtype=np.int32)
        self._params = _params
        spec.new_game(state, _params, *stream_state(seed))
        #: the observation's width and this game's number of actions (at most ``spec.MAX_ACTIONS``)
        self.obs_size, _, self.num_actions = spec.widths(_params)
        self._mask = np.zeros(spec.MAX_ACTIONS, dtype=np.bool_)
        self.history: list[int] = []
        #: what the moves caused, in order, as the game records it (``_after_apply``)
        self.events: list[tuple] = []
        self._deal_rows: list[np.ndarray] = []  # the state before each action of the current deal
        if deal is not None:
            self._deal(deal)
        #: the state row before the first action (what a record starts from)
        self.initial_state = state.copy()

    @classmethod
    def from_state(cls, state: np.ndarray, params: np.ndarray) -> BaseGame:
        """A game positioned at a raw state row and options row (e.g. ``VectorGame.states[i]``,
        ``VectorGame.params``); both are copied. ``ValueError`` unless both have the game's shape
        and every slot lies in its range (``row_bounds``), so no row can make a kernel index
        outside it."""
        params = cls._checked_row("params", params, cls.param_bounds())
        cls.spec.check_table(params)
        game = cls(seed=0, _params=params)
        game._state[:] = cls._checked_row("state", state, cls.row_bounds(params), game._state.shape)
        game.initial_state[:] = game._state
        return game

    @classmethod
    def _from_row(cls, state: np.ndarray, params: np.ndarray) -> BaseGame:
        """``from_state`` for rows the library itself made (no checks)."""
        game = cls(seed=0, _params=np.array(params, dtype=np.int32))
        game._state[:] = state
        game.initial_state[:] = state
        return game

    @staticmethod
    def _checked_row(name: str, row: object, bounds: list, shape: tuple | None = None) -> np.ndarray:
        row = np.asarray(row)
        if not np.issubdtype(row.dtype, np.integer):
            raise ArgumentTypeError(f"{name} must be an integer array; got dtype {row.dtype}")
        shape = shape or (max(stop for _, (_, stop), _, _ in bounds),)
        if row.shape != shape:
            raise ValueError(f"{name} must have shape {shape}; got {row.shape}")
        for what, (start, stop), low, high in bounds:
            values = row[start:stop]
            if values.size and (values.min() < low or values.max() > high):
                raise ValueError(f"{name} row: {what} must lie in {low} … {high}; got {values.tolist()}")
        return row.astype(np.int32)

    @classmethod
    def make_params(cls, num_players: int, **options: Any) -> np.ndarray:
        """The checked options row of a table of ``num_players`` with ``options`` (``GameSpec.make_params``)."""
        return cls.spec.make_params(num_players, **options)

    @classmethod
    def param_bounds(cls) -> list[tuple[str, tuple[int, int], int, int]]:
        """``(what, (start, stop), low, high)`` for every slot of the options row."""
        return cls.spec.param_bounds()

    @classmethod
    def row_bounds(cls, params: np.ndarray) -> list[tuple[str, tuple[int, int], int, int]]:
        """``(what, (start, stop), low, high)`` for the state slots kernels index with."""
        raise NotImplementedError

    def image(self) -> np.ndarray:
        """The table as an RGB ``numpy`` image (H×W×3 ``uint8``): the game's one drawing, the SVG
        table of its ``web`` part, as the seat to act sees it (``sniff_twelve.drawing.table_image``,
        a higher layer, imported by name as the spec's parts are)."""
        return importlib.import_module("sniff_twelve.drawing").table_image(self)

    # --- records (sniff_twelve.core.records) ------------------------------------------------------------------
    record_name: ClassVar[str]

    def to_record(self) -> dict:
        """This game as a JSON-ready record that replays it exactly (``sniff_twelve.core.records``)."""
        from sniff_twelve.core.records import make_record

        return make_record(self)

    @classmethod
    def from_record(cls, record: dict | str) -> BaseGame:
        """Rebuild a game from ``to_record()`` output (dict or JSON text); ``ValueError`` if the record
        is malformed or does not replay to the events and result it states."""
        from sniff_twelve.core.records import load_record

        return load_record(record, cls)

    def record_options(self) -> dict[str, Any]:
        """The game's options by name, table size first (``GameSpec.record_options``)."""
        return self.spec.record_options(self._params)

    def record_events(self) -> list:
        return self.events

    def record_result(self) -> dict[str, Any]:
        return {"scores": self.scores, "terminal": self.is_terminal()}

    # --- the deal (the class docstring's format; a game with its own overrides these) -------------------
    def _deal(self, deal: dict[str, Any]) -> None:
        """Position the game at ``deal``; ``ValueError`` before any change."""
        spec, n, dealt = self.spec, self.num_players, self.deal_of(self._state)
        check_keys("deal", deal, ("hands", "pool"), ("first_player",))
        hands = check_sequence("deal['hands']", deal["hands"], n)
        parts = [*(check_sequence(f"deal['hands'][{s}]", h, len(dealt["hands"][s])) for s, h in enumerate(hands))]
        parts.append(check_sequence("deal['pool']", deal["pool"], len(dealt["pool"])))
        items = [check_int("item", item, 0, spec.ITEMS - 1) for part in parts for item in part]
        in_play = sorted(item for part in [*dealt["hands"], dealt["pool"]] for item in part)
        if sorted(items) != in_play:
            names = ", ".join(str(spec.item_names[i]) for i in in_play)
            raise ValueError(f"a deal puts the items of a deal of this table in play: {names}")
        holdings = np.zeros((n, spec.ITEMS), dtype=np.int64)
        for seat, hand in enumerate(parts[:n]):
            np.add.at(holdings[seat], hand, 1)
        first = check_int("first_player", deal.get("first_player", 0), 0, n - 1)
        state = self._state.copy()
        spec.deal_hidden(self._state, self._params, -1, holdings, np.array(parts[n], dtype=np.int64), state)
        state[spec.CUR] = first
        self._state[:] = state

    def deal_of(self, state: np.ndarray) -> dict[str, Any]:
        """The deal of ``state`` in the ``deal=`` format, a position before its first action (the
        seat to act is the first)."""
        game = type(self)._from_row(state, self._params)
        hands = [game.hand(seat) for seat in range(self.num_players)]
        return {"hands": hands, "pool": game.pool, "first_player": game.current_player}

    def hand(self, seat: int) -> list:
        """The items ``seat`` holds, ascending (a copy of one item per time held)."""
        held = np.zeros(self.spec.ITEMS, dtype=np.int64)
        self.spec.held_items(self._state, self._params, self.check_seat(seat), held)
        return np.repeat(np.arange(self.spec.ITEMS), held).tolist()

    @property
    def hand_sizes(self) -> list[int]:
        """Items held by every seat (public)."""
        return [int(self.spec.hand_size(self._state, self._params, seat)) for seat in range(self.num_players)]

    @property
    def pool(self) -> list:
        """The boneyard or stock, next item first (hidden information)."""
        s, spec = self._state, self.spec
        return s[spec.POOL + s[spec.POOL_HEAD] : spec.POOL + s[spec.POOL_LEN]].tolist()

    @property
    def pool_size(self) -> int:
        """Items left in the boneyard or stock (public)."""
        return int(self._state[self.spec.POOL_LEN] - self._state[self.spec.POOL_HEAD])

    # --- the protocol -------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """Seat to act (meaningless once ``is_terminal()``)."""
        return int(self._state[self.spec.CUR])

    def is_terminal(self) -> bool:
        """Whether the game (the whole match for Sniff) has ended, won or truncated."""
        return int(self._state[self.spec.STATUS]) != self.spec.LIVE

    @property
    def is_truncated(self) -> _Truncated:
        """``is_truncated()``: whether the game was cut short by a limit of its options rather than
        won; always ``False`` in a game without one (``spec.TRUNCATED`` is ``-1``). The old
        spelling without the call still reads as that bool, with a ``DeprecationWarning``."""
        return _Truncated(int(self._state[self.spec.STATUS]) == self.spec.TRUNCATED)

    def legal_mask(self) -> np.ndarray:
        """Bool array over all action ids; all ``False`` once terminal."""
        self.spec.legal_mask_into(self._state, self._params, self._mask)
        return self._mask[: self.num_actions].copy()

    @property
    def num_players(self) -> int:
        return int(self._params[0])

    def check_seat(self, seat: object) -> int:
        """``seat`` as an int in ``0 … num_players-1``, else ``ValueError`` (``ArgumentTypeError``
        for a value that is not an integer)."""
        return check_int("seat", seat, 0, self.num_players - 1)

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for, by the spec's ``sides`` (every seat its own side without
        them): its entry of ``scores`` where a game scores sides."""
        return seat_sides(self.spec, self.num_players)[self.check_seat(seat)]

    def observation(self, seat: int | None = None) -> np.ndarray:
        """What ``seat`` (default: the seat to act) observes — the same vector the envs give."""
        seat = self.current_player if seat is None else self.check_seat(seat)
        out = np.empty(self.obs_size, dtype=np.float32)
        self.spec.write_observation(self._state, self._params, seat, out)
        return out

    def seat_view(self, seat: int | None = None, past: bool = True) -> SeatView:
        """What ``seat`` (default: the seat to act) may know — the value agents, searches and
        learned policies act on (``sniff_twelve.core.view``); with ``past`` (the default) its
        memory of the current deal too (``SeatView.past``), which agents that do not read it
        skip (``Agent.reads_past``)."""
        seat = self.current_player if seat is None else self.check_seat(seat)
        out = np.empty_like(self._state)
        self.spec.write_view(self._state, self._params, seat, out)
        if not past:
            return SeatView(type(self), out, self._params.copy(), seat, self.obs_size, self.num_actions)
        steps = len(self._deal_rows)
        views = np.empty((steps, out.shape[0]), dtype=out.dtype)
        if steps:
            write_views(self.spec, np.stack(self._deal_rows), self._params, seat, views)
        actions = np.array(self.history[len(self.history) - steps :], dtype=np.int64)
        return SeatView(type(self), out, self._params.copy(), seat, self.obs_size, self.num_actions, views, actions)

    def action_features(self) -> np.ndarray:
        """One-step look-ahead of every action for the seat to act → ``[A, F]`` float32, the columns
        named by ``spec.action_feature_names``; column 0 is what the action earns at once (Sniff:
        its credit, S17; "12": the cards it captures, T8), the one ``greedy`` maximises. All zero for
        illegal actions. Computed from that seat's view: an input for learned policies."""
        return self.seat_view(past=False).action_features()

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids."""
        return np.flatnonzero(self.legal_mask()).tolist()

    def forced_action(self) -> int | None:
        """The move the seat to act has no choice but to make and the environments may make for it
        (``spec.forced_move``: Sniff's DRAW or PASS, S19, S21), else ``None``, as once the game is over."""
        if self.is_terminal():
            return None
        action = self.spec.forced_move(self._state, self._params)
        return None if action < 0 else int(action)

    def apply(self, action: int) -> None:
        """Apply ``action`` for the seat to act.

        Raises ``ValueError`` naming the legal actions when it is illegal (or the game is over);
        the state is then unchanged.
        """
        a = as_integer("action", action)
        spec, state, calls = self.spec, self._state, row_calls(self.spec)
        calls.legal_mask_into(state, self._params, self._mask)
        if not (0 <= a < self.num_actions and self._mask[a]):
            raise IllegalActionError(self._illegal_message(a))
        before = state.copy()
        events = calls.apply_action(state, self._params, a)
        self._deal_rows.append(before)
        self.history.append(a)
        if spec.HANDS >= 0 and state[spec.HANDS] != before[spec.HANDS]:
            self._deal_rows.clear()  # a new deal: what came before tells nothing of it
        self._after_apply(int(before[spec.CUR]), a, events)

    def clone(self) -> BaseGame:
        """An independent copy: applying to one never changes the other.

        Arrays are copied and lists copied one level deep, since their items (actions, event
        tuples, the stored rows of the deal) are never changed in place; anything else is
        deep-copied. So a clone costs the same late in a match as early, where a deep copy of
        the whole history grew with it.
        """
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                setattr(twin, name, value.copy())
            elif isinstance(value, list):
                setattr(twin, name, list(value))
            elif not isinstance(value, (bool, int, float, str, tuple, type(None))):
                setattr(twin, name, copy.deepcopy(value))
        return twin

    def __str__(self) -> str:
        """The table as text: the game's ``text`` part, else its state row."""
        text = self.spec.part("text")
        return text(self) if text else f"{type(self).__name__} {self._state.tolist()}"

    # --- hooks ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """The spec's ``action_names[action]`` (a game with names of its own overrides this)."""
        return self.spec.action_names[action]

    def _after_apply(self, actor: int, action: int, events: int) -> None:
        """Record what the last action caused (scores, events) — game specific."""

    def _illegal_message(self, action: int) -> str:
        if self.is_terminal():
            return f"action {action} is illegal: the game is over"
        legal = ", ".join(f"{a} ({self.action_name(a)})" for a in np.flatnonzero(self._mask))
        shown = self.action_name(action) if 0 <= action < self.num_actions else "out of range"
        return f"action {action} ({shown}) is illegal for seat {self.current_player}; legal: {legal}"

    # --- raw access for the layers above --------------------------------------------------------
    @property
    def state_array(self) -> np.ndarray:
        """The compiled state row (read-only view); see the game's ``kernels`` module for slots."""
        view = self._state.view()
        view.flags.writeable = False
        return view
