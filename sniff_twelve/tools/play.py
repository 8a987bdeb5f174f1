"""Human play in the terminal, shared by ``python -m sniff_env play`` and ``python -m twelve_env play``.

The loop is game-independent: agents act for every seat but the human's; whenever the human must
act, a screen shows the table, the running score, what happened since their last turn, their hand
and the numbered legal moves in words, and a number is read from standard input (``q`` quits,
``h`` / ``?`` shows help). A ``GameUI`` record holds the few game-specific functions (the wording
of a move, what the table looks like, how the end is reported).

Input is read with ``input()``, so the command works with piped input; output uses ``rich`` in a
terminal and plain text otherwise (or with ``--ascii``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from sniff_twelve.core.agent import Agent, partner_seat, seat_specs
from sniff_twelve.tools.exits import fail

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.core.spec import GameSpec, GameUI

AgentFactory = Callable[[str], Agent]


HELP = """Type the number of one of the legal moves listed under "Your moves" and press Enter.
  h or ?   this help
  q        quit the game
Every other seat is played by an agent; what they did since your last turn is listed under "Since your last turn"."""


class Screen:
    """Where the play screens go: ``rich`` panels, or plain text when ``plain`` (or not a terminal)."""

    def __init__(self, plain: bool = False, file: TextIO | None = None, force_terminal: bool | None = None) -> None:
        self.file = file
        out = sys.stdout if file is None else file
        is_tty = force_terminal if force_terminal is not None else out.isatty()
        self.plain = plain or not is_tty
        self.console = None
        if not self.plain:
            from rich.console import Console

            self.console = Console(file=file, highlight=False, force_terminal=force_terminal)

    def _print(self, text: str = "") -> None:
        print(text, file=self.file or sys.stdout, flush=True)

    def show(self, title: str, sections: Sequence[tuple[str, str]]) -> None:
        """One screen: a title and ``(heading, body)`` sections; empty bodies are left out."""
        sections = [(heading, body) for heading, body in sections if body]
        if self.plain:
            self._print(f"\n===== {title} =====")
            for heading, body in sections:
                self._print(f"-- {heading} --")
                self._print(body)
            return
        from rich.panel import Panel
        from rich.rule import Rule
        from rich.text import Text

        self.console.print(Rule(Text(title, style="bold")))
        for heading, body in sections:
            style = "green" if heading.startswith("Your moves") else "cyan"
            self.console.print(Panel(Text(body), title=heading, title_align="left", border_style=style, expand=False))

    def info(self, text: str) -> None:
        if self.plain:
            self._print(text)
        else:
            from rich.text import Text

            self.console.print(Text(text, style="bold"))

    def error(self, text: str) -> None:
        if self.plain:
            self._print(f"! {text}")
        else:
            from rich.text import Text

            self.console.print(Text(f"! {text}", style="bold red"))

    def prompt(self, text: str) -> str:
        """One line from standard input (``EOFError`` at its end)."""
        if self.plain:
            line = input(text)
        else:
            self.console.print(text, end="", markup=False, style="bold green")
            line = input()
        if not sys.stdin.isatty():  # piped input: echo it, so the transcript reads as typed
            self._print(line)
        return line


def numbered(items: Sequence[str]) -> str:
    """``1) a`` / ``2) b`` / …, one a line."""
    width = len(str(len(items)))
    return "\n".join(f"{i:>{width}}) {item}" for i, item in enumerate(items, 1))


def parse_choice(text: str, count: int) -> tuple[str, int | None]:
    """Read one entry: ``("move", index)``, ``("quit", None)``, ``("help", None)`` or ``("error", message)``."""
    entry = text.strip().lower()
    if entry in ("q", "quit", "exit"):
        return "quit", None
    if entry in ("h", "?", "help"):
        return "help", None
    choices = f"1-{count}" if count > 1 else "1"
    if not entry:
        return "error", f"Nothing entered: type the number of a move ({choices}), h for help or q to quit."
    if not entry.isdigit():
        return "error", f"{text.strip()!r} is not a move number: type {choices}, h for help or q to quit."
    if not 1 <= int(entry) <= count:
        return "error", f"There is no move {int(entry)}: choose {choices}."
    return "move", int(entry) - 1


class GameAbandonedError(Exception):
    """The human quit (``q``) or standard input ended."""


def play(
    game: BaseGame,
    ui: GameUI,
    human: int,
    agents: dict[int, Agent],
    names: dict[int, str],
    screen: Screen,
) -> bool:
    """Play ``game`` to its end; ``agents[seat]`` acts for every seat but ``human``.

    Returns ``True`` when the game was played to its end, ``False`` when the human quit or the
    input ended (a message says which; the final position is not reported as a result).
    """
    log: list[str] = []
    while not game.is_terminal():
        seat = game.current_player
        if seat == human:
            try:
                action = ask(game, ui, human, log, screen)
            except GameAbandonedError as stop:
                screen.info(str(stop))
                screen.info(f"Score when you left:\n{ui.scores(game, human)}")
                return False
            log = []
        else:
            action = agents[seat].act(game)
        before = game.clone()
        game.apply(action)
        log.append(f"{names[seat]}: {ui.event(before, game, seat, action, human)}")
    screen.show(
        f"{ui.title}: game over",
        [
            ("Since your last turn", "\n".join(log)),
            ("Table", ui.table(game, human)),
            ("Result", ui.result(game, human)),
        ],
    )
    return True


def ask(game: BaseGame, ui: GameUI, human: int, log: Sequence[str], screen: Screen) -> int:
    """Show the screen and read moves until a legal one is chosen; raises ``GameAbandonedError``."""
    legal = game.legal_actions()
    hand = ui.hand(game, human)
    screen.show(
        f"{ui.title}: your turn (seat {human})",
        [
            ("Since your last turn", "\n".join(log)),
            ("Table", ui.table(game, human)),
            ("Score", ui.scores(game, human)),
            (f"Your hand ({len(hand)})", "  ".join(f"#{i} {item}" for i, item in enumerate(hand, 1))),
            ("Your moves", numbered([ui.move(game, a, human) for a in legal])),
        ],
    )
    choices = f"1-{len(legal)}" if len(legal) > 1 else "1"
    while True:
        try:
            text = screen.prompt(f"Your move [{choices}, h help, q quit]: ")
        except EOFError:
            raise GameAbandonedError("\nInput ended: game abandoned.") from None
        except KeyboardInterrupt:
            raise GameAbandonedError("\nInterrupted: game abandoned.") from None
        kind, value = parse_choice(text, len(legal))
        if kind == "move":
            return legal[value]
        if kind == "quit":
            raise GameAbandonedError("You quit the game.")
        if kind == "help":
            screen.show("Help", [("Commands", HELP), ("Rules in short", ui.rules)])
            screen.show("Your moves", [("Your moves", numbered([ui.move(game, a, human) for a in legal]))])
        else:
            screen.error(value)


# --- the command line ---------------------------------------------------------------------------


def add_play_options(parser: argparse.ArgumentParser, default_agent: str = "heuristic") -> None:
    """The options of the ``play`` command shared by both games (``--players``/``--seed`` come
    with every command)."""
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=[default_agent],
        metavar="AGENT",
        help="agent spec for every opponent, or one per opponent seat in seat order (the agents command lists them)",
    )
    parser.add_argument("--ascii", action="store_true", help="plain text without colours or boxes")


def seat_agents(
    spec: GameSpec,
    num_players: int,
    human: int,
    opponents: Sequence[str],
    make_agent: AgentFactory,
    seed: int,
    partner: str | None = None,
) -> tuple[dict[int, Agent], dict[int, str]]:
    """The agent of every seat but ``human`` (``partner`` at the human's partner's, ``partner_seat``)
    and the name of every seat (``you``, ``partner``, ``seat 1 (greedy)``); a bad option is a usage
    error (``sniff_twelve.tools.exits``)."""
    partner_at = None if partner is None else partner_seat(spec, num_players, human)
    try:
        specs = seat_specs(spec, num_players, human, opponents, partner)
    except ValueError as err:
        fail(f"--{err}")
    agents, names = {}, {human: "you"}
    for seat, agent_spec in sorted(specs.items()):
        try:
            agents[seat] = make_agent(agent_spec)
            agents[seat].check_table(num_players)
        except ValueError as err:
            fail(err)
        agents[seat].reset(seed * 1000 + seat)
        names[seat] = f"partner (seat {seat}, {agent_spec})" if seat == partner_at else f"seat {seat} ({agent_spec})"
    return agents, names


def run_play(
    args: argparse.Namespace,
    game: BaseGame,
    ui: GameUI,
    make_agent: AgentFactory,
    partner: str | None = None,
    file: TextIO | None = None,
) -> int:
    """The ``play`` command: seat the agents (``partner`` at the human's partner's seat), play,
    report; returns the exit code (0)."""
    agents, names = seat_agents(game.spec, game.num_players, args.seat, args.opponents, make_agent, args.seed, partner)
    screen = Screen(plain=args.ascii, file=file)
    seats = ", ".join(f"{names[s]}" if s != args.seat else f"you (seat {s})" for s in range(game.num_players))
    screen.info(f"{ui.title}: {seats}. Type h for help, q to quit.")
    play(game, ui, args.seat, agents, names, screen)
    return 0
