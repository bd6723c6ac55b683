"""The run store: every simulate run's parameters and rows, in one SQLite file.

Layer 4. :class:`RunStore` is a file (default ``<data dir>/runs.db``) with a ``runs`` table (one
run per set of parameters: its identity), a ``rows`` table (one row per deal, the columns of
:data:`~patience_core.simulate.COLUMNS`) and a schema version. Only the driver process writes;
rows go in by batches, one transaction each, so a kill -9 loses only the rows not yet committed,
and ``UNIQUE(run, deal)`` keeps a row from being written twice. The file is in WAL mode with a
busy timeout, so two runs may share it. See ``docs/scale.md``, "The run store".
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import socket
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from patience_core.errors import PatienceError
from patience_core.files import data_dir
from patience_core.games import shown_path
from patience_core.simulate._env import seconds_from_env
from patience_core.simulate._rows import COLUMNS, SimRow

__all__ = ["SCHEMA_VERSION", "STORE_TIMEOUT_ENV", "RunInfo", "RunStore", "default_store"]

#: The version of the tables below; a store of a newer version is refused, never changed.
SCHEMA_VERSION = 1
#: The variable giving the seconds a run waits for a store another process holds (default 30).
STORE_TIMEOUT_ENV = "PATIENCE_STORE_TIMEOUT"
_DEFAULT_TIMEOUT = 30.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    identity TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL, options TEXT NOT NULL, strategy TEXT NOT NULL,
    budget REAL, nodes INTEGER, max_moves INTEGER NOT NULL,
    first_deal TEXT NOT NULL, deals INTEGER NOT NULL,
    versions TEXT NOT NULL, host TEXT NOT NULL, started TEXT NOT NULL, ended TEXT
);
CREATE TABLE IF NOT EXISTS rows (
    run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    game TEXT NOT NULL, deal TEXT NOT NULL, strategy TEXT NOT NULL, options TEXT NOT NULL,
    result TEXT NOT NULL, score INTEGER NOT NULL, max_score INTEGER NOT NULL,
    moves INTEGER NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (run, seq), UNIQUE (run, deal)
);
"""


def default_store() -> Path:
    """``<data dir>/runs.db`` (:func:`patience_core.files.data_dir`)."""
    return data_dir() / "runs.db"


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


@attrs.frozen
class RunInfo:
    """One stored run: its number, parameters, versions, host, times and rows stored.

    :param id: the run's number in the store (``patience runs export ID``).
    :param params: the parameters that are its identity (game, options, strategy, budget,
        nodes, max_moves, first_deal, deals, versions).
    :param host: the machine the run was started on.
    :param started: when it was first started (ISO 8601, UTC).
    :param ended: when its last deal was stored (``None`` while deals are missing).
    :param rows: the rows stored.
    """

    id: int
    params: dict[str, Any]
    host: str
    started: str
    ended: str | None
    rows: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``id``, every parameter, ``host``, ``started``, ``ended``, ``rows``."""
        return {"id": self.id, **self.params, "host": self.host, "started": self.started,
                "ended": self.ended, "rows": self.rows}  # fmt: skip


_INFO = "SELECT id, identity, host, started, ended, (SELECT count(*) FROM rows WHERE run = id)"


class RunStore:
    """An open run store (see the module's docstring); close it, or use it in a ``with``.

    :param path: the SQLite file, made when missing (the folder too, for the default); default
        :func:`default_store`.
    :param create: false: a missing file is refused, nothing is made.
    :param read_only: opened only to read (listing, exporting): nothing is written.
    :param timeout: seconds to wait for a store another process holds (default
        ``$PATIENCE_STORE_TIMEOUT``, else 30).
    :raises PatienceError: one line, the file untouched: it is not a database, a database of
        something else, a store of a newer patience, held too long by another process, missing
        (``create`` false), or it or its folder cannot be made or read; for a bad
        ``$PATIENCE_STORE_TIMEOUT``.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        timeout: float | None = None,
        *,
        create: bool = True,
        read_only: bool = False,
    ):
        self.path = Path(default_store() if path is None else path)
        if timeout is None:
            timeout = seconds_from_env(STORE_TIMEOUT_ENV, _DEFAULT_TIMEOUT)
        self.timeout = timeout
        self.read_only = read_only
        shown = shown_path(self.path, quote=True)
        if self.path.is_dir():
            raise PatienceError(f"cannot use {shown} as the run store: it is a folder")
        if not (create or self.path.exists()):
            # Listing, exporting or deleting makes nothing: no file, no folder.
            raise PatienceError(f"no run store at {shown}")
        self._made_folder(path is None)
        try:
            if read_only:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self._db = sqlite3.connect(uri, timeout=timeout, isolation_level=None, uri=True)
            else:
                self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise PatienceError(f"cannot open the run store {shown}: {exc}") from None
        try:
            with self._failing("open"):
                self._setup()
        except BaseException:
            self._db.close()
            raise

    def _made_folder(self, default: bool) -> None:
        """The store's folder: made when it is the data folder's (``default``), else it must be
        there.

        :raises PatienceError: one line naming the folder: missing, or a file in its place.
        """
        folder = self.path.parent
        shown = shown_path(self.path, quote=True)
        if not default:
            if not folder.is_dir():
                what = "is not a folder" if folder.exists() else "does not exist"
                raise PatienceError(
                    f"cannot open the run store {shown}: its folder "
                    f"{shown_path(folder, quote=True)} {what}"
                )
            return
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise PatienceError(
                f"cannot make the data folder {shown_path(folder, quote=True)} for the run "
                "store: a file is in its place or in its path (PATIENCE_DATA_DIR)"
            ) from None
        except OSError as exc:
            raise PatienceError(
                f"cannot make the data folder {shown_path(folder, quote=True)}: "
                f"{exc.strerror or exc}"
            ) from None

    @contextlib.contextmanager
    def _failing(self, doing: str) -> Iterator[None]:
        """SQLite's errors as one line naming the store; a transaction left open is undone."""
        shown = shown_path(self.path, quote=True)
        try:
            yield
        except sqlite3.DatabaseError as exc:
            if self._db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise PatienceError(
                    f"cannot {doing} the run store {shown}: another process has held it locked "
                    f"for {self.timeout:g} s; try again when it is done"
                ) from None
            if "FOREIGN KEY" in text:  # rows of a run deleted since it started (runs delete)
                raise PatienceError(
                    f"cannot {doing} the run store {shown}: the run was deleted from it while "
                    "it was being played (patience runs delete); the same command starts it again"
                ) from None
            if "not a database" in text or "malformed" in text:
                raise PatienceError(
                    f"cannot {doing} the run store {shown}: it is not an SQLite database or it "
                    "is damaged; it was left as it is (move it away, or choose another --store)"
                ) from None
            raise PatienceError(f"cannot {doing} the run store {shown}: {text}") from None

    def _setup(self) -> None:
        db = self._db
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        if self.read_only and not tables:
            raise PatienceError(f"no run store at {shown_path(self.path, quote=True)}: it is empty")
        if tables and not {"meta", "runs", "rows"} <= tables:
            raise PatienceError(
                f"{shown_path(self.path, quote=True)} is an SQLite database but not a patience "
                "run store; it was left as it is (choose another --store)"
            )
        if not self.read_only:
            db.execute("PRAGMA journal_mode=WAL")  # readers never wait, writers wait their turn
        db.execute("PRAGMA foreign_keys=ON")
        if not tables:
            # One transaction: two runs making the same new store make it once.
            db.executescript(
                f"BEGIN IMMEDIATE; {_SCHEMA} INSERT OR IGNORE INTO meta "
                f"VALUES ('schema_version', '{SCHEMA_VERSION}'); COMMIT;"
            )
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if row is None or int(row[0]) > SCHEMA_VERSION:
            raise PatienceError(
                f"{shown_path(self.path, quote=True)} is a run store of a newer patience "
                f"(schema {row and row[0]}, this one reads {SCHEMA_VERSION}); it was left as it is"
            )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the file (safe twice)."""
        self._db.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def find_run(self, params: Mapping[str, Any]) -> int | None:
        """The number of the run whose identity is ``params``, ``None`` when there is none
        (nothing is made).

        :raises PatienceError: as the constructor.
        """
        identity = json.dumps(dict(params), sort_keys=True)
        with self._failing("read"):
            row = self._db.execute("SELECT id FROM runs WHERE identity = ?", (identity,)).fetchone()
        return None if row is None else int(row[0])

    def run_for(self, params: Mapping[str, Any]) -> int:
        """The number of the run whose identity is ``params`` (JSON-ready: game, options, ...),
        made when there is none; the same parameters always give the same run.

        :raises PatienceError: as the constructor (a locked store).
        """
        identity = json.dumps(dict(params), sort_keys=True)
        with self._failing("write"), self._transaction():
            found = self._db.execute("SELECT id FROM runs WHERE identity = ?", (identity,))
            row = found.fetchone()
            if row is not None:
                return int(row[0])
            cursor = self._db.execute(
                "INSERT INTO runs (identity, game, options, strategy, budget, nodes, max_moves,"
                " first_deal, deals, versions, host, started) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    identity,
                    params["game"],
                    json.dumps(params["options"], sort_keys=True),
                    params["strategy"],
                    params["budget"],
                    params["nodes"],
                    params["max_moves"],
                    params["first_deal"],
                    params["deals"],
                    json.dumps(params["versions"], sort_keys=True),
                    socket.gethostname(),
                    _now(),
                ),
            )
            return int(cursor.lastrowid or 0)

    def add_rows(self, run: int, rows: Iterable[tuple[int, SimRow]]) -> int:
        """Store ``rows`` (each with its place in the run, 0-based) of ``run`` in one
        transaction: all of them or, killed before the commit, none. A deal already stored is
        left as it is (its row is the same but for ``seconds``).

        :returns: how many rows were new.
        :raises PatienceError: as the constructor.
        """
        values = [(run, seq, *(getattr(row, name) for name in COLUMNS)) for seq, row in rows]
        with self._failing("write"), self._transaction():
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO rows VALUES (?,?,?,?,?,?,?,?,?,?,?)", values
            )
            return self._db.total_changes - before

    def finish(self, run: int) -> None:
        """Record that ``run`` has every row (its end time; the first end is kept)."""
        with self._failing("write"), self._transaction():
            self._db.execute("UPDATE runs SET ended = ? WHERE id = ? AND ended IS NULL",
                             (_now(), run))  # fmt: skip

    def rows(self, run: int) -> list[SimRow]:
        """The stored rows of ``run``, in deal order."""
        with self._failing("read"):
            found = self._db.execute(
                f"SELECT {', '.join(COLUMNS)} FROM rows WHERE run = ? ORDER BY seq", (run,)
            )
            return [SimRow(*values) for values in found]

    def stored_deals(self, run: int) -> set[str]:
        """The deals of ``run`` with a row stored (as text: ``"17"``, ``"ms:17"``)."""
        with self._failing("read"):
            return {deal for (deal,) in self._db.execute(
                "SELECT deal FROM rows WHERE run = ?", (run,))}  # fmt: skip

    def runs(self) -> list[RunInfo]:
        """Every stored run, oldest first."""
        with self._failing("read"):
            found = self._db.execute(f"{_INFO} FROM runs ORDER BY id").fetchall()
        return [self._info(*values) for values in found]

    def run(self, run: int) -> RunInfo:
        """The stored run numbered ``run``.

        :raises PatienceError: when there is none.
        """
        with self._failing("read"):
            found = self._db.execute(f"{_INFO} FROM runs WHERE id = ?", (run,)).fetchone()
        if found is None:
            raise PatienceError(f"no run {run} in {shown_path(self.path, quote=True)}")
        return self._info(*found)

    @staticmethod
    def _info(id_: int, identity: str, host: str, started: str, ended: str | None,
              rows: int) -> RunInfo:  # fmt: skip
        return RunInfo(id_, json.loads(identity), host, started, ended, rows)

    def delete(self, run: int) -> int:
        """Remove ``run`` and its rows.

        :returns: how many rows went with it.
        :raises PatienceError: when there is no such run.
        """
        rows = self.run(run).rows
        with self._failing("write"), self._transaction():
            self._db.execute("DELETE FROM rows WHERE run = ?", (run,))
            self._db.execute("DELETE FROM runs WHERE id = ?", (run,))
        return rows
