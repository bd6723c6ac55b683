"""The golf family: clear a tableau of covered cards onto a waste pile, by ranks one apart.

Layer 3½ (above :mod:`patience_core.games`). Golf (columns of five cards), Escalator (a pyramid
of 28 cards, RULES.md Part A "Escalator") and their kin share one set of rules: a tableau card
that no card covers may go onto the waste when its rank is one above or one below the waste's
top card (King and Ace adjacent or not; a Queen on a King or not); the stock turns its cards onto
the waste; the game is won as soon as the tableau is empty, even with stock left. A variant
declares its shape and rules as parameters (docs/families.md, "The golf family")::

    class Escalator(GolfFamily):
        name = "escalator"
        title = "Escalator"
        tableau = "pyramid"
        waste_start = 0
        wrap = True

The family's search (:mod:`patience_core.families._golf_search`) solves every variant.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any, ClassVar

from patience_core.engine import counted
from patience_core.errors import BadSave
from patience_core.families._base import Family, Parameter
from patience_core.families._golf_search import GolfSearch
from patience_core.families._golf_shape import SHAPES, Shape, shape
from patience_core.families._policies import POLICIES
from patience_core.games import BoardLayout, BoardRow, Painter
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position, Rank

__all__ = ["GolfFamily"]

STOCK, WASTE, FIRST = 0, 1, 2
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    return _NUMBERS[n] if n < len(_NUMBERS) else str(n)


class GolfFamily(Family):
    """A golf-family game: the rules follow from the parameters below (class attributes; a
    :class:`~patience_core.games.GameOption` named like a ``bool`` parameter sets it per game,
    ``yes`` or ``no``, as Golf's ``wrap`` option does).

    Piles: ``s`` stock, ``w`` waste, then the tableau: ``t1``.. (columns) or ``p1``.. (pyramid
    places, apex first, in Aisleriot's slots).
    """

    family = "golf"
    parameters = (
        Parameter("tableau", "choice", "columns", "the tableau's shape", choices=SHAPES),
        Parameter("columns", "int", 7, "columns, for the columns shape", low=1, high=12),
        Parameter("depth", "int", 5, "cards per column, for the columns shape", low=1, high=12),
        Parameter("rows", "int", 7, "rows, for the pyramid shape", low=1, high=12),
        Parameter("waste-start", "int", 1, "cards turned onto the waste at the deal", high=1),
        Parameter("deal-size", "int", 1, "stock cards turned onto the waste a deal", low=1, high=3),
        Parameter("wrap", "bool", False, "King and Ace are adjacent"),
        Parameter("queen-on-king", "bool", False, "without wrap: a Queen may go on a King"),
        Parameter("deck", "deck", "standard", "the deck"),
    )
    search_class = GolfSearch
    tableau: ClassVar[str]
    columns: ClassVar[int]
    depth: ClassVar[int]
    rows: ClassVar[int]
    waste_start: ClassVar[int]
    deal_size: ClassVar[int]
    wrap: bool
    queen_on_king: bool
    deck: ClassVar[str]
    #: The tableau's places and the piles (set for every variant whose parameters are right).
    shape: ClassVar[Shape]
    _piles: ClassVar[tuple[PileSpec, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if super().declaration_problem() is not None:
            return  # a parameter's value is wrong: the registry reports it, nothing is built
        cls.shape = shape(cls.tableau, cls.columns, cls.depth, cls.rows)
        cls.max_score = cls.shape.size
        pyramid = cls.tableau == "pyramid"
        names = [f"{'p' if pyramid else 't'}{k}" for k in range(1, cls.shape.piles + 1)]
        cls._piles = (
            PileSpec("s", PileKind.STOCK, 0 if pyramid else None),
            PileSpec("w", PileKind.WASTE, 1 if pyramid else None),
            *(
                PileSpec(n, PileKind.TABLEAU, FIRST + k if pyramid else None)
                for k, n in enumerate(names)
            ),
        )
        if "board" in cls.__dict__:
            return
        if pyramid:
            # Covered rows, each half a card place further in, then the stock and waste.
            rows = [
                BoardRow(
                    names[r * (r - 1) // 2 : r * (r + 1) // 2], indent=cls.rows - r, covered=True
                )
                for r in range(1, cls.rows + 1)
            ]
            cls.board = BoardLayout([*rows, BoardRow(["s", "w"], indent=max(cls.rows - 2, 0))])
        else:
            cls.board = BoardLayout(
                [BoardRow(names, fan="down"), BoardRow(["s", "w"], indent=max(cls.columns - 2, 0))]
            )

    @classmethod
    def declaration_problem(cls) -> str | None:
        """The parameters' own problems, then a tableau larger than the deck allows."""
        problem = super().declaration_problem()
        if problem is None:
            cards = len(POLICIES.deck(cls.deck).cards())
            size = shape(cls.tableau, cls.columns, cls.depth, cls.rows).size
            if size + cls.waste_start > cards:
                # Name the values that make the size, not a default the author never wrote.
                made = (
                    f"rows = {cls.rows}"
                    if cls.tableau == "pyramid"
                    else f"columns = {cls.columns}, depth = {cls.depth}"
                )
                problem = (
                    f"tableau is {cls.tableau!r} ({made}) of {size} cards; allowed: at most "
                    f"{cards - cls.waste_start} cards (deck {cls.deck!r} holds {cards})"
                )
        return problem

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        booleans = {p.name: p.attribute for p in self.parameters if p.kind == "bool"}
        for option in self.options:
            if option.name in booleans:
                setattr(self, booleans[option.name], self.option(option.name) == "yes")
        #: _fits[w][c]: whether a card of rank c may go on a waste card of rank w (w = 0: empty).
        self._fits = tuple(tuple(bool(w) and self.fits(c, w) for c in range(14)) for w in range(14))

    def fits(self, card: int, waste: int) -> bool:
        """Whether a card of rank ``card`` may go on a waste card of rank ``waste``."""
        if waste == Rank.KING and not self.wrap:
            return card == Rank.QUEEN and self.queen_on_king
        gap = abs(card - waste)
        return gap == 1 or (self.wrap and gap == 12)

    # -- layout -------------------------------------------------------------------------------

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stock, waste, then the tableau piles."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """The tableau's places in place order (a column bottom first), then ``waste-start``
        cards to the waste, the rest face down to the stock, the next card dealt on top."""
        shape, size = self.shape, self.shape.size
        tableau: list[tuple[Card, ...]] = [() for _ in range(shape.piles)]
        for place, card in enumerate(cards[:size]):
            tableau[shape.pile_of[place]] += (card,)
        waste = tuple(cards[size : size + self.waste_start])
        stock = tuple(card.turned(False) for card in reversed(cards[size + self.waste_start :]))
        return Position((stock, waste, *tableau))

    def check_position(self, position: Position) -> None:
        """One deck; a face-down stock, a face-up waste; each tableau pile no more cards than
        its places, face up; a pyramid card gone only once the cards covering it are gone.

        :raises BadSave: naming the first problem.
        """
        super().check_position(position)
        piles = position.piles
        if any(card.face_up for card in piles[STOCK]):
            raise BadSave("the stock holds a face-up card")
        if any(not card.face_up for card in piles[WASTE]):
            raise BadSave("the waste holds a face-down card")
        shape, tableau = self.shape, piles[FIRST:]
        if shape.kind == "columns":
            for spec, pile in zip(self._piles[FIRST:], tableau, strict=True):
                if len(pile) > self.depth or not all(card.face_up for card in pile):
                    raise BadSave(
                        f"column {spec.name} must hold at most "
                        f"{counted(self.depth, 'face-up card')}"
                    )
            return
        mask = shape.mask(tableau)
        for place, covers in enumerate(shape.covers):
            pile, name = tableau[place], self._piles[FIRST + place].name
            if len(pile) > 1 or (pile and not pile[0].face_up):
                raise BadSave(f"pyramid place {name} must hold one face-up card or none")
            if not pile and any(mask >> c & 1 for c in covers):
                raise BadSave(f"pyramid place {name} is empty while a card still covers it")

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self, position: Position) -> list[Move]:
        """Free tableau cards that fit the waste (in place order: apex first, or column by
        column), then the deal."""
        piles = position.piles
        tableau = piles[FIRST:]
        if not any(tableau):
            return []
        moves = []
        waste = piles[WASTE]
        fits = self._fits[waste[-1].rank if waste else 0]
        mask = self.shape.mask(tableau)
        for place in range(len(tableau)):
            pile = tableau[place]
            if pile and fits[pile[-1].rank]:
                top = self.shape.top_place(place, len(pile))
                if not any(mask >> c & 1 for c in self.shape.covers[top]):
                    moves.append(Move.transfer(FIRST + place, WASTE))
        if piles[STOCK]:
            moves.append(Move.deal(STOCK))
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """Turn ``deal-size`` stock cards onto the waste one by one, or move a free tableau
        card onto the waste."""
        if move.kind is MoveKind.DEAL:
            stock = position[STOCK]
            turned = tuple(card.turned(True) for card in reversed(stock[-self.deal_size :]))
            return position.replace(
                [(STOCK, stock[: -len(turned)]), (WASTE, position[WASTE] + turned)]
            )
        pile = position[move.source]
        return position.replace([(move.source, pile[:-1]), (WASTE, position[WASTE] + pile[-1:])])

    def is_won(self, position: Position) -> bool:
        """Won as soon as the tableau is empty, stock or not."""
        return not any(position.piles[FIRST:])

    def score(self, position: Position) -> int:
        """Tableau cards played to the waste."""
        return self.max_score - sum(len(pile) for pile in position.piles[FIRST:])

    def why_illegal(self, position: Position, move: Move) -> str:
        """The family's rule a refused move breaks: a won game, the empty stock, a card not in
        the tableau or covered, a move not to the waste, the empty waste, the rule of Kings
        (``wrap``, ``queen-on-king``), a rank not one from the waste's."""
        piles, pyramid = position.piles, self.tableau == "pyramid"
        where = "pyramid" if pyramid else "columns"
        if self.is_won(position):
            return f"the {'pyramid' if pyramid else 'tableau'} is cleared: the game is won"
        if move.kind is MoveKind.DEAL:
            return "the stock is empty" if not piles[STOCK] else super().why_illegal(position, move)
        pile = piles[move.source] if 0 <= move.source < len(piles) else ()
        if move.source == WASTE and pile and (move.target or 0) >= FIRST:
            return f"cards never go from the waste back to the {where}"
        if move.source < FIRST or self.malformed(position, move):
            if move.source < FIRST and pile and move.count <= len(pile):
                return f"{self.card_name(pile[-move.count])} is not in the {where}"
            return super().why_illegal(position, move)
        card = pile[-move.count]
        name = self.card_name(card)
        if move.target != WASTE or (pyramid and move.count != 1):
            if pyramid:
                return "a pyramid card goes only onto the waste, one at a time"
            return "a column's top card goes only onto the waste"
        place = self.shape.top_place(move.source - FIRST, len(pile) - move.count + 1)
        tableau = piles[FIRST:]
        covering = [c for c in (self.shape.card(tableau, k) for k in self.shape.covers[place]) if c]
        if move.count > 1:
            covering = list(pile[-move.count + 1 :][:3])
        if covering:
            return f"{name} is covered by {' and '.join(self.card_name(c) for c in covering)}"
        if not piles[WASTE]:
            return "no card goes on the empty waste"
        top = piles[WASTE][-1]
        if top.rank == Rank.KING and not self.wrap:
            if self.queen_on_king:
                return f"only a Queen goes on a King, not {name}"
            return "nothing goes on a King (without the wrap option)"
        if {card.rank, top.rank} == {Rank.ACE, Rank.KING}:
            return "a King and an Ace are not one apart (without the wrap option)"
        wrap = " (K and A count as one apart)" if self.wrap else ""
        return f"{name} is not one rank from {self.card_name(top)}{wrap}"

    def render(self, position: Position, paint: Painter) -> list[str]:
        """Columns as the default draws them; a pyramid centred, with gaps where cards have
        gone, then stock and waste."""
        if self.tableau != "pyramid":
            return super().render(position, paint)
        lines, rows = [], self.rows
        for row in range(1, rows + 1):
            start = FIRST + row * (row - 1) // 2
            cells = [
                paint(position[i][0]) if position[i] else "  " for i in range(start, start + row)
            ]
            lines.append((" " * ((rows * 4 - (row * 4 - 2)) // 2) + "  ".join(cells)).rstrip())
        waste, stock = position[WASTE], len(position[STOCK])
        lines += [
            "",
            f"stock: {counted(stock, 'card')}   waste: {paint(waste[-1] if waste else None)}",
        ]
        return lines

    # -- rules text ---------------------------------------------------------------------------

    @classmethod
    def rules_text(cls) -> str:
        """The rules text generated from the parameters, then ``own_rules``."""
        if cls.declaration_problem() is not None:
            return super().rules_text()
        return _rules_text(cls)


def _rules_text(cls: type[GolfFamily]) -> str:
    size = shape(cls.tableau, cls.columns, cls.depth, cls.rows).size
    stock = len(POLICIES.deck(cls.deck).cards()) - size - cls.waste_start
    pyramid = cls.tableau == "pyramid"
    if pyramid:
        layout = f"a pyramid of {size} cards in {cls.rows} rows, all face up"
        free = (
            "a pyramid card is free when both cards covering it (the two cards of the row below "
            "that overlap it) are gone; the bottom row is always free. A free card"
        )
        where, noun = "the pyramid", "pyramid card"
    else:
        layout = f"{_count(cls.columns)} columns of {_count(cls.depth)} face-up cards"
        free = "the top card of any column"
        where, noun = "every column", "column card"
    waste = (
        "one card face up on the waste" if cls.waste_start else "a waste pile, empty at the start"
    )
    if cls.wrap:
        kings = "King and Ace are adjacent (K on A and A on K are both allowed)."
    elif cls.queen_on_king:
        kings = "King and Ace are not adjacent, and only a Queen may go on a King."
    else:
        kings = (
            "Nothing may be played on a King (a King ends the run), and King and Ace are not "
            "adjacent."
        )
    turn = (
        "turn the top stock card face up onto the waste."
        if cls.deal_size == 1
        else f"turn the next {_count(cls.deal_size)} stock cards face up onto the waste, one by "
        "one (the last one turned is the waste's top card)."
    )
    empty = (
        " Nothing can be played onto the empty waste, so the first move is always a deal."
        if not cls.waste_start
        else ""
    )
    paragraphs = [
        cls.title,
        f"Layout: {layout}; a face-down stock of {stock} cards; {waste}.",
        f"Goal: clear {where}. The game is won as soon as {where} is empty, even with cards "
        "left in the stock.",
        f"Play: {free} may be played onto the waste if its rank is one above or one below the "
        f"waste's top card, in any suit (never a card of equal rank). {kings}",
        f"Deal: {turn}{empty} There is no redeal.",
        f"Lost: when the stock is empty and no free {noun} fits the waste.",
        f"Score: one point per {noun} played to the waste ({size} at most).",
        "Moves: type the card's name (e.g. 9h) to play it to the waste, and 'deal' (or 'd') to "
        "turn a card.",
    ]
    if cls.own_rules:
        paragraphs.append(cls.own_rules.strip())
    return "\n\n".join(_wrap(p) for p in paragraphs) + "\n"


def _wrap(text: str, width: int = 99) -> str:
    return textwrap.fill(text, width) if len(text) > width else text
