"""A study's participants on the web server (``study run``): where each one stands, kept in the
games' store so a closed tab or a restarted server resumes at the last acknowledged answer.

A participant is a code in a link (``/study/<id>?p=<code>``). Nothing is stored of them until
they answer the consent page; then a row in ``sessions.sqlite3`` (table ``study_participants``)
holds their index (the order they consented in, which picks their row of the Latin square),
their condition order, the stage they are at, the token of each hand's game (the games
themselves are the web server's, kept move by move in the same store) and their answers. Every
change is one transaction written before the request is answered. No address, no user agent, no
time but the day and time of the changes is kept.

Withdrawing deletes the participant's row, their games and their records, and adds a line to
``study_events`` (the index that withdrew and when); the code is kept only as a hash, so the
same link says the data is gone rather than starting over. A decline is counted the same way.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.records import now
from sniff_twelve.web.study import NAME
from sniff_twelve.web.study_file import StudyError, markdown

STUDY_FILE = "study.json"  #: the study as its records folder keeps it beside its data

if TYPE_CHECKING:
    from sniff_twelve.web.service import Server
    from sniff_twelve.web.study import Study

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS study_participants (study TEXT NOT NULL, code TEXT NOT NULL, doc TEXT NOT NULL, "
    "updated REAL NOT NULL, PRIMARY KEY (study, code))",
    "CREATE TABLE IF NOT EXISTS study_events (study TEXT NOT NULL, kind TEXT NOT NULL, at TEXT NOT NULL, "
    "code_hash TEXT NOT NULL, detail TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS study_meta (study TEXT PRIMARY KEY, next_index INTEGER NOT NULL)",
)
MAX_TEXT = 2000  #: characters a free-text answer may have
LOCKS = 64  #: participants' locks (``StudyService.lock``)


def _played(data: dict[str, Any]) -> dict[str, Any]:
    """What decides a study's data: all of it but the consent text."""
    return {key: value for key, value in data.items() if key != "consent"}


def code_hash(study: str, code: str) -> str:
    return hashlib.sha256(f"{study}\0{code}".encode()).hexdigest()


def read_participants(db: Any, study: str) -> list[dict[str, Any]]:
    """Every participant row of ``study`` (the ``doc``s, with their ``code``), by index."""
    rows = db.execute("SELECT code, doc FROM study_participants WHERE study = ?", (study,)).fetchall()
    docs = [{**json.loads(doc), "code": code} for code, doc in rows]
    return sorted(docs, key=lambda d: (d.get("index") is None, d.get("index") or 0, d["code"]))


def read_events(db: Any, study: str) -> list[dict[str, Any]]:
    rows = db.execute("SELECT kind, at, detail FROM study_events WHERE study = ? ORDER BY rowid", (study,)).fetchall()
    return [{"kind": kind, "at": at, **json.loads(detail)} for kind, at, detail in rows]


class StudyService:
    """The participants of ``study``, their games played on ``server`` (its store and records)."""

    def __init__(self, study: Study, server: Server) -> None:
        """Keep ``study`` in the records folder (``study.json``): ``StudyError`` if the folder holds
        another study, or this one changed since its data began (its deals, conditions, questions)."""
        self.study, self.server = study, server
        #: a participant's changes one at a time (a lock of ``LOCKS`` picked by their code: a hand
        #: dealt for one, its agents moving first, holds up no other); the index each consent takes
        #: is counted in one transaction of the store
        self.locks = [threading.Lock() for _ in range(LOCKS)]
        kept = Path(server.records) / STUDY_FILE
        if kept.exists():
            before = json.loads(kept.read_text(encoding="utf-8"))
            if _played(before) != _played(study.to_json()):
                what = "another study" if before.get("id") != study.id else f"study {study.id} as it was before"
                raise StudyError(
                    f"{server.records} holds the data of {what} ({kept.name} differs): give another --records, "
                    "or restore the study file its data was collected under"
                )
        if not kept.exists() or before != study.to_json():  # new, or its consent text edited
            partial = kept.with_name(f".{kept.name}.{secrets.token_hex(4)}.part")
            partial.write_text(json.dumps(study.to_json(), indent=1) + "\n", encoding="utf-8")
            partial.replace(kept)
        with server.store.transaction() as db:
            for statement in SCHEMA:
                db.execute(statement)

    def warm_up(self) -> float:
        """Play deal 0 once under every condition (and the tutorial's), the participant's seat
        by the first opponent's agent, so no participant waits for an agent to compile; the
        seconds it took. Nothing is kept."""
        start = time.perf_counter()
        study, spec = self.study, self.server.spec
        for condition in [*study.conditions, *([study.tutorial] if study.tutorial else [])]:
            agents, _ = study.agents(spec, condition, 0)
            agents[study.seat] = spec.make_agent(condition.opponents[0] if condition.opponents else "greedy")
            game = study.new_game(spec.game_cls, 0)
            while not game.is_terminal():
                game.apply(agents[game.current_player].act(game))
        return time.perf_counter() - start

    def lock(self, code: str) -> threading.Lock:
        return self.locks[int(code_hash(self.study.id, code)[:8], 16) % LOCKS]

    # --- rows -------------------------------------------------------------------------------------------
    def _load(self, code: str) -> dict[str, Any] | None:
        with self.server.store.transaction() as db:
            row = db.execute(
                "SELECT doc FROM study_participants WHERE study = ? AND code = ?", (self.study.id, code)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def _save(self, code: str, doc: dict[str, Any]) -> None:
        doc["updated"] = now()
        with self.server.store.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO study_participants (study, code, doc, updated) VALUES (?, ?, ?, ?)",
                (self.study.id, code, json.dumps(doc), time.time()),
            )

    def _event(self, db: Any, kind: str, code: str, detail: dict[str, Any]) -> None:
        db.execute(
            "INSERT INTO study_events (study, kind, at, code_hash, detail) VALUES (?, ?, ?, ?, ?)",
            (self.study.id, kind, now(), code_hash(self.study.id, code), json.dumps(detail)),
        )

    def _gone(self, code: str) -> str | None:
        """``"withdrawal"`` or ``"decline"`` if the code has withdrawn or declined, else ``None``."""
        with self.server.store.transaction() as db:
            row = db.execute(
                "SELECT kind FROM study_events WHERE study = ? AND code_hash = ? ORDER BY rowid DESC LIMIT 1",
                (self.study.id, code_hash(self.study.id, code)),
            ).fetchone()
        return None if row is None else row[0]

    @staticmethod
    def check_code(code: Any) -> str:
        if not isinstance(code, str) or not NAME.fullmatch(code):
            raise RequestError(400, "the link needs ?p= and a participant code (letters, digits, - and _)")
        return code

    # --- the way through -------------------------------------------------------------------------------------
    def state(self, code: str) -> dict[str, Any]:
        """Where participant ``code`` stands, as the page shows it (a hand's game is started the
        first time its stage is reached, then kept)."""
        code = self.check_code(code)
        with self.lock(code):
            return self._state(code)

    def _state(self, code: str) -> dict[str, Any]:
        study = self.study
        doc = self._load(code)
        head = {"study": study.id, "title": self.server.spec.ui.title}
        if doc is None:
            gone = self._gone(code)
            if gone == "withdrawal":
                return {**head, "stage": "withdrawn"}
            if gone == "decline":
                return {**head, "stage": "declined"}
            return {**head, "stage": "consent", "consent": markdown(study.consent)}
        plan = study.plan(doc["order"])
        stage = plan[doc["step"]]
        blocks = len(doc["order"])
        where = {"key": stage["key"], "blocks": blocks, "step": doc["step"], "steps": len(plan)}
        if stage["kind"] == "done":
            return {**head, **where, "stage": "done", "completion_code": study.completion_code}
        if stage["kind"] == "questions":
            questions = [{"id": q.id, "text": q.text, "scale": q.scale} for q in study.questions]
            return {**head, **where, "stage": "questions", "block": stage["block"], "questions": questions}
        token = doc["tokens"].get(stage["key"])
        if token is None:
            token = self._start(stage)
            doc["tokens"][stage["key"]] = token
            self._save(code, doc)
        tutorial = stage["key"] == "tutorial"
        hand = {"block": stage["block"], "hand": stage["hand"], "hands": study.hands_per_block, "token": token}
        return {**head, **where, "stage": "tutorial" if tutorial else "hand", **hand}

    def _start(self, stage: dict[str, Any]) -> str:
        """Deal stage ``stage``'s hand and seat its condition's agents; the game's token."""
        study, spec = self.study, self.server.spec
        condition = study.tutorial if stage["condition"] is None else study.condition(stage["condition"])
        deal = stage["deal"]
        game = study.new_game(spec.game_cls, deal)
        agents, specs = study.agents(spec, condition, deal)
        names = None
        if study.blind:
            names = [
                "you"
                if s == study.seat
                else f"partner (seat {s})"
                if s == study.partner_seat
                else f"opponent (seat {s})"
                for s in range(study.players)
            ]
        seed = study.deal_seed(deal)
        return self.server.start(game, study.seat, agents, specs, seed, True, study.recipe(deal), names)

    def consent(self, code: str, agree: Any) -> dict[str, Any]:
        """The answer to the consent page: ``True`` starts the study (the next index, its order),
        ``False`` ends it (counted, nothing else kept)."""
        code = self.check_code(code)
        if not isinstance(agree, bool):
            raise RequestError(400, 'consent is {"p": code, "agree": true or false}')
        with self.lock(code):
            if self._load(code) is not None or self._gone(code) is not None:
                return self._state(code)  # answered before (a second tab, a repeated click)
            if not agree:
                with self.server.store.transaction() as db:
                    self._event(db, "decline", code, {})
                return self._state(code)
            with self.server.store.transaction() as db:
                row = db.execute("SELECT next_index FROM study_meta WHERE study = ?", (self.study.id,)).fetchone()
                index = 0 if row is None else row[0]
                db.execute("INSERT OR REPLACE INTO study_meta VALUES (?, ?)", (self.study.id, index + 1))
                doc = {
                    "index": index,
                    "order": self.study.order_of(index),
                    "step": 0,
                    "tokens": {},
                    "records": {},
                    "answers": {},
                    "consented": now(),
                    "finished": None,
                }
                doc["updated"] = doc["consented"]
                db.execute(
                    "INSERT INTO study_participants (study, code, doc, updated) VALUES (?, ?, ?, ?)",
                    (self.study.id, code, json.dumps(doc), time.time()),
                )
            return self._state(code)

    def _active(self, code: str) -> tuple[dict[str, Any], dict[str, Any]]:
        doc = self._load(code)
        if doc is None:
            raise RequestError(409, "this participant has not consented (or has withdrawn): reload the page")
        return doc, self.study.plan(doc["order"])[doc["step"]]

    def next(self, code: str, key: Any) -> dict[str, Any]:
        """Leave the hand of stage ``key`` once its game is over (its record is noted); a ``key``
        already left changes nothing (a repeated click)."""
        code = self.check_code(code)
        with self.lock(code):
            doc, stage = self._active(code)
            if stage["key"] != key:
                return self._state(code)
            if stage["kind"] != "hand" or key not in doc["tokens"]:
                raise RequestError(409, "this stage is not a hand that has been played")
            token = doc["tokens"][key]
            with self.server.locked(token) as session:
                if not session.over:
                    raise RequestError(409, "the hand is not over yet")
                doc["records"][key] = session.record
            self._advance(doc)
            self._save(code, doc)
            return self._state(code)

    def answer(self, code: str, key: Any, answers: Any) -> dict[str, Any]:
        """The questionnaire of stage ``key``: every 1-7 item a whole number from 1 to 7, every
        text item a string (may be empty) of at most ``MAX_TEXT`` characters."""
        code = self.check_code(code)
        with self.lock(code):
            doc, stage = self._active(code)
            if stage["key"] != key:
                return self._state(code)
            if stage["kind"] != "questions":
                raise RequestError(409, "this stage has no questions")
            if not isinstance(answers, dict) or set(answers) != {q.id for q in self.study.questions}:
                ids = ", ".join(q.id for q in self.study.questions)
                raise RequestError(400, f"answers are an object with every question's id: {ids}")
            for q in self.study.questions:
                value = answers[q.id]
                if q.scale == "1-7" and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 7):
                    raise RequestError(400, f"question {q.id!r}: choose a number from 1 to 7")
                if q.scale == "text" and (not isinstance(value, str) or len(value) > MAX_TEXT):
                    raise RequestError(400, f"question {q.id!r}: text of at most {MAX_TEXT} characters")
            doc["answers"][str(stage["block"])] = {"condition": stage["condition"], "answers": answers, "at": now()}
            self._advance(doc)
            self._save(code, doc)
            return self._state(code)

    def _advance(self, doc: dict[str, Any]) -> None:
        doc["step"] += 1
        if self.study.plan(doc["order"])[doc["step"]]["kind"] == "done":
            doc["finished"] = now()

    def withdraw(self, code: str) -> dict[str, Any]:
        """Delete everything of participant ``code`` (their row, games and records) and record the
        withdrawal (their index and the time)."""
        code = self.check_code(code)
        with self.lock(code):
            doc = self._load(code)
            if doc is None:
                return self._state(code)
            tokens = list(doc["tokens"].values())
            records = set(doc["records"].values())
            for token in tokens:
                try:
                    with self.server.locked(token) as session:
                        records.add(session.record)
                except RequestError:  # its game is gone already
                    pass
            with self.server.store.transaction() as db:
                db.execute("DELETE FROM study_participants WHERE study = ? AND code = ?", (self.study.id, code))
                db.executemany("DELETE FROM sessions WHERE token = ?", [(t,) for t in tokens])
                self._event(db, "withdrawal", code, {"index": doc["index"]})
            self.server.sessions.forget(tokens)
            self.server.store.scrub()
            for name in records - {None}:
                (Path(self.server.records) / name).unlink(missing_ok=True)
            return self._state(code)

    # --- the researcher's view -------------------------------------------------------------------------------
    def progress(self) -> dict[str, Any]:
        """Each participant's progress, the conditions they have done, the withdrawals and declines."""
        with self.server.store.transaction() as db:
            docs, events = read_participants(db, self.study.id), read_events(db, self.study.id)
        rows = []
        for doc in docs:
            plan = self.study.plan(doc["order"])
            hands = [k for k in range(doc["step"]) if plan[k]["kind"] == "hand" and plan[k]["condition"]]
            finished_blocks = [
                name
                for block, name in enumerate(doc["order"])
                if all(
                    k < doc["step"]
                    for k, stage in enumerate(plan)
                    if stage.get("block") == block and stage["kind"] in ("hand", "questions")
                )
            ]
            rows.append(
                {
                    "index": doc["index"],
                    "code": doc["code"],
                    "order": doc["order"],
                    "stage": plan[doc["step"]]["key"],
                    "step": doc["step"],
                    "steps": len(plan) - 1,
                    "conditions_done": finished_blocks,
                    "hands_played": len(hands),
                    "finished": doc["finished"],
                    "updated": doc.get("updated"),
                }
            )
        return {
            "study": self.study.id,
            "participants": rows,
            "withdrawals": sum(e["kind"] == "withdrawal" for e in events),
            "declines": sum(e["kind"] == "decline" for e in events),
            "orders": self.study.orders(),
        }
