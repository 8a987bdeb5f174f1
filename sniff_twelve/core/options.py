"""Argument checking shared by both games: a bad argument is a clear error, never a guess.

The type rules, decided once and applied at every public entry (constructors, options, deals,
seats, tiles, ranks, actions, agent specs, batched actions):

- an **integer** is a Python ``int``, a NumPy integer or a 0-d integer array — never a ``bool``,
  a float (not even ``2.0``) or a string;
- a **flag** is a ``bool`` (or ``numpy.bool_``) — never ``0``/``1`` or ``"no"``;
- a **choice** is one of its listed strings.

The wrong kind of value raises ``ArgumentTypeError``, which is both a ``TypeError`` and a
``ValueError``; a value of the right kind out of its range raises ``ValueError``. Both name the
argument and say what is allowed. Checks run in Python before anything reaches compiled code, so
no public call can make a kernel read or write outside its row.

>>> check_int("seat", np.array(2), 0, 3)
2
>>> check_int("seat", True, 0, 3)
Traceback (most recent call last):
...
sniff_twelve.core.options.ArgumentTypeError: seat must be an integer; got True (bool)
"""

from __future__ import annotations

import argparse
import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

#: upper bound of targets and truncation limits: far beyond any real match, safe in ``int32``
MAX_LIMIT = 1_000_000_000


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong kind (a float for an action, a string for a tile, …)."""


def _kind(value: Any) -> str:
    return type(value).__name__


def as_integer(name: str, value: Any) -> int:
    """``value`` as an ``int`` under the integer rule above, else ``ArgumentTypeError``."""
    if type(value) is int:  # the common case, first
        return value
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ArgumentTypeError(f"{name} must be an integer; got {value!r} ({_kind(value)})")
    return int(value)


def check_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    """Return ``value`` as an int in ``[low, high]``, else raise saying what is allowed."""
    value = as_integer(name, value)
    if value < low or (high is not None and value > high):
        span = f">= {low}" if high is None else f"between {low} and {high}"
        raise ValueError(f"{name} must be {span}; got {value}")
    return value


def check_flag(name: str, value: Any) -> bool:
    """Return ``value`` if it is a ``bool`` (or ``numpy.bool_``), else ``ArgumentTypeError``."""
    if not isinstance(value, bool | np.bool_):
        raise ArgumentTypeError(f"{name} must be True or False; got {value!r} ({_kind(value)})")
    return bool(value)


def check_choice(name: str, value: Any, choices: Iterable[Any]) -> Any:
    """Return ``value`` if it is one of ``choices``, else raise naming them."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def check_optional_limit(name: str, value: Any) -> int:
    """A truncation limit: ``None`` (no limit) or an integer in ``1 … MAX_LIMIT``; 0 for no limit."""
    return 0 if value is None else check_int(name, value, 1, MAX_LIMIT)


def check_seed(seed: Any) -> int | None:
    """A seed is ``None`` (fresh entropy) or a non-negative integer."""
    return None if seed is None else check_int("seed", seed, 0)


def check_sequence(name: str, value: Any, length: int | None = None) -> list:
    """``value`` as a list if it is a list or tuple (of ``length`` items, if given)."""
    if not isinstance(value, list | tuple):
        raise ArgumentTypeError(f"{name} must be a list; got {value!r} ({_kind(value)})")
    if length is not None and len(value) != length:
        raise ValueError(f"{name} must have {length} entries; got {len(value)}")
    return list(value)


def check_keys(name: str, value: Any, required: Iterable[str], optional: Iterable[str] = ()) -> dict:
    """``value`` if it is a dict with all ``required`` keys and no others than ``optional``."""
    required, optional = tuple(required), tuple(optional)
    if not isinstance(value, dict):
        raise ArgumentTypeError(f"{name} must be a dict; got {value!r} ({_kind(value)})")
    missing = [k for k in required if k not in value]
    unknown = [k for k in value if k not in required + optional]
    if missing or unknown:
        problem = f"lacks {missing}" if missing else f"has unknown keys {unknown}"
        raise ValueError(f"{name} {problem}; its keys are {', '.join(map(repr, required + optional))}")
    return value


def check_deal_hands(deal: dict, num_players: int, unit: str) -> list[list]:
    """The ``hands`` of a deal: one non-empty list of ``unit``s (tiles, cards) per seat."""
    given = check_sequence("deal['hands']", deal["hands"])
    if len(given) != num_players:
        raise ValueError(f"deal has {len(given)} hands for {num_players} players")
    hands = []
    for seat, hand in enumerate(given):
        hand = check_sequence(f"deal['hands'][{seat}]", hand)
        if not hand:
            raise ValueError(f"hand {seat} is empty: every seat needs at least one {unit}")
        hands.append(hand)
    return hands


@dataclass(frozen=True)
class GameOption:
    """One option of a game's rules, declared once in its ``SPEC.options``; every layer derives its
    part from it: ``make_params``' checks, the CLI's ``--name-with-dashes`` flag, the OpenSpiel
    parameter of the same name, the browser's start page.

    ``kind`` is ``"int"`` (``low`` … ``high``; a ``default`` of ``None`` means the table size picks
    one: ``by_players[num_players]``), ``"limit"`` (``None`` for no limit, else ``1`` …
    ``MAX_LIMIT``), ``"choice"`` (one of ``choices``: strings, or integers; a ``default`` of
    ``None`` is resolved by the other options, ``GameSpec.check_table``) or ``"bool"``. A
    string choice with ``values = (low, high, copies)`` also takes a list of integers ``low`` …
    ``high``, each at most ``copies`` times (a multiset, kept sorted; on a command line or as an
    OpenSpiel parameter the string ``"1,5,6,6"``): its ``slot`` holds the choice's index
    (``len(choices)`` for a list), the slots from ``counts_slot`` the count of each value.
    ``label`` is its one line of help, ``rule`` the rule-book number it sets, ``web`` whether the
    start page offers it. ``slot`` is its place in the options row the kernels read (``-1``: none,
    an option of the environments' own), where ``encode`` writes it and ``decode`` reads it back
    (the records' field of the same name); ``after`` the constructor parameter it follows
    positionally (``Game(num_players, deck)``), else it is keyword-only.

    >>> undrawn = GameOption("undrawn", 0, "boneyard tiles left undrawn", "choice", choices=(0, 1, 2))
    >>> undrawn.check(2), undrawn.flag
    (2, '--undrawn')
    >>> undrawn.check(3)
    Traceback (most recent call last):
    ...
    ValueError: undrawn must be one of 0, 1, 2; got 3
    """

    name: str
    default: Any
    label: str
    kind: str
    choices: tuple = ()
    low: int = 1
    high: int = MAX_LIMIT
    rule: str = ""
    web: bool = True
    slot: int = -1
    by_players: Mapping[int, int] | None = None
    after: str = ""
    values: tuple[int, int, int] | None = None
    counts_slot: int = -1

    @property
    def flag(self) -> str:
        """The command-line flag: ``capture_extra_turn`` → ``--capture-extra-turn``."""
        return "--" + self.name.replace("_", "-")

    def check(self, value: Any) -> Any:
        """``value`` checked under the module's type rules (``ArgumentTypeError`` / ``ValueError``
        naming the option and what it allows); ``None`` is kept where the kind allows it."""
        if self.kind == "bool":
            return check_flag(self.name, value)
        if value is None and self.default is None:
            return None
        if self.kind == "choice":
            if self.values is not None and value not in self.choices:
                return self._check_multiset(value)
            if self.choices and isinstance(self.choices[0], int):
                value = as_integer(self.name, value)
                if value not in self.choices:
                    raise ValueError(f"{self.name} must be one of {', '.join(map(str, self.choices))}; got {value}")
                return value
            return check_choice(self.name, value, self.choices)
        if value is None and (self.kind == "limit" or self.default is None):
            return None
        return check_int(self.name, value, self.low, self.high)

    def _check_multiset(self, value: Any) -> list[int]:
        """A list of ``values`` (or its string, ``"1,5,6"`` or ``"1 5 6"``), sorted; ``ValueError``
        saying what is wrong."""
        low, high, copies = self.values
        allowed = f"one of {', '.join(map(repr, self.choices))} or a list of integers {low}–{high}"
        if isinstance(value, str):
            try:
                value = [int(part) for part in value.replace(",", " ").split()]
            except ValueError:
                raise ValueError(f"{self.name} must be {allowed}; got {value!r}") from None
        if not isinstance(value, list | tuple) or not value:
            raise ValueError(f"{self.name} must be {allowed}; got {value!r}")
        items = sorted(check_int(f"a value of {self.name}", item, low, high) for item in value)
        over = sorted({item for item in items if items.count(item) > copies})
        if over:
            raise ValueError(f"{self.name} holds {', '.join(map(str, over))} more than {copies} times")
        return items

    def write(self, params: np.ndarray, value: Any, num_players: int) -> None:
        """Write ``value`` (checked) into the options row ``params``: ``encode``'s entry at ``slot``;
        a list of ``values`` as the choice ``len(choices)`` there and its counts from ``counts_slot``."""
        value = self.check(value)
        if isinstance(value, list):
            low, high, _ = self.values
            params[self.slot] = len(self.choices)
            counts = [value.count(v) for v in range(low, high + 1)]
            params[self.counts_slot : self.counts_slot + len(counts)] = counts
            return
        params[self.slot] = self.encode(value, num_players)
        if self.values is not None:
            params[self.counts_slot : self.counts_slot + self.values[1] - self.values[0] + 1] = 0

    def read(self, params: np.ndarray) -> Any:
        """The option's value in the options row ``params`` (what ``write`` wrote)."""
        if self.values is None or int(params[self.slot]) < len(self.choices):
            return self.decode(params[self.slot])
        low, high, _ = self.values
        counts = params[self.counts_slot : self.counts_slot + high - low + 1]
        return [low + i for i, count in enumerate(counts) for _ in range(int(count))]

    def encode(self, value: Any, num_players: int) -> int:
        """The options row's entry for ``value`` (checked): a choice's index (an integer choice
        itself), a flag as 0 / 1, ``0`` for no limit, ``by_players`` for an ``int`` left ``None``."""
        value = self.check(value)
        if self.kind == "choice" and value is None:
            return -1  # the game's ``GameSpec.check_table`` resolves it by the other options
        if self.kind == "choice":
            return value if isinstance(value, int) else self.choices.index(value)
        if value is None:
            return self.by_players[num_players] if self.by_players else 0
        return int(value)

    def decode(self, stored: int) -> Any:
        """The option's value from its options-row entry (what ``encode`` wrote; a resolved default
        stays resolved)."""
        stored = int(stored)
        if self.kind == "bool":
            return bool(stored)
        if self.kind == "choice":
            return stored if isinstance(self.choices[0], int) else self.choices[stored]
        return None if stored == 0 and self.kind == "limit" else stored

    @property
    def row_range(self) -> tuple[int, int]:
        """``(low, high)`` of the options-row entry (``from_state`` checks a given row against it)."""
        if self.kind == "bool":
            return 0, 1
        if self.kind == "choice":
            return (
                (min(self.choices), max(self.choices))
                if isinstance(self.choices[0], int)
                else (0, len(self.choices) - (1 if self.values is None else 0))
            )
        return (0, MAX_LIMIT) if self.kind == "limit" else (self.low, self.high)

    def argument(self) -> tuple[tuple[str, ...], dict[str, Any]]:
        """``(flags, kwargs)`` for ``argparse``'s ``add_argument``: not given, it is absent from the
        parsed namespace (``argparse.SUPPRESS``) and the game keeps its default."""
        default = "by players" if self.default is None and self.kind == "int" else self.default
        said = f"{self.label} ({self.rule + '; ' if self.rule else ''}default {default})"
        if self.kind == "bool":
            return (self.flag,), {"action": argparse.BooleanOptionalAction, "default": argparse.SUPPRESS, "help": said}
        if self.kind == "choice" and self.values is not None:
            low, high, _ = self.values
            said = f"{said[:-1]}; or a list of values {low}–{high} such as {low},{high - 1},{high - 1},{high})"
            return (self.flag,), {"type": str, "default": argparse.SUPPRESS, "help": said, "metavar": "DECK"}
        if self.kind == "choice":
            kind = int if isinstance(self.choices[0], int) else str
            return (self.flag,), {"type": kind, "choices": self.choices, "default": argparse.SUPPRESS, "help": said}
        metavar = "N" if self.kind == "int" else "N|none"
        kind = _int_or_none if self.kind == "limit" else int
        return (self.flag,), {"type": kind, "default": argparse.SUPPRESS, "help": said, "metavar": metavar}

    @property
    def annotation(self) -> str:
        """The type a signature shows for it: ``"int | None"``, ``"str"``, ``"bool"`` …"""
        if self.kind == "choice":
            alternatives = " | list[int]" if self.values is not None else " | None" if self.default is None else ""
            return type(self.choices[0]).__name__ + alternatives
        if self.kind == "limit" or self.default is None:
            return "int | None"
        return {"bool": "bool", "int": "int"}[self.kind]

    @property
    def spiel_default(self) -> Any:
        """The OpenSpiel parameter's default: OpenSpiel has no ``None``, so ``0`` stands for it."""
        return 0 if self.default is None else self.default

    def spiel_value(self, value: Any) -> Any:
        """How an OpenSpiel game keeps the option's value among its parameters: as given, but a
        list of ``values`` as its string with spaces (``"1 5 6"``), since OpenSpiel writes a
        game's parameters separated by commas (``python_twelve(deck=1 5 6,players=2)``)."""
        if self.values is not None and value not in self.choices:
            return " ".join(map(str, self._check_multiset(value)))
        return value

    def from_spiel(self, value: Any) -> Any:
        """An OpenSpiel parameter's value as the game takes it (``0`` → ``None`` where ``None`` is
        allowed)."""
        return None if value == 0 and (self.kind == "limit" or self.default is None) else value


def _int_or_none(text: str) -> int | None:
    """A limit on the command line: a number, or ``none`` for no limit."""
    return None if text.lower() == "none" else int(text)


def check_options(options: tuple[GameOption, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of ``options`` by name: ``given``'s values checked, the others' defaults; a name
    that is not an option is an ``ArgumentTypeError`` listing the options."""
    known = {option.name: option for option in options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        names = ", ".join(known) or "none"
        raise ArgumentTypeError(f"unknown option(s) {', '.join(unknown)}; this game's options are: {names}")
    return {name: option.check(given[name]) if name in given else option.default for name, option in known.items()}


Constructor = TypeVar("Constructor", bound=Callable[..., Any])


def with_options(
    options: Iterable[GameOption], defaults: Mapping[str, Any] | None = None, place: bool = True
) -> Callable[[Constructor], Constructor]:
    """Give a callable that takes a game's options as ``**options`` a signature that lists each of
    them with the default and the type of its declaration (``SPEC.options``), so the options are
    declared once and ``help()``, ``inspect.signature`` and calls alike see them. An option whose
    ``after`` names a positional parameter of the callable stands right after it (for a positional
    order, ``Game(num_players, deck, seed, deal)``); the others are keyword-only, after every
    parameter (every one, without ``place``). ``defaults`` overrides declared defaults (a layer's
    own, such as ``forced="auto"``).
    The callable gets every option, by name, given or default; a name that is not a parameter is
    a ``TypeError`` that lists the parameters.

    >>> @with_options([GameOption("undrawn", 0, "tiles left undrawn", "choice", (0, 1, 2))])
    ... def make(num_players: int = 4, **options: Any) -> dict:
    ...     return {"num_players": num_players, **options}
    >>> inspect.signature(make)
    <Signature (num_players: 'int' = 4, *, undrawn: 'int' = 0) -> 'dict'>
    >>> make(2, undrawn=1)
    {'num_players': 2, 'undrawn': 1}
    >>> make(undrawm=1)
    Traceback (most recent call last):
    ...
    TypeError: make(): got an unexpected keyword argument 'undrawm'; it takes num_players, undrawn
    """
    declared = {option.name: option for option in options}
    default_of = {name: option.default for name, option in declared.items()}
    overrides = dict(defaults or {})

    def complete(function: Constructor) -> Constructor:
        own = inspect.signature(function)
        if not any(p.kind is p.VAR_KEYWORD for p in own.parameters.values()):
            raise TypeError(f"{function.__qualname__} takes no **options")
        given = {**default_of, **overrides}
        kept = [
            p.replace(default=overrides[p.name]) if p.name in overrides else p
            for p in own.parameters.values()
            if p.kind not in (p.VAR_KEYWORD, p.KEYWORD_ONLY)
        ]
        parameters, placed = [], set()
        for parameter in kept:
            parameters.append(parameter)
            for name, option in declared.items():
                if place and option.after == parameter.name and parameter.kind is parameter.POSITIONAL_OR_KEYWORD:
                    kind = parameter.POSITIONAL_OR_KEYWORD
                    parameters.append(inspect.Parameter(name, kind, default=given[name], annotation=option.annotation))
                    placed.add(name)
        parameters += [p for p in own.parameters.values() if p.kind is p.KEYWORD_ONLY]
        parameters += [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=given[name], annotation=option.annotation)
            for name, option in declared.items()
            if name not in placed
        ]
        signature = own.replace(parameters=parameters)
        names = set(signature.parameters)
        order = [name for name, p in signature.parameters.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
        first_placed = min((order.index(name) for name in placed), default=len(order))
        # each filled default and how many positional arguments reach it (a keyword-only one: never)
        fills = [
            (name, default, order.index(name) if name in order else len(order))
            for name, default in given.items()
            if name in declared or name in order
        ]

        @functools.wraps(function)
        def with_every_option(*args: Any, **kwargs: Any) -> Any:
            if len(args) > len(order) or not names.issuperset(kwargs):
                try:
                    signature.bind(*args, **kwargs)
                except TypeError as error:
                    takes = ", ".join(n for n in signature.parameters if not n.startswith("_") and n != "self")
                    raise TypeError(f"{function.__qualname__}(): {error}; it takes {takes}") from None
            for name, default, place in fills:  # not signature.bind: a constructor is called often
                if place >= len(args) and name not in kwargs:
                    kwargs[name] = default
            if len(args) > first_placed:  # positional arguments from a placed option on go by name
                for name, value in zip(order[first_placed:], args[first_placed:], strict=False):
                    if name in kwargs:
                        raise TypeError(f"{function.__qualname__}() got multiple values for argument {name!r}")
                    kwargs[name] = value
                args = args[:first_placed]
            return function(*args, **kwargs)

        with_every_option.__signature__ = signature  # type: ignore[attr-defined]
        return with_every_option  # type: ignore[return-value]

    return complete


def derive_init_signature(cls: type, options: Iterable[GameOption], defaults: Mapping[str, Any] | None = None) -> None:
    """``with_options(options, defaults)`` on the constructor ``cls`` has (its own or inherited)
    when it takes ``**options``: what ``__init_subclass__`` of the shared bases does for a game's
    class, so a game never restates its options."""
    init = inspect.unwrap(cls.__init__)
    if any(p.kind is p.VAR_KEYWORD for p in inspect.signature(init).parameters.values()):
        cls.__init__ = with_options(options, defaults)(init)  # type: ignore[misc]
