"""The server keeps its word under failure and attack: a move that cannot be saved is not played,
state-changing requests from other sites are refused, a damaged store stops the server at start,
long records replay in bounded time and memory, the records list is indexed and paged, and a
restore does not hold up other games."""

from __future__ import annotations

import sqlite3

from starlette.testclient import TestClient

from sniff_env.web import WEB as SNIFF
from sniff_twelve.web.server import create_app
from tests.web.test_web import new_session


def _client(records, **kwargs) -> tuple[TestClient, object]:
    app = create_app(SNIFF, records, **kwargs)
    return TestClient(app, base_url="http://localhost", raise_server_exceptions=False), app.state.server


def _first_move(state: dict) -> dict:
    return {"action": state["moves"][0]["action"], "version": state["version"]}


# --- a move is saved before it counts -----------------------------------------------------------------
def test_a_move_that_cannot_be_saved_is_not_played(tmp_path, monkeypatch):
    client, server = _client(tmp_path)
    token = new_session(client, players=2, agents={"1": "greedy"}, seed=4)
    before = client.get(f"/api/sessions/{token}").json()

    def full_disk(*args):
        raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patched:
        patched.setattr(server.store, "save", full_disk)
        refused = client.post(f"/api/sessions/{token}/move", json=_first_move(before))
        assert refused.status_code == 503 and "nothing changed" in refused.json()["error"], refused.text
        assert client.get(f"/api/sessions/{token}").json() == before
        assert client.post(f"/api/sessions/{token}/resign", json={}).status_code == 503
        assert client.get(f"/api/sessions/{token}").json() == before and not list(tmp_path.glob("*.json"))
    played = client.post(f"/api/sessions/{token}/move", json=_first_move(before))
    assert played.status_code == 200 and played.json()["version"] > before["version"]


def test_an_unexpected_failure_is_a_json_500(tmp_path, monkeypatch):
    client, server = _client(tmp_path)
    monkeypatch.setattr(server, "config", lambda: 1 / 0)
    response = client.get("/api/config")
    assert response.status_code == 500 and response.json() == {"error": "internal error: the server logged it"}
