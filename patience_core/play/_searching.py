"""The searches of a game in play: hints (the line player's sentence, a front end's
:class:`HintAnswer`) and the dead check as an indicator the player turns on.

A part of :class:`~patience_core.play.PlayController` (a mixin): it reads the controller's
session and its search settings, and never changes the session.

The dead check (RULES.md Part A: the player is told when a solver proves that no line wins)
searches with every card known, the stock order and the face-down cards too: where cards are
hidden that is a spoiler, so it is off by default there and on by default in fully visible
games (issue 18, item 7). It is said once per change of position: at the deal of a dead deal
"This deal cannot be won.", after a move only when the game went from winnable to dead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import attrs

from patience_core.errors import PatienceError, one_line
from patience_core.games import Game, GameSearch
from patience_core.model import Move, PileKind, Position
from patience_core.play._failures import HangUp, raised_by_plugin
from patience_core.play._session import Session
from patience_core.play._tally import GameTally
from patience_core.solve import Solution, Verdict, hint
from patience_core.solve import dead_check as run_dead_check

__all__ = ["DEAD_AT_DEAL", "DEAD_NOW", "HintAnswer", "SearchMixin", "hides_cards"]

#: What the dead check says at the deal of a deal no line wins.
DEAD_AT_DEAL = "This deal cannot be won."
#: What it says after a move that left no winning line.
DEAD_NOW = "No winning line remains (undo to go back)."


def hides_cards(game: Game, position: Position) -> bool:
    """Whether ``position`` hides cards from the player: a face-down card, or a stock that is
    not empty (its order is unseen)."""
    for spec, pile in zip(game.piles, position.piles, strict=True):
        if spec.kind is PileKind.STOCK and pile:
            return True
        if any(not card.face_up for card in pile):
            return True
    return False


@attrs.frozen
class HintAnswer:
    """A hint for a front end that shows it on the board.

    :param move: the move advised, or ``None`` (won, lost, dead, cancelled, a failing plugin).
    :param source: the index of the pile the move leaves (the stock for a deal), or ``None``.
    :param target: the index of the pile it goes to (``None`` for a deal or no move).
    :param text: the sentence, ``"Hint (thoughtful): t3 f1: wins in 41 moves."``.
    """

    move: Move | None
    source: int | None
    target: int | None
    text: str


#: The answer to a hint the front end cancelled.
CANCELLED = HintAnswer(None, None, None, "Hint cancelled.")


class SearchMixin:
    """Hints and the dead check of :class:`~patience_core.play.PlayController`."""

    session: Session
    known: dict[Position, Solution]
    search: GameSearch | None
    dead_seconds: float
    dead_nodes: int
    provider: str
    warn: Callable[[str], None]
    own_exit: Callable[[BaseException], bool]
    tally: GameTally
    _dead_on: bool
    #: The position the dead check last spoke about, and its verdict there.
    _news_at: Position | None
    _was_dead: bool | None

    def plugins_fault(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a failure of the game's plugin (:func:`raised_by_plugin`), not an
        error of patience's own nor its own exit (:attr:`own_exit`) nor the terminal closing."""
        if isinstance(exc, HangUp):
            return False
        return not self.own_exit(exc) and raised_by_plugin(exc, type(self.session.game).__module__)

    # -- the dead check ----------------------------------------------------------------------

    @property
    def dead_check_on(self) -> bool:
        """Whether the dead check runs (it never does when its seconds are 0,
        ``PATIENCE_DEAD_CHECK=0``). Turning it on makes the next :meth:`dead_news` speak about
        the current position."""
        return self._dead_on and self.dead_seconds > 0

    @dead_check_on.setter
    def dead_check_on(self, on: bool) -> None:
        self._dead_on = on
        self._news_at = None
        self._was_dead = None

    def is_dead(self) -> bool:
        """The dead check of the current position: a short thoughtful search (its budget:
        ``dead_seconds``, ``dead_nodes``); ``False`` when the check is off. When the game's
        plugin fails inside the search, the check is turned off with a warning."""
        return self._proved_dead(self.session.position)

    def _proved_dead(self, position: Position) -> bool:
        """:meth:`is_dead` of ``position``."""
        if not self.dead_check_on:
            return False
        session = self.session
        try:
            solution = run_dead_check(
                session.game,
                position,
                self.dead_seconds,
                self.dead_nodes,
                self.known,
                search=self.search,
            )
        except (PatienceError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # SystemExit too, when the plugin raised it
            if not self.plugins_fault(exc):
                raise
            # The game's plugin failed inside the search: the game goes on without the check.
            self._dead_on = False
            self.warn(
                f"patience: warning: the dead check is off: the {session.game.name} plugin "
                f"({self.provider}) failed in a search: {one_line(exc)}"
            )
            return False
        return solution.verdict is Verdict.DEAD

    def dead_news(self) -> str | None:
        """What the dead check has to say about the current position, once: ``None`` when it
        is off, the game is over, the position is the one it spoke about last, the position is
        not proved dead, or the game was proved dead before this change already."""
        session = self.session
        if not self.dead_check_on or session.finished is not None:
            return None
        position = session.position
        if position == self._news_at:
            return None
        was = self._was_dead
        dead = self.is_dead()
        self._news_at, self._was_dead = position, dead
        if not dead or was:
            return None
        if not session.can_undo or (was is None and self._proved_dead(session.start)):
            # At the deal, or first looking at a game whose deal was dead already: undoing
            # cannot help.
            return DEAD_AT_DEAL
        return DEAD_NOW

    @property
    def dead_known(self) -> bool | None:
        """The dead check's last verdict on the current position (for an indicator), or
        ``None`` when it is off or has not looked at this position."""
        if not self.dead_check_on or self._news_at != self.session.position:
            return None
        return self._was_dead

    # -- hints -------------------------------------------------------------------------------

    def hint(self, mode: str | None = None) -> str:
        """The hint line for the current position, ``"Hint (thoughtful): ..."``; when the
        game's plugin fails in the search, a line that says so.

        :param mode: ``"honest"``, ``"thoughtful"`` or ``None`` (the game's default).
        """
        # The line player's thread is the session's: the search results are shared.
        return self._answer(mode, None, self.known).text

    def hint_answer(
        self, mode: str | None = None, cancel: threading.Event | None = None
    ) -> HintAnswer:
        """The hint for the current position, for a front end to show on the board. Safe to
        call from a worker thread: it reads a snapshot of the positions and changes neither
        the session nor the saved search results.

        :param mode: ``"honest"``, ``"thoughtful"`` or ``None`` (the game's default).
        :param cancel: when set before the search starts or by the time it ends, the answer
            is "Hint cancelled." (the search itself runs to its time limit, about 1.5 s).
        """
        return self._answer(mode, cancel, self._known_copy())

    def _answer(
        self, mode: str | None, cancel: threading.Event | None, known: dict[Position, Solution]
    ) -> HintAnswer:
        session = self.session
        game, positions = session.game, session.positions
        if cancel is not None and cancel.is_set():
            return CANCELLED
        self.tally.hints += 1
        try:
            found = hint(
                game,
                positions[-1],
                positions[:-1],
                mode=mode,
                known=known,
                search=self.search,
            )
        except (PatienceError, KeyboardInterrupt, BrokenPipeError):
            raise
        except BaseException as exc:  # SystemExit too, when the plugin raised it
            if not self.plugins_fault(exc):
                raise
            text = (
                f"No hint: the {game.name} plugin ({self.provider}) failed in a "
                f"search: {one_line(exc)}"
            )
            return HintAnswer(None, None, None, text)
        if cancel is not None and cancel.is_set():
            return CANCELLED
        move = found.move
        return HintAnswer(
            move,
            None if move is None else move.source,
            None if move is None else move.target,
            f"Hint ({found.mode}): {found.sentence()}",
        )

    def _known_copy(self) -> dict[Position, Solution]:
        """The search results known so far, copied (another thread may be adding to them)."""
        for _ in range(3):
            try:
                return dict(self.known)
            except RuntimeError:  # it changed size while being copied: try again
                continue
        return {}
