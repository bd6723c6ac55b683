"""The spider family's generic search: a compact key with the columns no deal reaches sorted,
a move order, and a best-first win finder on compact states, written once for every spider
variant (Spider of one, two or four suits, Spiderette).

Layer 3½ (above :mod:`patience_core.games`). The solver's exhaustive search plays positions
through the rules (every legal move, so its "dead" stays a proof); the win finder prunes moves
that are rarely useful (a run moves whole, not split, except into an empty column or to join
its own suit) and follows the lowest progress score first (face-down cards weigh most, then
the cards not on their same-suit successor; empty columns count in favour). The solver replays
every line it returns with the rules, so its pruning can never make a verdict wrong.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from patience_core.families._spider_finder import Finder, code
from patience_core.games import GameSearch
from patience_core.model import Card, Move, MoveKind, Position

if TYPE_CHECKING:
    from patience_core.families._spider import SpiderFamily

__all__ = ["SpiderSearch"]


def _key_code(card: Card) -> int:
    """One byte per card for the key: 1..52 face up, 65..116 face down."""
    return int(card.rank) * 4 + int(card.suit) - 3 + (0 if card.face_up else 64)


class SpiderSearch(GameSearch):
    """The spider family's search object: :meth:`key`, :meth:`order_moves` and
    :meth:`find_win` for any spider declaration.

    :param game: a spider-family game.
    """

    game: SpiderFamily

    def __init__(self, game: SpiderFamily) -> None:
        super().__init__(game)
        cards = {code(card): card.turned(True) for card in game.new_deck()}
        # The policies as tables over card codes (card, onto): the finder never builds a Card.
        pairs = list(itertools.product(sorted(cards), repeat=2))
        self.fits = frozenset((a, b) for a, b in pairs if game.fits(cards[a], cards[b]))
        self.joins = frozenset((a, b) for a, b in pairs if game.joins(cards[a], cards[b]))
        self.accepts = frozenset(a for a in cards if game.accepts(cards[a]))

    # -- the solver's helpers -----------------------------------------------------------------

    def key(self, position: Position) -> Hashable:
        """The stock count and every column's cards (face-down ones marked), as bytes.

        Within one deal that is the whole future: the stock's order is fixed, and the
        foundations hold the complete suits missing from the rest (any empty foundation takes
        the next one). Columns no deal can reach are interchangeable and sorted: all of them
        when the stock is empty, those after the last deal's reach when it is shorter than a
        round.
        """
        game = self.game
        stock = len(position[0])
        columns = [bytes(_key_code(card) for card in position[c]) for c in game.tableau]
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

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A winning line found by the best-first search of :class:`Finder` (which prunes
        moves, so it never proves anything lost; the solver replays its line)."""
        try:
            finder = Finder(self, position)
        except ValueError:
            return None, 0
        steps = finder.find(nodes, seconds)
        return (None if steps is None else finder.to_moves(steps)), finder.nodes
