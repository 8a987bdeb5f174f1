"""The server's work behind the routes (``sniff_twelve.web.server``): a ``Server`` starts games and
plays their moves on its pool of agent threads, keeps them in the store and their records in the
records folder, rebuilds them after a restart or an eviction, removes old ones, and lists and
replays the finished games (only with a game's token if they are private).
"""

from __future__ import annotations

import logging
import os
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.core.options import check_int
from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.index import RecordIndex
from sniff_twelve.web.records import replay, write_record
from sniff_twelve.web.sessions import (
    KEEP_DAYS,
    MAX_SESSIONS,
    NEW_GAMES_PER_MINUTE,
    RateLimit,
    Session,
    Sessions,
    client_key,
)
from sniff_twelve.web.store import SessionStore, check_writable
from sniff_twelve.web.table import parse_option

if TYPE_CHECKING:
    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.web.table import WebGame

LOG = logging.getLogger(__name__)
AGENT_THREADS = max(2, os.cpu_count() or 1)  #: threads the agents move on (``Server.pool``)


class Server:
    """The routes' work: ``spec``'s games, records in ``records``, ``checkpoints`` offered as
    ``ppo:PATH`` agents and ``agents`` (more specs, e.g. ``py:package.module:Name``) beside the
    built-ins, ``defaults`` (players and game options) on the start page. With
    ``private_records`` no one lists the finished games and a record replays only with its
    game's token."""

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
        private_records: bool = False,
        keep_days: int = KEEP_DAYS,
        agent_threads: int = AGENT_THREADS,
    ) -> None:
        self.spec = spec
        #: where the agents move (new games, moves, resignations, games rebuilt for them): off the
        #: event loop, at most ``agent_threads`` at once, so a search holds up no other request
        self.pool = ThreadPoolExecutor(check_int("agent_threads", agent_threads, 1), thread_name_prefix="agents")
        self.keep_days = check_int("keep_days", keep_days, 1)
        self.seed_choice = seed_choice
        self.private_records = private_records
        self.new_games = RateLimit(new_games_per_minute)
        self.records = Path(records)
        self.agents = [*spec.agents, *(f"ppo:{path}" for path in checkpoints), *agents]
        #: per number of players, the agents that can play at such a table (a checkpoint fits one)
        self.seatable = {n: [name for name in self.agents if self._plays(name, n)] for n in spec.players}
        self.defaults = {"players": spec.players[0], "agent": "heuristic", **(defaults or {})}
        #: the game options the start page does not offer (``web=False``), as ``serve`` gave them:
        #: they hold for every game this server starts
        self.fixed = {
            option.name: self.defaults[option.name]
            for option in spec.game_cls.spec.options
            if not option.web and option.name in self.defaults
        }
        check_writable(self.records)  # a folder it cannot write stops the server here (UnwritableError)
        self.store = SessionStore(self.records / "sessions.sqlite3")
        self.store.check()  # and so does a damaged or read-only store (DamagedStoreError, UnwritableError)
        self.index = RecordIndex(self.records, self.store)
        self.sessions = Sessions(max_sessions, load=self._restore)

    def _plays(self, name: str, players: int) -> bool:
        try:
            self.spec.make_agent(name).check_table(players)
        except ValueError:
            return False
        return True

    # --- sessions -------------------------------------------------------------------------------
    def start(
        self,
        game: BaseGame,
        human: int,
        agents: dict[int, Agent],
        specs: dict[int, str],
        seed: int | None = None,
        seed_chosen: bool = False,
        recipe: dict[str, Any] | None = None,
        names: list[str] | None = None,
    ) -> str:
        """Seat ``agents`` (named by ``specs``) around ``human`` in ``game``, let them move until the
        human is to act; the new session's token. With a ``recipe`` (how ``game`` was dealt: players
        and options, beside ``seed``) the game is kept on disk and survives a restart; ``names``:
        how the page names the seats (``Session``)."""
        session = Session(self.spec, game, human, agents, specs, seed, seed_chosen, recipe, names=names)
        with session.lock:
            session.advance()
            token = self.sessions.add(session)
            try:
                self.keep(token, session)
            except Exception as error:  # a game that is not on disk is not handed out
                self.sessions.drop(token, session)
                LOG.exception("a new game could not be saved")
                said = f"the new game could not be saved ({type(error).__name__}): try again"
                raise RequestError(503, said) from None
            self._write_record(token, session)
        return token

    def warm_up(self, moves: int = 40) -> float:
        """Compile what the start page's default game needs (or load numba's cache) before a player
        waits for it: ``moves`` moves of a game at the default table against the default agent,
        drawn as the page draws it (nothing is kept or recorded); the seconds it took. The other
        agents the page offers warm up after it, while the page serves (``warmup.warm_up_agents``)."""
        start = time.perf_counter()
        players, agent = self.defaults["players"], self.defaults["agent"]
        game = self.spec.game_cls(num_players=players, seed=0)
        others = {seat: self.spec.make_agent(agent) for seat in range(1, players)}
        session = Session(self.spec, game, 0, others, dict.fromkeys(others, agent), 0)  # no record is written
        session.advance()
        for _ in range(moves):
            state = session.state()
            if not state["moves"]:
                break
            session.move(state["moves"][0]["action"], state["version"])
        return time.perf_counter() - start

    @contextmanager
    def locked(self, token: str) -> Iterator[Session]:
        """Session ``token`` under its lock (the one held then: a rolled-back game is fetched again)."""
        while True:
            session = self.sessions.get(token)
            with session.lock:
                if self.sessions.holds(token, session):
                    yield session
                    return

    def move(self, token: str, action: int, version: int) -> dict[str, Any]:
        """Play the human's move in session ``token``, keep the game on disk; the new state."""
        return self._change(token, lambda session: session.move(action, version), "move")

    def resign(self, token: str) -> dict[str, Any]:
        """End session ``token``'s game where it stands, save it; the final state."""
        return self._change(token, Session.resign, "resignation")

    def _change(self, token: str, change: Callable[[Session], None], what: str) -> dict[str, Any]:
        """``change`` session ``token`` and keep it; if that fails past the checks (``RequestError``
        changes nothing), the game goes back to its last saved state and a 503 says so. A game that
        ended is written to its record once the store holds its end."""
        with self.locked(token) as session:
            try:
                change(session)
                self.keep(token, session)
            except RequestError:
                raise
            except Exception as error:
                if session.recipe is not None:  # the store has the game as it was: fetched again
                    self.sessions.drop(token, session)
                LOG.exception("session %s: the %s could not be saved", token[:6], what)
                said = f"the {what} could not be saved: nothing changed ({type(error).__name__}: {error}); try again"
                raise RequestError(503, said) from None
            self._write_record(token, session)
            return session.state()

    def keep(self, token: str, session: Session) -> None:
        """Write ``session`` to the store (games dealt from a recipe only)."""
        if session.recipe is not None:
            self.store.save(token, session.doc())

    def _write_record(self, token: str, session: Session) -> None:
        """Write a finished game's record if its file is not there yet. A failure is logged and the
        game let go from memory (it is in the store), so its next request writes the record again."""
        if session.record is None or (self.records / session.record).exists():
            return
        try:
            write_record(self.records, session.record, session.record_doc())
        except OSError:
            LOG.exception("session %s: its record %s could not be written", token[:6], session.record)
            if session.recipe is not None:
                self.sessions.drop(token, session)

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
            names = doc.get("names")
            session = Session(
                self.spec, game, human, agents, specs, seed, doc["seed_chosen"], recipe, doc.get("id"), names
            )
            session.replay(doc["actions"])
        except (KeyError, TypeError, ValueError):
            return None
        session.think_ms, session.started, session.record = doc["think_ms"], doc["started"], doc["record"]
        session.finished = doc.get("finished")
        if doc.get("resigned"):
            session.mark_resigned()
        self._write_record(token, session)  # a server stopped between the store and the file
        return session

    def purge(self) -> int:
        """Remove from the store every game nobody moved in for ``keep_days`` days, finished or not,
        but one held in memory and used within them (or busy now); how many went."""
        days = self.keep_days * 86_400
        gone = self.store.purge(time.time() - days, spare=self.sessions.recent(days))
        self.sessions.forget(gone)
        return len(gone)

    def new_game(self, body: Any, client: str = "") -> str:
        """Start a game from the start page's choices (see ``config``); ``RequestError`` 400 if any is
        bad, 429 if ``client`` (an address: IPv6 counts by its /64, ``client_key``) started too
        many games in the last minute."""
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
            kwargs = {**self.fixed, **{name: parse_option(option, options.get(name)) for name, option in known.items()}}
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
        self.new_games.check(client_key(client))
        return self.start(game, seat, agents, specs, seed, seed_chosen, {"players": players, "options": kwargs})

    def records_page(self, limit: str | None, before: str | None) -> tuple[list[dict], str | None]:
        """A page of the records list (``RecordIndex.page``); ``RequestError`` 403 if they are private."""
        if self.private_records:
            raise RequestError(403, "the finished games on this server are private: no one lists them")
        return self.index.page(self.spec.name, limit, before)

    def replay(self, name: str, step: str | None, token: str | None = None) -> dict[str, Any]:
        """Record ``name`` replayed (``records.replay``); if records are private, only with ``token``,
        its game's token (``RequestError`` 403 otherwise)."""
        if self.private_records:
            doc = self.store.load(token) if token else None
            if doc is None or doc.get("record") != name:
                raise RequestError(
                    403, "the finished games on this server are private: a game replays from its own page"
                )
        return replay(self.spec, self.records, name, step)

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
