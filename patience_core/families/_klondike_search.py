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
* :meth:`KlondikeSearch.find_win`: a depth-first search over macro moves (deal k times, then
  play the waste's card) with unsafe pruning, which finds most wins soon
  (``_klondike_finder``).

No dead-end proof is claimed: every cheap one we know fails for some variant of the family
(an empty column policy of ``any``, foundation cards coming back, several decks).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from patience_core.engine import foundation_accepts
from patience_core.games import GameSearch
from patience_core.model import Card, Move, MoveKind, PileKind, Position

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

    def key(self, position: Position) -> Hashable:
        """The pass in play, the stock and waste, the foundations as sorted (suit, height)
        pairs, and the columns sorted, each column as bytes (a face-down card offset by 128)."""
        game = self.game
        k = game.current_pass(position)
        stock = bytes(_code(c) for c in position[2 * k])
        waste = bytes(_code(c) for c in position[2 * k + 1])
        foundations = tuple(
            sorted(
                (position[f][-1].suit, len(position[f])) for f in game.foundations if position[f]
            )
        )
        columns = tuple(
            sorted(bytes(_code(c) + (0 if c.face_up else 128) for c in position[t])
                   for t in game.tableau)
        )  # fmt: skip
        return (k, stock, waste, foundations, columns)

    def forced_move(self, position: Position) -> Move | None:
        """A safe card (:func:`safe_to_foundation`) from a column's top, or from the waste when
        one card is dealt at a time (with three, taking a waste card shifts the later deals, so
        it is not free), to its foundation."""
        game = self.game
        sources = list(game.tableau)
        if self._draw_one:
            sources.insert(0, game.wastes[game.current_pass(position)])
        for source in sources:
            pile = position[source]
            if not pile or not pile[-1].face_up:
                continue
            card = pile[-1]
            for f in game.foundations:
                if foundation_accepts(card, position[f]):
                    if safe_to_foundation(game, position, card):
                        return Move.transfer(source, f)
                    break
        return None

    def moves_to_try(self, position: Position) -> list[Move]:
        """The legal moves but those whose result another kept move's key already gives, best
        first: to the foundations, moves that turn a card or empty a column, the waste's card,
        other runs, the deal, and foundation cards coming back last."""
        game = self.game
        seen: set[tuple[int, int, int]] = set()
        scored: list[tuple[int, int, Move]] = []
        piles = game.piles
        for index, move in enumerate(game.legal_moves(position)):
            if move.kind is MoveKind.DEAL:
                scored.append((5, index, move))
                continue
            assert move.target is not None
            target_pile = position[move.target]
            source_pile = position[move.source]
            kind = piles[move.target].kind
            if not target_pile:
                # Every empty foundation or column is alike: try the card in the first only.
                same = (move.source, move.count, 0 if kind is PileKind.FOUNDATION else 1)
                if same in seen:
                    continue
                seen.add(same)
                if kind is PileKind.TABLEAU and move.count == len(source_pile):
                    continue  # a whole column into an empty one: the same sorted columns
            source_kind = piles[move.source].kind
            if kind is PileKind.FOUNDATION:
                rank = 0
            elif source_kind is PileKind.FOUNDATION:
                if not self._takes_any(position, source_pile[-1], (move.target,)):
                    continue  # nothing would go on the card brought back
                rank = 6
            elif source_kind is PileKind.WASTE:
                rank = 2
            elif move.count == len(source_pile) or not source_pile[-move.count - 1].face_up:
                rank = 1
            else:
                exposed = source_pile[-move.count - 1]
                if not any(foundation_accepts(exposed, position[f]) for f in game.foundations) and (
                    not self._takes_any(position, exposed, (move.source, move.target))
                ):
                    continue  # the card it uncovers would serve nothing at once
                rank = 3
            scored.append((rank, index, move))
        scored.sort(key=lambda item: (item[0], item[1]))
        return [move for _, _, move in scored]

    def _takes_any(self, position: Position, card: Card, besides: tuple[int, ...]) -> bool:
        """Whether some card in play could go on ``card`` now: the waste's top card, a
        foundation's top card (when they come back), or a card of a column's run, the columns
        of ``besides`` left out."""
        game = self.game
        fits = game.fits
        waste = position[game.wastes[game.current_pass(position)]]
        if waste and fits(waste[-1], card):
            return True
        if game.foundation_to_tableau and any(
            position[f] and fits(position[f][-1], card) for f in game.foundations
        ):
            return True
        for t in game.tableau:
            if t in besides:
                continue
            pile = position[t]
            for i in range(1, game.run_length(pile) + 1):
                if fits(pile[-i], card):
                    return True
        return False

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A depth-first search over macro moves (deals, then a card played) with unsafe
        pruning: it finds most wins soon, and never says "dead" (see ``_klondike_finder``)."""
        from patience_core.families._klondike_finder import find_klondike_win

        return find_klondike_win(self, position, nodes, seconds)


def _code(card: Card) -> int:
    return (card.rank - 1) * 4 + card.suit
