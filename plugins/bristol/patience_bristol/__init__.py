"""Bristol for patience (RULES.md Part A "Bristol", Part B §2).

Eight tableau piles of three face-up cards (kings moved down by Aisleriot's fix-up), three reserves
that the stock deals onto, and four foundations built up from Ace to King by rank, suits mixed.
Single cards only; the tableau builds down in any suit; empty piles and reserves take nothing.
"""

from __future__ import annotations

from patience_bristol.game import Bristol
from patience_core import hookimpl
from patience_core.api import GameRegistry

__all__ = ["Bristol", "patience_register_games"]


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Bristol, with its search object."""
    registry.add(Bristol, search="patience_bristol.search:BristolSearch")
