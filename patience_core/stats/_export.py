"""``patience stats --export``: every recorded game to a CSV or JSON Lines file."""

from __future__ import annotations

import contextlib
import csv
import json
import sqlite3
from pathlib import Path

from patience_core.errors import PatienceError, shown
from patience_core.files import atomic_writer
from patience_core.stats._history import COLUMNS, OLD_NO_VERSION
from patience_core.stats._summary import where_clause

__all__ = ["EXPORT_FORMATS", "export"]

#: The file suffixes :func:`export` writes, and their formats.
EXPORT_FORMATS = {".csv": "csv", ".jsonl": "jsonl"}


def export(
    conn: sqlite3.Connection, path: Path, *, game: str | None = None, since: str | None = None
) -> int:
    """Write every recorded game (of ``game`` only, started on or after ``since`` only, when
    given), oldest first, to ``path`` atomically: a CSV file with a header line (``.csv``) or one
    JSON object a line (``.jsonl``), with the columns of the ``games`` table (``options`` as its
    JSON text in CSV, as an object in JSON Lines). Rows are written as stored, a hand-edited one
    too (its ``options`` then as the text it holds), but for the ``?`` earlier patience wrote
    for no plugin version, written empty as ``patience history --json`` gives it.

    :returns: how many games were written.
    :raises PatienceError: for another suffix.
    :raises OSError: when the file cannot be written.
    :raises sqlite3.Error: when the database cannot be read.
    """
    kind = EXPORT_FORMATS.get(path.suffix.lower())
    if kind is None:
        raise PatienceError(
            f"cannot export to {shown(str(path))}: the name must end in .csv or .jsonl"
        )
    where, params = where_clause(game, None, since, figures=False)  # every row, odd ones too
    rows = conn.execute(
        f"SELECT {', '.join(COLUMNS)} FROM games{where} ORDER BY started_at, rowid", params
    )
    count = 0
    with atomic_writer(path) as handle:
        if kind == "csv":
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(COLUMNS)
            for row in rows:
                writer.writerow(_no_old_version(row))
                count += 1
        else:
            for row in rows:
                data = dict(zip(COLUMNS, _no_old_version(row), strict=True))
                with contextlib.suppress(ValueError):
                    data["options"] = json.loads(str(data["options"]))
                handle.write(json.dumps(data, ensure_ascii=False) + "\n")
                count += 1
    return count


_VERSION_AT = COLUMNS.index("plugin_version")


def _no_old_version(row: tuple[object, ...]) -> tuple[object, ...]:
    """``row`` with the old ``?`` plugin version made empty (as ``HistoryRow`` reads it)."""
    if row[_VERSION_AT] != OLD_NO_VERSION:
        return row
    return (*row[:_VERSION_AT], "", *row[_VERSION_AT + 1 :])
