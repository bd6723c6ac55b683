"""The rules of Diamond Mine (RULES.md Part A "Diamond Mine", Part B §4)."""

from __future__ import annotations

import itertools

from patience_core.api import (
    BadSave,
    BoardLayout,
    BoardRow,
    Card,
    Game,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    Rank,
    Suit,
    face_up_length,
    foundation_accepts,
    move_cards,
)

FOUNDATION = 0
TABLEAU = tuple(range(1, 14))
FACE_DOWN = 3  # face-down cards dealt to each pile, under one face-up card
SUIT_SIZE = len(Rank)  # 13
RUN_BONUS = 3

RULES = """\
Diamond Mine

Layout: thirteen piles (t1..t13) of four cards, three face down under one face up, and a single
foundation (f), empty at the start. There is no stock.

Goal: put all thirteen diamonds on the foundation, and sort the clubs, hearts and spades into
runs from King down to Ace, one suit each, every pile either empty or such a run.

Foundation: takes diamonds only, one at a time from the top of a pile. Any diamond may start it;
after that each diamond must be one rank higher than the last, and an Ace follows a King.

Tableau: any face-up card may be moved together with every card on it, onto a pile whose top card
is one rank higher than that card, in any suit, or onto an empty pile. Diamonds never go on the
tableau, and nothing is ever placed on a diamond. When a move uncovers a face-down card, it is
turned up.

Lost: when no move is possible.

Score: the face value of every diamond on the foundation (Ace 1 ... King 13, 91 in all), plus 3
for every pile holding a complete face-up King-to-Ace run of one suit (100 at most).

Moves: 'SRC DST' with pile names, e.g. 't4 f' (to the foundation), 't3 t7'; add a number to move
several cards, e.g. 't3 t7 3'; or a card's name, which moves it with every card on it: '9s' or
'9s t7'.
"""


def _builds_under(card: Card) -> bool:
    """Whether a group may go on ``card`` (a face-up non-diamond) when it is a pile's top."""
    return card.face_up and card.suit is not Suit.DIAMONDS


def complete_run(pile: tuple[Card, ...]) -> bool:
    """Whether the top 13 cards of ``pile`` (bottom first) are a face-up run King..Ace of one
    suit, the King lowest (RULES.md Part A, Diamond Mine score)."""
    if len(pile) < SUIT_SIZE:
        return False
    run = pile[len(pile) - SUIT_SIZE :]
    suit = run[0].suit
    return all(
        card.face_up and card.suit == suit and card.rank == SUIT_SIZE - i
        for i, card in enumerate(run)
    )


class DiamondMine(Game):
    """Diamond Mine: one diamond foundation (K->A wrap), 13 piles building down in any suit.

    Piles (Aisleriot slots, RULES.md Part B §4): ``f`` the foundation (slot 0), ``t1``..``t13``
    the tableau (slots 1-13).
    """

    name = "diamond-mine"
    title = "Diamond Mine"
    max_score = 91 + RUN_BONUS * 3
    rules = RULES
    #: The foundation centred over the thirteen columns.
    board = BoardLayout(
        [
            BoardRow(["f"], indent=len(TABLEAU) - 1),
            BoardRow([f"t{k}" for k in range(1, len(TABLEAU) + 1)], fan="down"),
        ]
    )
    _piles = (
        PileSpec("f", PileKind.FOUNDATION, FOUNDATION),
        *(PileSpec(f"t{k + 1}", PileKind.TABLEAU, slot) for k, slot in enumerate(TABLEAU)),
    )

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """The foundation, then the 13 tableau piles (position index = slot)."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """Three face-down passes over t1..t13, then one face-up pass (``cards[0..12]`` are the
        bottom cards); the foundation starts empty (Part B §4, Deal)."""
        n = len(TABLEAU)
        piles = [
            tuple(cards[r * n + k].turned(r == FACE_DOWN) for r in range(FACE_DOWN + 1))
            for k in range(n)
        ]
        return Position(((), *piles))

    def check_position(self, position: Position) -> None:
        """A position read from a file must hold in each pile only what Diamond Mine's rules put
        there (Part B §4; the solver's proofs of "dead" rely on it): one deck; the foundation
        face-up diamonds, each one rank above the one below it (King to Ace wraps); in each pile
        at most the 3 face-down cards dealt, below the face-up ones, and its top card face up
        (auto-flip);
        the face-up cards of a pile descending one rank at a time (any suits: only such groups
        move), and a face-up diamond only on top (nothing is placed on a diamond).

        :raises BadSave: naming the first problem.
        """
        super().check_position(position)
        foundation = position[FOUNDATION]
        if any(not card.face_up or card.suit is not Suit.DIAMONDS for card in foundation):
            raise BadSave("the foundation holds a card that is not a face-up diamond")
        for below, above in itertools.pairwise(foundation):
            if above.rank != below.rank % SUIT_SIZE + 1:
                raise BadSave("the foundation's diamonds are not in rank order (King to Ace wraps)")
        for number, index in enumerate(TABLEAU, start=1):
            pile = position[index]
            ups = [card.face_up for card in pile]
            if pile and (not ups[-1] or ups != sorted(ups)):
                raise BadSave(
                    f"pile t{number}: face-down cards must lie below the face-up ones, "
                    "and its top card face up"
                )
            if ups.count(False) > FACE_DOWN:
                raise BadSave(f"pile t{number} holds more than {FACE_DOWN} face-down cards")
            shown = pile[ups.count(False) :]
            if any(above.rank != below.rank - 1 for below, above in itertools.pairwise(shown)):
                raise BadSave(
                    f"pile t{number}: its face-up cards do not go down one rank at a time"
                )
            if any(card.suit is Suit.DIAMONDS for card in shown[:-1]):
                raise BadSave(f"pile t{number}: a card lies on a diamond")

    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal move, by source t1..t13: the top card to the foundation, then groups of
        1, 2, ... face-up cards onto t1..t13. Empty when the game is won."""
        if self.is_won(position):
            return []
        piles = position.piles
        foundation = piles[FOUNDATION]
        # The rank each pile takes (its top's rank - 1), 0 for none (a diamond or face-down top),
        # -1 for an empty pile (it takes any group).
        takes = [
            (-1 if not pile else pile[-1].rank - 1 if _builds_under(pile[-1]) else 0)
            for pile in piles
        ]
        moves: list[Move] = []
        for source in TABLEAU:
            pile = piles[source]
            if not pile:
                continue
            top = pile[-1]
            if top.suit is Suit.DIAMONDS:
                # Nothing lies on a face-up diamond, so it can only go to the foundation.
                if top.face_up and foundation_accepts(top, foundation, base=None, wrap=True):
                    moves.append(Move.transfer(source, FOUNDATION))
                continue
            for count in range(1, face_up_length(pile) + 1):
                rank = pile[-count].rank
                for target in TABLEAU:
                    if target != source and (takes[target] == rank or takes[target] < 0):
                        moves.append(Move.transfer(source, target, count))
        return moves

    def why_illegal(self, position: Position, move: Move) -> str:
        """Diamond Mine's rules a refused move breaks (RULES.md Part A "Diamond Mine"): the
        foundation takes diamonds only, up by one (A after K); diamonds never go on the
        tableau and nothing goes on a diamond; cards build down by one rank in any suit."""
        if move.kind is MoveKind.DEAL:
            return "Diamond Mine has no stock: every card is dealt at the start"
        if self.malformed(position, move):
            return super().why_illegal(position, move)
        target, pile = move.target, position[move.source]
        assert target is not None  # malformed() says so
        card = pile[-move.count]
        name = self.card_name(card)
        if move.source == FOUNDATION:
            return "cards never leave the foundation"
        if not card.face_up:
            return super().why_illegal(position, move)  # never names a face-down card
        onto = position[target]
        if target == FOUNDATION:
            if card.suit is not Suit.DIAMONDS:
                return f"the foundation takes diamonds only, not {name}"
            if move.count > 1:
                return "the foundation takes one card at a time"
            if not onto:
                return super().why_illegal(position, move)
            last = self.card_name(onto[-1])
            return f"diamonds build up by one (A after K): {name} does not go on {last}"
        if card.suit is Suit.DIAMONDS:
            return f"diamonds never go on the tableau: {name} goes only to the foundation"
        if not onto:
            return super().why_illegal(position, move)
        top = onto[-1]
        if top.suit is Suit.DIAMONDS:
            return f"nothing is ever placed on a diamond ({self.card_name(top)})"
        if card.rank == Rank.KING:
            return "a King goes only onto an empty pile"
        return f"{name} goes on a card one rank higher, in any suit, not on {self.card_name(top)}"

    def play(self, position: Position, move: Move) -> Position:
        """Move the cards, then turn the source's new top card face up (Part B §4, auto-flip)."""
        assert move.target is not None
        return move_cards(position, move.source, move.target, move.count, auto_flip=True)

    def is_won(self, position: Position) -> bool:
        """All 13 diamonds on the foundation, every pile empty or exactly a complete run."""
        return len(position[FOUNDATION]) == SUIT_SIZE and all(
            not position[t] or (len(position[t]) == SUIT_SIZE and complete_run(position[t]))
            for t in TABLEAU
        )

    def score(self, position: Position) -> int:
        """Face values of the foundation's diamonds, plus 3 per pile holding a complete run
        (Part A, Diamond Mine), 0..100."""
        mined = sum(int(card.rank) for card in position[FOUNDATION])
        return mined + RUN_BONUS * sum(1 for t in TABLEAU if complete_run(position[t]))

    def status(self, position: Position) -> str:
        """Diamonds mined and complete runs, e.g. ``"Diamonds: 4/13   Runs: 1/3"``."""
        runs = sum(1 for t in TABLEAU if complete_run(position[t]))
        return f"Diamonds: {len(position[FOUNDATION])}/13   Runs: {runs}/3"
