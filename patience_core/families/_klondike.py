"""The klondike family: a stock turned onto a waste, a tableau of columns with face-down cards
built down, foundations built up in suit (Klondike, its draw-3 and no-redeal forms, Thoughtful).

Layer 3½ (above :mod:`patience_core.games`). A variant sets the parameters of
:attr:`KlondikeFamily.parameters` as class attributes (or in a variant file)::

    class Klondike(KlondikeFamily):
        name = "klondike"
        title = "Klondike"
        redeals = 2

Deal, moves and scoring follow Aisleriot's ``klondike.scm`` (RULES.md Part A, "Deal numbers";
docs/families.md, "The klondike family"), so deal N of the Aisleriot declaration is Aisleriot's
deal N card for card.

**The redeal count lives in the piles.** A position is cards in piles and nothing else, and a
limited number of redeals needs a counter; so a variant with ``redeals`` N of 1 or more has one
stock and one waste per pass (``s``/``w`` for the first pass, ``s2``/``w2``, ... for the
others): a redeal turns pass k's waste over into pass k+1's stock. The cards then always say how
many redeals are left. Unlimited redeals (``-1``) and none (``0``) need one stock and one waste.
"""

from __future__ import annotations

from typing import Any, ClassVar

from patience_core.engine import (
    Build,
    EmptyPile,
    counted,
    foundation_accepts,
    move_cards,
    run_moves,
)
from patience_core.families._base import Family, Parameter
from patience_core.families._klondike_search import KlondikeSearch, safe_to_foundation
from patience_core.families._policies import POLICIES
from patience_core.games import BoardLayout, BoardRow
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position

__all__ = ["KlondikeFamily"]

_TIMES = {1: "once", 2: "twice"}
_BUILDS = {b.value: b for b in Build}
_EMPTIES = {e.value: e for e in EmptyPile}


class KlondikeFamily(Family):
    """Klondike-like games: a stock dealt ``draw`` cards at a time onto a waste, ``redeals``
    times turned over again (-1: without limit), ``columns`` tableau columns of 1, 2, ...
    cards (all but the top face down, or all face up), building by a named build policy, an
    empty column filled by a named empty-pile policy, foundations built up in suit from the Ace.

    Piles: the stock and waste of each pass (``s``, ``w``, then ``s2``, ``w2``, ... when
    ``redeals`` is 1 or more), foundations ``f1``..``f4`` (one per 13 cards of the deck), then
    columns ``t1``..``tN``. Score: cards on the foundations (Aisleriot's), the deck's size at
    most. Raises nothing at play time: the declaration is checked when the variant registers.
    """

    family = "klondike"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("draw", "int", 1, "cards turned from the stock to the waste at a time", low=1,
                  high=5),
        Parameter("redeals", "int", -1, "times the waste may be turned over into the stock "
                  "(-1: without limit)", low=-1, high=9),
        Parameter("columns", "int", 7, "tableau columns; column k is dealt k cards", low=1,
                  high=9),
        Parameter("face-down", "choice", "all-but-top", "which cards of a column are dealt "
                  "face down", choices=("all-but-top", "none")),
        Parameter("build", "build", "alternate-colours", "how the tableau builds down"),
        Parameter("empty-column", "empty", "kings", "what an empty column accepts"),
        Parameter("foundation-to-tableau", "bool", True, "a foundation's top card may go back "
                  "to the tableau"),
        Parameter("auto-play", "choice", "none", "cards played to the foundations after every "
                  "move: none, or the safe ones", choices=("none", "safe")),
        Parameter("deck", "deck", "standard", "the deck; one foundation per 13 cards"),
    )  # fmt: skip
    search_class = KlondikeSearch
    deal_schemes = ("aisleriot",)

    # The parameter values, as class attributes (defaults set by Family.__init_subclass__).
    draw: ClassVar[int]
    redeals: ClassVar[int]
    columns: ClassVar[int]
    face_down: ClassVar[str]
    build: ClassVar[str]
    empty_column: ClassVar[str]
    foundation_to_tableau: ClassVar[bool]
    auto_play: ClassVar[str]
    deck: ClassVar[str]

    @classmethod
    def max_score_for(cls, cards: int) -> int:
        """One point a card on the foundations: the deck's size (Aisleriot's score)."""
        return cards

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.deck in POLICIES.decks:
            cls.board = _board(cls)

    @classmethod
    def declaration_problem(cls) -> str | None:
        """The parameters' own checks, then: the deck is of whole suits and holds the cards
        the columns are dealt (column k gets k cards)."""
        problem = super().declaration_problem()
        if problem:
            return problem
        cards = len(POLICIES.deck(cls.deck).cards())
        if cards % 13 or cards < cls.columns * (cls.columns + 1) // 2:
            return f"deck is {cls.deck!r}; allowed: a deck of whole suits, enough for the layout"
        return None

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.fits = POLICIES.build(self.build).fits
        self.accepts = POLICIES.empty(self.empty_column).accepts
        # The engine's own enums when the policy is a built-in one: run_moves needs them.
        self.lift = _BUILDS.get(self.build)
        self.passes = self.redeals + 1 if self.redeals > 0 else 1
        self.foundations = tuple(range(2 * self.passes, 2 * self.passes + self.max_score // 13))
        first = self.foundations[-1] + 1
        self.tableau = tuple(range(first, first + self.columns))
        self.stocks = tuple(range(0, 2 * self.passes, 2))
        self.wastes = tuple(range(1, 2 * self.passes, 2))
        self._piles = _piles(self.passes, len(self.foundations), self.columns)

    # -- rules text ---------------------------------------------------------------------------

    @classmethod
    def rules_text(cls) -> str:
        """The rules, written from the parameters (and ``own_rules`` last)."""
        decks = POLICIES.decks
        deck = decks[cls.deck].text if cls.deck in decks else cls.deck
        build = POLICIES.builds[cls.build].text if cls.build in POLICIES.builds else cls.build
        empty = POLICIES.empties.get(cls.empty_column)
        dealt = cls.columns * (cls.columns + 1) // 2
        down = "all but its top card face down" if cls.face_down == "all-but-top" else "face up"
        redeal = {
            -1: "When the stock is empty, the waste may be turned over into the stock again, "
            "without limit.",
            0: "There is no redeal: once the stock is empty, the waste is only played off.",
        }.get(
            cls.redeals,
            f"When the stock is empty, the waste may be turned over into the stock "
            f"{_TIMES.get(cls.redeals, f'{cls.redeals} times')} ({cls.redeals + 1} passes "
            "through the stock in all); each pass has its own stock and waste (s and w, s2 and "
            "w2, ...), so the board shows the redeals left.",
        )
        paragraphs = [
            cls.title,
            f"Layout: {deck}. {counted(cls.columns, 'column')} of 1 to {cls.columns} cards "
            f"({dealt} cards), each with {down}; the other cards form the stock, face down. "
            f"{counted(cls.max_score // 13, 'foundation')} start empty.",
            f"Play: the stock turns {counted(cls.draw, 'card')} at a time onto the waste "
            f"('deal'); the waste's top card may go to a foundation or the tableau. {redeal}",
            f"The tableau builds {build}; a run of face-up cards so built may move as a unit. "
            f"An empty column takes {empty.text if empty else cls.empty_column}. A column's "
            "face-down top card turns face up by itself.",
            "Foundations build up in suit from the Ace to the King"
            + (
                "; a foundation's top card may go back to the tableau."
                if cls.foundation_to_tableau
                else "; cards never leave them."
            )
            + (
                " After every move, each card that no other card can need (an Ace or a Two, or a "
                "card whose lower opposite-colour cards are all on the foundations) goes to its "
                "foundation by itself."
                if cls.auto_play == "safe"
                else ""
            ),
            "Won when every card is on the foundations. Score: the cards on the foundations.",
        ]
        if cls.own_rules:
            paragraphs.append(cls.own_rules.strip())
        return "\n\n".join(paragraphs) + "\n"

    # -- layout -------------------------------------------------------------------------------

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stocks and wastes by pass, foundations, then the columns."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """Aisleriot's ``deal-tableau``: one card to each of columns 1..N, then one to each of
        columns 2..N, and so on (column k gets k cards, the last dealt on top); the rest is the
        first pass's stock, ``cards[dealt]`` on its top (RULES.md Part B §0.3)."""
        columns: list[list[Card]] = [[] for _ in range(self.columns)]
        k = 0
        for start in range(self.columns):
            for column in range(start, self.columns):
                columns[column].append(cards[k])
                k += 1
        if self.face_down == "all-but-top":
            columns = [[c.turned(False) for c in col[:-1]] + col[-1:] for col in columns]
        piles: list[tuple[Card, ...]] = [() for _ in self._piles]
        piles[0] = tuple(card.turned(False) for card in reversed(cards[k:]))
        for index, cards_of in zip(self.tableau, columns, strict=True):
            piles[index] = tuple(cards_of)
        return Position(tuple(piles))

    # -- moves --------------------------------------------------------------------------------

    def current_pass(self, position: Position) -> int:
        """The index (0-based) of the pass in play: the first whose stock or waste holds cards
        (the last pass when every stock and waste is empty)."""
        for k in range(self.passes):
            if position[2 * k] or position[2 * k + 1]:
                return k
        return self.passes - 1

    def can_deal(self, position: Position) -> bool:
        """Whether ``deal`` is legal: a card in the stock, or a redeal left for a waste."""
        k = self.current_pass(position)
        if position[2 * k]:
            return True
        return bool(position[2 * k + 1]) and (self.redeals == -1 or k + 1 < self.passes)

    def legal_moves(self, position: Position) -> list[Move]:
        """Waste top to a foundation and to the tableau, column tops to a foundation, runs
        between columns, foundation tops back to the tableau (when allowed), then the deal."""
        if self.is_won(position):
            return []
        moves: list[Move] = []
        waste = self.wastes[self.current_pass(position)]
        tableau, foundations = self.tableau, self.foundations
        for source in (waste, *tableau):
            pile = position[source]
            if pile and pile[-1].face_up:
                moves += [
                    Move.transfer(source, f)
                    for f in foundations
                    if foundation_accepts(pile[-1], position[f])
                ]
            if source == waste and pile:
                moves += [
                    Move.transfer(waste, t) for t in tableau if self.takes(position, t, pile[-1])
                ]
        moves += self.run_moves(position)
        if self.foundation_to_tableau:
            for f in foundations:
                if position[f]:
                    card = position[f][-1]
                    moves += [Move.transfer(f, t) for t in tableau if self.takes(position, t, card)]
        if self.can_deal(position):
            moves.append(Move.deal(0))
        return moves

    def takes(self, position: Position, column: int, card: Card) -> bool:
        """Whether tableau pile ``column`` takes ``card`` (or a run with ``card`` at its
        bottom): the build policy on a top card, the empty-pile policy on an empty column."""
        pile = position[column]
        return self.fits(card, pile[-1]) if pile else self.accepts(card)

    def run_moves(self, position: Position) -> list[Move]:
        """Every move of a run between two columns (by source, target, longest first)."""
        if self.lift is not None and self.empty_column in _EMPTIES:
            empty = _EMPTIES[self.empty_column]
            return run_moves(position, self.tableau, self.tableau, lift=self.lift,
                             drop=self.lift, empty=empty)  # fmt: skip
        moves: list[Move] = []
        for source in self.tableau:
            pile = position[source]
            length = self.run_length(pile)
            for target in self.tableau:
                if target != source:
                    moves += [
                        Move.transfer(source, target, count)
                        for count in range(length, 0, -1)
                        if self.takes(position, target, pile[-count])
                    ]
        return moves

    def run_length(self, pile: tuple[Card, ...]) -> int:
        """The face-up cards at the top of ``pile`` built by the build policy."""
        if not pile or not pile[-1].face_up:
            return 0
        length = 1
        while length < len(pile) and self.fits(pile[-length], pile[-length - 1]):
            length += 1
        return length

    def play(self, position: Position, move: Move) -> Position:
        """A deal (or redeal), or a transfer with its auto-flip, then safe auto-play when
        declared."""
        if move.kind is MoveKind.DEAL:
            position = self.dealt(position)
        else:
            assert move.target is not None
            position = move_cards(position, move.source, move.target, move.count,
                                  auto_flip=move.source in self.tableau)  # fmt: skip
        if self.auto_play == "safe":
            position = self.played_safely(position)
        return position

    def dealt(self, position: Position) -> Position:
        """The deal: ``draw`` cards from the stock onto the waste (each turned face up, the
        last on top), or, with the stock empty, the redeal: the waste turned over into the
        stock (of the next pass, when redeals are counted)."""
        k = self.current_pass(position)
        stock, waste = 2 * k, 2 * k + 1
        if position[stock]:
            cards = position[stock]
            n = min(self.draw, len(cards))
            turned = tuple(c.turned(True) for c in reversed(cards[-n:]))
            return position.replace(((stock, cards[:-n]), (waste, position[waste] + turned)))
        back = tuple(c.turned(False) for c in reversed(position[waste]))
        target = stock if self.redeals == -1 else stock + 2
        return position.replace(((waste, ()), (target, back)))

    def played_safely(self, position: Position) -> Position:
        """Every safe card (:func:`safe_to_foundation`) from the waste and the columns to its
        foundation, repeatedly."""
        while True:
            waste = self.wastes[self.current_pass(position)]
            for source in (waste, *self.tableau):
                pile = position[source]
                if not pile or not pile[-1].face_up:
                    continue
                target = next(
                    (f for f in self.foundations if foundation_accepts(pile[-1], position[f])),
                    None,
                )
                if target is not None and safe_to_foundation(self, position, pile[-1]):
                    position = move_cards(position, source, target, auto_flip=True)
                    break
            else:
                return position

    # -- outcome ------------------------------------------------------------------------------

    def is_won(self, position: Position) -> bool:
        """Every card is on the foundations."""
        return self.score(position) == self.max_score

    def score(self, position: Position) -> int:
        """Cards on the foundations."""
        return sum(len(position[f]) for f in self.foundations)

    def status(self, position: Position) -> str:
        """``Stock left: N``, and ``Redeals left: M`` when redeals are counted (Aisleriot's)."""
        k = self.current_pass(position)
        text = f"Stock left: {len(position[2 * k])}"
        if self.redeals >= 0:
            text += f"   Redeals left: {self.passes - 1 - k if self.redeals else 0}"
        return text

    def why_illegal(self, position: Position, move: Move) -> str:
        """The klondike rules a refused move breaks; the generic reasons for the rest."""
        from patience_core.families._klondike_refusals import klondike_reason

        return klondike_reason(self, position, move) or super().why_illegal(position, move)


def _piles(passes: int, foundations: int, columns: int) -> tuple[PileSpec, ...]:
    talon: list[PileSpec] = []
    for k in range(passes):
        suffix = str(k + 1) if k else ""
        talon.append(PileSpec(f"s{suffix}", PileKind.STOCK, 0 if k == 0 else None))
        talon.append(PileSpec(f"w{suffix}", PileKind.WASTE, 1 if k == 0 else None))
    slot = 2
    found = [PileSpec(f"f{i + 1}", PileKind.FOUNDATION, slot + i) for i in range(foundations)]
    slot += foundations
    tableau = [PileSpec(f"t{i + 1}", PileKind.TABLEAU, slot + i) for i in range(columns)]
    return (*talon, *found, *tableau)


def _board(cls: type[KlondikeFamily]) -> BoardLayout:
    """Stocks and wastes top left, foundations top right, the columns fanned down below."""
    passes = cls.redeals + 1 if cls.redeals > 0 else 1
    foundations = cls.max_score // 13
    talon = [name for k in range(passes) for name in (f"s{k + 1 if k else ''}",
                                                      f"w{k + 1 if k else ''}")]  # fmt: skip
    gap = max(cls.columns - len(talon) - foundations, 1)
    top: list[str | None] = [*talon, *[None] * gap, *(f"f{i + 1}" for i in range(foundations))]
    return BoardLayout(
        [BoardRow(top), BoardRow([f"t{i + 1}" for i in range(cls.columns)], fan="down")]
    )
