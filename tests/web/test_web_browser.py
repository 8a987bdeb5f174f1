"""``serve`` in a real browser: headless Chromium — the operating system's package, driven by
Playwright for Python pointed at its executable (no browser download) — starts a game on the
start page, plays a whole 2-player Sniff match and a whole "12" game by clicking tiles, cards and
spots (and a few moves by keyboard), stops at each hand's end until it continues, checks the saved
record and steps through its replay; then plays both games again by taps on a 390 px phone
screen, and resigns a game.

Without Chromium the tests skip, saying how to get it (``apt-get install chromium``; ``CHROMIUM``
names another executable). The screenshots go to a temporary folder; ``SCREENSHOTS_DIR=docs``
writes the docs' pictures (``docs/web_sniff.png``, ``docs/web_hand_end.png``,
``docs/web_twelve.png``, ``docs/web_replay.png``, ``docs/web_phone.png``).
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
pytestmark = [
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"no Chromium at {CHROMIUM}: install the system's browser (Debian/Ubuntu: apt-get install chromium) "
        "or set CHROMIUM=/path/to/chromium",
    ),
    pytest.mark.xdist_group("browser"),  # one worker: its module fixture is made once
]
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


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def _page(browser, **context):
    context = browser.new_context(**context)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def page(browser):
    yield from _page(browser, viewport={"width": 1100, "height": 900})


@pytest.fixture
def phone(browser):
    """A 390 × 844 phone screen that takes taps."""
    yield from _page(browser, **PHONE)


@pytest.fixture
def shots(tmp_path) -> Path:
    return Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path / "shots")


@contextmanager
def serving(spec, records: Path, **app_options):
    """The app (``create_app``'s ``app_options``: a study, its admin token) on uvicorn in a thread,
    on a free port of 127.0.0.1; yields its base URL."""
    from sniff_twelve.web.server import create_app  # after the skips: it needs the web extra

    app = create_app(spec, records, **app_options)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
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


def continue_after_hand_end(page, ends: int, shot: Path | None) -> None:
    """The end of a hand: the table as it ended, every hand face up, the settlement and that hand's
    events (not the next hand's deal and opening), until the player continues (a click, or Enter
    every other time)."""
    assert page.inner_text("#status") == "The hand is over"
    assert page.inner_text("#settlement").startswith(f"hand {ends} over (")
    assert page.locator("#your-hand [data-item]").count() == 0 and page.locator("#table [data-tile]").count() >= 7
    assert f"hand {ends} over" in page.locator("#log li").last.inner_text()  # that hand's events, last its end
    if shot is not None and not shot.exists():
        picture(page, shot)
    if ends % 2:
        page.click("#continue")
    else:
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.handEnd === 'false'", timeout=WAIT)
    assert f"hand {ends} over" not in page.inner_text("#log")  # then the next hand's events only


def play_by_clicks(page, shot: Path, shot_when, hand_end_shot: Path | None = None) -> tuple[int, int]:
    """Play the human's moves to the end: a playable tile or card, then a highlighted spot (every
    third move by keyboard: → then Enter), or the DRAW / PASS button; at each hand's end, continue.
    One screenshot, taken with a tile picked and its spots lit, the first time ``shot_when(page)``
    holds. Returns the moves and the hands' ends seen."""
    moves = ends = 0
    while page.get_attribute("body", "data-over") != "true":
        if page.get_attribute("body", "data-hand-end") == "true":
            ends += 1
            continue_after_hand_end(page, ends, hand_end_shot)
            continue
        version = page.get_attribute("body", "data-version")
        buttons = page.locator("#buttons button")
        if buttons.count():
            label = buttons.first.inner_text()
            assert label.startswith(("Draw", "Pass")) and page.locator("#your-hand .playable").count() == 0
            buttons.first.click()
        elif moves % 3 == 2:
            page.keyboard.press("ArrowRight")
            assert page.locator("#table .spot.focus").count() == 1
            page.keyboard.press("Enter")
        else:
            page.locator("#your-hand .playable").first.click()
            assert page.locator("#your-hand .selected").count() == 1
            targets = page.locator("#table .spot.target")
            assert targets.count() >= 1 and page.locator("#buttons button").count() == targets.count()
            if not shot.exists() and shot_when(page):
                picture(page, shot)
            targets.first.click()
        wait_after(page, version)
        assert page.inner_text("#error") == "", page.inner_text("#error")
        moves += 1
    return moves, ends


def fits(page, width: int = PHONE["viewport"]["width"]) -> None:
    """Nothing wider than the screen: no sideways scrolling."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


LEAST_LABEL, LEAST_TILE = 11, 28  # px on a phone's screen: a label's size, a tile's or card's shorter side
MEASURE = """where => {
  const svg = document.querySelector(`${where} svg`);
  const scale = (node) => { const m = node.getScreenCTM(); return Math.hypot(m.a, m.b); };
  const labels = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) =>
    Math.min(t.getBoundingClientRect().height, parseFloat(t.getAttribute("font-size")) * scale(t)));
  const items = [...svg.querySelectorAll("[data-tile], [data-card]")].map((node) => {
    const box = node.getBoundingClientRect();
    return Math.min(box.width, box.height);
  });
  const hand = /· hand (\\d+) ·/.exec(svg.textContent);
  return {label: Math.min(...labels), labels: labels.length, item: Math.min(...items), items: items.length,
          arms: svg.querySelectorAll('[data-spot="2"], [data-spot="3"]').length, hand: hand ? Number(hand[1]) : 1};
}"""


def measure(page, where: str = "#table") -> dict:
    """The table as the screen shows it (``getBoundingClientRect``): its smallest label (the lesser of
    its box's height and its font size at the drawing's scale) and its smallest tile or card (the
    shorter side), in px, with how many of each; the Sniff's side arms open, the hand it is in.
    Fails unless every label is at least ``LEAST_LABEL`` px and every tile or card ``LEAST_TILE``."""
    seen = page.evaluate(MEASURE, where)
    assert seen["label"] >= LEAST_LABEL, f"a label of {seen['label']:.1f} px on the table: {seen}"
    assert seen["items"] == 0 or seen["item"] >= LEAST_TILE, f"a tile or card {seen['item']:.1f} px across: {seen}"
    return seen


def play_by_taps(page, shot: Path | None) -> tuple[int, int, list[dict]]:
    """Play to the end on a phone: tap a playable tile or card (at least 40 × 80 px), then the
    button of its first placement (at least 40 px high); at each hand's end, continue. Every table
    shown is ``measure``d; returns the moves, the hands' ends and the measures."""
    moves = ends = 0
    seen = []
    while page.get_attribute("body", "data-over") != "true":
        fits(page)
        seen.append(measure(page))
        if page.get_attribute("body", "data-hand-end") == "true":
            ends += 1
            page.tap("#continue")
            page.wait_for_function("() => document.body.dataset.handEnd === 'false'", timeout=WAIT)
            continue
        version = page.get_attribute("body", "data-version")
        playable = page.locator("#your-hand .playable")
        if playable.count():
            box = playable.first.bounding_box()
            assert box["width"] >= 40 and box["height"] >= 80, box
            playable.first.tap()
        button = page.locator("#buttons button").first
        assert button.bounding_box()["height"] >= 40
        if shot is not None and not shot.exists() and playable.count():
            picture(page, shot, screen=True)
        button.tap()
        wait_after(page, version)
        assert page.inner_text("#error") == "", page.inner_text("#error")
        moves += 1
    fits(page)
    seen.append(measure(page))
    return moves, ends, seen


def picture(page, path: Path, screen: bool = False) -> None:
    """A picture of the page's content (or, with ``screen``, of what the screen shows)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    (page if screen else page.locator("main")).screenshot(path=str(path))
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


def step_replay(page, doc: dict, shot: Path | None, measured: bool = False) -> None:
    """Open the replay from the list of finished games, step forward and back, jump to a hand and
    to the end (``measured``: each of those tables ``measure``d)."""
    name = page.locator("#result a").first.inner_text()
    page.click("header a[href='/replay']")
    page.locator(f"#record-list a[href='/replay/{name}']").click()
    page.wait_for_url(f"**/replay/{name}", timeout=WAIT)
    page.wait_for_selector("#replay-table svg", timeout=WAIT)
    steps = len(doc["actions"])

    def position(k: int) -> None:
        page.wait_for_function(
            "t => document.querySelector('#position').textContent === t", arg=f"move {k} of {steps}", timeout=WAIT
        )
        if measured:
            measure(page, "#replay-table")

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
        assert page.locator("#your-hand [data-item]").count() == 7  # S5: seven tiles each with 2 players
        tiles_on_table = lambda p: p.locator("#table svg g[data-tile]:not([data-item])").count() >= 6  # noqa: E731
        moves, ends = play_by_clicks(page, shots / "web_sniff.png", tiles_on_table, shots / "web_hand_end.png")
        assert moves >= 5 and ends >= 1 and (shots / "web_sniff.png").exists()
        assert "won the match" in page.inner_text("#result")
        assert page.locator("#table [data-last]").count() >= 1  # the last tiles placed carry their seats
        doc = check_record(records, SNIFF, page)
        assert doc["options"]["target"] == 60 and len(doc["session"]["think_ms"]) == moves
        step_replay(page, doc, shots / "web_replay.png")


def test_twelve_game_in_the_browser(page, tmp_path, shots):
    records = tmp_path / "records"
    with serving(TWELVE, records) as base:
        start_game(page, base, players=3, options={}, seed=5)
        assert page.locator("#your-hand [data-item]").count() == 5  # T5: five cards each
        assert "draw" not in page.inner_text("#keys")  # "12" has no draw or pass key
        listed = [b.get_attribute("data-action") for b in page.locator("#moves button").all()]
        assert len(listed) == len(set(listed))  # two cards of one rank are one move
        pile = lambda p: p.locator("#table svg g[data-card]:not([data-item])").count() >= 3  # noqa: E731
        moves, ends = play_by_clicks(page, shots / "web_twelve.png", pile)
        assert moves >= 3 and ends == 0  # "12" is one hand: its end is the game's
        assert "final scores" in page.inner_text("#result")
        assert "Your hand" in page.inner_text("#table")  # the end screen names the player's own hand
        doc = check_record(records, TWELVE, page)
        assert doc["options"] == {"num_players": 3, "deck": "bridge", "capture_extra_turn": False, "hand_size": 5}
        step_replay(page, doc, None)


def test_start_waits_once_and_moves_say_the_agents_are_thinking(page, tmp_path, monkeypatch):
    """A slow first game (a cold compile) cannot be started twice: Start disables at the first
    click. While the agents answer a move, the status says so."""
    from sniff_twelve.web.service import Server

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
        page.wait_for_function("() => document.querySelector('#status').textContent.includes('thinking')", timeout=WAIT)
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
            "() => document.querySelector('#start-error').textContent.includes('not one this app knows')",
            timeout=WAIT,
        )
        start_game(page, base, players=2, options={}, seed=1)
        assert page.get_attribute("#leave", "href") == "/"
    assert not failed, failed


@pytest.mark.parametrize(("spec", "players", "options", "seed"), [(SNIFF, 2, {"target": "60"}, 0), (TWELVE, 3, {}, 5)])
def test_a_whole_game_by_taps_on_a_phone(phone, tmp_path, shots, spec, players, options, seed):
    """At 390 px nothing scrolls sideways, the hand's tiles and cards and the move buttons are big
    enough to tap, and a whole game plays by taps alone, hand ends included; the replay fits too.
    Every table shown, from the opening through a long cross with the Sniff's arms to the last
    hand and the replay, has its labels at least 11 px and its tiles and cards at least 28 px
    across as the screen shows them."""
    records = tmp_path / "records"
    with serving(spec, records) as base:
        phone.goto(f"{base}/")
        phone.wait_for_selector("#start-button", timeout=WAIT)
        fits(phone)
        start_game(phone, base, players=players, options=options, seed=seed)
        assert phone.is_visible("#scores") and "seat 1" in phone.inner_text("#scores")  # readable, not 5 px
        shot = shots / "web_phone.png" if spec is SNIFF else None
        moves, ends, seen = play_by_taps(phone, shot)
        assert moves >= 3 and (ends >= 1) == (spec is SNIFF)
        if spec is SNIFF:  # the opening, a long cross with the Sniff's arms, a later hand
            assert seen[0]["items"] <= 1 and seen[0]["hand"] == 1, seen[0]
            assert any(s["items"] >= 10 and s["arms"] for s in seen), max(seen, key=lambda s: s["items"])
            assert max(s["hand"] for s in seen) == ends + 1  # the match's last hand too
        else:  # the pile grown, and the end with every hand face up
            assert any(s["items"] >= 4 for s in seen[:-1]) and seen[-1]["items"] > seen[-2]["items"]
        assert phone.locator("#result a").count() == 2  # the record and a new game
        doc = check_record(records, spec, phone)
        step_replay(phone, doc, None, measured=True)
        fits(phone)


def test_resign_ends_the_game_and_saves_it(page, tmp_path):
    """Resign asks first; a declined question changes nothing, an accepted one ends the game there,
    saves it as resigned and leaves nothing to play."""
    records = tmp_path / "records"
    with serving(SNIFF, records) as base:
        start_game(page, base, players=4, options={}, seed=4)
        version = page.get_attribute("body", "data-version")
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.click("#resign")
        page.wait_for_timeout(300)
        assert page.get_attribute("body", "data-over") == "false" and not list(records.glob("*.json"))
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#resign")
        page.wait_for_function("() => document.body.dataset.over === 'true'", timeout=WAIT)
        assert page.inner_text("#result").startswith("You resigned after 0 of your moves.")
        assert page.is_hidden("#resign") and page.locator("#your-hand [data-item], #buttons button").count() == 0
        [record] = records.glob("*.json")
        doc = json.loads(record.read_text())
        assert doc["session"]["resigned"] is True and len(doc["actions"]) == int(version)
        assert not SNIFF.game_cls.from_record(doc).is_terminal()  # the record stops where the player resigned


def test_the_replay_list_loads_older_games_a_page_at_a_time(page, tmp_path):
    """130 records: the list shows the newest 100 and an *older games* button that adds the rest."""
    for k in range(130):
        doc = {"game": "sniff", "options": {"num_players": 2}, "actions": [k], "result": {"scores": [k, 0]}}
        (tmp_path / f"2099{k:04d}-000000-sniff-{k:08x}.json").write_text(json.dumps(doc))
    with serving(SNIFF, tmp_path) as base:
        page.goto(f"{base}/replay")
        page.wait_for_selector("#record-list tr.older", timeout=WAIT)
        assert page.locator("#record-list a").count() == 100
        page.click("#record-list tr.older button")
        page.wait_for_function("() => document.querySelectorAll('#record-list a').length === 130", timeout=WAIT)
        assert page.locator("#record-list tr.older").count() == 0
        assert page.locator("#record-list a").first.inner_text() == "20990129-000000-sniff-00000081.json"


@pytest.mark.parametrize("spec", [SNIFF, TWELVE], ids=["sniff", "twelve"])
def test_the_table_the_hand_and_the_moves_fit_a_laptop_screen(browser, tmp_path, spec):
    """At 1280 × 800 the whole table, the player's hand and the move buttons are on the screen
    without scrolling (the table gives way in height, never the hand)."""
    for page in _page(browser, viewport={"width": 1280, "height": 800}):
        with serving(spec, tmp_path) as base:
            start_game(page, base, 4 if spec is SNIFF else 3, {}, seed=5)
            boxes = {
                name: page.locator(selector).bounding_box()
                for name, selector in (
                    ("table", "#table svg"),
                    ("hand", "#your-hand"),
                    ("status", "#status"),
                    ("buttons", "#buttons"),
                )
            }
            assert page.evaluate("window.scrollY") == 0
            assert boxes["status"]["y"] >= 0 and boxes["table"]["y"] >= 0
            assert boxes["table"]["y"] + boxes["table"]["height"] <= 800, boxes
            assert boxes["hand"]["y"] + boxes["hand"]["height"] <= 800, boxes
            assert boxes["buttons"]["y"] + boxes["buttons"]["height"] <= 800, boxes
            assert boxes["table"]["width"] >= 600, boxes  # still a table, not a thumbnail
