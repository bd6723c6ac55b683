"""The game in play, for any front end: a typed command or a move in, an outcome out; the save
after every change; the play clock and the statistics row; the one line that ends a game its
plugin broke. Hints and the dead check: :mod:`patience_core.play._searching`; a new deal in the
same save: :mod:`patience_core.play._renew`.

No input and no output here: the line player (:mod:`patience_core.play._line`) prints what an
:class:`Outcome` holds, a full-screen front end shows it its own way (docs/play.md, "Front ends").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from patience_core.engine import DealNumber, counted
from patience_core.errors import PatienceError, one_line
from patience_core.games import Game, GameSearch
from patience_core.model import Move, PileKind, Position
from patience_core.play._clock import PlayClock
from patience_core.play._failures import (
    HangUp,
    game_kept_line,
    own_exit_by_default,
    raised_by_plugin,
)
from patience_core.play._finish import finish_moves, nowhere, smart_choice
from patience_core.play._outcome import Outcome
from patience_core.play._renew import new_game
from patience_core.play._saves import save_session
from patience_core.play._searching import SearchMixin, hides_cards
from patience_core.play._session import FINISHED_WON, Session
from patience_core.play._tally import GameTally, StatsOutcome, StatsRecord
from patience_core.play._typed import apply_line, typed_move
from patience_core.solve import DEAD_CHECK_NODES, Solution

__all__ = ["HangUp", "Outcome", "PlayController", "own_exit_by_default", "raised_by_plugin"]


def _ignore(_text: str) -> None:
    return None


def _no_record(_session: Session) -> StatsRecord | None:
    return None


class PlayController(SearchMixin):
    """One game in play: apply typed commands (:meth:`apply`) or moves (:meth:`play_move`,
    :meth:`transfer`, :meth:`deal`, :meth:`smart_move`), save after every change, give hints,
    run the dead check, keep the clock and the statistics. Exceptions of the game's plugin go
    through to the front end, which reports them with :meth:`failure_line` (the game is saved
    first).

    :param session: the game.
    :param path: the save file, written after every change.
    :param plugin_version: the version of the game's plugin, written in the save.
    :param provider: the distribution of the game's plugin, for messages.
    :param resume_hint: the command that resumes this game, for messages.
    :param dead_seconds: the dead check's seconds per position (0: never on).
    :param dead_nodes: the dead check's node budget per position.
    :param dead_check: the dead check on or off; ``None``: on only in a game whose deal hides
        no card (:func:`~patience_core.play._searching.hides_cards`).
    :param search: the solver's search object for the game (``PluginHost.search``); ``None``:
        the generic one.
    :param warn: called with a one-line warning (a save that failed, the dead check turned off,
        the statistics failing); the line player prints it on stderr.
    :param own_exit: tells patience's own ``SystemExit`` from a failing plugin's.
    :param clock: the play clock (default: a new one from 0 s, running).
    :param record: the game's statistics row, or ``None``.
    :param new_record: makes the row of a new deal (:meth:`new_game`).
    :param renew: makes the game and search a new deal is played with (:meth:`new_game`), for
        a save resumed with the rules it recorded after its variant file changed: a new game
        takes the file's rules. ``None``: the session's game and ``search``.
    """

    def __init__(
        self,
        session: Session,
        path: Path,
        plugin_version: str,
        *,
        provider: str = "its plugin",
        resume_hint: str = "",
        dead_seconds: float = 0.0,
        dead_nodes: int = DEAD_CHECK_NODES,
        dead_check: bool | None = None,
        search: GameSearch | None = None,
        warn: Callable[[str], None] = _ignore,
        own_exit: Callable[[BaseException], bool] = own_exit_by_default,
        clock: PlayClock | None = None,
        record: StatsRecord | None = None,
        new_record: Callable[[Session], StatsRecord | None] = _no_record,
        renew: Callable[[], tuple[Game, GameSearch | None]] | None = None,
    ) -> None:
        self.session = session
        self.renew = renew
        #: The one-line note said when the game was opened (a variant file changed since the
        #: save), for a front end whose screen hides what was printed before it.
        self.opening_note: str | None = None
        self.path = path
        self.plugin_version = plugin_version
        self.provider = provider
        self.resume_hint = resume_hint
        self.dead_seconds = dead_seconds
        self.dead_nodes = dead_nodes
        self.search = search
        self.warn = warn
        self.own_exit = own_exit
        self.clock = clock if clock is not None else PlayClock()
        self.tally = GameTally(record)
        self.tally.won = session.finished == FINISHED_WON  # a won game resumed stays won
        self.new_record = new_record
        #: Whether the last save succeeded.
        self.saved = True
        #: Moves played since the last successful save (0 while every change is saved).
        self.unsaved = 0
        #: Where :meth:`new_game` kept the unfinished game it replaced and how to resume it
        #: (one line for the player), or ``None``.
        self.kept_line: str | None = None
        #: Search results by position, shared by the dead check and hints.
        self.known: dict[Position, Solution] = {}
        self._news_at: Position | None = None
        self._was_dead: bool | None = None
        self._dead_on = (
            not hides_cards(session.game, session.start) if dead_check is None else dead_check
        )

    # -- saving ------------------------------------------------------------------------------

    def save(self) -> bool:
        """Save now (with the clock's seconds and the statistics row's id); on failure warn
        (one line) and go on playing.

        :returns: whether the game is saved.
        """
        try:
            save_session(
                self.path,
                self.session,
                self.plugin_version,
                elapsed=self.clock.seconds,
                stats_id=self.tally.game_id,
            )
        except PatienceError as exc:
            self.warn(f"patience: warning: {exc}")
            self.saved = False
            return False
        self.saved = True
        self.unsaved = 0
        return True

    def save_state(self) -> str:
        """``"the game is saved"``, or ``"the game is NOT saved (the last 2 moves are not in
        PATH)"`` after failed saves: the truth for a line that ends a game."""
        if self.saved:
            return "the game is saved"
        last = "the last move is" if self.unsaved == 1 else f"the last {self.unsaved} moves are"
        return f"the game is NOT saved ({last} not in {self.path})"

    def stats_outcome(self) -> StatsOutcome:
        """The outcome the statistics row holds now: ``won``, ``lost``, ``dead`` (the dead
        check proved the current position lost) or ``in progress``."""
        finished = self.session.finished
        if finished is not None:
            return "won" if finished == FINISHED_WON else "lost"
        return "dead" if self.dead_known else "in progress"

    def record_stats(self, outcome: StatsOutcome | None = None) -> None:
        """Write the statistics row (default outcome: :meth:`stats_outcome`); the front ends
        call it when the player leaves. A failing write is one warning."""
        session = self.session
        self.tally.write(
            moves=len(session.moves),
            score=session.score(),
            seconds=self.clock.seconds,
            outcome=self.stats_outcome() if outcome is None else outcome,
        )

    def failure_line(self, what: str, saved: bool | None = None) -> str:
        """The one line that ends a game its plugin broke: ``what`` went wrong, whether the game
        is saved, and how to resume it.

        :param saved: whether the game was just saved; ``None``: save it now.
        """
        if saved is None:
            saved = self.save()
        return game_kept_line(what, saved, self.resume_hint)

    def plugin_failure_line(self, exc: BaseException, saved: bool | None = None) -> str:
        """:meth:`failure_line` for ``exc`` raised by the game's plugin (any exception,
        ``SystemExit`` too)."""
        game = self.session.game.name
        what = f"the {game} plugin ({self.provider}) failed: {one_line(exc)}"
        return self.failure_line(what, saved)

    # -- what the player sees ----------------------------------------------------------------

    def score_text(self) -> str:
        """``"Score 3/28"``."""
        return f"Score {self.session.score()}/{self.session.game.max_score}"

    def status_line(self) -> str:
        """The line under the board: score, the game's status, moves made."""
        session = self.session
        parts = [self.score_text()]
        status = session.game.status(session.position)
        if status:
            parts.append(status)
        parts.append(f"Moves: {len(session.moves)}")
        return "   ".join(parts)

    def outcome_line(self) -> str | None:
        """Won or lost; ``None`` while the game goes on (the dead check speaks through
        :meth:`dead_news`)."""
        finished = self.session.finished
        if finished == FINISHED_WON:
            return f"You won! {self.score_text()}."
        if finished is not None:
            back = "Type 'undo' to take moves back, or 'quit'." if self.session.can_undo else ""
            return f"No moves left: game lost. {self.score_text()}. {back}".rstrip()
        return None

    # -- moves -------------------------------------------------------------------------------

    def over(self) -> Outcome | None:
        """The refusal of a move once the game is over, or ``None`` while it goes on."""
        finished = self.session.finished
        if finished is None:
            return None
        outcome = "you won" if finished == FINISHED_WON else "no moves left"
        text = f"The game is over ({outcome}); type 'undo', 'restart' or 'quit'."
        return Outcome((text,), refused=True)

    def play_move(self, move: Move) -> Outcome:
        """Play ``move`` (a front end's click or key) and save; a move that is not legal is
        refused with the rule it breaks (:meth:`Game.why_illegal
        <patience_core.games.Game.why_illegal>`)."""
        over = self.over()
        if over is not None:
            return over
        session = self.session
        if move not in session.legal_moves():
            return Outcome((session.game.why_illegal(session.position, move),), refused=True)
        session.play(move)
        return self.changed()

    def transfer(self, source: int, target: int, count: int = 1) -> Outcome:
        """Move ``count`` cards from pile index ``source`` to ``target`` (:meth:`play_move`)."""
        return self.play_move(Move.transfer(source, target, count))

    def deal(self) -> Outcome:
        """Deal from the stock (:meth:`play_move`); refused in a game without a stock."""
        stock = self.session.game.pile_indices(PileKind.STOCK)
        if not stock:
            return Outcome((f"{self.session.game.title} has no stock.",), refused=True)
        return self.play_move(Move.deal(stock[0]))

    def smart_move(self, source: int, count: int | None = None) -> Outcome:
        """Play the card(s) at pile index ``source`` to the best legal place (a foundation
        first, then a tableau pile they build on, then an empty pile or a cell; see
        :func:`~patience_core.play._finish.smart_choice`), or refuse saying why.

        :param count: the cards to move; ``None``: whatever count fits best.
        """
        over = self.over()
        if over is not None:
            return over
        session = self.session
        position = session.position
        move = smart_choice(session.game, position, session.legal_moves(), source, count)
        if move is None:
            return Outcome((nowhere(session.game, position, source, count),), refused=True)
        session.play(move)
        return self.changed()

    def finish_moves(self) -> list[Move] | None:
        """The rest of the game when no decision is left (forced moves and cards to the
        foundations, and they win: :func:`~patience_core.play._finish.finish_moves`), else
        ``None``."""
        return finish_moves(self.session.game, self.session.position)

    def can_finish(self) -> bool:
        """Whether :meth:`finish_moves` has a line to play."""
        return self.finish_moves() is not None

    def auto_step(self) -> Outcome | None:
        """Play the next move of :meth:`finish_moves` and save (a front end's animation calls
        it until it returns ``None``)."""
        moves = self.finish_moves()
        if not moves:
            return None
        self.session.play(moves[0])
        return self.changed()

    def auto(self) -> Outcome:
        """Play every move of :meth:`finish_moves` at once, saved (the ``auto`` command)."""
        finished = self.session.finished
        if finished is not None:
            result = "you won" if finished == FINISHED_WON else "no moves left"
            return Outcome((f"Nothing to finish: the game is over ({result}).",))
        moves = self.finish_moves()
        if not moves:
            return Outcome(("Nothing to finish automatically: moves are still to be chosen.",))
        for move in moves:
            self.session.play(move)
        return self.changed(f"Played the last {counted(len(moves), 'move')} automatically.")

    def new_game(self, deal: DealNumber) -> Path | None:
        """Start deal ``deal`` of the same game and options in the same save file, the clock
        from 0 and a new statistics row; the old game's row ends as it stands when it is over,
        else ``dead`` when the dead check proved it lost, else ``abandoned``. An unfinished old
        game with moves played is kept aside first, as ``patience play`` keeps one it would
        replace (``<game>-<time>.json`` beside the save; :attr:`kept_line` says where and how
        to resume it). With :attr:`renew` set, the new deal takes the rules it gives.

        :returns: where the old game was kept, or ``None`` (nothing to keep, or keeping it
            failed: one warning, and the old game stays in its file).
        :raises BadDeal: when the game does not accept the deal's scheme.
        """
        return new_game(self, deal)

    def restart(self) -> Outcome:
        """Back to the deal (the moves become the redo list), saved."""
        session = self.session
        if not session.restart():
            return Outcome(("Already at the deal.",))
        self.tally.restarts += 1
        count = len(session.redo_texts)
        return self.changed(
            f"Back to the deal; 'redo all' plays the {counted(count, 'move')} again."
        )

    def undo(self, steps: int = 1) -> Outcome:
        """Take back up to ``steps`` moves, saved."""
        done = self.session.undo(steps)
        if not done:
            return Outcome(("Nothing to undo.",))
        self.tally.undos += done
        return self.changed()

    def redo(self, steps: int = 1) -> Outcome:
        """Play again up to ``steps`` undone moves, saved."""
        if not self.session.redo(steps):
            return Outcome(("Nothing to redo.",))
        return self.changed()

    # -- typed commands ----------------------------------------------------------------------

    def apply(self, line: str) -> Outcome:
        """Run one typed line: a command (docs/play.md, "Commands") or a move
        (:func:`~patience_core.play._typed.apply_line`). A change is saved at once (a failed
        save is a warning, and the game goes on).

        :raises Exception: whatever the game's plugin raises; report it with
            :meth:`plugin_failure_line`.
        """
        return apply_line(self, line)

    def move(self, text: str) -> Outcome:
        """Play the move ``text`` (the game's notation) and save; a refused move says why."""
        return typed_move(self, text)

    def changed(self, *messages: str) -> Outcome:
        """Save, write the statistics, and say the board changed (with ``messages``, after
        the news that a move other than the next one to redo dropped the redo list)."""
        if not self.save():
            self.unsaved += 1
        self.record_stats()
        dropped, self.session.dropped = self.session.dropped, 0
        if dropped:
            news = "The move to redo is" if dropped == 1 else f"The {dropped} moves to redo are"
            messages = (f"{news} dropped.", *messages)
        return Outcome(messages, show_board=True)
