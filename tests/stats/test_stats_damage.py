"""Damage nothing in a statistics file may turn into a failure: schema versions no patience
wrote, a missing table, rows edited by hand into values patience never writes, a database
patience may only read, odd ``-wal``/``-shm`` files; and the path given as text."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from patience_core.stats import GameRecord, Statistics, _db


def record(stats: Statistics, deal: str = "1") -> GameRecord:
    return stats.record(
        game="fake", options={}, deal=deal, patience_version="0.1.0", plugin_version="1.0"
    )


def two_won_games(open_stats: Callable[[], Statistics]) -> None:
    stats = open_stats()
    for deal in ("1", "2"):
        record(stats, deal).update(
            moves=3, undos=1, hints=0, restarts=0, score=3, seconds=10.0, outcome="won"
        )
    stats.close()


def edit(db_path: Path, *statements: str) -> None:
    conn = sqlite3.connect(db_path)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()


def aside(folder: Path) -> list[Path]:
    return sorted(folder.glob("stats-*-corrupt.db"))


@pytest.mark.parametrize("version", ["0", "-1", "1.5", "'one'", "x'00'"])
def test_a_schema_version_no_patience_wrote_is_a_damaged_file(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str], version: str
) -> None:
    two_won_games(open_stats)
    edit(db_path, f"UPDATE schema_version SET version = {version}")
    before = db_path.read_bytes()
    stats = Statistics.open(db_path, warn=warnings_given.append)
    assert stats is not None  # a fresh one: the game plays on
    stats.close()
    (moved,) = aside(db_path.parent)
    (warning,) = warnings_given
    assert "is not one patience knows" in warning and f"moved to {moved}" in warning
    assert moved.read_bytes() == before  # never deleted, never changed


def test_a_database_missing_its_table_is_moved_aside_once(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    two_won_games(open_stats)
    edit(db_path, "DROP TABLE games")
    stats = Statistics.open(db_path, warn=warnings_given.append)
    assert stats is not None
    record(stats).update(moves=1, undos=0, hints=0, restarts=0, score=0, seconds=1, outcome="won")
    stats.close()
    (warning,) = warnings_given
    assert "its table games is missing" in warning
    stats = Statistics.open(db_path, warn=warnings_given.append)
    assert stats is not None and stats.summary("fake").won == 1
    stats.close()
    assert len(warnings_given) == 1 and len(aside(db_path.parent)) == 1


@pytest.mark.parametrize(
    ("change", "counted"),
    [
        ("options = 'notjson'", False),
        ("options = '[1, 2]'", False),
        ("outcome = 'maybe'", False),
        ("game = x'01'", False),
        ("seconds = 'x'", True),
        ("moves = 'many'", True),
        ("score = 'top'", True),
        ("score = 2.5", True),
    ],
)
def test_a_row_edited_by_hand_is_left_out_with_one_warning(
    open_stats: Callable[[], Statistics],
    db_path: Path,
    warnings_given: list[str],
    change: str,
    counted: bool,
) -> None:
    """A row whose outcome or options patience never writes is left out of the figures; one
    whose seconds, moves or score are odd is counted, those values left out; the history
    passes over both."""
    two_won_games(open_stats)
    edit(db_path, f"UPDATE games SET {change} WHERE deal = '1'")
    stats = open_stats()
    report = stats.report()
    assert (report.total.played, report.total.won) == ((2, 2) if counted else (1, 1))
    (fake,) = report.games
    assert fake.best_seconds == 10.0 and fake.best_score == 3
    assert fake.mean_moves == (1.5 if "moves" in change else 3.0)
    assert [row.deal for row in stats.history()] == ["2"]
    assert stats.summary("fake").played == report.total.played
    (warning,) = warnings_given  # said once, however often the figures are read
    assert warning == (
        f"1 recorded game in {db_path} holds values patience never writes (edited by hand?): "
        "left out"
    )


def test_a_row_with_an_odd_deal_is_passed_over_by_the_history_only(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    two_won_games(open_stats)
    edit(db_path, "UPDATE games SET deal = x'01' WHERE deal = '1'")
    stats = open_stats()
    assert stats.report().total.played == 2 and warnings_given == []
    assert [row.deal for row in stats.history()] == ["2"] and len(warnings_given) == 1


def test_export_writes_an_edited_row_as_stored(
    open_stats: Callable[[], Statistics], db_path: Path, tmp_path: Path
) -> None:
    two_won_games(open_stats)
    edit(db_path, "UPDATE games SET options = 'notjson', seconds = 'x' WHERE deal = '1'")
    out = tmp_path / "all.jsonl"
    assert open_stats().export(out) == 2
    assert '"options": "notjson"' in out.read_text() and '"seconds": "x"' in out.read_text()


def test_a_resumed_row_edited_by_hand_counts_on_from_zero(
    open_stats: Callable[[], Statistics], db_path: Path
) -> None:
    stats = open_stats()
    first = record(stats)
    first.update(moves=2, undos=4, hints=1, restarts=0, score=2, seconds=5, outcome="in progress")
    edit(db_path, "UPDATE games SET undos = 'lots', hints = -3")
    again = stats.record(
        game="fake",
        options={},
        deal="1",
        patience_version="0.1.0",
        plugin_version="1.0",
        game_id=first.game_id,
    )
    assert again.counts == {"undos": 0, "hints": 0, "restarts": 0}


@pytest.mark.parametrize("error", [ValueError, TypeError, KeyError, sqlite3.InterfaceError])
def test_any_error_of_opening_is_one_warning(
    db_path: Path, warnings_given: list[str], monkeypatch: pytest.MonkeyPatch, error: type
) -> None:
    def fail(conn: sqlite3.Connection) -> None:
        raise error("bad data")

    monkeypatch.setattr(_db, "_migrate", fail)
    assert Statistics.open(db_path, warn=warnings_given.append) is None
    (warning,) = warnings_given
    assert warning.startswith(f"statistics are off: cannot open {db_path}: ")


def test_the_path_may_be_text(tmp_path: Path, warnings_given: list[str]) -> None:
    stats = Statistics.open(str(tmp_path / "stats.db"), warn=warnings_given.append)
    assert stats is not None and stats.path == tmp_path / "stats.db"
    stats.close()
    assert warnings_given == []


def test_a_read_only_database_is_read_when_only_reading(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    two_won_games(open_stats)
    db_path.chmod(0o444)
    before = db_path.read_bytes()
    stats = Statistics.open(db_path, warn=warnings_given.append, reading=True)
    assert stats is not None and stats.summary("fake").won == 2
    stats.close()
    assert warnings_given == [] and db_path.read_bytes() == before


def test_a_read_only_folder_is_read_when_only_reading(
    open_stats: Callable[[], Statistics],
    db_path: Path,
    warnings_given: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    two_won_games(open_stats)
    real = os.access
    monkeypatch.setattr(
        _db.os, "access", lambda p, mode: False if Path(p) == db_path.parent else real(p, mode)
    )
    # SQLite cannot make the -shm file in a read-only folder: the database is then immutable.
    calls: list[str] = []
    real_connect = sqlite3.connect

    def connect(target: str, **kw: object) -> sqlite3.Connection:
        calls.append(target)
        if "immutable" not in target:
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(target, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(_db.sqlite3, "connect", connect)
    stats = Statistics.open(db_path, warn=warnings_given.append, reading=True)
    assert stats is not None and stats.summary("fake").won == 2
    stats.close()
    assert warnings_given == [] and len(calls) == 2 and calls[1].endswith("immutable=1")


def test_a_shm_file_that_is_a_folder_is_named(
    open_stats: Callable[[], Statistics], db_path: Path, warnings_given: list[str]
) -> None:
    two_won_games(open_stats)
    for extra in ("-wal", "-shm"):
        side = db_path.with_name(db_path.name + extra)
        if side.exists():
            side.unlink()
    db_path.with_name(db_path.name + "-shm").mkdir()
    assert Statistics.open(db_path, warn=warnings_given.append) is None
    (warning,) = warnings_given
    assert warning.endswith("-shm is not a file"), warning


def test_a_data_folder_that_is_a_file_is_said_plainly(
    tmp_path: Path, warnings_given: list[str]
) -> None:
    (tmp_path / "data").write_text("")
    assert Statistics.open(tmp_path / "data" / "stats.db", warn=warnings_given.append) is None
    assert warnings_given == [
        f"statistics are off: the data folder {tmp_path / 'data'} is a file, not a folder"
    ]


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_export_writes_the_old_unknown_plugin_version_empty(
    suffix: str, open_stats: Callable[[], Statistics], db_path: Path, tmp_path: Path
) -> None:
    # Earlier patience wrote "?" for no plugin version; history reads it as "", export too.
    two_won_games(open_stats)
    edit(db_path, "UPDATE games SET plugin_version = '?' WHERE deal = '1'")
    out = tmp_path / f"all{suffix}"
    stats = open_stats()
    assert stats.export(out) == 2
    assert [row.plugin_version for row in stats.history()] == ["1.0", ""]
    text = out.read_text()
    assert "?" not in text
    if suffix == ".jsonl":
        versions = [json.loads(line)["plugin_version"] for line in text.splitlines()]
    else:
        versions = [row["plugin_version"] for row in csv.DictReader(text.splitlines())]
    assert versions == ["", "1.0"]
