"""The rules of Escalator (RULES.md Part A "Escalator", Part B §1)."""

from __future__ import annotations

from patience_core.api import (
    BadSave,
    BoardLayout,
    BoardRow,
    Card,
    Game,
    Move,
    MoveKind,
    Painter,
    PileKind,
    PileSpec,
    Position,
    adjacent_ranks,
)

ROWS = 7
PYRAMID_SIZE = ROWS * (ROWS + 1) // 2  # 28
STOCK, WASTE, APEX = 0, 1, 2


def _covers() -> tuple[tuple[int, ...], ...]:
    """For each pyramid pile index (2..29), the pile indices of the cards covering it."""
    covers: list[tuple[int, ...]] = []
    for row in range(1, ROWS + 1):
        for pos in range(row):
            if row == ROWS:
                covers.append(())
            else:
                below = row * (row + 1) // 2 + pos
                covers.append((APEX + below, APEX + below + 1))
    return tuple(covers)


#: COVERS[k] lists the piles covering pyramid card k (k = 0 is the apex, pile index 2).
COVERS = _covers()

#: (pile index, piles covering it) for every pyramid place, apex first.
_PLACES = tuple((APEX + k, covers) for k, covers in enumerate(COVERS))
#: The ranks that may go on a waste card of each rank (K and A adjacent).
_NEIGHBOURS = {
    rank: frozenset(r for r in range(1, 14) if adjacent_ranks(r, rank, wrap=True))
    for rank in range(1, 14)
}
_TO_WASTE = {APEX + k: Move.transfer(APEX + k, WASTE) for k in range(PYRAMID_SIZE)}
_DEAL = Move.deal(STOCK)

RULES = """\
Escalator

Layout: a pyramid of 28 cards in 7 rows, all face up; a face-down stock of 24 cards; a waste pile,
empty at the start.

Goal: clear the pyramid. The game is won as soon as the pyramid is empty, even with cards left in
the stock.

Play: a pyramid card is free when both cards covering it (the two cards of the row below that
overlap it) are gone; the bottom row is always free. A free card may be played onto the waste if
its rank is one above or one below the waste's top card, in any suit. King and Ace are adjacent
(K on A and A on K are both allowed). Cards of equal rank are not.

Deal: turn the top stock card face up onto the waste. Nothing can be played onto the empty waste,
so the first move is always a deal. There is no redeal.

Lost: when the stock is empty and no free pyramid card fits the waste.

Score: one point per pyramid card played to the waste (28 at most).

Moves: type the card's name (e.g. 9h) to play it to the waste, and 'deal' (or 'd') to turn a card.
"""


class Escalator(Game):
    """Escalator: clear a 28-card pyramid onto the waste by ranks one apart, K and A adjacent.

    Piles (Aisleriot slots, RULES.md Part B §1): ``s`` stock (slot 0), ``w`` waste (slot 1),
    ``p1``..``p28`` the pyramid row by row from the apex (slots 2..29).
    """

    name = "escalator"
    title = "Escalator"
    max_score = PYRAMID_SIZE
    rules = RULES
    #: The pyramid as seven covered rows, each half a card further in, then the stock and waste.
    board = BoardLayout(
        [
            *(
                BoardRow(
                    [f"p{k}" for k in range(row * (row - 1) // 2 + 1, row * (row + 1) // 2 + 1)],
                    indent=ROWS - row,
                    covered=True,
                )
                for row in range(1, ROWS + 1)
            ),
            BoardRow(["s", "w"], indent=ROWS - 2),
        ]
    )
    _piles = (
        PileSpec("s", PileKind.STOCK, 0),
        PileSpec("w", PileKind.WASTE, 1),
        *(PileSpec(f"p{k + 1}", PileKind.TABLEAU, APEX + k) for k in range(PYRAMID_SIZE)),
    )

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stock, waste, then the 28 pyramid piles of one card each."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """The first 28 cards fill the pyramid in slot order (apex first); the rest, face down,
        form the stock with ``cards[28]`` on top. The waste starts empty (Part B §1, Deal)."""
        pyramid = [(card,) for card in cards[:PYRAMID_SIZE]]
        stock = tuple(card.turned(False) for card in reversed(cards[PYRAMID_SIZE:]))
        return Position((stock, (), *pyramid))

    def is_free(self, position: Position, index: int) -> bool:
        """Whether the pyramid card in pile ``index`` (2..29) is uncovered."""
        piles = position.piles
        return all(not piles[c] for c in COVERS[index - APEX])

    def check_position(self, position: Position) -> None:
        """A position read from a file must hold in each pile only what Escalator's rules put there
        (it may be one play cannot reach, for studies): one deck; a face-down stock, a face-up
        waste; at most one face-up card per pyramid place; and a pyramid card gone only once both
        cards covering it are gone.

        :raises BadSave: naming the first problem.
        """
        super().check_position(position)
        piles = position.piles
        if any(card.face_up for card in piles[STOCK]):
            raise BadSave("the stock holds a face-up card")
        if any(not card.face_up for card in piles[WASTE]):
            raise BadSave("the waste holds a face-down card")
        for index, covers in _PLACES:
            pile = piles[index]
            name = self._piles[index].name
            if len(pile) > 1 or (pile and not pile[0].face_up):
                raise BadSave(f"pyramid place {name} must hold one face-up card or none")
            if not pile and any(piles[c] for c in covers):
                raise BadSave(f"pyramid place {name} is empty while a card still covers it")

    def legal_moves(self, position: Position) -> list[Move]:
        """Free pyramid cards that fit the waste (apex first, row by row), then the deal."""
        piles = position.piles
        if not piles[APEX]:
            return []
        moves: list[Move] = []
        waste = piles[WASTE]
        if waste:
            fits = _NEIGHBOURS[waste[-1].rank]
            for index, covers in _PLACES:
                pile = piles[index]
                if pile and pile[0].rank in fits and not any(piles[c] for c in covers):
                    moves.append(_TO_WASTE[index])
        if piles[STOCK]:
            moves.append(_DEAL)
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """Turn the top stock card onto the waste, or move a pyramid card to the waste."""
        piles = list(position.piles)
        if move.kind is MoveKind.DEAL:
            stock = piles[STOCK]
            piles[STOCK] = stock[:-1]
            piles[WASTE] += (stock[-1].turned(True),)
        else:
            piles[WASTE] += (piles[move.source][0],)
            piles[move.source] = ()
        return Position(tuple(piles))

    def why_illegal(self, position: Position, move: Move) -> str:
        """Escalator's rules a refused move breaks (RULES.md Part A "Escalator"): a card
        covered in the pyramid, a card not in the pyramid, a rank not one from the waste's
        (K and A adjacent), the empty waste or stock."""
        piles = position.piles
        if not piles[APEX]:
            return "the pyramid is cleared: the game is won"
        if move.kind is MoveKind.DEAL:
            return "the stock is empty" if not piles[STOCK] else super().why_illegal(position, move)
        pile = piles[move.source] if 0 <= move.source < len(piles) else ()
        if move.source < APEX or not pile:
            if move.source < APEX and pile and move.count <= len(pile):
                return f"{self.card_name(pile[len(pile) - move.count])} is not in the pyramid"
            return super().why_illegal(position, move)
        card = self.card_name(pile[0])
        if move.target != WASTE or move.count != 1:
            return "a pyramid card goes only onto the waste, one at a time"
        covering = [piles[c][0] for c in COVERS[move.source - APEX] if piles[c]]
        if covering:
            return f"{card} is covered by {' and '.join(self.card_name(c) for c in covering)}"
        waste = piles[WASTE]
        if not waste:
            return "no card goes on the empty waste"
        top = self.card_name(waste[-1])
        return f"{card} is not one rank from {top} (K and A count as one apart)"

    def is_won(self, position: Position) -> bool:
        """Won as soon as the apex is gone, which means the pyramid is empty."""
        return not position.piles[APEX]

    def score(self, position: Position) -> int:
        """Pyramid cards played to the waste: 28 minus the cards left in the pyramid."""
        return PYRAMID_SIZE - sum(1 for pile in position.piles[APEX:] if pile)

    def render(self, position: Position, paint: Painter) -> list[str]:
        """The pyramid, centred, with gaps where cards have gone; then stock and waste."""
        lines: list[str] = []
        width = ROWS * 4
        for row in range(1, ROWS + 1):
            start = APEX + row * (row - 1) // 2
            cells = []
            for index in range(start, start + row):
                pile = position[index]
                cells.append(paint(pile[0]) if pile else "  ")
            text = "  ".join(cells)
            pad = (width - (row * 4 - 2)) // 2
            lines.append((" " * pad + text).rstrip())
        waste = position[WASTE]
        lines.append("")
        stock = len(position[STOCK])
        lines.append(
            f"stock: {stock} card{'' if stock == 1 else 's'}   "
            f"waste: {paint(waste[-1] if waste else None)}"
        )
        return lines
