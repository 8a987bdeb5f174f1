"""Games in progress survive a restart: the same link continues the same game at the same version
(in-process, and a real server killed with SIGKILL mid-game), finished records stay intact, and
the agents' own random streams continue where they stood."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from sniff_env.web import WEB as SNIFF
from tests.web.test_web import make_client, new_session, play_out


def _moves(client, token: str, count: int) -> list[dict]:
    """Play the first offered move ``count`` times (or to the end); every state seen."""
    states = []
    state = client.get(f"/api/sessions/{token}").json()
    for _ in range(count):
        if state["over"]:
            break
        move = {"action": state["moves"][0]["action"], "version": state["version"]}
        state = client.post(f"/api/sessions/{token}/move", json=move).json()
        states.append(state)
    return states


def test_a_restarted_app_continues_every_game_exactly(tmp_path):
    """Two apps on one records folder stand for a server before and after a restart: the second
    rebuilds the game from disk and, with the stochastic ``rollout`` agent, plays on exactly as the
    first would have."""
    first, _ = make_client(SNIFF, tmp_path)
    token = new_session(first, players=2, agents={"1": "rollout"}, seed=11, options={"target": 60})
    _moves(first, token, 3)
    before = first.get(f"/api/sessions/{token}").json()
    restarted, server = make_client(SNIFF, tmp_path)
    assert len(server.sessions) == 0
    assert restarted.get(f"/api/sessions/{token}").json() == before
    assert _moves(restarted, token, 6) == _moves(first, token, 6)  # the agent's stream stood where it was
    final = play_out(restarted, token)
    assert final["over"] and json.loads((tmp_path / final["record"]).read_text())["session"]["seed"] == 11


class Http:
    """Just enough of a client for ``new_session`` / ``play_out`` against a real server (stdlib)."""

    encode = staticmethod(json.dumps)  # before ``post``'s argument named json hides the module

    def __init__(self, base: str) -> None:
        self.base = base

    def _send(self, request: urllib.request.Request) -> Http.Response:
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return Http.Response(reply.status, reply.read().decode())
        except urllib.error.HTTPError as error:
            return Http.Response(error.code, error.read().decode())

    def get(self, path: str) -> Http.Response:
        return self._send(urllib.request.Request(self.base + path))

    def post(self, path: str, json: dict) -> Http.Response:
        body = self.encode(json).encode()
        return self._send(urllib.request.Request(self.base + path, body, {"Content-Type": "application/json"}))

    class Response:
        def __init__(self, status_code: int, text: str) -> None:
            self.status_code, self.text = status_code, text

        def json(self) -> dict:
            return json.loads(self.text)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(records, port) -> subprocess.Popen:
    command = [sys.executable, "-m", "sniff_env", "serve", "--port", str(port), "--records", str(records)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(600):
        with contextlib.suppress(OSError):  # not listening yet
            if Http(f"http://127.0.0.1:{port}").get("/api/config").status_code == 200:  # 503: warming up
                return server
        time.sleep(0.1)
    os.killpg(server.pid, signal.SIGKILL)
    pytest.fail(f"the server did not start: {server.stderr.read().decode()[-2000:]}")


def test_a_server_killed_mid_game_continues_it_after_a_restart(tmp_path):
    records, port = tmp_path / "records", _free_port()
    client = Http(f"http://127.0.0.1:{port}")
    server = _start(records, port)
    try:
        done = play_out(client, new_session(client, players=2, agents={"1": "greedy"}, options={"target": 30}))
        token = new_session(client, players=2, agents={"1": "heuristic"}, seed=7)
        _moves(client, token, 4)
        before = client.get(f"/api/sessions/{token}").json()
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # mid-game, no chance to tidy up
        server.wait()
    record = json.loads((records / done["record"]).read_text())
    assert record["result"]["winner"] is not None
    server = _start(records, port)
    try:
        after = client.get(f"/api/sessions/{token}").json()
        assert after == before and after["version"] > 0
        assert _moves(client, token, 1)[0]["version"] > before["version"]  # and it plays on
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def test_serve_answers_at_once_while_it_warms_up(tmp_path):
    """The port opens before the game and its agents are compiled: the first answer is the
    warming-up one (the API: 503 with ``Retry-After``), and the page is served once warm."""
    port = _free_port()
    command = [sys.executable, "-m", "sniff_env", "serve", "--port", str(port), "--records", str(tmp_path)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    client, first = Http(f"http://127.0.0.1:{port}"), None
    try:
        for _ in range(600):
            try:
                first = client.get("/api/config")
                break
            except OSError:
                time.sleep(0.05)
        assert first is not None and first.status_code == 503 and "warming up" in first.json()["error"]
        for _ in range(1200):
            if client.get("/api/config").status_code == 200:
                break
            time.sleep(0.1)
        page = client.get("/")
        assert page.status_code == 200 and "Warming up" not in page.text and "app.js" in page.text
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
