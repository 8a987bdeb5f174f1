"""A study's data, read back from its records folder: the study (``study.json``, written by
``study run``), the participants (``sessions.sqlite3``) and their finished hands (the record
files), as rows (``study_rows``) — what ``study export`` writes and ``study analyze`` reads.

Three kinds of row, one table (``COLUMNS``):

- ``decision``: every move of every finished hand, by any seat: the deciding seat's view only
  (its own hand, ``view_hand``; its observation, ``view_observation``, computed from
  ``Game.seat_view``: what the seat may know, every hidden item dealt canonically; its legal
  moves), the action, who chose it (``agent``: ``human`` or the agent's spec) and, for the
  participant, the think time in ms;
- ``hand``: one per finished hand: the points, the participant side's ``margin`` (its points
  less the other side's, or the others' mean, a hand) and the agents at every seat;
- ``answer``: one per questionnaire item per block.

The tutorial's hand is in the data as condition ``tutorial`` (no block); the analysis leaves it
out. Hands still being played are not in the data until they end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sniff_twelve.core.records import replay_steps
from sniff_twelve.core.seats import Table
from sniff_twelve.web.participants import SCHEMA, STUDY_FILE, read_events, read_participants
from sniff_twelve.web.store import SessionStore
from sniff_twelve.web.study import Study

if TYPE_CHECKING:
    from sniff_twelve.core.game import BaseGame
    from sniff_twelve.web.table import WebGame

COLUMNS = (
    "kind",
    "study",
    "participant",
    "code",
    "condition",
    "block",
    "hand",
    "deal",
    "seed",
    "record",
    "step",
    "seat",
    "role",
    "agent",
    "view_hand",
    "view_observation",
    "legal",
    "action",
    "action_name",
    "think_ms",
    "points",
    "margin",
    "agents",
    "question",
    "scale",
    "answer",
)


def read_study(records: Path) -> Study:
    """The study whose data ``records`` holds (``ValueError`` if it holds none)."""
    path = Path(records) / STUDY_FILE
    try:
        return Study.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise ValueError(
            f"{records} holds no study ({STUDY_FILE} is missing): give the --records of study run"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{path} cannot be read as a study: {error}") from None


def participants(records: Path, study: Study) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The participant rows and the events (withdrawals, declines) in ``records``' store."""
    store = SessionStore(Path(records) / "sessions.sqlite3")
    try:
        with store.transaction() as db:
            for statement in SCHEMA:
                db.execute(statement)
            return read_participants(db, study.id), read_events(db, study.id)
    finally:
        store.close()


def role(study: Study, seat: int) -> str:
    return "participant" if seat == study.seat else "partner" if seat == study.partner_seat else "opponent"


def hand_margin(study: Study, game: BaseGame) -> tuple[list[float], float]:
    """A finished hand's points per seat and the participant side's margin a hand."""
    spec = game.spec
    outcome = spec.part("outcome")(game)
    points = [float(p) for p in outcome["points"]]
    table = Table.of(spec, study.players, **study.options)
    return points, table.margins(points)[study.seat] / max(int(outcome.get("hands", 1)), 1)


def _view(game: BaseGame, seat: int) -> tuple[str, str, str]:
    """The deciding seat's own hand, observation and legal moves (its view only)."""
    view = game.seat_view(seat, past=False)
    hand = json.dumps([_plain(item) for item in view.hand()])
    observation = np.asarray(view.observation()).ravel()
    if np.all(observation == np.round(observation)):
        seen = " ".join(str(int(x)) for x in observation)
    else:
        seen = " ".join(f"{float(x):g}" for x in observation)
    legal = json.dumps([game.action_name(a) for a in game.legal_actions()])
    return hand, seen, legal


def _plain(item: Any) -> Any:
    if isinstance(item, (tuple, list)):
        return [_plain(x) for x in item]
    return item.item() if isinstance(item, np.generic) else item


def study_rows(records: Path, web: WebGame) -> tuple[Study, list[dict[str, Any]], list[dict[str, Any]]]:
    """The study in ``records``, its rows (module docstring) and each hand's record (with a
    ``study`` key: participant, condition, block, hand, deal), in participant and plan order."""
    records = Path(records)
    study = read_study(records)
    docs, _ = participants(records, study)
    rows: list[dict[str, Any]] = []
    kept: list[dict[str, Any]] = []
    base = {"study": study.id}
    for doc in docs:
        who = {**base, "participant": doc["index"], "code": doc["code"]}
        for stage in study.plan(doc["order"]):
            if stage["kind"] == "questions" and str(stage["block"]) in doc["answers"]:
                given = doc["answers"][str(stage["block"])]["answers"]
                for q in study.questions:
                    rows.append(
                        {
                            **who,
                            "kind": "answer",
                            "condition": stage["condition"],
                            "block": stage["block"],
                            "question": q.id,
                            "scale": q.scale,
                            "answer": given[q.id],
                        }
                    )
            if stage["kind"] != "hand" or stage["key"] not in doc["records"]:
                continue
            name = doc["records"][stage["key"]]
            record = json.loads((records / name).read_text(encoding="utf-8"))
            condition = stage["condition"] or "tutorial"
            where = {
                **who,
                "condition": condition,
                "block": stage["block"],
                "hand": stage["hand"],
                "deal": stage["deal"],
                "seed": study.deal_seed(stage["deal"]),
                "record": name,
            }
            agents = {int(s): a for s, a in record["agents"].items()}
            think = {int(step): ms for step, ms in record["session"]["think_ms"]}
            game, _ = next(replay_steps(record, web.game_cls))  # the whole record checked first
            for step, action in enumerate(record["actions"]):
                seat = game.current_player
                hand, seen, legal = _view(game, seat)
                rows.append(
                    {
                        **where,
                        "kind": "decision",
                        "step": step,
                        "seat": seat,
                        "role": role(study, seat),
                        "agent": "human" if seat == study.seat else agents[seat],
                        "view_hand": hand,
                        "view_observation": seen,
                        "legal": legal,
                        "action": int(action),
                        "action_name": game.action_name(action),
                        "think_ms": think.get(step) if seat == study.seat else None,
                    }
                )
                game.apply(action)
            points, margin = hand_margin(study, game)
            seating = {str(s): ("human" if s == study.seat else agents[s]) for s in range(study.players)}
            rows.append(
                {
                    **where,
                    "kind": "hand",
                    "seat": study.seat,
                    "role": "participant",
                    "agent": "human",
                    "points": json.dumps(points),
                    "margin": margin,
                    "agents": json.dumps(seating),
                }
            )
            study_key = {k: where[k] for k in ("participant", "condition", "block", "hand", "deal", "seed")}
            kept.append({**record, "study": {"id": study.id, **study_key}})
    return study, [{column: row.get(column) for column in COLUMNS} for row in rows], kept


def csv_text(rows: list[dict[str, Any]]) -> str:
    """``rows`` as CSV with a header of ``COLUMNS`` (an empty cell for ``None``)."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
