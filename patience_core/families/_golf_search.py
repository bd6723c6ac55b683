"""The golf family's search, written once for every variant: small states, compact keys, and
the predecessor matching as dead proof (:mod:`patience_core.families._golf_dead`).

Layer 3½ (above :mod:`patience_core.games`). Within one deal the future of a golf-family position
is which tableau places hold a card, the stock count and the waste's top rank (the stock's order
is fixed, a tableau card only ever leaves, and a card below the waste's top never comes back).
:class:`GolfSpace` searches :class:`Node` states holding just that (and the matching of the dead
proof, repaired from the parent's), never building a position; :class:`GolfSearch` hands the
solver that space and answers the position-level members from a node read from scratch.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING

from patience_core.families._golf_dead import DEAL, Matching, is_dead
from patience_core.families._golf_shape import Shape, bits
from patience_core.games import GameSearch
from patience_core.model import Move, Position

if TYPE_CHECKING:
    from patience_core.families._golf import GolfFamily

__all__ = ["GolfSearch", "GolfSpace", "Node", "Tables", "child_node", "node_from_scratch"]

STOCK, WASTE, FIRST = 0, 1, 2


class Tables:
    """What stays fixed while one deal is searched, read from one of its positions: places
    empty in it stay empty in every position reached from it, and the stock only shrinks from
    its top, so the tables hold for those too.

    :param game: a golf-family game (its shape and its rule of ranks).
    :param position: any position of ``game``.
    """

    __slots__ = ("adjacent", "counts", "fits", "game", "moves", "preds", "rank", "shape",
                 "stock_ranks")  # fmt: skip

    def __init__(self, game: GolfFamily, position: Position) -> None:
        shape: Shape = game.shape
        tableau = position.piles[FIRST:]
        self.game = game
        self.shape = shape
        #: rank[k]: the rank of the card at place k (0 for an empty place).
        self.rank = [0] * shape.size
        by_rank = [0] * 14
        for k in range(shape.size):
            card = shape.card(tableau, k)
            if card is not None:
                self.rank[k] = int(card.rank)
                by_rank[card.rank] |= 1 << k
        fit = game._fits  # fit[w][c]: rank c may go on a waste card of rank w
        #: preds[r]: the ranks a card of rank r may go on (its possible predecessors).
        self.preds = [tuple(w for w in range(1, 14) if fit[w][r]) for r in range(14)]
        #: adjacent[k]: places holding a rank place k may go on that do not lie under it.
        self.adjacent = [
            sum(by_rank[w] for w in self.preds[r]) & ~shape.under[k] if r else 0
            for k, r in enumerate(self.rank)
        ]
        #: fits[t]: places holding a rank that may go on a waste card of rank t (0: empty).
        self.fits = [sum(by_rank[c] for c in range(1, 14) if fit[t][c]) for t in range(14)]
        #: stock_ranks[i]: the rank of stock card i, bottom first.
        self.stock_ranks = [int(card.rank) for card in position.piles[STOCK]]
        #: counts[s][r]: stock cards of rank r that will show on the waste's top, from a stock
        #: of s cards (every deal-size-th card from the top, and the bottom one).
        size = game.deal_size
        self.counts = []
        for s in range(len(self.stock_ranks) + 1):
            row = [0] * 14
            for i in {*range(s - size, 0, -size), 0} if s else ():
                row[self.stock_ranks[i]] += 1
            self.counts.append(row)
        pile_of = shape.pile_of
        #: moves[k]: the move playing place k's card.
        self.moves = [Move.transfer(FIRST + pile_of[k], WASTE) for k in range(shape.size)]


class Node:
    """One state of the search: the places holding a card, those free, the stock count and the
    waste's top rank; and the dead proof's matching once :func:`is_dead` has run (it never
    changes after that, a child's starts from a copy, so nodes may be shared).
    """

    __slots__ = ("dead", "free", "mask", "matching", "parent", "step", "stock", "tables", "top")

    tables: Tables
    mask: int
    free: int
    stock: int
    top: int
    parent: Node | None
    step: int
    dead: bool | None
    matching: Matching | None


def node_from_scratch(game: GolfFamily, position: Position) -> Node:
    """The node of any position of ``game``, read from its piles."""
    node = Node()
    tables = node.tables = Tables(game, position)
    node.mask = tables.shape.mask(position.piles[FIRST:])
    node.free = tables.shape.free(node.mask)
    node.stock = len(position[STOCK])
    waste = position[WASTE]
    node.top = int(waste[-1].rank) if waste else 0
    node.parent = None
    node.step = DEAL
    node.dead = None
    node.matching = None
    return node


def child_node(parent: Node, step: int) -> Node:
    """The node ``step`` (a place played, or :data:`DEAL`) leads to from ``parent`` (legal)."""
    node = Node()
    tables = node.tables = parent.tables
    if step == DEAL:
        node.mask = parent.mask
        node.free = parent.free
        stock = node.stock = max(parent.stock - tables.game.deal_size, 0)
        node.top = tables.stock_ranks[stock]
    else:
        mask = node.mask = parent.mask & ~(1 << step)
        free = parent.free & ~(1 << step)
        for covered, others in tables.shape.uncovers[step]:
            if not mask & others:
                free |= 1 << covered
        node.free = free
        node.stock = parent.stock
        node.top = tables.rank[step]
    node.parent = parent
    node.step = step
    node.dead = None
    node.matching = None
    return node


def key(node: Node) -> int:
    """The solver key: the full places, the places playable now, and the stock count. Within
    one deal that is the whole future: a play leads to (its place emptied, same stock, that
    card's rank on top) and a deal to (same places, fewer stock cards, the next shown stock card
    on top), neither depending on the waste's old top card, which only decides which plays are
    legal: the key holds those."""
    size = node.tables.shape.size
    playable = node.free & node.tables.fits[node.top]
    return node.mask | playable << size | node.stock << (2 * size)


def steps(node: Node) -> list[int]:
    """The legal steps, best first: the playable cards, those with the most cards under them
    first (a column's height), then the deal."""
    if not node.mask:
        return []
    playable = bits(node.free & node.tables.fits[node.top])
    if len(playable) > 1:
        under, mask = node.tables.shape.under, node.mask
        playable.sort(key=lambda k: -(under[k] & mask).bit_count())
    if node.stock:
        playable.append(DEAL)
    return playable


class GolfSpace:
    """The search space of a golf-family deal from one position: :class:`Node` states, steps
    that are places played or :data:`DEAL` (a :class:`~patience_core.games.SearchSpace`).

    :param game: a golf-family game.
    :param position: where the search starts.
    """

    def __init__(self, game: GolfFamily, position: Position) -> None:
        self._start = node_from_scratch(game, position)
        self._tables = self._start.tables

    def start(self) -> tuple[Node, int]:
        """The node of the start position."""
        return self._start, 0

    def children(self, state: Node) -> Iterator[tuple[int, Node, int]]:
        """Each legal step and the node it leads to."""
        for step in steps(state):
            yield step, child_node(state, step), 1

    def key(self, state: Node) -> Hashable:
        """:func:`key`."""
        return key(state)

    def is_won(self, state: Node) -> bool:
        """The tableau is empty."""
        return not state.mask

    def is_dead(self, state: Node) -> bool:
        """The predecessor matching fails (:mod:`patience_core.families._golf_dead`)."""
        return is_dead(state)

    def moves(self, steps: Sequence[int]) -> list[Move]:
        """The moves of ``steps``."""
        deal, moves = Move.deal(STOCK), self._tables.moves
        return [deal if step == DEAL else moves[step] for step in steps]


class GolfSearch(GameSearch):
    """The golf family's search object: :class:`GolfSpace` for the solver's depth-first search,
    and the same key and dead proof for positions (docs/families.md, "The golf family")."""

    game: GolfFamily

    def search_space(self, position: Position) -> GolfSpace:
        """The family's compact space from ``position``."""
        return GolfSpace(self.game, position)

    def key(self, position: Position) -> Hashable:
        """The key of :func:`key` (an int)."""
        return key(node_from_scratch(self.game, position))

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Tableau cards first, the deal last: ``legal_moves`` lists them so."""
        return moves

    def is_dead(self, position: Position) -> bool:
        """The predecessor matching fails (:mod:`patience_core.families._golf_dead`)."""
        return is_dead(node_from_scratch(self.game, position))
