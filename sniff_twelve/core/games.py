"""The registry of games: each game is its ``GameSpec``, reached by its short name.

An installed game registers its spec under the entry-point group ``sniff_twelve.games``
(``sniff = "sniff_env.spec:SPEC"`` in ``pyproject.toml``); a game that is not installed (the
test suite's third game) calls ``register_game(SPEC)``. The shared layers take the spec and reach
the game's other parts through it (``GameSpec.part``), never by formatting a package name.

>>> game_spec("sniff").title, game_spec("twelve").package
('American Sniff', 'twelve_env')
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec

GROUP = "sniff_twelve.games"
#: the short names of the installed games, in the order they were declared
GAMES: tuple[str, ...] = tuple(point.name for point in entry_points(group=GROUP))
_REGISTERED: dict[str, GameSpec] = {}


def register_game(spec: GameSpec) -> GameSpec:
    """Make ``spec``'s game reachable by its short name in this process (an installed game's
    entry point does the same for every process); returns ``spec``."""
    known = _REGISTERED.get(spec.name)
    if known is not None and known is not spec:
        raise ValueError(f"a game named {spec.name!r} is registered already ({type(known).__name__})")
    _REGISTERED[spec.name] = spec
    return spec


def game_names() -> tuple[str, ...]:
    """Every game reachable by name: the installed ones, then those registered in this process."""
    return GAMES + tuple(name for name in _REGISTERED if name not in GAMES)


def game_spec(name: str) -> GameSpec:
    """The spec of game ``name``; ``ValueError`` naming the games there are."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    points = entry_points(group=GROUP, name=name)
    if not points:
        raise ValueError(f"game must be one of {', '.join(game_names())}; got {name!r}")
    return register_game(next(iter(points)).load())


def game_package(name: str) -> ModuleType:
    """The package of game ``name`` (its ``Game``, environments and agents)."""
    return importlib.import_module(game_spec(name).package)
