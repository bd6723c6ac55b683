"""Auto-finish: the rest of a game that needs no more decisions.

When every step from here on is either the only legal move (forced) or a card to a
foundation, and following them wins, the front ends offer to play them all (the line player's
``auto`` command, a key of the full-screen app), e.g. Bristol's last cards once every pile is
built down in order. Foundation moves are taken first, in the game's move order, so the line
is the same every time.
"""

from __future__ import annotations

from patience_core.games import Game
from patience_core.model import Move, MoveKind, PileKind, Position

__all__ = ["MAX_FINISH_MOVES", "finish_moves", "nowhere", "smart_choice"]

#: The longest line auto-finish plays (far beyond any game's last forced moves).
MAX_FINISH_MOVES = 1_000


def finish_moves(game: Game, position: Position) -> list[Move] | None:
    """The moves that finish the game from ``position`` with no decision left, or ``None``.

    At each step the only legal move is taken, else the first legal move to a foundation; a
    step with several moves and none to a foundation, a loop, or an end that is not won gives
    ``None``. A won position gives ``None`` too (nothing to finish).
    """
    if game.is_won(position):
        return None
    foundations = frozenset(game.pile_indices(PileKind.FOUNDATION))
    seen = {position}
    moves: list[Move] = []
    while len(moves) < MAX_FINISH_MOVES:
        legal = game.legal_moves(position)
        if not legal:
            return None
        move: Move | None = legal[0]
        if len(legal) > 1:
            move = next(
                (m for m in legal if m.kind is MoveKind.TRANSFER and m.target in foundations),
                None,
            )
        if move is None:
            return None
        position = game.play(position, move)
        moves.append(move)
        if game.is_won(position):
            return moves
        if position in seen:
            return None
        seen.add(position)
    return None


def smart_choice(
    game: Game, position: Position, legal: list[Move], source: int, count: int | None
) -> Move | None:
    """The move a "smart move" plays for the cards at ``source``: to a foundation first, then
    onto a non-empty tableau pile it builds on, then anywhere else it may go (an empty pile, a
    free cell, ...); the longest run first within each, then the game's move order.

    :param count: the cards to move (``None``: any count).
    :returns: ``None`` when no legal move leaves ``source`` (with ``count`` cards).
    """
    choices = [
        (index, m)
        for index, m in enumerate(legal)
        if m.kind is MoveKind.TRANSFER
        and m.source == source
        and m.target is not None
        and (count is None or m.count == count)
    ]
    if not choices:
        return None

    def rank(item: tuple[int, Move]) -> tuple[int, int, int]:
        index, move = item
        assert move.target is not None
        kind = game.piles[move.target].kind
        if kind is PileKind.FOUNDATION:
            where = 0
        elif kind is PileKind.TABLEAU and position[move.target]:
            where = 1
        else:
            where = 2
        return (where, -move.count, index)

    return min(choices, key=rank)[1]


def nowhere(game: Game, position: Position, source: int, count: int | None) -> str:
    """Why the smart move from pile index ``source`` finds no place: the pile is empty, its top
    card is face down, or the card (the ``count``-th from the top) has no legal place."""
    pile = position[source]
    name = game.piles[source].name
    if not pile:
        return f"nothing to move: {name} is empty"
    card = pile[-min(count or 1, len(pile))]
    if not card.face_up:
        return f"{name}'s top card is face down"
    return f"{game.card_name(card)} has nowhere to go"
