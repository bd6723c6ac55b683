"""Baker's Game for patience (RULES.md Part A "Baker's Game", Part B §3): FreeCell's ancestor,
declared in the free-cell family (docs/games/bakers-game.md). Columns build down in suit, runs
of one suit move as a unit, every card that fits a foundation goes there after each move (safe
under same-suit building), and Microsoft deal numbers (``ms:N``) are taken. Positions read and
write Freecell Solver's board text (:func:`read_fcs`, :func:`write_fcs`)."""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.api import FreeCellFamily, GameOption, GameRegistry, read_fcs, write_fcs

__all__ = ["CELLS", "COLUMNS", "FOUNDATIONS", "BakersGame", "read_fcs", "write_fcs"]

#: Pile indices; each equals the pile's Aisleriot slot id (Part B §3, Layout).
CELLS, FOUNDATIONS, COLUMNS = (0, 1, 2, 3), (4, 5, 6, 7), tuple(range(8, 16))


class BakersGame(FreeCellFamily):
    """Baker's Game: FreeCell with same-suit building; ``empty-columns`` is ``kings`` (the
    Aisleriot help text's rule, the default) or ``any`` (Aisleriot's code, RULES.md Part A)."""

    name = "bakers-game"
    title = "Baker's Game"
    build = "same-suit"
    empty_columns = "kings"
    auto_play = "all"
    ms_deals = True
    fcs_game = "bakers_game"
    options = (
        GameOption(
            "empty-columns",
            ("kings", "any"),
            "kings",
            "kings: an empty column takes only a King or a King-led run, runs of at most free "
            "cells + 1; any: it takes any card or run, and runs double for every other empty "
            "column",
        ),
    )

    @property
    def kings_only(self) -> bool:
        """Whether empty columns take only King-led runs (option ``empty-columns=kings``)."""
        return self.empty_columns == "kings"


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register Baker's Game (searched by the free-cell family's search)."""
    registry.add(BakersGame)
