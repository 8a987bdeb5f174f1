"""Games in progress on disk, so a restarted server continues them under the same link.

One SQLite database (the standard library's, in WAL mode) in the records folder,
``sessions.sqlite3``: a row per game, its token and a JSON document — how the game was made
(players, options, seed), who sits where, the actions so far, the human's thinking times. A
server rebuilds a game from its row by dealing it again and replaying the actions. Each write is
one transaction, so a server killed at any moment (SIGKILL included) loses at most the move it
was saving; finished records are separate files written atomically
(``sniff_twelve.web.records.write_record``). ``purge`` deletes the rows not written for a while
(``Server.purge``: the retention of ``serve --keep-days``).

>>> import tempfile
>>> store = SessionStore(Path(tempfile.mkdtemp()) / "sessions.sqlite3")
>>> store.save("t0k3n", {"actions": [3, 1]})
>>> store.load("t0k3n"), store.load("other")
({'actions': [3, 1]}, None)
>>> store.delete("t0k3n"); store.load("t0k3n") is None
True
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA = "CREATE TABLE IF NOT EXISTS sessions (token TEXT PRIMARY KEY, doc TEXT NOT NULL, updated REAL NOT NULL)"


class DamagedStoreError(ValueError):
    """The store's file fails SQLite's ``PRAGMA quick_check``: the server will not start on it."""


class UnwritableError(ValueError):
    """The store or the records folder cannot be written (read-only, not a folder, no permission):
    the server will not start on it, since every move and new game would fail."""


#: SQLite's errors that mean the file or its folder cannot be written, not that it is damaged
UNWRITABLE = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")


def check_writable(folder: Path) -> None:
    """Create ``folder`` if need be and write and remove a file in it; ``UnwritableError`` (one
    line: the folder, why, what to do) if that fails."""
    probe = Path(folder) / f".probe-{secrets.token_hex(4)}.part"
    try:
        probe.parent.mkdir(parents=True, exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as error:
        raise UnwritableError(
            f"the records folder {folder} cannot be written ({error.strerror or error}): make it a folder the "
            "user running the server can write to, or give another --records"
        ) from None


class SessionStore:
    """Rows of games in progress in the SQLite file ``path`` (created, with its folder, on the first
    write); every call is one transaction under one lock."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._connection: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _db(self, create: bool) -> sqlite3.Connection | None:
        if self._connection is None:
            if not create and not self.path.is_file():
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            try:
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=NORMAL")  # WAL: a crash never corrupts, commits survive
                connection.execute("PRAGMA secure_delete=ON")  # a deleted row is overwritten, not left in a free page
                connection.execute(SCHEMA)
            except sqlite3.DatabaseError:
                connection.close()
                raise
            self._connection = connection
        return self._connection

    def check(self) -> None:
        """Open the file if there is one, run ``PRAGMA quick_check`` on it and try a write (rolled
        back); ``DamagedStoreError`` if the check fails, ``UnwritableError`` if the file or its
        folder cannot be written (each one line: the file, what is wrong, what to do), so no server
        half-serves from it."""
        try:
            db = self._db(False)
            problems = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()] if db else ["ok"]
            if problems == ["ok"]:
                self._probe()
        except sqlite3.DatabaseError as error:
            if getattr(error, "sqlite_errorname", "").startswith(UNWRITABLE):
                self.close()
                raise UnwritableError(
                    f"{self.path} cannot be written ({error}): make it, its -wal and -shm files and its folder "
                    "writable by the user running the server (the games in it are kept), or give another --records"
                ) from None
            problems = [str(error)]
        if problems != ["ok"]:
            self.close()
            said = "; ".join(" ".join(problem.split()) for problem in problems[:3])
            raise DamagedStoreError(
                f"{self.path} is damaged ({said[:300]}): restore it from a backup, or move it aside (with any "
                f"{self.path.name}-wal and -shm beside it) to start with no games in progress; finished records "
                "are separate files and unaffected"
            )

    def _probe(self) -> None:
        """Write a row and roll it back (the file is created if there is none)."""
        with self._lock:
            db = self._db(True)
            db.execute("BEGIN")
            try:
                db.execute("INSERT OR REPLACE INTO sessions (token, doc, updated) VALUES ('', '{}', 0)")
            finally:
                db.execute("ROLLBACK")

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """The database (created if need be) under the store's lock, for one transaction."""
        with self._lock:
            db = self._db(True)
            db.execute("BEGIN")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def save(self, token: str, doc: dict[str, Any]) -> None:
        """Write (or replace) the row of ``token``."""
        with self._lock:
            self._db(True).execute(
                "INSERT OR REPLACE INTO sessions (token, doc, updated) VALUES (?, ?, ?)",
                (token, json.dumps(doc), time.time()),
            )

    def load(self, token: str) -> dict[str, Any] | None:
        """The row of ``token``, or ``None``."""
        with self._lock:
            db = self._db(False)
            row = db.execute("SELECT doc FROM sessions WHERE token = ?", (token,)).fetchone() if db else None
        return None if row is None else json.loads(row[0])

    def delete(self, token: str) -> None:
        with self._lock:
            db = self._db(False)
            if db is not None:
                db.execute("DELETE FROM sessions WHERE token = ?", (token,))

    def scrub(self) -> None:
        """Copy the write-ahead log into the file and empty it, so rows deleted (overwritten:
        ``secure_delete``) leave no older copy on disk: a study participant's withdrawal."""
        with self._lock:
            db = self._db(False)
            if db is not None:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def purge(self, before: float, spare: set[str]) -> list[str]:
        """Delete the rows last written before ``before`` (``time.time()``), but those of ``spare``;
        their tokens."""
        with self._lock:
            db = self._db(False)
            if db is None:
                return []
            db.execute("BEGIN IMMEDIATE")
            try:
                old = [row[0] for row in db.execute("SELECT token FROM sessions WHERE updated < ?", (before,))]
                gone = [token for token in old if token not in spare]
                db.executemany("DELETE FROM sessions WHERE token = ?", [(token,) for token in gone])
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        return gone

    def __len__(self) -> int:
        with self._lock:
            db = self._db(False)
            return db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] if db else 0
