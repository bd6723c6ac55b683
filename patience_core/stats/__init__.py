"""Statistics: every game a player plays, kept in one SQLite database (docs/stats.md)."""

from __future__ import annotations

__all__: list[str] = []
