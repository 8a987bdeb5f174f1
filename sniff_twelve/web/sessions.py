"""The games the web app holds: a ``Session`` per browser tab, ``Sessions`` (eviction) and ``RateLimit``.

A ``Session`` is one game: the human's seat, the agents at the others, what happened since the
human's last move. While the game runs, what the page gets is built from the human seat's public
game (``sniff_twelve.web.table.public_game``) and the public moves alone; only a finished game is
shown face up, and a hand that has just ended as it was counted (``WebGame.hand_end``). A finished
game is named its record (``sniff_twelve.web.records``), which the server writes once the game is
in the store.

The server holds at most ``MAX_SESSIONS`` games in memory; past that the least recently used game
idle for ``IDLE_SECONDS`` goes first, and a game someone played in the last ``IDLE_SECONDS`` goes
only when no idle one is left. A game whose lock is held (a move in flight) never goes. An
evicted game stays on disk and is rebuilt on its next request.
One client may start ``NEW_GAMES_PER_MINUTE`` games a minute (429 past it, with ``Retry-After``): a
client is its IPv4 address, or its IPv6 address's /64 (``client_key``).
"""

from __future__ import annotations

import ipaddress
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.records import now, record_name
from sniff_twelve.web.table import public_game

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.web.table import WebGame

MAX_SESSIONS = 1000  #: games held at once; the least recently used idle one goes first
KEEP_DAYS = 30  #: a game nobody moved in for this many days leaves the store (``serve --keep-days``)
IDLE_SECONDS = 600  #: a game nobody touched for this long is idle
NEW_GAMES_PER_MINUTE = 30  #: new games one client may start in a minute


class Session:
    """One game in one browser tab: the human's seat, the agents at the others, the log of what
    happened since the human's last move. Every call runs under ``lock``."""

    def __init__(
        self,
        spec: WebGame,
        game: BaseGame,
        human: int,
        agents: dict[int, Agent],
        specs: dict[int, str],
        seed: int | None,
        seed_chosen: bool = False,
        recipe: dict[str, Any] | None = None,
        game_id: str | None = None,
        names: list[str] | None = None,
    ) -> None:
        """``names``: how the page names each seat (default: "you", the partner and every other
        seat with its agent; a blind study names the seats only)."""
        self.spec, self.game, self.human = spec, game, human
        self.agents, self.specs, self.seed = agents, specs, seed
        self.id = game_id or secrets.token_hex(4)  # names the game's record: one file however often it ends
        self.seed_chosen = seed_chosen
        self.recipe = recipe  # how the game was dealt (players, options): what a restart needs
        partner = spec.partner(game.num_players, human)
        self.named = names is not None  # names given, kept with the game
        self.names = names or [
            "you" if s == human else f"partner (seat {s}, {specs[s]})" if s == partner else f"seat {s} ({specs[s]})"
            for s in range(game.num_players)
        ]
        self.lock = threading.Lock()
        self.log: list[str] = []
        self.last: dict[int, int] = {}  # seat → its last action (public), marked on the table
        self.hand_end: dict[str, Any] | None = None  # a hand ended since the human's last move: as it ended
        self.resigned = False
        self.started = now()
        self.think_ms: list[list[int]] = []  # [action index, milliseconds] per human move
        self.asked_at = time.monotonic()
        self.record: str | None = None  # the record's name, once the game is over
        self.finished: str | None = None

    @property
    def version(self) -> int:
        """Actions played so far: a move must name the version it was chosen at."""
        return len(self.game.history)

    @property
    def over(self) -> bool:
        return self.resigned or self.game.is_terminal()

    def advance(self) -> None:
        """Let the agents move until the human is to act or the game is over (then name its record)."""
        game = self.game
        while not game.is_terminal() and game.current_player != self.human:
            seat = game.current_player
            self._apply(seat, self.agents[seat].act(game))
        if game.is_terminal():
            self._finish()
        self.asked_at = time.monotonic()

    def _apply(self, seat: int, action: int) -> None:
        before = public_game(self.game, self.human)
        ended = self.spec.hand_end(self.game, action)
        self.game.apply(action)
        self.last[seat] = action
        event = self.spec.ui.event(before, public_game(self.game, self.human), seat, action, self.human)
        self.log.append(f"{self.names[seat]}: {event}")
        if ended is not None and not self.game.is_terminal():  # a finished game shows its own end
            tables = self.spec.tables(ended, self.human, self.names, True, self.last)
            # the ended hand's screen shows that hand's events; the next hand's start a fresh log
            self.hand_end = {**tables, "text": self.spec.ui.settlement(ended, self.human), "log": self.log}
            self.log = []

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
        """End the game where it stands (``RequestError`` 409 if it is over already)."""
        if self.over:
            raise RequestError(409, "the game is over: start a new one")
        self.mark_resigned()
        self._finish()

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
            "finished": self.finished,
            "id": self.id,
            "resigned": self.resigned,
            **({"names": self.names} if self.named else {}),
        }

    def state(self) -> dict[str, Any]:
        """What the page gets, built from the human seat's public game while the game runs: the
        table (``svg``; ``svg_portrait`` for a phone held upright), the score line (``scores``),
        the human's hand (``hand``, an SVG per item) and legal ``moves``, the ``log`` since the
        human's last move, the hand that ended since (``hand_end``: its tables face up, its
        settlement and its events since the human's last move, or ``None``; ``log`` then holds the
        next hand's events only) and, once the game is over or resigned, the ``result`` and the
        ``record``'s name."""
        game, human, spec = self.game, self.human, self.spec
        over = self.over
        if over:
            tables, hand, moves = spec.tables(game, human, self.names, True, self.last), [], []
        else:
            public = public_game(game, human)
            to_act = public.current_player == human
            tables, hand = spec.tables(public, human, self.names, False, self.last), spec.hand(public, human)
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
            **tables,
            "scores": spec.ui.scores(game if over else public, human),
            "hand": hand,
            "moves": [asdict(m) for m in moves],
            "log": self.log,
            "hand_end": self.hand_end,
            "result": result,
            "record": self.record,
        }

    def _finish(self) -> None:
        self.finished = now()
        self.record = record_name(self.spec.name, self.started, self.id)

    def record_doc(self) -> dict[str, Any]:
        """The finished game's record (the format: ``sniff_twelve.web.records``)."""
        doc = self.game.to_record()
        doc["human_seat"] = self.human
        doc["agents"] = {str(seat): name for seat, name in sorted(self.specs.items())}
        doc["session"] = {
            "seed": self.seed,
            "seed_chosen": self.seed_chosen,
            "resigned": self.resigned,
            "started": self.started,
            "finished": self.finished,
            "think_ms": self.think_ms,
        }
        return doc


class Sessions:
    """Sessions by random token. Beyond ``limit`` the least recently used one idle for ``idle``
    seconds goes first; one used more recently goes only when no idle one is left."""

    def __init__(
        self,
        limit: int = MAX_SESSIONS,
        idle: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        load: Callable[[str], Session | None] = lambda token: None,
    ) -> None:
        """``load(token)`` finds a session not held (after a restart, or evicted from memory: a
        game kept on disk stays there and comes back on its next request)."""
        self.limit, self.idle, self.clock, self.load = limit, idle, clock, load
        self._items: OrderedDict[str, Session] = OrderedDict()
        self._used: dict[str, float] = {}
        self._loading: dict[str, threading.Lock] = {}  # token → the lock its load runs under
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        token = secrets.token_urlsafe(18)
        with self._lock:
            self._items[token] = session
            self._used[token] = self.clock()
            self._trim(keep=token)
        return token

    def _trim(self, keep: str) -> None:
        """Drop sessions past the limit, never ``keep`` nor one whose lock is held (a move in flight
        would be saved from a dropped copy while an older one is rebuilt from disk): with every
        other session busy, the limit waits for the next call."""
        while len(self._items) > self.limit:
            now = self.clock()
            free = [t for t, session in self._items.items() if t != keep and not _busy(session)]
            if not free:
                return
            token = next((t for t in free if now - self._used[t] >= self.idle), free[0])
            del self._items[token], self._used[token]

    def __len__(self) -> int:
        return len(self._items)

    def holds(self, token: str, session: Session) -> bool:
        """Whether ``session`` is the one held under ``token``."""
        with self._lock:
            return self._items.get(token) is session

    def drop(self, token: str, session: Session) -> None:
        """Let go of ``session`` (if it is still the one held): the next ``get`` loads it again."""
        with self._lock:
            if self._items.get(token) is session:
                del self._items[token], self._used[token]

    def recent(self, seconds: float) -> set[str]:
        """The tokens held that were used in the last ``seconds`` or are busy now."""
        with self._lock:
            now = self.clock()
            return {t for t, s in self._items.items() if now - self._used[t] < seconds or _busy(s)}

    def forget(self, tokens: Sequence[str]) -> None:
        """Let go of the sessions ``tokens`` that are held and not busy (their rows are gone)."""
        with self._lock:
            for token in tokens:
                if token in self._items and not _busy(self._items[token]):
                    del self._items[token], self._used[token]

    def get(self, token: str) -> Session:
        """The session ``token``, loaded (``load``) if it is not held: the load runs under that
        token's own lock, so it holds up no other game, and requests for it wait for one load."""
        with self._lock:
            if token in self._items:
                return self._touch(token)
            loading = self._loading.setdefault(token, threading.Lock())
        with loading:
            with self._lock:
                if token in self._items:  # another request loaded it meanwhile
                    return self._touch(token)
            session = None
            try:
                session = self.load(token)
            finally:
                with self._lock:
                    self._loading.pop(token, None)  # later requests find it held, or load it afresh
                    if session is not None:
                        self._items[token] = session
                        self._touch(token)
                        self._trim(keep=token)
            if session is None:
                raise RequestError(404, "unknown session: the link is wrong or the game has ended long ago")
            return session

    def _touch(self, token: str) -> Session:
        self._items.move_to_end(token)
        self._used[token] = self.clock()
        return self._items[token]


def _busy(session: Any) -> bool:
    """Whether ``session``'s lock is held (something is changing or reading it)."""
    lock = getattr(session, "lock", None)
    return lock is not None and lock.locked()


def client_key(address: str) -> str:
    """What a client's new games are counted under: its IPv4 address, or the /64 network of its
    IPv6 address (one home or host is given a /64 and may use any address in it); anything
    else as given."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


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
