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
from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING

from patience_core.families._spider_finder import _DEAL, Finder, State, Step, code
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
        self.cards = tuple(sorted(cards))

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

    def search_space(self, position: Position) -> Space | None:
        """The compact search space (:class:`Space`: every legal move on the finder's small
        states), or ``None`` for a position no game reaches."""
        try:
            return Space(Finder(self, position))
        except ValueError:
            return None

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


class Space:
    """The compact search space of one position for the solver's exhaustive depth-first search
    (:class:`patience_core.games.SearchSpace`): the finder's states, keys and win test, and
    every legal move (:meth:`all_steps`), so the solver's "dead" stays a proof.

    :param finder: the compact rules of the start position.
    """

    def __init__(self, finder: Finder) -> None:
        self.finder = finder

    def start(self) -> tuple[State, int]:
        """The position's state; nothing played before it."""
        return self.finder.root, 0

    def children(self, state: State) -> Iterator[tuple[Step, State, int]]:
        """Every legal move's result, best first (:meth:`all_steps`)."""
        play = self.finder.play
        for step in self.all_steps(state):
            yield step, play(state, step), 1

    def all_steps(self, state: State) -> list[Step]:
        """Every legal move as a compact step: a complete suit to a foundation first, then runs
        joining their own suit, other runs onto cards, runs into empty columns, the deal."""
        finder = self.finder
        stock, _, ups, homes = state
        home: list[Step] = []
        joins: list[Step] = []
        onto: list[Step] = []
        empty: list[Step] = []
        for s, pile in enumerate(ups):
            if not pile:
                continue
            k, _, complete, _ = finder.facts(pile)
            if complete and homes < finder.homes:
                home.append((s, -1, 13))
            for t, other in enumerate(ups):
                if t == s:
                    continue
                if not other:
                    empty += [(s, t, c) for c in range(k, 0, -1) if pile[-c] in finder.accepts]
                    continue
                top = other[-1]
                for c in range(k, 0, -1):
                    if (pile[-c], top) in finder.joins:
                        joins.append((s, t, c))
                    elif (pile[-c], top) in finder.fits:
                        onto.append((s, t, c))
        steps = home + joins + onto + empty
        if stock and (finder.game.deal_onto_empty or all(ups)):
            steps.append(_DEAL)
        return steps

    def key(self, state: State) -> Hashable:
        """The finder's key (the columns no deal reaches sorted)."""
        return self.finder.key(state)

    def is_won(self, state: State) -> bool:
        """Every suit complete."""
        return self.finder.won(state)

    def is_dead(self, state: State) -> bool:
        """Never claimed: no cheap proof holds for the family."""
        return False

    def moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for ``steps`` from the start."""
        return self.finder.to_moves(steps)
