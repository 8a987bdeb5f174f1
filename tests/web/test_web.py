"""``serve`` (sniff_twelve.web) through Starlette's TestClient: routes, whole games, records and replays,
bad input refused without touching the game, independent sessions, determinism — and the
information boundary over the wire: twins (games that look the same to the human seat, hidden
tiles or cards permuted; built as in test_no_peek) get byte-identical responses while the game
runs, and no response lists a tile or card the human cannot see."""

from __future__ import annotations

import json
import random
import re
import sys
import threading
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from starlette.testclient import TestClient

import sniff_env
import sniff_env.agents
import twelve_env
from sniff_env.tiles import TILES
from sniff_env.web import WEB as SNIFF
from sniff_twelve.core.records import replay_steps
from sniff_twelve.web.guard import MAX_BODY
from sniff_twelve.web.server import create_app
from sniff_twelve.web.table import public_game
from tests.agents.test_no_peek import (
    sniff_deal,
    sniff_trajectory,
    sniff_twin_deal,
    twelve_deal,
    twelve_trajectory,
    twelve_twin_deal,
)
from tests.bounds import usage_error
from twelve_env.cards import rank_name
from twelve_env.web import WEB as TWELVE

SPECS = {"sniff": SNIFF, "twelve": TWELVE}


def make_client(spec, records: Path, **kwargs) -> tuple[TestClient, object]:
    app = create_app(spec, records, **kwargs)
    return TestClient(app, base_url="http://localhost"), app.state.server


def new_session(client: TestClient, **body) -> str:
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 201, response.text
    return response.json()["token"]


def play_out(client: TestClient, token: str, pick=lambda moves: moves[0]) -> dict:
    """Play the human's moves (``pick`` of the offered ones) to the end; the final state."""
    state = client.get(f"/api/sessions/{token}").json()
    while not state["over"]:
        move = pick(state["moves"])
        response = client.post(
            f"/api/sessions/{token}/move", json={"action": move["action"], "version": state["version"]}
        )
        assert response.status_code == 200, response.text
        state = response.json()
    return state


# --- pages, config, whole games ------------------------------------------------------------------
def test_an_option_the_start_page_does_not_offer_holds_for_every_game_the_server_starts(tmp_path):
    """``serve --max-hands 1``: the page has no such field, and every game it starts is cut after one
    hand (S26); the page's own options still come from the request."""
    client, server = make_client(SNIFF, tmp_path, defaults={"players": 2, "max_hands": 1})
    assert "max_hands" not in [o["name"] for o in client.get("/api/config").json()["options"]]
    token = new_session(client, players=2, seed=3, options={"target": 500})
    game = server.sessions.get(token).game
    assert game.record_options()["max_hands"] == 1 and game.target == 500
    assert make_client(SNIFF, tmp_path / "plain")[1].fixed == {}


def test_pages_static_files_and_config(tmp_path):
    checkpoint = str(sniff_env.agents.CHECKPOINTS / "ppo_2p.npz")
    client, _ = make_client(SNIFF, tmp_path, checkpoints=[checkpoint], defaults={"players": 2, "target": 60})
    for path in ("/", "/play/abc", "/replay", "/replay/x.json"):
        page = client.get(path)
        assert page.status_code == 200 and "<svg" not in page.text and "/static/app.js" in page.text
        assert "American Sniff" in page.text and "default-src 'self'" in page.headers["content-security-policy"]
    script = client.get("/static/app.js")
    assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
    assert client.get("/static/secrets.txt").status_code == 404
    config = client.get("/api/config").json()
    assert config["players"] == [2, 3, 4] and config["defaults"]["target"] == 60
    built_in = ["random", "greedy", "heuristic", "rollout", "pimc"]  # and ppo where a checkpoint fits the table
    ppo = ["ppo", "guided"]  # the policy, and the search it guides
    searches = {
        "2": [*built_in, *ppo, "belief", f"ppo:{checkpoint}"],
        "3": [*built_in, "belief"],  # the search on beliefs plays every table
        "4": [*built_in, *ppo, "belief"],
    }
    assert config["agents"] == searches
    assert [o["name"] for o in config["options"]] == ["target", "settlement", "undrawn"]
    assert config["partners"]["4"] == [2, 3, 0, 1] and config["partners"]["2"] == [None, None]
    twelve = make_client(TWELVE, tmp_path)[0].get("/api/config").json()
    assert twelve["agents"]["7"] == [*built_in, "belief"]  # no checkpoint is shipped for "12"
    assert twelve["players"] == [2, 3, 4, 5, 6, 7] and [o["name"] for o in twelve["options"]] == [
        "deck",
        "capture_extra_turn",
    ]


@pytest.mark.parametrize(
    ("game", "body"),
    [
        ("sniff", {"players": 2, "seat": 1, "seed": 4, "options": {"target": 60}, "agents": {"0": "greedy"}}),
        ("sniff", {"players": 4, "seat": 2, "seed": 1, "options": {"target": 40, "settlement": "allfives"}}),
        ("twelve", {"players": 3, "seat": 0, "seed": 2, "options": {"deck": "numbers", "capture_extra_turn": True}}),
    ],
)
def test_a_whole_game_is_recorded_and_replays(tmp_path, game, body):
    spec = SPECS[game]
    client, _ = make_client(spec, tmp_path)
    token = new_session(client, **body)
    first = client.get(f"/api/sessions/{token}").json()
    assert first["to_act"] and first["names"][body["seat"]] == "you"
    final = play_out(client, token, pick=lambda moves: moves[-1])
    assert final["over"] and final["result"] and final["moves"] == [] and not final["to_act"]
    files = list(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [final["record"]]
    assert re.fullmatch(rf"\d{{8}}-\d{{6}}-{game}-[0-9a-f]{{8}}\.json", final["record"])
    doc = json.loads(files[0].read_text())
    replayed = spec.game_cls.from_record(doc)  # the extra keys do not disturb the record
    assert replayed.is_terminal() and doc["human_seat"] == body["seat"]
    others = [s for s in range(body["players"]) if s != body["seat"]]
    assert doc["agents"] == {str(s): body.get("agents", {}).get(str(s), "heuristic") for s in others}
    session = doc["session"]
    assert session["seed"] == body["seed"] and session["started"] <= session["finished"]
    steps = replay_steps(doc, spec.game_cls)
    human_moves = [k for k, (g, action) in enumerate(steps) if action is not None and g.current_player == body["seat"]]
    assert [k for k, _ in session["think_ms"]] == human_moves and all(ms >= 0 for _, ms in session["think_ms"])
    assert doc["options"]["num_players"] == body["players"]
    # the replay: listed, every move in words, every position drawn face up
    listed = client.get("/api/records").json()
    assert [r["name"] for r in listed] == [final["record"]] and listed[0]["human_seat"] == body["seat"]
    info = client.get(f"/api/records/{final['record']}").json()
    assert info["steps"] == len(doc["actions"]) == len(info["lines"]) and info["hands"][0] == {"hand": 1, "step": 0}
    assert info["names"][body["seat"]] == f"human (seat {body['seat']})"
    for step in (0, info["steps"] // 2, info["steps"]):
        frame = client.get(f"/api/records/{final['record']}?step={step}").json()
        assert frame["step"] == step and frame["svg"].startswith("<svg")
    if game == "sniff":
        assert [h["hand"] for h in info["hands"]] == list(range(1, len(info["hands"]) + 1))


def test_the_moves_offered_are_the_legal_ones_as_clicks():
    """Every legal action is offered exactly once per hand item that can make it, the item is the
    tile or card it plays and the spot its arm (Sniff) or the pile ("12"); credits as S17."""
    for seed in range(6):
        rng = random.Random(seed)
        for game in (sniff_env.Game(num_players=2 + seed % 3, seed=seed), twelve_env.Game(num_players=3, seed=seed)):
            spec = SNIFF if isinstance(game, sniff_env.Game) else TWELVE
            for _ in range(60):
                if game.is_terminal():
                    break
                seat = game.current_player
                moves = spec.moves(public_game(game, seat), seat)
                assert {m.action for m in moves} == set(game.legal_actions())
                hand = game.hand(seat)
                for m in moves:
                    if m.item is None:
                        assert m.key in ("d", "p") and m.spot is None
                    elif spec is SNIFF:
                        assert hand[m.item] == TILES[m.action // 4] and m.spot == m.action % 4
                        credit = int(game.action_features()[m.action, 0])
                        assert (f"scores {credit}" in m.label) == (credit > 0)
                    else:
                        assert hand[m.item] == m.action and m.spot == 0
                game.apply(rng.choice(game.legal_actions()))


# --- bad input ---------------------------------------------------------------------------------------
JSON = {"content-type": "application/json"}


def _move(state, **change):
    return {"json": {"action": state["moves"][0]["action"], "version": state["version"], **change}}


def _illegal(state):
    legal = {m["action"] for m in state["moves"]}
    return _move(state, action=next(a for a in range(200) if a not in legal))


BAD_MOVES = [  # (case, request from the state shown, status, message)
    ("not json", lambda s: {"content": b"{action: 1", "headers": JSON}, 400, "not JSON"),
    ("not an object", lambda s: {"json": [1, 2]}, 400, '{"action": id, "version": n}'),
    ("missing version", lambda s: {"json": {"action": 1}}, 400, '{"action": id, "version": n}'),
    ("extra field", lambda s: _move(s, seat=1), 400, '{"action": id, "version": n}'),
    ("action a string", lambda s: _move(s, action="1"), 400, "whole numbers"),
    ("action a bool", lambda s: _move(s, action=True), 400, "whole numbers"),
    ("version a float", lambda s: _move(s, version=float(s["version"])), 400, "whole numbers"),
    ("stale version", lambda s: _move(s, version=s["version"] - 1), 409, "stale move"),
    ("future version", lambda s: _move(s, version=s["version"] + 1), 409, "stale move"),
    ("illegal action", _illegal, 422, "is not a legal move now; legal: "),
    ("negative action", lambda s: _move(s, action=-1), 422, "is not a legal move now"),
    ("far out of range", lambda s: _move(s, action=10**12), 422, "is not a legal move now"),
    ("form body", lambda s: {"content": b"action=1", "headers": {"content-type": "text/plain"}}, 415, "JSON"),
    ("oversized", lambda s: {"content": b" " * (MAX_BODY + 1), "headers": JSON}, 413, "too large"),
]


@pytest.mark.parametrize("game", ["sniff", "twelve"])
@pytest.mark.parametrize(("case", "make_request", "status", "message"), BAD_MOVES, ids=[c[0] for c in BAD_MOVES])
def test_a_bad_move_is_refused_and_changes_nothing(tmp_path, game, case, make_request, status, message):
    client, server = make_client(SPECS[game], tmp_path)
    token = new_session(client, players=3, seat=1, seed=7)
    before = client.get(f"/api/sessions/{token}").json()
    history = list(server.sessions.get(token).game.history)
    response = client.post(f"/api/sessions/{token}/move", **make_request(before))
    assert response.status_code == status, response.text
    assert message in response.json()["error"] and "\n" not in response.json()["error"]
    assert client.get(f"/api/sessions/{token}").json() == before
    assert server.sessions.get(token).game.history == history


def test_unknown_sessions_wrong_methods_and_finished_games(tmp_path):
    client, _ = make_client(TWELVE, tmp_path)
    for response in (
        client.get("/api/sessions/nope"),
        client.post("/api/sessions/nope/move", json={"action": 0, "version": 0}),
        client.post(
            "/api/sessions/nope/move", content=b"x" * (MAX_BODY * 4), headers={"content-type": "application/json"}
        ),
    ):
        assert response.status_code == 404 and "unknown session" in response.json()["error"]
    assert client.get("/api/no/such/route").status_code == 404
    assert client.get("/api/sessions").status_code == 405
    token = new_session(client, players=2, seed=3)
    final = play_out(client, token)
    late = client.post(f"/api/sessions/{token}/move", json={"action": 0, "version": final["version"]})
    assert late.status_code == 409 and "game is over" in late.json()["error"]
    assert client.get(f"/api/sessions/{token}").json() == final


BAD_GAMES = [
    ({"players": 9}, "players must be between 2 and 4"),
    ({"players": True}, "players must be an integer"),
    ({"players": 2, "seat": 2}, "seat must be between 0 and 1"),
    ({"players": 2, "agents": {"1": "ppo:/etc/passwd"}}, "unknown agent 'ppo:/etc/passwd'"),
    ({"players": 2, "agents": {"0": "greedy"}}, "seats other than yours"),
    ({"players": 3, "agents": {"1": "ppo"}}, "ppo"),  # no shipped checkpoint for 3 players
    ({"players": 2, "options": {"target": -5}}, "target"),
    ({"players": 2, "options": {"target": "many"}}, "target must be a whole number"),
    ({"players": 2, "options": {"settlement": "double"}}, "settlement must be one of deduct, allfives"),
    ({"players": 2, "options": {"turbo": True}}, "unknown option(s) turbo"),
    ({"players": 2, "seed": -1}, "seed must be a whole number"),
    ({"players": 2, "cheat": 1}, "unknown field(s) cheat"),
]


@pytest.mark.parametrize(("body", "message"), BAD_GAMES, ids=[m for _, m in BAD_GAMES])
def test_a_bad_new_game_is_refused(tmp_path, body, message):
    client, server = make_client(SNIFF, tmp_path)
    response = client.post("/api/sessions", json=body)
    assert response.status_code == 400 and message in response.json()["error"], response.text
    assert not server.sessions._items


def test_record_paths_outside_the_folder_are_refused(tmp_path):
    records = tmp_path / "records"
    client, _ = make_client(TWELVE, records)
    final = play_out(client, new_session(client, players=2, seed=5))
    (tmp_path / "secret.json").write_text('{"format": "not yours"}')
    (records / "link.json").symlink_to(tmp_path / "secret.json")
    for name in ("..%2Fsecret.json", "%2e%2e%2fsecret.json", "sub%2F..%2F..%2Fsecret.json", "link.json",
                 ".hidden.json", "x.txt", "%2Fetc%2Fpasswd", "..%5Csecret.json"):  # fmt: skip
        response = client.get(f"/api/records/{name}")
        assert response.status_code == 403 and "not a record name" in response.json()["error"], (name, response.text)
    for name in ("../secret.json", "../../etc/passwd", "x/../../secret.json"):  # the client drops the dots first
        response = client.get(f"/api/records/{name}")
        assert response.status_code == 404 and "not yours" not in response.text
    assert client.get("/api/records/missing.json").status_code == 404
    bad_step = client.get(f"/api/records/{final['record']}?step=999")
    assert bad_step.status_code == 400 and "step must be" in bad_step.json()["error"]
    # a tampered record is reported, not replayed; another game's records are not listed
    doc = json.loads((records / final["record"]).read_text())
    doc["result"]["scores"][0] += 1
    (records / "tampered.json").write_text(json.dumps(doc))
    tampered = client.get("/api/records/tampered.json")
    assert tampered.status_code == 422 and "tampered" in tampered.json()["error"]
    (records / "other.json").write_text(json.dumps({**doc, "game": "sniff"}))
    assert "other.json" not in {r["name"] for r in client.get("/api/records").json()}


# --- sessions ------------------------------------------------------------------------------------------
def test_sessions_are_independent_and_stale_tabs_are_refused(tmp_path):
    client, server = make_client(SNIFF, tmp_path)
    a, b = new_session(client, players=2, seed=1), new_session(client, players=2, seed=1)
    state_a, state_b = client.get(f"/api/sessions/{a}").json(), client.get(f"/api/sessions/{b}").json()
    assert state_a == state_b  # the same seed: the same game
    move = {"action": state_a["moves"][0]["action"], "version": state_a["version"]}
    assert client.post(f"/api/sessions/{a}/move", json=move).status_code == 200
    assert client.get(f"/api/sessions/{b}").json() == state_b  # b did not move
    again = client.post(f"/api/sessions/{a}/move", json=move)  # a second tab sends the same move
    assert again.status_code == 409 and "stale move" in again.json()["error"]
    assert len(server.sessions.get(a).game.history) > len(server.sessions.get(b).game.history)


def test_concurrent_sessions_in_threads(tmp_path):
    """Four tabs play whole games at once; each ends with its own record."""
    client, _ = make_client(TWELVE, tmp_path)
    results, errors = {}, []

    def tab(seed):
        try:
            results[seed] = play_out(client, new_session(client, players=3, seed=seed))
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=tab, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors and len(results) == 4
    assert sorted(p.name for p in tmp_path.glob("*.json")) == sorted(r["record"] for r in results.values())


def test_same_seed_same_game(tmp_path):
    for spec, body in ((SNIFF, {"players": 3, "options": {"target": 50}}), (TWELVE, {"players": 4})):
        client, _ = make_client(spec, tmp_path / spec.name)
        finals = [play_out(client, new_session(client, seed=11, **body)) for _ in range(2)]
        docs = [json.loads((tmp_path / spec.name / f["record"]).read_text()) for f in finals]
        assert docs[0]["actions"] == docs[1]["actions"] and docs[0]["start"] == docs[1]["start"]
        assert finals[0]["svg"] == finals[1]["svg"] and finals[0]["log"] == finals[1]["log"]


def test_the_least_recently_used_session_goes_first(tmp_path):
    client, server = make_client(TWELVE, tmp_path, max_sessions=2)
    first, second = new_session(client, seed=1), new_session(client, seed=2)
    client.get(f"/api/sessions/{first}")  # first is used again: second is now the oldest
    new_session(client, seed=3)
    held = list(server.sessions._items)
    assert first in held and second not in held  # evicted from memory, kept on disk
    assert client.get(f"/api/sessions/{second}").status_code == 200


def test_serve_command_needs_the_web_extra_and_good_checkpoints(monkeypatch, capsys):
    from sniff_env.__main__ import main

    assert re.search(
        r"--checkpoint nope\.npz: .*nope\.npz", usage_error(capsys, main, ["serve", "--checkpoint", "nope.npz"])
    )
    calls = []
    monkeypatch.setattr("sniff_twelve.web.server.serve", lambda *args, **kwargs: calls.append((args, kwargs)))
    assert main(["serve", "--port", "8123", "--players", "2", "--target", "90", "--records", "out"]) == 0
    (spec, host, port, records), kwargs = calls[0]
    assert (spec.name, host, port, records) == ("sniff", "127.0.0.1", 8123, Path("out"))
    assert kwargs.pop("defaults") == {"players": 2, "target": 90}
    assert kwargs == {
        "checkpoints": [],
        "agents": [],
        "hosts": [],
        "seed_choice": True,
        "forwarded_allow_ips": None,
        "max_sessions": 1000,
        "keep_days": 30,
        "private_records": False,
    }
    assert main(["serve", "--max-sessions", "5", "--keep-days", "2", "--private-records"]) == 0
    assert {key: calls[-1][1][key] for key in ("max_sessions", "keep_days", "private_records")} == {
        "max_sessions": 5,
        "keep_days": 2,
        "private_records": True,
    }
    for flag in ("--max-sessions", "--keep-days"):
        for bad in ("0", "-3", "x"):
            with pytest.raises(SystemExit) as stop:
                main(["serve", flag, bad])
            said = capsys.readouterr().err.strip().splitlines()
            wanted = "a whole number; got 'x'" if bad == "x" else f"at least 1; got {bad}"
            assert stop.value.code == 2 and said == [f"error: {flag} must be {wanted}"]
    assert re.search(
        r"--agent py:nowhere:X: .*does not import", usage_error(capsys, main, ["serve", "--agent", "py:nowhere:X"])
    )
    assert main(["serve", "--agent", "py:sniff_twelve.agents.builtin:RandomAgent"]) == 0
    assert calls[-1][1]["agents"] == ["py:sniff_twelve.agents.builtin:RandomAgent"]

    monkeypatch.setitem(sys.modules, "starlette", None)
    assert usage_error(capsys, main, ["serve"]) == (
        'error: serve needs starlette, which is not installed: pip install -e ".[web]" in your clone of '
        "sniff-twelve (it is not on the package index)"
    )


# --- the information boundary ---------------------------------------------------------------------------
class Script:
    """An agent that plays a fixed action sequence (the same in both twins)."""

    def __init__(self, actions: list[int]) -> None:
        self.actions = actions

    def act(self, game) -> int:
        return self.actions[len(game.history)]


def test_an_agent_from_outside_plays_a_session(tmp_path):
    """``serve --agent py:…`` offers it on the start page; a session seats it and plays on."""
    spec = "py:sniff_twelve.agents.builtin:RandomAgent"
    client, _ = make_client(SNIFF, tmp_path, agents=[spec])
    assert spec in client.get("/api/config").json()["agents"]["2"]
    token = new_session(client, players=2, agents={"1": spec}, seed=4)
    assert play_out(client, token)["over"]


def twin_prefix(orig, twin, me: int, actions: list[int]) -> int:
    """How many of ``actions`` both games play while they look the same to ``me`` (its
    observation, whose turn, the end), cut back to a position where ``me`` is to act or it is over."""
    orig, twin = orig.clone(), twin.clone()
    ok = []  # positions where both are twins and me is to act (or the game is over)
    for k in range(len(actions) + 1):
        same = np.array_equal(orig.observation(me), twin.observation(me)) and (
            (orig.current_player, orig.is_terminal()) == (twin.current_player, twin.is_terminal())
        )
        if not same:
            break
        if orig.is_terminal() or orig.current_player == me:
            ok.append(k)
        if orig.is_terminal() or k == len(actions) or actions[k] not in twin.legal_actions():
            break
        orig.apply(actions[k])
        twin.apply(actions[k])
    return ok[-1] if ok else -1


def responses(server, client, game, me: int, actions: list[int], stop: int) -> list[tuple[bytes, object]]:
    """Every body the server sends while the scripted game runs up to position ``stop``, each
    with a copy of the game it was sent at."""
    agents = {s: Script(actions) for s in range(game.num_players) if s != me}
    token = server.start(game, me, agents, {s: "script" for s in agents})
    session = server.sessions.get(token)
    out = []
    response = client.get(f"/api/sessions/{token}")
    while True:
        assert response.status_code == 200, response.text
        if response.json()["over"]:
            return out  # a finished game may be shown face up
        out.append((response.content, session.game.clone()))
        version = response.json()["version"]
        if version >= stop:
            return out
        response = client.post(f"/api/sessions/{token}/move", json={"action": actions[version], "version": version})


def visible(game, me: int) -> Counter:
    """What ``me`` may see drawn face up: its hand and the table (Sniff) or the pile ("12")."""
    if isinstance(game, sniff_env.Game):
        return Counter(f"{a}-{b}" for a, b in game.hand(me) + game.describe()["tiles"])
    return Counter(rank_name(game.deck, r) for r in game.hand(me) + game.pile)


def drawn_face_up(svg: str) -> Counter:
    """The tiles (``a-b``) and cards (rank names) an SVG table draws face up."""
    return Counter(re.findall(r'data-(?:tile|card)="([^"]+)"', svg))


def hidden(game, me: int) -> tuple:
    rest = game.boneyard if isinstance(game, sniff_env.Game) else game.stock
    return tuple(tuple(game.hand(s)) for s in range(game.num_players) if s != me), tuple(rest)


def check_twins(server, client, orig, twin, me, actions, stats: Counter) -> None:
    stop = twin_prefix(orig, twin, me, actions)
    if stop < 0:
        return
    a = responses(server, client, orig.clone(), me, actions, stop)
    b = responses(server, client, twin.clone(), me, actions, stop)
    assert len(a) == len(b)
    ends = {"a": boneyards_at_hand_ends(orig.clone(), actions), "b": boneyards_at_hand_ends(twin.clone(), actions)}
    for (body_a, game_a), (body_b, game_b) in zip(a, b, strict=True):
        state_a, state_b = json.loads(body_a), json.loads(body_b)
        end_a, end_b = state_a.pop("hand_end"), state_b.pop("hand_end")
        assert state_a == state_b, "twins got different responses"
        assert (end_a is None) == (end_b is None), "a hand's end shown to one twin only"
        for state, game in ((state_a, game_a), (state_b, game_b)):
            for table in (state["svg"], state["svg_portrait"]):  # as a laptop and as a phone shows it
                drawn = drawn_face_up(table + "".join(state["hand"]))
                assert not drawn - visible(game, me), "a hidden tile or card drawn"
        for end, boneyards in ((end_a, ends["a"]), (end_b, ends["b"])):
            if end is not None:  # every hand face up as counted (S23), never the boneyard
                ended = int(re.match(r"hand (\d+) over", end["text"]).group(1))
                unseen = boneyards[ended]
                counted = Counter(f"{a}-{b}" for a, b in TILES if (a, b) not in unseen)
                assert drawn_face_up(end["svg"]) == drawn_face_up(end["svg_portrait"]) == counted
                stats["hand ends"] += 1
        stats["responses"] += 1
        stats["hidden differs"] += hidden(game_a, me) != hidden(game_b, me)


def boneyards_at_hand_ends(game, actions: list[int]) -> dict[int, set]:
    """Sniff: the boneyard as each hand ended (hand number → its tiles), from the moves alone."""
    out = {}
    for action in actions:
        if not isinstance(game, sniff_env.Game) or game.is_terminal():
            break
        boneyard, hands = set(game.boneyard), game.hands_played
        game.apply(action)
        if game.hands_played > hands:
            out[game.hands_played] = boneyard
    return out


def test_twins_get_identical_responses_and_nothing_hidden_is_drawn(tmp_path):
    stats: Counter = Counter()
    for players in (2, 3, 4):
        client, server = make_client(SNIFF, tmp_path)
        for seed in range(5):
            rng = random.Random(seed)
            new = lambda deal=None: sniff_env.Game(num_players=players, seed=seed, deal=deal)  # noqa: B023, E731
            deal = sniff_deal(new())
            steps = sniff_trajectory(new(deal), rng)
            me = seed % players
            twin_deal, _ = sniff_twin_deal(deal, me, steps, len(steps), rng)
            check_twins(server, client, new(deal), new(twin_deal), me, [s.action for s in steps], stats)
    for players in (2, 3, 5):
        client, server = make_client(TWELVE, tmp_path)
        for seed in range(5):
            rng = random.Random(seed)
            new = lambda deal=None: twelve_env.Game(num_players=players, seed=seed, deal=deal)  # noqa: B023, E731
            deal = twelve_deal(new())
            actions, shown = twelve_trajectory(new(deal), deal, rng)
            me = seed % players
            revealed: dict = {}
            for i, (public, given) in enumerate(shown):
                for card in public + [card for seat, card in given if seat == me]:
                    revealed.setdefault(card, i)
            twin_deal, _ = twelve_twin_deal(deal, me, revealed, len(actions), rng)
            check_twins(server, client, new(deal), new(twin_deal), me, actions, stats)
    print(dict(stats))
    assert stats["responses"] >= 100 and stats["hidden differs"] >= 60 and stats["hand ends"] >= 4


def test_the_end_of_a_game_shows_every_hand(tmp_path):
    """Only a finished game is drawn face up: every tile of the set (S2) or card still in play."""
    client, _ = make_client(SNIFF, tmp_path)
    final = play_out(client, new_session(client, players=2, seed=2, options={"target": 30}))
    assert sum(drawn_face_up(final["svg"]).values()) == sum(drawn_face_up(final["svg_portrait"]).values()) == 28
    client, _ = make_client(TWELVE, tmp_path)
    final = play_out(client, new_session(client, players=3, seed=2))
    game = twelve_env.Game.from_record(json.loads((tmp_path / final["record"]).read_text()))
    in_play = sum(game.hand_sizes) + game.stock_size + len(game.pile)
    for table in (final["svg"], final["svg_portrait"]):
        assert sum(drawn_face_up(table).values()) == in_play + game.hand_sizes[0]  # yours also in the footer


@pytest.mark.parametrize("spec", [SNIFF, TWELVE], ids=["sniff", "twelve"])
def test_each_seats_last_move_is_marked_on_the_table(tmp_path, spec):
    """The tile each seat placed last carries its number (Sniff); each seat's panel names the card
    it played last ("12"). Moves are public, so the twin tests above hold with the marks."""
    client, server = make_client(spec, tmp_path)
    token = new_session(client, players=2, agents={"1": "greedy"}, seed=2)
    state = client.get(f"/api/sessions/{token}").json()
    for _ in range(4):
        state = client.post(
            f"/api/sessions/{token}/move", json={"action": state["moves"][0]["action"], "version": state["version"]}
        ).json()
    marked = set(re.findall(r'data-last="(\d)"', state["svg"]))
    assert set(re.findall(r'data-last="(\d)"', state["svg_portrait"])) == marked  # a phone's table too
    replayed, last = spec.game_cls(num_players=2, seed=2), {}  # who played what, from the moves alone
    for action in server.sessions.get(token).game.history:
        last[replayed.current_player] = action
        replayed.apply(action)
    placed = {seat for seat, action in last.items() if spec is TWELVE or action < sniff_env.DRAW}
    assert marked == {str(seat) for seat in placed} and placed


def test_a_hands_end_stays_on_show_until_the_players_next_move(tmp_path):
    """S22–S24 in the browser: when a hand ends and the match goes on, the state carries the hand
    as it ended (its settlement in words, the scores the live table shows) until the human moves
    again — reloads and a restart included; "12", one hand long, never has one."""
    client, _ = make_client(SNIFF, tmp_path)
    token = new_session(client, players=2, agents={"1": "heuristic"}, seed=0, options={"target": 100})
    state = client.get(f"/api/sessions/{token}").json()
    while state["hand_end"] is None:
        assert not state["over"], "no hand ended before the match did"
        move = {"action": state["moves"][0]["action"], "version": state["version"]}
        state = client.post(f"/api/sessions/{token}/move", json=move).json()
    end = state["hand_end"]
    ended, scores = re.fullmatch(r"hand (\d+) over \((.+)\); pips deducted: (.*)\nscores: (.*)", end["text"]).group(
        1, 4
    )
    assert ended == "1" and scores == state["scores"].removesuffix("   (target 100)")
    assert "-- hand 1 over" in end["log"][-1]  # the ended hand's screen lists that hand's events
    assert not any("hand 1 over" in line for line in state["log"])  # the live log: the next hand's only
    assert client.get(f"/api/sessions/{token}").json()["hand_end"] == end  # a reload shows it again
    restarted, _ = make_client(SNIFF, tmp_path)
    assert restarted.get(f"/api/sessions/{token}").json()["hand_end"] == end  # so does a restart
    move = {"action": state["moves"][0]["action"], "version": state["version"]}
    after = client.post(f"/api/sessions/{token}/move", json=move).json()
    assert after["hand_end"] is None or after["hand_end"]["text"].startswith("hand 2 over")
    client, _ = make_client(TWELVE, tmp_path / "twelve")
    token = new_session(client, players=2, seed=3)
    state = client.get(f"/api/sessions/{token}").json()
    while not state["over"]:
        assert state["hand_end"] is None
        move = {"action": state["moves"][0]["action"], "version": state["version"]}
        state = client.post(f"/api/sessions/{token}/move", json=move).json()


@pytest.mark.parametrize("spec", [SNIFF, TWELVE], ids=["sniff", "twelve"])
def test_resigning_ends_the_game_where_it_stands_and_saves_it(tmp_path, spec):
    client, _ = make_client(spec, tmp_path)
    token = new_session(client, players=3, seed=5)
    state = client.get(f"/api/sessions/{token}").json()
    for _ in range(2):
        move = {"action": state["moves"][0]["action"], "version": state["version"]}
        state = client.post(f"/api/sessions/{token}/move", json=move).json()
    resigned = client.post(f"/api/sessions/{token}/resign", json={})
    assert resigned.status_code == 200, resigned.text
    final = resigned.json()
    assert final["over"] and not final["to_act"] and final["moves"] == [] and final["hand"] == []
    assert final["result"].startswith("You resigned after 2 of your moves.") and final["version"] == state["version"]
    doc = json.loads((tmp_path / final["record"]).read_text())
    assert doc["session"]["resigned"] is True and len(doc["actions"]) == state["version"]
    assert not spec.game_cls.from_record(doc).is_terminal()  # the record stops where the player resigned
    info = client.get(f"/api/records/{final['record']}").json()
    assert info["result"].startswith(f"human (seat 0) resigned after move {state['version']}.")
    again = client.post(f"/api/sessions/{token}/move", json={"action": 0, "version": final["version"]})
    assert again.status_code == 409 and client.post(f"/api/sessions/{token}/resign", json={}).status_code == 409
    restarted, _ = make_client(spec, tmp_path)
    assert restarted.get(f"/api/sessions/{token}").json() == final  # a restart keeps it resigned
    assert client.post("/api/sessions/nosuchtoken/resign", json={}).status_code == 404
    assert len(list(tmp_path.glob("*.json"))) == 1


def test_long_names_are_cut_to_their_boxes(tmp_path):
    """A seat named after a long checkpoint path is cut with an ellipsis where it is drawn (the
    header's side boxes, the hands' rows, the "12" panels), not run into the tiles beside it."""
    long_path = tmp_path / ("a-very-long-folder-name-" * 4) / "ppo_2p.npz"
    long_path.parent.mkdir(parents=True)
    long_path.write_bytes((Path(sniff_env.__file__).parent / "checkpoints/ppo_2p.npz").read_bytes())
    client, _ = make_client(SNIFF, tmp_path / "records", checkpoints=[str(long_path)])
    token = new_session(client, players=2, agents={"1": f"ppo:{long_path}"}, seed=1)
    svg = client.get(f"/api/sessions/{token}").json()["svg"]
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    named = [t for t in texts if "seat 1" in t]
    assert named and all(t.endswith("…") and len(t) < 60 for t in named), named
    assert str(long_path) not in svg


def test_while_warming_up_the_page_says_so_and_the_api_asks_to_retry(tmp_path):
    """``WarmingUp``: before ``ready`` the page reloads itself and says why, the API answers 503
    with ``Retry-After: 1`` and no route runs; after it, the app as usual."""
    import threading

    from starlette.testclient import TestClient

    from sniff_twelve.web.server import create_app
    from sniff_twelve.web.warmup import WarmingUp

    ready = threading.Event()
    app = create_app(SNIFF, tmp_path)
    client = TestClient(WarmingUp(app, ready), base_url="http://127.0.0.1")
    page = client.get("/")
    assert page.status_code == 200 and "Warming up" in page.text and 'http-equiv="refresh"' in page.text
    assert page.headers["x-frame-options"] == "DENY"
    api = client.post("/api/sessions", json={"players": 2})
    assert api.status_code == 503 and api.headers["retry-after"] == "1" and "warming up" in api.json()["error"]
    assert len(app.state.server.store) == 0 and not list(tmp_path.glob("*.json"))  # no game was made
    ready.set()
    assert "Warming up" not in client.get("/").text and client.get("/api/config").status_code == 200


def test_last_move_marks_lie_above_every_tile_and_show_in_replays_too(tmp_path):
    """Each seat's last placement carries its number on the table — drawn after every tile, so a
    crosswise tile placed later never hides it — in play and in a replay's every step alike."""
    from sniff_env.web import _layout

    game, greedy, last = sniff_env.Game(num_players=4, seed=5), sniff_env.agents.make_agent("greedy"), {}
    for _ in range(12):
        seat, action = game.current_player, greedy.act(game)
        game.apply(action)
        last[seat] = action
    parts = _layout(game, 0, True, last)
    drawn = ["badge" if "data-last" in part else "tile" for part in parts if "data-last" in part or "data-tile" in part]
    assert drawn.count("badge") == 4 and drawn == sorted(drawn, key=lambda kind: kind == "badge")
    client, _ = make_client(SNIFF, tmp_path)
    token = new_session(client, players=4, agents=dict.fromkeys("123", "greedy"), seed=2, options={"target": 100})
    final = play_out(client, token)
    doc = json.loads((tmp_path / final["record"]).read_text())
    game, _ = next(replay_steps(doc, sniff_env.Game))
    step, last = 9, {}  # nine moves in
    assert len(doc["actions"]) > step
    for action in doc["actions"][:step]:
        last[game.current_player] = action
        game.apply(action)
    on_table = set(game.describe()["tiles"])
    expected = {seat for seat, a in last.items() if a < sniff_env.DRAW and sniff_env.decode_action(a)[1] in on_table}
    svg = client.get(f"/api/records/{final['record']}?step={step}").json()["svg"]
    assert expected and set(map(int, re.findall(r'data-last="(\d)"', svg))) == expected
