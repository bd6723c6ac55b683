"""Fast move generation, play and solver hooks for Baker's Game (RULES.md Part B §3).

The solver (``patience_core.solver``) spends nearly all its time in :meth:`Game.legal_moves`,
:meth:`Game.play` and :meth:`Game.solver_key`. The functions here compute exactly what the
generic building blocks (:func:`run_moves`, :func:`move_cards`, :func:`auto_play`) compute, on the
tuples of a position directly, with the foundations summarised per suit; the rule tests compare
them with the generic versions move for move.

Why the solver hooks are sound (each is tested against a search without it):

* :func:`solver_key` keeps the free cells as a sorted set of cards and the columns as a sorted list
  of card strings, and leaves the foundations out. Free cells are interchangeable (any empty one
  may be chosen), and so are columns (the rules never name a column: every column takes the same
  cards, and the supermove limit counts only how many are empty). The foundations are the cards in
  no cell or column, and which foundation holds a suit never matters (a card goes to the one that
  takes it). So positions with equal keys have the same legal lines, up to renaming piles.
* No :meth:`forced_move`: every foundation move is already made by auto-play in :meth:`play`
  (safe in Baker's Game: a card on a foundation is never needed, since the only card that could be
  built on it, one rank lower in the same suit, is already home).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.api import Card, Move, Position, Rank, Suit

if TYPE_CHECKING:
    from collections.abc import Sequence

CELLS = (0, 1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
COLUMNS = (8, 9, 10, 11, 12, 13, 14, 15)
AUTO_SOURCES = CELLS + COLUMNS
_KING = int(Rank.KING)

#: Every transfer, interned: ``_MOVES[(source * 16 + target) * 14 + count]``.
_MOVES = [Move.transfer(s, t, n) for s in range(16) for t in range(16) for n in range(14)]

#: One character per card for the solver key (``A``.. for clubs, then diamonds, hearts, spades).
_CHAR = {Card.of(rank, suit): chr(65 + int(suit) * 13 + int(rank) - 1) for suit in Suit for rank in Rank}


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
    for suit in range(4):
        if dest[suit] < 0:
            dest[suit] = first_empty
    return need, dest


def run_length(pile: tuple[Card, ...]) -> int:
    """The length of the same-suit descending run at the top of a non-empty ``pile``."""
    length = 1
    top = pile[-1]
    suit = top.suit
    rank = top.rank
    for i in range(len(pile) - 2, -1, -1):
        card = pile[i]
        rank += 1
        if card.suit != suit or card.rank != rank:
            break
        length += 1
    return length


def legal_moves(piles: tuple[tuple[Card, ...], ...], kings_only: bool) -> list[Move] | None:
    """Baker's Game's legal moves, in the order of :meth:`BakersGame.legal_moves`.

    :returns: ``None`` for a malformed position (the caller uses the generic code).
    """
    summary = homes(piles)
    if summary is None:
        return None
    need, dest = summary
    moves: list[Move] = []
    for source in AUTO_SOURCES:
        pile = piles[source]
        if pile:
            card = pile[-1]
            if card.rank == need[card.suit]:
                moves.append(_MOVES[(source * 16 + dest[card.suit]) * 14 + 1])
    empty_cells = [i for i in CELLS if not piles[i]]
    free = len(empty_cells) + 1
    empty_columns = sum(1 for i in COLUMNS if not piles[i])
    if kings_only:
        onto_card = onto_empty = free
    else:
        onto_card = free << empty_columns
        onto_empty = free << (empty_columns - 1) if empty_columns else 0
    for source in AUTO_SOURCES:
        pile = piles[source]
        if not pile:
            continue
        top = pile[-1]
        suit = top.suit
        rank = top.rank
        length = 1 if source < 4 else run_length(pile)
        base = source * 224
        for target in COLUMNS:
            if target == source:
                continue
            dest_pile = piles[target]
            if dest_pile:
                under = dest_pile[-1]
                if under.suit == suit:
                    count = under.rank - rank
                    if 1 <= count <= length and count <= onto_card:
                        moves.append(_MOVES[base + target * 14 + count])
            elif kings_only:
                count = _KING - rank
                if count < length and count < onto_empty:
                    moves.append(_MOVES[base + target * 14 + count + 1])
            else:
                for count in range(min(length, onto_empty), 0, -1):
                    moves.append(_MOVES[base + target * 14 + count])
    for source in AUTO_SOURCES:
        if piles[source]:
            base = source * 224 + 1
            moves += [_MOVES[base + cell * 14] for cell in empty_cells]
    return moves


def play(piles: tuple[tuple[Card, ...], ...], move: Move) -> Position | None:
    """The position after ``move`` and its auto-play, as :func:`move_cards` then
    :func:`auto_play` (cells first, then columns; each round restarts the scan; an Ace goes to the
    first empty foundation).

    :returns: ``None`` for a malformed position (the caller uses the generic code).
    """
    new = list(piles)
    source = move.source
    target = move.target
    assert target is not None
    pile = new[source]
    cut = len(pile) - move.count
    new[target] = new[target] + pile[cut:]
    new[source] = pile[:cut]
    summary = homes(new)
    if summary is None:
        return None
    need, dest = summary
    scanning = True
    while scanning:
        scanning = False
        for source in AUTO_SOURCES:
            pile = new[source]
            if not pile:
                continue
            card = pile[-1]
            suit = card.suit
            if card.rank != need[suit] or not card.face_up:
                continue
            home = dest[suit]
            new[home] = new[home] + (card,)
            new[source] = pile[:-1]
            need[suit] += 1
            if need[suit] == 2:
                empty = [f for f in FOUNDATIONS if not new[f]]
                first = empty[0] if empty else -1
                for other in range(4):
                    if need[other] == 1:
                        dest[other] = first
            scanning = True
            break
    return Position(tuple(new))


class KeyMaker:
    """Builds :func:`solver_key` strings, remembering each column's string by the column tuple
    (positions next to each other in a search share most of their column tuples).

    :param limit: columns remembered at most; the memory is emptied when full.
    """

    def __init__(self, limit: int = 400_000) -> None:
        self.limit = limit
        self.cache: dict[int, tuple[tuple[Card, ...], str]] = {}

    def __call__(self, position: Position) -> str:
        """The canonical key: sorted free-cell cards, ``|``, the sorted column strings."""
        piles = position.piles
        cache = self.cache
        char = _CHAR
        parts = []
        for index in COLUMNS:
            column = piles[index]
            entry = cache.get(id(column))
            if entry is None or entry[0] is not column:
                text = "".join([char[card] for card in column])
                if len(cache) >= self.limit:
                    cache.clear()
                cache[id(column)] = (column, text)
            else:
                text = entry[1]
            parts.append(text)
        parts.sort()
        cells = sorted([char[piles[i][-1]] for i in CELLS if piles[i]])
        return "".join(cells) + "|" + "|".join(parts)
