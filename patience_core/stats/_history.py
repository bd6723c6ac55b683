"""What ``patience history`` shows: the last games, newest first, each with a ready command to
play its deal again."""

from __future__ import annotations

import json
import shlex
import sqlite3
from collections.abc import Mapping
from typing import Literal

import attrs

from patience_core.stats._summary import VALID

__all__ = ["COLUMNS", "HistoryRow", "Which", "history"]

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
        """The game of a ``SELECT`` of :data:`COLUMNS`."""
        values = dict(zip(COLUMNS, row, strict=True))
        values["options"] = json.loads(str(values["options"]))
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
) -> list[HistoryRow]:
    """The last ``limit`` games recorded (all when ``None``), newest first (by their last
    update), of ``game`` only when given.

    :raises sqlite3.Error: when the database cannot be read.
    """
    clauses: list[str] = [VALID]
    params: list[object] = []
    if game is not None:
        clauses.append("game = ?")
        params.append(game)
    if which == "won":
        clauses.append("outcome = 'won'")
    elif which == "lost":
        clauses.append("outcome IN ('lost', 'dead', 'abandoned')")
    where = " WHERE " + " AND ".join(clauses)
    params.append(-1 if limit is None else limit)
    query = (
        f"SELECT {', '.join(COLUMNS)} FROM games{where}"
        " ORDER BY updated_at DESC, rowid DESC LIMIT ?"
    )
    return [HistoryRow.from_row(row) for row in conn.execute(query, params)]
