"""Escalator's search object: compact keys, the move list and a dead-position proof.

The solver (``patience_core.solve``) calls :class:`EscalatorSearch`'s ``play``, ``key``, ``is_dead``
and ``moves_to_try`` once or more per position; this module makes them cheap. Everything here is
derived from the position alone: a :class:`Node` caches what the search needs about one position
(which pyramid places are full and free, the stock count, the waste's top rank, and a matching for
the dead proof), and a child's node is worked out from its parent's when the parent is known, which
is much faster than from scratch. The caches only save work: every answer is the one a fresh
computation from the position would give.

Places: the 28 pyramid places are numbered 0..27 row by row from the apex (place ``k`` is pile
``2 + k``); sets of places are int bit masks (bit ``k`` for place ``k``).

**The dead proof** (RULES.md Part A "Escalator"; the solver's ``is_dead`` contract). In any line
that wins from a position, every pyramid card still there is played onto the waste, so the card
just below it on the waste at that moment, its *predecessor*, is a distinct card of a rank one
above or below it (King and Ace adjacent). The predecessor is one of:

* the waste's top card now, and then the pyramid card is played next, so it must be free now;
* a card still in the stock (dealt, then the pyramid card played on it);
* another pyramid card ``Y`` played just before it. ``Y`` cannot be a card it covers (those go
  after it), and once ``Y`` is gone the card must be free: so no card still covering it other
  than ``Y`` may lie under ``Y`` (it would have to go after ``Y`` and before the card).

Every card is the predecessor of at most one card (the card played right after it). So a win
gives a matching of the pyramid cards to distinct predecessors along those edges; when the
bipartite graph has no matching that covers every pyramid card, no line wins, and the position is
dead. The matching is kept from parent to child and repaired with Kuhn's augmenting paths, which
decide exactly whether such a matching exists.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable

from patience_core.api import Game, GameSearch, Move, MoveKind, Position

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

#: Predecessor codes in a matching: 0..27 a pyramid place, STOCK_CODE + rank a stock card of that
#: rank, TOP_CODE the waste's top card, NONE unmatched.
STOCK_CODE = 32
TOP_CODE = 64
NONE = -1

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


class Matching:
    """A matching of pyramid places to predecessors (module docstring).

    :param pred: for each place, its predecessor's code (``NONE`` when unmatched or empty).
    :param owner: for each place, the place it precedes (``NONE`` when it precedes none).
    :param used: the places that precede some place (a mask).
    :param stock_used: for each rank, the places matched to stock cards of that rank.
    :param top_user: the place the waste's top card precedes, or ``NONE``.
    """

    __slots__ = ("owner", "pred", "stock_used", "top_user", "used")

    def __init__(
        self, pred: list[int], owner: list[int], used: int, stock_used: list[int], top_user: int
    ) -> None:
        self.pred = pred
        self.owner = owner
        self.used = used
        self.stock_used = stock_used
        self.top_user = top_user


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


# -- the dead proof -----------------------------------------------------------------------------


def _augment(node: Node, m: Matching, x: int, seen: list[int]) -> bool:
    """Find a predecessor for unmatched place ``x``, moving others along an augmenting path.

    :param m: the matching being built for ``node``; changed in place.
    :param seen: ``[places, stock ranks, top]`` bit masks of predecessors already explored in
        this search (each is explored once: Kuhn's algorithm).
    :returns: whether the matching now covers ``x``.
    """
    tables = node.tables
    r = tables.rank[x]
    low = BELOW[r]
    high = ABOVE_RANK[r]
    pred = m.pred
    stock_used = m.stock_used
    counts = tables.counts[node.stock]
    # A predecessor nobody uses yet: the waste's top card last, as it goes at the next move.
    if stock_used[low] < counts[low]:
        stock_used[low] += 1
        pred[x] = STOCK_CODE + low
        return True
    if stock_used[high] < counts[high]:
        stock_used[high] += 1
        pred[x] = STOCK_CODE + high
        return True
    mask = node.mask
    candidates = tables.adjacent[x] & mask
    for cover in COVER_PLACES[x]:
        if mask >> cover & 1:
            candidates &= ~ABOVE[cover]
    spare = candidates & ~m.used
    if spare:
        j = (spare & -spare).bit_length() - 1
        m.used |= 1 << j
        m.owner[j] = x
        pred[x] = j
        return True
    top_fits = (node.top == low or node.top == high) and node.free >> x & 1
    if top_fits and m.top_user < 0:
        m.top_user = x
        pred[x] = TOP_CODE
        return True
    # Move a user of one of the candidates elsewhere.
    if top_fits and not seen[2]:
        seen[2] = 1
        if _augment(node, m, m.top_user, seen):
            m.top_user = x
            pred[x] = TOP_CODE
            return True
    for rank in (low, high):
        if counts[rank] and not seen[1] >> rank & 1:
            seen[1] |= 1 << rank
            code = STOCK_CODE + rank
            # The stock cards of this rank are all used (else x would have one): try each user
            # (a failed attempt changes nothing, so the users stay where they are).
            user = -1
            for _ in range(stock_used[rank]):
                user = pred.index(code, user + 1)
                if _augment(node, m, user, seen):
                    pred[x] = code
                    return True
    todo = candidates & ~seen[0]
    seen[0] |= todo
    for j in bits(todo):
        if _augment(node, m, m.owner[j], seen):
            m.owner[j] = x
            pred[x] = j
            return True
    return False


def _match_from_scratch(node: Node) -> Matching | None:
    """A matching covering every pyramid card of ``node``, or ``None`` when there is none."""
    m = Matching([NONE] * PLACES, [NONE] * PLACES, 0, [0] * 14, NONE)
    for x in bits(node.mask):
        if not _augment(node, m, x, [0, 0, 0]):
            return None
    return m


def _match_from_parent(node: Node, parent: Matching, move: Move) -> Matching | None:
    """``parent``'s matching repaired for ``node``, the position ``move`` leads to from the
    parent's; ``None`` when no matching covers every pyramid card."""
    todo = []
    if move.kind is MoveKind.DEAL:
        rank = node.top
        over = parent.stock_used[rank] > node.tables.counts[node.stock][rank]
        if not over and parent.top_user < 0:
            return parent  # nothing to repair (matchings never change once built)
        m = Matching(
            parent.pred[:], parent.owner[:], parent.used, parent.stock_used[:], parent.top_user
        )
        if over:
            user = m.pred.index(STOCK_CODE + rank)
            m.pred[user] = NONE
            m.stock_used[rank] -= 1
            todo.append(user)
    else:
        m = Matching(
            parent.pred[:], parent.owner[:], parent.used, parent.stock_used[:], parent.top_user
        )
        pred = m.pred
        place = move.source - APEX
        was = pred[place]
        pred[place] = NONE
        if was == TOP_CODE:
            m.top_user = NONE
        elif was >= STOCK_CODE:
            m.stock_used[was - STOCK_CODE] -= 1
        elif was >= 0:
            m.used &= ~(1 << was)
            m.owner[was] = NONE
        if m.used >> place & 1:
            user = m.owner[place]
            m.owner[place] = NONE
            m.used &= ~(1 << place)
            pred[user] = NONE
            todo.append(user)
    if m.top_user >= 0:
        # The old top card is buried: whoever it preceded needs another predecessor.
        m.pred[m.top_user] = NONE
        todo.append(m.top_user)
        m.top_user = NONE
    for x in todo:
        if not _augment(node, m, x, [0, 0, 0]):
            return None
    return m


def is_dead(node: Node) -> bool:
    """Whether the predecessor matching (module docstring) proves the position lost."""
    dead = node.dead
    if dead is None:
        parent = node.parent
        move = node.move
        if parent is not None and parent.matching is not None and move is not None:
            matching = _match_from_parent(node, parent.matching, move)
        else:
            matching = _match_from_scratch(node)
        node.matching = matching
        node.parent = None
        dead = node.dead = matching is None
    return dead


class SearchCache:
    """Nodes of the positions a search is working on, so that each costs little.

    ``played`` records the last :meth:`EscalatorSearch.play` (child, parent, move), so the node
    of the child is worked out from its parent's: the parent is a position the search kept going
    from (one not proved dead), whose node is remembered, by identity, for as long as the position
    lives (a weak reference: the cache never keeps a position alive). Any search order works,
    depth-first or best-first. Results never depend on what the cache holds: positions are
    matched by identity, a node's matching is published only once complete and never changed,
    and a miss (another search on the same game, even in another thread) only costs time.
    """

    __slots__ = ("kept", "last", "nodes", "played")

    #: Remembered nodes at most (about 1 kB each), a bound on memory for searches that keep very
    #: many positions open; a depth-first search has one per move of its path.
    LIMIT = 16384

    def __init__(self) -> None:
        self.nodes: dict[int, tuple[weakref.ref[Position], Node]] = {}
        self.last: tuple[Position | None, Node | None] = (None, None)
        self.kept: tuple[Position | None, Node | None] = (None, None)
        self.played: tuple[Position | None, Position | None, Move | None] = (None, None, None)

    def __reduce__(self) -> tuple[type[SearchCache], tuple[()]]:
        """Copies and pickles start empty (weak references cannot be pickled)."""
        return (SearchCache, ())

    def _remembered(self, position: Position) -> Node | None:
        kept_position, kept_node = self.kept
        if kept_position is position:
            return kept_node
        entry = self.nodes.get(id(position))
        if entry is not None and entry[0]() is position:
            return entry[1]
        return None

    def node(self, position: Position) -> Node:
        """The node of ``position``."""
        last_position, last_node = self.last
        if last_position is position and last_node is not None:
            return last_node
        node = None
        child, parent, move = self.played
        if child is position and parent is not None and move is not None:
            # Just played: from the parent's node, if the parent is known.
            parent_node = last_node if last_position is parent else self._remembered(parent)
            if parent_node is not None:
                node = child_node(parent_node, move)
        if node is None:
            node = self._remembered(position) or node_from_scratch(position)
        self.last = (position, node)
        return node

    def remember(self, position: Position, node: Node) -> None:
        """Remember ``node`` for as long as ``position`` lives (and room lasts)."""
        nodes = self.nodes
        if len(nodes) >= self.LIMIT:
            nodes.clear()  # that many positions open: start again (misses only cost time)
        ident = id(position)

        def forget(ref: weakref.ref[Position]) -> None:
            entry = nodes.get(ident)
            if entry is not None and entry[0] is ref:
                del nodes[ident]

        nodes[ident] = (weakref.ref(position, forget), node)
        self.kept = (position, node)


class EscalatorSearch(GameSearch):
    """Escalator's search object (RULES.md Part A "Escalator"): the key, the moves and the dead
    proof of this module, worked out from a :class:`Node` per position that
    :class:`SearchCache` keeps for the search.

    :param game: an Escalator game.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        # Saves the solver work; no answer depends on it (see SearchCache).
        self.cache = SearchCache()

    def play(self, position: Position, move: Move) -> Position:
        """The game's ``play``, remembered so that the child's node is worked out from its
        parent's."""
        child = self.game.play(position, move)
        self.cache.played = (child, position, move)
        return child

    def key(self, position: Position) -> Hashable:
        """An int: which pyramid cards remain (28 bits), which of them can be played now, and
        the stock count (:func:`key`).

        Within one deal that is the whole future: the stock's order is fixed, and the waste's top
        card matters only through which pyramid cards may go on it.
        """
        return key(self.cache.node(position))

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Pyramid cards first, the deal last: ``legal_moves`` already lists them so."""
        return moves

    def moves_to_try(self, position: Position) -> list[Move]:
        """Every legal move, in ``legal_moves`` order, read from the position's cached node."""
        return moves(self.cache.node(position))

    def is_dead(self, position: Position) -> bool:
        """True when the pyramid cards cannot all be given distinct predecessors (a card of a
        next rank played just before each), which every winning line would give them; see the
        module docstring for the proof."""
        cache = self.cache
        node = cache.node(position)
        if is_dead(node):
            return True
        cache.remember(position, node)  # the search goes on from here: its children need it
        return False
