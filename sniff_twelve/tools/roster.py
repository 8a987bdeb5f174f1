"""The ``agents`` command: every agent spec a game accepts, one a line — its form first, then, where
the ladder measured it, its time per decision and its place on the ladder.

The figures are the newest ladder's (docs/ladder.md), kept in one file in the game's package,
``ladder.json``: by number of players, each entry's score against the whole field with its 95%
interval and its mean time per decision (ms, one core).
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from sniff_twelve.agents.builtin import GUIDED_SEARCHES, game_agents
from sniff_twelve.agents.external import PREFIX, installed_agents
from sniff_twelve.agents.spec import GUIDE, GUIDE_POLICY

if TYPE_CHECKING:
    from sniff_twelve.core.spec import GameSpec

#: the data file of a game's package that holds its newest ladder
LADDER_FILE = "ladder.json"


def ladder(spec: GameSpec) -> dict[str, Any]:
    """The newest ladder of ``spec``'s game (``LADDER_FILE``; no tables if the game ships none)."""
    path = resources.files(spec.package).joinpath(LADDER_FILE)
    return json.loads(path.read_text()) if path.is_file() else {"tables": {}}


def standing(tables: dict[str, dict[str, dict]], name: str) -> str:
    """``name``'s time per decision and place at every table of the ladder it is on (``""``: none)."""
    parts = []
    for players, entries in tables.items():
        if name in entries:
            row = entries[name]
            place = 1 + sum(other["score"] > row["score"] for other in entries.values())
            parts.append(
                f"{players}p: {row['ms']:g} ms, ladder #{place}/{len(entries)} {row['score']:.3f} ± {row['ci95']:.3f}"
            )
    return " · ".join(parts)


def about(cls: type) -> str:
    """What an agent that plays a file needs: the tables its game ships a checkpoint for, or what
    its ``PATH`` names (``""``: no file)."""
    if hasattr(cls, "saved"):
        return f"PATH: {cls.saved}"
    policy = getattr(cls, "policy_agent", cls)
    if not hasattr(policy, "shipped"):
        return ""
    shipped = sorted(policy.shipped())
    return f"checkpoints shipped for {', '.join(map(str, shipped))} players" if shipped else "no checkpoint shipped"


def lines(spec: GameSpec) -> list[str]:
    """One line per agent spec: the built-ins (with their standing where measured), the searches a
    policy guides, the installed agents (entry points), then the ``py:`` form."""
    agents, data = game_agents(spec), ladder(spec)
    registry = agents.AGENTS
    rows = [
        (name + cls.spec_form, "; ".join(filter(None, [standing(data["tables"], name), about(cls)])))
        for name, cls in registry.items()
    ]
    for search, entry in GUIDED_SEARCHES.items():
        if entry in registry:
            preset = f" (= {entry}{registry[entry].spec_form})" if entry != search else ""
            form = f"{search}{registry[search].spec_form}{GUIDE}{GUIDE_POLICY}[:CHECKPOINT]"
            rows.append((form, f"{search} over the moves the {GUIDE_POLICY} policy proposes{preset}"))
    group = spec.parts.get("agents")
    for name, target in (installed_agents(group) if group else {}).items():
        rows.append((f"{name}[:ARG]", f"installed: {target}"))
    rows.append((f"{PREFIX}package.module:Name[:ARG]", "an Agent of your own (docs: Your own agents)"))
    width = max(len(form) for form, _ in rows)
    return [f"{form:<{width}}  {text}".rstrip() for form, text in rows]


def add_parser(parser: argparse.ArgumentParser, spec: GameSpec) -> None:
    """Add the ``agents`` command to a game's parser (``sniff_twelve.tools.cli.build_parser``)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    measured = ladder(spec).get("measured")
    sub.add_parser(
        "agents",
        help="list every agent spec the game accepts, with its time per decision and ladder standing",
        description=f"Every agent spec {spec.title} accepts, one a line: its form, then, for each table size "
        "(2p: 2 players) the ladder measured it at, its mean time per decision (one core), its place on the "
        "ladder and its score against the whole field ± 95% CI"
        + (f" (measured {measured}, docs/ladder.md)" if measured else "")
        + ". N: determinizations or worlds a decision; MODEL: an agent spec the other seats "
        "are assumed to play as; @ppo: the trained policy proposes the moves the search scores; CHECKPOINT, "
        "PATH: files (the grammar: docs/agents.md). It plays no game, so it takes no game option.",
    )


def main(spec: GameSpec) -> int:
    """The ``agents`` command: print the list."""
    print("\n".join(lines(spec)))
    return 0
