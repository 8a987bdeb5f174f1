"""What a game registers with the shared layers: its environment kernels and its play-screen texts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EnvKernels:
    """The compiled pieces an environment layer needs from a game (AEC env and ``VectorGame``)."""

    obs_size: int
    state_size: int
    num_actions: int
    legal_mask_into: Callable[..., None]  # (state, params, out)
    write_observation: Callable[..., None]  # (state, params, seat, out)
    write_state: Callable[..., None]  # (state, params, out)
    snapshot_size: int
    snapshot: Callable[..., None]  # (state, out): what write_rewards compares against
    # (state, params, before, reward_mode, out) -> LIVE / TERMINATED / TRUNCATED
    write_rewards: Callable[..., int]


@dataclass(frozen=True)
class GameUI:
    """The game-specific parts of the play screen; ``human`` is the human's seat throughout.

    table(game, human): the layout / public state as text (no hidden information).
    scores(game, human): the running score as text.
    hand(game, human): the human's hand, one name per item (shown numbered).
    move(game, action, human): a legal move in words, e.g. ``[3|5] on the east end (scores 15)``.
    event(before, after, seat, action, human): what a move did, e.g. ``played 7 on the Q: captured 4``
        (the loop prefixes the seat's name); it may reveal what the human drew, never other hands.
    result(game, human): the end of the game: winner, final scores (and whatever else matters).
    rules: a short reminder shown with the help.
    """

    title: str
    table: Callable[[Any, int], str]
    scores: Callable[[Any, int], str]
    hand: Callable[[Any, int], list[str]]
    move: Callable[[Any, int, int], str]
    event: Callable[[Any, Any, int, int, int], str]
    result: Callable[[Any, int], str]
    rules: str = ""
