"""``serve`` in a real browser: headless Chromium — the operating system's package, driven by
Playwright for Python pointed at its executable (no browser download) — starts a game on the
start page, plays a whole 2-player Sniff match and a whole "12" game by clicking tiles, cards and
spots (and a few moves by keyboard), checks the saved record and steps through its replay.

Without Chromium the tests skip, saying how to get it (``apt-get install chromium``; ``CHROMIUM``
names another executable). The screenshots go to a temporary folder; ``SCREENSHOTS_DIR=docs``
writes the docs' pictures (``docs/web_sniff.png``, ``docs/web_twelve.png``,
``docs/web_replay.png``).
"""

from __future__ import annotations

import json
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from sniff_env.web import WEB as SNIFF
from twelve_env.web import WEB as TWELVE

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM}: install the system's browser (Debian/Ubuntu: apt-get install chromium) "
    "or set CHROMIUM=/path/to/chromium",
)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason='Playwright is in the test extra: pip install -e ".[test]"'
)
uvicorn = pytest.importorskip("uvicorn", reason='the web extra: pip install -e ".[web]"')

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
WAIT = 20_000  # ms for any page change
MAX_PICTURE = 200_000  # bytes a screenshot may take in docs/


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def shots(tmp_path) -> Path:
    return Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path / "shots")


@contextmanager
def serving(spec, records: Path):
    """The app on uvicorn in a thread, on a free port of 127.0.0.1; yields its base URL."""
    from sniff_twelve.web.server import create_app  # after the skips: it needs the web extra

    server = uvicorn.Server(uvicorn.Config(create_app(spec, records), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(20)


def start_game(page, base: str, players: int, options: dict[str, str], seed: int) -> None:
    """Fill in the start page and press Start."""
    page.goto(f"{base}/")
    page.select_option("#players", str(players))
    page.select_option("#seat", "0")
    for name, value in options.items():
        page.fill(f"#option-{name}", value)
    page.fill("#seed", str(seed))
    page.click("#start-button")
    page.wait_for_url("**/play/*", timeout=WAIT)
    page.wait_for_selector("body[data-version]", timeout=WAIT)


def wait_after(page, version: str) -> None:
    page.wait_for_function(
        "v => document.body.dataset.version !== v || document.body.dataset.over === 'true'", arg=version, timeout=WAIT
    )


def play_by_clicks(page, shot: Path, shot_when) -> int:
    """Play the human's moves to the end: a playable tile or card, then a highlighted spot (every
    third move by keyboard: → then Enter), or the DRAW / PASS button. One screenshot, taken with a
    tile picked and its spots lit, the first time ``shot_when(page)`` holds. Returns the moves."""
    moves = 0
    while page.get_attribute("body", "data-over") != "true":
        version = page.get_attribute("body", "data-version")
        buttons = page.locator("#buttons button")
        if buttons.count():
            label = buttons.first.inner_text()
            assert label.startswith(("Draw", "Pass")) and page.locator("#table .hand.playable").count() == 0
            buttons.first.click()
        elif moves % 3 == 2:
            page.keyboard.press("ArrowRight")
            assert page.locator("#table .spot.focus").count() == 1
            page.keyboard.press("Enter")
        else:
            page.locator("#table .hand.playable").first.click()
            assert page.locator("#table .hand.selected").count() == 1
            targets = page.locator("#table .spot.target")
            assert targets.count() >= 1
            if not shot.exists() and shot_when(page):
                picture(page, shot)
            targets.first.click()
        wait_after(page, version)
        assert page.inner_text("#error") == "", page.inner_text("#error")
        moves += 1
    return moves


def picture(page, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.locator("main").screenshot(path=str(path))
    assert 10_000 < path.stat().st_size < MAX_PICTURE, f"{path}: {path.stat().st_size} bytes"


def check_record(records: Path, spec, page) -> dict:
    """The one record saved, linked from the result; it replays and names the seats."""
    files = list(records.glob("*.json"))
    assert len(files) == 1
    link = page.locator("#result a").first
    assert link.inner_text() == files[0].name
    doc = json.loads(files[0].read_text())
    assert spec.game_cls.from_record(doc).is_terminal()
    assert doc["human_seat"] == 0 and all(name == "heuristic" for name in doc["agents"].values())
    return doc


def step_replay(page, doc: dict, shot: Path | None) -> None:
    """Open the replay from the list of finished games, step forward and back, jump to a hand and
    to the end."""
    name = page.locator("#result a").first.inner_text()
    page.click("header a[href='/replay']")
    page.locator(f"#record-list a[href='/replay/{name}']").click()
    page.wait_for_url(f"**/replay/{name}", timeout=WAIT)
    page.wait_for_selector("#replay-table svg", timeout=WAIT)
    steps = len(doc["actions"])
    position = lambda k: page.wait_for_function(  # noqa: E731
        "t => document.querySelector('#position').textContent === t", arg=f"move {k} of {steps}", timeout=WAIT
    )
    position(0)
    assert page.inner_text("#replay-result") == ""  # the result only at the end
    for k in (1, 2, 3):
        page.click("#forward")
        position(k)
    assert page.inner_text("#line").startswith(("human (seat 0)", "seat "))
    page.click("#back")
    position(2)
    hands = page.locator("#hand option")
    if hands.count() > 1:
        page.select_option("#hand", index=1)
        position(int(hands.nth(1).get_attribute("value")))
    page.keyboard.press("End")
    position(steps)
    assert page.inner_text("#replay-result") != ""
    assert page.locator("#replay-table [data-tile], #replay-table [data-card]").count() > 0
    if shot is not None:
        picture(page, shot)


def test_sniff_match_in_the_browser(page, tmp_path, shots):
    records = tmp_path / "records"
    with serving(SNIFF, records) as base:
        start_game(page, base, players=2, options={"target": "60"}, seed=3)
        assert page.locator("#table svg [data-item]").count() == 7  # S5: seven tiles each with 2 players
        tiles_on_table = lambda p: p.locator("#table svg g[data-tile]:not([data-item])").count() >= 6  # noqa: E731
        moves = play_by_clicks(page, shots / "web_sniff.png", tiles_on_table)
        assert moves >= 5 and (shots / "web_sniff.png").exists()
        assert "won the match" in page.inner_text("#result")
        assert page.locator("#table [data-last]").count() >= 1  # the last tiles placed carry their seats
        doc = check_record(records, SNIFF, page)
        assert doc["options"]["target"] == 60 and len(doc["session"]["think_ms"]) == moves
        step_replay(page, doc, shots / "web_replay.png")


def test_twelve_game_in_the_browser(page, tmp_path, shots):
    records = tmp_path / "records"
    with serving(TWELVE, records) as base:
        start_game(page, base, players=3, options={}, seed=5)
        assert page.locator("#table svg [data-item]").count() == 5  # T5: five cards each
        assert "draw" not in page.inner_text("#keys")  # "12" has no draw or pass key
        listed = [b.get_attribute("data-action") for b in page.locator("#moves button").all()]
        assert len(listed) == len(set(listed))  # two cards of one rank are one move
        pile = lambda p: p.locator("#table svg g[data-card]:not([data-item])").count() >= 3  # noqa: E731
        moves = play_by_clicks(page, shots / "web_twelve.png", pile)
        assert moves >= 3
        assert "final scores" in page.inner_text("#result")
        assert "Your hand" in page.inner_text("#table")  # the end screen names the player's own hand
        doc = check_record(records, TWELVE, page)
        assert doc["options"] == {"num_players": 3, "deck": "bridge", "capture_extra_turn": False}
        step_replay(page, doc, None)


def test_start_waits_once_and_moves_say_the_agents_are_thinking(page, tmp_path, monkeypatch):
    """A slow first game (a cold compile) cannot be started twice: Start disables at the first
    click. While the agents answer a move, the status says so."""
    from sniff_twelve.web.server import Server

    new_game, move = Server.new_game, Server.move

    def slow_new_game(self, *args, **kwargs):
        time.sleep(1.0)
        return new_game(self, *args, **kwargs)

    def slow_move(self, *args, **kwargs):
        time.sleep(1.0)
        return move(self, *args, **kwargs)

    monkeypatch.setattr(Server, "new_game", slow_new_game)
    monkeypatch.setattr(Server, "move", slow_move)
    with serving(TWELVE, tmp_path) as base:
        page.goto(f"{base}/")
        page.select_option("#players", "2")
        page.click("#start-button")
        assert page.is_disabled("#start-button") and page.inner_text("#start-button") == "Starting…"
        page.click("#start-button", force=True, no_wait_after=True, timeout=2000)  # a second, impatient click
        page.wait_for_url("**/play/*", timeout=WAIT)
        page.wait_for_selector("body[data-version]", timeout=WAIT)
        page.locator("#moves button").first.click()
        page.wait_for_function("document.querySelector('#status').textContent.includes('thinking')", timeout=WAIT)
        wait_after(page, page.get_attribute("body", "data-version"))
    from sniff_twelve.web.store import SessionStore

    assert len(SessionStore(tmp_path / "sessions.sqlite3")) == 1  # one game, however many clicks


def test_no_request_fails_and_a_malformed_address_gets_the_start_page(page, tmp_path):
    """No 404 in the console (the favicon is inline); a link with a broken ``%`` escape shows the
    start page and says what happened, and the play page offers a way out."""
    failed = []
    page.on("response", lambda response: failed.append(response.url) if response.status >= 400 else None)
    with serving(TWELVE, tmp_path) as base:
        page.goto(f"{base}/")
        page.wait_for_selector("#start-button", timeout=WAIT)
        page.goto(f"{base}/play/%E0%A4%A")
        page.wait_for_function(
            "document.querySelector('#start-error').textContent.includes('not one this app knows')", timeout=WAIT
        )
        start_game(page, base, players=2, options={}, seed=1)
        assert page.get_attribute("#leave", "href") == "/"
    assert not failed, failed
