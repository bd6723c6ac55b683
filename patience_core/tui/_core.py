"""The heart of the full-screen player: the board, the status bar and the message line, and
every change through the play controller.

:class:`GameApp` knows no cursor, mouse, dialog or hint: :mod:`patience_core.tui._cursor` adds
the cursor and picking cards up and dropping them, :mod:`patience_core.tui._assist` hints,
auto-finish and the dead check, :mod:`patience_core.tui._app` the keys, the mouse and the
dialogs. Every call into the game goes through :meth:`GameApp.guarded`, so a failing plugin ends
the app with the game saved and one line (docs/play.md, "Leaving").
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Middle
from textual.filter import LineFilter, NoColor
from textual.geometry import Size
from textual.widgets import Static

from patience_core.errors import PatienceError
from patience_core.model import Card, PileKind
from patience_core.play import Outcome, PlayController
from patience_core.stats import GameSummary
from patience_core.tui._board import Board, card_label
from patience_core.tui._geometry import board_geometry
from patience_core.tui._lines import KeyBar, fit_status, status_fields
from patience_core.tui._signals import before_stop

__all__ = ["FAILED", "QUIT", "GameApp"]

T = TypeVar("T")

#: The lines under the board, at most: the status bar, the message line (two when its text is
#: long), the footer (two lines).
OTHER_LINES = 5

#: The exit codes of the app: the player quit (the game saved), the game's plugin failed.
QUIT = 0
FAILED = 1


class GameApp(App[int]):
    """One game in play on the full screen, over a :class:`~patience_core.play.PlayController`.

    :param controller: the game, saved after every change.
    :param card_text: a card's text from its plugin (``PluginHost.card_text``), or ``None``.
    :param statistics: gives the game's statistics (``Statistics.summary``; may raise
        ``sqlite3.Error``), or ``None`` when statistics are off.
    """

    CSS = """
    Screen { overflow: hidden; }
    #board { height: 1fr; }
    #status { height: 1; background: $primary-background; }
    #message { height: auto; max-height: 2; color: $text-warning; }
    #too-small { display: none; overflow: hidden; width: 100%; height: 100%; }
    #too-small-text { width: 100%; text-align: center; }
    """

    #: Whether to draw without any colour (``TERM=dumb``, a mono terminal): bold, reverse,
    #: underline and italics only. (``NO_COLOR`` alone gives Textual's grey look.)
    colourless = False

    #: The footer's keys: ``(key as shown, label, rank)`` (see ``KeyBar``).
    KEY_LABELS: ClassVar[tuple[tuple[str, str, int], ...]] = ()

    def __init__(
        self,
        controller: PlayController,
        card_text: Callable[[Card], str] | None = None,
        statistics: Callable[[], GameSummary] | None = None,
    ) -> None:
        super().__init__()
        self.controller = controller
        self.card_text = card_text
        #: The game's statistics summary (``Statistics.summary``), when statistics are kept.
        self.statistics = statistics
        #: The warnings given while the app ran (a save that failed, ...): shown on the message
        #: line, and printed once the screen is restored.
        self.warnings: list[str] = []
        #: Where unfinished games replaced by a new deal were kept, and how to resume them:
        #: said on the message line, and printed again once the screen is restored (a narrow
        #: message line may cut the command).
        self.kept: list[str] = []
        # The warnings given since the last key: shown after the message of that key's change.
        self._unsaid: list[str] = []
        self._message_line = Static(id="message", markup=False)
        self._main_thread = threading.get_ident()
        controller.warn = self.warn
        #: The one line that ended the game when its plugin failed (printed after the screen is
        #: restored), else ``None``.
        self.failure: str | None = None
        game = controller.session.game
        self.board = Board(game, controller.session.position, card_text=card_text, id="board")
        self._text_width = max(len((card_text or card_label)(card)) for card in game.new_deck())
        self._message = ""
        self._away = False
        #: Whether the terminal is too small for the board (only its size needed is shown).
        self.too_small = False

    # -- layout ------------------------------------------------------------------------------

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's line filters; only one that removes every colour when :attr:`colourless`."""
        if self.colourless:
            return [NoColor()]
        return super().get_line_filters()

    def compose(self) -> ComposeResult:
        """The board, the status bar, the message line and the footer."""
        yield self.board
        # Plain text: messages may quote what the player or a plugin wrote, brackets included.
        with Middle(id="too-small"):
            yield Static(id="too-small-text", markup=False)
        yield Static(id="status", markup=False)
        yield self._message_line
        yield KeyBar(self.KEY_LABELS, id="keys")

    def on_mount(self) -> None:
        """Start the clock's display and put the cursor on the first pile."""
        session = self.controller.session
        self._main_thread = threading.get_ident()
        self.title = session.game.title
        self.board.cursor = self._top_of(self._first_pile())
        self.set_interval(1.0, self.show_status)
        self.show_status()
        # A note printed before the screen opened is hidden by it: say it here too.
        note = getattr(self.controller, "opening_note", None)
        self.say(note or f"{session.game.title}, deal {session.deal}.  ? shows every key.")
        # The clock stops while the app is suspended (Textual's suspend, e.g. for a shell).
        self.app_suspend_signal.subscribe(self, lambda _app: self.on_app_blur())
        self.app_resume_signal.subscribe(self, lambda _app: self.resumed())
        self._catch_stop_signal()
        self.check_size()
        self.mounted()

    def _catch_stop_signal(self) -> None:
        def stopping() -> None:
            self._away = True
            self.controller.clock.pause()

        before_stop(stopping)

    def resumed(self) -> None:
        """Back from a suspension (``fg`` after SIGTSTP): the clock goes on and the whole
        screen is drawn again."""
        self.on_app_focus()
        self.say(self._message)
        self.query_one(KeyBar).lay_out()
        self.screen.refresh(layout=True, repaint=True)
        self.refresh(layout=True, repaint=True)

    def mounted(self) -> None:
        """Called once the app runs, its screen drawn (Textual calls the ``on_mount`` of every
        class of an app: subclasses extend this instead)."""

    def on_resize(self, event: events.Resize) -> None:
        """Show the board at the new size, or the "terminal too small" message."""
        self.check_size(event.size)

    def check_size(self, size: Size | None = None) -> None:
        """Show only the "terminal too small" message, centred, when the board cannot be drawn
        in a terminal of ``size`` (default: the app's); the board again when it can.

        The board gets the terminal less the lines of the status bar, the message line and the
        footer (:data:`OTHER_LINES`).
        """
        width, height = size or self.size
        session = self.controller.session
        needed = board_geometry(
            session.game,
            session.position,
            width,
            height - OTHER_LINES,
            text_width=self._text_width,
        ).needed
        problem = None
        if needed is not None:
            columns, rows = needed[0], needed[1] + OTHER_LINES
            problem = f"terminal too small: {columns}x{rows} needed; this is {width}x{height}"
            self.query_one("#too-small-text", Static).update(problem)
        for widget in (self.board, *self.query("#status, #message, #keys")):
            widget.display = problem is None
        self.query_one("#too-small").display = problem is not None
        self.too_small = problem is not None

    def on_app_blur(self) -> None:
        """The terminal lost the focus: the clock stops."""
        self._away = True
        self.run_clock()

    def on_app_focus(self) -> None:
        """The terminal has the focus again: the clock goes on."""
        self._away = False
        self.run_clock()

    def run_clock(self) -> None:
        """Run the play clock while the game is on and the player here (the terminal has the
        focus, the app is not suspended); stop it otherwise, and at the end of the game."""
        clock = self.controller.clock
        if self._away or self.controller.session.finished is not None:
            clock.pause()
        else:
            clock.resume()
        self.show_status()

    def warn(self, text: str) -> None:
        """A one-line warning from the game in play: on the message line now, and on standard
        error once the screen is restored."""
        self.warnings.append(text)
        if not self.is_running:
            return  # the screen is gone (the last save): printed on standard error only
        if threading.get_ident() == self._main_thread:
            self._warned(text)
        else:
            self.call_from_thread(self._warned, text)

    def _warned(self, text: str) -> None:
        self._unsaid.append(text)
        self._show_message()

    def key_pressed(self) -> None:
        """A key was pressed: the warnings shown so far have been read."""
        self._unsaid.clear()

    # -- what the player sees ----------------------------------------------------------------

    def show_status(self) -> None:
        """Redraw the status bar: game, deal, score, moves, time, stock left, game status (the
        game's title left out when the line would not fit)."""
        fields = self.guarded(lambda: status_fields(self.controller))
        if fields is None or not self.is_running:
            return
        self.query_one("#status", Static).update(fit_status(fields, self.size.width))

    def say(self, text: str) -> None:
        """Show ``text`` on the message line (replacing what was there)."""
        self._message = text
        self._show_message()

    def _show_message(self) -> None:
        # Two lines at most: a longer text keeps its start and says it was cut.
        text = " ".join([self._message, *self._unsaid]).strip()
        room = 2 * max(self.size.width, 20)
        if len(text) > room:
            text = text[: room - 1] + "…"
        self._message_line.update(text)

    @property
    def message(self) -> str:
        """The text of the message line."""
        return self._message

    def redraw(self) -> None:
        """Show the current position: board, status, cursor kept on its pile."""
        position = self.controller.session.position
        self.board.show(position)
        if self.board.cursor is not None:
            self.board.cursor = self._top_of(self.board.cursor[0])
        self.show_status()

    # -- changes -----------------------------------------------------------------------------

    def guarded(self, call: Callable[[], T], *, refusals: bool = True) -> T | None:
        """``call()``; when the game's plugin fails in it, end the app with the game saved and
        the failure's one line (:attr:`failure`), and answer ``None``. Patience's own one-line
        errors (:class:`PatienceError`) go on the message line (``refusals``) or are raised.

        :raises PatienceError: patience's own error, when not ``refusals``.
        """
        try:
            return call()
        except PatienceError as exc:
            if self.controller.plugins_fault(exc):
                self._plugin_failed(exc)
            elif not refusals:
                raise
            else:  # patience's own one-line refusal (a deal the game cannot deal, ...)
                self.say(str(exc))
            return None
        except (Exception, SystemExit) as exc:  # a plugin's exit is its failure too
            self._plugin_failed(exc)
            return None

    def _plugin_failed(self, exc: BaseException) -> None:
        if not self.controller.plugins_fault(exc):
            raise exc
        self.failure = self.controller.plugin_failure_line(exc)
        self.exit(FAILED)
        return None

    def play(self, call: Callable[[], Outcome]) -> Outcome | None:
        """Make one change (``call`` asks the controller), show what it did, and the end of the
        game when it ended. A refused move leaves the board as it was, its reason shown."""
        self.board.selection = None
        outcome = self.guarded(call)
        if outcome is None:
            return None
        self.show_outcome(outcome)
        return outcome

    def show_outcome(self, outcome: Outcome) -> None:
        """Show ``outcome``: its messages, the new board, the game's end."""
        if outcome.quit:
            self.exit(QUIT)
            return
        self.say(" ".join(outcome.messages))
        if outcome.show_board:
            self.redraw()
            self.after_change()

    def after_change(self) -> None:
        """Called after every change of position: the end of the game, news, offers."""

    # -- the cursor's places -----------------------------------------------------------------

    def _first_pile(self) -> int:
        piles = self.controller.session.game.piles
        tableau = [i for i, spec in enumerate(piles) if spec.kind is PileKind.TABLEAU]
        return tableau[0] if tableau else 0

    def _top_of(self, pile: int) -> tuple[int, int]:
        """The cursor on ``pile``'s top card (``-1``: the pile is empty)."""
        return (pile, len(self.controller.session.position.piles[pile]) - 1)
