"""What every response of the web app carries and what every state-changing request must show.

``Guard`` is an ASGI middleware around the whole app:

- every response gets ``HEADERS``: a Content-Security-Policy (only the page's own scripts and
  styles; ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``, so no other site can frame a
  game and click for its player), ``Referrer-Policy: no-referrer`` (a game's token is in its URL),
  ``nosniff``, ``no-store``;
- a request that is not ``GET``/``HEAD`` must come from the server's own pages: an ``Origin``
  header, if sent, names the host the request was sent to, and ``Sec-Fetch-Site``, if sent, is not
  ``cross-site``; anything else is a 403 before any route sees it. (Browsers send both with every
  cross-site request, forms included; scripts and tools that send neither are let through.)
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
SAFE_METHODS = ("GET", "HEAD")
_RAW = [(name.lower().encode(), value.encode()) for name, value in HEADERS.items()]


def foreign(headers: dict[str, str]) -> bool:
    """Whether a request with these (lower-case) ``headers`` comes from another site."""
    if headers.get("sec-fetch-site") == "cross-site":
        return True
    origin = headers.get("origin")
    return origin is not None and urlsplit(origin).netloc.lower() != headers.get("host", "").lower()


class Guard:
    """The headers on every response, the same-origin check on every state-changing request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                taken = {name for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in _RAW if name not in taken]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
        if scope["method"] not in SAFE_METHODS and foreign(headers):
            body = json.dumps({"error": "refused: the request comes from another site (Origin)"}).encode()
            await send_with_headers(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
                }
            )
            await send_with_headers({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send_with_headers)
