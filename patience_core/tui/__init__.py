"""The full-screen player: a Textual app over :class:`patience_core.play.PlayController`
(docs/play.md)."""

from __future__ import annotations

from patience_core.tui._app import KEYS, PatienceApp, help_lines
from patience_core.tui._board import Board, board_svg, card_label
from patience_core.tui._cards import Geometry, Metrics, PileArea, Placed
from patience_core.tui._geometry import board_geometry
from patience_core.tui._run import can_run, run_fullscreen

__all__: list[str] = [
    "KEYS",
    "Board",
    "Geometry",
    "Metrics",
    "PatienceApp",
    "PileArea",
    "Placed",
    "board_geometry",
    "board_svg",
    "can_run",
    "card_label",
    "help_lines",
    "run_fullscreen",
]
