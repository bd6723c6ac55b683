"""How the full-screen player ends from outside: SIGHUP, SIGINT, SIGTERM and the terminal going
away end the app as ``q`` does, the game saved after it; an app that cannot end in time is
saved and the process ended all the same (docs/play.md, "When the terminal goes away").
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

from patience_core.play import HANG_UP_EXIT, PlayController
from patience_core.tui._app import PatienceApp
from patience_core.tui._terminal import restore_terminal, terminal_settings, watch_outside

__all__ = ["GRACE_SECONDS", "Ending", "ending_signals", "interrupted_line"]

#: How long the app has to end once asked from outside before the process is ended without it.
GRACE_SECONDS = 1.5

_HANG_UP = getattr(signal, "SIGHUP", None)


class Ending:
    """The end of the full-screen player asked from outside (a signal, the terminal gone).

    The first request ends the app from a thread of its own (Textual's ``call_later`` wakes the
    event loop from there, which a signal handler on the loop's own thread does not); when the
    app has not ended :data:`GRACE_SECONDS` later (its event loop stuck), that thread saves the
    game, restores the terminal and ends the process (:func:`os._exit`: the operating system
    releases the save's lock). Later requests change nothing: the first says how it ended.

    :param app: the app to end.
    :param controller: the game in play, saved by a forced end.
    :param descriptor: the terminal's standard input, whose settings a forced end restores.
    :param screen: the descriptor the app draws on.
    """

    def __init__(
        self, app: PatienceApp, controller: PlayController, descriptor: int, screen: int
    ) -> None:
        self._app = app
        self._controller = controller
        self._descriptor = descriptor
        self._screen = screen
        #: The signals that asked the end (SIGHUP for a terminal gone), the first first; the
        #: first says how the game ended. Empty if none.
        self.received: list[int] = []
        self._asked = threading.Event()
        self._over = threading.Event()
        self._settings = terminal_settings(descriptor)
        self._thread = threading.Thread(target=self._end, name="patience-ending", daemon=True)
        self._thread.start()

    def ask(self, number: int) -> None:
        """End the app for signal ``number`` (from a signal handler or any thread; no lock, which
        a handler run on the thread holding it would wait for forever)."""
        self.received.append(number)
        self._asked.set()

    def app_ended(self) -> None:
        """The app has ended (the rest is the caller's): no forced end from now on."""
        self._over.set()
        self._asked.set()
        self._thread.join()

    def _end(self) -> None:
        self._asked.wait()
        if self._over.is_set():
            return
        self._app.call_later(self._app.exit, 0)
        if self._over.wait(GRACE_SECONDS):
            return
        self._force()

    def _force(self) -> None:
        """Save the game and end the process, the app's event loop stuck.

        The loop's thread, which plays the moves, is stuck in some call (a plugin's, a write):
        every move it made is saved already, and the save is written atomically, so the one
        written here (with the clock's seconds) can at worst be the same game once more. A
        save that fails warns in the controller's usual words, printed here (the app's own
        warning would wait for the stuck loop)."""
        warnings: list[str] = []
        controller = self._controller
        controller.warn = warnings.append
        with contextlib.suppress(Exception):
            controller.save()
        number = self.received[0]
        restore_terminal(self._descriptor, self._settings, self._screen)
        if number == _HANG_UP:  # a closed terminal has no one to tell (as the line player)
            os._exit(HANG_UP_EXIT)
        lines = [*warnings, interrupted_line(controller)]
        with contextlib.suppress(OSError):
            os.write(self._screen, "".join(f"{line}\n" for line in lines).encode())
        os._exit(128 + number)


def interrupted_line(controller: PlayController) -> str:
    """The line said when a signal ended the game: whether its last save worked, and the
    command that resumes it."""
    state = "saved" if controller.saved else "NOT saved"
    return f"Interrupted: game {state}; resume with: {controller.resume_hint}"


@contextlib.contextmanager
def ending_signals(app: PatienceApp, controller: PlayController) -> Iterator[Ending]:
    """SIGHUP, SIGINT and SIGTERM, and the terminal going away (as SIGHUP), end the app as
    ``q`` does while the block runs (:class:`Ending`); the block saves the game after the app.

    The handlers are set whatever the signals' disposition was: a SIGHUP ignored by the shell
    (``trap '' HUP``) still means the terminal is gone, and a player without a terminal cannot
    play (``nohup`` never gets here: it takes the terminal away, so the line player runs). They
    stay set until the block ends, so that a second signal cannot cut the last save short.
    (Ctrl-C on the keyboard is a key of the app, which quits.)
    """
    stdin = sys.__stdin__.fileno() if sys.__stdin__ is not None else 0
    screen = sys.__stderr__.fileno() if sys.__stderr__ is not None else 2
    ending = Ending(app, controller, stdin, screen)

    def end(number: int, _frame: FrameType | None) -> None:
        ending.ask(number)  # when the main thread runs; else through watch_outside

    wanted = [
        getattr(signal, name) for name in ("SIGHUP", "SIGINT", "SIGTERM") if hasattr(signal, name)
    ]
    previous = {number: signal.signal(number, end) for number in wanted}
    try:
        with watch_outside((stdin, screen), tuple(wanted), ending.ask):
            yield ending
    finally:
        ending.app_ended()
        for number, handler in previous.items():
            signal.signal(number, handler)
