"""Machine-readable positions: the JSON form printed by ``patience deal --json``.

Layer 4. The format (documented in ``docs/cli.md``, "Position JSON")::

    {
      "format": "patience-position", "version": 1,
      "game": "escalator", "deal": "1", "options": {}, "all_cards": false,
      "piles": [{"name": "s", "kind": "stock", "slot": 0, "cards": [null, null, ...]}, ...],
      "score": 0, "max_score": 28, "won": false, "lost": false,
      "legal_moves": ["deal"]
    }

``cards`` lists each pile **bottom first** (the last card is the top); card codes are rank
(``A 2..9 T J Q K``) then suit (``c d h s``). A face-down card is ``null`` (unknown: what a player
sees) unless the position is written with every card (``all_cards``, ``patience deal --json
--all-cards``, for studies), when it is its code marked ``*`` (``"*7s"``). Only a position with
every card can be read back: a game's rules need every card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from patience_core.engine import counted, shown
from patience_core.errors import BadSave
from patience_core.games._game import Game
from patience_core.model import Card, Position, Rank, Suit

__all__ = [
    "POSITION_FORMAT",
    "POSITION_VERSION",
    "meant_card",
    "position_from_dict",
    "position_to_dict",
    "twice_problem",
]

#: The ``format`` field of position JSON.
POSITION_FORMAT = "patience-position"
#: The ``version`` of position JSON written and read.
POSITION_VERSION = 1


def position_to_dict(
    game: Game, position: Position, deal: str | None = None, *, all_cards: bool = False
) -> dict[str, Any]:
    """The JSON-ready dict of ``position`` (see the module docstring for the shape).

    :param deal: the deal number's text, or ``None`` (a position read from a file).
    :param all_cards: write face-down cards' codes (marked ``*``) instead of ``null``: a
        position to read back, or to study, rather than what a player sees.
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
        "all_cards": all_cards,
        "piles": [
            {
                "name": spec.name,
                "kind": spec.kind.value,
                "slot": spec.slot,
                "cards": [str(card) if card.face_up or all_cards else None for card in position[i]],
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

    :raises BadSave: when the piles do not match the game's layout, a card code is bad, or a
        card is unknown (``null``: the position was written without every card).
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
        if isinstance(cards, list) and None in cards:
            raise BadSave(
                f"pile {spec.name}: {counted(cards.count(None), 'face-down card')} not shown "
                "(null): a position needs every card; write it with --all-cards"
            )
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise BadSave(f"pile {spec.name}: cards must be a list of card codes")
        result.append(tuple(_card(code, f"pile {spec.name}") for code in cards))
    problem = twice_problem(
        game.new_deck(),
        (
            (card, f"pile {spec.name} card {k}")
            for spec, pile in zip(game.piles, result, strict=True)
            for k, card in enumerate(pile, 1)
        ),
    )
    if problem:
        raise BadSave(problem)
    return Position(tuple(result))


def meant_card(text: str) -> str | None:
    """The card code a user likely meant by ``text``, which is not one: the suit written first
    (``HA``, ``s10``: ``Ah``, ``Ts``), or ``1`` for the ace, ``0`` for the ten (``1h``, ``0c``);
    ``None`` when there is no likely reading."""
    star, core = ("*", text.strip()[1:]) if text.strip().startswith("*") else ("", text.strip())
    readings = [core[1:] + core[:1]]
    if core[:-1] in ("1", "0"):
        readings.append({"1": "A", "0": "T"}[core[:-1]] + core[-1:])
    for reading in readings:
        try:
            return star + Card.from_code(reading).code
        except (ValueError, KeyError):
            continue
    return None


def _card(code: str, where: str) -> Card:
    """The card of a code of position JSON. :raises BadSave: naming ``where`` and the likely
    meaning (:func:`meant_card`), for a code that is not a card."""
    try:
        return Card.from_code(code)
    except (ValueError, KeyError):
        meant = meant_card(code)
        hint = f": did you mean {meant}?" if meant else " (e.g. 9h, Td, Ks; *9h face down)"
        raise BadSave(f"{where}: {shown(code, 20)} is not a card{hint}") from None


def twice_problem(deck: Iterable[Card], placed: Iterable[tuple[Card, str]]) -> str | None:
    """What is wrong, in one line, when a card is placed more often than ``deck`` holds it: the
    card, where each copy is, and the cards then missing (a copy usually stands for one); e.g.
    ``card 8s appears too often: pile t3 card 5 and pile t7 card 2; 4h is missing``. ``None``
    when no card is placed too often.

    :param placed: each card placed, with where it is, in reading order.
    """
    left = Counter((card.rank, card.suit) for card in deck)
    wheres: dict[tuple[Rank, Suit], list[str]] = {}
    first: tuple[Rank, Suit] | None = None
    for card, where in placed:
        key = (card.rank, card.suit)
        wheres.setdefault(key, []).append(where)
        left[key] -= 1
        if left[key] < 0 and first is None:
            first = key
    if first is None:
        return None
    code = Card.of(*first).code
    copies = wheres[first]
    if len(copies) + left[first] == 0:  # none in the deck: this game does not use the card
        return f"card {code} is not one of the game's cards ({copies[0]})"
    places = ", ".join(copies[:-1][:3]) + (", ..." if len(copies) > 4 else "")
    missing = [Card.of(*key).code for key, n in left.items() if n > 0]
    lacking = ""
    if missing:
        said = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
        lacking = f"; {said} {'is' if len(missing) == 1 else 'are'} missing"
    return f"card {code} appears too often: {places} and {copies[-1]}{lacking}"
