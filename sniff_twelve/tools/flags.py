"""The flags several commands share, declared once: the game's options (``SPEC.options``), where the
games run (``--workers``, ``--address``), the records read, and what is written (``--json``,
``--plot``, ``--no-progress``)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sniff_twelve.tools.cluster import ADDRESS_HELP

if TYPE_CHECKING:
    from sniff_twelve.core.options import GameOption

#: why the commands that read records (``replay``, ``beliefs``) take no game option
RECORDS_HOLD_OPTIONS = "A record holds the options its game was played with, so this command takes none of them."


def add_game_options(command: argparse.ArgumentParser, options: Sequence[GameOption]) -> None:
    """A ``--name-with-dashes`` flag for each of the game's ``options`` (``GameOption.argument``)."""
    for option in options:
        flags, kwargs = option.argument()
        command.add_argument(*flags, **kwargs)


def add_workers(command: argparse.ArgumentParser) -> None:
    """``--workers`` (local processes) and ``--address`` (a Ray cluster instead)."""
    command.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)")
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
