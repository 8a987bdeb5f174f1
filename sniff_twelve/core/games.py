"""What both games share; a game is named by its short name in options and checkpoints."""

import importlib
from types import ModuleType

GAMES = {"sniff": "sniff_env", "twelve": "twelve_env"}


def game_package(name: str) -> ModuleType:
    """The package of game ``name`` (``"sniff"`` or ``"twelve"``); ``ValueError`` for others."""
    if name not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}; got {name!r}")
    return importlib.import_module(GAMES[name])
