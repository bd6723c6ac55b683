"""Baker's Game's fast move generation: pile indices, interned moves and the legal moves.

:func:`legal_moves` lists exactly the moves :meth:`BakersGame.legal_moves` lists, in the same
order, computed on the tuples of a position directly (RULES.md Part B §3); the rule tests compare
the two move for move. Used by the search object (:mod:`patience_bakers_game.search`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.api import Card, Move

if TYPE_CHECKING:
    from collections.abc import Sequence

CELLS = (0, 1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
COLUMNS = (8, 9, 10, 11, 12, 13, 14, 15)
AUTO_SOURCES = CELLS + COLUMNS

#: Every transfer, interned: ``_MOVES[(source * 16 + target) * 14 + count]``.
_MOVES = [Move.transfer(s, t, n) for s in range(16) for t in range(16) for n in range(14)]
#: The same moves, longest run first: ``_RUN_MOVES[(source * 16 + target) * 14 + 13 - count]``.
_RUN_MOVES = [Move.transfer(s, t, 13 - n) for s in range(16) for t in range(16) for n in range(14)]


def transfer(source: int, target: int, count: int = 1) -> Move:
    """The interned transfer move (same value as :meth:`Move.transfer`)."""
    return _MOVES[(source * 16 + target) * 14 + count]


def homes(piles: Sequence[tuple[Card, ...]]) -> tuple[list[int], list[int]] | None:
    """Per suit: the rank its foundation takes next (14 when complete) and the foundation index a
    card of that suit goes to (the first empty one for a suit not started).

    :returns: ``None`` when the foundations are not each one suit from the Ace up (a malformed
        position; callers fall back to the generic building blocks).
    """
    need = [1, 1, 1, 1]
    dest = [-1, -1, -1, -1]
    first_empty = -1
    for f in FOUNDATIONS:
        pile = piles[f]
        if not pile:
            if first_empty < 0:
                first_empty = f
            continue
        top = pile[-1]
        suit = top.suit
        if dest[suit] >= 0 or len(pile) != top.rank or pile[0].suit != suit:
            return None
        need[suit] = top.rank + 1
        dest[suit] = f
    for index in range(4):
        if dest[index] < 0:
            dest[index] = first_empty
    return need, dest


def run_length(pile: tuple[Card, ...]) -> int:
    """The length of the same-suit descending run at the top of a non-empty ``pile``."""
    length = 1
    top = pile[-1]
    suit = top.suit
    rank = int(top.rank)
    for i in range(len(pile) - 2, -1, -1):
        card = pile[i]
        rank += 1
        if card.suit != suit or card.rank != rank:
            break
        length += 1
    return length


def legal_moves(piles: tuple[tuple[Card, ...], ...], kings_only: bool) -> list[Move] | None:
    """Baker's Game's legal moves, in the order of :meth:`BakersGame.legal_moves`:
    foundation moves by source; runs by source, then target, then the longest first; cards into
    free cells by source, then cell.

    :returns: ``None`` for a malformed position (the caller uses the generic code).
    """
    summary = homes(piles)
    if summary is None:
        return None
    need, dest = summary
    moves: list[Move] = []
    sources = [i for i in AUTO_SOURCES if piles[i]]
    for source in sources:
        card = piles[source][-1]
        if card.rank == need[card.suit]:
            moves.append(_MOVES[(source * 16 + dest[card.suit]) * 14 + 1])
    empty_cells = [i for i in CELLS if not piles[i]]
    free = len(empty_cells) + 1
    by_suit: list[list[tuple[int, int]]] = [[], [], [], []]
    empty_columns = []
    for target in COLUMNS:
        pile = piles[target]
        if pile:
            card = pile[-1]
            by_suit[card.suit].append((target, card.rank))
        else:
            empty_columns.append(target)
    if kings_only:
        onto_card = onto_empty = free
    else:
        onto_card = free << len(empty_columns)
        onto_empty = free << (len(empty_columns) - 1) if empty_columns else 0
    found: list[int] = []
    for source in sources:
        pile = piles[source]
        top = pile[-1]
        rank = top.rank
        length = 1 if source < 4 else run_length(pile)
        base = source * 224 + 13
        for target, under in by_suit[top.suit]:
            count = under - rank
            if 1 <= count <= length and count <= onto_card and target != source:
                found.append(base + target * 14 - count)
        if empty_columns:
            if kings_only:
                count = 14 - rank
                if count <= length and count <= onto_empty:
                    found += [base + t * 14 - count for t in empty_columns if t != source]
            else:
                top_count = min(length, onto_empty)
                for target in empty_columns:
                    found += range(base + target * 14 - top_count, base + target * 14)
    if found:
        found.sort()
        moves += [_RUN_MOVES[i] for i in found]
    if empty_cells:
        for source in sources:
            base = source * 224 + 1
            moves += [_MOVES[base + cell * 14] for cell in empty_cells]
    return moves
