"""The statistics database: where it is, how it is opened, its schema and forward migrations.

One SQLite file (``<data dir>/stats.db``) in WAL mode, so that two terminals playing at once both
record and a reader never waits for a writer; every write is one short statement in autocommit
mode (a kill -9 loses at most the statement in flight). The schema's version is kept in the table
``schema_version``; :data:`SCHEMAS` holds the CREATE script of every version ever shipped and
:data:`MIGRATIONS` the step from each version to the next (docs/stats.md).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import os
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path

from patience_core.errors import PatienceError, shown
from patience_core.files import data_dir, move_aside, protected

__all__ = [
    "BUSY_TIMEOUT",
    "MIGRATIONS",
    "SCHEMAS",
    "SCHEMA_VERSION",
    "connect",
    "default_path",
    "open_database",
]

#: How long (seconds) a write waits for another process's write before it gives up.
BUSY_TIMEOUT = 2.0

#: The CREATE script of every schema version ever shipped (version -> script), so that a test can
#: build a database of each earlier version and check it is brought up to date.
SCHEMAS: dict[int, str] = {
    1: """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    deal TEXT NOT NULL,
    patience_version TEXT NOT NULL,
    plugin_version TEXT NOT NULL,
    started_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    ended_at TEXT,
    seconds REAL NOT NULL DEFAULT 0,
    moves INTEGER NOT NULL DEFAULT 0,
    undos INTEGER NOT NULL DEFAULT 0,
    hints INTEGER NOT NULL DEFAULT 0,
    restarts INTEGER NOT NULL DEFAULT 0,
    score INTEGER,
    outcome TEXT NOT NULL
);
CREATE INDEX games_by_game ON games (game, options, outcome, seconds, score, moves);
CREATE INDEX games_by_end ON games (ended_at, game, options, outcome);
CREATE INDEX games_by_update ON games (updated_at);
""",
}

#: The SQL that brings a database of version ``n`` to version ``n + 1`` (``n`` -> script); the
#: version number itself is written by :func:`_migrate`. Empty while there is one version.
MIGRATIONS: dict[int, str] = {}

#: The schema version this patience writes.
SCHEMA_VERSION = max(SCHEMAS)

#: The tables each schema version has (from its script), so a database missing one is known to
#: be damaged rather than failing on every write.
_TABLES: dict[int, frozenset[str]] = {
    version: frozenset(re.findall(r"CREATE TABLE (\w+)", script))
    for version, script in SCHEMAS.items()
}


def default_path() -> Path:
    """``<data dir>/stats.db`` (:func:`patience_core.files.data_dir`)."""
    return data_dir() / "stats.db"


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the database at ``path`` in autocommit mode, WAL journal, a busy timeout of
    :data:`BUSY_TIMEOUT` seconds. Nothing is checked here (see :func:`open_database`).

    :raises sqlite3.Error: when the file cannot be opened or is not a database.
    """
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        # WAL with NORMAL loses nothing when a process is killed, only on a power cut.
        conn.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn


class _Broken(Exception):
    """The file is no patience statistics database we can use (its reason in the text)."""


class _Newer(Exception):
    """The file was written by a newer patience (its version in ``args[0]``)."""


def _version(conn: sqlite3.Connection) -> int | None:
    """The schema version of an opened database; ``None`` for an empty one.

    :raises _Broken: a database of something else, or a damaged one.
    """
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None
    if "schema_version" not in tables:
        raise _Broken("it is not a patience statistics database")
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    if row is None or row[0] is None:
        raise _Broken("it has no schema version")
    version = row[0]
    # 0, -1, 1.5 or a text: no patience wrote it, so the file is damaged (a newer one is not).
    if (
        not isinstance(version, int)
        or version < 1
        or (version <= SCHEMA_VERSION and version not in SCHEMAS)
    ):
        raise _Broken(f"its schema version {shown(str(version), 20)} is not one patience knows")
    if version <= SCHEMA_VERSION:
        missing = sorted(_TABLES[version] - tables)
        if missing:
            raise _Broken(f"its table {missing[0]} is missing")
    return version


def _migrate(conn: sqlite3.Connection) -> None:
    """Create the schema in an empty database, or bring an older one up to date, in one
    transaction (two processes starting at once: the second one waits, then finds it done).

    :raises _Newer: a database from a newer patience (left untouched).
    :raises _Broken: see :func:`_version`.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _version(conn)
        if version is not None and version > SCHEMA_VERSION:
            raise _Newer(version)
        if version is None:
            for statement in _statements(SCHEMAS[SCHEMA_VERSION]):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
        else:
            for step in range(version, SCHEMA_VERSION):
                for statement in _statements(MIGRATIONS[step]):
                    conn.execute(statement)
                conn.execute("UPDATE schema_version SET version = ?", (step + 1,))
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    # executescript() would commit the open transaction first; the scripts hold no ';' in text.
    return [part.strip() for part in script.split(";") if part.strip()]


def _stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S")


def _move_broken(path: Path) -> Path:
    """Move a damaged database (and its ``-wal``/``-shm`` files) aside, never deleting it.

    :raises PatienceError: when it cannot be renamed.
    """
    new = move_aside(path, lambda serial: f"{path.stem}-{_stamp()}{serial}-corrupt{path.suffix}")
    for extra in ("-wal", "-shm"):
        side = path.with_name(path.name + extra)
        if side.exists():
            with contextlib.suppress(OSError):
                os.rename(side, new.with_name(new.name + extra))
    return new


def _check_place(path: Path) -> None:
    """Refuse a data folder or file patience may not write (statistics are then off).

    :raises PermissionError: with the reason in ``strerror``.
    """
    folder = path.parent
    odd = _not_a_folder(folder)
    if odd is not None:
        raise PermissionError(errno.ENOTDIR, f"the data folder {odd} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PermissionError(exc.errno or errno.EACCES, exc.strerror or str(exc)) from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"the folder {folder} is read-only")
    try:
        if path.is_file() and os.access(path, os.R_OK) and protected(path):
            raise PermissionError(errno.EACCES, f"{path} is read-only")
    except OSError as exc:
        if isinstance(exc, PermissionError):
            raise
        raise PermissionError(exc.errno or errno.EACCES, exc.strerror or str(exc)) from None


def _not_a_folder(folder: Path) -> Path | None:
    """The first of ``folder`` and its parents that exists and is no folder (``None``: none)."""
    for place in (folder, *folder.parents):
        with contextlib.suppress(OSError):
            if place.exists():
                return None if place.is_dir() else place
    return None


def _side_problem(path: Path) -> str | None:
    """Why SQLite cannot use the ``-wal`` or ``-shm`` file beside ``path`` (one that is a folder,
    say), for a message naming the real cause rather than SQLite's; ``None``: no such fault."""
    for extra in ("-wal", "-shm"):
        side = path.with_name(path.name + extra)
        with contextlib.suppress(OSError):
            if side.exists() and not side.is_file():
                return f"{side} is not a file"
    return None


def _open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to the database at ``path`` (a file or folder patience may not
    write): ``mode=ro``, or also ``immutable=1`` when SQLite cannot make its ``-shm`` file (a
    read-only folder, where no other process can be writing either).

    :raises sqlite3.Error: when it cannot be opened or read.
    """
    uri = path.resolve().as_uri()
    conn: sqlite3.Connection | None = None
    try:
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, isolation_level=None)
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if conn is not None:
            conn.close()
        conn = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, isolation_level=None)
    return conn


def _read_only(path: Path, reason: str, warn: Callable[[str], None]) -> sqlite3.Connection | None:
    """The database at ``path`` opened only to read it, for ``patience stats`` and ``history``
    when patience may not write it; one warning and ``None`` when even that fails."""
    try:
        conn = _open_read_only(path)
    except sqlite3.Error:
        warn(f"statistics are off: {reason}")
        return None
    try:
        version = _version(conn)
        if version != SCHEMA_VERSION:
            raise _Broken("it needs writing to be brought up to date")
        return conn
    except (_Broken, sqlite3.Error) as exc:
        conn.close()
        why = shown(str(exc), 60, quote=False)
        warn(f"statistics are off: {reason} and {path} cannot be read ({why})")
        return None


#: The first bytes of every SQLite 3 database file.
_HEADER = b"SQLite format 3\x00"


def _check_header(path: Path) -> None:
    """Refuse a file that is not empty and does not begin as a database does: SQLite would take a
    short one (under a page) for an empty database and write over it.

    :raises _Broken: for such a file.
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(len(_HEADER))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise _Broken(f"it cannot be read: {exc.strerror or exc}") from None
    if head and head != _HEADER:
        raise _Broken("it is not an SQLite database")


def open_database(
    path: Path, warn: Callable[[str], None], *, reading: bool = False
) -> sqlite3.Connection | None:
    """Open (creating when missing) the statistics database at ``path``, brought up to the current
    schema.

    * a folder or file patience may not write: one warning, statistics off (``None``);
    * a database of a newer patience: one warning, the file untouched, ``None``;
    * a damaged or foreign file (truncated, random bytes, a folder, unreadable): moved aside to a
      new name beside it (one warning naming it; never deleted), and a fresh database started.

    Nothing in the file stops the caller: every error of opening or migrating it (SQLite's, or
    a value no patience wrote) ends here as one warning.

    :param warn: called with each one-line warning.
    :param reading: only reading is needed (``patience stats``, ``history``): an existing
        database patience may not write is opened read-only.
    :returns: the connection, or ``None`` when statistics are off.
    """
    try:
        _check_place(path)
    except PermissionError as exc:
        if reading and exc.errno != errno.ENOTDIR and path.is_file():
            return _read_only(path, str(exc.strerror), warn)
        warn(f"statistics are off: {exc.strerror}")
        return None
    try:
        return _open_writable(path, warn)
    except (sqlite3.Error, OSError, ValueError, KeyError, TypeError, PatienceError) as exc:
        warn(f"statistics are off: cannot open {path}: {shown(str(exc), 60, quote=False)}")
        return None


def _open_writable(path: Path, warn: Callable[[str], None]) -> sqlite3.Connection | None:
    """:func:`open_database` once the place is known writable."""
    for attempt in (1, 2):
        conn: sqlite3.Connection | None = None
        try:
            if path.exists() and not path.is_file():
                raise _Broken("it is not a file")
            if path.exists() and not os.access(path, os.R_OK):
                raise _Broken("it cannot be read")
            _check_header(path)
            conn = connect(path)
            _migrate(conn)
            row = conn.execute("PRAGMA quick_check").fetchone()
            if row is None or row[0] != "ok":
                raise _Broken("it is damaged")
            return conn
        except _Newer as exc:
            if conn is not None:
                conn.close()
            warn(
                f"statistics are off: {path} was written by a newer patience "
                f"(schema {exc.args[0]}, this one reads up to {SCHEMA_VERSION})"
            )
            return None
        except sqlite3.OperationalError as exc:
            # Busy, a full disk, an I/O error: the file may be sound; it is left as it is.
            if conn is not None:
                conn.close()
            why = _side_problem(path) or shown(str(exc), 60, quote=False)
            warn(f"statistics are off: cannot open {path}: {why}")
            return None
        except (_Broken, sqlite3.DatabaseError) as exc:
            # sqlite3 raises DatabaseError itself (not a subclass) for a damaged or foreign file.
            if conn is not None:
                conn.close()
            if attempt == 2:
                break
            reason = str(exc) if isinstance(exc, _Broken) else shown(str(exc), 60, quote=False)
            try:
                new = _move_broken(path)
            except PatienceError as err:
                warn(f"statistics are off: {path} is damaged ({reason}) and {err}")
                return None
            warn(
                f"the statistics {path} were damaged ({reason}): moved to {new}; "
                "a new database is started"
            )
    warn(f"statistics are off: {path} cannot be opened")
    return None
