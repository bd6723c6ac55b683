"""Escalator for patience (RULES.md Part A "Escalator", Part B §1).

A 7-row pyramid of 28 face-up cards, a 24-card face-down stock and a waste that starts empty.
A pyramid card is available when both cards covering it are gone; it can go onto the waste when
its rank is one above or one below the waste's top card, King and Ace adjacent. Won as soon as
the pyramid is empty. A golf-family game: the family's search (``GolfSearch``) solves it.
"""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.api import GameRegistry
from patience_escalator.game import Escalator

__all__ = ["Escalator", "patience_register_games"]


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Escalator (with the golf family's search)."""
    registry.add(Escalator)
