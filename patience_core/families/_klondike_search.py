"""The klondike family's generic search: every variant of the family gets it.

Layer 3½ (above :mod:`patience_core.games`). The solver is "thoughtful": it sees every card, face
down ones and the stock's order too (RULES.md Part A, "Hints are honest", is the hint's business,
which samples the unseen cards). What this object adds to the plain search over the rules:

* :meth:`KlondikeSearch.key`: a compact key in which the columns are sorted (two columns that
  swapped places have the same future, up to their names) and the foundations are given by suit
  and height (which foundation holds the hearts does not matter);
* :meth:`KlondikeSearch.forced_move`: a card no other card can need goes to its foundation
  without branching (:func:`safe_to_foundation`);
* :meth:`KlondikeSearch.moves_to_try`: leaves out moves whose result has the key of a move
  kept or of the position itself (a second empty foundation or column for the same card, a whole
  column moved into an empty one), and, as this family's own claim (docs/search-api.md), moves
  that serve nothing at once: a foundation card brought back when no card in play could go on
  it, and part of a run moved when the card it uncovers (face up) neither goes to its
  foundation nor takes a card in play. A line that needs such a move can, we hold, make it
  later, once it serves (nothing else can use the cards it would cover or uncover meanwhile);
* :meth:`KlondikeSearch.order_moves`: the order of ``moves_to_try``, the moves it leaves out
  last, so that an honest hint's ties go to real moves (and the rule against circles counts a
  foundation card it leaves out as leading back: ``patience_core.solve._circles``); the moves
  themselves come from card tables (``_klondike_moves``);
* :meth:`KlondikeSearch.find_win`: a depth-first search over macro moves (deal k times, then
  play the waste's card) with unsafe pruning, which finds most wins soon
  (``_klondike_finder``).

No dead-end proof is claimed: every cheap one we know fails for some variant of the family
(an empty column policy of ``any``, foundation cards coming back, several decks).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from patience_core.families._klondike_moves import KlondikeTables, ranked_moves
from patience_core.games import GameSearch
from patience_core.model import Card, Move, Position

if TYPE_CHECKING:
    from patience_core.families._klondike import KlondikeFamily

__all__ = ["KlondikeSearch", "safe_to_foundation"]


def safe_to_foundation(game: Any, position: Position, card: Card) -> bool:
    """Whether ``card``, which its foundation takes, may go there without losing any win: an
    Ace or a Two, or a card of rank r when every foundation of the other colour holds r-1
    cards or more and every other foundation of its colour r-2 or more. Then every card that
    could go on it (and every card that could go on those) is on the foundations already, so
    it is never needed in the tableau. With a foundation still empty (its suit unknown) only
    Aces and Twos are safe.

    :param game: a :class:`~patience_core.families.KlondikeFamily` game (its ``foundations``).
    """
    if card.rank <= 2:
        return True
    for f in game.foundations:
        pile = position[f]
        if not pile:
            return False
        # The card's own foundation holds r-1 cards: it passes the same-colour test.
        need = card.rank - 1 if pile[-1].is_red != card.is_red else card.rank - 2
        if pile[-1].rank < need:
            return False
    return True


class KlondikeSearch(GameSearch):
    """The search object of every klondike-family game (see the module's text).

    :param game: a :class:`~patience_core.families.KlondikeFamily` game.
    """

    game: KlondikeFamily

    def __init__(self, game: KlondikeFamily) -> None:
        super().__init__(game)
        self._draw_one = game.draw == 1
        #: The build, empty-column and foundation rules as card tables (fast lookups).
        self.tables = KlondikeTables(game)

    def key(self, position: Position) -> Hashable:
        """The pass in play, the stock and waste, the foundations as sorted (suit, height)
        pairs, and the columns sorted, each column as bytes (a face-down card offset by 128)."""
        game = self.game
        piles = position.piles
        code = self.tables.code.__getitem__
        k = game.current_pass(position)
        stock = bytes(map(code, piles[2 * k]))
        waste = bytes(map(code, piles[2 * k + 1]))
        foundations = tuple(
            sorted((piles[f][-1].suit, len(piles[f])) for f in game.foundations if piles[f])
        )
        columns = tuple(sorted(bytes(map(code, piles[t])) for t in game.tableau))
        return (k, stock, waste, foundations, columns)

    def forced_move(self, position: Position) -> Move | None:
        """A safe card (:func:`safe_to_foundation`) from a column's top, or from the waste when
        one card is dealt at a time (with three, taking a waste card shifts the later deals, so
        it is not free), to its foundation."""
        game = self.game
        piles = position.piles
        homes = self.tables.homes(piles, game.foundations)
        if self._draw_one:
            sources: tuple[int, ...] = (game.wastes[game.current_pass(position)], *game.tableau)
        else:
            sources = game.tableau
        for source in sources:
            pile = piles[source]
            if not pile or not pile[-1].face_up:
                continue
            card = pile[-1]
            target = homes.get(card)
            if target is not None and safe_to_foundation(game, position, card):
                return Move.transfer(source, target)
        return None

    def moves_to_try(self, position: Position) -> list[Move]:
        """The legal moves but those whose result another kept move's key already gives, best
        first: to the foundations, moves that turn a card or empty a column, the waste's card,
        other runs, the deal, and foundation cards coming back last; and but the moves that
        serve nothing at once (see the module) (:func:`ranked_moves`)."""
        return ranked_moves(self.game, self.tables, position)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """``moves`` in the order of :meth:`moves_to_try`, those it leaves out last (in their
        given order): a foundation card brought back when nothing could go on it, say, is no
        better than the move that leaves it there, and must lose a tie to every real move (an
        honest hint ranks moves by ties of shares and of expected scores)."""
        tried = {move: index for index, move in enumerate(self.moves_to_try(position))}
        last = len(tried)
        return sorted(moves, key=lambda move: tried.get(move, last))

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A depth-first search over macro moves (deals, then a card played) with unsafe
        pruning: it finds most wins soon, and never says "dead" (see ``_klondike_finder``)."""
        from patience_core.families._klondike_finder import find_klondike_win

        return find_klondike_win(self, position, nodes, seconds)
