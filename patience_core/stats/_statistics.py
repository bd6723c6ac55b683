"""The statistics database as the players and the commands use it (docs/stats.md)."""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path

from patience_core.stats._db import default_path, open_database
from patience_core.stats._export import export
from patience_core.stats._history import HistoryRow, Which, history
from patience_core.stats._record import Clock, GameRecord, iso, utc_now
from patience_core.stats._summary import GameSummary, Report, collect, find, options_key

__all__ = ["Statistics"]


class Statistics:
    """An open statistics database. Made by :meth:`open`; close it with :meth:`close` (or use it
    as a context manager)."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, warn: Callable[[str], None], clock: Clock
    ) -> None:
        self._conn = conn
        self.path = path
        self._warn = warn
        self._clock = clock
        self._told_skipped = False

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        warn: Callable[[str], None],
        clock: Clock = utc_now,
        reading: bool = False,
    ) -> Statistics | None:
        """Open the statistics database, creating it when missing.

        :param path: the database file; default ``<data dir>/stats.db``.
        :param warn: called with each one-line warning (statistics off, a file moved aside, a
            write that failed).
        :param clock: the current time (UTC), for tests.
        :param reading: only reading is needed: a database patience may not write is opened
            read-only (:meth:`record`'s updates then fail, each series with one warning).
        :returns: ``None`` when statistics are off: a read-only data folder or file, a database
            of a newer patience (left untouched); one warning says why. A damaged file is moved
            aside (one warning naming its new path) and a fresh database started.
        """
        where = default_path() if path is None else Path(path)
        conn = open_database(where, warn, reading=reading)
        if conn is None:
            return None
        return cls(conn, where, warn, clock)

    def close(self) -> None:
        """Close the database (records made from it can no longer be updated)."""
        self._conn.close()

    def __enter__(self) -> Statistics:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(
        self,
        *,
        game: str,
        options: Mapping[str, str],
        deal: str,
        patience_version: str,
        plugin_version: str,
        game_id: str | None = None,
        title: str | None = None,
    ) -> GameRecord:
        """The record of a game about to be played.

        :param options: the game's option set (name -> value), best given whole (defaults too),
            so that one set is always recorded alike.
        :param deal: the deal number as ``patience play --deal`` takes it.
        :param game_id: the :attr:`GameRecord.game_id` a save kept: the resumed game continues
            that row (or makes it, if it is not there); ``None``: a new game.
        :param title: the game's title for :meth:`GameRecord.summary_line` (default: ``game``).
        """
        stored = False
        started = iso(self._clock())
        counts = {"undos": 0, "hints": 0, "restarts": 0}
        if game_id is not None:
            try:
                row = self._conn.execute(
                    "SELECT started_at, undos, hints, restarts FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
            except sqlite3.Error:
                row = None  # the first update will tell
            if row is not None:
                # A row edited by hand keeps its key; values no patience writes start afresh.
                stored = True
                started = row[0] if isinstance(row[0], str) else started
                counts = {
                    name: value if isinstance(value, int) and value >= 0 else 0
                    for name, value in zip(counts, row[1:], strict=True)
                }
        fields = {
            "id": game_id or uuid.uuid4().hex,
            "game": game,
            "options": options_key(options),
            "deal": deal,
            "patience_version": patience_version,
            "plugin_version": plugin_version,
            "started_at": started,
        }
        return GameRecord(
            self._conn,
            fields=fields,
            stored=stored,
            counts=counts,
            title=title or game,
            warn=self._warn,
            clock=self._clock,
        )

    def summary(self, game: str, options: Mapping[str, str] | None = None) -> GameSummary:
        """The statistics of ``game`` (of one option set when ``options`` is given; of all
        together otherwise).

        :raises sqlite3.Error: when the database cannot be read.
        """
        report = collect(self._conn, game=game, options=options)
        self._tell_left_out(report.left_out)
        if options is not None:
            found = report.option_sets[0] if report.option_sets else GameSummary(game, options)
            return found
        return find(report.games, game)

    def report(self, *, game: str | None = None, since: str | None = None) -> Report:
        """The statistics of every game (of ``game`` only; of games started on or after
        ``since``, an ISO date, only).

        :raises sqlite3.Error: when the database cannot be read.
        """
        report = collect(self._conn, game=game, since=since)
        self._tell_left_out(report.left_out)
        return report

    def history(
        self, *, game: str | None = None, limit: int | None = 20, which: Which = "all"
    ) -> list[HistoryRow]:
        """The last ``limit`` games (all when ``None``), newest first (see
        :func:`~patience_core.stats.history`).

        :raises sqlite3.Error: when the database cannot be read.
        """
        rows, left_out = history(self._conn, game=game, limit=limit, which=which)
        self._tell_left_out(left_out)
        return rows

    def _tell_left_out(self, count: int) -> None:
        """Warn (once) that ``count`` rows edited into values patience never writes are left
        out of what was read."""
        if count and not self._told_skipped:
            self._told_skipped = True
            games = f"{count} recorded game{'s' * (count != 1)}"
            self._warn(
                f"{games} in {self.path} {'hold' if count > 1 else 'holds'} values patience "
                "never writes (edited by hand?): left out"
            )

    def games(self) -> list[str]:
        """The names of the games recorded, sorted."""
        return [row[0] for row in self._conn.execute("SELECT DISTINCT game FROM games ORDER BY 1")]

    def reset(self, game: str) -> int:
        """Delete every recorded game of ``game``.

        :returns: how many were deleted.
        :raises sqlite3.Error: when the database cannot be written.
        """
        return self._conn.execute("DELETE FROM games WHERE game = ?", (game,)).rowcount

    def export(self, path: Path, *, game: str | None = None, since: str | None = None) -> int:
        """Write every recorded game (of ``game`` only, started on or after ``since`` only, when
        given) to ``path`` (``.csv`` or ``.jsonl``), atomically (see
        :func:`~patience_core.stats.export`).

        :returns: how many games were written.
        :raises PatienceError: for another suffix.
        :raises OSError: when the file cannot be written.
        :raises sqlite3.Error: when the database cannot be read.
        """
        return export(self._conn, path, game=game, since=since)
