"""The rules of Golf, with the rule variants black-hole-solver knows.

Golf: seven columns of five face-up cards, a waste started with one card, a 16-card stock. A
column's top card may go onto the waste when its rank is one above or one below the waste's top
card. By default nothing goes on a King and a King goes on nothing but a Queen (no wrap);
``wrap=yes`` makes King and Ace adjacent; ``queen-on-king=yes`` lets a Queen go on a King (and
nothing else changes). Built with the public plugin API only (patience_core.api).
"""

from __future__ import annotations

from patience_core.api import (
    BoardLayout,
    BoardRow,
    Card,
    Game,
    GameOption,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    Rank,
    adjacent_ranks,
)

STOCK, WASTE, FIRST_COLUMN = 0, 1, 2
COLUMNS, DEPTH = 7, 5

RULES = """\
Golf

Layout: seven columns of five face-up cards; one card face up on the waste; a face-down stock of
16 cards.

Play: the top card of any column may go onto the waste if its rank is one above or one below the
waste's top card, in any suit. 'deal' turns the top stock card onto the waste. There is no redeal.

Standard rules: nothing may be played on a King (a King ends the run), and King and Ace are not
adjacent. Options: wrap=yes makes King and Ace adjacent (A on K, K on A); queen-on-king=yes
allows a Queen on a King.

Won when every column is empty, even with cards left in the stock. Lost when no move is left.
Score: cards cleared from the columns (35 at most).

Moves: a card's name (e.g. 9h) plays it to the waste; 'deal' (or 'd') turns a stock card.
"""

_YES_NO = ("no", "yes")


class Golf(Game):
    """Golf: clear seven columns onto the waste by ranks one apart.

    Piles: ``s`` stock, ``w`` waste, ``t1``..``t7`` columns.
    """

    name = "golf"
    title = "Golf"
    max_score = COLUMNS * DEPTH
    rules = RULES
    options = (
        GameOption("wrap", _YES_NO, "no", "King and Ace are adjacent"),
        GameOption("queen-on-king", _YES_NO, "no", "a Queen may go on a King"),
    )
    #: For the full-screen player: the columns, then the stock and waste centred under them
    #: (indents are in half card places). Without it, stock and waste would go on top.
    board = BoardLayout(
        [
            BoardRow([f"t{k}" for k in range(1, COLUMNS + 1)], fan="down"),
            BoardRow(["s", "w"], indent=COLUMNS - 2),
        ]
    )

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stock, waste, then the seven columns."""
        return (
            PileSpec("s", PileKind.STOCK),
            PileSpec("w", PileKind.WASTE),
            *(PileSpec(f"t{i}", PileKind.TABLEAU) for i in range(1, COLUMNS + 1)),
        )

    def layout(self, cards: list[Card]) -> Position:
        """Five cards to each column (the first card dealt at the bottom of column 1), one card
        to the waste, the other 16 face down to the stock."""
        columns = [tuple(cards[i * DEPTH : (i + 1) * DEPTH]) for i in range(COLUMNS)]
        dealt = COLUMNS * DEPTH
        stock = tuple(card.turned(False) for card in reversed(cards[dealt + 1 :]))
        return Position((stock, (cards[dealt],), *columns))

    def fits(self, card: int, waste: int) -> bool:
        """Whether a card of rank ``card`` may go on a waste card of rank ``waste``."""
        if waste == Rank.KING and self.option("wrap") == "no":
            return card == Rank.QUEEN and self.option("queen-on-king") == "yes"
        return adjacent_ranks(card, waste, wrap=self.option("wrap") == "yes")

    def legal_moves(self, position: Position) -> list[Move]:
        """Column tops that fit the waste, then the deal."""
        if self.is_won(position):
            return []
        top = position[WASTE][-1].rank
        moves = [
            Move.transfer(index, WASTE)
            for index in range(FIRST_COLUMN, FIRST_COLUMN + COLUMNS)
            if position[index] and self.fits(position[index][-1].rank, top)
        ]
        if position[STOCK]:
            moves.append(Move.deal(STOCK))
        return moves

    def why_illegal(self, position: Position, move: Move) -> str:
        """Golf's rules a refused move breaks: a covered card, a card not in the columns, a
        rank not one from the waste's, and the rule of Kings (``wrap``, ``queen-on-king``)."""
        if move.kind is MoveKind.DEAL:
            return (
                "the stock is empty" if not position[STOCK] else super().why_illegal(position, move)
            )
        pile = position[move.source]
        if move.source == WASTE and pile and (move.target or 0) >= FIRST_COLUMN:
            return "cards never go from the waste back to the columns"
        if move.source < FIRST_COLUMN or not pile or not 0 < move.count <= len(pile):
            if pile and move.source < FIRST_COLUMN and move.count <= len(pile):
                return f"{self.card_name(pile[-move.count])} is not in the columns"
            return super().why_illegal(position, move)
        card = pile[-move.count]
        name = self.card_name(card)
        if move.count > 1:
            covering = " and ".join(self.card_name(c) for c in pile[-move.count + 1 :][:3])
            return f"{name} is covered by {covering}"
        if move.target != WASTE:
            return "a column's top card goes only onto the waste"
        top = position[WASTE][-1]
        if top.rank == Rank.KING and self.option("wrap") == "no":
            if self.option("queen-on-king") == "yes":
                return f"only a Queen goes on a King, not {name}"
            return "nothing goes on a King (without the wrap option)"
        if {card.rank, top.rank} == {Rank.ACE, Rank.KING}:
            return "a King and an Ace are not one apart (without the wrap option)"
        return f"{name} is not one rank from {self.card_name(top)}"

    def play(self, position: Position, move: Move) -> Position:
        """Move a column's top card, or the stock's, onto the waste."""
        source = STOCK if move.kind is MoveKind.DEAL else move.source
        card = position[source][-1].turned(True)
        return position.replace(
            [(source, position[source][:-1]), (WASTE, position[WASTE] + (card,))]
        )

    def is_won(self, position: Position) -> bool:
        """Every column is empty."""
        return not any(position.piles[FIRST_COLUMN:])

    def score(self, position: Position) -> int:
        """Cards cleared from the columns."""
        return self.max_score - sum(len(pile) for pile in position.piles[FIRST_COLUMN:])
