"""The spider family's search, written once for every spider variant (Spider of one, two or
four suits, Spiderette, and any declaration): a compact key with the columns no deal reaches
sorted, a move order, the solver's exact search space and a heuristic win finder.

Layer 3½ (above :mod:`patience_core.games`). Both work on a compact state: the stock count,
the number of face-down cards left in each column, the face-up cards of each column as bytes of
card codes, and the number of suits on the foundations; the declared policies (build, run,
empty column) are tables over card codes (:class:`~patience_core.families._spider_piles.Tables`),
so every declaration gets the same speed. Words below say what the standard policies make
them ("same-suit run", "a card one rank higher"); other policies read the same with their own
tables (macro moves through empty columns only when an empty column takes any card).

* :class:`Space` (:meth:`SpiderSearch.search_space`) is the solver's exhaustive search space:
  every legal move (:meth:`Engine.all_moves`), so the solver's "dead" stays a proof.
* :meth:`Finder.find` (:meth:`SpiderSearch.find_win`) looks for wins only. The solver replays every
  line it returns with the rules and checks that it wins, so nothing here can make a verdict
  wrong, which lets it prune moves that are rarely useful (:meth:`Engine.moves`): a run
  moves whole, never split, except into an empty column while the stock still has to be
  dealt (the deal needs every column filled); a run lying on a card one rank higher is not
  moved onto another such card unless it joins its own suit; a column with no face-down card is
  not moved whole into an empty column; with the stock empty, only the first empty column is
  tried. Macro moves make up for part of that and save depth (:meth:`Engine._macros`): a
  descending sequence of several same-suit runs (any suits) moves whole onto a card one rank
  higher or into an empty column when the empty columns allow (2 ** e runs with e to spare),
  and a column's whole face-up sequence is dug off in pieces (each onto a card one rank higher,
  lateral moves allowed, or into an empty column) to turn the card below or empty the column.
  A step of several pieces is a flat tuple of (source, target, count) triples;
  :meth:`Engine.to_moves` expands every multi-run move into single-run moves of the game.

The win finder (figures in ``docs/games/spiderette.md``, "Solver"): the game splits into phases
at the deals (Spiderette: stock 24, 17, 10, 3, 0). From a position, a best-first search on a
progress score (face-down cards weigh most, then the runs that cover them, then cards not on
their same-suit successor; empty columns count in favour) explores a bounded number of positions of
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

The code lives in modules of its own: :mod:`~patience_core.families._spider_piles` (compact
states, tables and the facts of piles), :mod:`~patience_core.families._spider_engine` (the rules
on compact states, :class:`Engine`), :mod:`~patience_core.families._spider_moves` (every legal
move, the dig), :mod:`~patience_core.families._spider_finder` (the win finder above,
:class:`Finder`); this module holds the search object and the search space.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING

from patience_core.families._spider_dead import stuck_for_good
from patience_core.families._spider_finder import Finder
from patience_core.families._spider_piles import State, Step, Tables
from patience_core.games import GameSearch
from patience_core.model import Card, Move, MoveKind, Position

if TYPE_CHECKING:
    from patience_core.families._spider import SpiderFamily

__all__ = ["Space", "SpiderSearch"]


def _key_code(card: Card) -> int:
    """One byte per card for the key: 1..52 face up, 65..116 face down."""
    return int(card.rank) * 4 + int(card.suit) - 3 + (0 if card.face_up else 64)


class SpiderSearch(GameSearch):
    """The spider family's search object (RULES.md Part A "Spiderette", Part B §5): a compact
    key, a move order, the compact search space (:class:`Space`) and the win finder
    (:class:`Finder`) for any spider declaration.

    :param game: a spider-family game.
    """

    game: SpiderFamily

    def __init__(self, game: SpiderFamily) -> None:
        super().__init__(game)
        #: The declaration's policies as tables over card codes.
        self.tables = Tables(game)

    def finder(self, position: Position) -> Finder | None:
        """The compact engine and win finder of ``position``, or ``None`` for a position no
        game reaches (a face-down card above a face-up one, a foundation holding anything but
        one complete suit)."""
        try:
            return Finder(self.tables, self.game.tableau, self.game.foundations, position)
        except ValueError:
            return None

    # -- the solver's helpers -----------------------------------------------------------------

    def key(self, position: Position) -> Hashable:
        """The stock count and every column's cards (face-down ones marked), as bytes.

        Within one deal that is the whole future: the stock's order is fixed, and the
        foundations hold the complete suits missing from the rest (any empty foundation takes
        the next one). Columns no deal can reach are interchangeable and sorted: all of them
        when the stock is empty, those after the last deal's reach when it is shorter than a
        round.
        """
        stock = len(position[0])
        columns = [bytes(_key_code(card) for card in position[c]) for c in self.game.tableau]
        if stock < len(columns):
            columns[stock:] = sorted(columns[stock:])
        return stock.to_bytes(2, "big") + b"\xff".join(columns)

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
        if move.target in self.game.foundations:
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
        """The compact search space (:class:`Space`: every legal move on small states, about
        twice as many positions per second as the generic search), or ``None`` for a position
        no game reaches (the solver then searches positions)."""
        finder = self.finder(position)
        return None if finder is None else Space(finder)

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A winning line found by :meth:`Finder.find` (which prunes moves unsafely, so it never
        proves anything lost; the solver replays its line).

        :param nodes: positions generated at most. :param seconds: CPU seconds at most.
        :returns: (the moves, or ``None`` when none was found in the budget or the position is
            not one a game can reach; positions generated).
        """
        finder = self.finder(position)
        if finder is None:
            return None, 0
        steps = finder.find(nodes, seconds)
        return (None if steps is None else finder.to_moves(steps)), finder.nodes


class Space:
    """The compact search space of one position for the solver's exhaustive depth-first search
    (:class:`patience_core.games.SearchSpace`): the finder's states, keys and win test, and
    every legal move (:meth:`Engine.all_moves`), so the solver's "dead" stays a proof.

    :param finder: the compact rules of the start position.
    """

    def __init__(self, finder: Finder) -> None:
        self.search = finder

    def start(self) -> tuple[State, int]:
        """The position's state; nothing played before it."""
        return self.search.root, 0

    def children(self, state: State) -> Iterator[tuple[Step, State, int]]:
        """Every legal move's result, best first (:meth:`Engine.all_moves`)."""
        play = self.search.play
        for step in self.search.all_moves(state):
            yield step, play(state, step), 1

    def key(self, state: State) -> Hashable:
        """The engine's key (the columns no deal reaches sorted)."""
        return self.search.key(state)

    def is_won(self, state: State) -> bool:
        """Every suit complete."""
        return self.search.won(state)

    def is_dead(self, state: State) -> bool:
        """Proved lost (:func:`~patience_core.families._spider_dead.stuck_for_good`: no
        column can ever empty nor a suit reach a foundation, the stock's cards counted as
        lying anywhere, and the columns are not all complete suits). Asked of every new
        state: it costs a few moves' time and, in the deals the search finds hard, cuts
        most of the positions left."""
        return stuck_for_good(self.search, state)

    def moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for ``steps`` from the start."""
        return self.search.to_moves(steps)
