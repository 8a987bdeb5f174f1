"""The flags several commands share, declared once: the game's options (``SPEC.options``), where the
games run (``--workers``, ``--address``), the records read, and what is written (``--json``,
``--plot``, ``--no-progress``); the numbers a flag takes (``whole``, ``fraction``); and the parser
every command line is read with (``CommandParser``: a usage error is one ``error: …`` line)."""

from __future__ import annotations

import argparse
import difflib
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from sniff_twelve.tools.cluster import ADDRESS_HELP
from sniff_twelve.tools.exits import fail

if TYPE_CHECKING:
    from sniff_twelve.core.options import GameOption
    from sniff_twelve.core.spec import GameSpec

#: why the commands that read records (``replay``, ``beliefs``) take no game option
RECORDS_HOLD_OPTIONS = "A record holds the options its game was played with, so this command takes none of them."


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help ends with its default (unless it already names it, or there is none)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        hidden = default is None or default is False or default == argparse.SUPPRESS
        if not action.option_strings or hidden or "default" in text:
            return action.help
        shown = " ".join(map(str, default)) if isinstance(default, list | tuple) else "%(default)s"
        return f"{text} (default: {shown})" if text else f"default: {shown}"


class RawDescriptionHelpFormatter(argparse.RawDescriptionHelpFormatter, HelpFormatter):
    """``HelpFormatter`` that keeps the description's own line breaks."""


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one ``error: …`` line, exit 2
    (``sniff_twelve.tools.exits``), whose help shows every default, and whose options are never
    abbreviated: an option it does not know is refused by the (sub)command it was given to, naming
    the closest one it knows."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, allow_abbrev=False, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        known = list(self._option_string_actions)
        for token in self._own_tokens(args):
            flag = token.partition("=")[0]
            if flag.startswith("--") and flag != "--" and flag not in known:
                close = difflib.get_close_matches(flag, known, n=1, cutoff=0.6)
                hint = f" (did you mean {close[0]}?)" if close else ""
                self.error(f"{self.prog} has no option {flag}{hint}; see {self.prog} --help")
        return super().parse_known_args(args, namespace)

    def _own_tokens(self, args: list[str]) -> list[str]:
        """The tokens before a command's name (or ``--``): the ones this parser reads itself."""
        commands = {name for a in self._actions if isinstance(a, argparse._SubParsersAction) for name in a.choices}
        for i, token in enumerate(args):
            if token in commands or token == "--":
                return args[:i]
        return args

    def error(self, message: str) -> NoReturn:
        """``error: --flag must …`` (argparse writes ``argument --flag: must …``), one line, exit 2."""
        if message.startswith("argument "):
            flag, _, rest = message.removeprefix("argument ").partition(": ")
            message = f"{flag} {rest}" if rest.startswith("must ") else f"{flag}: {rest}"
        if chosen := re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message):
            choices = re.findall(r"'([^']*)'", chosen[2])
            if close := difflib.get_close_matches(chosen[1], choices, n=1):
                message = f"{message[: chosen.start()]}invalid choice: {chosen[1]!r} (did you mean {close[0]!r}?)"
        fail(message)


def whole(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` (to ``high``), else a usage error naming the range."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number; got {text!r}") from None
        if value < low or (high is not None and value > high):
            bound = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"must be {bound}; got {value}")
        return value

    return parse


def fraction(text: str) -> float:
    """An argparse ``type``: a number from 0 to 1, else a usage error."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"must be a number from 0 to 1; got {text!r}")
    return value


#: reST's inline markup: ````code````, ``**strong**``, ``*emphasis*``
MARKUP = re.compile(r"``(.+?)``|\*\*(.+?)\*\*|(?<![\w*])\*(\S(?:.*?\S)?)\*(?![\w*])")


def plain(text: str) -> str:
    """``text`` (a docstring) without its reST markup, for ``--help``: ````code````, ``**strong**``
    and ``*emphasis*`` become their words."""
    return MARKUP.sub(lambda match: next(filter(None, match.groups())), text)


#: a seed: any whole number from 0
SEED = whole(0)
#: a count of deals, worlds, workers…: a whole number from 1
COUNT = whole(1)


def add_game_options(command: argparse.ArgumentParser, options: Sequence[GameOption]) -> None:
    """A ``--name-with-dashes`` flag for each of the game's ``options`` (``GameOption.argument``)."""
    for option in options:
        flags, kwargs = option.argument()
        command.add_argument(*flags, **kwargs)


def add_two_sided_players(command: argparse.ArgumentParser, spec: GameSpec, default_players: int) -> None:
    """``--players``, among the table sizes of ``spec``'s game that seat two sides (``compare``,
    ``exploit``): the game's default where it is one of them, else the smallest."""
    two_sided = [n for n in spec.players if spec.sides(n) is not None]
    default = default_players if default_players in two_sided else two_sided[0]
    command.add_argument("--players", type=int, choices=two_sided, default=default)


def add_workers(command: argparse.ArgumentParser) -> None:
    """``--workers`` (local processes) and ``--address`` (a Ray cluster instead)."""
    command.add_argument("--workers", type=COUNT, default=os.cpu_count() or 1, help="processes (default: all cores)")
    command.add_argument("--address", help=ADDRESS_HELP)


def add_records(command: argparse.ArgumentParser, needed: bool = True) -> None:
    """The record files a command reads (``sniff_twelve.tools.analyze.read_records``); with
    ``needed=False`` the command may be given none."""
    command.add_argument(
        "records",
        nargs="+" if needed else "*",
        type=Path,
        help="record files (JSON, arena --records JSONL) or serve --records folders",
    )


def add_outputs(command: argparse.ArgumentParser, json_help: str, plot_help: str) -> None:
    """``--json`` and ``--plot`` (``sniff_twelve.tools.report.publish``) and ``--no-progress``."""
    command.add_argument("--json", type=Path, help=json_help)
    command.add_argument("--plot", type=Path, help=plot_help)
    command.add_argument("--no-progress", action="store_true", help="no progress bar")


def add_estimator(command: argparse.ArgumentParser) -> None:
    """``--estimator aivat``: also the variance-reduced margin (``sniff_twelve.tools.evaluation``)."""
    command.add_argument(
        "--estimator",
        choices=["aivat"],
        help="also report the AIVAT margin (margin_aivat): unbiased, less variance, the solver's time per game",
    )
