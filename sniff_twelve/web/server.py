"""The web app of ``serve`` (the ``web`` extra): Starlette routes, the session store, records, replays.

Routes (every page is ``static/page.html`` with ``static/app.js``; no build step):

- ``GET /``: the start page (players, your seat, the agent at every other seat, the game's
  options, a seed); ``POST /api/sessions`` starts a game and answers with its token.
- ``GET /play/{token}``; ``GET /api/sessions/{token}``: the game as the human seat sees it;
  ``POST /api/sessions/{token}/move`` with ``{"action": id, "version": n}`` plays a move,
  ``POST /api/sessions/{token}/resign`` ends the game there (it is saved as it stood).
- ``GET /replay``, ``GET /replay/{name}``; ``GET /api/records`` lists the finished games in
  ``--records``, ``GET /api/records/{name}`` gives one's moves, ``?step=k`` its table after k of them.

The server holds every game. While one runs, what it sends is built from the human seat's public
game (``sniff_twelve.web.table.public_game``) and the public moves alone; only a finished game is
shown face up, and a hand that has just ended as it was counted: every hand face up, the boneyard
not (``WebGame.hand_end``).

Bad requests are refused with a 4xx and a one-line ``{"error": …}`` and change nothing: 400
malformed (a number of the wrong kind or size, nesting beyond the parser, a ``Host`` the server
does not answer to), 404 unknown session or record, 403 a record path outside ``--records``, 409
a stale version or a finished (or resigned) game, 413 a body over ``MAX_BODY`` bytes, 415 a body
that is not JSON, 422 an illegal move (the legal ones named), 429 more than
``NEW_GAMES_PER_MINUTE`` new games from one client in a minute (with ``Retry-After``).

Games in progress are kept in ``--records``/``sessions.sqlite3`` (``sniff_twelve.web.store``) as
how they were dealt and the actions since: after a restart the same link continues the same game
at the same version, the agents re-driven through the recorded moves so their own random streams
stand where they stood.

The server answers only to its own host names (``TrustedHostMiddleware``: the bound host,
``localhost`` and ``127.0.0.1``, plus ``--allowed-host`` names), so a web page elsewhere cannot
read it through DNS rebinding. It holds at most ``MAX_SESSIONS`` games; past that the least
recently used game idle for ``IDLE_SECONDS`` goes first, and a game someone played in the last
``IDLE_SECONDS`` goes only when no idle one is left. Agents that play one checkpoint share one
read-only copy of it (``sniff_twelve.agents.policy.load_shared``).

A finished game is written to ``--records`` as ``<UTC time>-<game>-<id>.json``: the match record
(``Game.to_record()``, which ``Game.from_record`` replays) with three more keys, ``human_seat``,
``agents`` (seat → agent spec) and ``session`` (seed, ``seed_chosen`` — whether the player chose
it — ``resigned``, start and end times, the human's thinking time per move). A resigned game's
record stops where the player resigned. With ``seed_choice=False``
(``serve --no-seed-choice``, for studies) the server deals every seed itself.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
import tempfile
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from sniff_twelve.core.options import check_int
from sniff_twelve.core.records import replay_steps
from sniff_twelve.web.store import SessionStore
from sniff_twelve.web.table import WebGame, public_game

if TYPE_CHECKING:
    from starlette.requests import Request

    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import KernelGame

MAX_BODY = 8 * 1024  #: bytes a request body may have
MAX_SESSIONS = 1000  #: games held at once; the least recently used idle one goes first
IDLE_SECONDS = 600  #: a game nobody touched for this long is idle
NEW_GAMES_PER_MINUTE = 30  #: new games one client may start in a minute
LOCAL_HOSTS = ("localhost", "127.0.0.1")  #: names the server always answers to
RECORD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json")
STEP = re.compile(r"[0-9]{1,9}")
STATIC = {"app.js": "text/javascript; charset=utf-8", "page.html": "text/html; charset=utf-8"}
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


class RequestError(Exception):
    """A request the server turns down: ``status``, a message for the page and any headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Session:
    """One game in one browser tab: the human's seat, the agents at the others, the log of what
    happened since the human's last move. Every call runs under ``lock``."""

    def __init__(
        self,
        spec: WebGame,
        game: KernelGame,
        human: int,
        agents: dict[int, Agent],
        specs: dict[int, str],
        seed: int | None,
        records: Path,
        seed_chosen: bool = False,
        recipe: dict[str, Any] | None = None,
    ) -> None:
        self.spec, self.game, self.human = spec, game, human
        self.agents, self.specs, self.seed, self.records = agents, specs, seed, records
        self.seed_chosen = seed_chosen
        self.recipe = recipe  # how the game was dealt (players, options): what a restart needs
        partner = spec.partner(game.num_players, human)
        self.names = [
            "you" if s == human else f"partner (seat {s}, {specs[s]})" if s == partner else f"seat {s} ({specs[s]})"
            for s in range(game.num_players)
        ]
        self.lock = threading.Lock()
        self.log: list[str] = []
        self.last: dict[int, int] = {}  # seat → its last action (public), marked on the table
        self.hand_end: dict[str, str] | None = None  # a hand ended since the human's last move: as it ended
        self.resigned = False
        self.started = _now()
        self.think_ms: list[list[int]] = []  # [action index, milliseconds] per human move
        self.asked_at = time.monotonic()
        self.record: str | None = None

    @property
    def version(self) -> int:
        """Actions played so far: a move must name the version it was chosen at."""
        return len(self.game.history)

    @property
    def over(self) -> bool:
        return self.resigned or self.game.is_terminal()

    def advance(self) -> None:
        """Let the agents move until the human is to act or the game is over (then save it)."""
        game = self.game
        while not game.is_terminal() and game.current_player != self.human:
            seat = game.current_player
            self._apply(seat, self.agents[seat].act(game))
        if game.is_terminal():
            self._save()
        self.asked_at = time.monotonic()

    def _apply(self, seat: int, action: int) -> None:
        before = public_game(self.game, self.human)
        ended = self.spec.hand_end(self.game, action)
        self.game.apply(action)
        self.last[seat] = action
        event = self.spec.ui.event(before, public_game(self.game, self.human), seat, action, self.human)
        self.log.append(f"{self.names[seat]}: {event}")
        if ended is not None and not self.game.is_terminal():  # a finished game shows its own end
            svg = self.spec.draw(ended, self.human, self.names, True, self.last)
            self.hand_end = {"svg": svg, "text": self.spec.ui.settlement(ended, self.human)}

    def replay(self, actions: Sequence[int]) -> None:
        """Play ``actions`` again (a restart): each agent re-driven through its own moves so its
        random stream stands where it stood; the log, the marks and a hand's end come back too."""
        for action in actions:
            seat = self.game.current_player
            if seat == self.human:
                self.log, self.hand_end = [], None
            else:
                self.agents[seat].act(self.game)
            self._apply(seat, action)

    def move(self, action: Any, version: Any) -> None:
        """Play the human's ``action``, chosen at ``version``; ``RequestError`` leaves the game as it was."""
        game = self.game
        if self.over:
            raise RequestError(409, "the game is over: start a new one")
        if version != self.version:
            raise RequestError(409, f"stale move: it was chosen at version {version}, the game is at {self.version}")
        legal = game.legal_actions()
        if action not in legal:
            named = ", ".join(f"{a} ({game.action_name(a)})" for a in legal)
            raise RequestError(422, f"action {action} is not a legal move now; legal: {named}")
        self.think_ms.append([self.version, round(1000 * (time.monotonic() - self.asked_at))])
        self.log, self.hand_end = [], None
        self._apply(self.human, action)
        self.advance()

    def resign(self) -> None:
        """End the game where it stands and save it (``RequestError`` 409 if it is over already)."""
        if self.over:
            raise RequestError(409, "the game is over: start a new one")
        self.mark_resigned()
        self._save()

    def mark_resigned(self) -> None:
        self.resigned, self.hand_end = True, None
        self.log = [f"{self.names[self.human]}: resigned"]

    def doc(self) -> dict[str, Any]:
        """What ``SessionStore`` keeps of this game (``recipe`` and the actions rebuild it)."""
        return {
            "game": self.spec.name,
            "recipe": self.recipe,
            "human": self.human,
            "specs": {str(seat): name for seat, name in self.specs.items()},
            "seed": self.seed,
            "seed_chosen": self.seed_chosen,
            "actions": list(self.game.history),
            "think_ms": self.think_ms,
            "started": self.started,
            "record": self.record,
            "resigned": self.resigned,
        }

    def state(self) -> dict[str, Any]:
        """What the page gets, built from the human seat's public game while the game runs: the
        table (``svg``), the score line (``scores``), the human's hand (``hand``, an SVG per item)
        and legal ``moves``, the ``log`` since the human's last move, the hand that ended since
        (``hand_end``: its table face up and its settlement, or ``None``) and, once the game is
        over or resigned, the ``result`` and the ``record``'s name."""
        game, human, spec = self.game, self.human, self.spec
        over = self.over
        if over:
            svg, hand, moves = spec.draw(game, human, self.names, True, self.last), [], []
        else:
            public = public_game(game, human)
            to_act = public.current_player == human
            svg, hand = spec.draw(public, human, self.names, False, self.last), spec.hand(public, human)
            moves = spec.moves(public, human) if to_act else []
        if self.resigned:
            result = f"You resigned after {len(self.think_ms)} of your moves.\n{spec.ui.scores(game, human)}"
        else:
            result = spec.ui.result(game, human) if over else None
        return {
            "game": spec.name,
            "title": spec.ui.title,
            "version": self.version,
            "seat": human,
            "names": self.names,
            "over": over,
            "to_act": bool(moves),
            "svg": svg,
            "scores": spec.ui.scores(game if over else public, human),
            "hand": hand,
            "moves": [asdict(m) for m in moves],
            "log": self.log,
            "hand_end": self.hand_end,
            "result": result,
            "record": self.record,
        }

    def _save(self) -> None:
        """Write the finished game to ``records`` (see the module docstring)."""
        doc = self.game.to_record()
        doc["human_seat"] = self.human
        doc["agents"] = {str(seat): name for seat, name in sorted(self.specs.items())}
        doc["session"] = {
            "seed": self.seed,
            "seed_chosen": self.seed_chosen,
            "resigned": self.resigned,
            "started": self.started,
            "finished": _now(),
            "think_ms": self.think_ms,
        }
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        name = f"{stamp}-{self.spec.name}-{secrets.token_hex(4)}.json"
        self.records.mkdir(parents=True, exist_ok=True)
        partial = self.records / f".{name}.part"
        partial.write_text(json.dumps(doc) + "\n", encoding="utf-8")
        partial.replace(self.records / name)
        self.record = name


class Sessions:
    """Sessions by random token. Beyond ``limit`` the least recently used one idle for ``idle``
    seconds goes first; one used more recently goes only when no idle one is left."""

    def __init__(
        self,
        limit: int = MAX_SESSIONS,
        idle: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        load: Callable[[str], Session | None] = lambda token: None,
        forget: Callable[[str], None] = lambda token: None,
    ) -> None:
        """``load(token)`` finds a session not held (after a restart), ``forget(token)`` hears of
        an evicted one."""
        self.limit, self.idle, self.clock, self.load, self.forget = limit, idle, clock, load, forget
        self._items: OrderedDict[str, Session] = OrderedDict()
        self._used: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._items[token] = session
            self._used[token] = self.clock()
            while len(self._items) > self.limit:
                self._evict(keep=token)
        return token

    def _evict(self, keep: str) -> None:
        now = self.clock()
        oldest = next(t for t in self._items if t != keep)
        token = next((t for t in self._items if t != keep and now - self._used[t] >= self.idle), oldest)
        del self._items[token], self._used[token]
        self.forget(token)

    def __len__(self) -> int:
        return len(self._items)

    def get(self, token: str) -> Session:
        with self._lock:
            session = self._items.get(token)
            if session is None:
                session = self.load(token)
                if session is None:
                    raise RequestError(404, "unknown session: the link is wrong or the game has ended long ago")
                self._items[token] = session
                self._used[token] = self.clock()
                while len(self._items) > self.limit:
                    self._evict(keep=token)
            self._items.move_to_end(token)
            self._used[token] = self.clock()
            return session


class RateLimit:
    """At most ``per_minute`` events per key in any 60 seconds; ``check`` raises 429 past it."""

    def __init__(self, per_minute: int = NEW_GAMES_PER_MINUTE, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute, self.clock = per_minute, clock
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def check(self, key: str) -> None:
        now = self.clock()
        with self._lock:
            events = self._events.setdefault(key, deque())
            while events and now - events[0] >= 60:
                events.popleft()
            if len(events) >= self.per_minute:
                wait = max(1, int(60 - (now - events[0]) + 0.999))
                raise RequestError(
                    429,
                    f"too many new games: at most {self.per_minute} a minute; try again in {wait} s",
                    {"Retry-After": str(wait)},
                )
            events.append(now)
            if len(self._events) > 10_000:  # forget clients that have been quiet for a minute
                self._events = {k: v for k, v in self._events.items() if v and now - v[-1] < 60}


class Server:
    """The routes' work: ``spec``'s games, records in ``records``, ``checkpoints`` offered as
    ``ppo:PATH`` agents and ``agents`` (more specs, e.g. ``py:package.module:Name``) beside the
    built-ins, ``defaults`` (players and game options) on the start page."""

    def __init__(
        self,
        spec: WebGame,
        records: Path,
        checkpoints: Sequence[str] = (),
        defaults: dict[str, Any] | None = None,
        max_sessions: int = MAX_SESSIONS,
        agents: Sequence[str] = (),
        seed_choice: bool = True,
        new_games_per_minute: int = NEW_GAMES_PER_MINUTE,
    ) -> None:
        self.spec = spec
        self.seed_choice = seed_choice
        self.new_games = RateLimit(new_games_per_minute)
        self.records = Path(records)
        self.agents = [*spec.agents, *(f"ppo:{path}" for path in checkpoints), *agents]
        #: per number of players, the agents that can play at such a table (a checkpoint fits one)
        self.seatable = {n: [name for name in self.agents if self._plays(name, n)] for n in spec.players}
        self.defaults = {"players": spec.players[0], "agent": "heuristic", **(defaults or {})}
        self.store = SessionStore(self.records / "sessions.sqlite3")
        self.sessions = Sessions(max_sessions, load=self._restore, forget=self.store.delete)

    def _plays(self, name: str, players: int) -> bool:
        try:
            self.spec.make_agent(name).check_table(players)
        except ValueError:
            return False
        return True

    # --- sessions -------------------------------------------------------------------------------
    def start(
        self,
        game: KernelGame,
        human: int,
        agents: dict[int, Agent],
        specs: dict[int, str],
        seed: int | None = None,
        seed_chosen: bool = False,
        recipe: dict[str, Any] | None = None,
    ) -> str:
        """Seat ``agents`` (named by ``specs``) around ``human`` in ``game``, let them move until the
        human is to act; the new session's token. With a ``recipe`` (how ``game`` was dealt: players
        and options, beside ``seed``) the game is kept on disk and survives a restart."""
        session = Session(self.spec, game, human, agents, specs, seed, self.records, seed_chosen, recipe)
        with session.lock:
            session.advance()
            token = self.sessions.add(session)
            self.keep(token, session)
        return token

    def warm_up(self, moves: int = 40) -> float:
        """Compile what games need (or load numba's cache) before a player waits for it: one
        position for every agent the start page offers at its default table, then ``moves`` moves
        of a game drawn as the page draws it (nothing is kept or recorded); the seconds it took."""
        start = time.perf_counter()
        players = self.defaults["players"]
        game = self.spec.game_cls(num_players=players, seed=0)
        for name in self.seatable[players]:
            self.spec.make_agent(name).act(game)
        others = {seat: self.spec.make_agent("greedy") for seat in range(1, players)}
        with tempfile.TemporaryDirectory() as scratch:  # a game that ends here leaves no record
            session = Session(self.spec, game, 0, others, dict.fromkeys(others, "greedy"), 0, Path(scratch))
            session.advance()
            for _ in range(moves):
                state = session.state()
                if not state["moves"]:
                    break
                session.move(state["moves"][0]["action"], state["version"])
        return time.perf_counter() - start

    def move(self, token: str, action: int, version: int) -> dict[str, Any]:
        """Play the human's move in session ``token``, keep the game on disk; the new state."""
        session = self.sessions.get(token)
        with session.lock:
            session.move(action, version)
            self.keep(token, session)
            return session.state()

    def resign(self, token: str) -> dict[str, Any]:
        """End session ``token``'s game where it stands, save it; the final state."""
        session = self.sessions.get(token)
        with session.lock:
            session.resign()
            self.keep(token, session)
            return session.state()

    def keep(self, token: str, session: Session) -> None:
        """Write ``session`` to the store (games dealt from a recipe only)."""
        if session.recipe is not None:
            self.store.save(token, session.doc())

    def _restore(self, token: str) -> Session | None:
        """A kept game, dealt again and replayed (``None`` if there is none, or it will not replay)."""
        doc = self.store.load(token)
        if doc is None or doc.get("game") != self.spec.name:
            return None
        try:
            recipe, human, seed = doc["recipe"], doc["human"], doc["seed"]
            game = self.spec.game_cls(num_players=recipe["players"], seed=seed, **recipe["options"])
            specs = {int(seat): name for seat, name in doc["specs"].items()}
            agents = {seat: self.spec.make_agent(name) for seat, name in specs.items()}
            for seat, agent in agents.items():
                agent.reset(seed * 1000 + seat)
            session = Session(self.spec, game, human, agents, specs, seed, self.records, doc["seed_chosen"], recipe)
            session.replay(doc["actions"])
        except (KeyError, TypeError, ValueError):
            return None
        session.think_ms, session.started, session.record = doc["think_ms"], doc["started"], doc["record"]
        if doc.get("resigned"):
            session.mark_resigned()
        return session

    def new_game(self, body: Any, client: str = "") -> str:
        """Start a game from the start page's choices (see ``config``); ``RequestError`` 400 if any is
        bad, 429 if ``client`` started too many games in the last minute."""
        spec = self.spec
        if not isinstance(body, dict):
            raise RequestError(400, "a new game is a JSON object: players, seat, agents, options, seed")
        unknown = set(body) - {"players", "seat", "agents", "options", "seed"}
        if unknown:
            raise RequestError(400, f"unknown field(s) {', '.join(sorted(unknown))}")
        try:  # JSON whole numbers only: 4.0, true and "4" are refused (sniff_twelve.core.options)
            low, high = min(spec.players), max(spec.players)  # both games' table sizes are a range
            players = check_int("players", body.get("players", self.defaults["players"]), low, high)
            seat = check_int("seat", body.get("seat", 0), 0, players - 1)
        except ValueError as error:
            raise RequestError(400, str(error)) from None
        seed = body.get("seed")
        seed_chosen = seed is not None
        if seed_chosen and not self.seed_choice:
            raise RequestError(400, "this server deals the seeds itself: leave the seed out")
        if seed is None:
            seed = secrets.randbelow(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise RequestError(400, f"seed must be a whole number from 0, or empty for a random one; got {seed!r}")
        options = body.get("options") or {}
        choices = body.get("agents") or {}
        if not isinstance(options, dict) or not isinstance(choices, dict):
            raise RequestError(400, "options and agents are JSON objects (agents: seat number → agent)")
        known = {option.name: option for option in spec.options}
        if set(options) - set(known):
            raise RequestError(400, f"unknown option(s) {', '.join(sorted(set(options) - set(known)))}")
        if set(choices) - {str(s) for s in range(players) if s != seat}:
            raise RequestError(400, f"agents are chosen for the seats other than yours (0 … {players - 1} but {seat})")
        try:
            kwargs = {name: option.parse(options.get(name)) for name, option in known.items()}
            game = spec.game_cls(num_players=players, seed=seed, **kwargs)
            specs, agents = {}, {}
            for other in (s for s in range(players) if s != seat):
                specs[other] = choices.get(str(other), self.defaults["agent"])
                if specs[other] not in self.agents:
                    offered = ", ".join(self.seatable[players])
                    raise ValueError(f"seat {other}: unknown agent {specs[other]!r}; offered: {offered}")
                agents[other] = spec.make_agent(specs[other])
                agents[other].check_table(players)
                agents[other].reset(seed * 1000 + other)
        except (ValueError, TypeError, OverflowError) as error:
            raise RequestError(400, str(error)) from None
        self.new_games.check(client)
        return self.start(game, seat, agents, specs, seed, seed_chosen, {"players": players, "options": kwargs})

    def config(self) -> dict[str, Any]:
        """The start page's choices and defaults."""
        spec = self.spec
        return {
            "game": spec.name,
            "title": spec.ui.title,
            "players": list(spec.players),
            "agents": self.seatable,
            "options": [asdict(option) for option in spec.options],
            "defaults": self.defaults,
            "partners": {n: [spec.partner(n, s) for s in range(n)] for n in spec.players},
            "seed_choice": self.seed_choice,
            "rules": spec.ui.rules,
        }

    # --- records and replays -----------------------------------------------------------------------
    def record_path(self, name: str) -> Path:
        """``name`` as a file directly in ``--records``; ``RequestError`` 403 for anything else."""
        if (
            not RECORD_NAME.fullmatch(name)
            or (path := (self.records / name).resolve()).parent != self.records.resolve()
        ):
            raise RequestError(403, f"{name!r} is not a record name in the records folder (NAME.json)")
        if not path.is_file():
            raise RequestError(404, f"no record {name!r}")
        return path

    def list_records(self) -> list[dict[str, Any]]:
        """The finished games of this game in ``--records``, newest first."""
        out = []
        files = sorted(self.records.glob("*.json"), reverse=True) if self.records.is_dir() else []
        for path in files[:500]:
            try:
                doc = json.loads(path.read_text(encoding="utf-8"))
                if doc.get("game") != self.spec.name:
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

    def replay(self, name: str, step: str | None) -> dict[str, Any]:
        """A record's moves and hands (no ``step``), or its table after ``step`` moves, face up."""
        path = self.record_path(name)
        stat = path.stat()
        try:
            replay = _replay(self.spec, str(path), stat.st_mtime_ns, stat.st_size)
        except ValueError as error:
            raise RequestError(422, f"cannot replay {name}: {error}") from None
        games, human, names = replay.games, replay.human, replay.names
        if step is None:
            hands: dict[int, int] = {}
            for k, game in enumerate(games[:-1]):
                hands.setdefault(self.spec.step(game), k)
            return {
                "name": name,
                "title": self.spec.ui.title,
                "names": names,
                "steps": len(games) - 1,
                "hands": [{"hand": hand, "step": k} for hand, k in hands.items()],
                "lines": replay.lines,
                "result": replay.result,
            }
        if not STEP.fullmatch(step) or int(step) >= len(games):
            raise RequestError(400, f"step must be a whole number from 0 to {len(games) - 1}; got {step!r}")
        return {"step": int(step), "svg": self.spec.draw(games[int(step)], human, names, True)}


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


# --- the app -----------------------------------------------------------------------------------------
def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


async def _body(request: Request) -> Any:
    """The request's JSON body; ``RequestError`` if it is not JSON or longer than ``MAX_BODY``."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise RequestError(415, "send the request body as JSON (Content-Type: application/json)")
    length = request.headers.get("content-length", "0")
    if not STEP.fullmatch(length) or int(length) > MAX_BODY:
        raise RequestError(413, f"request body too large: at most {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise RequestError(413, f"request body too large: at most {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as error:  # not JSON, not UTF-8, a number too long, nesting too deep
        raise RequestError(400, f"the request body is not JSON the server can read: {type(error).__name__}") from None


def _static(name: str) -> str:
    return resources.files("sniff_twelve.web").joinpath("static", name).read_text(encoding="utf-8")


def create_app(
    spec: WebGame,
    records: Path,
    checkpoints: Sequence[str] = (),
    defaults: dict[str, Any] | None = None,
    max_sessions: int = MAX_SESSIONS,
    agents: Sequence[str] = (),
    hosts: Sequence[str] = (),
    seed_choice: bool = True,
    new_games_per_minute: int = NEW_GAMES_PER_MINUTE,
) -> Starlette:
    """The ASGI app serving ``spec``'s game (see the module docstring); ``app.state.server`` is its
    ``Server``. ``hosts`` are host names it answers to beside ``LOCAL_HOSTS``."""
    server = Server(spec, records, checkpoints, defaults, max_sessions, agents, seed_choice, new_games_per_minute)
    page = _static("page.html").replace("__TITLE__", spec.ui.title.strip('"')).replace("__GAME__", spec.name)

    async def html(request: Request) -> Response:
        return HTMLResponse(page, headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise RequestError(404, f"no file {name!r}")
        return Response(_static(name), media_type=STATIC[name], headers=HEADERS)

    async def config(request: Request) -> Response:
        return _json(server.config())

    async def create(request: Request) -> Response:
        body = await _body(request)
        client = request.client.host if request.client else ""
        token = await run_in_threadpool(server.new_game, body, client)
        return _json({"token": token, "url": f"/play/{token}"}, 201)

    def current(token: str) -> dict[str, Any]:
        session = server.sessions.get(token)
        with session.lock:
            return session.state()

    async def state(request: Request) -> Response:
        return _json(await run_in_threadpool(current, request.path_params["token"]))

    async def move(request: Request) -> Response:
        token = request.path_params["token"]
        server.sessions.get(token)  # an unknown session before anything else
        body = await _body(request)
        if not isinstance(body, dict) or set(body) != {"action", "version"}:
            raise RequestError(400, 'a move is {"action": id, "version": n} (the version the table showed)')
        action, version = body["action"], body["version"]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (action, version)):
            raise RequestError(400, f"action and version are whole numbers; got {action!r} and {version!r}")
        return _json(await run_in_threadpool(server.move, token, action, version))

    async def resign(request: Request) -> Response:
        return _json(await run_in_threadpool(server.resign, request.path_params["token"]))

    async def records_list(request: Request) -> Response:
        return _json(await run_in_threadpool(server.list_records))

    async def replay(request: Request) -> Response:
        name, step = request.path_params["name"], request.query_params.get("step")
        return _json(await run_in_threadpool(server.replay, name, step))

    async def refused(request: Request, error: Exception) -> Response:
        if isinstance(error, RequestError):
            return JSONResponse({"error": str(error)}, status_code=error.status, headers={**HEADERS, **error.headers})
        return _json({"error": getattr(error, "detail", "bad request")}, getattr(error, "status_code", 400))

    routes = [
        Route("/", html),
        Route("/play/{token}", html),
        Route("/replay", html),
        Route("/replay/{name:path}", html),
        Route("/static/{name}", static),
        Route("/api/config", config),
        Route("/api/sessions", create, methods=["POST"]),
        Route("/api/sessions/{token}", state),
        Route("/api/sessions/{token}/move", move, methods=["POST"]),
        Route("/api/sessions/{token}/resign", resign, methods=["POST"]),
        Route("/api/records", records_list),
        Route("/api/records/{name:path}", replay),
    ]
    trusted = Middleware(TrustedHostMiddleware, allowed_hosts=[*LOCAL_HOSTS, *hosts])
    handlers = {RequestError: refused, 404: refused, 405: refused}
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=[trusted])
    app.state.server = server
    return app


def serve(
    spec: WebGame,
    host: str,
    port: int,
    records: Path,
    checkpoints: Sequence[str] = (),
    defaults: dict[str, Any] | None = None,
    agents: Sequence[str] = (),
    hosts: Sequence[str] = (),
    seed_choice: bool = True,
) -> None:
    """Run the app with uvicorn until Ctrl-C; it answers to ``host`` and ``hosts`` beside ``LOCAL_HOSTS``."""
    app = create_app(spec, records, checkpoints, defaults, agents=agents, hosts=[host, *hosts], seed_choice=seed_choice)
    print("warming up: compiling the game and its agents (once per install) …", end=" ", flush=True)
    print(f"ready in {app.state.server.warm_up():.1f} s", flush=True)
    print(f"{spec.ui.title} on http://{host}:{port}/  (records: {Path(records).resolve()}; Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
