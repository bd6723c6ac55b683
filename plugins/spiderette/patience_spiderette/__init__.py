"""Spiderette for patience (RULES.md Part A "Spiderette", Part B §5).

One-deck Spider on a Klondike layout: seven columns of 1..7 cards (top card face up), a 24-card
stock dealt a card per column, runs of one suit moved together onto any card one rank higher,
complete K..A suits taken to the foundations.
"""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.api import GameRegistry
from patience_spiderette.game import Spiderette

__all__ = ["Spiderette", "patience_register_games"]


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Spiderette; its search is the spider family's (``SpiderSearch``)."""
    registry.add(Spiderette)
