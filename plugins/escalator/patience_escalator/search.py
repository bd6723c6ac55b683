"""Escalator's search object: compact keys, the move list and a dead-position proof.

The solver (``patience_core.solve``) calls :class:`EscalatorSearch`'s ``play``, ``key``, ``is_dead``
and ``moves_to_try`` once or more per position; this module and the two it builds on make them
cheap. :mod:`patience_escalator._node` holds the compact view of a position (a :class:`Node` per
position, keys and moves), :mod:`patience_escalator._dead` the dead proof (a predecessor
matching, RULES.md Part A "Escalator"); this module holds :class:`SearchCache`, which keeps the
nodes of the positions a search works on, and the search object itself. The names the tests use
(:func:`node_from_scratch`, :func:`key`, :func:`moves`, :func:`is_dead`) are re-exported here.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable

from patience_core.api import Game, GameSearch, Move, Position
from patience_escalator._dead import is_dead
from patience_escalator._node import Node, child_node, key, moves, node_from_scratch

__all__ = ["EscalatorSearch", "Node", "SearchCache", "is_dead", "key", "moves", "node_from_scratch"]


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
