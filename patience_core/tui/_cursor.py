"""The cursor of the full-screen player, and picking cards up and dropping them: the keys and
the mouse both come here (docs/play.md, "Keys", "The mouse"). A drop is a change through
:meth:`GameApp.play <patience_core.tui._core.GameApp.play>`.
"""

from __future__ import annotations

from patience_core.model import PileKind
from patience_core.tui._core import GameApp

__all__ = ["CursorApp"]


class CursorApp(GameApp):
    """:class:`GameApp` with the cursor and cards picked up (:attr:`Board.selection
    <patience_core.tui.Board.selection>`) and dropped."""

    def move_cursor(self, direction: str) -> None:
        """Move the cursor (``"left"``, ``"right"``, ``"up"``, ``"down"``): along a fanned pile's
        face-up cards first, then to the neighbouring pile on the board."""
        pile, card = self.board.cursor or self._top_of(self._first_pile())
        cards = self.controller.session.position.piles[pile]
        along = None
        if direction == "up" and card > 0 and cards[card - 1].face_up:
            along = card - 1
        elif direction == "down" and 0 <= card < len(cards) - 1:
            along = card + 1
        if along is None:
            self.board.cursor = self._arrive(self.board.neighbours(pile, direction))
            return
        self.board.cursor = (pile, along)
        selection = self.board.selection
        if selection is not None and selection[0] == pile:
            # Up and down along the picked-up pile pick up more cards or fewer.
            self.board.selection = (pile, along)
            self._say_picked(pile, along)

    def _arrive(self, pile: int) -> tuple[int, int]:
        """The cursor's place on ``pile`` reached from another: on the pile the cards were
        picked up from, the first card picked up (so up and down go on from the count picked
        up: from the top card they went the wrong way), else the top card."""
        selection = self.board.selection
        if selection is not None and selection[0] == pile:
            return selection
        return self._top_of(pile)

    def put_cursor(self, pile: int) -> None:
        """Put the cursor on ``pile``'s top card."""
        self.board.cursor = self._top_of(pile)

    def pick_or_drop(self, pile: int, card: int) -> None:
        """Enter or Space on (``pile``, ``card``), or a click: pick the cards up from ``card`` to
        the top; with cards picked up, drop them on ``pile`` (the same pile: put them back)."""
        selection = self.board.selection
        if selection is not None:
            source, first = selection
            if source == pile:
                self.cancel()
                return
            count = len(self.controller.session.position.piles[source]) - first
            before = self.controller.session.position
            self.play(lambda: self.controller.transfer(source, pile, count))
            if self.controller.session.position != before:
                # The cursor follows the cards (after a hot-key drop it was left on the pile
                # they came from, which a pyramid draws blank once empty).
                self.put_cursor(pile)
            return
        self.pick(pile, card)

    def pick(self, pile: int, card: int) -> None:
        """Pick up the cards of ``pile`` from ``card`` (``-1``: its top card) to the top; the
        stock deals instead."""
        game = self.controller.session.game
        cards = self.controller.session.position.piles[pile]
        name = game.piles[pile].name
        if game.piles[pile].kind is PileKind.STOCK:
            self.deal()
            return
        if not cards:
            self.say(f"Nothing to pick up: {name} is empty.")
            return
        if card < 0 or card >= len(cards):
            card = len(cards) - 1
        if not cards[card].face_up:
            self.say(f"That card of {name} is face down.")
            return
        self.board.selection = (pile, card)
        self.board.cursor = (pile, card)
        self._say_picked(pile, card)

    def _say_picked(self, pile: int, card: int) -> None:
        count = len(self.controller.session.position.piles[pile]) - card
        name = self.controller.session.game.piles[pile].name
        what = "the top card" if count == 1 else f"{count} cards"
        self.say(f"Picked up {what} of {name} (up/down: more or fewer); Enter drops, Esc cancels.")

    def cancel(self) -> None:
        """Put picked-up cards back (Esc); the cursor on their pile goes back to its top card,
        so the next pick-up starts from one card again."""
        selection = self.board.selection
        if selection is not None:
            self.board.selection = None
            if self.board.cursor is not None and self.board.cursor[0] == selection[0]:
                self.board.cursor = self._top_of(selection[0])
            self.say("")

    def deal(self) -> None:
        """Deal from the stock (``d``)."""
        self.play(self.controller.deal)
