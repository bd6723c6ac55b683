"""What ``patience history`` shows: the last games, newest first, each with a ready command to
play its deal again."""

from __future__ import annotations

import shlex
import sqlite3
from collections.abc import Mapping
from typing import Literal

import attrs

from patience_core.stats._summary import decoded_options

__all__ = ["COLUMNS", "OLD_NO_VERSION", "HistoryRow", "Which", "history"]

#: Each column's Python types in a row patience wrote (``int`` is never ``bool`` here: SQLite
#: gives none).
_TYPES: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("id", "game", "options", "deal", "patience_version"), (str,)),
    **dict.fromkeys(("plugin_version", "started_at", "updated_at"), (str,)),
    "ended_at": (str, type(None)),
    "seconds": (float, int),
    **dict.fromkeys(("moves", "undos", "hints", "restarts"), (int,)),
    "score": (int, type(None)),
    "outcome": (str,),
}

#: The plugin version earlier patience wrote for none: read (and exported) as empty.
OLD_NO_VERSION = "?"

#: The outcomes patience writes.
_OUTCOMES = frozenset({"won", "lost", "dead", "abandoned", "in progress"})

#: Which games :func:`history` lists: all, the won ones, or the lost ones (lost, dead or
#: abandoned: finished and not won).
Which = Literal["all", "won", "lost"]

#: The columns of the ``games`` table, in order (:class:`HistoryRow`'s fields but ``options``).
COLUMNS = (
    "id",
    "game",
    "options",
    "deal",
    "patience_version",
    "plugin_version",
    "started_at",
    "updated_at",
    "ended_at",
    "seconds",
    "moves",
    "undos",
    "hints",
    "restarts",
    "score",
    "outcome",
)


@attrs.frozen
class HistoryRow:
    """One recorded game, as the ``games`` table keeps it (docs/stats.md), its options decoded."""

    id: str
    game: str
    options: Mapping[str, str]
    deal: str
    patience_version: str
    plugin_version: str
    started_at: str
    updated_at: str
    ended_at: str | None
    seconds: float
    moves: int
    undos: int
    hints: int
    restarts: int
    score: int | None
    outcome: str

    @classmethod
    def from_row(cls, row: tuple[object, ...]) -> HistoryRow:
        """The game of a ``SELECT`` of :data:`COLUMNS`.

        :raises ValueError: for a row holding values patience never writes (edited by hand).
        """
        values = dict(zip(COLUMNS, row, strict=True))
        for name, kinds in _TYPES.items():
            if not isinstance(values[name], kinds):
                raise ValueError(f"{name} holds {type(values[name]).__name__}")
        options = decoded_options(str(values["options"]))
        if options is None or values["outcome"] not in _OUTCOMES:
            raise ValueError("options or outcome not as patience writes them")
        values["options"] = options
        if values["plugin_version"] == OLD_NO_VERSION:
            values["plugin_version"] = ""
        return cls(**values)  # type: ignore[arg-type]

    @property
    def command(self) -> str:
        """The command that plays this deal again, e.g.
        ``patience play escalator --deal 42 -o jokers=2``."""
        words = ["patience", "play", self.game, "--deal", self.deal]
        for name, value in self.options.items():
            words += ["-o", f"{name}={value}"]
        return shlex.join(words)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict of the row, with ``command``."""
        data = attrs.asdict(self)
        data["options"] = dict(self.options)
        data["command"] = self.command
        return data


def history(
    conn: sqlite3.Connection,
    *,
    game: str | None = None,
    limit: int | None = 20,
    which: Which = "all",
) -> tuple[list[HistoryRow], int]:
    """The last ``limit`` games recorded (all when ``None``), newest first (by their last
    update), of ``game`` only when given; and how many rows holding values patience never
    writes were passed over on the way (left out).

    :raises sqlite3.Error: when the database cannot be read.
    """
    clauses: list[str] = ["1"]
    params: list[object] = []
    if game is not None:
        clauses.append("game = ?")
        params.append(game)
    if which == "won":
        clauses.append("outcome = 'won'")
    elif which == "lost":
        clauses.append("outcome IN ('lost', 'dead', 'abandoned')")
    where = " WHERE " + " AND ".join(clauses)
    query = f"SELECT {', '.join(COLUMNS)} FROM games{where} ORDER BY updated_at DESC, rowid DESC"
    rows: list[HistoryRow] = []
    left_out = 0
    # Read lazily until ``limit`` sound rows: a hand-edited row is passed over, not shown.
    for row in conn.execute(query, params):
        if limit is not None and len(rows) >= limit:
            break
        try:
            rows.append(HistoryRow.from_row(row))
        except ValueError:
            left_out += 1
    return rows, left_out
