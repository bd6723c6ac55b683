"""The rules of Bristol (RULES.md Part A "Bristol", Part B §2)."""

from __future__ import annotations

from patience_core.api import (
    BadSave,
    BoardLayout,
    BoardRow,
    Build,
    Card,
    Game,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    Rank,
    builds_on,
    deal_round,
    foundation_accepts,
    move_cards,
)

STOCK = 0
RESERVES = (1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
TABLEAU = tuple(range(8, 16))
PILE_SIZE = 3
DEALT = PILE_SIZE * len(TABLEAU)  # 24
#: The stock sizes play can leave: 28, 25, ..., 4, 1 (deals of three), then 0 (the last deal
#: of one card).
_STOCK_SIZES = frozenset(range(52 - DEALT, 0, -len(RESERVES))) | {0}

RULES = """\
Bristol

Layout: eight piles of three face-up cards (t1..t8), three reserves (r1..r3), empty at the start,
four foundations (f1..f4) and a stock (s) of the other 28 cards. After the deal, kings are moved
towards the bottom of their piles.

Goal: build all 52 cards onto the foundations, each from Ace up to King. Suits do not matter on
the foundations: 4 of hearts may go on 3 of clubs.

Play: only the top card of a pile or a reserve moves, one card at a time. It may go onto a
foundation one rank above the foundation's top (an Ace onto an empty foundation), or onto a pile
whose top card is one rank higher, in any suit. An empty pile takes nothing; reserves take only
cards dealt from the stock.

Deal: puts one card from the stock on each reserve (r1, r2, r3), covering what is there. When
the stock holds 3 cards or fewer, a deal puts one card on r1 only. There is no redeal.

Lost: when no move and no deal is possible.

Score: one point per card on the foundations (52 at most).

Moves: 'SRC DST' with pile names, e.g. 't3 f' (to a foundation), 'r1 t5', 't2 t7'; or a card's
name alone, e.g. '4h' or '4h t5'; 'deal' (or 'd') deals from the stock.
"""


def king_fixup(pile: tuple[Card, Card, Card]) -> tuple[Card, Card, Card]:
    """Aisleriot's king fix-up of one dealt pile, exactly, order quirk included (Part B §2).

    :param pile: three cards, bottom first.
    :returns: the pile after the fix-up, bottom first. Top first ``[c0, c1, c2]``: if ``c0`` is a
        King the pile becomes ``[c1, c2, c0]`` and, if the new top is a King too, is rotated once
        more; otherwise, if ``c1`` is a King, it becomes ``[c0, c2, c1]``.
    """
    c2, c1, c0 = pile
    if c0.rank == Rank.KING:
        c0, c1, c2 = c1, c2, c0
        if c0.rank == Rank.KING:
            c0, c1, c2 = c1, c2, c0
    elif c1.rank == Rank.KING:
        c1, c2 = c2, c1
    return (c2, c1, c0)


class Bristol(Game):
    """Bristol: foundations by rank in any suit, fed from eight 3-card piles and three reserves.

    Piles (Aisleriot slots, RULES.md Part B §2): ``s`` stock (slot 0), ``r1``..``r3`` reserves
    (slots 1-3), ``f1``..``f4`` foundations (slots 4-7), ``t1``..``t8`` tableau (slots 8-15).
    """

    name = "bristol"
    title = "Bristol"
    max_score = 52
    rules = RULES
    tableau_fan = "right"
    #: Foundations, reserves and stock on top, then one row per tableau pile, fanned right.
    board = BoardLayout(
        [
            BoardRow(["f1", "f2", "f3", "f4", None, "r1", "r2", "r3", None, "s"]),
            *(BoardRow([f"t{k}"], fan="right") for k in range(1, len(TABLEAU) + 1)),
        ]
    )
    _piles = (
        PileSpec("s", PileKind.STOCK, STOCK),
        *(PileSpec(f"r{k + 1}", PileKind.RESERVE, slot) for k, slot in enumerate(RESERVES)),
        *(PileSpec(f"f{k + 1}", PileKind.FOUNDATION, slot) for k, slot in enumerate(FOUNDATIONS)),
        *(PileSpec(f"t{k + 1}", PileKind.TABLEAU, slot) for k, slot in enumerate(TABLEAU)),
    )

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stock, three reserves, four foundations, eight tableau piles (position index = slot)."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """Three face-up passes over t1..t8 (``cards[0..7]`` are the bottom cards), the king
        fix-up on each pile, and the other 28 cards face down as the stock with ``cards[24]`` on
        top; reserves and foundations start empty (Part B §2, Deal)."""
        n = len(TABLEAU)
        tableau = [king_fixup((cards[k], cards[n + k], cards[2 * n + k])) for k in range(n)]
        stock = tuple(card.turned(False) for card in reversed(cards[DEALT:]))
        empty: tuple[Card, ...] = ()
        return Position((stock, *(empty,) * 7, *tableau))

    def check_position(self, position: Position) -> None:
        """A position read from a file must hold in each pile only what Bristol's rules put there
        (Part B §2; it may be one play cannot reach, for studies): one deck; the stock face down,
        holding 28 - 3k cards or none (three a deal, the last deal one); every other card face up;
        no more cards on the reserves than the stock has dealt; each foundation built up from the
        Ace one rank at a time (any suits).

        :raises BadSave: naming the first problem.
        """
        super().check_position(position)
        stock = position[STOCK]
        if any(card.face_up for card in stock):
            raise BadSave("the stock holds a face-up card")
        for spec, pile in zip(self.piles[1:], position.piles[1:], strict=True):
            if any(not card.face_up for card in pile):
                raise BadSave(f"pile {spec.name} holds a face-down card; only the stock does")
        stocked = len(self.new_deck()) - DEALT
        if len(stock) not in _STOCK_SIZES:
            raise BadSave(
                f"the stock holds {len(stock)} cards; deals of three from {stocked} leave "
                "28, 25, ..., 4, 1 or 0"
            )
        if sum(len(position[r]) for r in RESERVES) > stocked - len(stock):
            raise BadSave("the reserves hold more cards than the stock has dealt")
        for number, home in enumerate(FOUNDATIONS, start=1):
            if any(card.rank != rank for rank, card in enumerate(position[home], start=1)):
                raise BadSave(
                    f"foundation f{number} is not built up from the Ace one rank at a time"
                )

    def legal_moves(self, position: Position) -> list[Move]:
        """Every single-card move, sources r1..r3 then t1..t8, each to f1..f4 then t1..t8; then
        the deal while the stock has cards. Empty when the game is won."""
        if self.is_won(position):
            return []
        moves: list[Move] = []
        for source in RESERVES + TABLEAU:
            card = position.top(source)
            if card is None:
                continue
            for target in FOUNDATIONS:
                if foundation_accepts(card, position[target], Build.ANY_SUIT):
                    moves.append(Move.transfer(source, target))
            for target in TABLEAU:
                onto = position.top(target)
                if target != source and onto is not None and builds_on(card, onto, Build.ANY_SUIT):
                    moves.append(Move.transfer(source, target))
        if position[STOCK]:
            moves.append(Move.deal(STOCK))
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """Move one card, or deal: one card to each of r1, r2, r3, or one card to r1 when the
        stock holds 3 cards or fewer (Part A, Bristol)."""
        if move.kind is MoveKind.DEAL:
            targets = RESERVES if len(position[STOCK]) > len(RESERVES) else RESERVES[:1]
            return deal_round(position, STOCK, targets)
        assert move.target is not None
        return move_cards(position, move.source, move.target)

    def why_illegal(self, position: Position, move: Move) -> str:
        """Bristol's rules a refused move breaks (RULES.md Part A "Bristol"): one top card at a
        time, foundations up by rank in any suit from the Ace, piles down by rank in any suit,
        empty piles and reserves taking nothing."""
        if move.kind is MoveKind.DEAL:
            return (
                "the stock is empty" if not position[STOCK] else super().why_illegal(position, move)
            )
        if self.malformed(position, move) or STOCK in (move.source, move.target):
            return super().why_illegal(position, move)
        target, pile = move.target, position[move.source]
        assert target is not None  # malformed() says so
        card = pile[-move.count]
        name = self.card_name(card)
        if move.source in FOUNDATIONS:
            return "cards never leave the foundations"
        if move.count > 1:
            covering = " and ".join(self.card_name(c) for c in pile[-move.count + 1 :][:3])
            return f"only a top card moves: {name} is covered by {covering}"
        if target in RESERVES:
            return "the reserves take only cards dealt from the stock"
        onto = position[target]
        if target in FOUNDATIONS:
            if not onto:
                return f"a foundation starts with an Ace, not {name}"
            top = self.card_name(onto[-1])
            return f"foundations build up by one rank in any suit: {name} does not go on {top}"
        if not onto:
            return "an empty pile takes nothing in Bristol"
        top = self.card_name(onto[-1])
        return f"Bristol builds down by one rank in any suit: {name} does not go on {top}"

    def is_won(self, position: Position) -> bool:
        """Won when each foundation holds 13 cards."""
        return all(len(position[f]) == len(Rank) for f in FOUNDATIONS)

    def score(self, position: Position) -> int:
        """Cards on the foundations (Part A, Bristol), 0..52."""
        return sum(len(position[f]) for f in FOUNDATIONS)
