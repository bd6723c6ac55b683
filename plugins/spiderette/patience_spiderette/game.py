"""The rules of Spiderette (RULES.md Part A "Spiderette", Part B §5)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from patience_core.api import (
    BadSave,
    BoardLayout,
    BoardRow,
    Build,
    Card,
    EmptyPile,
    Game,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    Rank,
    deal_round,
    move_cards,
    run_length,
    run_moves,
)

#: Pile indices; each equals the pile's Aisleriot slot id (Part B §5, Layout).
STOCK = 0
FOUNDATIONS = (1, 2, 3, 4)
COLUMNS = (5, 6, 7, 8, 9, 10, 11)
SUIT_LENGTH = 13
#: Points for a suit completed to a foundation (the 12 pairs it held, Part A "Spiderette").
SUIT_POINTS = 12

RULES = """\
Spiderette

Layout: seven columns t1-t7 dealt like Klondike, holding 1 to 7 cards with only the top card face
up; a stock s of 24 face-down cards; four foundations f1-f4, empty at the start.

Goal: assemble each suit as one run King down to Ace. A complete run may stay on the tableau or go
to an empty foundation; the game is won when all four suits are complete, in any mix.

Play: a run of face-up cards of one suit in descending order (a single card is a run) may move onto
a card one rank higher of any suit, or onto an empty column. Only a complete King-to-Ace run of 13
cards may go to a foundation. A face-down card left on top of a column is turned face up.

Deal: 'deal' (or 's') deals one card face up onto each column, t1 to t7. It is refused while any
column is empty. The last deal has 3 cards, for t1-t3. There is no redeal.

Lost: when no legal move is left (rare: moves usually remain even when the game cannot be won).

Score: one point for each face-up card lying on the card of its suit one rank higher, plus 12 for
each suit on the foundations (48 at most).

Moves: 't3 t5' moves the run that fits from t3 onto t5; onto an empty column it takes the longest
run unless a count is given ('t3 t5 2') or a card is named ('9h t5'); 't3 f' takes a complete run
to a foundation.
"""


def complete_suit(pile: Sequence[Card]) -> bool:
    """Whether ``pile`` (bottom first) is one suit's 13 cards, King at the bottom, Ace on top:
    the only thing a Spiderette foundation can hold (RULES.md Part B §5)."""
    return (
        len(pile) == 13
        and pile[0].rank is Rank.KING
        and all(
            upper.suit is lower.suit and upper.rank == lower.rank - 1
            for lower, upper in itertools.pairwise(pile)
        )
    )


class Spiderette(Game):
    """Spiderette: one-deck Spider on a 1..7 Klondike layout.

    Piles (Aisleriot slots, RULES.md Part B §5): ``s`` stock (slot 0), ``f1``..``f4`` foundations
    (slots 1-4), ``t1``..``t7`` columns (slots 5-11); the index of a pile is its slot id.
    """

    name = "spiderette"
    title = "Spiderette"
    max_score = 4 * SUIT_POINTS
    rules = RULES
    #: The stock over the first column, the foundations over the last four.
    board = BoardLayout(
        [
            BoardRow(["s", None, None, "f1", "f2", "f3", "f4"]),
            BoardRow([f"t{k}" for k in range(1, len(COLUMNS) + 1)], fan="down"),
        ]
    )
    _piles = (
        PileSpec("s", PileKind.STOCK, STOCK),
        *(PileSpec(f"f{k + 1}", PileKind.FOUNDATION, slot) for k, slot in enumerate(FOUNDATIONS)),
        *(PileSpec(f"t{k + 1}", PileKind.TABLEAU, slot) for k, slot in enumerate(COLUMNS)),
    )

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stock, foundations f1-f4, columns t1-t7."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """Klondike-style passes from ``cards[0]``: pass p deals to columns p..7; each column's
        last card is face up. The other 24 cards form the stock, ``cards[28]`` on top (Part B §5).
        """
        columns: list[list[Card]] = [[] for _ in COLUMNS]
        deck = iter(cards)
        for start in range(len(COLUMNS)):
            for column in columns[start:]:
                column.append(next(deck).turned(False))
        stock = tuple(card.turned(False) for card in reversed(list(deck)))
        piles = tuple((*column[:-1], column[-1].turned(True)) for column in columns)
        return Position((stock, *((),) * len(FOUNDATIONS), *piles))

    def can_deal(self, position: Position) -> bool:
        """The stock has cards and no column is empty (Part A "Spiderette")."""
        return bool(position[STOCK]) and all(position[c] for c in COLUMNS)

    def legal_moves(self, position: Position) -> list[Move]:
        """Runs onto columns, then complete suits to the first empty foundation, then the deal."""
        if self.is_won(position):
            return []
        moves = run_moves(
            position,
            COLUMNS,
            COLUMNS,
            lift=Build.SAME_SUIT,
            drop=Build.ANY_SUIT,
            empty=EmptyPile.ANY,
        )
        home = next((f for f in FOUNDATIONS if not position[f]), None)
        if home is not None:
            moves += [
                Move.transfer(column, home, SUIT_LENGTH)
                for column in COLUMNS
                if run_length(position[column], Build.SAME_SUIT) >= SUIT_LENGTH
            ]
        if self.can_deal(position):
            moves.append(Move.deal(STOCK))
        return moves

    def why_illegal(self, position: Position, move: Move) -> str:
        """Spiderette's rules a refused move breaks (RULES.md Part A "Spiderette"): no deal
        while a column is empty, runs of one suit moving onto a card one rank higher, only a
        complete King-to-Ace suit going to a foundation."""
        if move.kind is MoveKind.DEAL:
            if not position[STOCK]:
                return "the stock is empty"
            return "fill every empty column before dealing"
        if self.malformed(position, move) or STOCK in (move.source, move.target):
            return super().why_illegal(position, move)
        target, pile = move.target, position[move.source]
        assert target is not None  # malformed() says so
        card = pile[-move.count]
        name = self.card_name(card)
        if move.source in FOUNDATIONS:
            return "a completed suit never leaves its foundation"
        if not card.face_up:
            return super().why_illegal(position, move)  # never names a face-down card
        if target in FOUNDATIONS:
            if position[target]:
                return f"{self._piles[target].name} holds a completed suit already"
            return "only a complete King-to-Ace run of one suit goes to a foundation"
        if move.count > run_length(pile, Build.SAME_SUIT):
            return f"{name} and the cards on it are not a run of one suit"
        onto = position[target]
        if not onto:
            return super().why_illegal(position, move)
        top = self.card_name(onto[-1])
        return f"a run goes on a card one rank higher: {name} does not go on {top}"

    def play(self, position: Position, move: Move) -> Position:
        """Deal a round onto t1..t7, or move a run and turn up the card it uncovers."""
        if move.kind is MoveKind.DEAL:
            return deal_round(position, STOCK, COLUMNS)
        assert move.target is not None
        return move_cards(position, move.source, move.target, move.count, auto_flip=True)

    def score(self, position: Position) -> int:
        """Same-suit in-sequence face-up pairs on the tableau, + 12 per completed suit (0..48)."""
        pairs = 0
        for column in COLUMNS:
            pile = position[column]
            for lower, upper in itertools.pairwise(pile):
                if (
                    lower.face_up
                    and upper.face_up
                    and upper.suit == lower.suit
                    and upper.rank + 1 == lower.rank
                ):
                    pairs += 1
        return pairs + SUIT_POINTS * sum(1 for f in FOUNDATIONS if position[f])

    def check_position(self, position: Position) -> None:
        """The deck check, then: the stock face down; in each column the face-down cards
        below the face-up ones, and its top card face up (a card left on top is turned); each
        foundation is empty or one complete suit, King at the bottom, face up (only a whole
        K..A run can go there, Part B §5).

        :raises BadSave: naming the first pile that holds anything else.
        """
        super().check_position(position)
        if any(card.face_up for card in position[STOCK]):
            raise BadSave("the stock holds a face-up card")
        for number, column in enumerate(COLUMNS, start=1):
            pile = position[column]
            ups = [card.face_up for card in pile]
            if pile and (not ups[-1] or ups != sorted(ups)):
                raise BadSave(
                    f"column t{number}: face-down cards must lie below the face-up ones, "
                    "and its top card face up"
                )
        for number, home in enumerate(FOUNDATIONS, start=1):
            if any(not card.face_up for card in position[home]):
                raise BadSave(f"foundation f{number} holds a face-down card")
        for number, home in enumerate(FOUNDATIONS, start=1):
            if position[home] and not complete_suit(position[home]):
                raise BadSave(f"foundation f{number} holds cards that are not one complete suit")

    def is_won(self, position: Position) -> bool:
        """All four suits are complete K..A runs, on the tableau or the foundations.

        That is exactly a score of 48: a suit on the tableau reaches 12 pairs only as one run.
        (A quick refusal first: a card in the stock or face down is in no complete run.)
        """
        if position[STOCK]:
            return False
        for column in COLUMNS:
            pile = position[column]
            if pile and not pile[0].face_up:
                return False
        return self.score(position) == self.max_score

    def status(self, position: Position) -> str:
        """``Stock left: N``, with a reminder when an empty column blocks the deal."""
        text = f"Stock left: {len(position[STOCK])}"
        if position[STOCK] and not self.can_deal(position):
            text += "  (fill every empty column before dealing)"
        return text
