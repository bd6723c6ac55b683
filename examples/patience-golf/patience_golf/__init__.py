"""Golf for patience."""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.api import GameRegistry
from patience_golf.game import Golf

__all__ = ["PATIENCE_API", "Golf", "patience_register_games"]

#: The patience plugin API versions this plugin works with.
PATIENCE_API = ">=1.1,<2"


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Golf (with the golf family's search)."""
    registry.add(Golf)
