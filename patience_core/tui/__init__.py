"""The full-screen player: a Textual app over :class:`patience_core.play.PlayController`
(docs/play.md)."""

from __future__ import annotations

__all__: list[str] = []
