"""A whole study in a real browser: headless Chromium (the system's, driven by Playwright as in
``test_web_browser``) takes six scripted participants through the real pages — consent, the
practice hand, every block's hands by clicks on tiles and spots, the questions, the completion
code — and checks what they were given: the Latin square's orders as declared, the same deals
for everyone, and the admin page's progress and export. Then a participant withdraws, one
declines, one closes the tab mid-hand, and a server killed with SIGKILL mid-study loses no
acknowledged move or answer.

The study is tiny (4-player Sniff on the double-3 set, 2 tiles a seat, a hand or two a block)
so the whole module runs in about a minute.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

from sniff_env.web import WEB as SNIFF
from tests.web.test_study import ADMIN, THREE, duplicate_violations, played_records, write_study
from tests.web.test_web_browser import ARGS, CHROMIUM, WAIT, serving, wait_after

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)"),
    pytest.mark.xdist_group("study_browser"),  # one worker: its module fixture is made once
]
sync_api = pytest.importorskip(
    "playwright.sync_api", reason='Playwright is in the test extra: pip install -e ".[test]"'
)
uvicorn = pytest.importorskip("uvicorn", reason='the web extra: pip install -e ".[web]"')


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@contextmanager
def tab(browser):
    """A fresh browser context (a participant's own browser) and its page; no JavaScript error."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda error: errors.append(error))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


# --- a participant, by clicks ------------------------------------------------------------------------------
def key(page) -> str | None:
    return page.get_attribute("body", "data-key")


def after(page, old: str | None) -> str:
    """Wait for the page to stand at a stage other than ``old`` (the server answered, the page reloaded)."""
    page.wait_for_function(
        "k => document.body && document.body.dataset.key && document.body.dataset.key !== k", arg=old, timeout=WAIT
    )
    return key(page)


def open_study(page, base: str, code: str) -> str:
    page.goto(f"{base}/study/tiny?p={code}")
    page.wait_for_function("() => document.body && document.body.dataset.key", timeout=WAIT)
    return key(page)


def one_move(page) -> None:
    """The participant's move by clicks: a playable tile then a lit spot, or the draw / pass button."""
    version = page.get_attribute("body", "data-version")
    playable = page.locator("#your-hand .playable")
    if playable.count():
        playable.first.click()
        page.locator("#table .spot.target").first.click()
    else:
        page.locator("#buttons button").first.click()
    wait_after(page, version)
    assert page.inner_text("#error") == "", page.inner_text("#error")


def play_hand(page, moves: int | None = None) -> int:
    """Play the hand on the page to its end (or ``moves`` moves); the moves made."""
    page.wait_for_selector("body[data-version]", timeout=WAIT)
    made = 0
    while page.get_attribute("body", "data-over") != "true" and (moves is None or made < moves):
        one_move(page)
        made += 1
    return made


def answer(page, skill: int, notes: str) -> None:
    page.wait_for_selector("#questions fieldset", timeout=WAIT)
    page.click(f"label[for='skill-{skill}']")
    page.fill("textarea[name='notes']", notes)
    page.click("#submit-answers")


def take_part(page, base: str, code: str, skill: int, until: str = "done") -> str:
    """Consent, every hand, every questionnaire (``skill``, and the code as the notes), up to the
    stage ``until``; the completion code shown at the end (or the stage stopped at)."""
    stage = open_study(page, base, code)
    if stage == "consent":
        assert "Nothing" in page.inner_text("#consent")
        page.click("#agree")
        stage = after(page, stage)
    while stage not in (until, "done"):
        if stage == "tutorial" or (stage.startswith("b") and "h" in stage):
            assert "Practice" in page.inner_text("#study-where") or "Block" in page.inner_text("#study-where")
            play_hand(page)
            assert page.inner_text("#result").startswith("The hand is over.")  # not a match's end
            page.click("#study-next")
        else:
            answer(page, skill, f"notes of {code}")
        stage = after(page, stage)
    return page.inner_text("#completion-code") if stage == "done" else stage


def test_six_participants_through_the_real_pages(browser, tmp_path):
    """Three conditions, six participants: each plays the practice hand and three blocks of a
    hand by clicks and answers after each block; their orders are the balanced Latin square's
    six rows, in the order they consented, every hand is one deal for all of them, the answers
    clicked are the answers stored, and the admin page shows it all and exports it."""
    from sniff_twelve.web.study_file import load_study

    study = load_study(write_study(tmp_path / "files", hands=1, seeds="[11]", conditions=THREE), SNIFF)
    records = tmp_path / "records"
    started = time.perf_counter()
    with serving(SNIFF, records, study=study, admin_token=ADMIN) as base:
        for k in range(6):
            with tab(browser) as page:
                assert take_part(page, base, f"person{k}", skill=1 + k) == "DONE-42"
                assert "complete" in page.inner_text("#study-message")
        took = time.perf_counter() - started
        with tab(browser) as page:
            page.goto(f"{base}/study/tiny/admin#{ADMIN}")
            page.wait_for_selector("body[data-loaded]", timeout=WAIT)
            assert page.locator("#admin-list tr").count() == 6
            assert "6 participants · 6 finished" in page.inner_text("#admin-summary")
            done = page.locator("#admin-list tr[data-code='person1'] td.done").inner_text()
            assert done == ", ".join(study.orders()[1])
            with page.expect_download() as download:
                page.click("#export")
            rows = list(csv.DictReader(Path(download.value.path()).read_text().splitlines()))
        with tab(browser) as page:  # without the token, no progress
            page.goto(f"{base}/study/tiny/admin#wrong")
            page.wait_for_function("() => document.querySelector('#admin-error').textContent", timeout=WAIT)
            assert (
                page.inner_text("#admin-error") == "wrong admin token" and page.locator("#admin-list tr").count() == 0
            )
    with sqlite3.connect(records / "sessions.sqlite3") as db:
        docs = {code: json.loads(doc) for code, doc in db.execute("SELECT code, doc FROM study_participants")}
    assert [docs[f"person{k}"]["order"] for k in range(6)] == study.orders()  # the Latin square, as declared
    played = played_records(records)
    assert len(played) == 6 * 3 and duplicate_violations(played) == []
    for (_, condition, _), record in played.items():  # the blocks' agents are their conditions'
        assert record["agents"]["2"] == study.condition(condition).partner
        assert len(record["session"]["think_ms"]) >= 1
    answers = [row for row in rows if row["kind"] == "answer"]
    assert len(answers) == 6 * 3 * 2  # two questions a block
    assert all(row["answer"] == str(1 + int(row["participant"])) for row in answers if row["question"] == "skill")
    assert all(row["answer"] == f"notes of person{row['participant']}" for row in answers if row["question"] == "notes")
    human = [row for row in rows if row["kind"] == "decision" and row["agent"] == "human"]
    assert human and all(int(row["think_ms"]) >= 0 for row in human)
    print(f"six participants through the pages in {took:.1f} s")


def test_withdrawal_decline_and_a_closed_tab_in_the_browser(browser, tmp_path):
    from sniff_twelve.web.study_file import load_study

    study = load_study(write_study(tmp_path / "files"), SNIFF)
    records = tmp_path / "records"
    with serving(SNIFF, records, study=study, admin_token=ADMIN) as base:
        with tab(browser) as page:  # declining ends it
            open_study(page, base, "nope")
            page.click("#decline")
            after(page, "consent")
            assert "did not agree" in page.inner_text("#study-message")
        with tab(browser) as page:  # a closed tab comes back at the last acknowledged move
            assert take_part(page, base, "closer", skill=4, until="b0h0") == "b0h0"
            play_hand(page, moves=1)
            version = page.get_attribute("body", "data-version")
        with tab(browser) as page:
            assert open_study(page, base, "closer") == "b0h0"
            page.wait_for_selector("body[data-version]", timeout=WAIT)
            assert page.get_attribute("body", "data-version") == version
            assert take_part(page, base, "closer", skill=4) == "DONE-42"
        with tab(browser) as page:  # withdrawing mid-study deletes everything of theirs
            assert take_part(page, base, "leaver", skill=2, until="b0q") == "b0q"
            names = [n for n in json.loads(_doc(records, "leaver"))["records"].values()]
            assert names and all((records / name).exists() for name in names)
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#withdraw")
            after(page, "b0q")
            assert "withdrawn" in page.inner_text("#study-message")
            assert _doc(records, "leaver") is None and not any((records / name).exists() for name in names)
            page.reload()
            page.wait_for_function("() => document.body && document.body.dataset.key === 'withdrawn'", timeout=WAIT)
    with sqlite3.connect(records / "sessions.sqlite3") as db:
        kinds = sorted(kind for (kind,) in db.execute("SELECT kind FROM study_events"))
    assert kinds == ["decline", "withdrawal"]


def _doc(records: Path, code: str) -> str | None:
    with sqlite3.connect(records / "sessions.sqlite3") as db:
        row = db.execute("SELECT doc FROM study_participants WHERE code = ?", (code,)).fetchone()
    return None if row is None else row[0]


# --- kill -9 -----------------------------------------------------------------------------------------------
def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(study_file: Path, records: Path, port: int) -> subprocess.Popen:
    """``python -m sniff_env study run`` in its own process group, once it answers (warmed up)."""
    command = [sys.executable, "-m", "sniff_env", "study", "run", str(study_file), "--records", str(records)]
    command += ["--port", str(port), "--admin-token", ADMIN]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    for _ in range(1200):
        probe = f"http://127.0.0.1:{port}/api/study/tiny?p=probe"
        with contextlib.suppress(OSError), urllib.request.urlopen(probe, timeout=5) as reply:
            if reply.status == 200:
                return server
        time.sleep(0.1)
    os.killpg(server.pid, signal.SIGKILL)
    pytest.fail(f"the study server did not start: {server.stderr.read().decode()[-2000:]}")


def test_a_server_killed_mid_study_loses_no_acknowledged_move_or_answer(browser, tmp_path):
    """Participant A is mid-hand (moves acknowledged), B has just sent the answers of a block:
    the server dies by SIGKILL. Restarted on the same folder, A's page reloads at the same hand
    and version, B's at the next block, and the finished data hold A's moves and B's answers."""
    study_file = write_study(tmp_path / "files")
    records, port = tmp_path / "records", _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _start(study_file, records, port)
    try:
        with tab(browser) as a, tab(browser) as b:
            assert take_part(a, base, "alpha", skill=3, until="b0h1") == "b0h1"
            play_hand(a, moves=1)
            version = a.get_attribute("body", "data-version")
            assert take_part(b, base, "beta", skill=6, until="b0q") == "b0q"
            answer(b, 6, "before the crash")
            assert after(b, "b0q") == "b1h0"  # acknowledged: the page moved on
            os.killpg(server.pid, signal.SIGKILL)  # mid-study, no chance to tidy up
            server.wait()
            token = json.loads(_doc(records, "alpha"))["tokens"]["b0h1"]
            with sqlite3.connect(records / "sessions.sqlite3") as db:
                before = json.loads(db.execute("SELECT doc FROM sessions WHERE token = ?", (token,)).fetchone()[0])
            assert len(before["actions"]) == int(version)
            server = _start(study_file, records, port)
            a.reload()
            a.wait_for_selector("body[data-version]", timeout=WAIT)
            assert key(a) == "b0h1" and a.get_attribute("body", "data-version") == version
            b.reload()
            b.wait_for_function("() => document.body && document.body.dataset.key", timeout=WAIT)
            assert key(b) == "b1h0"
            assert take_part(a, base, "alpha", skill=3) == "DONE-42"
            assert take_part(b, base, "beta", skill=6) == "DONE-42"
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    out = tmp_path / "data.csv"
    done = subprocess.run(
        [sys.executable, "-m", "sniff_env", "study", "export", str(records), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(out.open()))
    kept = [row for row in rows if row["kind"] == "answer" and row["code"] == "beta" and row["block"] == "0"]
    assert {row["question"]: row["answer"] for row in kept} == {"skill": "6", "notes": "before the crash"}
    name = json.loads(_doc(records, "alpha"))["records"]["b0h1"]
    record = json.loads((records / name).read_text())
    assert record["actions"][: len(before["actions"])] == before["actions"]
    assert record["session"]["think_ms"][: len(before["think_ms"])] == before["think_ms"]
