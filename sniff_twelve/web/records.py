"""Finished games in ``--records``: writing one when a game ends, listing them, replaying one.

A finished game is written to ``--records`` as ``<UTC time it started>-<game>-<id>.json``, after
the store holds its end (a server that stops between the two writes it when the game is next
opened; one replayed after a crash overwrites the same file, so a game has one record): the match record
(``Game.to_record()``, which ``Game.from_record`` replays) with three more keys, ``human_seat``,
``agents`` (seat → agent spec) and ``session`` (seed, ``seed_chosen`` — whether the player chose
it — ``resigned``, start and end times, the human's thinking time per move). A resigned game's
record stops where the player resigned.

Reading goes through ``record_path``: a name directly in ``--records`` (403 for anything else,
404 if there is no such file); ``replay`` shows a record's moves, or its table after ``step`` of
them, face up.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.core.records import replay_steps
from sniff_twelve.web.errors import RequestError

if TYPE_CHECKING:
    from sniff_twelve.web.table import WebGame

MAX_NAME = 200  #: characters a record's name may have (file systems take 255 bytes)
RECORD_NAME = re.compile(rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_NAME - 6}}}\.json")
STEP = re.compile(r"[0-9]{1,9}")


def now() -> str:
    """The UTC time to the second, as records carry it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def record_name(game: str, started: str, game_id: str) -> str:
    """The record's file name of the ``game`` started at ``started`` (``now()``) with id ``game_id``."""
    stamp = datetime.fromisoformat(started).astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{game}-{game_id}.json"


def write_record(records: Path, name: str, doc: dict[str, Any]) -> None:
    """Write ``doc`` (a finished game's record) to ``records``/``name`` atomically, replacing any
    file of that name (a game's record is written again, never twice)."""
    records.mkdir(parents=True, exist_ok=True)
    partial = records / f".{name}.{secrets.token_hex(4)}.part"
    partial.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    partial.replace(records / name)


def record_path(records: Path, name: str) -> Path:
    """``name`` as a file directly in ``records``; ``RequestError`` 403 for anything else."""
    if not RECORD_NAME.fullmatch(name) or (path := (records / name).resolve()).parent != records.resolve():
        raise RequestError(403, f"{name!r} is not a record name in the records folder (NAME.json)")
    if not path.is_file():
        raise RequestError(404, f"no record {name!r}")
    return path


def replay(spec: WebGame, records: Path, name: str, step: str | None) -> dict[str, Any]:
    """Record ``name``'s moves and hands (no ``step``), or its table after ``step`` moves, face up."""
    path = record_path(records, name)
    stat = path.stat()
    key = (spec.name, str(path), stat.st_mtime_ns, stat.st_size)
    shown = REPLAYS.get(key)
    if shown is None:
        try:
            shown = _replay(spec, path)
        except ValueError as error:
            raise RequestError(422, f"cannot replay {name}: {error}") from None
        REPLAYS.put(key, shown)
    steps = len(shown.rows) - 1
    if step is None:
        return {
            "name": name,
            "title": spec.ui.title,
            "names": shown.names,
            "steps": steps,
            "hands": [{"hand": hand, "step": k} for hand, k in shown.hands.items()],
            "lines": shown.lines,
            "result": shown.result,
        }
    if not STEP.fullmatch(step) or int(step) > steps:
        raise RequestError(400, f"step must be a whole number from 0 to {steps}; got {step!r}")
    game = spec.game_cls._from_row(shown.rows[int(step)], shown.params)
    last = dict(zip(shown.seats[: int(step)].tolist(), shown.actions[: int(step)].tolist(), strict=True))
    return {"step": int(step), **spec.tables(game, shown.human, shown.names, True, last)}


@dataclass(frozen=True)
class Replay:
    """A record ready to show: the state row after every move (a game's whole position: what
    ``draw`` needs), each move in words and its seat and action (each seat's last move is marked
    as in play), the first step of every hand, the seats' names."""

    rows: np.ndarray
    params: np.ndarray
    seats: np.ndarray
    actions: np.ndarray
    lines: list[str]
    hands: dict[int, int]
    human: int
    names: list[str]
    result: str

    @property
    def nbytes(self) -> int:
        """About what it holds in memory."""
        lines = sum(100 + len(line) for line in self.lines)
        return self.rows.nbytes + self.seats.nbytes + self.actions.nbytes + lines + 1000


class ReplayCache:
    """Replays by (game, file, modification time, size), least recently used first out once they
    hold more than ``CACHE_BYTES`` together."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple, Replay] = OrderedDict()
        self.bytes = 0
        self._lock = threading.Lock()

    def get(self, key: tuple) -> Replay | None:
        with self._lock:
            shown = self._items.get(key)
            if shown is not None:
                self._items.move_to_end(key)
            return shown

    def put(self, key: tuple, shown: Replay) -> None:
        with self._lock:
            if key in self._items:
                return
            self._items[key] = shown
            self.bytes += shown.nbytes
            while self.bytes > CACHE_BYTES and len(self._items) > 1:
                _, gone = self._items.popitem(last=False)
                self.bytes -= gone.nbytes

    def __len__(self) -> int:
        return len(self._items)


CACHE_BYTES = 64 * 2**20  #: what the replays kept for the next request may hold together
REPLAYS = ReplayCache()


def _replay(spec: WebGame, path: Path) -> Replay:
    """A record file played through once; ``ValueError`` if it does not replay. Each move's line
    compares the position before it (a state row in a second game object: no copy of the game's
    history, which made a long record's replay quadratic) with the game after it."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a JSON record ({error})") from None
    steps = replay_steps(doc, spec.game_cls)  # checks the whole record first
    game, _ = next(steps)
    players = game.num_players
    human = doc.get("human_seat")
    human = human if isinstance(human, int) and not isinstance(human, bool) and 0 <= human < players else 0
    agents = doc.get("agents") if isinstance(doc.get("agents"), dict) else {}
    names = [f"human (seat {s})" if s == human else f"seat {s} ({agents.get(str(s), 'agent')})" for s in range(players)]
    actions = doc["actions"]
    rows = np.empty((len(actions) + 1, game.state_array.size), dtype=game.state_array.dtype)
    params = np.array(game._params)
    lines, hands = [], {}
    seats = np.empty(len(actions), dtype=np.int16)
    before = spec.game_cls._from_row(game.state_array, params)  # one object, set to each position
    for k, action in enumerate(actions):
        rows[k] = before._state[:] = game.state_array
        hands.setdefault(spec.step(game), k)
        seats[k] = seat = game.current_player
        game.apply(action)
        lines.append(f"{names[seat]}: {spec.ui.event(before, game, seat, action, human)}")
    rows[len(actions)] = game.state_array
    session = doc.get("session") if isinstance(doc.get("session"), dict) else {}
    if session.get("resigned") is True:
        result = f"{names[human]} resigned after move {len(lines)}.\n{spec.ui.scores(game, human)}"
    else:
        result = spec.ui.result(game, human)
    return Replay(rows, params, seats, np.array(actions, dtype=np.int16), lines, hands, human, names, result)
