"""The study server under load and at its edges: a move in flight survives eviction, agents move
on a bounded pool of threads, the store and the records folder are probed at start, input no
parser expects is a 4xx, old games leave the store, the new-game limit keys IPv6 by /64, records
can be private and each game has one record however often its end is replayed."""

from __future__ import annotations

import threading

import pytest

from tests.web.gated import Gate, Gated
from tests.web.test_web import make_client, new_session
from twelve_env.web import WEB as TWELVE

GATED = "py:tests.web.gated:Gated"


@pytest.fixture
def gate():
    """Install a ``Gate`` for the gated agents; always let it go afterwards."""
    made: list[Gate] = []

    def install(hold: int = 1) -> Gate:
        made.append(Gate(hold))
        Gated.gate = made[-1]
        return made[-1]

    yield install
    for each in made:
        each.release.set()
    Gated.gate = None


def _move_in_thread(client, token: str, out: dict) -> threading.Thread:
    state = client.get(f"/api/sessions/{token}").json()
    move = {"action": state["moves"][0]["action"], "version": state["version"]}
    thread = threading.Thread(target=lambda: out.update(reply=client.post(f"/api/sessions/{token}/move", json=move)))
    thread.start()
    return thread


def test_a_game_with_a_move_in_flight_is_not_evicted(tmp_path, gate):
    client, server = make_client(TWELVE, tmp_path, max_sessions=2, agents=[GATED])
    a, b = new_session(client, players=2, seed=1), new_session(client, players=2, seed=2)
    x = new_session(client, players=2, seed=3, agents={"1": GATED})  # a is evicted here
    held = gate()
    out: dict = {}
    mover = _move_in_thread(client, x, out)
    held.until_inside(1)  # the agent thinks: x's lock is held
    for token in (a, b, a, b):  # each comes back from disk and pushes another game out
        assert client.get(f"/api/sessions/{token}").status_code == 200
    assert x in server.sessions._items, "the game with a move in flight was evicted"
    held.release.set()
    mover.join(30)
    reply = out["reply"]
    assert reply.status_code == 200, reply.text
    version = reply.json()["version"]
    assert client.get(f"/api/sessions/{x}").json()["version"] == version
    assert len(server.store.load(x)["actions"]) == version
    stale = client.post(f"/api/sessions/{x}/move", json={"action": 0, "version": version - 2})
    assert stale.status_code == 409
    client.get(f"/api/sessions/{a}")  # the next load trims back to the limit
    assert len(server.sessions) == 2
