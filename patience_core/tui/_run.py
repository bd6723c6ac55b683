"""Starting the full-screen player: the game opened as the line player opens it, the app run,
the terminal restored, the exit code (docs/play.md).
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from functools import partial

from patience_core.files import silence_output
from patience_core.model import Card
from patience_core.play import (
    HANG_UP_EXIT,
    CardStyle,
    PlayController,
    PlayRequest,
    echo_fitted,
    open_game,
)
from patience_core.plugins import PluginHost
from patience_core.tui._app import PatienceApp
from patience_core.tui._board import card_label
from patience_core.tui._core import FAILED
from patience_core.tui._ending import ending_signals, interrupted_line
from patience_core.tui._terminal import forgiving_driver

__all__ = ["can_run", "run_fullscreen"]


def can_run() -> bool:
    """Whether the full-screen player can run here: standard input and output are terminals,
    and so is the stream Textual draws on (the process's original standard error); else
    ``patience play`` takes the line player (``2>/dev/null`` would hide the screen)."""
    streams = (sys.stdin, sys.stdout, sys.__stderr__)
    return all(stream is not None and stream.isatty() for stream in streams)


def _monochrome() -> bool:
    """Whether the terminal shows no colour: ``TERM=dumb`` or a mono terminal (``xterm-mono``,
    ``vt100``-like ``-m`` entries), besides ``NO_COLOR``."""
    term = os.environ.get("TERM", "")
    return term == "dumb" or term.endswith(("-mono", "-m"))


def run_fullscreen(
    host: PluginHost,
    request: PlayRequest,
    *,
    own_exit: Callable[[BaseException], bool],
    show_traceback: Callable[[BaseException], None],
    run_app: Callable[[PatienceApp], int | None] = PatienceApp.run,
) -> int:
    """Play the game of ``request`` on the full screen until the player quits.

    The game is opened as the line player opens it (:func:`~patience_core.play.open_game`: the
    same checks, the lock, a resumed or new save). Every move is saved; Ctrl-C, the terminal
    closing (SIGHUP, or gone with no signal) and SIGTERM save the game and end the app, or the
    process when the app cannot end (:mod:`patience_core.tui._ending`); the terminal is
    restored on every way out. When the game's plugin fails, the app ends with the game saved
    and one line on standard error, printed after the screen is restored.

    :param own_exit: tells patience's own ``SystemExit`` from a failing plugin's.
    :param show_traceback: prints a failing plugin's traceback (``PATIENCE_DEBUG``).
    :param run_app: runs the app to its end and answers its exit code (the tests run it
        headless with Textual's pilot).
    :returns: the exit code: 0 the player quit, 1 the plugin failed, 129 the terminal closed
        (SIGHUP), 128 + N another signal N that ends the game (SIGINT, SIGTERM).
    :raises PatienceError: one line: a save that cannot be read, written or locked, ...
    """
    opened = open_game(host, request, own_exit=own_exit, show_traceback=show_traceback)
    if isinstance(opened, int):
        return opened
    try:
        controller = opened.controller
        game = controller.session.game

        unicode = CardStyle.for_stream(sys.stdout).unicode

        def card_text(card: Card) -> str:
            return host.card_text(card, unicode) or card_label(card)

        statistics = opened.statistics
        summary = (
            partial(statistics.summary, game.name, dict(game.option_values))
            if statistics is not None
            else None
        )
        app = PatienceApp(controller, card_text, summary)
        app.colourless = _monochrome()  # no colour codes at all for a terminal without colour
        app.driver_class = forgiving_driver(app.driver_class)  # a terminal gone must not hang it
        with ending_signals(app, controller) as ending:
            code = run_app(app)
            ending.app_ended()
            try:
                return _after_app(app, controller, ending.received, code)
            finally:
                opened.release()  # under the handlers still: a second signal cannot cut it short
    finally:
        opened.release()


def _after_app(
    app: PatienceApp, controller: PlayController, received: list[int], code: int | None
) -> int:
    """Save the game the app has ended, say how it ended and answer the exit code (see
    :func:`run_fullscreen`); ``received`` holds the signal that ended it, if any (SIGHUP for a
    terminal gone)."""
    saved = controller.save()
    if received and received[0] == getattr(signal, "SIGHUP", None):
        silence_output(sys.stdout, sys.stderr)
        return HANG_UP_EXIT  # the terminal closed: nobody reads more (as the line player)
    for line in app.kept:
        print(line)
    for line in dict.fromkeys(app.warnings):  # each once (a failing save warns at every move)
        print(line, file=sys.stderr)
    if app.failure is not None:
        print(app.failure, file=sys.stderr)
        return FAILED
    if received:
        # Fitted as the line player's: the command is never cut in the middle (docs/play.md).
        echo_fitted(interrupted_line(controller), err=True)
        return 128 + received[0]
    # As the line player ends: the statistics' line once the game has a row, where it is.
    controller.record_stats()
    stats_line = controller.tally.summary_line() if controller.session.moves else None
    if stats_line is not None:
        echo_fitted(stats_line)
    state = "saved" if saved else "NOT saved"
    echo_fitted(f"Game {state} to {controller.path}; resume with: {controller.resume_hint}")
    return code if code is not None else 0
