"""The statistics and the history as ``patience stats`` and ``patience history`` print them on a
terminal, and the database as those commands open it."""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from patience_core.errors import PatienceError, shown
from patience_core.stats._db import default_path
from patience_core.stats._history import HistoryRow
from patience_core.stats._statistics import Statistics
from patience_core.stats._summary import GameSummary, Report

__all__ = ["duration", "history_lines", "opened", "parse_since", "report_lines"]


def duration(seconds: float | None) -> str:
    """``seconds`` as ``m:ss`` or ``h:mm:ss`` (``-`` for ``None``)."""
    if seconds is None:
        return "-"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def parse_since(text: str) -> str:
    """A ``--since`` date (``2026-12-01``) or time (``2026-12-01T18:00``, UTC unless it says
    otherwise) as the database's times compare with it.

    :raises PatienceError: one line, for anything else.
    """
    try:
        if len(text.strip()) <= 10:
            return dt.date.fromisoformat(text.strip()).isoformat()
        moment = dt.datetime.fromisoformat(text.strip())
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=dt.UTC)
        return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")
    except ValueError:
        raise PatienceError(
            f"--since takes a date such as 2026-12-01, not {shown(text, 23)}"
        ) from None
    except OverflowError:
        # 0001-01-01T00:00+14:00 is a time before year 1 in UTC.
        raise PatienceError(
            f"--since {shown(text, 40)} is out of range: a time in UTC from year 1 to 9999"
        ) from None


@contextlib.contextmanager
def opened(
    warn: Callable[[str], None], *, writing: bool = False, path: Path | None = None
) -> Iterator[Statistics | None]:
    """The statistics database for a command: ``None`` when there is none yet (nothing is made
    for reading); a failing read becomes one line. A database patience may not write is opened
    read-only for reading.

    :param writing: the command changes it (made when missing).
    :raises PatienceError: when statistics are off (read-only folder, newer database, a data
        folder that is a file) or the database cannot be read: one line, the reason (not also
        a warning).
    """
    where = default_path() if path is None else path
    for place in (where.parent, *where.parent.parents):
        if place.exists() or place.is_symlink():
            if not place.is_dir():
                raise PatienceError(
                    f"statistics are off: the data folder {place} is a file, not a folder"
                )
            break
    if not writing and not (where.exists() or where.is_symlink()):
        yield None
        return
    said: list[str] = []
    held = True

    def note(message: str) -> None:
        # Held until it is known whether the last one is the error; then passed straight on.
        if held:
            said.append(message)
        else:
            warn(message)

    stats = Statistics.open(where, warn=note, reading=not writing)
    if stats is None:
        # The last message says why statistics are off: it is the error; the others (a file
        # moved aside) stay warnings.
        for line in said[:-1]:
            warn(line)
        raise PatienceError(said[-1] if said else f"cannot open {where}")
    held = False
    for line in said:
        warn(line)
    try:
        yield stats
    except sqlite3.Error as exc:
        raise PatienceError(f"cannot read {where}: {shown(str(exc), 60, quote=False)}") from None
    finally:
        stats.close()


_HEADS = (
    "Played",
    "Won",
    "Win rate",
    "Streak",
    "Best streak",
    "Best time",
    "Mean win",
    "Best score",
)


def _cells(summary: GameSummary) -> list[str]:
    return [
        str(summary.played),
        str(summary.won),
        f"{summary.win_rate:.0%}",
        str(summary.streak),
        str(summary.best_streak),
        duration(summary.best_seconds),
        duration(summary.mean_win_seconds),
        "-" if summary.best_score is None else str(summary.best_score),
        "-" if summary.mean_moves is None else f"{summary.mean_moves:.1f}",
    ]


def _table(rows: Sequence[Sequence[str]], left: frozenset[int] = frozenset({0})) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if i in left else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def report_lines(report: Report, *, total: bool = True) -> list[str]:
    """The table ``patience stats`` prints: a line per game, a line per option set under a game
    played with more than one, and all games together (when ``total``)."""
    rows: list[list[str]] = [["Game", *_HEADS, "Mean moves"]]
    for game in report.games:
        rows.append([str(game.game), *_cells(game)])
        sets = [s for s in report.option_sets if s.game == game.game]
        if len(sets) > 1:
            for option_set in sets:
                names = " ".join(f"{k}={v}" for k, v in (option_set.options or {}).items())
                rows.append([f"  {names or '(no options)'}", *_cells(option_set)])
    if total and len(report.games) > 1:
        rows.append(["All games", *_cells(report.total)])
    return _table(rows)


def history_lines(rows: Sequence[HistoryRow]) -> list[str]:
    """The table ``patience history`` prints, a line per game with its ready command."""
    table = [["Started (UTC)", "Game", "Deal", "Outcome", "Moves", "Time", "Score", "Play again"]]
    for row in rows:
        table.append(
            [
                row.started_at[:16].replace("T", " "),
                row.game,
                row.deal,
                row.outcome,
                str(row.moves),
                duration(row.seconds),
                "-" if row.score is None else str(row.score),
                row.command,
            ]
        )
    return _table(table, frozenset({0, 1, 2, 3, 7}))
