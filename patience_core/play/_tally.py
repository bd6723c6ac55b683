"""The statistics of the game in play: the counts the controller keeps (undos, hints asked,
restarts) and the calls to the statistics database (:mod:`patience_core.stats`), behind one
small class so that play never stops for them (the database warns once and goes on).
"""

from __future__ import annotations

from patience_core import __version__
from patience_core.play._session import Session
from patience_core.stats import GameRecord, Statistics
from patience_core.stats import Outcome as StatsOutcome

__all__ = ["GameTally", "StatsOutcome", "StatsRecord", "new_record"]

#: The row of one game in the statistics.
StatsRecord = GameRecord


def new_record(
    statistics: Statistics | None,
    session: Session,
    plugin_version: str,
    game_id: str | None = None,
) -> StatsRecord | None:
    """The statistics row of ``session`` (``game_id`` from a save continues its row), or
    ``None`` without statistics."""
    if statistics is None:
        return None
    game = session.game
    # The line at the end counts this option set: it names the set when the game has options.
    options = ", ".join(f"{key}={value}" for key, value in session.options.items())
    return statistics.record(
        game=game.name,
        options=session.options,
        deal=str(session.deal),
        patience_version=__version__,
        plugin_version=plugin_version,
        game_id=game_id,
        title=f"{game.title} ({options})" if options else game.title,
    )


class GameTally:
    """The counts of one game for the statistics, and its row.

    :param record: the row, or ``None`` (no statistics: every call does nothing). The row
        never raises: a failing write is one warning of the statistics themselves.
    """

    def __init__(self, record: StatsRecord | None) -> None:
        self.record = record
        # A resumed game counts on from its row's figures.
        counts = {} if record is None else record.counts
        #: Moves taken back (each undo step counts).
        self.undos = counts.get("undos", 0)
        #: Hints asked.
        self.hints = counts.get("hints", 0)
        #: Restarts.
        self.restarts = counts.get("restarts", 0)
        #: The game was won (in this sitting, or it was resumed won): the row stays "won"
        #: whatever is undone after (docs/stats.md, "What is recorded").
        self.won = False

    @property
    def game_id(self) -> str | None:
        """The row's id for the save file, or ``None``."""
        return None if self.record is None else self.record.game_id

    def write(self, *, moves: int, score: int, seconds: float, outcome: StatsOutcome) -> None:
        """Write the row; ``outcome``: ``won``, ``lost``, ``dead``, ``abandoned`` or
        ``in progress``; once ``won`` is written, the row stays ``won``."""
        self.won = self.won or outcome == "won"
        if self.won:
            outcome = "won"
        if self.record is not None:
            self.record.update(
                moves=moves,
                undos=self.undos,
                hints=self.hints,
                restarts=self.restarts,
                score=score,
                seconds=seconds,
                outcome=outcome,
            )

    def summary_line(self) -> str | None:
        """The statistics' line for the end of the game, or ``None``."""
        return None if self.record is None else self.record.summary_line()
