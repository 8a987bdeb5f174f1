"""What the web server needs of a game: a ``WebGame`` record (``sniff_env.web.WEB``,
``twelve_env.web.WEB``), how it reads the start page's options, and a ``Move`` — one click pair.

While a game runs, the server draws the table and lists the moves from ``public_game(game, seat)``:
the human seat's view (``sniff_twelve.core.view``) as a game object. Hidden tiles and cards are dealt there in
a fixed canonical order, so nothing built from it can depend on them — the information boundary
holds over the wire by construction, not by care in the drawing code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.agent import partner_seat

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.options import GameOption
    from sniff_twelve.core.spec import GameUI


def parse_option(option: GameOption, value: Any) -> Any:
    """A start page's value of ``option`` as the game takes it (``None``/``""`` → the default; a
    number may come as text); ``ValueError`` in the page's words if it is of the wrong kind or
    not a listed choice, then the option's own checks (its bounds)."""
    if value is None or value == "":
        return option.default
    if option.kind == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{option.name} must be true or false; got {value!r}")
    elif option.kind == "choice":
        matches = [choice for choice in option.choices if str(choice) == str(value)]
        if not matches:
            raise ValueError(f"{option.name} must be one of {', '.join(map(str, option.choices))}; got {value!r}")
        value = matches[0]
    elif isinstance(value, bool) or not isinstance(value, int | str) or not str(value).lstrip("-").isdigit():
        raise ValueError(f"{option.name} must be a whole number; got {value!r}")
    else:
        value = int(value)
    return option.check(value)


@dataclass(frozen=True)
class Move:
    """A legal move as the page offers it: hand ``item`` then table ``spot`` (both indices the
    SVG marks with ``data-item`` / ``data-spot``), or a button (``item`` ``None``) with a ``key``."""

    action: int
    label: str
    item: int | None = None
    spot: int | None = None
    key: str | None = None


@dataclass(frozen=True)
class WebGame:
    """One game as the web server sees it.

    draw(game, seat, names, reveal, last=None): the table as SVG from ``seat``'s place; while the
        game runs it gets ``public_game(game, seat)`` and draws the other hands face down (the
        seat's own hand is ``hand``'s), ``reveal`` (a finished game, a replay) draws every hand and
        the boneyard or stock face up; ``last`` (seat → its last action, public) marks each
        seat's last move.
    hand(game, seat): the seat's own hand while the game runs, a small SVG per tile or card (its
        ``data-item``), from its public game; the page lays them out to fit the screen.
    moves(game, seat): the legal moves of ``seat`` (to act), from its public game.
    step(game): which hand a position belongs to (the replay's "jump to hand"), from 1.
    hand_end(game, action): a game of several hands: when ``action`` ends a hand, the game as that
        hand ended (``draw`` shows it face up until the player continues), else ``None``.
    draw_portrait(game, seat, names, reveal, last=None): ``draw`` for a phone held upright (the
        page shows it on a narrow screen); ``None``: the page scales ``draw``'s table down.
    ui: the terminal play screen's texts (``sniff_twelve.core.spec.GameUI``): the "since your last
        turn" events (computed on public games), the result, the rules in short.
    The name, the table sizes and the partnerships come from the game's ``GameSpec`` (``game_cls.spec``).
    """

    game_cls: type[BaseGame]
    make_agent: Callable[[str], Agent]
    agents: tuple[str, ...]
    draw: Callable[..., str]
    hand: Callable[[BaseGame, int], list[str]]
    moves: Callable[[BaseGame, int], list[Move]]
    step: Callable[[BaseGame], int]
    ui: GameUI
    hand_end: Callable[[BaseGame, int], BaseGame | None] = lambda game, action: None
    draw_portrait: Callable[..., str] | None = None

    @classmethod
    def of(cls, game_cls: type[BaseGame], ui: GameUI, **fields: Any) -> WebGame:
        """The web table of ``game_cls`` with its agents (``game_agents``: the ones it names, built
        by its ``make_agent``) and those installed packages register in the entry-point group named
        as its ``agents`` part, if it has one (``installed_agents``); ``fields``: the drawing, the
        moves and the rest."""
        from sniff_twelve.agents.builtin import game_agents
        from sniff_twelve.agents.external import installed_agents

        agents = game_agents(game_cls.spec)
        group = game_cls.spec.parts.get("agents")
        names = (*agents.AGENTS, *(installed_agents(group) if group else ()))
        return cls(game_cls, agents.make_agent, names, ui=ui, **fields)

    @classmethod
    def plain(
        cls, game_cls: type[BaseGame], draw: Callable[..., str], hand: Callable[..., list[str]], rules: str = ""
    ) -> WebGame:
        """The web table of a game that gives its drawing (``draw``, ``hand``) and nothing else:
        one deal, the start page's options from its spec, its agents (``of``), every legal move a
        button named by ``action_name`` (``button_moves``), the plain texts (``GameUI.plain``)."""
        from sniff_twelve.core.spec import GameUI

        ui = GameUI.plain(game_cls.spec.title, rules)
        return cls.of(game_cls, ui, draw=draw, hand=hand, moves=button_moves, step=lambda game: 1)

    def tables(self, game: BaseGame, seat: int, names: Any, reveal: bool, last: Any = None) -> dict[str, Any]:
        """The table as the page gets it: ``svg`` (``draw``'s) and ``svg_portrait``
        (``draw_portrait``'s, or ``None``)."""
        portrait = self.draw_portrait and self.draw_portrait(game, seat, names, reveal, last)
        return {"svg": self.draw(game, seat, names, reveal, last), "svg_portrait": portrait}

    @property
    def name(self) -> str:
        return self.game_cls.spec.name

    @property
    def options(self) -> tuple[GameOption, ...]:
        """The game options the start page offers (``SPEC.options`` marked ``web``)."""
        return tuple(option for option in self.game_cls.spec.options if option.web)

    @property
    def players(self) -> tuple[int, ...]:
        return self.game_cls.spec.players

    def partner(self, players: int, seat: int) -> int | None:
        """The seat's partner, if it sits in a side of two (``sniff_twelve.core.agent.partner_seat``)."""
        return partner_seat(self.game_cls.spec, players, seat)


def public_game(game: BaseGame, seat: int) -> BaseGame:
    """``seat``'s view of ``game`` as a game object: what the seat sees is as it is, every hidden
    tile or card dealt canonically (``Game.seat_view``)."""
    view = game.seat_view(seat, past=False)
    return type(game)._from_row(view.array, view.params)


def button_moves(game: BaseGame, seat: int) -> list[Move]:
    """Every legal move of ``seat`` (to act) as a button named by ``Game.action_name``, the
    first nine with the keys 1 … 9."""
    legal = game.legal_actions()
    return [Move(a, game.action_name(a), key=str(i + 1) if i < 9 else None) for i, a in enumerate(legal)]
