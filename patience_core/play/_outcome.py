"""What a command or a move of a game in play did, for the front end to show."""

from __future__ import annotations

import attrs

__all__ = ["Outcome"]


@attrs.frozen
class Outcome:
    """What one command or move did.

    :param messages: lines for the player, in order (shown before the board).
    :param show_board: the position changed (or the board was asked for): show the board, the
        status line (:meth:`PlayController.status_line`), the outcome
        (:meth:`PlayController.outcome_line`) and the dead check's news
        (:meth:`PlayController.dead_news`).
    :param quit: the player quits; the game is already saved.
    :param refused: a move was refused (``messages`` says why); piped play stops there.
    """

    messages: tuple[str, ...] = ()
    show_board: bool = False
    quit: bool = False
    refused: bool = False
