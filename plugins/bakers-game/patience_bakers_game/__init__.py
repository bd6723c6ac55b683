"""Baker's Game for patience (RULES.md Part A "Baker's Game", Part B §3).

FreeCell's ancestor: four free cells, four foundations built up in suit from the Ace, and eight
columns of face-up cards that build down in suit. Runs of one suit move as a unit within a
supermove limit; every card that fits a foundation is played there after each move. Deals are
Aisleriot's or Microsoft FreeCell's (``ms:N``); positions read and write Freecell Solver's board
text (:mod:`patience_bakers_game.fcs`).
"""

from __future__ import annotations

from patience_bakers_game.fcs import read_fcs, write_fcs
from patience_bakers_game.game import BakersGame
from patience_core import hookimpl
from patience_core.api import GameRegistry

__all__ = [
    "BakersGame",
    "BakersGameSearch",
    "patience_register_games",
    "read_fcs",
    "write_fcs",
]


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Baker's Game, with its search object."""
    registry.add(BakersGame, search="patience_bakers_game.search:BakersGameSearch")
