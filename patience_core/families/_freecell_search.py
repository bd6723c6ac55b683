"""The free-cell family's search object (:class:`FreeCellSearch`), written once for every variant:
fast move generation and play, a canonical key, the moves worth trying, and safe automatic
moves. Generalised from Baker's Game's search (RULES.md Part B §3).

The fast functions live in :mod:`patience_core.families._freecell_fast` (:class:`Shape`,
:func:`play`, :class:`Piles`, :func:`solver_key`) and
:mod:`patience_core.families._freecell_order` (:func:`order_moves`, :func:`solver_moves`). They
apply to variants with one standard deck; any other deck is searched through the rules.

Why the members are sound (each is tested against a search without it):

* :func:`solver_key` keeps the free cells as a sorted set of cards and the columns as a sorted
  list of card strings, and leaves the foundations out. Free cells are interchangeable (any
  empty one may be chosen), and so are columns (the rules never name a column: every column
  takes the same cards, and the supermove limit counts only how many are empty). The
  foundations are the cards in no cell or column, and which foundation holds a suit never
  matters (a card goes to the one that takes it).
* :func:`solver_moves` leaves out only moves whose result has the key of the position or of a
  kept move's result (a free-cell card into another free cell, a whole column into an empty
  column, a card into any but the first empty free cell or empty column).
* Auto-play is part of every move (the rules'); under ``auto-play = "none"``,
  :class:`ManualFreeCellSearch` plays a card home when no card that could go on it is still
  out (a dominance move: nothing can ever need it, and its place is freed). Under same-suit
  building every card that fits its foundation is safe, so Baker's Game's ``all`` loses nothing.
  A free-cell card onto its parent is *not* safe to force: a line may need both in free cells.
* No ``is_dead``: a sound proof was measured on Baker's Game and dropped (with every free cell
  full and no column empty, lost if no closure of run moves onto parents empties a cell or
  column): it cut about 1% of the positions of dead deals and cost more time than it saved.
  Dead deals are proved by exhausting the canonical search space.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from patience_core.families._freecell_fast import Piles, Shape, play, solver_key, summarise
from patience_core.families._freecell_find import best_first
from patience_core.families._freecell_order import order_moves, solver_moves
from patience_core.games import Game, GameSearch
from patience_core.model import Move, Position

if TYPE_CHECKING:
    from patience_core.families._freecell import FreeCellFamily

__all__ = [
    "FindingFreeCellSearch",
    "FreeCellSearch",
    "ManualFindingFreeCellSearch",
    "ManualFreeCellSearch",
    "Piles",
    "Shape",
    "order_moves",
    "play",
    "search_class",
    "solver_key",
    "solver_moves",
    "summarise",
]


class FreeCellSearch(GameSearch):
    """The free-cell family's search object (soundness: the module docstring). A position the
    fast functions cannot read (malformed foundations, from a file), or a variant whose deck is
    not one standard deck, is played by the game's own rules.

    :param game: a :class:`~patience_core.families.FreeCellFamily` game.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.family: FreeCellFamily = game  # type: ignore[assignment]
        #: The variant's compact description for the fast functions.
        self.shape = Shape(self.family)

    def key(self, position: Position) -> Hashable:
        """A string: the free-cell cards sorted, then the columns' card strings sorted; the
        foundations are left out (they hold exactly the cards found nowhere else)."""
        return solver_key(self.shape, position.piles)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Foundation moves, then a column's run onto a card or its top card into a free cell,
        those that empty a column or uncover a card for a foundation first, then runs into an
        empty column, then free-cell cards onto columns (:func:`order_moves`)."""
        return order_moves(self.shape, position.piles, moves)

    def moves_to_try(self, position: Position) -> list[Move]:
        """:meth:`order_moves` of the legal moves, less those whose result the key cannot tell
        from the position's or from a kept move's."""
        moves = solver_moves(self.shape, position.piles) if self.shape.fast else None
        if moves is None:
            return order_moves(self.shape, position.piles, self.game.legal_moves(position), True)
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """The game's ``play`` (the move, then auto-play), computed by :func:`play`."""
        moved = play(self.shape, position.piles, move) if self.shape.fast else None
        return self.game.play(position, move) if moved is None else moved


class ManualFreeCellSearch(FreeCellSearch):
    """:class:`FreeCellSearch` for variants without auto-play (``auto-play = "none"``): safe
    cards go home as forced moves (dominance; module docstring). A class of its own, so that
    the solver asks for forced moves only where some exist."""

    def forced_move(self, position: Position) -> Move | None:
        """The first card (cells, then columns) that goes home and that no card still out
        could go on (the rules' safe auto-play rule, :meth:`FreeCellFamily.is_safe_home`)."""
        family = self.family
        for source in family.sources:
            home = family.home(position, source)
            if home is not None and family.is_safe_home(position, position[source][-1]):
                return Move.transfer(source, home)
        return None


class FindingFreeCellSearch(FreeCellSearch):
    """:class:`FreeCellSearch` with a best-first search for wins (:func:`best_first`), for
    variants whose cards go on more than one card (FreeCell): there the depth-first search may
    wander long before its first win. Same-suit variants (Baker's Game) do without: their
    depth-first search is quick, and dead deals keep the whole budget."""

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """:func:`best_first` from ``position`` (it may miss wins; never says dead)."""
        if not self.shape.fast:
            return None, 0
        return best_first(self.shape, position, nodes, seconds)


class ManualFindingFreeCellSearch(ManualFreeCellSearch, FindingFreeCellSearch):
    """Both :class:`ManualFreeCellSearch`'s forced moves and the best-first search for wins."""


def search_class(manual: bool, finding: bool) -> type[FreeCellSearch]:
    """The search class for a variant: with forced safe moves when the rules have no auto-play
    (``manual``), with the best-first search when a card may go on more than one (``finding``).
    """
    return {
        (False, False): FreeCellSearch,
        (True, False): ManualFreeCellSearch,
        (False, True): FindingFreeCellSearch,
        (True, True): ManualFindingFreeCellSearch,
    }[(manual, finding)]
