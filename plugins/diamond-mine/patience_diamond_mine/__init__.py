"""Diamond Mine for patience (RULES.md Part A "Diamond Mine", Part B §4).

Thirteen piles of three face-down cards and one face-up card. Diamonds go, one at a time, onto a
single foundation that starts with any diamond and builds up, King followed by Ace; the other
suits build down on the tableau in any suit, any face-up group moving at once. Won with all 13
diamonds on the foundation and every pile empty or a face-up King-to-Ace run of one suit.
"""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.api import GameRegistry
from patience_diamond_mine.game import DiamondMine

__all__ = ["DiamondMine", "patience_register_games"]


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Diamond Mine, with its search object."""
    registry.add(DiamondMine, search="patience_diamond_mine.search:DiamondMineSearch")
