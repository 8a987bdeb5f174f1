"""The agent interface: what the arena, ``play``, the environments and the web server call.

An agent picks the action of the seat to act. Callers use ``act(game)``; it hands the agent only
that seat's view (``Game.seat_view()``, ``sniff_twelve.core.view``) and an agent chooses from it in
``choose(view)`` — what the seat cannot see never reaches it. Write your own agent the same way:
subclass ``Agent`` and implement ``choose``; ``py:package.module:Name`` then names it wherever an
agent spec goes (``sniff_twelve.agents.external``).

An agent that says how likely each move is — ``probabilities(view)`` — can also be the model of
the other seats that beliefs are built on (``sniff_twelve.beliefs``). Every built-in agent does:
a policy its softmax, ``random`` the uniform, and an agent that always plays one move (the rules
of thumb, the searches) its move with probability ``1 - SOFTENING`` and ``SOFTENING`` spread over
every legal move, so no move the model did not expect rules a deal out.
"""

from __future__ import annotations

import operator
import random
from typing import TYPE_CHECKING, Any, ClassVar

from sniff_twelve.core.options import ArgumentTypeError, check_seed

if TYPE_CHECKING:
    import numpy as np

    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.spec import GameSpec
    from sniff_twelve.core.view import SeatView


#: the probability a deterministic agent's ``probabilities`` spreads over every legal move
SOFTENING = 0.05


def softened(mask: np.ndarray, action: int, epsilon: float = SOFTENING) -> np.ndarray:
    """``action`` with probability ``1 - epsilon``, plus ``epsilon`` spread evenly over the legal
    moves of ``mask`` (a bool array over the action ids)."""
    p = mask * (epsilon / max(int(mask.sum()), 1))
    p[action] += 1.0 - epsilon
    return p


class Agent:
    """Base class: ``choose(view) -> action``; ``reset(seed)`` before each game for reproducibility.

    ``deterministic = True`` declares that ``choose`` plays one move for a view (given the
    agent's seed), so ``probabilities`` is that move, softened (module docstring); otherwise an
    agent used as a model of the other seats defines ``probabilities`` itself.
    """

    name = "agent"
    #: what may follow ``name`` in an agent spec (``"[:N]"`` for ``rollout[:N]``; ``""``: nothing)
    spec_form: ClassVar[str] = ""
    deterministic: ClassVar[bool] = False
    #: whether ``choose`` reads the seat's memory of the deal (``SeatView.past``); most agents do
    #: not, and their views are taken without it, which is cheaper
    reads_past: ClassVar[bool] = False

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(check_seed(seed))

    def act(self, game: BaseGame) -> int:
        """The action for the seat to act in ``game``, chosen from that seat's view alone."""
        return self.choose(game.seat_view(past=self.reads_past))

    def choose(self, view: SeatView) -> int:
        """The action for the seat whose ``view`` this is (it is to act)."""
        raise NotImplementedError

    def probabilities(self, view: SeatView) -> np.ndarray:
        """How likely this agent is to play each action in ``view`` (a float array over the
        action ids, zero on illegal ones, summing to 1): the model beliefs weigh deals with."""
        if not self.deterministic:
            raise NotImplementedError(
                f"agent {self.name!r} ({type(self).__name__}) defines no probabilities(view), so it cannot be "
                "the model of the other seats: define probabilities(view) -> an array over the actions, or set "
                "deterministic = True if choose plays one move for a view"
            )
        return softened(view.legal_mask(), self.choose(view))

    def check_table(self, num_players: int) -> None:
        """``ValueError`` if this agent cannot play at a table of ``num_players`` (checked before
        a match starts, so a bad line-up fails at once)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def partner_seat(spec: GameSpec, num_players: int, seat: int) -> int | None:
    """``seat``'s partner at a table of ``num_players``: the other seat of its side when the game
    seats sides of two there (``spec.sides``, e.g. Sniff's 0+2 / 1+3), else ``None``."""
    sides = spec.sides(operator.index(num_players))  # a NumPy integer too, as every entry point takes
    side = next((side for side in sides or () if seat in side), ())
    return next((other for other in side if other != seat), None) if len(side) == 2 else None


def seat_specs(
    spec: GameSpec,
    num_players: int,
    own_seat: int,
    opponents: Any,
    partner: Any = None,
    spec_types: tuple[type, ...] = (str,),
) -> dict[int, Any]:
    """The agent spec of every seat but ``own_seat`` in ``spec``'s game: ``partner`` (if given) for
    ``own_seat``'s partner (``partner_seat``), ``opponents`` — one spec for all (one of
    ``spec_types``), or one per remaining seat in seat order — for the rest. ``ValueError`` when the
    counts do not fit or a partner is given at a table without partners."""
    if not 0 <= own_seat < num_players:
        raise ValueError(f"seat must be between 0 and {num_players - 1} with {num_players} players")
    partner_at = None if partner is None else partner_seat(spec, num_players, own_seat)
    if partner is not None and partner_at is None:
        raise ValueError(f"a {num_players}-player table has no partner seat; got partner={partner!r}")
    others = [s for s in range(num_players) if s not in (own_seat, partner_at)]
    if not isinstance(opponents, (*spec_types, list, tuple)):
        raise ArgumentTypeError(f"opponents is an agent spec or a list of them; got {opponents!r}")
    specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents]
    if len(specs) not in (1, len(others)):
        raise ValueError(
            f"opponents takes one agent for all or one per opponent seat ({len(others)}: seats "
            f"{', '.join(map(str, others))}); got {len(specs)}"
        )
    seats = dict(zip(others, specs * len(others) if len(specs) == 1 else specs, strict=True))
    if partner_at is not None:
        seats[partner_at] = partner
    return dict(sorted(seats.items()))
