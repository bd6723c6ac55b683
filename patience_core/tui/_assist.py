"""What the full-screen player does for the player: hints searched in a worker thread, the
auto-finish animation, the dead-check indicator, and the news after each change (docs/play.md,
"Hints", "Auto-finish", "The dead check").
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.timer import Timer

from patience_core.model import Position
from patience_core.play import HintAnswer, Outcome
from patience_core.tui._cursor import CursorApp

__all__ = ["AUTO_STEP_SECONDS", "AssistApp"]

#: The pause between two moves of the auto-finish animation, in seconds.
AUTO_STEP_SECONDS = 0.08


def _raise(exc: BaseException) -> None:
    raise exc


class AssistApp(CursorApp):
    """:class:`CursorApp` with hints, auto-finish and the dead check."""

    _hint_cancel: threading.Event | None = None
    #: The last answer of the hint being searched, shown.
    _hint_shown: HintAnswer | None = None
    _auto: Timer | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # One search at a time in the worker threads: hints and the dead check share results.
        self._searching = threading.Lock()

    def in_background(self, search: Callable[[], Any], then: Callable[[Any], None]) -> None:
        """Run ``search()`` in a daemon thread (the board stays live), then ``then(answer)`` in
        the app's thread. Quitting never waits for a search: its thread is left to die with the
        process, and an answer that comes after the app ended is dropped."""

        def run() -> None:
            try:
                answer = search()
            except BaseException as exc:  # the game's plugin failed: the app's thread says it
                done = partial(self.guarded, partial(_raise, exc))
            else:
                done = partial(then, answer)
            with contextlib.suppress(RuntimeError):  # the app has ended meanwhile
                self.call_from_thread(done)

        threading.Thread(target=run, name="patience-search", daemon=True).start()

    def _in_app(self, call: Callable[[], object]) -> bool:
        """From a worker thread: ``call()`` in the app's thread, waiting for it; ``False``
        when the app has ended."""
        try:
            self.call_from_thread(call)
        except RuntimeError:  # the app has ended meanwhile
            return False
        return True

    # -- hints -------------------------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        """Whether a hint is being searched (a quick answer may be shown meanwhile)."""
        return self._hint_cancel is not None

    def action_hint(self) -> None:
        """Search a hint in a worker thread (the board stays live): its first answer comes at
        once, marked as thinking, and better founded ones replace it as the search finds
        them, the last marked final; each highlights the source and target piles and says why
        (RULES.md Part A, hints; docs/play.md, "Hints")."""
        self.stop_assist()
        cancel = threading.Event()
        self._hint_cancel = cancel
        self._hint_shown = None
        self.board.hint = (None, None)
        self.say("Hint: thinking... (any key cancels)")
        self._search_hint(cancel, self.controller.session.position)

    def _search_hint(self, cancel: threading.Event, position: Position) -> None:
        answers = self.controller.hint_answers(cancel=cancel)
        show = partial(self._show_hint, cancel, position)

        def run() -> None:
            # hint_answers reads a snapshot of the positions and changes nothing of the
            # session; the lock keeps it from copying the search results while the dead check
            # adds to them.
            with self._searching:
                try:
                    for answer in answers:
                        # Waits until it is shown, so answers never overtake one another.
                        if not self._in_app(partial(show, answer)):
                            cancel.set()  # the app has ended: stop the search
                            return
                except BaseException as exc:  # a failure: the app's thread says it
                    self._in_app(partial(self.guarded, partial(_raise, exc)))

        threading.Thread(target=run, name="patience-hint", daemon=True).start()

    def _show_hint(self, cancel: threading.Event, position: Position, answer: HintAnswer) -> None:
        # A stale answer (a key pressed, another hint asked) is dropped.
        if cancel.is_set() or cancel is not self._hint_cancel:
            return
        if position != self.controller.session.position:
            # The position changed (a move by the mouse): no answer of this search is shown.
            cancel.set()
            self._hint_cancel = None
            return
        if answer.final:
            self._hint_cancel = None
        self._hint_shown = answer
        self.board.hint = (answer.source, answer.target)
        self.say(answer.marked("final" if answer.final else "thinking..."))

    def cancel_hint(self) -> bool:
        """Stop a hint being searched; whether there was one. A quick answer already shown
        stays, marked as stopped."""
        if self._hint_cancel is None:
            return False
        self._hint_cancel.set()
        self._hint_cancel = None
        shown = self._hint_shown
        self.say("Hint cancelled." if shown is None else shown.marked("stopped"))
        return True

    # -- auto-finish -------------------------------------------------------------------------

    @property
    def finishing(self) -> bool:
        """Whether the auto-finish animation is playing."""
        return self._auto is not None

    def action_finish(self) -> None:
        """Play the rest of the game when it is forced, one move every
        :data:`AUTO_STEP_SECONDS` (``a``); any key stops it."""
        self.stop_assist()
        if not self.guarded(self.controller.can_finish):
            self.say("Auto-finish: the rest of the game is not forced yet.")
            return
        self.board.selection = None
        self._auto = self.set_interval(AUTO_STEP_SECONDS, self._auto_step)

    def _auto_step(self) -> None:
        outcome = self.guarded(self.controller.auto_step)
        if outcome is None:
            self.stop_finishing()
            self.after_change()
            return
        self.say(" ".join(outcome.messages))
        self.redraw()
        if self.controller.session.finished is not None:
            self.stop_finishing()
            self.after_change()

    def stop_finishing(self) -> bool:
        """Stop the auto-finish animation; whether it was playing."""
        if self._auto is None:
            return False
        self._auto.stop()
        self._auto = None
        if self.controller.session.finished is None:
            self.say("Auto-finish stopped.")
            self.offer_finish()
        return True

    def offer_finish(self) -> None:
        """Offer auto-finish on the message line when the rest of the game is forced."""
        if not self.finishing and self.guarded(self.controller.can_finish):
            self.say(f"{self.message} The rest is forced: press a to finish.".strip())

    def stop_assist(self) -> bool:
        """Stop what runs on its own (a hint search, auto-finish); whether something was."""
        stopped_hint = self.cancel_hint()
        stopped_auto = self.stop_finishing()
        return stopped_hint or stopped_auto

    # -- dead check, news after a change -----------------------------------------------------

    def action_dead_check(self) -> None:
        """Turn the dead-check indicator on or off (``x``): whether a solver finds no winning
        line, a spoiler where cards are hidden (RULES.md Part A)."""
        controller = self.controller
        controller.dead_check_on = not controller.dead_check_on
        if controller.dead_check_on:
            self.say("Dead check on.")
            self.check_dead(controller.session.position)
        elif controller.dead_seconds <= 0:
            self.say("The dead check is off: its time is 0 (PATIENCE_DEAD_CHECK).")
        else:
            self.say("Dead check off.")
        self.show_status()

    def check_dead(self, position: Position) -> None:
        """Run the dead check of ``position`` in a background thread; its news goes on the
        message line (nothing when the player has moved on meanwhile)."""

        def search() -> str | None:
            # Up to the dead check's seconds: the board stays live meanwhile.
            with self._searching:
                return self.controller.dead_news()

        self.in_background(search, partial(self._dead_said, position))

    def _dead_said(self, position: Position, news: str | None) -> None:
        if position != self.controller.session.position:
            return  # the player moved on: the next check speaks
        if news:
            self.say(f"{self.message} {news}".strip())
        self.show_status()

    def show_outcome(self, outcome: Outcome) -> None:
        """Show ``outcome``; a change of position clears the hint shown and stops the one
        being searched (its answers would be for the position before)."""
        if outcome.show_board:
            self.board.hint = (None, None)
            if self._hint_cancel is not None:
                self._hint_cancel.set()
                self._hint_cancel = None
        super().show_outcome(outcome)

    def after_change(self) -> None:
        """After a change: the end of the game, the dead check's news, the offer to finish."""
        controller = self.controller
        self.run_clock()
        if controller.session.finished is not None:
            self.game_ended()
            return
        if controller.dead_check_on:
            self.check_dead(controller.session.position)
        self.offer_finish()

    def game_ended(self) -> None:
        """Called when the game is won or lost (the end screen)."""
