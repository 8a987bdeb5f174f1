"""The study server under load and at its edges: a move in flight survives eviction, agents move
on a bounded pool of threads, the store and the records folder are probed at start, input no
parser expects is a 4xx, old games leave the store, the new-game limit keys IPv6 by /64, records
can be private and each game has one record however often its end is replayed."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sniff_env.web import WEB as SNIFF
from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.server import create_app
from tests.web.gated import Gate, Gated
from tests.web.test_web import make_client, new_session, play_out
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


# --- agents move on a bounded pool of threads, off the event loop ---------------------------------------------
def test_agents_move_on_at_most_agent_threads_while_other_requests_are_answered(tmp_path, gate):
    client, _ = make_client(TWELVE, tmp_path, agents=[GATED], agent_threads=2)
    games = [new_session(client, players=2, seed=s, agents={"1": GATED}) for s in range(3)]
    idle = new_session(client, players=2, seed=9)
    held = gate(hold=3)
    outs = [{} for _ in games]
    movers = [_move_in_thread(client, token, out) for token, out in zip(games, outs, strict=True)]
    held.until_inside(2)
    for _ in range(20):  # the third move waits for a thread; every other request is answered meanwhile
        assert client.get("/api/config").status_code == 200
        assert client.get(f"/api/sessions/{idle}").status_code == 200
        time.sleep(0.01)
    assert held.inside == 2
    held.release.set()
    for mover in movers:
        mover.join(30)
    assert [out["reply"].status_code for out in outs] == [200, 200, 200] and held.most == 2


# --- input no parser expects ------------------------------------------------------------------------
AS_JSON = {"content-type": "application/json"}


def test_a_lone_surrogate_and_an_over_long_record_name_are_a_4xx(tmp_path):
    client, server = make_client(SNIFF, tmp_path)
    token = new_session(client, players=2, seed=1)
    for body in ('{"\\ud800": 1}', '{"options": {"\\udfff": 1}}', '{"agents": {"1": "\\ud800"}}'):
        response = client.post("/api/sessions", content=body, headers=AS_JSON)
        assert response.status_code == 400 and "not JSON the server can read" in response.json()["error"], body
        response = client.post(f"/api/sessions/{token}/move", content=body, headers=AS_JSON)
        assert response.status_code == 400, body
    assert len(server.sessions) == 1
    for name in ("a" * 300 + ".json", "a" * 300, "b" * 251 + ".json"):
        assert client.get(f"/api/records/{name}").status_code == 403, name
        assert client.get(f"/api/records?before={name}").status_code == 400, name


FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)  # no text alone: JSON escapes them
ANY_TEXT = st.lists(st.characters() | SURROGATES, max_size=6).map("".join)
NAME_CHARS = "abcXYZ019._-"
NAMES = (st.text(NAME_CHARS, min_size=1, max_size=20) | st.text(NAME_CHARS, min_size=190, max_size=400)).map(
    lambda name: f"{name}.json"
)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    client, _ = make_client(SNIFF, tmp_path_factory.mktemp("records"), new_games_per_minute=10**9)
    return client, new_session(client, players=2, seed=5)


@FUZZ
@given(keys=st.lists(ANY_TEXT, min_size=1, max_size=3), nested=st.booleans())
def test_fuzzed_unicode_keys_never_get_a_5xx(fuzzed, keys, nested):
    client, token = fuzzed
    body = dict.fromkeys(keys, 1)
    body = {"options": body, "agents": body} if nested else body
    for url in ("/api/sessions", f"/api/sessions/{token}/move"):
        response = client.post(url, content=json.dumps(body), headers=AS_JSON)  # "\\ud800" escaped as JSON has it
        assert response.status_code < 500, (body, response.text)


@FUZZ
@given(name=NAMES)
def test_fuzzed_record_names_never_get_a_5xx(fuzzed, name):
    client, _ = fuzzed
    assert client.get(f"/api/records/{name}").status_code in (403, 404)
    assert client.get("/api/records", params={"before": name}).status_code in (200, 400)


# --- the store and the records folder are probed for writing at start -------------------------------------
def _read_only_store(monkeypatch) -> None:
    """Every connection of the store opens its file read-only, as for a user who may not write it
    (the tests may run as root, whom file modes do not stop)."""
    from sniff_twelve.web import store

    connect = sqlite3.connect
    monkeypatch.setattr(
        store.sqlite3, "connect", lambda path, **kwargs: connect(f"file:{path}?mode=ro", uri=True, **kwargs)
    )


def _stopped_store(records) -> None:
    """A store with a game in it, closed as a stopped server leaves it."""
    client, server = make_client(SNIFF, records)
    new_session(client, players=2, seed=1)
    server.store.close()


@pytest.mark.parametrize("wal", [True, False], ids=["wal", "rollback-journal"])
def test_a_read_only_store_is_refused_at_start_as_read_only_not_damaged(tmp_path, monkeypatch, capsys, wal):
    from sniff_env.__main__ import main
    from sniff_twelve.web import server as web_server
    from tests.bounds import usage_error

    _stopped_store(tmp_path)
    if not wal:  # a store SQLite must first switch to WAL: the switch itself is a write
        with sqlite3.connect(tmp_path / "sessions.sqlite3") as db:
            db.execute("PRAGMA journal_mode=DELETE")
    _read_only_store(monkeypatch)
    with pytest.raises(ValueError, match=r"sessions\.sqlite3 cannot be written") as refused:
        create_app(SNIFF, tmp_path)
    said = str(refused.value)
    assert "\n" not in said and "writable" in said and "damaged" not in said and "move it aside" not in said
    monkeypatch.setattr(web_server.uvicorn, "run", lambda app, **kwargs: pytest.fail("it served"))
    line = usage_error(capsys, main, ["serve", "--records", str(tmp_path)])
    assert "sessions.sqlite3 cannot be written" in line and "\n" not in line


def test_a_records_folder_that_cannot_be_written_is_refused_at_start(tmp_path, monkeypatch, capsys):
    from sniff_env.__main__ import main
    from sniff_twelve.web import server as web_server
    from tests.bounds import usage_error

    (tmp_path / "plain").write_text("a file, not a folder")
    records = tmp_path / "plain" / "records"
    with pytest.raises(ValueError, match=r"the records folder .* cannot be written") as refused:
        create_app(SNIFF, records)
    assert "\n" not in str(refused.value) and "--records" in str(refused.value)
    monkeypatch.setattr(web_server.uvicorn, "run", lambda app, **kwargs: pytest.fail("it served"))
    line = usage_error(capsys, main, ["serve", "--records", str(records)])
    assert "cannot be written" in line and str(records) in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]


# --- one record per game, written once the store holds its end -----------------------------------------
class Crash(BaseException):
    """The server dies here: nothing after it runs, no handler tidies up."""


def _crash(*args, **kwargs):
    raise Crash


def _play_until_crash(server, token: str) -> None:
    """Play the first offered move until one crashes the server (``server.move`` directly)."""
    with pytest.raises(Crash):
        for _ in range(10_000):
            server.move(token, *_first(server.sessions.get(token).state()))
    server.store.close()  # the process is gone: so is its connection


def _first(state: dict) -> tuple[int, int]:
    return state["moves"][0]["action"], state["version"]


def _records(folder) -> list[str]:
    return sorted(p.name for p in folder.glob("*.json"))


def test_a_crash_before_the_end_is_in_the_store_leaves_no_record_and_the_replay_writes_one(tmp_path, monkeypatch):
    client, server = make_client(SNIFF, tmp_path)
    token = new_session(client, players=2, seed=7, options={"target": 5})
    save = server.store.save
    monkeypatch.setattr(server.store, "save", lambda t, doc: _crash() if doc["record"] else save(t, doc))
    _play_until_crash(server, token)
    client, server = make_client(SNIFF, tmp_path)  # the restart
    state = client.get(f"/api/sessions/{token}").json()
    assert not state["over"]
    action, version = _first(state)
    reply = client.post(f"/api/sessions/{token}/move", json={"action": action, "version": version})
    assert reply.status_code == 200 and reply.json()["over"]
    assert _records(tmp_path) == [reply.json()["record"]]


def test_a_crash_after_the_end_is_in_the_store_writes_the_record_when_the_game_is_opened(tmp_path, monkeypatch):
    from sniff_twelve.web import service, sessions

    client, server = make_client(SNIFF, tmp_path)
    token = new_session(client, players=2, seed=7, options={"target": 5})
    for module in (service, sessions):  # where the record is written (before: in the game's own code)
        monkeypatch.setattr(module, "write_record", _crash, raising=False)
    _play_until_crash(server, token)
    monkeypatch.undo()
    assert _records(tmp_path) == []
    client, server = make_client(SNIFF, tmp_path)  # the restart
    state = client.get(f"/api/sessions/{token}").json()
    assert state["over"] and _records(tmp_path) == [state["record"]]
    assert client.get(f"/api/records/{state['record']}").status_code == 200
    client.get(f"/api/sessions/{token}")
    assert _records(tmp_path) == [state["record"]]


# --- the new-game limit keys IPv6 by /64 ------------------------------------------------------------------
def test_new_games_are_counted_per_ipv6_64_and_per_ipv4_address(tmp_path):
    _, server = make_client(SNIFF, tmp_path, new_games_per_minute=2)
    body = {"players": 2}
    for client in ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe"):  # one /64: two addresses
        server.new_game(body, client)
    for client in ("2001:db8:1:2::abcd", "2001:DB8:1:2:0:0:0:7"):
        with pytest.raises(RequestError) as refused:
            server.new_game(body, client)
        assert refused.value.status == 429
    server.new_game(body, "2001:db8:1:3::1")  # the next /64 is another client
    for client in ("192.0.2.1", "::ffff:192.0.2.1"):  # an IPv4 address, also written as IPv6
        server.new_game(body, client)
    with pytest.raises(RequestError):
        server.new_game(body, "192.0.2.1")
    server.new_game(body, "192.0.2.2")


# --- finished games can be private ---------------------------------------------------------------------------
def test_private_records_are_neither_listed_nor_replayed_but_with_their_games_token(tmp_path):
    client, _ = make_client(TWELVE, tmp_path, private_records=True)
    mine, other = (new_session(client, players=2, agents={"1": "random"}, seed=s) for s in (3, 4))
    name, others = play_out(client, mine)["record"], play_out(client, other)["record"]
    assert _records(tmp_path) == sorted([name, others])  # the study still gets every file
    listed = client.get("/api/records")
    assert listed.status_code == 403 and "private" in listed.json()["error"]
    for query in ("", "?step=1", f"?token={other}", "?token=nope", f"?token={mine}x"):
        refused = client.get(f"/api/records/{name}{query}")
        assert refused.status_code == 403 and "private" in refused.json()["error"], query
    assert client.get(f"/api/records/{name}?token={mine}").json()["name"] == name
    assert client.get(f"/api/records/{name}?step=1&token={mine}").json()["step"] == 1
    public, _ = make_client(TWELVE, tmp_path)  # the same folder, served as by default
    assert {line["name"] for line in public.get("/api/records").json()} == {name, others}
    assert public.get(f"/api/records/{name}").status_code == 200


# --- old games leave the store --------------------------------------------------------------------------------
def _age(server, token: str, days: float) -> None:
    """Make the store's row of ``token`` last written ``days`` ago."""
    with server.store.transaction() as db:
        db.execute("UPDATE sessions SET updated = ? WHERE token = ?", (time.time() - days * 86_400, token))


def test_games_nobody_moved_in_for_keep_days_leave_the_store_but_one_in_play(tmp_path):
    client, server = make_client(TWELVE, tmp_path, keep_days=7)
    finished = new_session(client, players=2, agents={"1": "random"}, seed=1)
    record = play_out(client, finished)["record"]
    abandoned, recent, in_play = (new_session(client, players=2, seed=s) for s in (2, 3, 4))
    for token, days in ((finished, 8), (abandoned, 30), (recent, 6.9), (in_play, 8)):
        _age(server, token, days)
    for token in (finished, abandoned, recent):  # let go from memory; in_play was just used
        server.sessions.drop(token, server.sessions.get(token))
    assert server.purge() == 2
    assert len(server.store) == 2 and server.store.load(in_play) and server.store.load(recent)
    for token in (finished, abandoned):
        assert client.get(f"/api/sessions/{token}").status_code == 404
    assert _records(tmp_path) == [record]  # the record stays
    assert server.purge() == 0


def test_serve_purges_at_start_and_every_so_often_and_says_how_many(tmp_path, monkeypatch, capsys):
    from sniff_twelve.web import server as web_server

    client, server = make_client(TWELVE, tmp_path)
    tokens = [new_session(client, players=2, seed=s) for s in range(3)]
    server.store.close()
    with sqlite3.connect(tmp_path / "sessions.sqlite3") as db:
        db.execute("UPDATE sessions SET updated = 0 WHERE token = ?", (tokens[0],))
    calls = []
    monkeypatch.setattr(web_server, "warm_in_background", lambda *args: None)
    monkeypatch.setattr(web_server.uvicorn, "run", lambda app, **kwargs: calls.append(app))
    web_server.serve(TWELVE, "127.0.0.1", 8123, tmp_path, keep_days=3)
    assert "store: removed 1 games nobody moved in for 3 days" in capsys.readouterr().out and calls
    server = calls[0].app.state.server
    assert len(server.store) == 2
    _age(server, tokens[1], 4)
    stop = threading.Event()
    thread = web_server.purge_in_background(server, stop, every=0.01)
    for _ in range(500):
        if len(server.store) == 1:
            break
        time.sleep(0.01)
    stop.set()
    thread.join(5)
    assert len(server.store) == 1 and "removed 1 games" in capsys.readouterr().out
