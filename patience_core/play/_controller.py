"""The game in play, for any front end: a typed command in, an outcome out; the save after every
change; hints and the dead check; the one line that ends a game its plugin broke.

No input and no output here: the line player (:mod:`patience_core.play._line`) prints what an
:class:`Outcome` holds, a full-screen front end shows it its own way (docs/play.md, "Front ends").
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import attrs

from patience_core.engine import counted
from patience_core.errors import (
    CORE_MODULES,
    BadMoveText,
    IllegalMove,
    PatienceError,
    one_line,
    plugin_behind,
)
from patience_core.games import GameSearch
from patience_core.model import Position
from patience_core.play._commands import NO_ARGUMENT, count_arg, help_lines
from patience_core.play._saves import save_session
from patience_core.play._session import FINISHED_WON, Session
from patience_core.solve import DEAD_CHECK_NODES, HONEST, THOUGHTFUL, Solution, Verdict, hint
from patience_core.solve import dead_check as run_dead_check

__all__ = ["HangUp", "Outcome", "PlayController", "own_exit_by_default", "raised_by_plugin"]


class HangUp(BaseException):
    """The terminal of the game closed (SIGHUP, see :func:`~patience_core.play.hang_up_raises`):
    play saves the game and ends quietly with exit code 129, as at the end of input. Not an
    :class:`Exception`, so that no ``except Exception`` of a plugin swallows it, and the atomic
    writer, which removes its temporary file on any exception, cleans up after a write it
    interrupts."""


def raised_by_plugin(exc: BaseException, game_module: str) -> bool:
    """Whether ``exc`` was raised in the code of ``game``'s plugin, so that play names the plugin
    as failing: an installed plugin's code raised it (:func:`~patience_core.errors.plugin_behind`),
    or its traceback passes through the module of ``game``'s class or through code that is
    neither patience's (nor the libraries it uses) nor Python's own (a plugin that is not
    installed as a distribution). Otherwise the error is patience's own (a full disk under the
    output, a bug of patience), reported as every command reports it.

    :param game_module: the module of the game's class (``type(game).__module__``).
    """
    if plugin_behind(exc) is not None:
        return True
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        top = module.split(".")[0]
        elsewhere = top not in CORE_MODULES and top not in sys.stdlib_module_names
        if module == game_module or elsewhere:
            return True
        tb = tb.tb_next
    return False


def own_exit_by_default(exc: BaseException) -> bool:
    """Whether ``exc`` is an exit to let through (patience's own ``SystemExit``), rather than a
    failing plugin's: a ``SystemExit`` raised by no installed distribution's code. The command
    line passes its own, finer rule (``patience_core.cli.own_exit``)."""
    return isinstance(exc, SystemExit) and plugin_behind(exc) is None


@attrs.frozen
class Outcome:
    """What one typed command did.

    :param messages: lines for the player, in order (shown before the board).
    :param show_board: the position changed (or the board was asked for): show the board, the
        status line (:meth:`PlayController.status_line`) and the outcome
        (:meth:`PlayController.outcome_line`).
    :param quit: the player quits; the game is already saved.
    """

    messages: tuple[str, ...] = ()
    show_board: bool = False
    quit: bool = False


def _ignore(_text: str) -> None:
    return None


class PlayController:
    """One game in play: apply typed commands (:meth:`apply`), save after every change, give
    hints, run the dead check. Exceptions of the game's plugin go through to the front end,
    which reports them with :meth:`failure_line` (the game is saved first).

    :param session: the game.
    :param path: the save file, written after every change.
    :param plugin_version: the version of the game's plugin, written in the save.
    :param provider: the distribution of the game's plugin, for messages.
    :param resume_hint: the command that resumes this game, for messages.
    :param dead_seconds: the dead check's seconds per position (0: off).
    :param dead_nodes: the dead check's node budget per position.
    :param search: the solver's search object for the game (``PluginHost.search``); ``None``:
        the generic one.
    :param warn: called with a one-line warning (a save that failed, the dead check turned off);
        the line player prints it on stderr.
    :param own_exit: tells patience's own ``SystemExit`` from a failing plugin's.
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
        search: GameSearch | None = None,
        warn: Callable[[str], None] = _ignore,
        own_exit: Callable[[BaseException], bool] = own_exit_by_default,
    ) -> None:
        self.session = session
        self.path = path
        self.plugin_version = plugin_version
        self.provider = provider
        self.resume_hint = resume_hint
        self.dead_seconds = dead_seconds
        self.dead_nodes = dead_nodes
        self.search = search
        self.warn = warn
        self.own_exit = own_exit
        #: Whether the last save succeeded.
        self.saved = True
        #: Search results by position, shared by the dead check and hints.
        self.known: dict[Position, Solution] = {}

    # -- saving ------------------------------------------------------------------------------

    def save(self) -> bool:
        """Save now; on failure warn (one line) and go on playing.

        :returns: whether the game is saved.
        """
        try:
            save_session(self.path, self.session, self.plugin_version)
        except PatienceError as exc:
            self.warn(f"patience: warning: {exc}")
            self.saved = False
            return False
        self.saved = True
        return True

    def failure_line(self, what: str, saved: bool | None = None) -> str:
        """The one line that ends a game its plugin broke: ``what`` went wrong, whether the game
        is saved, and how to resume it.

        :param saved: whether the game was just saved; ``None``: save it now.
        """
        if saved is None:
            saved = self.save()
        return game_kept_line(what, saved, self.resume_hint)

    def plugins_fault(self, exc: BaseException) -> bool:
        """Whether ``exc`` is a failure of the game's plugin (:func:`raised_by_plugin`), not an
        error of patience's own nor its own exit (:attr:`own_exit`) nor the terminal closing."""
        if isinstance(exc, HangUp):
            return False
        return not self.own_exit(exc) and raised_by_plugin(exc, type(self.session.game).__module__)

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
        """Won, lost, or no winning line left (the dead check, :meth:`is_dead`); ``None`` while
        the game goes on."""
        finished = self.session.finished
        if finished == FINISHED_WON:
            return f"You won! {self.score_text()}."
        if finished is not None:
            back = "Type 'undo' to take moves back, or 'quit'." if self.session.can_undo else ""
            return f"No moves left: game lost. {self.score_text()}. {back}".rstrip()
        if self.is_dead():
            if self.session.can_undo:
                return "No winning line remains (undo to go back)."
            # At the deal there is nothing to undo: the deal itself cannot be won.
            return "No winning line exists: this deal cannot be won."
        return None

    def is_dead(self) -> bool:
        """The dead check (RULES.md Part A: the player is told when a solver proves that no line
        wins): a short thoughtful search of the current position; off when its time is 0. When
        the game's plugin fails inside the search, the check is turned off with a warning."""
        if self.dead_seconds <= 0:
            return False
        session = self.session
        try:
            solution = run_dead_check(
                session.game,
                session.position,
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
            self.dead_seconds = 0.0
            self.warn(
                f"patience: warning: the dead check is off: the {session.game.name} plugin "
                f"({self.provider}) failed in a search: {one_line(exc)}"
            )
            return False
        return solution.verdict is Verdict.DEAD

    def hint(self, mode: str | None = None) -> str:
        """The hint line for the current position, ``"Hint (thoughtful): ..."``; when the
        game's plugin fails in the search, a line that says so.

        :param mode: ``"honest"``, ``"thoughtful"`` or ``None`` (the game's default).
        """
        session = self.session
        try:
            positions = session.positions
            found = hint(
                session.game,
                positions[-1],
                positions[:-1],
                mode=mode,
                known=self.known,
                search=self.search,
            )
        except (PatienceError, KeyboardInterrupt, BrokenPipeError):
            raise
        except BaseException as exc:  # SystemExit too, when the plugin raised it
            if not self.plugins_fault(exc):
                raise
            return (
                f"No hint: the {session.game.name} plugin ({self.provider}) failed in a "
                f"search: {one_line(exc)}"
            )
        return f"Hint ({found.mode}): {found.sentence()}"

    def legal_moves_lines(self) -> list[str]:
        """The lines of ``moves``: every legal move with its text and description."""
        session = self.session
        legal = session.legal_moves()
        if not legal:
            return ["No legal moves."]
        lines = [f"Legal moves ({len(legal)}):"]
        for move in legal:
            text = session.game.move_text(session.position, move)
            lines.append(f"  {text:<10} {session.game.describe_move(session.position, move)}")
        return lines

    # -- commands ----------------------------------------------------------------------------

    def apply(self, line: str) -> Outcome:
        """Run one typed line: a command (docs/play.md, "Commands") or a move. A change is
        saved at once (a failed save is a warning, and the game goes on).

        :raises Exception: whatever the game's plugin raises; report it with
            :meth:`plugin_failure_line`.
        """
        session = self.session
        words = line.strip().lower().split()
        if not words:
            return Outcome()
        verb = words[0]
        if verb in NO_ARGUMENT and len(words) > 1:
            return Outcome((f"'{verb}' takes no argument; type 'help' for the commands.",))
        if verb in ("quit", "q", "exit"):
            return Outcome(quit=True)
        if verb in ("help", "?") and len(words) == 1:
            return Outcome(tuple(help_lines(session)))
        if verb in ("board", "b") and len(words) == 1:
            return Outcome(show_board=True)
        if verb == "moves" and len(words) == 1:
            return Outcome(tuple(self.legal_moves_lines()))
        if verb == "hint":
            if len(words) > 2 or (len(words) == 2 and words[1] not in (HONEST, THOUGHTFUL)):
                return Outcome(("usage: hint [honest|thoughtful]",))
            return Outcome((self.hint(words[1] if len(words) == 2 else None),))
        if verb == "save" and len(words) == 1:
            return Outcome((f"Saved to {self.path}.",) if self.save() else ())
        if verb == "restart" and len(words) == 1:
            if not session.restart():
                return Outcome(("Already at the deal.",))
            count = len(session.redo_texts)
            said = f"Back to the deal; 'redo all' plays the {counted(count, 'move')} again."
            return self._changed(said)
        if verb in ("undo", "u", "redo"):
            undo = verb != "redo"
            steps = count_arg(words, len(session.moves) if undo else len(session.redo_texts))
            if steps is None:
                return Outcome((f"usage: {verb} [N|all]",))
            if (session.undo(steps) if undo else session.redo(steps)) == 0:
                return Outcome(("Nothing to undo." if undo else "Nothing to redo.",))
            return self._changed()
        return self.move(line)

    def move(self, text: str) -> Outcome:
        """Play the move ``text`` (the game's notation) and save; a refused move is a message."""
        session = self.session
        if session.finished is not None:
            outcome = "you won" if session.finished == FINISHED_WON else "no moves left"
            return Outcome((f"The game is over ({outcome}); type 'undo', 'restart' or 'quit'.",))
        try:
            session.play_text(text)
        except IllegalMove as exc:
            return Outcome((f"{exc}; type 'moves' for the legal moves.",))
        except BadMoveText as exc:
            return Outcome((str(exc),))
        return self._changed()

    def _changed(self, *messages: str) -> Outcome:
        self.save()
        return Outcome(messages, show_board=True)


def game_kept_line(what: str, saved: bool, resume: str) -> str:
    """The one line that ends a game its plugin broke: ``what`` went wrong, whether the game is
    saved, and how to resume it."""
    state = "is saved" if saved else "could NOT be saved"
    return f"patience: error: {what}; your game {state}; resume with: {resume}"
