"""The spider family: columns with face-down cards built down in any suit, runs moving in suit,
a stock dealt one card to each column, complete suits King to Ace going to foundations
(Spider with four, two or one suits, Spiderette).

Layer 3½ (above :mod:`patience_core.games`). A variant sets the parameters of
:attr:`SpiderFamily.parameters` as class attributes (or in a variant file)::

    class SpiderTwoSuits(SpiderFamily):
        name = "spider-two-suits"
        title = "Spider 2 Suits"
        deck = "two-decks-two-suits"

Layout, deal, moves and scoring follow Aisleriot's ``spider.scm`` (RULES.md Part B §5, which
Spiderette shares; docs/families.md, "The spider family"), so deal N of a declaration with
Aisleriot's deck and columns is Aisleriot's deal N card for card. Pile indices are Aisleriot's
slots: the stock 0, the foundations 1..F (one per 13 cards of the deck), then the columns.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any, ClassVar

from patience_core.engine import Build, EmptyPile, deal_round, move_cards, run_moves
from patience_core.errors import BadSave
from patience_core.families._base import Family, Parameter
from patience_core.families._policies import POLICIES
from patience_core.families._spider_search import SpiderSearch
from patience_core.games import BoardLayout, BoardRow
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position, Rank

__all__ = ["SpiderFamily", "complete_suit", "face_down_counts"]

#: Points for a suit completed (the 12 pairs it holds; RULES.md Part A "Spiderette").
SUIT_POINTS = 12
STOCK = 0
_BUILDS = {b.value: b for b in Build}
_EMPTIES = {e.value: e for e in EmptyPile}


def face_down_counts(text: str) -> tuple[int, ...] | None:
    """The face-down cards of each column from a ``face-down`` value (whole numbers 0..20
    separated by spaces, ``"5 4 4 5"``), or ``None`` when the text is not that."""
    words = text.split()
    if not words or not all(w.isdigit() and int(w) <= 20 for w in words):
        return None
    return tuple(int(w) for w in words)


def complete_suit(pile: Sequence[Card]) -> bool:
    """Whether ``pile`` (bottom first) is one suit's 13 cards face up, King at the bottom, Ace
    on top: what a spider foundation holds (RULES.md Part B §5)."""
    return (
        len(pile) == 13
        and pile[0].rank is Rank.KING
        and all(card.face_up for card in pile)
        and all(
            upper.suit is lower.suit and upper.rank == lower.rank - 1
            for lower, upper in itertools.pairwise(pile)
        )
    )


class SpiderFamily(Family):
    """Spider-like games: ``columns`` columns dealt ``face-down`` cards face down and one face up,
    the rest a stock dealt one card face up onto each column (refused while a column is empty,
    unless ``deal-onto-empty``); a run of the ``run`` policy moves onto a card by the ``build``
    policy or into an empty column (``empty-column``); a complete King-to-Ace suit goes to an
    empty foundation (by a move, or at once with ``suit-removal`` "auto").

    Piles: ``s`` (slot 0), ``f1``..``fF`` (one per 13 cards of the deck), ``t1``..``tN``. Score
    (Aisleriot's): each face-up card lying on the card of its suit one rank higher, plus 12 for
    each suit on the foundations; won when every suit is a complete run, on the tableau or the
    foundations, in any mix (exactly the maximum score).
    """

    family = "spider"
    parameters: ClassVar[tuple[Parameter, ...]] = (
        Parameter("deck", "deck", "two-decks", "the deck; one foundation per 13 cards"),
        Parameter("columns", "int", 10, "tableau columns", low=1, high=13),
        Parameter("face-down", "text", "5 4 4 5 4 4 5 4 4 5", "face-down cards dealt to each "
                  "column under its face-up card, one whole number per column"),
        Parameter("build", "build", "any-suit", "what a run's bottom card goes on"),
        Parameter("run", "build", "same-suit", "how the cards of a run that moves as a unit "
                  "are built"),
        Parameter("empty-column", "empty", "any", "what an empty column accepts"),
        Parameter("deal-onto-empty", "bool", False, "the stock may be dealt while a column is "
                  "empty (Aisleriot: no)"),
        Parameter("suit-removal", "choice", "by-move", "a complete suit goes to a foundation by "
                  "a move of the player (by-move), or at once (auto)",
                  choices=("by-move", "auto")),
    )  # fmt: skip
    search_class = SpiderSearch

    # The parameter values, as class attributes (defaults set by Family.__init_subclass__).
    deck: ClassVar[str]
    columns: ClassVar[int]
    face_down: ClassVar[str]
    build: ClassVar[str]
    run: ClassVar[str]
    empty_column: ClassVar[str]
    deal_onto_empty: ClassVar[bool]
    suit_removal: ClassVar[str]

    @classmethod
    def max_score_for(cls, cards: int) -> int:
        """Aisleriot's score: 12 points a suit (module docstring)."""
        return cards // 13 * SUIT_POINTS

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.declaration_problem() is None:
            cls.board = _board(cls)

    @classmethod
    def declaration_problem(cls) -> str | None:
        """The generic check, then: ``face-down`` has one count per column, and the deck's
        size is a whole number of suits."""
        problem = super().declaration_problem()
        if problem:
            return problem
        counts = face_down_counts(cls.face_down)
        if counts is None or len(counts) != cls.columns:
            if "face-down" in cls.defaulted:
                return (
                    f"face-down is not given, and its default {cls.face_down!r} is for "
                    f"{len(counts or ())} columns, not {cls.columns}; allowed: give face-down, "
                    f"{cls.columns} whole numbers 0..20 separated by spaces, one per column"
                )
            return (
                f"face-down is {cls.face_down!r}; allowed: {cls.columns} whole numbers 0..20 "
                "separated by spaces, one per column"
            )
        cards = len(POLICIES.deck(cls.deck).cards())
        if cards % 13 or cards < sum(counts) + cls.columns:
            return f"deck is {cls.deck!r}; allowed: a deck of whole suits, enough for the layout"
        return None

    def __init__(self, options: Any = None) -> None:
        super().__init__(options)
        self.fits = POLICIES.build(self.build).fits
        self.joins = POLICIES.build(self.run).fits
        self.accepts = POLICIES.empty(self.empty_column).accepts
        self.downs = face_down_counts(self.face_down) or ()
        self.foundations = tuple(range(1, 1 + self.max_score // SUIT_POINTS))
        first = len(self.foundations) + 1
        self.tableau = tuple(range(first, first + self.columns))
        self._piles = (
            PileSpec("s", PileKind.STOCK, STOCK),
            *(PileSpec(f"f{k}", PileKind.FOUNDATION, f) for k, f in enumerate(self.foundations, 1)),
            *(PileSpec(f"t{k}", PileKind.TABLEAU, t) for k, t in enumerate(self.tableau, 1)),
        )

    # -- rules text ---------------------------------------------------------------------------

    @classmethod
    def rules_text(cls) -> str:
        """The rules, written from the parameters (and ``own_rules`` last)."""
        from patience_core.families._spider_text import spider_rules

        return spider_rules(cls)

    # -- layout -------------------------------------------------------------------------------

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """The stock, the foundations, then the columns."""
        return self._piles

    def layout(self, cards: list[Card]) -> Position:
        """Aisleriot's deal: passes over the columns from ``cards[0]``, pass p giving one card
        to each column that gets more than p cards (Spider: five passes over all ten columns,
        a sixth over t1, t4, t7, t10; Spiderette: Klondike's passes); each column's last card
        is face up. The rest is the stock, the next card on its top (RULES.md Part B §5)."""
        columns: list[list[Card]] = [[] for _ in self.tableau]
        deck = iter(cards)
        for p in range(max(self.downs, default=0) + 1):
            for column, down in zip(columns, self.downs, strict=True):
                if down >= p:
                    column.append(next(deck).turned(False))
        stock = tuple(card.turned(False) for card in reversed(list(deck)))
        piles = tuple((*c[:-1], c[-1].turned(True)) for c in columns)
        return Position((stock, *((),) * len(self.foundations), *piles))

    # -- moves --------------------------------------------------------------------------------

    def can_deal(self, position: Position) -> bool:
        """The stock has cards and (unless ``deal-onto-empty``) no column is empty."""
        return bool(position[STOCK]) and (
            self.deal_onto_empty or all(position[c] for c in self.tableau)
        )

    def run_length(self, pile: Sequence[Card]) -> int:
        """The face-up cards at the top of ``pile`` that move as a unit (the ``run`` policy)."""
        if not pile or not pile[-1].face_up:
            return 0
        length = 1
        while (
            length < len(pile)
            and pile[-length - 1].face_up
            and self.joins(pile[-length], pile[-length - 1])
        ):
            length += 1
        return length

    def takes(self, position: Position, column: int, card: Card) -> bool:
        """Whether column ``column`` takes a run with ``card`` at its bottom."""
        pile = position[column]
        return self.fits(card, pile[-1]) if pile else self.accepts(card)

    def legal_moves(self, position: Position) -> list[Move]:
        """Runs onto columns (by source, target, longest first), complete suits to the first
        empty foundation, then the deal."""
        if self.is_won(position):
            return []
        runs = {c: self.run_length(position[c]) for c in self.tableau}
        if self.run in _BUILDS and self.build in _BUILDS and self.empty_column in _EMPTIES:
            # The engine's own loop when the policies are its built-in ones: faster.
            lift, drop = _BUILDS[self.run], _BUILDS[self.build]
            empty = _EMPTIES[self.empty_column]
            moves = run_moves(position, self.tableau, self.tableau, lift=lift, drop=drop,
                              empty=empty)  # fmt: skip
        else:
            moves = self._run_moves(position, runs)
        home = next((f for f in self.foundations if not position[f]), None)
        if home is not None:
            moves += [
                Move.transfer(c, home, 13)
                for c in self.tableau
                if runs[c] >= 13 and complete_suit(position[c][-13:])
            ]
        if self.can_deal(position):
            moves.append(Move.deal(STOCK))
        return moves

    def _run_moves(self, position: Position, runs: dict[int, int]) -> list[Move]:
        moves: list[Move] = []
        for source in self.tableau:
            pile = position[source]
            for target in self.tableau:
                if target != source:
                    moves += [
                        Move.transfer(source, target, count)
                        for count in range(runs[source], 0, -1)
                        if self.takes(position, target, pile[-count])
                    ]
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """A deal onto the columns (t1 first; the last may reach only the first few), or a run
        moved and the card it uncovers turned; then, with ``suit-removal`` "auto", every
        complete suit to a foundation."""
        if move.kind is MoveKind.DEAL:
            position = deal_round(position, STOCK, self.tableau)
        else:
            assert move.target is not None
            position = move_cards(position, move.source, move.target, move.count, auto_flip=True)
        if self.suit_removal == "auto":
            position = self.suits_removed(position)
        return position

    def suits_removed(self, position: Position) -> Position:
        """Every complete suit at the top of a column moved to an empty foundation (turning the
        card it uncovers), t1 first, until none is left."""
        while True:
            home = next((f for f in self.foundations if not position[f]), None)
            column = next((c for c in self.tableau if complete_suit(position[c][-13:])), None)
            if home is None or column is None:
                return position
            position = move_cards(position, column, home, 13, auto_flip=True)

    # -- outcome ------------------------------------------------------------------------------

    def score(self, position: Position) -> int:
        """Face-up cards on the card of their suit one rank higher, + 12 per completed suit."""
        pairs = 0
        for column in self.tableau:
            for lower, upper in itertools.pairwise(position[column]):
                if (
                    lower.face_up
                    and upper.face_up
                    and upper.suit == lower.suit
                    and upper.rank + 1 == lower.rank
                ):
                    pairs += 1
        return pairs + SUIT_POINTS * sum(1 for f in self.foundations if position[f])

    def is_won(self, position: Position) -> bool:
        """Every suit is a complete run, on the tableau or the foundations: exactly the
        maximum score (a run holds 13 cards at most, so 12 pairs per 13 cards only when every
        run is a whole suit). A quick refusal first: a card in the stock or face down."""
        if position[STOCK]:
            return False
        if any(position[c] and not position[c][0].face_up for c in self.tableau):
            return False
        return self.score(position) == self.max_score

    def status(self, position: Position) -> str:
        """``Stock left: N``, with a reminder when an empty column blocks the deal."""
        text = f"Stock left: {len(position[STOCK])}"
        if position[STOCK] and not self.can_deal(position):
            text += "  (fill every empty column before dealing)"
        return text

    def check_position(self, position: Position) -> None:
        """The deck check, then: the stock face down; in each column the face-down cards below
        the face-up ones and its top card face up; each foundation empty or one complete suit.

        :raises BadSave: naming the first pile that holds anything else.
        """
        super().check_position(position)
        if any(card.face_up for card in position[STOCK]):
            raise BadSave("the stock holds a face-up card")
        for number, column in enumerate(self.tableau, start=1):
            ups = [card.face_up for card in position[column]]
            if ups and (not ups[-1] or ups != sorted(ups)):
                raise BadSave(
                    f"column t{number}: face-down cards must lie below the face-up ones, "
                    "and its top card face up"
                )
        for number, home in enumerate(self.foundations, start=1):
            if any(not card.face_up for card in position[home]):
                raise BadSave(f"foundation f{number} holds a face-down card")
        for number, home in enumerate(self.foundations, start=1):
            if position[home] and not complete_suit(position[home]):
                raise BadSave(f"foundation f{number} holds cards that are not one complete suit")

    def why_illegal(self, position: Position, move: Move) -> str:
        """The spider rules a refused move breaks; the generic reasons for the rest."""
        from patience_core.families._spider_text import spider_reason

        return spider_reason(self, position, move) or super().why_illegal(position, move)


def _board(cls: type[SpiderFamily]) -> BoardLayout:
    """The stock over the first column, the foundations at the right, the columns below."""
    foundations = cls.max_score // SUIT_POINTS
    gap = max(cls.columns - 1 - foundations, 0)
    top: list[str | None] = ["s", *[None] * gap, *(f"f{k}" for k in range(1, foundations + 1))]
    return BoardLayout(
        [BoardRow(top), BoardRow([f"t{k}" for k in range(1, cls.columns + 1)], fan="down")]
    )
