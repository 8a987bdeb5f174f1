"""The browser app as a study server: every malformed request is a one-line 4xx that changes
nothing (the listed cases and a hypothesis fuzz of the JSON API), the server answers only to its
own host names, new games are rate-limited per client, eviction spares games in play, chosen seeds
are recorded, and ``ppo`` agents share one copy of their checkpoint."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from sniff_env.web import WEB as SNIFF
from sniff_twelve.web.server import create_app
from sniff_twelve.web.sessions import RateLimit, Sessions
from sniff_twelve.web.warmup import warm_up_agents
from tests.web.test_web import make_client, new_session, play_out
from twelve_env.web import WEB as TWELVE

AS_JSON = {"content-type": "application/json"}
RAW_CASES = [
    ('{"players": 4.0}', "players must be an integer"),
    ('{"players": 2.0}', "players must be an integer"),
    ('{"seat": 0.0}', "seat must be an integer"),
    ("[" * 1024 + "]" * 1024, "not JSON the server can read"),
    ('{"seed": ' + "7" * 4400 + "}", "not JSON the server can read"),
    ('{"seed": 10.5}', "seed must be"),
    ('{"players": "2"}', "players must be an integer"),
]


@pytest.mark.parametrize(("body", "says"), RAW_CASES, ids=[s for _, s in RAW_CASES])
def test_the_listed_malformed_new_games_are_a_400(tmp_path, body, says):
    client, server = make_client(SNIFF, tmp_path)
    response = client.post("/api/sessions", content=body, headers=AS_JSON)
    assert response.status_code == 400 and says in response.json()["error"], response.text
    assert "\n" not in response.json()["error"] and len(server.sessions) == 0


def test_bad_record_names_and_steps_are_a_4xx(tmp_path):
    client, _ = make_client(TWELVE, tmp_path)
    name = play_out(client, new_session(client, players=2, agents={"1": "random"}, seed=3))["record"]
    assert client.get(f"/api/records/{name}?step=0").status_code == 200
    for step in ("%C2%B2", "-1", "1e3", "9" * 30, "%00"):
        response = client.get(f"/api/records/{name}?step={step}")
        assert response.status_code == 400 and "step must be" in response.json()["error"], (step, response.text)
    for bad in ("a%00.json", "%00", "..%2F..%2Fetc%2Fpasswd", "x.json%00.txt"):
        response = client.get(f"/api/records/{bad}")
        assert response.status_code in (403, 404) and "error" in response.json(), (bad, response.text)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**60), max_value=10**60)
    | st.floats()  # NaN and Infinity too: Python's json reads them
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
    | st.sampled_from(["²", "٣", "\x00", "4", "ppo", "greedy", "bridge", "ppo:/etc/passwd", "py:os:system"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = st.sampled_from(["players", "seat", "agents", "options", "seed", "action", "version"])
BODIES = JSON | st.dictionaries(FIELDS, JSON, max_size=5)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


pytestmark = pytest.mark.xdist_group("web_hardening")  # one worker: its module fixture is made once


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory) -> tuple[TestClient, str]:
    """One app the fuzz tests share (no rate limit), with a game in progress for the moves."""
    app = create_app(SNIFF, tmp_path_factory.mktemp("records"), new_games_per_minute=10**9)
    client = TestClient(app, base_url="http://localhost")
    return client, new_session(client, players=2, agents={"1": "greedy"}, seed=5)


@FUZZ
@given(body=BODIES)
def test_fuzzed_new_games_never_get_a_5xx(fuzzed, body):
    client, _ = fuzzed
    response = client.post("/api/sessions", content=json.dumps(body), headers=AS_JSON)
    assert response.status_code < 500, (body, response.text)
    if response.status_code >= 400:
        assert isinstance(response.json()["error"], str)


@FUZZ
@given(body=BODIES)
def test_fuzzed_moves_never_get_a_5xx_and_change_nothing(fuzzed, body):
    client, token = fuzzed
    before = client.get(f"/api/sessions/{token}").json()
    response = client.post(f"/api/sessions/{token}/move", content=json.dumps(body), headers=AS_JSON)
    assert response.status_code < 500, (body, response.text)
    if response.status_code != 200:
        assert client.get(f"/api/sessions/{token}").json() == before


def test_only_the_servers_own_host_names_are_answered(tmp_path):
    app = create_app(SNIFF, tmp_path, hosts=["study.example"])
    for host, status in [("localhost", 200), ("127.0.0.1", 200), ("study.example", 200), ("evil.example", 400)]:
        response = TestClient(app, base_url=f"http://{host}").get("/api/records")
        assert response.status_code == status, host


def test_a_client_over_its_rate_gets_429_with_retry_after(tmp_path):
    client, server = make_client(SNIFF, tmp_path, new_games_per_minute=3)
    for _ in range(3):
        new_session(client, players=2)
    response = client.post("/api/sessions", json={"players": 2})
    assert response.status_code == 429 and int(response.headers["retry-after"]) >= 1
    assert "at most 3 a minute" in response.json()["error"] and len(server.sessions) == 3


def test_the_rate_is_per_client_and_per_minute():
    now = [0.0]
    limit = RateLimit(2, clock=lambda: now[0])
    limit.check("a"), limit.check("a"), limit.check("b")
    with pytest.raises(Exception, match="too many new games") as refused:
        limit.check("a")
    assert refused.value.status == 429 and refused.value.headers == {"Retry-After": "60"}
    now[0] = 60.0
    limit.check("a")  # a minute later


def test_eviction_spares_a_game_in_play_while_an_idle_one_remains():
    now = [0.0]
    sessions = Sessions(limit=2, idle=600, clock=lambda: now[0])
    a, b = sessions.add(object()), sessions.add(object())
    now[0] = 700.0
    sessions.get(a)  # someone plays a; b is idle
    c = sessions.add(object())
    assert _held(sessions, a) and not _held(sessions, b) and _held(sessions, c)
    now[0] = 720.0  # a and c both played within IDLE_SECONDS: the least recently used goes
    d = sessions.add(object())
    assert not _held(sessions, a) and _held(sessions, c) and _held(sessions, d)


def _held(sessions: Sessions, token: str) -> bool:
    try:
        sessions.get(token)
    except Exception:
        return False
    return True


def test_a_chosen_seed_is_recorded_and_a_study_server_deals_its_own(tmp_path):
    client, _ = make_client(TWELVE, tmp_path)
    chosen = play_out(client, new_session(client, players=2, agents={"1": "random"}, seed=8))["record"]
    dealt = play_out(client, new_session(client, players=2, agents={"1": "random"}))["record"]
    records = {name: json.loads((tmp_path / name).read_text())["session"] for name in (chosen, dealt)}
    assert records[chosen]["seed_chosen"] is True and records[chosen]["seed"] == 8
    assert records[dealt]["seed_chosen"] is False
    study, _ = make_client(TWELVE, tmp_path / "study", seed_choice=False)
    assert study.get("/api/config").json()["seed_choice"] is False
    refused = study.post("/api/sessions", json={"players": 2, "seed": 8})
    assert refused.status_code == 400 and "deals the seeds itself" in refused.json()["error"]
    assert study.post("/api/sessions", json={"players": 2}).status_code == 201


MEMORY = """
import os
from pathlib import Path
from sniff_env.web import WEB
from sniff_twelve.web.service import Server

def rss():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20

server = Server(WEB, Path({records!r}), new_games_per_minute=10**9)
lineup = {{"players": 4, "agents": {{"1": "ppo", "2": "ppo", "3": "ppo"}}}}
server.new_game(lineup)
base = rss()
for _ in range(1500):
    server.new_game(lineup)
print(base, rss(), len(server.sessions))
"""


def test_1500_games_of_ppo_agents_share_one_checkpoint_copy(tmp_path):
    """The documented bound: 1,500 new 4-player games, each seating three ``ppo`` agents (1,000 held
    at once), add under 64 MiB to the server's resident memory (one copy of the checkpoint each
    agent reads; each game used to load its own, ~1.5 MiB)."""
    code = MEMORY.format(records=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    base, after, held = done.stdout.split()
    assert float(after) - float(base) < 64 and int(held) == 1000, done.stdout


def test_the_server_warms_up_beside_the_open_port_and_keeps_nothing_of_it(tmp_path, monkeypatch, capsys):
    """``serve`` hands uvicorn the app behind ``WarmingUp`` at once and warms up on a thread: the
    app is ready when that ends, and the warm-up's game leaves no session and no record."""
    from sniff_twelve.web import server as web_server

    ran = []
    monkeypatch.setattr(web_server.uvicorn, "run", lambda app, **kwargs: ran.append(app))
    web_server.serve(TWELVE, "127.0.0.1", 8123, tmp_path)
    assert ran[0].ready.wait(120)
    out = capsys.readouterr().out
    assert "warming up" in out and "ready in" in out and out.index("http://127.0.0.1:8123/") < out.index("ready in")
    for thread in threading.enumerate():  # the other agents warm up after the page is ready
        if thread.name == "warm-up":
            thread.join(300)
            assert not thread.is_alive()
    assert "every agent ready in" in out + capsys.readouterr().out
    held = ran[0].app.state.server
    assert len(held.sessions) == 0 and len(held.store) == 0 and not list(tmp_path.glob("*.json"))


def test_the_default_game_warms_up_first_and_every_offered_agent_after(tmp_path):
    """``Server.warm_up`` (before the page is ready) plays the default agent only; ``warm_up_agents``
    (while the page serves) makes every agent the start page offers at its default table move."""
    server = create_app(SNIFF, tmp_path).state.server
    made = []
    server.spec = dataclasses.replace(SNIFF, make_agent=lambda name: made.append(name) or SNIFF.make_agent(name))
    server.warm_up(moves=5)
    assert set(made) == {server.defaults["agent"]}
    made.clear()
    warm_up_agents(server)
    assert made == server.seatable[server.defaults["players"]] and len(made) > 3
