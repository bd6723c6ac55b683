"""Golf's search object for the solver: a compact key and a move order (optional: the solver
solves Golf through its rules alone, only slower). Built with the public plugin API only.
"""

from __future__ import annotations

from collections.abc import Hashable

from patience_core.api import GameSearch, Move, MoveKind, Position
from patience_golf.game import FIRST_COLUMN, STOCK, WASTE

__all__ = ["GolfSearch"]


class GolfSearch(GameSearch):
    """Golf's search object: only the key and the move order, so it can never make the solver
    call a winnable deal dead through anything but its key."""

    def key(self, position: Position) -> Hashable:
        """Column heights, stock count and the waste's top rank: within one deal, the future
        (the stock's order is fixed and a column only ever loses its top card)."""
        waste = position[WASTE]
        return (
            tuple(len(pile) for pile in position.piles[FIRST_COLUMN:]),
            len(position[STOCK]),
            waste[-1].rank,
        )

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Column cards first (from the tallest column), the deal last."""
        return sorted(
            moves,
            key=lambda m: (m.kind is MoveKind.DEAL, -len(position[m.source])),
        )
