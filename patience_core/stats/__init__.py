"""Statistics: every game a player plays, kept in one SQLite database (docs/stats.md).

Under ``play`` and ``simulate``, over ``plugins``: the players make a :class:`GameRecord` per
game with :meth:`Statistics.record` and update it after every change; ``patience stats`` and
``patience history`` read the same database.
"""

from __future__ import annotations

from patience_core.stats._db import MIGRATIONS, SCHEMA_VERSION, SCHEMAS, default_path
from patience_core.stats._export import EXPORT_FORMATS, export
from patience_core.stats._history import COLUMNS, HistoryRow, Which
from patience_core.stats._record import GameRecord, Outcome
from patience_core.stats._statistics import Statistics
from patience_core.stats._summary import FINISHED, GameSummary, Report
from patience_core.stats._text import duration, history_lines, opened, parse_since, report_lines

__all__ = [
    "COLUMNS",
    "EXPORT_FORMATS",
    "FINISHED",
    "MIGRATIONS",
    "SCHEMAS",
    "SCHEMA_VERSION",
    "GameRecord",
    "GameSummary",
    "HistoryRow",
    "Outcome",
    "Report",
    "Statistics",
    "Which",
    "default_path",
    "duration",
    "export",
    "history_lines",
    "opened",
    "parse_since",
    "report_lines",
]
