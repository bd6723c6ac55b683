"""Escalator's compact view of a position: place tables, the :class:`Node` cache, keys and moves.

Everything here is derived from the position alone: a :class:`Node` caches what the search needs
about one position (which pyramid places are full and free, the stock count, the waste's top rank,
and the matching of the dead proof, :mod:`patience_escalator._dead`), and a child's node is worked
out from its parent's when the parent is known (:func:`child_node`), which is much faster than
from scratch (:func:`node_from_scratch`). The caches only save work: every answer is the one a
fresh computation from the position would give.

Places: the 28 pyramid places are numbered 0..27 row by row from the apex (place ``k`` is pile
``2 + k``); sets of places are int bit masks (bit ``k`` for place ``k``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from patience_core.api import Move, MoveKind, Position

if TYPE_CHECKING:
    from patience_escalator._dead import Matching

ROWS = 7
PLACES = ROWS * (ROWS + 1) // 2  # 28
STOCK, WASTE, APEX = 0, 1, 2

#: The two places covering each place (an empty tuple on the bottom row).
COVER_PLACES: tuple[tuple[int, ...], ...] = tuple(
    (k + row, k + row + 1) if row < ROWS else ()
    for row in range(1, ROWS + 1)
    for k in range(row * (row - 1) // 2, row * (row + 1) // 2)
)


def _closure(step: Callable[[int], tuple[int, ...]]) -> tuple[int, ...]:
    """For each place, the bit mask of the places reached from it by ``step`` repeatedly."""
    masks = []
    for start in range(PLACES):
        reached = 0
        todo = list(step(start))
        while todo:
            place = todo.pop()
            if not reached >> place & 1:
                reached |= 1 << place
                todo.extend(step(place))
        masks.append(reached)
    return tuple(masks)


#: ABOVE[k]: the places covering place k, directly or not (all must go before it).
ABOVE = _closure(lambda k: COVER_PLACES[k])
#: UNDER[k]: the places place k covers, directly or not (all must go after it).
UNDER = tuple(sum(1 << j for j in range(PLACES) if ABOVE[j] >> k & 1) for k in range(PLACES))
#: For each place, (place it covers, the other place covering that one) pairs: when place k
#: goes and the other cover is gone too, the covered place becomes free.
UNCOVERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (c, COVER_PLACES[c][1] if COVER_PLACES[c][0] == k else COVER_PLACES[c][0])
        for c in range(PLACES)
        if k in COVER_PLACES[c]
    )
    for k in range(PLACES)
)
#: Ranks one below and one above each rank (index 1..13), King and Ace adjacent.
BELOW = (0, 13, *range(1, 13))
ABOVE_RANK = (0, *range(2, 14), 1)

_TO_WASTE = tuple(Move.transfer(APEX + k, WASTE) for k in range(PLACES))
_DEAL = Move.deal(STOCK)


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Tables:
    """What stays fixed while one deal is searched, read from one of its positions.

    :param position: any Escalator position; places empty in it stay empty in every position
        reached from it, and the stock only shrinks from its top, so the tables hold for those too.
    """

    __slots__ = ("adjacent", "counts", "fits", "rank", "stock_ranks")

    rank: list[int]
    adjacent: list[int]
    fits: list[int]
    stock_ranks: list[int]
    counts: list[list[int]]

    def __init__(self, position: Position) -> None:
        piles = position.piles
        rank = [0] * PLACES
        by_rank = [0] * 14
        for k in range(PLACES):
            pile = piles[APEX + k]
            if pile:
                r = int(pile[0].rank)
                rank[k] = r
                by_rank[r] |= 1 << k
        #: rank[k]: the rank of the card at place k (0 for an empty place).
        self.rank = rank
        #: adjacent[k]: places holding a rank next to place k's that do not lie under it.
        self.adjacent = [
            (by_rank[BELOW[r]] | by_rank[ABOVE_RANK[r]]) & ~UNDER[k] if r else 0
            for k, r in enumerate(rank)
        ]
        #: fits[t]: places holding a rank that may go on a waste card of rank t (0: empty waste).
        self.fits = [0] + [by_rank[BELOW[t]] | by_rank[ABOVE_RANK[t]] for t in range(1, 14)]
        #: stock_ranks[i]: the rank of stock card i, bottom first.
        self.stock_ranks = [int(card.rank) for card in piles[STOCK]]
        counts = [[0] * 14]
        for r in self.stock_ranks:
            row = counts[-1][:]
            row[r] += 1
            counts.append(row)
        #: counts[n][r]: cards of rank r among the bottom n stock cards.
        self.counts = counts


class Node:
    """What the search knows about one position.

    ``matching`` is set, with ``dead``, once :func:`is_dead` has run; it never changes after
    that (a child's matching starts from a copy), so nodes may be shared.
    """

    __slots__ = ("dead", "free", "mask", "matching", "move", "parent", "stock", "tables", "top")

    tables: Tables
    mask: int
    free: int
    stock: int
    top: int
    parent: Node | None
    move: Move | None
    dead: bool | None
    matching: Matching | None


def node_from_scratch(position: Position) -> Node:
    """The node of any position, read from its piles."""
    piles = position.piles
    node = Node()
    node.tables = Tables(position)
    mask = 0
    for k in range(PLACES):
        if piles[APEX + k]:
            mask |= 1 << k
    node.mask = mask
    node.free = _free(mask)
    node.stock = len(piles[STOCK])
    waste = piles[WASTE]
    node.top = int(waste[-1].rank) if waste else 0
    node.parent = None
    node.move = None
    node.dead = None
    node.matching = None
    return node


def _free(mask: int) -> int:
    """The places of ``mask`` no place of ``mask`` covers."""
    free = 0
    for k in bits(mask):
        covers = COVER_PLACES[k]
        if not covers or not (mask >> covers[0] & 1 or mask >> covers[1] & 1):
            free |= 1 << k
    return free


def child_node(parent: Node, move: Move) -> Node:
    """The node of the position ``move`` leads to from ``parent``'s (a legal move)."""
    node = Node()
    tables = node.tables = parent.tables
    if move.kind is MoveKind.DEAL:
        node.mask = parent.mask
        node.free = parent.free
        stock = node.stock = parent.stock - 1
        node.top = tables.stock_ranks[stock]
    else:
        place = move.source - APEX
        mask = node.mask = parent.mask & ~(1 << place)
        free = parent.free & ~(1 << place)
        for covered, other in UNCOVERS[place]:
            if not mask >> other & 1:
                free |= 1 << covered
        node.free = free
        node.stock = parent.stock
        node.top = tables.rank[place]
    node.parent = parent
    node.move = move
    node.dead = None
    node.matching = None
    return node


def key(node: Node) -> int:
    """The solver key: the full places, the places playable now, and the stock count.

    Within one deal that is the whole future: playing a card leads to (its place emptied, same
    stock, that card's rank on top) and a deal to (same places, one card fewer, the next stock
    card on top), neither depending on which card lay on the waste; that card only decides which
    plays are legal, which the key holds.
    """
    playable = node.free & node.tables.fits[node.top]
    return node.mask | playable << PLACES | node.stock << (2 * PLACES)


def moves(node: Node) -> list[Move]:
    """The legal moves, as :meth:`Escalator.legal_moves` lists them (apex first, deal last)."""
    if not node.mask:
        return []
    playable = node.free & node.tables.fits[node.top]
    out = [_TO_WASTE[k] for k in bits(playable)]
    if node.stock:
        out.append(_DEAL)
    return out
