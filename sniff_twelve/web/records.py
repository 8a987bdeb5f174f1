"""Finished games in ``--records``: writing one when a game ends, listing them, replaying one.

A finished game is written to ``--records`` as ``<UTC time>-<game>-<id>.json``: the match record
(``Game.to_record()``, which ``Game.from_record`` replays) with three more keys, ``human_seat``,
``agents`` (seat → agent spec) and ``session`` (seed, ``seed_chosen`` — whether the player chose
it — ``resigned``, start and end times, the human's thinking time per move). A resigned game's
record stops where the player resigned.

Reading goes through ``record_path``: a name directly in ``--records`` (403 for anything else,
404 if there is no such file); ``replay`` shows a record's moves, or its table after ``step`` of
them, face up.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.records import replay_steps
from sniff_twelve.web.errors import RequestError

if TYPE_CHECKING:
    from sniff_twelve.core.game import KernelGame
    from sniff_twelve.web.table import WebGame

RECORD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json")
STEP = re.compile(r"[0-9]{1,9}")


def now() -> str:
    """The UTC time to the second, as records carry it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_record(records: Path, game: str, doc: dict[str, Any]) -> str:
    """Write ``doc`` (a finished ``game``'s record) to ``records`` atomically; the file's name."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    name = f"{stamp}-{game}-{secrets.token_hex(4)}.json"
    records.mkdir(parents=True, exist_ok=True)
    partial = records / f".{name}.part"
    partial.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    partial.replace(records / name)
    return name


def record_path(records: Path, name: str) -> Path:
    """``name`` as a file directly in ``records``; ``RequestError`` 403 for anything else."""
    if not RECORD_NAME.fullmatch(name) or (path := (records / name).resolve()).parent != records.resolve():
        raise RequestError(403, f"{name!r} is not a record name in the records folder (NAME.json)")
    if not path.is_file():
        raise RequestError(404, f"no record {name!r}")
    return path


def list_records(spec: WebGame, records: Path) -> list[dict[str, Any]]:
    """The finished games of ``spec``'s game in ``records``, newest first."""
    out = []
    files = sorted(records.glob("*.json"), reverse=True) if records.is_dir() else []
    for path in files[:500]:
        try:
            record_path(records, path.name)
        except RequestError:  # a link out of the folder, a name replay refuses: not listed
            continue
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            if doc.get("game") != spec.name:
                continue
            out.append(
                {
                    "name": path.name,
                    "players": doc["options"]["num_players"],
                    "human_seat": doc.get("human_seat"),
                    "agents": doc.get("agents", {}),
                    "finished": doc.get("session", {}).get("finished"),
                    "actions": len(doc["actions"]),
                    "scores": doc["result"]["scores"],
                }
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            out.append({"name": path.name, "error": "not a readable record"})
    return out


def replay(spec: WebGame, records: Path, name: str, step: str | None) -> dict[str, Any]:
    """Record ``name``'s moves and hands (no ``step``), or its table after ``step`` moves, face up."""
    path = record_path(records, name)
    stat = path.stat()
    try:
        shown = _replay(spec, str(path), stat.st_mtime_ns, stat.st_size)
    except ValueError as error:
        raise RequestError(422, f"cannot replay {name}: {error}") from None
    games, human, names = shown.games, shown.human, shown.names
    if step is None:
        hands: dict[int, int] = {}
        for k, game in enumerate(games[:-1]):
            hands.setdefault(spec.step(game), k)
        return {
            "name": name,
            "title": spec.ui.title,
            "names": names,
            "steps": len(games) - 1,
            "hands": [{"hand": hand, "step": k} for hand, k in hands.items()],
            "lines": shown.lines,
            "result": shown.result,
        }
    if not STEP.fullmatch(step) or int(step) >= len(games):
        raise RequestError(400, f"step must be a whole number from 0 to {len(games) - 1}; got {step!r}")
    return {"step": int(step), "svg": spec.draw(games[int(step)], human, names, True)}


@dataclass(frozen=True)
class Replay:
    """A record ready to show: the game after every move, each move in words, the seats' names."""

    games: list[KernelGame]
    lines: list[str]
    human: int
    names: list[str]
    result: str


@functools.lru_cache(maxsize=16)
def _replay(spec: WebGame, path: str, mtime_ns: int, size: int) -> Replay:
    """A record file, cached by modification time and size; ``ValueError`` if it does not replay."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a JSON record ({error})") from None
    games = [game.clone() for game, _ in replay_steps(doc, spec.game_cls)]  # checks the whole record first
    players = games[0].num_players
    human = doc.get("human_seat")
    human = human if isinstance(human, int) and not isinstance(human, bool) and 0 <= human < players else 0
    agents = doc.get("agents") if isinstance(doc.get("agents"), dict) else {}
    names = [f"human (seat {s})" if s == human else f"seat {s} ({agents.get(str(s), 'agent')})" for s in range(players)]
    lines = []
    for before, after, action in zip(games, games[1:], doc["actions"], strict=False):
        seat = before.current_player
        lines.append(f"{names[seat]}: {spec.ui.event(before, after, seat, action, human)}")
    session = doc.get("session") if isinstance(doc.get("session"), dict) else {}
    if session.get("resigned") is True:
        result = f"{names[human]} resigned after move {len(lines)}.\n{spec.ui.scores(games[-1], human)}"
    else:
        result = spec.ui.result(games[-1], human)
    return Replay(games, lines, human, names, result)
