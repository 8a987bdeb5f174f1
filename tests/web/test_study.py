"""Studies (``study run|export|analyze``) through Starlette's TestClient: the study file and its
errors (one line naming the key), the balanced Latin square, every participant on the same deals
(and a server that deals afresh caught), the way through (consent, hands, questions, the code),
withdrawal and decline, the admin token, nothing identifying stored, and the export and analysis
held against a computation by hand from the record files alone."""

from __future__ import annotations

import csv
import itertools
import json
import math
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from sniff_env.web import WEB as SNIFF
from sniff_twelve.tools import study as study_tool
from sniff_twelve.web.server import create_app
from sniff_twelve.web.study import Study, latin_square
from sniff_twelve.web.study_file import StudyError, load_study, markdown
from tests.bounds import usage_error
from twelve_env.web import WEB as TWELVE

CONSENT = (
    "# Consent\n\nYou play a few small hands. **Nothing** identifying is kept.\n\n- You may withdraw at any time.\n"
)
#: a small 4-player Sniff study: 2 tiles a seat from the double-3 set, one hand a game
TOML = """\
id = "tiny"
seat = 0
hands_per_block = {hands}
order = "latin"
consent = "consent.md"
completion_code = "DONE-42"

[table]
players = 4
options = {{ pips = 3, hand_size = 2 }}

[deals]
seeds = {seeds}

[tutorial]
seed = 5

{conditions}

[[questions]]
id = "skill"
text = "How well did your partner play?"
scale = "1-7"

[[questions]]
id = "notes"
text = "Anything else?"
scale = "text"
"""
TWO = """\
[conditions.greedy]
partner = "greedy"
opponents = "random"

[conditions.heuristic]
partner = "heuristic"
opponents = "random"
"""
THREE = TWO + '\n[conditions.random]\npartner = "random"\nopponents = ["greedy", "random"]\n'
ADMIN = "s3cret-admin"


def write_study(
    folder: Path, hands: int = 2, seeds: str = "[11, 12]", conditions: str = TWO, text: str | None = None
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "consent.md").write_text(CONSENT)
    path = folder / "study.toml"
    path.write_text(text if text is not None else TOML.format(hands=hands, seeds=seeds, conditions=conditions))
    return path


def study_client(tmp_path: Path, **kwargs) -> tuple[TestClient, Study, object]:
    study = load_study(write_study(tmp_path / "files", **kwargs), SNIFF)
    app = create_app(SNIFF, tmp_path / "records", study=study, admin_token=ADMIN)
    return TestClient(app, base_url="http://localhost"), study, app


def take_part(client: TestClient, code: str, pick: int = 0, answers: dict | None = None, until: str = "done") -> dict:
    """One participant through the API: consent, every hand (the ``pick``-th offered move, mod
    the moves), every questionnaire; stops at the stage ``until``. The last state."""
    state = client.post("/api/study/tiny/consent", json={"p": code, "agree": True}).json()
    while state["stage"] != until and state["stage"] != "done":
        if state["stage"] in ("tutorial", "hand"):
            game = client.get(f"/api/sessions/{state['token']}").json()
            while not game["over"]:
                moves = game["moves"]
                body = {"action": moves[pick % len(moves)]["action"], "version": game["version"]}
                game = client.post(f"/api/sessions/{state['token']}/move", json=body).json()
            state = client.post("/api/study/tiny/next", json={"p": code, "key": state["key"]}).json()
        else:
            given = answers or {"skill": 1 + (pick + state["block"]) % 7, "notes": f"from {code}"}
            reply = client.post("/api/study/tiny/answers", json={"p": code, "key": state["key"], "answers": given})
            assert reply.status_code == 200, reply.text
            state = reply.json()
    return state


def played_records(records: Path) -> dict[tuple[int, str, int], dict]:
    """(participant index, condition, hand) → the hand's record, read from the store and the files."""
    with sqlite3.connect(records / "sessions.sqlite3") as db:
        docs = [json.loads(doc) for (doc,) in db.execute("SELECT doc FROM study_participants")]
    study = Study.from_json(json.loads((records / "study.json").read_text()))
    out = {}
    for doc in docs:
        for stage in study.plan(doc["order"]):
            if stage["kind"] == "hand" and stage["condition"] and stage["key"] in doc["records"]:
                record = json.loads((records / doc["records"][stage["key"]]).read_text())
                out[(doc["index"], stage["condition"], stage["hand"])] = record
    return out


def duplicate_violations(records: dict[tuple[int, str, int], dict]) -> list[str]:
    """Every hand ``k`` must be one deal for every participant in every condition: the deal each
    record starts from (its hands and boneyard, and the random stream after it). What differs."""
    deals: dict[int, set[str]] = {}
    for (_, _, hand), record in records.items():
        deals.setdefault(hand, set()).add(json.dumps(record["start"], sort_keys=True))
    return [f"hand {k}: {len(seen)} different deals" for k, seen in sorted(deals.items()) if len(seen) != 1]


# --- the study file ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "cut"),
    [
        ("id", 'id = "tiny"\n'),
        ("completion_code", 'completion_code = "DONE-42"\n'),
        ("hands_per_block", "hands_per_block = 2\n"),
        ("consent", 'consent = "consent.md"\n'),
        ("seat", "seat = 0\n"),
        ("order", 'order = "latin"\n'),
        ("table.players", "players = 4\n"),
        ("conditions.greedy.partner", 'partner = "greedy"\nopponents = "random"\n\n[conditions.heuristic]'),
        ("deals.seeds", "seeds = [11, 12]\n"),
        ("questions[1].scale", 'scale = "1-7"\n'),
    ],
)
def test_a_study_file_missing_a_key_fails_naming_it(tmp_path, capsys, key, cut):
    text = TOML.format(hands=2, seeds="[11, 12]", conditions=TWO)
    if key == "conditions.greedy.partner":
        text = text.replace(cut, 'opponents = "random"\n\n[conditions.heuristic]', 1)
    else:
        assert cut in text
        text = text.replace(cut, "", 1)
    path = write_study(tmp_path, text=text)
    with pytest.raises(StudyError, match=f"missing key '{re_escape(key)}'"):
        load_study(path, SNIFF)
    line = usage_error(capsys, SNIFF_MAIN, ["study", "run", str(path), "--records", str(tmp_path / "r")])
    assert f"missing key '{key}'" in line and str(path) in line
    assert not (tmp_path / "r").exists()  # the study did not start


def re_escape(text: str) -> str:
    import re

    return re.escape(text)


def SNIFF_MAIN(argv):  # noqa: N802 (the game's command line, as python -m sniff_env runs it)
    from sniff_env.__main__ import main

    return main(argv)


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("seat = 0", "seat = 4", "key 'seat' must be a seat from 0 to 3"),
        ('order = "latin"', 'order = "random"', "key 'order' must be 'latin'"),
        ('partner = "greedy"', 'partner = "nobody"', "key 'conditions.greedy.partner'"),
        (
            'opponents = "random"',
            'opponents = ["random"]',
            "key 'conditions.greedy.opponents' must name one agent or 2",
        ),
        ('scale = "1-7"', 'scale = "1-5"', "key 'questions[1].scale' must be"),
        ("seeds = [11, 12]", "seeds = [11, 11]", "key 'deals.seeds' lists a seed twice"),
        ("hands_per_block = 2", "hands_per_block = 0", "key 'hands_per_block' must be at least 1"),
        ("hands_per_block = 2", 'hands_per_block = "2"', "key 'hands_per_block' must be a whole number"),
        ("players = 4", "players = 9", "key 'table.players' must be one of 2, 3, 4"),
        ("pips = 3", "pipz = 3", "unknown key 'table.options.pipz'"),
        ("pips = 3, hand_size = 2", "pips = 2, hand_size = 3", "key 'table.options': "),
        ('consent = "consent.md"', 'consent = "nowhere.md"', "key 'consent': "),
        ('id = "tiny"', 'id = "tiny one"', "key 'id' must be letters"),
        ('id = "tiny"', 'id = "tiny"\ncolour = "red"', "unknown key 'colour'"),
    ],
)
def test_a_bad_value_fails_naming_its_key(tmp_path, old, new, said):
    text = TOML.format(hands=2, seeds="[11, 12]", conditions=TWO)
    assert old in text
    with pytest.raises(StudyError) as error:
        load_study(write_study(tmp_path, text=text.replace(old, new, 1)), SNIFF)
    assert said in str(error.value) and "\n" not in str(error.value)


def test_the_study_file_reads_as_declared(tmp_path):
    study = load_study(write_study(tmp_path, conditions=THREE), SNIFF)
    assert study.seat == 0 and study.partner_seat == 2 and study.players == 4
    assert study.options == {"pips": 3, "hand_size": 2, "episode": "hand"}  # one hand a game unless told
    assert study.seating(study.condition("random")) == {0: "human", 1: "greedy", 2: "random", 3: "random"}
    assert [q.id for q in study.questions] == ["skill", "notes"] and study.tutorial.partner == "greedy"
    assert Study.from_json(json.loads(json.dumps(study.to_json()))) == study
    twelve = load_study(
        write_study(
            tmp_path / "twelve",
            text=TOML.format(hands=1, seeds="[3]", conditions='[conditions.one]\nopponents = "greedy"\n')
            .replace("players = 4", "players = 3")
            .replace("pips = 3, hand_size = 2", 'deck = "numbers", hand_size = 2'),
        ),
        TWELVE,
    )
    assert twelve.partner_seat is None and twelve.seating(twelve.conditions[0]) == {
        0: "human",
        1: "greedy",
        2: "greedy",
    }


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_the_latin_square_is_balanced(n):
    """Every condition once in each place of a row, each once in every column, and every ordered
    pair of conditions side by side equally often (Williams' design)."""
    rows = latin_square(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    assert all(sorted(row) == list(range(n)) for row in rows)
    for place in range(n):
        assert Counter(row[place] for row in rows) == dict.fromkeys(range(n), len(rows) // n)
    pairs = Counter((a, b) for row in rows for a, b in itertools.pairwise(row))
    assert len(set(pairs.values())) <= 1 and len(pairs) == n * (n - 1)


def test_markdown_escapes_everything_it_does_not_format():
    html = markdown("# Hi <script>alert(1)</script>\n\n[see](javascript:alert(1)) and [ok](https://example.org/a)")
    assert "<script>" not in html and "&lt;script&gt;" in html and 'href="javascript' not in html
    assert '<a href="https://example.org/a" rel="noreferrer">ok</a>' in html


# --- the way through ---------------------------------------------------------------------------------------
def test_participants_get_their_latin_square_row_and_the_same_deals(tmp_path):
    client, study, _ = study_client(tmp_path, conditions=THREE)
    for k in range(6):
        take_part(client, f"p{k}", pick=k % 2)
    progress = client.get("/api/study/tiny/admin", headers={"Authorization": f"Bearer {ADMIN}"}).json()
    orders = [row["order"] for row in progress["participants"]]
    assert orders == study.orders() and len({tuple(o) for o in orders}) == 6
    assert all(row["finished"] and row["conditions_done"] == row["order"] for row in progress["participants"])
    records = played_records(tmp_path / "records")
    assert len(records) == 6 * 3 * 2 and duplicate_violations(records) == []
    for (_, condition, _), record in records.items():  # the condition's agents sat where declared
        assert record["agents"] == {str(s): a for s, a in study.seating(study.condition(condition)).items() if s}
        assert record["options"]["pips"] == 3 and record["human_seat"] == 0
    # the same deal and the same moves: the agents answer alike (their streams seeded by the deal)
    for (index, condition, hand), record in records.items():
        assert record["actions"] == records[(index % 2, condition, hand)]["actions"]


def test_a_server_that_deals_each_participant_afresh_fails_the_duplicate_check(tmp_path, monkeypatch):
    """The duplicate check can fail: a server whose deals come from fresh seeds (as ``serve``
    deals them) gives the participants different hands, and the check says so."""
    import secrets

    monkeypatch.setattr(Study, "deal_seed", lambda self, deal: secrets.randbelow(2**31))
    client, _, _ = study_client(tmp_path)
    for k in range(2):
        take_part(client, f"p{k}")
    assert duplicate_violations(played_records(tmp_path / "records"))


def test_the_way_through_consent_hands_questions_code(tmp_path):
    client, _, _ = study_client(tmp_path)
    first = client.get("/api/study/tiny?p=ann").json()
    assert first["stage"] == "consent" and "<strong>Nothing</strong>" in first["consent"]
    assert not _participant_rows(tmp_path)  # nothing stored before the answer
    state = client.post("/api/study/tiny/consent", json={"p": "ann", "agree": True}).json()
    assert state["stage"] == "tutorial" and state["key"] == "tutorial"
    assert client.get(f"/api/sessions/{state['token']}").json()["names"] == [
        "you",
        "opponent (seat 1)",
        "partner (seat 2)",
        "opponent (seat 3)",
    ]  # blind: the page names no agent
    early = client.post("/api/study/tiny/next", json={"p": "ann", "key": "tutorial"})
    assert early.status_code == 409 and "not over" in early.json()["error"]
    state = take_part(client, "ann", until="questions")
    assert state["stage"] == "questions" and state["key"] == "b0q"
    for bad in ({"skill": 8, "notes": ""}, {"skill": 3}, {"skill": True, "notes": ""}, {"skill": 3, "notes": 5}):
        reply = client.post("/api/study/tiny/answers", json={"p": "ann", "key": "b0q", "answers": bad})
        assert reply.status_code == 400, bad
    assert client.get("/api/study/tiny?p=ann").json()["key"] == "b0q"  # refused answers change nothing
    done = take_part(client, "ann")
    assert done == {**done, "stage": "done", "completion_code": "DONE-42"}
    again = client.post(
        "/api/study/tiny/answers", json={"p": "ann", "key": "b0q", "answers": {"skill": 1, "notes": ""}}
    )
    assert again.json()["stage"] == "done"  # a repeated answer changes nothing
    doc = _participant_rows(tmp_path)[0]
    assert doc["answers"]["0"]["answers"] == {"skill": 1, "notes": "from ann"}


def test_declining_ends_the_study_and_keeps_nothing_but_the_count(tmp_path):
    client, _, _ = study_client(tmp_path)
    state = client.post("/api/study/tiny/consent", json={"p": "bob", "agree": False}).json()
    assert state["stage"] == "declined" and client.get("/api/study/tiny?p=bob").json()["stage"] == "declined"
    assert client.post("/api/study/tiny/consent", json={"p": "bob", "agree": True}).json()["stage"] == "declined"
    assert not _participant_rows(tmp_path)
    progress = client.get("/api/study/tiny/admin", headers={"Authorization": f"Bearer {ADMIN}"}).json()
    assert progress["declines"] == 1 and progress["participants"] == []


def test_withdrawing_deletes_the_participants_data_and_records_the_withdrawal(tmp_path):
    client, _, _ = study_client(tmp_path)
    take_part(client, "stay")
    state = take_part(client, "leave", until="questions")
    records = tmp_path / "records"
    before = {p.name for p in records.glob("*.json")} - {"study.json"}
    tokens = _participant_rows(tmp_path)[1]["tokens"].values()
    assert len(before) == 2 * 5 - 2  # stay: tutorial + 4 hands; leave: tutorial + 2 hands
    assert client.post("/api/study/tiny/withdraw", json={"p": "leave"}).json()["stage"] == "withdrawn"
    after = {p.name for p in records.glob("*.json")} - {"study.json"}
    assert len(after) == 5 and after < before
    assert [doc["code"] for doc in _participant_rows(tmp_path)] == ["stay"]
    with sqlite3.connect(records / "sessions.sqlite3") as db:
        kept = {token for (token,) in db.execute("SELECT token FROM sessions")}
        events = db.execute("SELECT kind, detail FROM study_events").fetchall()
    assert not kept & set(tokens) and events == [("withdrawal", '{"index": 1}')]
    assert all(client.get(f"/api/sessions/{t}").status_code == 404 for t in tokens)
    assert client.get("/api/study/tiny?p=leave").json()["stage"] == "withdrawn"  # the link does not start over
    on_disk = b"".join(path.read_bytes() for path in records.glob("sessions.sqlite3*"))  # and its -wal
    assert b"leave" not in on_disk and b"stay" in on_disk
    assert state["stage"] == "questions"


def test_the_admin_pages_need_the_token_and_no_other_page_is_served(tmp_path):
    client, _, _ = study_client(tmp_path)
    assert client.get("/api/study/tiny/admin").status_code == 401
    assert client.get("/api/study/tiny/admin", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get("/api/study/tiny/export.csv", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get("/api/study/other?p=x").status_code == 404
    assert client.get("/api/study/tiny?p=no%20spaces").status_code == 400
    for path in ("/", "/replay", "/api/records", "/api/config"):
        assert client.get(path).status_code == 404, path
    assert client.post("/api/sessions", json={}).status_code in (404, 405)
    page = client.get("/study/tiny?p=x")
    assert page.status_code == 200 and 'data-study="tiny"' in page.text
    assert (
        page.headers["x-frame-options"] == "DENY"
        and "frame-ancestors 'none'" in page.headers["content-security-policy"]
    )
    assert page.headers["referrer-policy"] == "no-referrer" and page.headers["cache-control"] == "no-store"
    foreign = client.post(
        "/api/study/tiny/consent", json={"p": "x", "agree": True}, headers={"Origin": "https://elsewhere.example"}
    )
    assert foreign.status_code == 403 and not _participant_rows(tmp_path)
    big = client.post(
        "/api/study/tiny/answers", content=b"{" + b" " * 9000 + b"}", headers={"Content-Type": "application/json"}
    )
    assert big.status_code == 413


def test_nothing_identifying_is_stored(tmp_path):
    """No address and no user agent anywhere in the store or the records."""
    client, _, _ = study_client(tmp_path)
    client.headers["User-Agent"] = "Mozilla/5.0 (Distinctive Agent 9.9)"
    take_part(client, "carol")
    dumped = "\n".join(sqlite3.connect(tmp_path / "records" / "sessions.sqlite3").iterdump())
    files = "".join(p.read_text() for p in (tmp_path / "records").glob("*.json"))
    for trace in ("Distinctive", "Mozilla", "testclient", "127.0.0.1"):
        assert trace not in dumped and trace not in files, trace


def test_a_changed_study_does_not_start_on_the_old_data(tmp_path):
    client, _, _ = study_client(tmp_path)
    take_part(client, "dan", until="questions")
    changed = load_study(write_study(tmp_path / "files", seeds="[11, 13]"), SNIFF)
    with pytest.raises(StudyError, match="differs"):
        create_app(SNIFF, tmp_path / "records", study=changed, admin_token=ADMIN)


# --- export and analysis ------------------------------------------------------------------------------------
def test_the_export_reads_back_and_the_analysis_equals_a_computation_by_hand(tmp_path, capsys):
    client, study, _ = study_client(tmp_path, hands=3, seeds="[21, 22, 23]")
    for k in range(4):  # a different move choice each: different margins
        take_part(client, f"p{k}", pick=k)
    take_part(client, "half", pick=1, until="questions")  # one block only: no pairs
    records = tmp_path / "records"
    out = tmp_path / "out" / "data.csv"
    out.parent.mkdir()
    assert SNIFF_MAIN(["study", "export", str(records), "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    by_kind = Counter(row["kind"] for row in rows)
    played = played_records(records)
    assert by_kind["hand"] == len(played) + 5  # and five tutorials
    assert by_kind["answer"] == 4 * 2 * 2  # "half" stopped at the questions
    decisions = [row for row in rows if row["kind"] == "decision"]
    named = [row["record"] for row in rows if row["kind"] == "hand"]
    assert len(decisions) == sum(len(json.loads((records / name).read_text())["actions"]) for name in named)
    human = [row for row in decisions if row["agent"] == "human"]
    assert human and all(row["think_ms"] != "" for row in human) and all(row["role"] == "participant" for row in human)
    assert all(row["think_ms"] == "" for row in decisions if row["agent"] != "human")
    # the deciding seat's view only: its own hand as the record's deal shows it, no other seat's tiles
    for row in decisions[:40]:
        record = json.loads((records / row["record"]).read_text())
        if int(row["step"]) == 0:
            mine = [list(t) for t in record["start"]["deal"]["hands"][int(row["seat"])]]
            assert json.loads(row["view_hand"]) == mine
    jsonl = out.with_name("data.records.jsonl")
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(lines) == by_kind["hand"] and all(line["study"]["id"] == "tiny" for line in lines)
    from sniff_twelve.core.records import load_record

    assert all(load_record(line, SNIFF.game_cls).is_terminal() for line in lines)

    # by hand, from the record files alone: the participant's side is seats 0+2, its margin a hand
    # the side's points less the other side's (the scores are per side)
    margin = {key: r["result"]["scores"][0] - r["result"]["scores"][1] for key, r in played.items()}
    result = study_tool.analyze_study(records, SNIFF, references=["greedy"], top=False)
    for name in ("greedy", "heuristic"):
        values = [m for (_, c, _), m in margin.items() if c == name]
        mean = sum(values) / len(values)
        half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1) / len(values))
        row = result["conditions"][name]
        assert row["hands"] == len(values) == 4 * 3 + 3 * (name == _first_block(tmp_path, "half"))
        assert row["margin"] == pytest.approx(mean) and row["margin_ci95"] == pytest.approx(half)
        assert row["participants"] == 4 + (name == _first_block(tmp_path, "half"))
    answers = [r for r in rows if r["kind"] == "answer" and r["question"] == "skill"]
    for name in ("greedy", "heuristic"):
        given = [int(r["answer"]) for r in answers if r["condition"] == name]
        assert result["conditions"][name]["questions"]["skill"] == {
            "mean": pytest.approx(sum(given) / len(given)),
            "n": len(given),
        }
    diffs = [margin[(i, "greedy", k)] - margin[(i, "heuristic", k)] for i in range(4) for k in range(3)]
    pair = result["paired"]["greedy vs heuristic"]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    assert pair["pairs"] == 12 and pair["margin"] == pytest.approx(mean)
    assert pair["margin_ci95"] == pytest.approx(1.96 * math.sqrt(var / len(diffs)))
    if var > 1e-12:  # Wald's bounds on n·δ·(x̄ − δ/2)/s², δ = 2, α = β = 0.05; all 12 pairs at one look
        llr = len(diffs) * 2.0 * (mean - 1.0) / var
    else:
        llr = 0.0 if mean == 1.0 else math.copysign(math.inf, mean - 1.0)
    upper, lower = math.log(0.95 / 0.05), math.log(0.05 / 0.95)
    assert pair["verdict"] == ("better" if llr >= upper else "not better" if llr <= lower else "undecided")
    # the reference line: greedy in the participant's seat on the same deals, by hand
    for name in ("greedy", "heuristic"):
        ref = result["reference"]["greedy"][name]
        assert ref["hands"] == 3
        assert ref["margin"] == pytest.approx(_greedy_margin(study, name))
    # the command prints the same and writes the JSON keys API.md names
    target = tmp_path / "analysis.json"
    assert SNIFF_MAIN(["study", "analyze", str(records), "--reference", "greedy", "--json", str(target)]) == 0
    saved = json.loads(target.read_text())
    for row in saved["conditions"].values():
        assert {"margin", "margin_ci95", "hands", "participants"} <= set(row)
    assert {"margin", "margin_ci95", "verdict"} <= set(saved["paired"]["greedy vs heuristic"])
    assert saved["conditions"] == json.loads(json.dumps(result["conditions"]))
    assert "greedy vs heuristic: paired margin" in capsys.readouterr().out


def test_export_to_parquet_and_a_folder_without_a_study(tmp_path, capsys):
    client, _, _ = study_client(tmp_path)
    take_part(client, "eve")
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "data.parquet"
    assert SNIFF_MAIN(["study", "export", str(tmp_path / "records"), "--out", str(out)]) == 0
    table = pq.read_table(out).to_pylist()
    assert {row["kind"] for row in table} == {"decision", "hand", "answer"}
    assert next(row for row in table if row["question"] == "skill")["answer"] == "1"
    line = usage_error(capsys, SNIFF_MAIN, ["study", "analyze", str(tmp_path / "files")])
    assert "holds no study" in line


def _participant_rows(tmp_path: Path) -> list[dict]:
    path = tmp_path / "records" / "sessions.sqlite3"
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        try:
            rows = db.execute("SELECT code, doc FROM study_participants ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:
            return []
    return [{**json.loads(doc), "code": code} for code, doc in rows]


def _first_block(tmp_path: Path, code: str) -> str:
    return next(doc for doc in _participant_rows(tmp_path) if doc["code"] == code)["order"][0]


def _greedy_margin(study: Study, condition: str) -> float:
    """Greedy in the participant's seat, the condition's agents elsewhere, each hand's deal: the
    side's mean margin, played here move by move."""
    total = 0.0
    for hand in range(study.hands_per_block):
        seed = study.seeds[hand]
        game = SNIFF.game_cls(num_players=4, seed=seed, pips=3, hand_size=2, episode="hand")
        seating = study.seating(study.condition(condition), participant="greedy")
        agents = {seat: SNIFF.make_agent(name) for seat, name in seating.items()}
        for seat, agent in agents.items():
            agent.reset(seed * 1000 + seat)
        while not game.is_terminal():
            game.apply(agents[game.current_player].act(game))
        total += game.scores[0] - game.scores[1]
    return total / study.hands_per_block


def test_the_worked_example_reads_as_its_page_says():
    """``examples/study/partners.toml``: belief against greedy as partner, heuristic opponents, the
    same eight deals in both blocks, half the participants meeting each partner first; every line
    of the study file the docs page shows is the example's."""
    root = Path(__file__).resolve().parents[2]
    study = load_study(root / "examples" / "study" / "partners.toml", SNIFF)
    assert [(c.name, c.partner, c.opponents) for c in study.conditions] == [
        ("belief", "belief", ("heuristic", "heuristic")),
        ("greedy", "greedy", ("heuristic", "heuristic")),
    ]
    assert study.players == 4 and study.seat == 0 and study.partner_seat == 2 and study.options == {"episode": "hand"}
    assert study.orders() == [["belief", "greedy"], ["greedy", "belief"]] and study.deal_count == 8
    plan = study.plan(study.orders()[1])
    assert [s["deal"] for s in plan if s["kind"] == "hand"] == [-1, *range(8), *range(8)]
    page = (root / "docs" / "study.md").read_text()
    shown = page.split("```toml\n")[1].split("```")[0]
    example = (root / "examples" / "study" / "partners.toml").read_text().splitlines()
    assert all(line in example for line in shown.splitlines())


def test_a_study_hand_draws_nothing_the_participant_cannot_see(tmp_path):
    """Every state a participant is sent while a hand runs draws face up only their own hand and
    the table (the app's information boundary holds for a study's games too)."""
    from tests.web.test_web import drawn_face_up, visible

    client, _, app = study_client(tmp_path)
    state = take_part(client, "ivy", until="hand")
    checked = 0
    while state["stage"] != "done":
        if state["stage"] in ("tutorial", "hand"):
            token = state["token"]
            game = client.get(f"/api/sessions/{token}").json()
            while not game["over"]:
                real = app.state.server.sessions.get(token).game
                shown = drawn_face_up(game["svg"] + "".join(game["hand"]))
                assert not shown - visible(real, 0), "a hidden tile drawn"
                checked += 1
                body = {"action": game["moves"][0]["action"], "version": game["version"]}
                game = client.post(f"/api/sessions/{token}/move", json=body).json()
            state = client.post("/api/study/tiny/next", json={"p": "ivy", "key": state["key"]}).json()
        else:
            answers = {"skill": 4, "notes": ""}
            state = client.post("/api/study/tiny/answers", json={"p": "ivy", "key": state["key"], "answers": answers})
            state = state.json()
    assert checked >= 4


def test_a_study_of_twelve_without_partners(tmp_path, capsys):
    """ "12" at three seats, every seat for itself: no partner, the margin is the participant's
    points less the others' mean, and the command of ``twelve_env`` runs the analysis."""
    from twelve_env.__main__ import main as twelve_main

    text = (
        TOML.format(hands=2, seeds="[3, 4]", conditions='[conditions.solo]\nopponents = ["greedy", "random"]\n')
        .replace("players = 4", "players = 3")
        .replace("pips = 3, hand_size = 2", 'deck = "numbers", hand_size = 2')
        .replace("[tutorial]\nseed = 5\n", "")
        .replace('id = "tiny"\n', 'id = "tiny"\ntutorial = false\n')
    )
    study = load_study(write_study(tmp_path / "files", text=text), TWELVE)
    app = create_app(TWELVE, tmp_path / "records", study=study, admin_token=ADMIN)
    client = TestClient(app, base_url="http://localhost")
    first = client.post("/api/study/tiny/consent", json={"p": "solo1", "agree": True}).json()
    assert first["key"] == "b0h0"  # no practice hand
    assert client.get(f"/api/sessions/{first['token']}").json()["names"] == [
        "you",
        "opponent (seat 1)",
        "opponent (seat 2)",
    ]
    take_part(client, "solo1")
    take_part(client, "solo2", pick=1)
    result = study_tool.analyze_study(tmp_path / "records", TWELVE, references=["greedy"], top=False)
    played = played_records(tmp_path / "records")
    margins = []
    for record in played.values():
        points = TWELVE.game_cls.from_record(record).scores
        margins.append(points[0] - (points[1] + points[2]) / 2)
    assert result["conditions"]["solo"]["margin"] == pytest.approx(sum(margins) / len(margins))
    assert result["paired"] == {} and result["conditions"]["solo"]["hands"] == 4
    assert twelve_main(["study", "analyze", str(tmp_path / "records"), "--reference", "greedy"]) == 0
    assert "solo: margin a hand" in capsys.readouterr().out


def test_analyze_grades_the_participants_decisions_like_any_agents(tmp_path):
    """The exported records read by ``analyze``: the participant's seat is ``human``, graded on
    every decision with a choice (the data's decisions with more than one legal move)."""
    from sniff_env.__main__ import main

    text = TOML.format(hands=1, seeds="[31]", conditions=TWO).replace(
        "pips = 3, hand_size = 2", "pips = 4, hand_size = 3"
    )
    study = load_study(write_study(tmp_path / "files", text=text), SNIFF)
    client = TestClient(
        create_app(SNIFF, tmp_path / "records", study=study, admin_token=ADMIN), base_url="http://localhost"
    )
    take_part(client, "gil", pick=1)
    out = tmp_path / "data.csv"
    assert main(["study", "export", str(tmp_path / "records"), "--out", str(out)]) == 0
    graded = tmp_path / "graded.json"
    assert main(["analyze", str(tmp_path / "data.records.jsonl"), "--no-progress", "--json", str(graded)]) == 0
    human = [row for row in csv.DictReader(out.open()) if row["kind"] == "decision" and row["agent"] == "human"]
    choices = sum(len(json.loads(row["legal"])) > 1 for row in human)
    assert choices >= 2 and json.loads(graded.read_text())["agents"]["human"]["decisions"] == choices


DEAL = (
    "{ hands = [[[0, 2], [2, 2]], [[2, 3], [3, 3]], [[1, 1], [1, 2]], [[0, 0], [1, 3]]], "
    "boneyard = [[0, 3], [0, 1]], opener = 1 }"
)


def test_explicit_deals_are_played_as_written_and_survive_a_restart(tmp_path):
    """``[deals] deals = [...]`` in the game's ``deal=`` format: every hand starts from it, in
    every condition, and a hand in progress comes back from the store dealt the same after a
    restart (a second app on the same folder). A deal the game refuses names ``deals.deals``."""
    text = TOML.format(hands=1, seeds="[3]", conditions=TWO).replace("seeds = [3]", f"deals = [{DEAL}]")
    study = load_study(write_study(tmp_path / "files", text=text), SNIFF)
    client = TestClient(
        create_app(SNIFF, tmp_path / "records", study=study, admin_token=ADMIN), base_url="http://localhost"
    )
    take_part(client, "first")
    state = take_part(client, "second", until="hand")
    token = state["token"]
    game = client.get(f"/api/sessions/{token}").json()
    game = client.post(
        f"/api/sessions/{token}/move", json={"action": game["moves"][0]["action"], "version": game["version"]}
    ).json()
    restarted = TestClient(
        create_app(SNIFF, tmp_path / "records", study=study, admin_token=ADMIN), base_url="http://localhost"
    )
    assert restarted.get(f"/api/sessions/{token}").json() == game
    records = played_records(tmp_path / "records")
    written = {
        "hands": [[[0, 2], [2, 2]], [[2, 3], [3, 3]], [[1, 1], [1, 2]], [[0, 0], [1, 3]]],
        "boneyard": [[0, 3], [0, 1]],
        "opener": 1,
    }
    assert len(records) == 2 and all(record["start"]["deal"] == written for record in records.values())
    bad = text.replace("opener = 1", "opener = 7")
    with pytest.raises(StudyError, match=r"key 'deals\.deals' \(deal 1\)"):
        load_study(write_study(tmp_path / "bad", text=bad), SNIFF)


def test_participants_consenting_at_once_get_one_index_each(tmp_path):
    """Twelve consents at the same moment: indices 0 … 11, each once, each with its square's row."""
    import threading

    client, study, _ = study_client(tmp_path, conditions=THREE)
    barrier = threading.Barrier(12)

    def consent(k: int) -> None:
        barrier.wait()
        reply = client.post("/api/study/tiny/consent", json={"p": f"c{k}", "agree": True})
        assert reply.status_code == 200, reply.text

    threads = [threading.Thread(target=consent, args=(k,)) for k in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    docs = _participant_rows(tmp_path)
    assert sorted(doc["index"] for doc in docs) == list(range(12))
    assert all(doc["order"] == study.orders()[doc["index"] % 6] for doc in docs)
    assert sum(study.orders()[d["index"] % 6] == ["greedy", "heuristic", "random"] for d in docs) == 2
