"""Baker's Game's search object (:class:`BakersGameSearch`): fast move generation and play, a
compact key and the moves worth trying (RULES.md Part B §3).

The fast functions live in modules of their own: :mod:`patience_bakers_game._rules` (pile indices
and :func:`legal_moves`), :mod:`patience_bakers_game._play` (:func:`play`, :class:`Piles`,
:data:`Summary`, :func:`solver_key`) and :mod:`patience_bakers_game._order` (:func:`order_moves`
and :func:`solver_moves`); this module holds the search object and re-exports them.

The solver (``patience_core.solve``) spends nearly all its time in :meth:`GameSearch.play`,
:meth:`GameSearch.key` and :meth:`GameSearch.moves_to_try`. The functions here compute exactly what
the generic building blocks (:func:`run_moves`, :func:`move_cards`, :func:`auto_play`) compute, on
the tuples of a position directly; the rule tests compare them with the generic versions move for
move. :func:`play` returns positions whose piles (:class:`Piles`, a plain tuple to everyone else)
carry a :data:`Summary`: one character per card for every pile, the run at the top of each, what
each foundation takes next and the solver key, each derived from the previous position's in a few
steps, so the next play, key and move generation start from it.

Why the search object's members are sound (each is tested against a search without it):

* :func:`solver_key` keeps the free cells as a sorted set of cards and the columns as a sorted list
  of card strings, and leaves the foundations out. Free cells are interchangeable (any empty one
  may be chosen), and so are columns (the rules never name a column: every column takes the same
  cards, and the supermove limit counts only how many are empty). The foundations are the cards in
  no cell or column, and which foundation holds a suit never matters (a card goes to the one that
  takes it). So positions with equal keys have the same legal lines, up to renaming piles.
* :func:`solver_moves` leaves out only moves whose result has the key of the position or of a
  kept move's result (a free-cell card into another free cell, a whole column into an empty
  column, a card into any but the first empty free cell or empty column).
* No ``forced_move``: every foundation move is already made by auto-play in :func:`play`
  (safe in Baker's Game: a card on a foundation is never needed, since the only card that could be
  built on it, one rank lower in the same suit, is already home). Putting a free-cell card onto
  its parent is *not* safe: a line may need that card and its parent both in free cells, to dig
  beneath the parent when no column is free.
* No ``is_dead``: a sound proof was measured and dropped. With every free cell full and no
  column empty, the game is lost if even runs of any length moving onto their parents could
  never empty a cell or column (those moves never disable one another, so one closure decides);
  it cut about 1% of the positions of dead deals and cost more time than it saved.
"""

from __future__ import annotations

from collections.abc import Hashable

from patience_bakers_game._order import order_moves, solver_moves
from patience_bakers_game._play import Piles, Summary, play, solver_key, summarise, text_run
from patience_bakers_game._rules import (
    AUTO_SOURCES,
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    homes,
    legal_moves,
    run_length,
    transfer,
)
from patience_core.api import Game, GameSearch, Move, Position

__all__ = [
    "AUTO_SOURCES",
    "CELLS",
    "COLUMNS",
    "FOUNDATIONS",
    "BakersGameSearch",
    "Piles",
    "Summary",
    "homes",
    "legal_moves",
    "order_moves",
    "play",
    "run_length",
    "solver_key",
    "solver_moves",
    "summarise",
    "text_run",
    "transfer",
]


class BakersGameSearch(GameSearch):
    """Baker's Game's search object: the fast :func:`play`, :func:`solver_key`,
    :func:`order_moves` and :func:`solver_moves` re-exported here (soundness: the module
    docstring). A position these cannot read (malformed foundations, from a file) is played by
    the game's own rules.

    :param game: a Baker's Game game (either ``empty-columns`` option).
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.kings_only = game.option("empty-columns") == "kings"

    def key(self, position: Position) -> Hashable:
        """A string: the free-cell cards sorted, then the columns' card strings sorted; the
        foundations are left out (they hold exactly the cards found nowhere else)."""
        return solver_key(position.piles)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Foundation moves, then a column's run onto the next card up in suit or its top card
        into a free cell, those that empty a column or uncover a card for a foundation first, then
        runs into an empty column, then free-cell cards onto columns (:func:`order_moves`)."""
        return order_moves(position.piles, moves)

    def moves_to_try(self, position: Position) -> list[Move]:
        """:meth:`order_moves` of the legal moves, less those whose result the key cannot tell
        from the position's or from a kept move's (a free-cell card into another free cell, a
        whole column into an empty column, a card into any but the first empty free cell or
        empty column)."""
        moves = solver_moves(position.piles, self.kings_only)
        if moves is None:
            return self.order_moves(position, self.game.legal_moves(position))
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """The game's ``play`` (the move, then auto-play), computed by :func:`play`."""
        moved = play(position.piles, move)
        return self.game.play(position, move) if moved is None else moved
