"""Terminal drawing: cards with suit symbols and colour where the terminal supports them.

Layer 4. Games lay out their piles (:meth:`patience_core.games.Game.render`); this module decides
how one card looks. Colour is used only when the output is a terminal and ``NO_COLOR`` is unset
(https://no-color.org); suit symbols only when the output encoding can show them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO

import attrs

from patience_core.games import Game, Painter
from patience_core.model import Card, Position

__all__ = ["CardStyle", "board_text", "make_painter"]

_RED = "\x1b[31m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


@attrs.frozen
class CardStyle:
    """How cards are drawn.

    :param unicode: suit symbols (``♠♥♦♣``) instead of letters.
    :param colour: ANSI colour (red suits red, face-down cards dim).
    """

    unicode: bool = False
    colour: bool = False

    @classmethod
    def for_stream(cls, stream: IO[str], environ: dict[str, str] | None = None) -> CardStyle:
        """The style a stream supports: colour only on a terminal without ``NO_COLOR`` (and not
        ``TERM=dumb``); symbols only when the stream's encoding can encode them."""
        env = os.environ if environ is None else environ
        try:
            tty = stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        # no-color.org: NO_COLOR set to a non-empty value turns colour off.
        colour = tty and not env.get("NO_COLOR") and env.get("TERM") != "dumb"
        encoding = getattr(stream, "encoding", None) or "ascii"
        try:
            "♣♦♥♠".encode(encoding)
            unicode = True
        except (LookupError, UnicodeEncodeError):
            unicode = False
        return cls(unicode=unicode, colour=colour)


def make_painter(style: CardStyle, custom: Callable[[Card], str | None] | None = None) -> Painter:
    """A :data:`~patience_core.games.Painter` for ``style``.

    :param custom: asked first for each face-up card (the ``patience_card_text`` hook); its answer
        is used when it is exactly two characters.
    """

    def paint(card: Card | None) -> str:
        if card is None:
            return "--"
        if not card.face_up:
            text = "##"
            return f"{_DIM}{text}{_RESET}" if style.colour else text
        text = ""
        if custom is not None:
            answer = custom(card)
            if isinstance(answer, str) and len(answer) == 2:
                text = answer
        if not text:
            text = card.rank.letter + (card.suit.symbol if style.unicode else card.suit.letter)
        if style.colour and card.is_red:
            return f"{_RED}{text}{_RESET}"
        return text

    return paint


def board_text(game: Game, position: Position, paint: Painter) -> str:
    """The whole board of ``position`` as one string (no trailing newline)."""
    return "\n".join(game.render(position, paint))
