"""Where every pile and card of a position goes on a terminal of a given size: pure arithmetic,
tested without a screen.

:func:`board_geometry` turns a game's :class:`~patience_core.games.BoardLayout` (card places)
into character cells: it picks the widest card size that fits the width, compresses fans that
are too long for the height (a ``+N`` marker stands for the hidden cards; the top card of every
pile is always shown whole), and, when the board cannot fit even so, answers the size it needs.
Coordinates are in cells of the board's own area, ``(0, 0)`` at its top left.
"""

from __future__ import annotations

from patience_core.games import BoardLayout, BoardRow, Game, board_of
from patience_core.model import PileKind, Position
from patience_core.tui._cards import Geometry, Metrics, PileArea, Placed

__all__ = ["board_geometry"]

#: Card sizes tried, widest first: (characters per card, blank characters between places).
METRICS: tuple[tuple[int, int], ...] = ((6, 2), (5, 2), (4, 2), (4, 1), (3, 1), (2, 1))
#: Lines a down-fanned pile keeps at least: a ``+N`` marker and the top card.
MIN_DEPTH = 2
#: Characters before the cards of a right-fanned pile, for its name.
LABEL_WIDTH = 4
#: Cards a right-fanned pile shows at least (a ``+N`` marker counts as one).
MIN_RIGHT = 3
#: Kinds whose stacked piles show their card count beside their name.
_COUNTED = (PileKind.STOCK, PileKind.WASTE, PileKind.RESERVE)
#: Characters right-fanned rows span at most (more would only spread the cards apart).
RIGHT_WIDTH = 80


def _digits(name: str) -> str:
    """The digits a pile name ends with (``10`` of ``t10``)."""
    return name.lstrip("abcdefghijklmnopqrstuvwxyz")


def _right_step(m: Metrics) -> int:
    """Characters from one card of a right fan to the next: right fans stay compact."""
    return min(m.card, 3) + 1


def _row_width(row: BoardRow, m: Metrics) -> int:
    """Characters a row of stacked, covered or down-fanned piles takes (right fans: a minimum)."""
    if row.fan == "right":
        each = LABEL_WIDTH + MIN_RIGHT * _right_step(m)
        return (row.indent * m.place) // 2 + len(row.piles) * each + (len(row.piles) - 1) * m.gap
    return (row.indent * m.place) // 2 + len(row.piles) * m.place - m.gap


def _is_down(row: BoardRow) -> bool:
    """Whether the row's piles fan down (a covered row never does: one card a place)."""
    return row.fan == "down" and not row.covered


def _fixed_height(row: BoardRow) -> int:
    if row.covered or row.fan == "right":
        return 1
    return 2  # the name line, then the card line (a down fan adds its depth below)


def _gap_before(rows: tuple[BoardRow, ...], i: int) -> bool:
    if i == 0:
        return False
    before, row = rows[i - 1], rows[i]
    return (before.covered, before.fan) != (row.covered, row.fan)


def board_geometry(
    game: Game,
    position: Position,
    columns: int,
    rows: int,
    *,
    text_width: int = 2,
    layout: BoardLayout | None = None,
) -> Geometry:
    """Lay ``position`` out on a board of ``columns`` x ``rows`` characters.

    The widest card size of :data:`METRICS` whose rows all fit the width is used, the board is
    centred, and a blank line separates rows of different kinds when the height allows. A
    down-fanned pile longer than its room shows a ``+N`` marker, then its top cards; a
    right-fanned one likewise. When even the narrowest cards and shortest fans do not fit,
    :attr:`Geometry.needed` says the size the board needs and nothing is placed.

    :param game: the game (its ``board``, or the default board of its piles).
    :param position: the position to draw.
    :param columns: the board's width in characters. :param rows: its height in lines.
    :param text_width: characters the widest card text takes (2 for ``K♠``).
    :param layout: a layout to use instead of the game's.
    """
    layout = layout or board_of(game)
    names = {spec.name: i for i, spec in enumerate(game.piles)}
    sizes = [Metrics(c, g) for c, g in METRICS if c >= text_width] or [Metrics(text_width, 1)]
    min_height = sum(_fixed_height(r) + (MIN_DEPTH - 1 if _is_down(r) else 0) for r in layout.rows)
    metrics = next(
        (m for m in sizes if max((_row_width(r, m) for r in layout.rows), default=0) <= columns),
        None,
    )
    if metrics is None or min_height > rows:
        narrow = max((_row_width(r, sizes[-1]) for r in layout.rows), default=0)
        needed = (narrow, min_height)
        return Geometry(columns, rows, None, (), (None,) * len(position), needed)
    gaps = [_gap_before(layout.rows, i) for i in range(len(layout.rows))]
    depths = _down_depths(layout, position, names, rows, gaps)
    if sum(gaps) and depths is None:
        gaps = [False] * len(gaps)
        depths = _down_depths(layout, position, names, rows, gaps)
    assert depths is not None  # min_height fits, so the shortest fans do
    width = max(_row_width(r, metrics) for r in layout.rows)
    if any(r.fan == "right" for r in layout.rows):
        width = max(width, min(columns, RIGHT_WIDTH))
    left = max(0, (columns - width) // 2)
    placer = _Placer(game, position, names, metrics, left, min(width, columns))
    y = 0
    for i, row in enumerate(layout.rows):
        y += gaps[i]
        y = placer.row(row, y, depths[i])
    return Geometry(columns, rows, metrics, tuple(placer.placed), tuple(placer.areas))


def _down_depths(
    layout: BoardLayout,
    position: Position,
    names: dict[str, int],
    rows: int,
    gaps: list[bool],
) -> list[int] | None:
    """Card lines for each row (0 for rows that are not down fans), or ``None`` when the down
    fans cannot have :data:`MIN_DEPTH` lines each."""
    fixed = sum(_fixed_height(r) for r in layout.rows) - sum(map(_is_down, layout.rows))
    room = rows - fixed - sum(gaps)
    wanted = [
        max((len(position[names[n]]) for n in r.piles if n is not None), default=1) or 1
        if _is_down(r)
        else 0
        for r in layout.rows
    ]
    downs = [i for i, w in enumerate(wanted) if w]
    if len(downs) * MIN_DEPTH > room:
        return None
    depths = [0] * len(wanted)
    # Share the room out: rows that need less than an equal share give the rest to the others.
    order = sorted(downs, key=lambda i: wanted[i])
    for k, i in enumerate(order):
        share = room // (len(order) - k)
        depths[i] = max(MIN_DEPTH, min(wanted[i], share))
        room -= depths[i]
    return depths


class _Placer:
    """Places the piles of one row after another (the state of one :func:`board_geometry`)."""

    def __init__(
        self,
        game: Game,
        position: Position,
        names: dict[str, int],
        metrics: Metrics,
        left: int,
        width: int,
    ) -> None:
        self.game, self.position, self.names = game, position, names
        self.m, self.left, self.width = metrics, left, width
        self.placed: list[Placed] = []
        self.areas: list[PileArea | None] = [None] * len(position)

    def row(self, row: BoardRow, y: int, depth: int) -> int:
        """Place ``row`` with its top at line ``y``; returns the line below it."""
        m = self.m
        x0 = self.left + (row.indent * m.place) // 2
        if row.fan == "right":
            count = len(row.piles)
            each = (self.width - (x0 - self.left) - (count - 1) * m.gap) // max(count, 1)
            for k, name in enumerate(row.piles):
                if name is not None:
                    self._right(self.names[name], x0 + k * (each + m.gap), y, each)
            return y + 1
        for k, name in enumerate(row.piles):
            if name is None:
                continue
            pile, x = self.names[name], x0 + k * m.place
            if row.covered:
                self._covered(pile, x, y)
            elif row.fan == "down":
                self._down(pile, x, y, depth)
            else:
                self._stacked(pile, x, y)
        if row.covered:
            return y + 1
        return y + 1 + (depth if row.fan == "down" else 1)

    def _name(self, pile: int, x: int, y: int, width: int, count: bool) -> None:
        """The pile's name (with its count, for a stacked stock, waste or reserve, when it fits)
        in at most ``width`` characters, and never past the board's right edge."""
        spec = self.game.piles[pile]
        width = min(width, self.left + self.width - x)
        text = spec.name
        size = len(self.position[pile])
        if count and spec.kind in _COUNTED and size > 1 and len(f"{text} {size}") <= width:
            text = f"{text} {size}"
        if len(text) > width:
            # Names never run into the next one: "t10" over a card of two characters is "10";
            # a name that cannot be shortened so is left out, and so is one whose digits
            # another pile shares (c10 beside t10: the column keeps "10"), so that no two
            # piles show the same label.
            digits = _digits(text)
            text = digits if digits and len(digits) <= width and self._owns(pile, digits) else ""
        if text:
            self.placed.append(Placed(x, y, len(text), pile, -1, "name", text=text))

    def _owns(self, pile: int, digits: str) -> bool:
        """Whether ``pile`` may show ``digits`` alone: no other pile's name has those digits, or
        it is the only tableau pile among those that do."""
        sharing = [i for i, spec in enumerate(self.game.piles) if _digits(spec.name) == digits]
        tableau = [i for i in sharing if self.game.piles[i].kind is PileKind.TABLEAU]
        return sharing == [pile] or tableau == [pile]

    def _card(self, pile: int, index: int, x: int, y: int, width: int) -> None:
        cards = self.position[pile]
        if index < 0 or not cards:
            self.placed.append(Placed(x, y, width, pile, -1, "outline"))
        else:
            self.placed.append(Placed(x, y, width, pile, index, "card", cards[index]))

    def _stacked(self, pile: int, x: int, y: int) -> None:
        self._name(pile, x, y, self._name_room(), True)
        self._card(pile, len(self.position[pile]) - 1, x, y + 1, self.m.card)
        self.areas[pile] = PileArea(pile, x, y, self.m.card, 2, "none")

    def _covered(self, pile: int, x: int, y: int) -> None:
        if self.position[pile]:
            self._card(pile, len(self.position[pile]) - 1, x, y, self.m.card)
            self.areas[pile] = PileArea(pile, x, y, self.m.card, 1, "none")

    def _name_room(self) -> int:
        # A name over a card: the card's width, or one more when the gap is wider than one
        # (a blank always stays between two names).
        return self.m.card + max(0, self.m.gap - 1)

    def _down(self, pile: int, x: int, y: int, depth: int) -> None:
        self._name(pile, x, y, self._name_room(), False)
        cards = self.position[pile]
        hidden = len(cards) - depth + 1 if len(cards) > depth else 0
        line = y + 1
        if hidden:
            self.placed.append(
                Placed(x, line, self.m.card, pile, 0, "more", None, f"+{hidden}", hidden)
            )
            line += 1
        for index in range(hidden, len(cards)):
            self._card(pile, index, x, line, self.m.card)
            line += 1
        if not cards:
            self._card(pile, -1, x, line, self.m.card)
        self.areas[pile] = PileArea(pile, x, y, self.m.card, depth + 1, "down")

    def _right(self, pile: int, x: int, y: int, width: int) -> None:
        self._name(pile, x, y, LABEL_WIDTH, True)
        cards = self.position[pile]
        step = _right_step(self.m)
        room = max(1, (width - LABEL_WIDTH + 1) // step)
        hidden = len(cards) - room + 1 if len(cards) > room else 0
        cx = x + LABEL_WIDTH
        if hidden:
            self.placed.append(Placed(cx, y, step - 1, pile, 0, "more", None, f"+{hidden}", hidden))
            cx += step
        for index in range(hidden, len(cards)):
            self._card(pile, index, cx, y, step - 1)
            cx += step
        if not cards:
            self._card(pile, -1, cx, y, step - 1)
        self.areas[pile] = PileArea(pile, x, y, width, 1, "right")
