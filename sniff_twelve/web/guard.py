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

``read_json`` reads a request's body: JSON only (415), at most ``MAX_BODY`` bytes (413), within
``BODY_SECONDS`` (408), and text only (400 for a lone surrogate such as ``"\\ud800"``, which no
reply could quote).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio

from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.records import STEP

if TYPE_CHECKING:
    from starlette.requests import Request
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
MAX_BODY = 8 * 1024  #: bytes a request body may have
BODY_SECONDS = 10  #: a request body must arrive within this (else 408)
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


async def read_json(request: Request) -> Any:
    """The request's JSON body; ``RequestError`` if it is not JSON or longer than ``MAX_BODY``."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise RequestError(415, "send the request body as JSON (Content-Type: application/json)")
    length = request.headers.get("content-length", "0")
    if not STEP.fullmatch(length) or int(length) > MAX_BODY:
        raise RequestError(413, f"request body too large: at most {MAX_BODY} bytes")
    body = b""
    with anyio.move_on_after(BODY_SECONDS) as timer:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise RequestError(413, f"request body too large: at most {MAX_BODY} bytes")
    if timer.cancelled_caught:
        raise RequestError(408, f"the request body did not arrive within {BODY_SECONDS} s")
    try:
        value = json.loads(body)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # no lone surrogate ("\\ud800") anywhere
    except (ValueError, RecursionError) as error:  # not JSON, not UTF-8, a number too long, nesting too deep
        raise RequestError(400, f"the request body is not JSON the server can read: {type(error).__name__}") from None
    return value
