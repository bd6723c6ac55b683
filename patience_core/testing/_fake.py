"""A tiny fake game, and the plugin that registers it, for tests of patience itself.

The core's own tests run against it with only patience-core installed; a plugin author's tests
may use it too (the ``patience_extra_plugins`` fixture, :data:`FAKE_PLUGIN`). It is registered
by this module, a plugin object in the test kit, never through an entry point, so it never
appears in a user's ``patience list``.

The game exercises what the core does with a game, at a size every search decides at once: a
12-card deck (Ace to Six of clubs and of hearts, :meth:`FakeGame.new_deck`) dealt by aisleriot
deal numbers; a stock dealt one card at a time onto the waste; two foundations; three tableau
piles whose lower cards lie face down (so honest hints and "what a player sees" matter); an
option with two choices. Its rules are written with :mod:`patience_core.engine`'s building
blocks only; it has no search helpers.
"""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.engine import (
    Build,
    EmptyPile,
    builds_on,
    deal_round,
    foundation_accepts,
    move_cards,
    run_moves,
)
from patience_core.games import Game, GameOption, GameRegistry
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position, Rank, Suit

__all__ = ["FAKE_PLUGIN", "FakeGame", "patience_register_games"]

#: The import path of the plugin that registers :class:`FakeGame` (this module), for
#: :class:`~patience_core.plugins.PluginHost`'s entry points and the ``patience_extra_plugins``
#: fixture.
FAKE_PLUGIN = __name__

STOCK, WASTE = 0, 1
FOUNDATIONS = (2, 3)
TABLEAU = (4, 5, 6)
#: The suits and the highest rank of the deck: Ace to Six of clubs and of hearts.
SUITS = (Suit.CLUBS, Suit.HEARTS)
TOP_RANK = Rank.SIX

RULES = """\
Fake Patience

A tiny game for testing patience itself: Ace to Six of clubs and of hearts (12 cards).

Layout: three tableau piles of 1, 2 and 3 cards, only the top card of each face up; the other
six cards face down in the stock; an empty waste and two empty foundations.

Play: 'deal' turns the top stock card onto the waste; there is no redeal. Foundations build up
in suit from the Ace. Tableau piles build down in suit; a run moves as a unit. The waste's top
card may go to a foundation or a tableau pile. A face-down card left on top of a tableau pile
is turned face up. Option empty-piles: 'none' (the default: an empty tableau pile takes
nothing) or 'any' (it takes any card or run).

Won when all 12 cards are on the foundations. Score: cards on the foundations (12 at most).
"""


class FakeGame(Game):
    """Fake Patience: a 12-card game with a stock, a waste, two foundations and three tableau
    piles (see the module's docstring and :data:`RULES`).

    Piles: ``s`` stock, ``w`` waste, ``f1`` ``f2`` foundations, ``t1``..``t3`` tableau.

    :param options: ``{"empty-piles": "none" | "any"}`` (default ``none``).
    :raises BadOption: for another option or value.
    """

    name = "fake"
    title = "Fake Patience"
    max_score = len(SUITS) * TOP_RANK
    rules = RULES
    options = (
        GameOption(
            "empty-piles", ("none", "any"), "none", "what an empty tableau pile takes: none or any"
        ),
    )

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Stock, waste, two foundations, three tableau piles."""
        return (
            PileSpec("s", PileKind.STOCK),
            PileSpec("w", PileKind.WASTE),
            PileSpec("f1", PileKind.FOUNDATION),
            PileSpec("f2", PileKind.FOUNDATION),
            *(PileSpec(f"t{i}", PileKind.TABLEAU) for i in (1, 2, 3)),
        )

    @property
    def empty(self) -> EmptyPile:
        """What an empty tableau pile takes, by the ``empty-piles`` option."""
        return EmptyPile.ANY if self.option_values["empty-piles"] == "any" else EmptyPile.NONE

    def new_deck(self) -> tuple[Card, ...]:
        """Ace to Six of clubs, then of hearts, face up."""
        return tuple(Card.of(rank, suit) for suit in SUITS for rank in range(1, TOP_RANK + 1))

    def layout(self, cards: list[Card]) -> Position:
        """Tableau piles of 1, 2, 3 cards from the first six dealt, only their top cards face
        up; the other six face down in the stock, the seventh card dealt on top."""
        tableau: list[tuple[Card, ...]] = []
        start = 0
        for size in (1, 2, 3):
            pile = cards[start : start + size]
            tableau.append(tuple(card.turned(False) for card in pile[:-1]) + (pile[-1],))
            start += size
        stock = tuple(card.turned(False) for card in reversed(cards[start:]))
        return Position((stock, (), (), (), *tableau))

    def legal_moves(self, position: Position) -> list[Move]:
        """Cards to the foundations (waste first, then the tableau), runs between tableau
        piles, the waste card to the tableau, then the deal."""
        moves: list[Move] = []
        for source in (WASTE, *TABLEAU):
            card = position.top(source)
            if card is None or not card.face_up:
                continue
            # An Ace goes to the first empty foundation only: two moves to two empty
            # foundations would be the same move twice.
            target = next(
                (f for f in FOUNDATIONS if foundation_accepts(card, position[f], Build.SAME_SUIT)),
                None,
            )
            if target is not None:
                moves.append(Move.transfer(source, target))
        moves += run_moves(
            position,
            TABLEAU,
            TABLEAU,
            lift=Build.SAME_SUIT,
            drop=Build.SAME_SUIT,
            empty=self.empty,
        )
        card = position.top(WASTE)
        if card is not None:
            for target in TABLEAU:
                onto = position.top(target)
                if (onto is None and self.empty.accepts(card)) or (
                    onto is not None and builds_on(card, onto, Build.SAME_SUIT)
                ):
                    moves.append(Move.transfer(WASTE, target))
        if position[STOCK]:
            moves.append(Move.deal(STOCK))
        return moves

    def play(self, position: Position, move: Move) -> Position:
        """Turn a stock card onto the waste, or move cards, turning up a face-down card left on
        top of the source (RULES.md Part A, "Automatic actions": part of the same move)."""
        if move.kind is MoveKind.DEAL:
            return deal_round(position, STOCK, (WASTE,), face_up=True)
        assert move.target is not None
        return move_cards(position, move.source, move.target, move.count, auto_flip=True)

    def is_won(self, position: Position) -> bool:
        """Every card is on the foundations."""
        return self.score(position) == self.max_score

    def score(self, position: Position) -> int:
        """Cards on the foundations."""
        return sum(len(position[f]) for f in FOUNDATIONS)


@hookimpl
def patience_register_games(registry: GameRegistry) -> None:
    """Register :class:`FakeGame`."""
    registry.add(FakeGame)
