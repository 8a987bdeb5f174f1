"""The server keeps its word under failure and attack: a move that cannot be saved is not played,
state-changing requests from other sites are refused, a damaged store stops the server at start,
long records replay in bounded time and memory, the records list is indexed and paged, and a
restore does not hold up other games."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sniff_env.web import WEB as SNIFF
from sniff_twelve.core.records import replay_steps
from sniff_twelve.web.server import create_app
from sniff_twelve.web.sessions import Sessions
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
        refused = client.post("/api/sessions", json={"players": 2})
        assert refused.status_code == 503 and "could not be saved" in refused.json()["error"]
        assert len(server.sessions) == 1
    played = client.post(f"/api/sessions/{token}/move", json=_first_move(before))
    assert played.status_code == 200 and played.json()["version"] > before["version"]


def test_an_unexpected_failure_is_a_json_500(tmp_path, monkeypatch):
    client, server = _client(tmp_path)
    monkeypatch.setattr(server, "config", lambda: 1 / 0)
    response = client.get("/api/config")
    assert response.status_code == 500 and response.json() == {"error": "internal error: the server logged it"}


# --- requests from other sites, headers, proxies, timeouts ---------------------------------------------
def test_state_changing_requests_from_another_site_are_refused(tmp_path):
    client, server = _client(tmp_path)
    token = new_session(client, players=2, seed=4)
    before = client.get(f"/api/sessions/{token}").json()
    form = {"content-type": "application/x-www-form-urlencoded", "origin": "https://evil.example"}
    assert client.post(f"/api/sessions/{token}/resign", content="x=1", headers=form).status_code == 403
    assert client.post(f"/api/sessions/{token}/resign", content="x=1").status_code == 415  # a form, same site
    foreign = {"origin": "https://evil.example"}
    for path, body in [(f"/api/sessions/{token}/move", _first_move(before)), ("/api/sessions", {"players": 2})]:
        response = client.post(path, json=body, headers=foreign)
        assert response.status_code == 403 and "another site" in response.json()["error"], response.text
    cross_site = {"sec-fetch-site": "cross-site"}
    assert client.post(f"/api/sessions/{token}/move", json=_first_move(before), headers=cross_site).status_code == 403
    assert client.get(f"/api/sessions/{token}").json() == before and len(server.sessions) == 1
    own = client.post(f"/api/sessions/{token}/move", json=_first_move(before), headers={"origin": "http://localhost"})
    assert own.status_code == 200


def test_pages_may_not_be_framed_and_send_no_referrer(tmp_path):
    client, _ = _client(tmp_path)
    token = new_session(client, players=2)
    for path in ["/", f"/play/{token}", f"/api/sessions/{token}", "/api/records", "/static/app.js", "/nowhere"]:
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert headers["x-frame-options"] == "DENY" and headers["referrer-policy"] == "no-referrer", path


def test_forwarded_headers_are_trusted_only_when_configured_and_slow_clients_time_out(tmp_path, monkeypatch):
    from sniff_env.__main__ import main
    from sniff_twelve.web import server as web_server

    runs = []
    monkeypatch.setattr(web_server.uvicorn, "run", lambda app, **kwargs: runs.append(kwargs))
    monkeypatch.setattr(web_server.Server, "warm_up", lambda self: 0.0)
    assert main(["serve", "--records", str(tmp_path)]) == 0
    assert main(["serve", "--records", str(tmp_path), "--forwarded-allow-ips", "10.0.0.2"]) == 0
    plain, proxied = runs
    assert plain["proxy_headers"] is False and proxied["proxy_headers"] is True
    assert proxied["forwarded_allow_ips"] == "10.0.0.2"
    for kwargs in runs:
        assert kwargs["timeout_keep_alive"] <= 5 and kwargs["timeout_graceful_shutdown"] <= 10
        assert kwargs["limit_concurrency"] and kwargs["h11_max_incomplete_event_size"] <= 16 * 1024


def test_the_records_list_shows_only_what_replay_serves(tmp_path):
    client, _ = _client(tmp_path / "records")
    outside = tmp_path / "secret.json"
    outside.write_text('{"game": "sniff", "options": {"num_players": 2}, "actions": [], "result": {"scores": [1]}}')
    (tmp_path / "records").mkdir(exist_ok=True)
    (tmp_path / "records" / "20990101-000000-sniff-link.json").symlink_to(outside)
    assert client.get("/api/records/20990101-000000-sniff-link.json").status_code == 403
    assert client.get("/api/records").json() == []


def test_eviction_keeps_the_game_on_disk_and_brings_it_back(tmp_path):
    client, server = _client(tmp_path, max_sessions=1)
    old = new_session(client, players=2, seed=6)
    before = client.get(f"/api/sessions/{old}").json()
    new_session(client, players=2)
    assert len(server.sessions) == 1 and len(server.store) == 2
    assert client.get(f"/api/sessions/{old}").json() == before


# --- a damaged store stops the server at start -------------------------------------------------------
def test_a_damaged_store_is_refused_at_start_in_one_line(tmp_path, capsys, monkeypatch):
    from sniff_env.__main__ import main
    from sniff_twelve.web import server as web_server
    from tests.bounds import usage_error

    client, server = _client(tmp_path, new_games_per_minute=100)
    for seed in range(40):
        new_session(client, players=2, seed=seed)
    client.close()
    server.store._db(False).close()  # as a stopped server leaves it
    path = tmp_path / "sessions.sqlite3"
    assert path.stat().st_size > 8192 and not (tmp_path / "sessions.sqlite3-wal").exists()
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 2)
    with pytest.raises(ValueError, match=r"sessions\.sqlite3 is damaged") as refused:
        create_app(SNIFF, tmp_path)
    assert "\n" not in str(refused.value) and "move it aside" in str(refused.value)
    monkeypatch.setattr(web_server.uvicorn, "run", lambda app, **kwargs: pytest.fail("it served"))
    said = usage_error(capsys, main, ["serve", "--records", str(tmp_path)])
    assert str(path) in said and "damaged" in said


# --- a long record replays in bounded time and memory ----------------------------------------------------
def long_record(folder: Path, name: str = "20990101-000000-sniff-long.json", target: int = 1000) -> str:
    """A 4-player Sniff match to ``target`` by random moves (~3,600 steps at 1,000), as ``serve`` saves it."""
    game = SNIFF.game_cls(num_players=4, seed=1, target=target, max_hands=1000)
    rng = random.Random(1)
    while not game.is_terminal():
        game.apply(rng.choice(list(game.legal_actions())))
    doc = {**game.to_record(), "human_seat": 0, "agents": {"1": "random", "2": "random", "3": "random"}}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(doc))
    return name


REPLAY_COST = """
import shutil, sys, time, tracemalloc
from pathlib import Path
from sniff_env.web import WEB
from sniff_twelve.web.records import replay

records, name = Path(sys.argv[1]), sys.argv[2]
start = time.perf_counter()
info = replay(WEB, records, name, None)
for step in (0, info["steps"] // 2, info["steps"]):
    replay(WEB, records, name, str(step))
took = time.perf_counter() - start
shutil.copy(records / name, records / ("copy-" + name))  # not in the cache
tracemalloc.start()
replay(WEB, records, "copy-" + name, str(info["steps"] // 2))
print(info["steps"], took, tracemalloc.get_traced_memory()[1] / 2**20)
"""


def test_a_long_record_replays_in_bounded_time_and_memory(tmp_path):
    """A record of ~3,600 steps: its moves and three positions in under a second (0.2 s on a
    laptop; each step used to copy the whole game, 8 s for 4,310 steps), under 20 MiB allocated."""
    name = long_record(tmp_path)
    done = subprocess.run([sys.executable, "-c", REPLAY_COST, str(tmp_path), name], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    steps, took, peak = done.stdout.split()
    assert int(steps) > 3000 and float(took) < 1.0 and float(peak) < 20, done.stdout


def test_replayed_positions_and_lines_are_the_games_own(tmp_path):
    name = long_record(tmp_path, target=150)
    client, _ = _client(tmp_path)
    doc = json.loads((tmp_path / name).read_text())
    games = [game.clone() for game, _ in replay_steps(doc, SNIFF.game_cls)]
    info = client.get(f"/api/records/{name}").json()
    assert info["steps"] == len(games) - 1 and len(info["lines"]) == info["steps"]
    names = info["names"]
    for step in sorted({0, 1, 57, len(games) // 2, len(games) - 2, len(games) - 1}):
        frame = client.get(f"/api/records/{name}?step={step}").json()
        last = {games[k].current_player: doc["actions"][k] for k in range(step)}  # each seat's last move
        assert frame["svg"] == SNIFF.draw(games[step], 0, names, True, last), step
    for k in (0, len(games) // 3, len(games) - 2):
        seat = games[k].current_player
        line = f"{names[seat]}: {SNIFF.ui.event(games[k], games[k + 1], seat, doc['actions'][k], 0)}"
        assert info["lines"][k] == line
    assert info["result"] == SNIFF.ui.result(games[-1], 0)


def test_the_replay_cache_is_bounded_in_bytes(tmp_path, monkeypatch):
    from sniff_twelve.web import records

    monkeypatch.setattr(records, "CACHE_BYTES", 1_000_000)
    client, _ = _client(tmp_path)
    names = [long_record(tmp_path, f"2099010{k}-000000-sniff-long.json", target=300 + 50 * k) for k in range(4)]
    for name in names:
        assert client.get(f"/api/records/{name}").status_code == 200
    assert 0 < records.REPLAYS.bytes <= 1_000_000 and len(records.REPLAYS) < len(names)


# --- the records list is an index, paged ---------------------------------------------------------------
def _fake_record(folder: Path, k: int) -> str:
    name = f"2099{k:04d}-000000-sniff-{k:08x}.json"
    doc = {"game": "sniff", "options": {"num_players": 2}, "actions": [k], "result": {"scores": [k, 0]}}
    (folder / name).write_text(json.dumps(doc))
    return name


def _all_pages(client: TestClient, url: str) -> tuple[list[dict], int]:
    rows, pages = [], 0
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.text
        rows, pages = rows + response.json(), pages + 1
        url = response.links.get("next", {}).get("url")
    return rows, pages


def test_the_records_list_is_indexed_and_paged(tmp_path):
    client, _ = _client(tmp_path)
    names = sorted((_fake_record(tmp_path, k) for k in range(620)), reverse=True)
    rows, pages = _all_pages(client, "/api/records?limit=250")
    assert [row["name"] for row in rows] == names and pages == 3 and rows[0]["scores"] == [619, 0]
    assert [row["name"] for row in client.get("/api/records").json()] == names[:100]  # the page's first page
    for name in names:  # the same size and time, other bytes: a listing that read them would see it
        path, stat = tmp_path / name, (tmp_path / name).stat()
        path.write_text(" " * stat.st_size)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _all_pages(client, "/api/records?limit=500")[0] == rows
    (tmp_path / names[0]).unlink()
    newest = _fake_record(tmp_path, 9999)
    listed = [row["name"] for row in client.get("/api/records?limit=3").json()]
    assert listed == [newest, *names[1:3]]
    for bad in ("limit=0", "limit=501", "limit=x", "before=..%2Fx"):
        assert client.get(f"/api/records?{bad}").status_code == 400, bad


# --- a restore holds up only its own game -------------------------------------------------------------
def test_a_slow_restore_holds_up_only_its_own_game():
    release, loads = threading.Event(), []

    def load(token):
        loads.append(token)
        release.wait(10)
        return object()

    sessions = Sessions(limit=10, load=load)
    held = sessions.add(object())
    waiting = [threading.Thread(target=sessions.get, args=("kept-on-disk",)) for _ in range(3)]
    for thread in waiting:
        thread.start()
    other = threading.Thread(target=sessions.get, args=(held,))
    other.start()
    other.join(2)
    assert not other.is_alive()  # another game is served while the restore runs
    release.set()
    for thread in waiting:
        thread.join(10)
    assert loads == ["kept-on-disk"] and len(sessions) == 2  # restored once for its three requests


def test_a_restore_runs_off_the_event_loop(tmp_path):
    app = create_app(SNIFF, tmp_path)
    server, release = app.state.server, threading.Event()
    restore = server._restore

    def slow(token):
        release.wait(10)
        return restore(token)

    with TestClient(app, base_url="http://localhost") as client:
        token = new_session(client, players=2, seed=3)
        state = client.get(f"/api/sessions/{token}").json()
        server.sessions.drop(token, server.sessions.get(token))  # as after a restart
        server._restore = server.sessions.load = slow
        moving = threading.Thread(
            target=client.post, args=(f"/api/sessions/{token}/move",), kwargs={"json": _first_move(state)}
        )
        moving.start()
        config = threading.Thread(target=client.get, args=("/api/config",))
        time.sleep(0.3)
        config.start()
        config.join(3)
        served = not config.is_alive()
        release.set()
        moving.join(10)
        config.join(10)
    assert served, "the server stood still while a game was restored"


def test_the_load_benchmark_runs_and_survives_a_kill_9(capsys):
    """``benchmarks.web_load`` in small: players play, the server dies by SIGKILL and comes back
    with every game at its version; the servers it started are gone. No time is given: each player
    still plays a move, so the check does not depend on the machine's speed."""
    from benchmarks import web_load

    started = []
    start = web_load.start
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(web_load, "start", lambda *args: started.append(start(*args)) or started[-1])
        assert web_load.main(["--players", "3", "--seconds", "0"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (
        report["moves"] >= 3
        and report["errors"] == []
        and report["after_kill_9"] == "3 of 3 games back at their version"
        and 0 < report["others_p50_ms"] <= report["others_p99_ms"] <= report["others_max_ms"]
    )
    assert len(started) == 2 and all(server.poll() is not None for server in started)
