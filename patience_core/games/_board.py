"""The board a game may describe for the full-screen player: which piles go where, and how each
pile fans (docs/rules-api.md, "The board").

A :class:`BoardLayout` is data, in card units, with no terminal sizes in it: the full-screen
player (:mod:`patience_core.tui`) turns it into character positions for the terminal it has. A
game that gives none gets :func:`default_board`, built from its declared piles and their kinds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import attrs

from patience_core.model import PileKind, PileSpec

if TYPE_CHECKING:
    from patience_core.games._game import Game

__all__ = ["FANS", "BoardLayout", "BoardRow", "Fan", "board_of", "default_board"]

#: How a pile's cards are spread: ``"down"`` one under the other (a tableau column), ``"right"``
#: side by side (one line per pile), ``"none"`` stacked (only the top card, and a count).
Fan = Literal["down", "right", "none"]
FANS: tuple[Fan, ...] = ("down", "right", "none")

#: Top-row piles by kind, in the order the default board groups them.
_TOP_KINDS = (
    PileKind.STOCK,
    PileKind.WASTE,
    PileKind.RESERVE,
    PileKind.FREE_CELL,
    PileKind.FOUNDATION,
)
#: At most this many places in one default top row; more start another row.
_TOP_ROW_PLACES = 10


def _names(value: Sequence[str | None]) -> tuple[str | None, ...]:
    return tuple(value)


@attrs.frozen
class BoardRow:
    """One row of the board: piles side by side, in card places.

    :param piles: pile names, left to right; ``None`` leaves one card place empty (a gap).
    :param fan: how every pile of the row spreads its cards (see :data:`Fan`).
    :param indent: how far the row starts from the left edge, in **half** card places (a
        pyramid's rows are indented one half place more each).
    :param covered: the row belongs to a covered layout (Escalator's pyramid, RULES.md Part A
        "Escalator"): each pile is one card, drawn right under the previous row and overlapping
        the two cards above it by half a place; the row has no pile names, and a place whose card
        has gone is drawn blank.
    """

    piles: tuple[str | None, ...] = attrs.field(converter=_names)
    fan: Fan = "none"
    indent: int = 0
    covered: bool = False

    @property
    def places(self) -> int:
        """The card places the row spans, its indent included (rounded up)."""
        return len(self.piles) + (self.indent + 1) // 2


def _rows(value: Sequence[BoardRow]) -> tuple[BoardRow, ...]:
    return tuple(value)


@attrs.frozen
class BoardLayout:
    """Where a game's piles go on the full-screen board, top to bottom.

    A game sets it as its ``board`` class attribute (``board = BoardLayout(rows=[...])``); every
    pile of the game should appear in exactly one row. Sizes are in card places; the player
    chooses how many characters a place takes, compresses long fans, and says which terminal size
    it needs when the board cannot fit.

    :param rows: the rows, top first.
    """

    rows: tuple[BoardRow, ...] = attrs.field(converter=_rows)

    def problem(self, piles: Sequence[PileSpec]) -> str | None:
        """What is wrong with this layout for a game with ``piles``: a name that is no pile, a
        pile placed twice, or a pile left out; ``None`` when every pile is placed once.

        :param piles: the game's declared piles.
        """
        known = [spec.name for spec in piles]
        seen: set[str] = set()
        for row in self.rows:
            for name in row.piles:
                if name is None:
                    continue
                if name not in known:
                    return f"board names {name!r}, which is not a pile"
                if name in seen:
                    return f"board places pile {name!r} twice"
                seen.add(name)
        missing = [name for name in known if name not in seen]
        if missing:
            return f"board leaves out pile {missing[0]!r}"
        return None


def default_board(piles: Sequence[PileSpec], tableau_fan: str = "down") -> BoardLayout:
    """The board of a game that gives none: stock, waste, reserves, free cells and foundations
    stacked on the top row (a gap between kinds; rows of ten places at most), then the tableau
    piles fanned down side by side, or, for ``tableau_fan == "right"``, one row per pile.

    :param piles: the game's declared piles.
    :param tableau_fan: the game's ``tableau_fan``, ``"down"`` or ``"right"``.
    """
    rows: list[BoardRow] = []
    top: list[str | None] = []
    for kind in _TOP_KINDS:
        names = [spec.name for spec in piles if spec.kind is kind]
        if not names:
            continue
        if top and len(top) + 1 + len(names) > _TOP_ROW_PLACES:
            rows.append(BoardRow(top))
            top = []
        elif top:
            top.append(None)
        for name in names:
            if len(top) == _TOP_ROW_PLACES:
                rows.append(BoardRow(top))
                top = []
            top.append(name)
    if top:
        rows.append(BoardRow(top))
    tableau = [spec.name for spec in piles if spec.kind is PileKind.TABLEAU]
    if tableau and tableau_fan == "right":
        rows.extend(BoardRow([name], fan="right") for name in tableau)
    elif tableau:
        rows.append(BoardRow(tableau, fan="down"))
    return BoardLayout(rows)


def board_of(game: Game) -> BoardLayout:
    """The board ``game`` declares in its ``board`` class attribute, or its :func:`default_board`.

    :param game: any game.
    """
    return game.board or default_board(game.piles, game.tableau_fan)
