"""The web app of ``serve`` (the ``web`` extra): the Starlette routes and the ``Server`` behind them.

Routes (every page is ``static/page.html`` with ``static/app.js``; no build step):

- ``GET /``: the start page (players, your seat, the agent at every other seat, the game's
  options, a seed); ``POST /api/sessions`` starts a game and answers with its token.
- ``GET /play/{token}``; ``GET /api/sessions/{token}``: the game as the human seat sees it;
  ``POST /api/sessions/{token}/move`` with ``{"action": id, "version": n}`` plays a move,
  ``POST /api/sessions/{token}/resign`` ends the game there (it is saved as it stood).
- ``GET /replay``, ``GET /replay/{name}``; ``GET /api/records`` lists the finished games in
  ``--records`` newest first, a page at a time (``?limit=N&before=NAME``; a ``Link: rel="next"``
  header names the next page; ``sniff_twelve.web.index``), ``GET /api/records/{name}`` gives one's
  moves, ``?step=k`` its table after k of them.

The server holds every game (``sniff_twelve.web.sessions``: what a page is sent, eviction, the
rate limit); finished games are records in ``--records`` (``sniff_twelve.web.records``).

Bad requests are refused with a 4xx and a one-line ``{"error": …}`` and change nothing: 400
malformed (a number of the wrong kind or size, nesting beyond the parser, a ``Host`` the server
does not answer to), 404 unknown session or record, 403 a record path outside ``--records`` or a
request from another site (``sniff_twelve.web.guard``), 408 a body slower than ``guard.BODY_SECONDS``, 409
a stale version or a finished (or resigned) game, 413 a body over ``guard.MAX_BODY`` bytes, 415 a body
that is not JSON, 422 an illegal move (the legal ones named), 429 more than
``NEW_GAMES_PER_MINUTE`` new games from one client in a minute (with ``Retry-After``); 503 a move
or resignation the store could not save (the game stays as saved). Any other failure is a JSON 500.

Games in progress are kept in ``--records``/``sessions.sqlite3`` (``sniff_twelve.web.store``) as
how they were dealt and the actions since: after a restart the same link continues the same game
at the same version, the agents re-driven through the recorded moves so their own random streams
stand where they stood.

The server answers only to its own host names (``TrustedHostMiddleware``: the bound host,
``localhost`` and ``127.0.0.1``, plus ``--allowed-host`` names), so a web page elsewhere cannot
read it through DNS rebinding. Agents that play one checkpoint share one read-only copy of it
(``sniff_twelve.agents.policy.load_shared``). With ``seed_choice=False`` (``serve
--no-seed-choice``, for studies) the server deals every seed itself.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from sniff_twelve.core.options import check_int
from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.guard import HEADERS, Guard, read_json
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
from sniff_twelve.web.warmup import WarmingUp, warm_in_background

if TYPE_CHECKING:
    from starlette.requests import Request

    from sniff_twelve.core.agent import Agent
    from sniff_twelve.core.game import KernelGame
    from sniff_twelve.web.table import WebGame

LOG = logging.getLogger(__name__)
#: uvicorn's limits against slow or greedy clients: idle keep-alive connections close after 5 s,
#: at most 256 connections at once (503 past it), a request's head at most 16 KiB, and Ctrl-C
#: waits at most 10 s for requests in flight
LIMITS = {
    "timeout_keep_alive": 5,
    "limit_concurrency": 256,
    "h11_max_incomplete_event_size": 16 * 1024,
    "timeout_graceful_shutdown": 10,
}
LOCAL_HOSTS = ("localhost", "127.0.0.1")  #: names the server always answers to
AGENT_THREADS = max(2, os.cpu_count() or 1)  #: threads the agents move on (``Server.pool``)
STATIC = {"app.js": "text/javascript; charset=utf-8", "page.html": "text/html; charset=utf-8"}


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
        self.keep_days = check_int("keep_days", keep_days, 1, 100 * 365)
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
        session = Session(self.spec, game, human, agents, specs, seed, seed_chosen, recipe)
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
            session = Session(self.spec, game, human, agents, specs, seed, doc["seed_chosen"], recipe, doc.get("id"))
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


# --- the app -----------------------------------------------------------------------------------------
def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


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
    private_records: bool = False,
    keep_days: int = KEEP_DAYS,
    agent_threads: int = AGENT_THREADS,
) -> Starlette:
    """The ASGI app serving ``spec``'s game (see the module docstring); ``app.state.server`` is its
    ``Server``. ``hosts`` are host names it answers to beside ``LOCAL_HOSTS``."""
    server = Server(
        spec,
        records,
        checkpoints,
        defaults,
        max_sessions,
        agents,
        seed_choice,
        new_games_per_minute,
        private_records,
        keep_days,
        agent_threads,
    )
    page = _static("page.html").replace("__TITLE__", spec.ui.title.strip('"')).replace("__GAME__", spec.name)

    async def html(request: Request) -> Response:
        return HTMLResponse(page, headers=HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            raise RequestError(404, f"no file {name!r}")
        return Response(_static(name), media_type=STATIC[name], headers=HEADERS)

    async def agents_move(work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` on the server's agent threads (``Server.pool``)."""
        return await asyncio.get_running_loop().run_in_executor(server.pool, functools.partial(work, *args))

    async def config(request: Request) -> Response:
        return _json(server.config())

    async def create(request: Request) -> Response:
        body = await read_json(request)
        client = request.client.host if request.client else ""
        token = await agents_move(server.new_game, body, client)
        return _json({"token": token, "url": f"/play/{token}"}, 201)

    def current(token: str) -> dict[str, Any]:
        with server.locked(token) as session:
            return session.state()

    async def state(request: Request) -> Response:
        return _json(await run_in_threadpool(current, request.path_params["token"]))

    async def move(request: Request) -> Response:
        token = request.path_params["token"]
        await agents_move(server.sessions.get, token)  # an unknown session before anything else
        body = await read_json(request)
        if not isinstance(body, dict) or set(body) != {"action", "version"}:
            raise RequestError(400, 'a move is {"action": id, "version": n} (the version the table showed)')
        action, version = body["action"], body["version"]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (action, version)):
            raise RequestError(400, f"action and version are whole numbers; got {action!r} and {version!r}")
        return _json(await agents_move(server.move, token, action, version))

    async def resign(request: Request) -> Response:
        token = request.path_params["token"]
        await agents_move(server.sessions.get, token)  # an unknown session before anything else
        if await read_json(request) != {}:
            raise RequestError(400, "a resignation is an empty JSON object: {}")
        return _json(await agents_move(server.resign, token))

    async def records_list(request: Request) -> Response:
        limit, before = request.query_params.get("limit"), request.query_params.get("before")
        lines, more = await run_in_threadpool(server.records_page, limit, before)
        response = _json(lines)
        if more is not None:
            query = urlencode({"limit": len(lines), "before": more})
            response.headers["Link"] = f'</api/records?{query}>; rel="next"'
        return response

    async def record(request: Request) -> Response:
        name, query = request.path_params["name"], request.query_params
        return _json(await run_in_threadpool(server.replay, name, query.get("step"), query.get("token")))

    async def refused(request: Request, error: Exception) -> Response:
        if isinstance(error, RequestError):
            return JSONResponse({"error": str(error)}, status_code=error.status, headers={**HEADERS, **error.headers})
        return _json({"error": getattr(error, "detail", "bad request")}, getattr(error, "status_code", 400))

    async def failed(request: Request, error: Exception) -> Response:
        LOG.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return _json({"error": "internal error: the server logged it"}, 500)

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
        Route("/api/records/{name:path}", record),
    ]
    trusted = Middleware(TrustedHostMiddleware, allowed_hosts=[*LOCAL_HOSTS, *hosts])
    handlers = {RequestError: refused, 404: refused, 405: refused, Exception: failed}
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=[Middleware(Guard), trusted])
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
    forwarded_allow_ips: str | None = None,
    max_sessions: int = MAX_SESSIONS,
    keep_days: int = KEEP_DAYS,
    private_records: bool = False,
) -> None:
    """Run the app with uvicorn until Ctrl-C; it answers to ``host`` and ``hosts`` beside ``LOCAL_HOSTS``.
    ``X-Forwarded-For``/``-Proto`` are read only from ``forwarded_allow_ips`` (a reverse proxy's
    addresses, comma-separated; none by default), so no client can pass for another. Old games
    leave the store at start and every ``PURGE_SECONDS`` (``Server.purge``)."""
    app = create_app(
        spec,
        records,
        checkpoints,
        defaults,
        max_sessions,
        agents,
        [host, *hosts],
        seed_choice,
        private_records=private_records,
        keep_days=keep_days,
    )
    print(f"{spec.ui.title} on http://{host}:{port}/  (records: {Path(records).resolve()}; Ctrl-C stops)", flush=True)
    purge_in_background(app.state.server, threading.Event())
    print("warming up: compiling the game and its agents (once per install); the page says so meanwhile", flush=True)
    ready = threading.Event()
    warm_in_background(app.state.server, ready)
    proxied = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips else {}
    options = {"proxy_headers": False, **proxied, **LIMITS}
    uvicorn.run(WarmingUp(app, ready), host=host, port=port, log_level="warning", **options)


PURGE_SECONDS = 3600  #: how often ``serve`` removes old games from the store


def purge_in_background(server: Server, stop: threading.Event, every: float = PURGE_SECONDS) -> threading.Thread:
    """``server.purge()`` now, then every ``every`` seconds on a daemon thread until ``stop``; each
    prints how many games it removed (the first always, the others when there were any)."""

    def purge(always: bool) -> None:
        removed = server.purge()
        if removed or always:
            print(f"store: removed {removed} games nobody moved in for {server.keep_days} days", flush=True)

    def run() -> None:
        while not stop.wait(every):
            try:
                purge(always=False)
            except Exception:  # a store busy or full now is tried again next time
                LOG.exception("the store could not be purged; trying again in %s s", every)

    purge(always=True)
    thread = threading.Thread(target=run, name="purge", daemon=True)
    thread.start()
    return thread
