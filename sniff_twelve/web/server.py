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
  moves, ``?step=k`` its table after k of them. With ``private_records`` (``serve
  --private-records``) the list is a 403 and a record replays only with ``?token=`` its game's token.

With a study (``study run``, ``create_app(study=…)``, ``serve_study``) the app serves that study
only: the participants' pages at ``/study/{id}``, its admin page, and the games' own routes above
(``study_routes``; the participants' way through is ``sniff_twelve.web.participants``).

The server holds every game (``sniff_twelve.web.sessions``: what a page is sent, eviction, the
rate limit); finished games are records in ``--records`` (``sniff_twelve.web.records``). The agents
move on a pool of ``service.AGENT_THREADS`` threads of their own (``Server.pool``: new games, moves,
resignations), never on the event loop, so every other request is answered while they think;
each game's lock orders what happens to it.

Bad requests are refused with a 4xx and a one-line ``{"error": …}`` and change nothing: 400
malformed (a number of the wrong kind or size, nesting beyond the parser, a lone surrogate, a
``Host`` the server does not answer to), 404 unknown session or record, 403 a record path outside
``--records`` (or a name over ``records.MAX_NAME`` characters), a private record or a request from
another site (``sniff_twelve.web.guard``), 408 a body slower than ``guard.BODY_SECONDS``, 409 a
stale version or a finished (or resigned) game, 413 a body over ``guard.MAX_BODY`` bytes, 415 a body
that is not JSON, 422 an illegal move (the legal ones named), 429 more than
``sessions.NEW_GAMES_PER_MINUTE`` new games from one client in a minute (with ``Retry-After``); 503 a move
or resignation the store could not save (the game stays as saved). Any other failure is a JSON 500.

Games in progress are kept in ``--records``/``sessions.sqlite3`` (``sniff_twelve.web.store``) as
how they were dealt and the actions since: after a restart the same link continues the same game
at the same version, the agents re-driven through the recorded moves so their own random streams
stand where they stood. At start the server refuses a records folder or a store it cannot write
(``store.UnwritableError``) or a damaged store (``store.DamagedStoreError``), and removes the games
nobody moved in for ``keep_days`` days (``Server.purge``; then hourly, ``purge_in_background``).

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
import secrets
import threading
from collections.abc import Callable, Sequence
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

from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.guard import HEADERS, Guard, read_json
from sniff_twelve.web.participants import StudyService
from sniff_twelve.web.service import Server
from sniff_twelve.web.warmup import WarmingUp, warm_in_background

if TYPE_CHECKING:
    from starlette.requests import Request

    from sniff_twelve.web.study import Study
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
STATIC = {
    "app.js": "text/javascript; charset=utf-8",
    "study.js": "text/javascript; charset=utf-8",
    "page.html": "text/html; charset=utf-8",
}


# --- the app -----------------------------------------------------------------------------------------
def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


def _static(name: str) -> str:
    return resources.files("sniff_twelve.web").joinpath("static", name).read_text(encoding="utf-8")


def create_app(
    spec: WebGame,
    records: Path,
    hosts: Sequence[str] = (),
    study: Study | None = None,
    admin_token: str | None = None,
    **settings: Any,
) -> Starlette:
    """The ASGI app serving ``spec``'s game (see the module docstring); ``app.state.server`` is its
    ``Server``, made with ``settings`` (``Server``'s keyword arguments: checkpoints, agents, the
    start page's defaults, the limits). ``hosts`` are host names it answers to beside ``LOCAL_HOSTS``.
    With a ``study`` it serves that study only (``study_routes``): no start page, no new games but
    the study's, no resigning, private records; ``admin_token`` opens its admin page."""
    if study is not None:
        settings = {**settings, "private_records": True, "seed_choice": False}
    server = Server(spec, records, **settings)
    service = None if study is None else StudyService(study, server)
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
    if service is not None:
        played = ("/static/{name}", "/api/sessions/{token}", "/api/sessions/{token}/move")
        routes = [route for route in routes if route.path in played]
        routes += study_routes(service, page, admin_token or "", agents_move)
    trusted = Middleware(TrustedHostMiddleware, allowed_hosts=[*LOCAL_HOSTS, *hosts])
    handlers = {RequestError: refused, 404: refused, 405: refused, Exception: failed}
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=[Middleware(Guard), trusted])
    app.state.server = server
    app.state.study = service
    return app


def study_routes(service: StudyService, page: str, admin_token: str, agents_move: Callable[..., Any]) -> list[Route]:
    """The routes of a study (``study run``):

    - ``GET /study/{id}?p=CODE``: the participant's page; ``GET /api/study/{id}?p=CODE`` where
      they stand (``StudyService.state``); ``POST /api/study/{id}/consent`` ``{"p", "agree"}``,
      ``/next`` ``{"p", "key"}`` (leave a finished hand), ``/answers`` ``{"p", "key", "answers"}``,
      ``/withdraw`` ``{"p"}``; the hands are played through ``/api/sessions/{token}``.
    - ``GET /study/{id}/admin``: the admin page, which sends the token it is given after ``#``
      as ``Authorization: Bearer TOKEN`` to ``GET /api/study/{id}/admin`` (progress) and
      ``GET /api/study/{id}/export.csv`` (the data, ``sniff_twelve.web.study_data``); 401
      without the token, 403 with another.
    """
    study_id = service.study.id
    study_page = page.replace('data-game="', f'data-study="{study_id}" data-game="')

    def known(request: Request) -> None:
        if request.path_params["study"] != study_id:
            raise RequestError(404, f"no study {request.path_params['study']!r} on this server")

    def admin(request: Request) -> None:
        known(request)
        given = request.headers.get("authorization", "")
        if not given.startswith("Bearer "):
            raise RequestError(401, "the admin pages need the admin token (Authorization: Bearer TOKEN)")
        if not admin_token or not secrets.compare_digest(given[7:].encode(), admin_token.encode()):
            raise RequestError(403, "wrong admin token")

    async def html(request: Request) -> Response:
        known(request)
        return HTMLResponse(study_page, headers=HEADERS)

    async def state(request: Request) -> Response:
        known(request)
        return _json(await agents_move(service.state, request.query_params.get("p")))

    def posted(method: Callable[..., dict[str, Any]], *fields: str) -> Callable[[Request], Any]:
        async def route(request: Request) -> Response:
            known(request)
            body = await read_json(request)
            if not isinstance(body, dict) or set(body) != {"p", *fields}:
                raise RequestError(400, f"send a JSON object with p{''.join(', ' + f for f in fields)}")
            return _json(await agents_move(method, body["p"], *(body[f] for f in fields)))

        return route

    async def progress(request: Request) -> Response:
        admin(request)
        return _json(await run_in_threadpool(service.progress))

    async def export(request: Request) -> Response:
        admin(request)
        from sniff_twelve.web.study_data import csv_text, study_rows

        _, rows, _ = await run_in_threadpool(study_rows, service.server.records, service.server.spec)
        headers = {**HEADERS, "Content-Disposition": f'attachment; filename="{study_id}.csv"'}
        return Response(csv_text(rows), media_type="text/csv; charset=utf-8", headers=headers)

    return [
        Route("/study/{study}", html),
        Route("/study/{study}/admin", html),
        Route("/api/study/{study}", state),
        Route("/api/study/{study}/consent", posted(service.consent, "agree"), methods=["POST"]),
        Route("/api/study/{study}/next", posted(service.next, "key"), methods=["POST"]),
        Route("/api/study/{study}/answers", posted(service.answer, "key", "answers"), methods=["POST"]),
        Route("/api/study/{study}/withdraw", posted(service.withdraw), methods=["POST"]),
        Route("/api/study/{study}/admin", progress),
        Route("/api/study/{study}/export.csv", export),
    ]


def serve(
    spec: WebGame,
    host: str,
    port: int,
    records: Path,
    hosts: Sequence[str] = (),
    forwarded_allow_ips: str | None = None,
    **settings: Any,
) -> None:
    """Run the app with uvicorn until Ctrl-C; it answers to ``host`` and ``hosts`` beside ``LOCAL_HOSTS``.
    ``X-Forwarded-For``/``-Proto`` are read only from ``forwarded_allow_ips`` (a reverse proxy's
    addresses, comma-separated; none by default), so no client can pass for another. Old games
    leave the store at start and every ``PURGE_SECONDS`` (``Server.purge``). ``settings``:
    ``Server``'s keyword arguments, as ``create_app`` takes them."""
    app = create_app(spec, records, [host, *hosts], **settings)
    print(f"{spec.ui.title} on http://{host}:{port}/  (records: {Path(records).resolve()}; Ctrl-C stops)", flush=True)
    purge_in_background(app.state.server, threading.Event())
    print("warming up: compiling the game and its agents (once per install); the page says so meanwhile", flush=True)
    ready = threading.Event()
    warm_in_background(app.state.server, ready)
    proxied = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips else {}
    options = {"proxy_headers": False, **proxied, **LIMITS}
    uvicorn.run(WarmingUp(app, ready), host=host, port=port, log_level="warning", **options)


def serve_study(
    spec: WebGame,
    study: Study,
    host: str,
    port: int,
    records: Path,
    admin_token: str,
    hosts: Sequence[str] = (),
    forwarded_allow_ips: str | None = None,
) -> None:
    """Run ``study`` with uvicorn until Ctrl-C (``serve``'s limits and hosts): it prints the
    participants' link and the admin page's. While the conditions' agents compile (one hand of
    each, ``StudyService.warm_up``) the pages say they are warming up."""
    app = create_app(spec, records, [host, *hosts], study=study, admin_token=admin_token)
    base = f"http://{host}:{port}"
    print(f"study {study.id}: {spec.ui.title}, records in {Path(records).resolve()} (Ctrl-C stops)", flush=True)
    print(f"participants: {base}/study/{study.id}?p=CODE  (a code of their own each)", flush=True)
    print(f"admin: {base}/study/{study.id}/admin#{admin_token}", flush=True)
    ready = threading.Event()

    def warm() -> None:
        print(f"ready in {app.state.study.warm_up():.1f} s", flush=True)
        ready.set()

    threading.Thread(target=warm, name="warm-up", daemon=True).start()
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
