"""The :class:`Board` widget: any game's piles drawn from :func:`board_geometry`, with the cursor,
the picked-up cards and a hint highlighted. It knows no rules: clicks are posted as messages and
keys belong to the app."""

from __future__ import annotations

import io
from collections.abc import Callable

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from patience_core.games import Game
from patience_core.model import Card, Position
from patience_core.tui._cards import Geometry, Placed
from patience_core.tui._geometry import board_geometry

__all__ = ["Board", "board_svg", "card_label"]

_CARD = {
    False: Style(color="black", bgcolor="bright_white"),
    True: Style(color="red", bgcolor="bright_white"),
}
# Face-down cards alternate two shades, so a pile of them shows how many there are.
_BACKS = (
    ("▒", Style(color="bright_blue", bgcolor="blue")),
    ("░", Style(color="blue", bgcolor="dark_blue")),
)
_OUTLINE = Style(color="bright_black")
_NAME = Style(color="bright_black")
_MORE = Style(color="bright_black", italic=True)
# Selection, cursor and hint differ without colour too (NO_COLOR): reverse, underline, italic.
_SELECTED = Style(reverse=True, bold=True)
_CURSOR = Style(bgcolor="yellow", color="black", underline=True, bold=True)
_HINT = Style(bgcolor="green", color="bright_white", bold=True, italic=True)
_BLANK = Style()


def card_label(card: Card) -> str:
    """A card as its rank letter and suit symbol, e.g. ``K♠``, ``T♥`` (the default card text)."""
    return card.rank.letter + card.suit.symbol


class Board(Widget):
    """Draws one game's position: cards with suit symbols and red/black colours, face-down
    backs, empty piles' outlines with their names, long fans compressed; redrawn on resize.

    Attributes the app sets (each redraws the board):

    * ``cursor``: ``(pile index, card index from the bottom)``, ``-1`` meaning the pile itself
      (an empty pile), or ``None``.
    * ``selection``: the picked-up cards, ``(pile, index of the first)``, or ``None``.
    * ``hint``: ``(source pile, target pile)`` to highlight, or ``(None, None)``.

    :param game: the game whose piles are drawn.
    :param position: the first position shown.
    :param card_text: draws a card's face (e.g. ``"K♠"``), at most 4 characters; default
        :func:`card_label`.
    :param id: the widget's id.
    """

    DEFAULT_CSS = """
    Board {
        width: 1fr;
        height: 1fr;
    }
    """

    cursor: reactive[tuple[int, int] | None] = reactive(None)
    selection: reactive[tuple[int, int] | None] = reactive(None)
    hint: reactive[tuple[int | None, int | None]] = reactive((None, None))

    class Clicked(Message):
        """A mouse button went down (``chain`` 0), up (``chain`` -1) or clicked (``chain`` 1
        for a click, 2 for a double click) on a pile of the board.

        :param pile: the pile's index. :param card: the card's index, ``-1`` for an empty pile.
        :param button: the mouse button (1 left, 2 middle, 3 right).
        :param chain: see above.
        """

        def __init__(self, pile: int, card: int, button: int, chain: int) -> None:
            super().__init__()
            self.pile, self.card, self.button, self.chain = pile, card, button, chain

    def __init__(
        self,
        game: Game,
        position: Position,
        *,
        card_text: Callable[[Card], str] | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.game = game
        self.position = position
        self.card_text = card_text or card_label
        self._text_width = max(len(self.card_text(c)) for c in game.new_deck())
        self._geometry: Geometry | None = None
        self._lines: list[Strip] | None = None

    # -- what the app calls --------------------------------------------------------------------

    def show(self, position: Position) -> None:
        """Redraw the board for ``position``."""
        self.position = position
        self._geometry = None
        self._lines = None
        self.refresh()

    @property
    def geometry(self) -> Geometry:
        """Where everything is drawn at the widget's present size."""
        if self._geometry is None or (self._geometry.columns, self._geometry.rows) != (
            self.size.width,
            self.size.height,
        ):
            self._geometry = board_geometry(
                self.game,
                self.position,
                self.size.width,
                self.size.height,
                text_width=self._text_width,
            )
            self._lines = None
        return self._geometry

    @property
    def too_small(self) -> str | None:
        """``"terminal too small: NxM needed"`` when the board cannot be drawn, else ``None``.
        The size counts the app's other lines and columns (the screen's size less the board's).
        """
        needed = self.geometry.needed
        if needed is None:
            return None
        extra_x, extra_y = 0, 0
        if self.is_attached:
            screen = self.screen.size
            extra_x = max(0, screen.width - self.size.width)
            extra_y = max(0, screen.height - self.size.height)
        return f"terminal too small: {needed[0] + extra_x}x{needed[1] + extra_y} needed"

    def pile_at(self, x: int, y: int) -> tuple[int, int] | None:
        """What is at ``(x, y)`` in the widget's coordinates: ``(pile, card index)``,
        ``(pile, -1)`` for an empty pile's outline, or ``None``."""
        return self.geometry.pile_at(x, y)

    def card_region(self, pile: int, card: int) -> Region:
        """Where card ``card`` of ``pile`` is drawn, in the widget's coordinates (``-1``: the
        outline or top card; a hidden card: the ``+N`` marker standing for it).

        :raises KeyError: when the pile is not on the board (too small, or a covered place
            whose card has gone).
        """
        return Region(*self.geometry.card_region(pile, card))

    def neighbours(self, pile: int, direction: str) -> int:
        """The pile the cursor moves to from ``pile`` towards ``direction`` (``"left"``,
        ``"right"``, ``"up"``, ``"down"``), the nearest on the board; ``pile`` when none.

        :raises ValueError: for another direction.
        """
        return self.geometry.neighbour(pile, direction)

    # -- drawing --------------------------------------------------------------------------------

    def watch_cursor(self) -> None:
        self._lines = None
        self.refresh()

    def watch_selection(self) -> None:
        self._lines = None
        self.refresh()

    def watch_hint(self) -> None:
        self._lines = None
        self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        self._geometry = None
        self._lines = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        """One line of the board (Textual's line API)."""
        if self._lines is None or self._geometry is None:
            self._lines = self._draw(self.size)
        if 0 <= y < len(self._lines):
            return self._lines[y]
        return Strip.blank(self.size.width)

    def _draw(self, size: Size) -> list[Strip]:
        """Every line of the board: the placed items of each line in order of their columns,
        blanks between (items never overlap: the geometry's tests check it)."""
        width, height = size.width, size.height
        lines: list[list[tuple[int, str, Style]]] = [[] for _ in range(height)]
        message = self.too_small
        if message is not None and height:
            x = max(0, (width - len(message)) // 2)
            lines[height // 2].append((x, message, Style(bold=True)))
        cursor = self._cursor_cell()
        for item in self.geometry.placed:
            if item.y < height:
                lines[item.y].append((item.x, *self._look(item, cursor)))
        strips = []
        for items in lines:
            segments: list[Segment] = []
            at = 0
            for x, text, style in sorted(items, key=lambda item: item[0]):
                if x > at:
                    segments.append(Segment(" " * (x - at), _BLANK))
                segments.append(Segment(text[: max(0, width - x)], style))
                at = x + len(text)
            if at < width:
                segments.append(Segment(" " * (width - at), _BLANK))
            strips.append(Strip(segments, width).crop(0, width))
        return strips

    def _look(self, item: Placed, cursor: tuple[int, int] | None) -> tuple[str, Style]:
        """The text and style of one placed item, highlights included (``cursor``: the item the
        cursor is on, see :meth:`_cursor_cell`)."""
        width = item.width
        source, target = self.hint
        hinted = item.pile in (source, target)
        if item.what == "name":
            return item.text.ljust(width)[:width], _HINT if hinted else _NAME
        if item.what == "more":
            # "+12" in three characters or more, "12" in two, else only a sign of hidden cards.
            text = next((t for t in (item.text, item.text[1:]) if len(t) <= width), "+" * width)
            return text.ljust(width), _MORE
        if item.what == "outline":
            name = self.game.piles[item.pile].name
            text = f"[{name.center(width - 2)}]" if width >= 4 else name.ljust(width)
            style = _OUTLINE
        else:
            assert item.card is not None
            if item.card.face_up:
                face = self.card_text(item.card)
                pad = max(0, width - len(face))
                text = (" " * ((pad + 1) // 2) + face).ljust(width)[:width]
                style = _CARD[item.card.is_red]
            else:
                char, style = _BACKS[item.index % 2]
                text = char * width
        if hinted and self._is_top(item):
            style = style + _HINT
        selection = self.selection
        if selection is not None and item.pile == selection[0] and item.index >= selection[1]:
            style = style + _SELECTED
        if cursor is not None and (item.pile, item.index) == cursor:
            style = style + _CURSOR
        return text[:width], style

    def _is_top(self, item: Placed) -> bool:
        return item.what == "outline" or item.index == len(self.position[item.pile]) - 1

    def _cursor_cell(self) -> tuple[int, int] | None:
        """The placed item the cursor is on: a hidden card's cursor shows on the top card."""
        if self.cursor is None:
            return None
        pile, index = self.cursor
        items = [p for p in self.geometry.placed if p.pile == pile and p.what != "name"]
        for item in items:
            if item.what == "card" and item.index == index:
                return pile, index
            if item.what == "more" and item.index <= index < item.index + item.hidden:
                return pile, item.index
        # An empty pile, a card under a stacked pile's top, or past the top: the top drawn.
        return (pile, items[-1].index) if items else None

    # -- mouse ----------------------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._post(event.x, event.y, event.button, 0)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self._post(event.x, event.y, event.button, -1)

    def on_click(self, event: events.Click) -> None:
        self._post(event.x, event.y, event.button, event.chain)

    def _post(self, x: int, y: int, button: int, chain: int) -> None:
        hit = self.pile_at(x, y)
        if hit is not None:
            self.post_message(self.Clicked(hit[0], hit[1], button, chain))


def board_svg(board: Board, title: str) -> str:
    """An SVG picture of ``board`` as the terminal shows it, the app's filters applied (the
    monochrome look of ``NO_COLOR``), for docs and snapshot tests.

    :param board: a board mounted in a running app.
    :param title: the picture's window title.
    """
    width, height = board.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    background = board.app.screen.styles.background
    for y in range(height):
        strip = board.render_line(y)
        for line_filter in board.app.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        line = Text.assemble(*((s.text, s.style or Style()) for s in strip))
        console.print(line, no_wrap=True, overflow="crop", crop=True)
    return console.export_svg(title=title)
