"""The line player: a game in the terminal, one command per line, over a
:class:`~patience_core.play.PlayController` (docs/play.md).

Commands come from standard input, so a pipe can script a whole game: piped commands are echoed
after the prompt, so that a transcript reads like a session at the terminal. End of input saves
and ends the game. Piped input stops at a refused move, and the exit status tells how the game
stands (:data:`EXIT_WON`, :data:`EXIT_IN_PROGRESS`, :data:`EXIT_LOST`, :data:`EXIT_REFUSED`).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from types import FrameType

import click

from patience_core.errors import PatienceError, PluginError, shown
from patience_core.games import Painter
from patience_core.play._controller import HangUp, PlayController
from patience_core.play._narrow import echo_fitted, fit_board, line_width
from patience_core.play._session import FINISHED_WON

__all__ = [
    "EXIT_IN_PROGRESS",
    "EXIT_LOST",
    "EXIT_REFUSED",
    "EXIT_WON",
    "HANG_UP_EXIT",
    "TERMINATED_EXIT",
]
__all__ += ["LinePlayer", "Terminated", "end_line", "hang_up_raises", "print_traceback"]
__all__ += ["stdin_is_tty"]

#: The exit code of a game whose terminal closed (128 + SIGHUP, as a shell reports it).
HANG_UP_EXIT = 129
#: The exit code of a game ended by SIGTERM (128 + SIGTERM).
TERMINATED_EXIT = 143
#: Exit codes of piped play (docs/play.md, "Exit status"): the game is won; it is in progress
#: (end of input or quit); it is lost (no moves left); a move was refused (the rest of the
#: input is not played). Interactive play exits 0 whatever the game's state.
EXIT_WON = 0
EXIT_IN_PROGRESS = 3
EXIT_LOST = 4
EXIT_REFUSED = 5

_SUIT_LETTERS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})

#: The longest piped command echoed whole (characters); a longer one is cut with "...".
_ECHO_LIMIT = 200


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: the game ends as at Ctrl-C (saved, one line), exit status 143."""


def stdin_is_tty() -> bool:
    """Whether standard input is a terminal (``False`` when it is closed or missing)."""
    try:
        return (
            sys.stdin is not None and not getattr(sys.stdin, "closed", False) and sys.stdin.isatty()
        )
    except (ValueError, OSError):
        return False


def end_line(mid_line: bool) -> None:
    """End the line a Ctrl-C left the cursor in, when the prompt was showing."""
    if mid_line:
        click.echo()


@contextlib.contextmanager
def hang_up_raises() -> Iterator[None]:
    """Inside the block, the terminal closing (SIGHUP) raises :class:`HangUp`, and SIGTERM
    :class:`Terminated`, where the program is, instead of ending it at once: the game is saved
    and its lock released on the way out, and a write it interrupts removes its temporary file.
    Later such signals are ignored until the block ends (its way out must not be cut short).
    Nothing is done outside the main thread (where no handler can be set); Windows has no
    SIGHUP."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    raised: dict[int, type[BaseException]] = {signal.SIGTERM: Terminated}
    if hasattr(signal, "SIGHUP"):
        raised[signal.SIGHUP] = HangUp

    def handler(signum: int, _frame: FrameType | None) -> None:
        for number in raised:
            signal.signal(number, signal.SIG_IGN)
        raise raised[signum]

    previous = {number: signal.signal(number, handler) for number in raised}
    try:
        yield
    finally:
        for number, action in previous.items():
            signal.signal(number, action)


def print_traceback(exc: BaseException) -> None:
    """Print the traceback of ``exc`` on stderr."""
    with contextlib.suppress(OSError, ValueError):
        traceback.print_exception(exc, file=sys.stderr)


class LinePlayer:
    """The read-eval-print loop of one game: prints the board, reads a line, hands it to the
    controller, prints the outcome, until ``quit`` or the end of input.

    :param controller: the game in play (its ``warn`` should print on stderr, see
        :meth:`warn`).
    :param paint: how cards are drawn (:func:`~patience_core.play.make_painter`).
    :param end_interrupted_line: ends the line a Ctrl-C left the cursor in (its argument: the
        ``> `` prompt is showing); the command line passes its own, which knows terminals.
    :param show_traceback: prints the traceback of a failing plugin when ``PATIENCE_DEBUG`` is
        set.
    :param symbols: the output shows suit symbols; ``False``: messages name suits by letter.
    """

    def __init__(
        self,
        controller: PlayController,
        paint: Painter,
        *,
        end_interrupted_line: Callable[[bool], None] = end_line,
        show_traceback: Callable[[BaseException], None] = print_traceback,
        symbols: bool = True,
    ) -> None:
        self.symbols = symbols
        self.controller = controller
        self.paint = paint
        self.end_interrupted_line = end_interrupted_line
        self.show_traceback = show_traceback
        #: The prompt is shown and the line it starts is not ended yet.
        self.at_prompt = False
        #: Lines of input read so far (for the message of a refused piped move).
        self.lines_read = 0

    @staticmethod
    def warn(text: str) -> None:
        """Print a warning of the controller on stderr (pass as its ``warn``)."""
        click.echo(text, err=True)

    # -- output ------------------------------------------------------------------------------

    def say(self, text: str, err: bool = False) -> None:
        """Print ``text`` wrapped to the terminal's width between words (suits by letter when
        the output cannot show symbols); on stderr (``err``): wrapped when that is a terminal,
        else one line, for scripts (:func:`~patience_core.play._narrow.echo_fitted`)."""
        if not self.symbols:
            text = text.translate(_SUIT_LETTERS)
        echo_fitted(text, err=err)

    def show(self) -> None:
        """Print the title, the board (fitted to the terminal's width), the status line, the
        outcome (if any) and the dead check's news (once per position)."""
        controller = self.controller
        session = controller.session
        self.say(f"{session.game.title}, deal {session.deal}")
        board = session.game.render(session.position, self.paint)
        click.echo("\n".join(fit_board(board, line_width())))
        self.say(controller.status_line())
        for line in (controller.outcome_line(), controller.dead_news()):
            if line is not None:
                self.say(line)

    def command(self, line: str, interactive: bool = True) -> int | None:
        """Run one line and print what it did.

        :param interactive: the line was typed at a terminal; piped input stops at a refused
            move.
        :returns: ``None`` to go on; an exit code when the game ends here (quit, or a refused
            piped move).
        """
        outcome = self.controller.apply(line)
        if outcome.refused and not interactive:
            reason = " ".join(outcome.messages).rstrip(".")
            where = f"input line {self.lines_read}: {shown(line)}"
            if self.controller.session.finished is not None:
                # The game's result stands: the exit status tells it, not this line.
                self.say(f"patience: warning: {where} ignored: {reason}.", err=True)
                return None
            self.say(
                f"patience: {where} refused: {reason}. The rest of the input is not played; "
                f"{self.controller.save_state()}; resume with: {self.controller.resume_hint}",
                err=True,
            )
            return EXIT_REFUSED
        for message in outcome.messages:
            self.say(message)
        if outcome.show_board:
            self.show()
        return self.exit_code(interactive) if outcome.quit else None

    def exit_code(self, interactive: bool) -> int:
        """How play ends: 0 at a terminal; piped, by the game's state (:data:`EXIT_WON`,
        :data:`EXIT_LOST`, :data:`EXIT_IN_PROGRESS`)."""
        if interactive:
            return 0
        finished = self.controller.session.finished
        if finished is None:
            return EXIT_IN_PROGRESS
        return EXIT_WON if finished == FINISHED_WON else EXIT_LOST

    # -- the loop ----------------------------------------------------------------------------

    def read_line(self, interactive: bool) -> str | None:
        """The next command, or ``None`` at the end of input.

        :param interactive: standard input is a terminal: read with :func:`input` (line
            editing); else print the prompt and echo the line read.
        """
        if sys.stdin is None or getattr(sys.stdin, "closed", False):
            return None  # no standard input at all: as the end of input
        if interactive:
            self.at_prompt = True  # until a line is read (a Ctrl-C leaves it so)
            try:
                typed = input("> ")
            except EOFError:
                self.at_prompt = False
                click.echo()
                return None
            except OSError as exc:
                if exc.errno == errno.EIO:
                    raise HangUp from None  # the terminal is gone: as a hang-up
                raise
            self.at_prompt = False
            self.lines_read += 1
            return typed
        self.at_prompt = True  # before the prompt: a Ctrl-C may come as soon as it shows
        click.echo("> ", nl=False)
        sys.stdout.flush()
        try:
            line = sys.stdin.readline()
        except OSError as exc:
            if exc.errno == errno.EIO:
                raise HangUp from None  # the terminal is gone: as a hang-up
            raise
        self.at_prompt = False
        if not line:
            click.echo()
            return None
        if self.lines_read == 0:
            line = line.removeprefix("\ufeff")  # a byte order mark, as in position files
        self.lines_read += 1
        # Echo piped commands so that a transcript reads like a session at the terminal.
        bare = line.rstrip("\r\n")
        shown = "".join(ch if ch.isprintable() else "?" for ch in bare[:_ECHO_LIMIT])
        click.echo(shown + ("..." if len(bare) > _ECHO_LIMIT else ""))
        return line

    def run(self) -> int:
        """Show the board, then play until ``quit`` or end of input. A failure of the game's
        plugin anywhere (drawing the board, a move, the score, a hint...) ends the game with
        one line on stderr that says it is saved and how to resume it.

        :returns: the exit code: 0 at a terminal; piped, 0 won, 3 in progress, 4 lost, 5 a
            move refused (:meth:`exit_code`); 1 (a plugin failed, or the game could not be
            saved), 129 (the terminal closed, :class:`HangUp`: the game is saved), 130
            (Ctrl-C).
        :raises PatienceError: patience's own one-line errors.
        :raises BaseException: any other error not raised in the plugin's code (e.g. ``OSError``
            for a full disk under the output), after saving the game, for the command line to
            report as every command does.
        :raises BrokenPipeError: when the reader of the output went away (the game is saved).
        """
        controller = self.controller
        interactive = stdin_is_tty()
        if sys.stdin is not None and isinstance(sys.stdin, io.TextIOWrapper):
            # Bytes the locale cannot decode become U+FFFD, so such a line is refused as a
            # move like any other garbled text instead of ending the game.
            with contextlib.suppress(ValueError, OSError):
                sys.stdin.reconfigure(errors="replace")
        if interactive:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (line editing and history for input())
        code: int | None = None
        try:
            self.show()
            self.say("Type 'help' for the notation and the commands.")
            while code is None:
                # The clock counts the time between prompts, at most a minute a command.
                controller.clock.lap()
                line = self.read_line(interactive)
                if line is None:
                    code = self.exit_code(interactive)
                else:
                    code = self.command(line, interactive)
            controller.clock.lap()
        except KeyboardInterrupt as exc:
            self.end_interrupted_line(self.at_prompt)
            controller.save()
            state = "game saved" if controller.saved else controller.save_state()
            self.say(f"Interrupted: {state}; resume with: {controller.resume_hint}", err=True)
            return TERMINATED_EXIT if isinstance(exc, Terminated) else 130
        except HangUp:
            # The terminal closed: as the end of input, quietly (there is no one to tell).
            controller.save()
            return HANG_UP_EXIT
        except BrokenPipeError:
            # The reader of the output went away (`| head`): the game is kept, the command
            # ends quietly (patience_core.cli.main).
            controller.save()
            raise
        except PluginError as exc:
            # An answer of the wrong kind from the game's plugin (a score that is no number):
            # it failed as surely as by raising, and the game is saved the same way.
            self.say(controller.failure_line(str(exc)), err=True)
            return 1
        except PatienceError:
            raise
        except BaseException as exc:  # Ctrl-C and a broken pipe are handled above
            if not controller.plugins_fault(exc):
                # Patience's own exit or error (a full disk under the output): reported as
                # every command reports it; the game is saved first.
                if not controller.own_exit(exc):
                    controller.save()
                raise
            # The game's plugin failed inside a hook (raising any exception, SystemExit too).
            # The position before the failing action is already saved (a failure while asking
            # whether the game is over saves it as in progress); save it again and say so.
            saved = controller.save()
            if os.environ.get("PATIENCE_DEBUG"):
                self.show_traceback(exc)
            self.say(controller.plugin_failure_line(exc, saved), err=True)
            return 1
        if not controller.save():
            self.say(
                f"patience: {controller.save_state()}; the last save resumes with: "
                f"{controller.resume_hint}",
                err=True,
            )
            return 1
        if code == EXIT_REFUSED:
            return code
        controller.record_stats()
        # The statistics' line, once the game has a row (the first move makes it).
        summary = controller.tally.summary_line() if controller.session.moves else None
        if summary is not None:
            self.say(summary)
        self.say(f"Game saved to {controller.path}; resume with: {controller.resume_hint}")
        return code
