"""The records list as an index: a row per record file in ``sessions.sqlite3`` (``records`` table),
so listing the replays reads no record it has read before.

Each listing first brings the index up to date, and only when the folder changed since the last
one (its modification time): the folder's entries are listed (names and sizes, no file opened),
files new or changed since (size, modification time) are read once for their summary, rows of
files gone are dropped. Only what ``record_path`` serves is indexed: names directly in the folder,
no link out of it. The list is then a query, newest first, a page at a time
(``?limit=N&before=NAME``).
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sniff_twelve.web.errors import RequestError
from sniff_twelve.web.records import RECORD_NAME, record_path

if TYPE_CHECKING:
    from sniff_twelve.web.store import SessionStore

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS records (name TEXT PRIMARY KEY, game TEXT, mtime_ns INTEGER NOT NULL, "
    "size INTEGER NOT NULL, summary TEXT NOT NULL)"
)
PAGE, MAX_PAGE = 100, 500  #: records a page lists unless told, and at most


def summary(path: Path) -> tuple[str | None, dict[str, Any]]:
    """A record file's game and its line in the list (an error line if it does not read)."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        return doc["game"], {
            "name": path.name,
            "players": doc["options"]["num_players"],
            "human_seat": doc.get("human_seat"),
            "agents": doc.get("agents", {}),
            "finished": doc.get("session", {}).get("finished"),
            "actions": len(doc["actions"]),
            "scores": doc["result"]["scores"],
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, {"name": path.name, "error": "not a readable record"}


class RecordIndex:
    """The record files of ``records`` as rows of ``store``'s database."""

    def __init__(self, records: Path, store: SessionStore) -> None:
        self.records, self.store = Path(records), store
        self._seen: int | None = None  # the folder's modification time at the last refresh
        self._lock = threading.Lock()

    def refresh(self) -> None:
        """Bring the index up to date with the folder (nothing to do if it has not changed)."""
        with self._lock:
            try:
                changed = self.records.stat().st_mtime_ns
            except OSError:
                return
            if changed == self._seen:
                return
            files = {}
            with os.scandir(self.records) as entries:
                for entry in entries:
                    if RECORD_NAME.fullmatch(entry.name):
                        try:
                            path = record_path(self.records, entry.name)
                            stat = path.stat()
                        except (RequestError, OSError):  # a link out of the folder, not a file, gone
                            continue
                        files[entry.name] = (stat.st_mtime_ns, stat.st_size)
            with self.store.transaction() as db:
                db.execute(SCHEMA)
                known = {
                    name: (mtime, size) for name, mtime, size in db.execute("SELECT name, mtime_ns, size FROM records")
                }
                db.executemany("DELETE FROM records WHERE name = ?", [(name,) for name in known if name not in files])
            new = [(name, stamp) for name, stamp in files.items() if known.get(name) != stamp]
            rows = []
            for name, (mtime, size) in new:
                game, line = summary(self.records / name)
                rows.append((name, game, mtime, size, json.dumps(line)))
            with self.store.transaction() as db:
                db.executemany("INSERT OR REPLACE INTO records VALUES (?, ?, ?, ?, ?)", rows)
            self._seen = changed

    def page(self, game: str, limit: str | None = None, before: str | None = None) -> tuple[list[dict], str | None]:
        """Up to ``limit`` records of ``game`` (and unreadable ones), newest first, named before
        ``before``; and the name to continue before, if there are more. ``RequestError`` 400 if
        ``limit`` or ``before`` are not a page size and a record name."""
        if limit is None:
            count = PAGE
        elif limit.isascii() and limit.isdigit() and 1 <= int(limit) <= MAX_PAGE:
            count = int(limit)
        else:
            raise RequestError(400, f"limit must be a whole number from 1 to {MAX_PAGE}; got {limit!r}")
        if before is not None and not RECORD_NAME.fullmatch(before):
            raise RequestError(400, f"before must be a record name (NAME.json); got {before!r}")
        if not self.records.is_dir():  # no game has ended yet: nothing to create
            return [], None
        self.refresh()
        with self.store.transaction() as db:
            db.execute(SCHEMA)
            rows = db.execute(
                "SELECT summary FROM records WHERE (game = ? OR game IS NULL) AND name < ? ORDER BY name DESC LIMIT ?",
                (game, before if before is not None else "\U0010ffff", count + 1),
            ).fetchall()
        lines = [json.loads(row[0]) for row in rows[:count]]
        return lines, lines[-1]["name"] if len(rows) > count else None
