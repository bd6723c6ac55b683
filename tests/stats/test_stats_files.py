"""Bad and broken statistics files: each one warning, the old file never deleted, play goes on;
a database of every earlier schema version is brought up to date."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.stats import MIGRATIONS, SCHEMA_VERSION, SCHEMAS, GameRecord, Statistics, _db


def record(stats: Statistics) -> GameRecord:
    return stats.record(
        game="fake", options={}, deal="1", patience_version="0.1.0", plugin_version="1.0"
    )


def moved_aside(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if "corrupt" in p.name and p.suffix == ".db")


def check_fresh_start(db_path: Path, warnings_given: list[str], old: bytes | None) -> None:
    stats = Statistics.open(db_path, warn=warnings_given.append)
    assert stats is not None
    record(stats).update(moves=1, undos=0, hints=0, restarts=0, score=0, seconds=1, outcome="won")
    assert stats.summary("fake").won == 1
    stats.close()
    (aside,) = moved_aside(db_path.parent)
    assert len(warnings_given) == 1
    assert f"moved to {aside}" in warnings_given[0] and "\n" not in warnings_given[0]
    if old is not None:
        assert aside.read_bytes() == old  # never deleted, never changed


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database at all\n" * 40,
        os.urandom(8192),
        b"SQLite format 3\x00" + b"\x01",
        b"x",
        b"\x00" * 100,
    ],
    ids=["text", "random bytes", "header only", "one byte", "zeros"],
)
def test_a_corrupt_file_is_moved_aside(
    db_path: Path, warnings_given: list[str], content: bytes
) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(content)
    check_fresh_start(db_path, warnings_given, content)


def test_a_truncated_database_is_moved_aside(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    stats = open_stats()
    for deal in range(300):
        one = stats.record(
            game="fake",
            options={"x": "y" * 50},
            deal=str(deal),
            patience_version="0.1.0",
            plugin_version="1.0",
        )
        one.update(moves=3, undos=0, hints=0, restarts=0, score=0, seconds=1, outcome="lost")
    stats.close()
    data = db_path.read_bytes()
    db_path.write_bytes(data[: len(data) // 2])
    for extra in ("-wal", "-shm"):
        db_path.with_name(db_path.name + extra).unlink(missing_ok=True)
    check_fresh_start(db_path, warnings_given, data[: len(data) // 2])


def test_a_foreign_database_is_moved_aside(db_path: Path, warnings_given: list[str]) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE mine (x)")
    conn.close()
    check_fresh_start(db_path, warnings_given, None)
    assert "not a patience statistics database" in warnings_given[0]


def test_a_folder_in_place_of_the_file_is_moved_aside(
    db_path: Path, warnings_given: list[str]
) -> None:
    db_path.mkdir(parents=True)
    (db_path / "keep.txt").write_text("mine")
    check_fresh_start(db_path, warnings_given, None)
    assert (moved_aside(db_path.parent)[0] / "keep.txt").read_text() == "mine"


def test_an_unreadable_file_is_moved_aside(
    db_path: Path, warnings_given: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"secret")
    db_path.chmod(0)
    real = os.access
    # Root reads any file: the test tells the code what another user's run would find.
    monkeypatch.setattr(
        _db.os, "access", lambda p, mode: False if Path(p) == db_path else real(p, mode)
    )
    check_fresh_start(db_path, warnings_given, None)
    assert "cannot be read" in warnings_given[0]


def test_a_read_only_folder_turns_statistics_off(
    db_path: Path, warnings_given: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db_path.parent.mkdir(parents=True)
    real = os.access
    monkeypatch.setattr(
        _db.os, "access", lambda p, mode: False if Path(p) == db_path.parent else real(p, mode)
    )
    assert Statistics.open(db_path, warn=warnings_given.append) is None
    assert warnings_given == [f"statistics are off: the folder {db_path.parent} is read-only"]
    assert list(db_path.parent.iterdir()) == []


def test_a_folder_that_cannot_be_made_turns_statistics_off(
    tmp_path: Path, warnings_given: list[str]
) -> None:
    (tmp_path / "file").write_text("")
    assert Statistics.open(tmp_path / "file" / "stats.db", warn=warnings_given.append) is None
    assert len(warnings_given) == 1 and warnings_given[0].startswith("statistics are off: ")


def test_a_read_only_database_turns_statistics_off_untouched(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    open_stats().close()
    db_path.chmod(0o444)
    before = db_path.read_bytes()
    assert Statistics.open(db_path, warn=warnings_given.append) is None
    assert warnings_given == [f"statistics are off: {db_path} is read-only"]
    assert db_path.read_bytes() == before


def test_a_database_of_a_newer_patience_is_left_untouched(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    open_stats().close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    conn.close()
    before = db_path.read_bytes()
    assert Statistics.open(db_path, warn=warnings_given.append) is None
    assert len(warnings_given) == 1 and "written by a newer patience" in warnings_given[0]
    assert db_path.read_bytes() == before and moved_aside(db_path.parent) == []


@pytest.mark.parametrize("version", sorted(SCHEMAS))
def test_a_database_of_every_schema_version_is_brought_up_to_date(
    db_path: Path, warnings_given: list[str], version: int
) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as conn:
        conn.executescript(SCHEMAS[version])
        conn.execute("INSERT INTO schema_version VALUES (?)", (version,))
        conn.execute(
            "INSERT INTO games (id, game, options, deal, patience_version, plugin_version,"
            " started_at, updated_at, ended_at, seconds, moves, score, outcome) VALUES"
            " ('a', 'fake', '{}', '3', '0.0.1', '1', '2025-01-01', '2025-01-01', '2025-01-01',"
            " 60, 9, 5, 'won')"
        )
    conn.close()
    stats = Statistics.open(db_path, warn=warnings_given.append)
    assert stats is not None and warnings_given == []
    assert stats.summary("fake").won == 1  # the old rows are kept
    record(stats).update(moves=1, undos=0, hints=0, restarts=0, score=0, seconds=1, outcome="lost")
    assert stats.summary("fake").played == 2
    stats.close()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    conn.close()


def test_every_version_but_the_last_has_a_migration() -> None:
    assert sorted(SCHEMAS) == list(range(1, SCHEMA_VERSION + 1))
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION))


def test_a_full_disk_is_one_warning_and_no_exception(
    open_stats: Callable[[], Statistics], warnings_given: list[str]
) -> None:
    stats = open_stats()
    pages = stats._conn.execute("PRAGMA page_count").fetchone()[0]
    stats._conn.execute(f"PRAGMA max_page_count = {pages}")  # a disk with no room left
    for deal in range(200):
        one = stats.record(
            game="fake",
            options={"x": "y" * 500},
            deal=str(deal),
            patience_version="0.1.0",
            plugin_version="1.0",
        )
        for moves in (1, 2):
            one.update(
                moves=moves, undos=0, hints=0, restarts=0, score=0, seconds=1, outcome="lost"
            )
    assert warnings_given, "the disk never filled"
    assert all(w.startswith("statistics not saved: ") for w in warnings_given)
    assert len(warnings_given) <= 200  # once per game, not once per move


def test_another_process_holding_the_database_too_long_is_a_warning(
    open_stats: Callable[[], Statistics],
    db_path: Path,
    warnings_given: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stats = open_stats()
    stats._conn.execute("PRAGMA busy_timeout = 50")
    blocker = sqlite3.connect(db_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        record(stats).update(
            moves=1, undos=0, hints=0, restarts=0, score=0, seconds=1, outcome="won"
        )
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert len(warnings_given) == 1 and "locked" in warnings_given[0]


def test_a_database_held_by_another_process_at_open_is_left_alone(
    open_stats: Callable[[], Statistics],
    db_path: Path,
    warnings_given: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    open_stats().close()
    monkeypatch.setattr(_db, "BUSY_TIMEOUT", 0.05)
    blocker = sqlite3.connect(db_path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        assert Statistics.open(db_path, warn=warnings_given.append) is None
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert len(warnings_given) == 1 and "statistics are off: cannot open" in warnings_given[0]
    assert "locked" in warnings_given[0] and moved_aside(db_path.parent) == []
