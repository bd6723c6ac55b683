"""The model package."""

from __future__ import annotations

from patience_core.model._values import (
    Card,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    Rank,
    Suit,
)

__all__ = [
    "Card",
    "Move",
    "MoveKind",
    "PileKind",
    "PileSpec",
    "Position",
    "Rank",
    "Suit",
]
