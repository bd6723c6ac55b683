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

import collections
import threading
from collections.abc import Callable, Iterator

import attrs

from patience_core.errors import PatienceError, one_line
from patience_core.games import Game, GameSearch
from patience_core.model import Move, PileKind, Position
from patience_core.play._failures import HangUp, raised_by_plugin
from patience_core.play._session import Session
from patience_core.play._tally import GameTally
from patience_core.solve import HINT_CAP_SECONDS, HINT_SECONDS, Hint, Solution, Verdict, hint_stream
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
    :param final: ``False`` for an answer a better founded one will replace (the search goes
        on), ``True`` for the last one.
    :param mode: ``"honest"`` or ``"thoughtful"`` (``""`` when no search answered).
    :param sentence: :meth:`patience_core.solve.Hint.sentence`, ``"t3 f1: wins in 41 moves."``.
    """

    move: Move | None
    source: int | None
    target: int | None
    text: str
    final: bool = True
    mode: str = ""
    sentence: str = ""

    def marked(self, mark: str) -> str:
        """The text with ``mark`` beside the mode: ``"Hint (honest, thinking...): ..."``; the
        text alone when no search answered."""
        if not self.mode:
            return self.text
        return f"Hint ({self.mode}, {mark}): {self.sentence}"


#: The answer to a hint the front end cancelled.
CANCELLED = HintAnswer(None, None, None, "Hint cancelled.")


def _answer_of(found: Hint) -> HintAnswer:
    """The front end's answer for ``found``."""
    move = found.move
    sentence = found.sentence()
    return HintAnswer(
        move,
        None if move is None else move.source,
        None if move is None else move.target,
        f"Hint ({found.mode}): {sentence}",
        found.final,
        found.mode,
        sentence,
    )


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
        """The hint line for the current position, ``"Hint (thoughtful): ..."``: the best
        answer at the hint's deadline (the last of :meth:`hint_answers`); when the game's
        plugin fails in the search, a line that says so.

        :param mode: ``"honest"``, ``"thoughtful"`` or ``None`` (the game's default).
        """
        # The line player's thread is the session's: the search results are shared. Only the
        # final answer is shown, so the budget in positions decides, under a generous cap: the
        # same answer on a loaded machine (docs/solver.md).
        return _last(self._answers(mode, None, self.known, HINT_CAP_SECONDS)).text

    def hint_answer(
        self, mode: str | None = None, cancel: threading.Event | None = None
    ) -> HintAnswer:
        """The final hint for the current position (the last of :meth:`hint_answers`), or
        "Hint cancelled." when ``cancel`` was set before it came.

        :param mode: ``"honest"``, ``"thoughtful"`` or ``None`` (the game's default).
        :param cancel: stops the search when set (it is looked at between its stages).
        """
        answer = _last(self.hint_answers(mode, cancel))
        return CANCELLED if cancel is not None and cancel.is_set() else answer

    def hint_answers(
        self, mode: str | None = None, cancel: threading.Event | None = None
    ) -> Iterator[HintAnswer]:
        """The hints for the current position as the search finds them, for a front end to
        show on the board: a quick first answer, then better founded ones; the last has
        ``final`` set (docs/solver.md, "Hints"). Safe to iterate in a worker thread: it reads
        a snapshot of the positions and changes neither the session nor the saved search
        results. The position is the one when it is called, even if the session moves on.

        :param mode: ``"honest"``, ``"thoughtful"`` or ``None`` (the game's default).
        :param cancel: when set, no further answer is given and the search stops at its next
            stage.
        """
        return self._answers(mode, cancel, self._known_copy())

    def _answers(
        self,
        mode: str | None,
        cancel: threading.Event | None,
        known: dict[Position, Solution],
        seconds: float = HINT_SECONDS,
    ) -> Iterator[HintAnswer]:
        session = self.session
        game, positions = session.game, session.positions
        if cancel is not None and cancel.is_set():
            return iter(())
        self.tally.hints += 1
        stream = hint_stream(
            game,
            positions[-1],
            positions[:-1],
            mode=mode,
            seconds=seconds,
            known=known,
            search=self.search,
            cancel=None if cancel is None else cancel.is_set,
        )
        return self._shown(game, stream, cancel)

    def _shown(
        self, game: Game, stream: Iterator[Hint], cancel: threading.Event | None
    ) -> Iterator[HintAnswer]:
        """The answers of ``stream``, up to ``cancel``; a failure of the game's plugin in the
        search is the last answer, saying so."""
        while True:
            try:
                found = next(stream, None)
            except (PatienceError, KeyboardInterrupt, BrokenPipeError):
                raise
            except BaseException as exc:  # SystemExit too, when the plugin raised it
                if not self.plugins_fault(exc):
                    raise
                text = (
                    f"No hint: the {game.name} plugin ({self.provider}) failed in a "
                    f"search: {one_line(exc)}"
                )
                yield HintAnswer(None, None, None, text)
                return
            if found is None or (cancel is not None and cancel.is_set()):
                return
            yield _answer_of(found)

    def _known_copy(self) -> dict[Position, Solution]:
        """The search results known so far, copied (another thread may be adding to them)."""
        for _ in range(3):
            try:
                return dict(self.known)
            except RuntimeError:  # it changed size while being copied: try again
                continue
        return {}


def _last(answers: Iterator[HintAnswer]) -> HintAnswer:
    """The last of ``answers``; :data:`CANCELLED` when there is none."""
    last = collections.deque(answers, maxlen=1)
    return last[0] if last else CANCELLED
