"""Spiderette's search object, the solver's exact search space, and a heuristic win finder.

Both work on a compact state: the stock count, the number of face-down cards left in each
column (the face-down cards themselves never change order, so the count says which they are),
the face-up cards of each column as the bytes of small integers (``suit * 16 + rank``, bottom
first; bytes keep their hash, so the columns a move leaves alone are not hashed again), and the
number of suits on the foundations. Play and move generation work on these tuples directly.

* :class:`Space` (:meth:`Spiderette.search_space`) is the solver's exhaustive search space: every
  legal move (:meth:`Search.all_moves`), so the solver's "dead" stays a proof.
* :meth:`Search.find` (:meth:`Spiderette.find_win`) looks for wins only. The solver replays every
  line it returns with the rules and checks that it wins, so nothing here can make a verdict
  wrong, which lets it prune moves that are rarely useful (:meth:`Search.moves`): a same-suit
  run moves whole, never split, except into an empty column while the stock still has to be
  dealt (the deal needs every column filled); a run lying on a card one rank higher is not
  moved onto another such card unless it joins its own suit; a column with no face-down card is
  not moved whole into an empty column; with the stock empty, only the first empty column is
  tried. Macro moves make up for part of that and save depth (:meth:`Search._macros`): a
  descending sequence of several same-suit runs (any suits) moves whole onto a card one rank
  higher or into an empty column when the empty columns allow (2 ** e runs with e to spare),
  and a column's whole face-up sequence is dug off in pieces (each onto a card one rank higher,
  lateral moves allowed, or into an empty column) to turn the card below or empty the column.
  A step of several pieces is a flat tuple of (source, target, count) triples;
  :meth:`Search.to_moves` expands every multi-run move into single-run moves of the game.

The win finder (figures in ``docs/games/spiderette.md``, "Solver"): the game splits into phases
at the deals (stock 24, 17, 10, 3, 0). From a position, a best-first search on a progress score
(face-down cards weigh most, then the same-suit runs that cover them, then cards not on their
same-suit successor; empty columns count in favour) explores a bounded number of positions of
its phase, novel positions first (a best-first width search: a position is novel when its move
put a card on a card, or turned one over, as no earlier position of that search with as many
face-down cards did); every position that can deal gives a candidate, the position after the
deal. Two stages share the time:

1. Two fifths of it (of the CPU seconds or of the nodes, whichever ends first) go depth first
   over the phases: the best few candidates of each phase
   are followed in turn, each searched the same way in its own phase, down to the last phase,
   where the best-first search looks for the win; the pass is repeated in a second order of the
   candidates (the best one of each set of face-down counts first: different cards turned up are
   different plans), then with twice the candidates and positions per phase. Candidates whose
   whole pruned future was searched without a win are skipped. Quick on most deals.
2. The rest goes to a beam over the phases: from every position of a level (first the root),
   search its phase; pool the deal candidates of the whole level (one per key, so candidates of
   different parents are compared with each other) and keep the best few (at most two per set
   of face-down counts first) as the next level; in the last phase, look for the win. Failing
   that, the pass is repeated with a beam twice as wide (or, when the beam left no candidate
   out, with twice the positions per phase search). Phase searches are kept across passes
   (up to ``_KEPT_CANDIDATES`` candidates), so a wider pass searches only what is new to it.

Either stage ends the search when a pass cuts nothing short: the pruned space holds no win.

The code lives in modules of its own: :mod:`patience_spiderette._piles` (the compact state and
the facts of piles), :mod:`patience_spiderette._engine` (the rules on compact states,
:class:`Engine`), :mod:`patience_spiderette._finder` (the win finder above, :class:`Search`);
this module holds the search object, the search space and :func:`find_win`, and
re-exports the names other modules use.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence

from patience_core.api import Card, GameSearch, Move, MoveKind, Position
from patience_spiderette._engine import Engine
from patience_spiderette._finder import Search
from patience_spiderette._piles import (
    _LAST_DEAL,
    COLUMNS,
    FOUNDATIONS,
    STOCK,
    State,
    Step,
    Weights,
)
from patience_spiderette.game import complete_suit

__all__ = [
    "COLUMNS",
    "FOUNDATIONS",
    "STOCK",
    "Engine",
    "Search",
    "Space",
    "SpideretteSearch",
    "State",
    "Step",
    "Weights",
    "complete_suit",
    "find_win",
    "search_space",
]


class Space:
    """The compact search space of one Spiderette position, for the solver's exhaustive
    depth-first search (:class:`patience_core.api.SearchSpace`): states and keys of
    :class:`Search`, every legal move (:meth:`Search.all_moves`), steps ``(source, target,
    count)`` of column numbers 0..6.

    :param position: as for :class:`Search`.
    :raises ValueError: as :class:`Search` does.
    """

    def __init__(self, position: Position) -> None:
        self.search = Search(position)

    def start(self) -> tuple[State, int]:
        """The position's state; nothing played before it."""
        return self.search.root, 0

    def children(self, state: State) -> Iterator[tuple[Step, State, int]]:
        """Every legal move's result, in :meth:`Search.all_moves` order."""
        play = self.search.play
        for step in self.search.all_moves(state):
            yield step, play(state, step), 1

    def key(self, state: State) -> Hashable:
        """:meth:`Search.key`."""
        return self.search.key(state)

    def is_won(self, state: State) -> bool:
        """:meth:`Search.won`."""
        return self.search.won(state)

    def is_dead(self, state: State) -> bool:
        """Never claimed (no cheap proof is known for Spiderette)."""
        return False

    def moves(self, steps: Sequence[Step]) -> list[Move]:
        """:meth:`Search.to_moves`."""
        return self.search.to_moves(steps)


def search_space(position: Position) -> Space | None:
    """The compact search space from ``position``, or ``None`` for a position no game reaches
    (a face-down card above a face-up one), which the solver then searches as positions."""
    try:
        return Space(position)
    except ValueError:
        return None


def find_win(position: Position, nodes: int, seconds: float) -> tuple[list[Move] | None, int]:
    """A winning line of Spiderette from ``position`` found by the heuristic search.

    :param nodes: positions generated at most.
    :param seconds: CPU seconds at most.
    :returns: (the moves, or ``None`` when none was found in the budget or the position is not
        one a game can reach; positions generated).
    """
    try:
        search = Search(position)
    except ValueError:
        return None, 0
    steps = search.find(nodes, seconds)
    return (None if steps is None else search.to_moves(steps)), search.nodes


#: One byte per card for the search key: 1..52 face up, 65..116 face down.
_KEY_CODE = {
    Card.of(rank, suit, up): rank * 4 + suit - 3 + (0 if up else 64)
    for rank in range(1, 14)
    for suit in range(4)
    for up in (True, False)
}


class SpideretteSearch(GameSearch):
    """Spiderette's search object (RULES.md Part A "Spiderette"): a compact key, a move order,
    the compact search space and the beam search of this module.

    :param game: a Spiderette game.
    """

    def key(self, position: Position) -> Hashable:
        """The stock count and every column's cards (face-down ones marked), as bytes.

        Within one deal that is the whole future: the stock's order is fixed, and the cards on
        the foundations are the complete suits missing from the rest (any empty foundation takes
        the next one, so which foundation holds which suit does not matter). Columns are
        interchangeable once no deal can reach them: all seven when the stock is empty, t4..t7
        when only the last 3-card deal (to t1..t3) is left; those are sorted.
        """
        stock = len(position[STOCK])
        columns = [bytes(_KEY_CODE[card] for card in position[c]) for c in COLUMNS]
        if stock == 0:
            columns.sort()
        elif stock <= _LAST_DEAL:
            columns[_LAST_DEAL:] = sorted(columns[_LAST_DEAL:])
        return bytes((stock,)) + b"\xff".join(columns)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Best first: a complete suit to a foundation; runs joining a card of their own suit;
        runs whose move turns a face-down card or empties a column; other moves onto cards;
        moves into an empty column; the deal; last, moves that split a same-suit run. Within a
        class, longer runs first. (Order only: every legal move is kept.)"""
        return sorted(moves, key=lambda move: self._move_class(position, move))

    def _move_class(self, position: Position, move: Move) -> tuple[int, int]:
        if move.kind is MoveKind.DEAL:
            return (7, 0)
        assert move.target is not None
        if move.target in FOUNDATIONS:
            return (0, 0)
        pile = position[move.source]
        bottom = pile[-move.count]
        below = pile[-move.count - 1] if len(pile) > move.count else None
        onto = position.top(move.target)
        if below is not None and below.face_up and below.rank == bottom.rank + 1:
            if below.suit == bottom.suit:
                return (8, -move.count)  # splits a same-suit run
            if onto is None or onto.suit != bottom.suit:
                return (6 if onto is None else 5, -move.count)  # same shape elsewhere
        if onto is not None and onto.suit == bottom.suit:
            return (1, -move.count)
        if below is None or not below.face_up:
            return (2 if onto is not None else 3, -move.count)
        return (4 if onto is not None else 6, -move.count)

    def search_space(self, position: Position) -> Space | None:
        """The compact search space of this module (every legal move, on small tuples: about
        twice as many positions per second as the generic search)."""
        return search_space(position)

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A winning line found by the beam search of this module (which prunes moves unsafely,
        so it never proves anything lost; the solver replays its line)."""
        return find_win(position, nodes, seconds)
