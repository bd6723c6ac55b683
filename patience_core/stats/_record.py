"""One game's row in the statistics database, updated after every change of the game."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable
from typing import Literal

from patience_core.errors import shown
from patience_core.stats._summary import FINISHED, collect, options_key

__all__ = ["Clock", "GameRecord", "Outcome", "iso", "utc_now"]

#: What became of a game: ``dead`` is a game proved dead and abandoned.
Outcome = Literal["won", "lost", "dead", "abandoned", "in progress"]

#: A function giving the current time (UTC, aware): :func:`utc_now`, or a test's clock.
Clock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    """The current time in UTC."""
    return dt.datetime.now(dt.UTC)


def iso(moment: dt.datetime) -> str:
    """``moment`` as the database keeps times: ISO 8601 in UTC, to the microsecond, so that the
    texts sort as the times do (``2026-12-01T21:56:04.123456+00:00``)."""
    return moment.astimezone(dt.UTC).isoformat(timespec="microseconds")


# A row once won stays won, whatever a later sitting of the same game writes (an undo after
# the win, then quit and --resume): docs/stats.md, "What is recorded".
_UPSERT = """
INSERT INTO games (id, game, options, deal, patience_version, plugin_version, started_at,
                   updated_at, ended_at, seconds, moves, undos, hints, restarts, score, outcome)
VALUES (:id, :game, :options, :deal, :patience_version, :plugin_version, :started_at,
        :now, :ended_at, :seconds, :moves, :undos, :hints, :restarts, :score, :outcome)
ON CONFLICT (id) DO UPDATE SET
    patience_version = excluded.patience_version,
    plugin_version = excluded.plugin_version,
    updated_at = excluded.updated_at,
    ended_at = CASE
        WHEN games.outcome = 'won' THEN games.ended_at
        WHEN excluded.ended_at IS NULL THEN NULL
        WHEN games.ended_at IS NOT NULL AND games.outcome = excluded.outcome THEN games.ended_at
        ELSE excluded.ended_at END,
    seconds = excluded.seconds, moves = excluded.moves, undos = excluded.undos,
    hints = excluded.hints, restarts = excluded.restarts, score = excluded.score,
    outcome = CASE WHEN games.outcome = 'won' THEN 'won' ELSE excluded.outcome END
"""


class GameRecord:
    """The statistics row of one game: made by :meth:`Statistics.record`, updated by the player
    after every change with :meth:`update`. No row exists until the game's first move."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        *,
        fields: dict[str, str],
        stored: bool,
        title: str,
        counts: dict[str, int] | None = None,
        warn: Callable[[str], None],
        clock: Clock,
    ) -> None:
        self._conn = conn
        self._fields = fields
        self._stored = stored
        self._counts = dict(counts or {"undos": 0, "hints": 0, "restarts": 0})
        self._title = title
        self._warn = warn
        self._clock = clock
        self._failing = False

    @property
    def game_id(self) -> str:
        """The row's key (32 hex digits), stable before the row exists: a save keeps it to
        continue this row when the game is resumed."""
        return self._fields["id"]

    @property
    def counts(self) -> dict[str, int]:
        """The ``undos``, ``hints`` and ``restarts`` the row held when it was opened: those of
        the game so far for a resumed game (zeros for a new one), for the player to count on
        from (each :meth:`update` gives the game's totals)."""
        return dict(self._counts)

    def update(
        self,
        *,
        moves: int,
        undos: int,
        hints: int,
        restarts: int,
        score: int,
        seconds: float,
        outcome: Outcome,
    ) -> None:
        """Write the game's figures so far, in one short transaction (a kill -9 loses at most
        this call's figures). A game with no move and no row yet stores nothing.

        :param moves: moves on the board (after undos); ``undos``, ``hints``, ``restarts``:
            how many times each was asked; ``score``: the game's score now; ``seconds``: active
            playing seconds, pauses excluded; ``outcome``: ``in progress`` until it ends.

        A write that fails (a full disk, another process holding the database too long) is one
        warning through ``warn`` (the first of a series only), never an exception.
        """
        if moves == 0 and not self._stored:
            return
        ended = outcome in FINISHED
        now = iso(self._clock())
        params = {
            **self._fields,
            "now": now,
            "ended_at": now if ended else None,
            "seconds": round(float(seconds), 3),
            "moves": moves,
            "undos": undos,
            "hints": hints,
            "restarts": restarts,
            "score": score,
            "outcome": outcome,
        }
        try:
            self._conn.execute(_UPSERT, params)
        except (sqlite3.Error, ValueError, TypeError) as exc:
            if not self._failing:
                self._warn(f"statistics not saved: {shown(str(exc), 80, quote=False)}")
            self._failing = True
            return
        self._failing = False
        self._stored = True

    def summary_line(self) -> str:
        """One line of this game's statistics (this option set), for the end of a game, e.g.
        ``Escalator: played 12, won 3 (25%), streak 1 (best 2).``; a line saying they cannot be
        read when the database fails."""
        try:
            report = collect(self._conn, game=self._fields["game"])
        except (sqlite3.Error, ValueError, TypeError, KeyError) as exc:
            return f"{self._title}: statistics cannot be read ({shown(str(exc), 60, quote=False)})."
        options = self._fields["options"]
        for summary in report.option_sets:
            if summary.options is not None and options_key(summary.options) == options:
                return (
                    f"{self._title}: played {summary.played}, won {summary.won} "
                    f"({summary.win_rate:.0%}), streak {summary.streak} "
                    f"(best {summary.best_streak})."
                )
        return f"{self._title}: no game recorded yet."
