"""The one error the web app's layers raise for a request they turn down (see ``server``)."""

from __future__ import annotations


class RequestError(Exception):
    """A request the server turns down: ``status``, a message for the page and any headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers or {}
