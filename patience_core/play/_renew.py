"""A new deal in the same save file (:meth:`PlayController.new_game
<patience_core.play.PlayController.new_game>`): the unfinished game kept aside, the old
statistics row ended, and the rules renewed when the game was resumed with the rules its save
recorded after its variant file changed (docs/play.md, "Saving and resuming").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from patience_core.engine import DealNumber
from patience_core.errors import PatienceError
from patience_core.play._savefile import kept_line
from patience_core.play._saves import archive_save
from patience_core.play._session import Session
from patience_core.play._tally import GameTally

if TYPE_CHECKING:
    from patience_core.play._controller import PlayController

__all__ = ["new_game"]


def new_game(self: PlayController, deal: DealNumber) -> Path | None:
    """Start deal ``deal`` on ``self``: see :meth:`PlayController.new_game
    <patience_core.play.PlayController.new_game>`.

    :returns: where the old game was kept, or ``None`` (nothing to keep, or keeping it failed:
        one warning, and the old game stays in its file).
    :raises BadDeal: when the game does not accept the deal's scheme.
    """
    # Renewed rules: a variant file changed since the save (PlayController's ``renew``).
    game, search = self.renew() if self.renew else (self.session.game, self.search)
    session = Session(game, deal)  # BadDeal before anything changes
    old = self.session
    kept: Path | None = None
    if old.finished is None:
        if old.moves or old.redo_texts:
            kept = _keep_aside(self)
            if kept is None:
                return None  # the old game is not lost: it stays in its file, in play
        self.record_stats("dead" if self.dead_known else "abandoned")
    self.kept_line = (
        None if kept is None else kept_line(old.game.name, str(old.deal), len(old.moves), kept)
    )
    self.session, self.search, self.renew = session, search, None
    self.known = {}
    self.dead_check_on = self._dead_on  # the check as the player left it, its news reset
    self.clock.reset()
    self.tally = GameTally(self.new_record(session))
    self.save()
    return kept


def _keep_aside(self: PlayController) -> Path | None:
    """Move the current game's save aside (saved first); ``None`` and a warning on failure."""
    try:
        if not self.save():
            raise PatienceError(f"cannot save the game to {self.path}")
        return archive_save(self.path)
    except PatienceError as exc:
        self.warn(f"patience: warning: no new deal: the unfinished game was not kept: {exc}")
        return None
