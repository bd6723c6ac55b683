"""The full-screen player (``patience play GAME`` on a terminal): every key, the mouse, the
dialogs (docs/play.md, "Keys" and "The mouse").

:class:`PatienceApp` puts together the board and status of :mod:`patience_core.tui._core`, the
hints and auto-finish of :mod:`patience_core.tui._assist` and the dialogs of
:mod:`patience_core.tui._screens`.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
from functools import partial
from typing import Any, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.timer import Timer

from patience_core.engine import DealNumber, counted
from patience_core.errors import PatienceError
from patience_core.model import PileKind
from patience_core.play import FINISHED_WON, WinnableDeal, winnable_deal
from patience_core.tui._assist import AssistApp
from patience_core.tui._board import Board
from patience_core.tui._core import QUIT
from patience_core.tui._hotkeys import HotKeys, PileChoice
from patience_core.tui._keys import _TAKEN, FOOTER, KEYS, help_lines
from patience_core.tui._screens import (
    RANDOM,
    WINNABLE,
    ConfirmScreen,
    EndScreen,
    HelpScreen,
    NewDealScreen,
    summary_lines,
)

__all__ = ["KEYS", "PatienceApp", "help_lines"]

#: How long a pile name may pause between its letters, in seconds.
HOT_KEY_SECONDS = 0.6


class PatienceApp(AssistApp):
    """The full-screen player of one game over a :class:`~patience_core.play.PlayController`.

    Exits with :data:`~patience_core.tui._core.QUIT` (0) when the player quits, the game saved,
    or :data:`~patience_core.tui._core.FAILED` (1) when the game's plugin failed
    (:attr:`failure` holds the line to print).
    """

    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(keys, action, label, show=shown) for keys, label, _what, action, shown in KEYS),
        # Ctrl+C quits from every screen, dialogs and their text fields included.
        Binding("ctrl+c", "quit_game", "quit", show=False, priority=True),
    ]
    KEY_LABELS = FOOTER

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hot_keys = HotKeys(self.controller.session.game, _TAKEN)
        self._hot_timer: Timer | None = None
        self._press: tuple[int, int] | None = None
        self._dragged = False
        #: Set to stop the winnable-deal search running, if any.
        self._winnable: threading.Event | None = None

    def mounted(self) -> None:
        """A game resumed over opens with its end screen; the dead check, when on, looks at
        the position the game opens with."""
        super().mounted()
        if self.controller.session.finished is not None:
            self.run_clock()
            self.game_ended()
        else:
            if self.controller.dead_check_on:
                self.check_dead(self.controller.session.position)
            self.offer_finish()

    # -- keys --------------------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Any key stops a hint search or auto-finish (and does nothing else; ``q`` still quits
        while a hint is searched); pile names are read as hot keys before the other keys; while
        the terminal is too small for the board, only the keys that quit do anything (no move
        is made blind)."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.key_pressed()
        if isinstance(event, events.Key) and not event.is_forwarded and len(self.screen_stack) == 1:
            # q quits at once, a hint being searched or not (its thread dies with the process).
            if not (event.key == "q" and self.cancel_hint()) and self.stop_assist():
                return
            if self.too_small and event.key not in ("q", "ctrl+c"):
                return
            if self._hot_key(event.character or ""):
                return
        await super().on_event(event)

    def _hot_key(self, key: str) -> bool:
        hot = self.hot_keys
        if not key or not hot.starts(key):
            if hot.pending:
                self._hot_done(hot.finish())
            return False
        if self._hot_timer is not None:
            self._hot_timer.stop()
            self._hot_timer = None
        choice = hot.feed(key)
        if choice is not None:
            self._hot_done(choice)
        else:
            self._hot_timer = self.set_timer(HOT_KEY_SECONDS, lambda: self._hot_done(hot.finish()))
        return True

    def _hot_done(self, choice: PileChoice | None) -> None:
        if self._hot_timer is not None:
            self._hot_timer.stop()
            self._hot_timer = None
        if choice is None:
            return
        selection = self.board.selection
        if selection is None or len(choice.piles) == 1:
            pile = choice.piles[0]
            if selection is None:
                self.put_cursor(pile)
            self.pick_or_drop(pile, -1)
            return
        # A kind named by its letter (f: the foundations): the first that takes the cards.
        source, first = selection
        count = len(self.controller.session.position.piles[source]) - first
        legal = self.guarded(self.controller.session.legal_moves) or []
        for move in legal:
            if move.source == source and move.target in choice.piles and move.count == count:
                self.play(partial(self.controller.play_move, move))
                return
        self.play(partial(self.controller.transfer, source, choice.piles[0], count))

    def action_cursor(self, direction: str) -> None:
        """Move the cursor."""
        self.move_cursor(direction)

    def action_pick_or_drop(self) -> None:
        """Pick up the cards from the cursor, or drop the picked-up cards at the cursor."""
        if self.board.cursor is not None:
            self.pick_or_drop(*self.board.cursor)

    def action_cancel(self) -> None:
        """Put the picked-up cards back."""
        self.cancel()

    def action_deal(self) -> None:
        """Deal from the stock."""
        self.deal()

    def action_smart(self) -> None:
        """Play the picked-up cards, or the card(s) at the cursor, to the best pile."""
        pile, card = self.board.selection or self.board.cursor or (None, -1)
        if pile is None:
            return
        cards = self.controller.session.position.piles[pile]
        count = len(cards) - card if 0 <= card < len(cards) else None
        self.play(lambda: self.controller.smart_move(pile, count))

    def action_undo(self) -> None:
        """Take the last move back."""
        self.play(self.controller.undo)

    def action_redo(self) -> None:
        """Play the last move taken back again."""
        self.play(self.controller.redo)

    def action_restart(self) -> None:
        """Go back to the deal, after asking (the moves can be redone)."""

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            played = len(self.controller.session.moves)
            outcome = self.play(self.controller.restart)
            if outcome is not None and not outcome.refused and played:
                # The controller's sentence names the line player's 'redo all'.
                self.say(f"Back to the deal: U redoes the {counted(played, 'move')}, one by one.")

        self.push_screen(ConfirmScreen("Restart this deal?"), answered)

    def action_help(self) -> None:
        """Show every key."""
        self.push_screen(HelpScreen(help_lines(self.size.width)))

    def action_quit_game(self) -> None:
        """Quit; the game is saved after every move already, and once more now."""
        self.guarded(self.controller.save)
        self.exit(QUIT)

    def action_statistics(self) -> None:
        """Show this game's statistics, when the statistics are kept."""
        lines = self.statistics_lines()
        self.push_screen(HelpScreen(lines or ["No statistics are kept."]))

    # -- new deal, the end of a game ---------------------------------------------------------

    def action_new_deal(self, problem: str = "", typed: str = "") -> None:
        """Ask which deal to play next: random, a number typed, or a winnable one (``problem``:
        why the deal asked before, typed as ``typed``, cannot be dealt)."""
        game = self.controller.session.game
        screen = NewDealScreen(problem, typed, game.deal_schemes, game.name)
        self.push_screen(screen, partial(self._new_deal_chosen, screen))

    def _new_deal_chosen(self, screen: NewDealScreen, answer: DealNumber | str | None) -> None:
        if answer is None:
            return
        if answer == WINNABLE:
            self.say("Looking for a winnable deal...")
            self._find_winnable()
            return
        deal = DealNumber(secrets.randbelow(2**32)) if answer == RANDOM else answer
        assert isinstance(deal, DealNumber)
        self.start_deal(deal, f"Deal {deal}.", typed=screen.typed if answer is deal else "")

    def _find_winnable(self) -> None:
        """Look for a winnable deal in the background; any key (Esc) stops the search, and an
        answer that comes after is dropped."""
        controller = self.controller
        stop = threading.Event()
        self._winnable = stop

        def search() -> object:
            try:
                return winnable_deal(
                    controller.session.game,
                    controller.search,
                    secrets.randbelow(2**32),
                    cancel=stop,
                )
            except PatienceError as exc:  # none found within the tries
                return str(exc)

        self.in_background(search, partial(self._winnable_found, stop))

    def _winnable_found(self, stop: threading.Event, found: object) -> None:
        if stop.is_set() or stop is not self._winnable:
            return  # stopped, or a later search runs: this answer is stale
        self._winnable = None
        if isinstance(found, str):
            self.say(found)
        elif isinstance(found, WinnableDeal):
            self.start_deal(found.deal, found.sentence())

    def stop_assist(self) -> bool:
        """Stop what runs on its own (a hint search, auto-finish, the winnable-deal search);
        whether something was."""
        stopped = super().stop_assist()
        if self._winnable is None:
            return stopped
        self._winnable.set()
        self._winnable = None
        self.say("The search for a winnable deal is stopped.")
        return True

    def start_deal(self, deal: DealNumber, said: str, typed: str = "") -> None:
        """Start ``deal`` of the same game in the same save (a deal the game cannot deal, such
        as ``ms:N`` where deals have no MS numbers: the new-deal dialog again, saying why, with
        the text ``typed`` for it back in the field)."""
        self.stop_assist()
        old = self.controller.session
        try:
            self.guarded(lambda: self.controller.new_game(deal), refusals=False)
        except PatienceError as exc:
            self.action_new_deal(str(exc), typed)
            return
        if self.controller.session is old:
            return  # the plugin failed, or the old game could not be kept (its warning shown)
        self.board.selection = None
        self.board.hint = (None, None)
        if self.controller.session.game is not old.game:
            # Other rules (a variant file changed since the save): another layout.
            self.board.game = self.controller.session.game
            self.board.cursor = None
            self.title = self.controller.session.game.title
        self.redraw()
        if self.board.cursor is None:
            self.board.cursor = self._top_of(self._first_pile())
        # Where the unfinished game was kept aside, and how to resume it.
        kept_line = getattr(self.controller, "kept_line", None)
        if kept_line:
            self.kept.append(kept_line)
        self.say(f"{said} {kept_line}" if kept_line else said)
        self.after_change()

    def game_ended(self) -> None:
        """Show the end screen: won or lost, score, moves, time, statistics; then what next."""
        controller = self.controller
        session = controller.session
        won = session.finished == FINISHED_WON
        lines = [
            "You won!" if won else "No moves left: the game is lost.",
            "",
            f"{controller.score_text()}   Moves {len(session.moves)}   "
            f"Time {controller.clock.text()}",
            *self.statistics_lines(),
        ]
        self.push_screen(EndScreen(lines), self._after_end)

    def _after_end(self, answer: str | None) -> None:
        if answer == "new":
            self.action_new_deal()
        elif answer == "same":
            self.start_deal(self.controller.session.deal, "The same deal again.")
        elif answer == "back":
            self.say("Undo (u) takes moves back.")
        else:
            self.action_quit_game()

    def statistics_lines(self) -> list[str]:
        """The game's statistics (this option set), when they are kept and can be read; else
        no line."""
        if self.statistics is None:
            return []
        try:
            summary = self.statistics()
        except sqlite3.Error:
            return []
        session = self.controller.session
        return ["", *summary_lines(summary, session.game.title, session.options)]

    # -- the mouse ---------------------------------------------------------------------------

    def on_board_clicked(self, event: Board.Clicked) -> None:
        """The mouse on the board: a click picks up or drops, a double-click sends the card to
        a foundation, a drag from one pile to another drops the cards there."""
        if event.button != 1:
            return
        hit = (event.pile, event.card)
        if event.chain == 0:  # the button went down: a drag may start here
            self._press = hit
            return
        if event.chain < 0:  # the button went up: a drag ends on another pile
            start, self._press = self._press, None
            if start is not None and start[0] != hit[0]:
                self._dragged = True
                self.stop_assist()
                if self.board.selection is None or self.board.selection[0] != start[0]:
                    self.board.selection = None
                    self.pick(*start)
                if self.board.selection is not None:
                    self.pick_or_drop(*hit)
            return
        if self._dragged:  # the click that ends a drag is not one more click
            self._dragged = False
            return
        self.stop_assist()
        self.board.cursor = hit
        if event.chain >= 2:
            self.board.selection = None
            self.to_foundation(hit[0])
            return
        self.pick_or_drop(*hit)

    def to_foundation(self, pile: int) -> None:
        """Play the top card of ``pile`` to a foundation (a double-click), or say why not."""
        game = self.controller.session.game
        foundations = set(game.pile_indices(PileKind.FOUNDATION))
        legal = self.guarded(self.controller.session.legal_moves) or []
        for move in legal:
            if move.source == pile and move.target in foundations and move.count == 1:
                self.play(partial(self.controller.play_move, move))
                return
        if game.piles[pile].kind is PileKind.STOCK:
            self.deal()
            return
        target = min(foundations) if foundations else pile
        self.play(lambda: self.controller.transfer(pile, target, 1))
