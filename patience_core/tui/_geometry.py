"""Where every pile and card of a position goes on a terminal of a given size: pure arithmetic,
tested without a screen.

:func:`board_geometry` turns a game's :class:`~patience_core.games.BoardLayout` (card places)
into character cells: it picks the widest card size that fits the width, compresses fans that
are too long for the height (a ``+N`` marker stands for the hidden cards; the top card of every
pile is always shown whole), and, when the board cannot fit even so, answers the size it needs.
Coordinates are in cells of the board's own area, ``(0, 0)`` at its top left.
"""

from __future__ import annotations

import attrs

from patience_core.games import BoardLayout, BoardRow, Game, board_of
from patience_core.model import Card, PileKind, Position

__all__ = ["Geometry", "Metrics", "PileArea", "Placed", "board_geometry"]

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
DIRECTIONS = ("left", "right", "up", "down")


@attrs.frozen
class Metrics:
    """The size of one card place, in characters.

    :param card: characters a card takes.
    :param gap: blank characters between two places.
    """

    card: int
    gap: int

    @property
    def place(self) -> int:
        """Characters from one place's left edge to the next one's."""
        return self.card + self.gap


@attrs.frozen
class Placed:
    """One thing drawn on the board: a card, an empty pile's outline, a pile's name, or the
    ``+N`` marker of a compressed fan.

    :param x: column of its first cell.
    :param y: line.
    :param width: cells it takes.
    :param pile: the pile's index in the position.
    :param index: the card's index in the pile (bottom first); ``-1`` for an outline or a name;
        for a marker, the index of the first card it stands for.
    :param what: ``"card"``, ``"outline"``, ``"name"`` or ``"more"``.
    :param card: the card, for ``"card"``; else ``None``.
    :param text: the name or marker text; ``""`` for a card or an outline.
    :param hidden: for a marker, how many cards it stands for.
    """

    x: int
    y: int
    width: int
    pile: int
    index: int
    what: str
    card: Card | None = None
    text: str = ""
    hidden: int = 0


@attrs.frozen
class PileArea:
    """The cells a pile owns (its name, its cards, the room it may grow into).

    :param pile: the pile's index.
    :param x: left column. :param y: top line.
    :param width: columns. :param height: lines.
    :param fan: ``"down"``, ``"right"`` or ``"none"``.
    """

    pile: int
    x: int
    y: int
    width: int
    height: int
    fan: str

    def contains(self, x: int, y: int) -> bool:
        """Whether cell ``(x, y)`` is inside the area."""
        return self.x <= x < self.x + self.width and self.y <= y < self.y + self.height


@attrs.frozen
class Geometry:
    """A position laid out for one board size; see :func:`board_geometry`.

    :param columns: the board's width it was made for. :param rows: its height.
    :param metrics: the card size chosen (``None`` when too small).
    :param placed: everything drawn, in drawing order.
    :param areas: the area of each pile, by pile index (``None`` for a pile not on the board,
        e.g. a covered place whose card has gone).
    :param needed: ``(columns, rows)`` the board needs when it does not fit; ``None`` when it fits.
    """

    columns: int
    rows: int
    metrics: Metrics | None
    placed: tuple[Placed, ...]
    areas: tuple[PileArea | None, ...]
    needed: tuple[int, int] | None = None

    def pile_at(self, x: int, y: int) -> tuple[int, int] | None:
        """What is under cell ``(x, y)``: ``(pile, card index)``, ``(pile, -1)`` for an empty
        pile's outline, or ``None``. A pile's name or the room below its cards mean its top card.
        """
        for item in reversed(self.placed):
            if item.y == y and item.x <= x < item.x + item.width and item.what != "name":
                return item.pile, item.index
        for area in self.areas:
            if area is not None and area.contains(x, y):
                return area.pile, self._top(area.pile)
        return None

    def card_region(self, pile: int, index: int) -> tuple[int, int, int, int]:
        """``(x, y, width, height)`` of where card ``index`` of ``pile`` is drawn: a hidden card's
        marker, a stacked pile's top card, the outline for ``-1`` or an empty pile.

        :raises KeyError: when the pile is not on the board.
        """
        items = [p for p in self.placed if p.pile == pile and p.what != "name"]
        if not items:
            raise KeyError(pile)
        found = items[-1]  # a stacked pile's top card, an outline, or an index past the top
        for item in items:
            hides = item.what == "more" and item.index <= index < item.index + item.hidden
            if hides or (item.what == "card" and item.index == index):
                found = item
                break
        return found.x, found.y, found.width, 1

    def neighbour(self, pile: int, direction: str) -> int:
        """The pile the cursor moves to from ``pile`` in ``direction`` (``"left"``, ``"right"``,
        ``"up"``, ``"down"``): the nearest pile on the board that way, by the areas' centres;
        ``pile`` itself when there is none.

        :raises ValueError: for another direction.
        """
        if direction not in DIRECTIONS:
            raise ValueError(f"not a direction: {direction!r}")
        here = self.areas[pile] if 0 <= pile < len(self.areas) else None
        if here is None:
            return next((a.pile for a in self.areas if a is not None), pile)
        best: tuple[float, float, int] | None = None
        key: tuple[float, float, int]
        cx, cy = here.x + here.width / 2, here.y
        for area in self.areas:
            if area is None or area.pile == pile:
                continue
            dx, dy = area.x + area.width / 2 - cx, area.y - cy
            if direction in ("left", "right"):
                same_band = area.y < here.y + here.height and here.y < area.y + area.height
                if not same_band or (dx < 0) != (direction == "left") or dx == 0:
                    continue
                key = (abs(dx), abs(dy), area.pile)
            else:
                if (dy < 0) != (direction == "up") or dy == 0:
                    continue
                key = (abs(dy), abs(dx), area.pile)
            if best is None or key < best:
                best = key
        return pile if best is None else best[2]

    def _top(self, pile: int) -> int:
        tops = [p.index for p in self.placed if p.pile == pile and p.what in ("card", "outline")]
        return max(tops) if tops else -1


def _right_step(m: Metrics) -> int:
    """Characters from one card of a right fan to the next: right fans stay compact."""
    return min(m.card, 3) + 1


def _row_width(row: BoardRow, m: Metrics) -> int:
    """Characters a row of stacked, covered or down-fanned piles takes (right fans: a minimum)."""
    if row.fan == "right":
        each = LABEL_WIDTH + MIN_RIGHT * _right_step(m)
        return (row.indent * m.place) // 2 + len(row.piles) * each + (len(row.piles) - 1) * m.gap
    return (row.indent * m.place) // 2 + len(row.piles) * m.place - m.gap


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
    min_height = sum(
        _fixed_height(r) + (MIN_DEPTH - 1 if r.fan == "down" else 0) for r in layout.rows
    )
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
    fixed = sum(_fixed_height(r) for r in layout.rows) - sum(
        1 for r in layout.rows if r.fan == "down"
    )
    room = rows - fixed - sum(gaps)
    wanted = [
        max((len(position[names[n]]) for n in r.piles if n is not None), default=1) or 1
        if r.fan == "down"
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
        spec = self.game.piles[pile]
        text = spec.name
        size = len(self.position[pile])
        if count and spec.kind in _COUNTED and size > 1:
            text = f"{text} {size}"
        self.placed.append(Placed(x, y, width, pile, -1, "name", text=text[:width]))

    def _card(self, pile: int, index: int, x: int, y: int, width: int) -> None:
        cards = self.position[pile]
        if index < 0 or not cards:
            self.placed.append(Placed(x, y, width, pile, -1, "outline"))
        else:
            self.placed.append(Placed(x, y, width, pile, index, "card", cards[index]))

    def _stacked(self, pile: int, x: int, y: int) -> None:
        self._name(pile, x, y, self.m.place, True)
        self._card(pile, len(self.position[pile]) - 1, x, y + 1, self.m.card)
        self.areas[pile] = PileArea(pile, x, y, self.m.card, 2, "none")

    def _covered(self, pile: int, x: int, y: int) -> None:
        if self.position[pile]:
            self._card(pile, len(self.position[pile]) - 1, x, y, self.m.card)
            self.areas[pile] = PileArea(pile, x, y, self.m.card, 1, "none")

    def _down(self, pile: int, x: int, y: int, depth: int) -> None:
        self._name(pile, x, y, self.m.place, False)
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
