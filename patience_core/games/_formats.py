"""Machine-readable positions: the JSON form printed by ``patience deal --json``.

Layer 4. The format (documented in ``docs/cli.md``, "Position JSON")::

    {
      "format": "patience-position", "version": 1,
      "game": "escalator", "deal": "1", "options": {},
      "piles": [{"name": "s", "kind": "stock", "slot": 0, "cards": ["*7s", "*2h", ...]}, ...],
      "score": 0, "max_score": 28, "won": false, "lost": false,
      "legal_moves": ["deal"]
    }

``cards`` lists each pile **bottom first** (the last card is the top); ``*`` marks a face-down card;
card codes are rank (``A 2..9 T J Q K``) then suit (``c d h s``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patience_core.engine import counted, shown
from patience_core.errors import BadSave
from patience_core.games._game import Game
from patience_core.model import Card, Position

__all__ = ["POSITION_FORMAT", "POSITION_VERSION", "position_from_dict", "position_to_dict"]

#: The ``format`` field of position JSON.
POSITION_FORMAT = "patience-position"
#: The ``version`` of position JSON written and read.
POSITION_VERSION = 1


def position_to_dict(game: Game, position: Position, deal: str | None = None) -> dict[str, Any]:
    """The JSON-ready dict of ``position`` (see the module docstring for the shape).
    """
    legal = game.legal_moves(position)
    score = game.score(position)
    won = game.is_won(position)
    return {
        "format": POSITION_FORMAT,
        "version": POSITION_VERSION,
        "game": game.name,
        "deal": deal,
        "options": dict(game.option_values),
        "piles": [
            {
                "name": spec.name,
                "kind": spec.kind.value,
                "slot": spec.slot,
                "cards": [str(card) for card in position[i]],
            }
            for i, spec in enumerate(game.piles)
        ],
        "score": score,
        "max_score": game.max_score,
        "won": won,
        "lost": not legal and not won,
        "legal_moves": [game.move_text(position, m) for m in legal],
    }


def position_from_dict(game: Game, data: Mapping[str, Any]) -> Position:
    """Read the piles of a position dict back (only ``piles`` is used).

    :raises BadSave: when the piles do not match the game's layout or a card code is bad.
    """
    piles = data.get("piles") if isinstance(data, Mapping) else None
    if not isinstance(piles, list) or len(piles) != len(game.piles):
        raise BadSave(
            f"position does not have the {counted(len(game.piles), 'pile')} of {game.name}"
        )
    result = []
    for spec, pile in zip(game.piles, piles, strict=True):
        name = pile.get("name", spec.name) if isinstance(pile, Mapping) else spec.name
        if name != spec.name:
            raise BadSave(
                f"pile {shown(str(name), 20)} is where {game.name} has pile {spec.name} "
                "(the piles go in the game's order)"
            )
        cards = pile.get("cards") if isinstance(pile, Mapping) else None
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise BadSave(f"pile {spec.name}: cards must be a list of card codes")
        try:
            result.append(tuple(Card.from_code(c) for c in cards))
        except (ValueError, KeyError) as exc:
            raise BadSave(f"pile {spec.name}: {exc}") from None
    return Position(tuple(result))
