"""What the board draws where: placed cards, names and markers, the pile areas, and the hit
tests over them (the values :func:`~patience_core.tui.board_geometry` answers).

Coordinates are in cells of the board's own area, ``(0, 0)`` at its top left.
"""

from __future__ import annotations

import attrs

from patience_core.model import Card

__all__ = ["DIRECTIONS", "Geometry", "Metrics", "PileArea", "Placed"]

#: The ways the cursor moves between piles.
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
