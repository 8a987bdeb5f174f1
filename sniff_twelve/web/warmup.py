"""The port opens at once: while the game and its default agent compile (``Server.warm_up``), the
app answers every request with what it will be — the page says it is warming up and reloads itself
each second, the API answers 503 with ``Retry-After: 1`` — and from the moment that warm-up ends it
serves as usual, while the other agents it offers compile on the same thread
(``warm_up_agents``). ``serve`` wraps its app in ``WarmingUp`` and warms up on a thread
beside it.
"""

from __future__ import annotations

import json
import threading
import time
from typing import TYPE_CHECKING

from sniff_twelve.web.guard import HEADERS

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from sniff_twelve.web.service import Server

PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    '<meta http-equiv="refresh" content="1"><title>Warming up</title></head>'
    "<body><p>Warming up: compiling the game and its agents (once per install). "
    "This page reloads itself when the table is ready.</p></body></html>"
)
_HEADERS = [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]


class WarmingUp:
    """ASGI middleware: until ``ready`` is set, the warming-up page at ``/`` (and every page) and
    503 for the API; then ``app`` itself."""

    def __init__(self, app: ASGIApp, ready: threading.Event) -> None:
        self.app, self.ready = app, ready

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.ready.is_set():
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith("/api/"):
            status, kind = 503, b"application/json"
            body = json.dumps({"error": "warming up: try again in a moment"}).encode()
        else:
            status, kind, body = 200, b"text/html; charset=utf-8", PAGE.encode()
        headers = [(b"content-type", kind), (b"retry-after", b"1"), *_HEADERS]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def warm_up_agents(server: Server) -> float:
    """One position for every agent ``server``'s start page offers at its default table, so the
    first game against each does not wait for it to compile; the seconds it took."""
    start = time.perf_counter()
    players = server.defaults["players"]
    game = server.spec.game_cls(num_players=players, seed=0)
    for name in server.seatable[players]:
        server.spec.make_agent(name).act(game)
    return time.perf_counter() - start


def warm_in_background(server: Server, ready: threading.Event) -> threading.Thread:
    """On a daemon thread: ``server.warm_up()``, then set ``ready`` and say so; then the other
    agents (``warm_up_agents``), while the page serves, and say so."""

    def run() -> None:
        print(f"ready in {server.warm_up():.1f} s", flush=True)
        ready.set()
        print(f"every agent ready in {warm_up_agents(server):.1f} s more", flush=True)

    thread = threading.Thread(target=run, name="warm-up", daemon=True)
    thread.start()
    return thread
