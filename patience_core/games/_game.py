"""The :class:`Game` interface every game plugin implements: the rules of one patience game.

Layer 3 of the architecture. A game is a subclass of :class:`Game` registered through the
``patience_register_games`` hook (see :mod:`patience_core.plugins.hookspecs`). Everything the
tools do with a game (dealing, move generation, applying a move with its automatic follow-ups,
won/lost, score, rules text, rendering) goes through this interface, so ``deal``, ``play``,
``score``, ``simulate`` work for every installed game, including third-party ones. What only
speeds the solver up lives beside the game, in its :class:`~patience_core.games.GameSearch`.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from typing import ClassVar

import attrs

from patience_core.engine import (
    AISLERIOT,
    DealNumber,
    aisleriot_shuffle,
    counted,
    format_move,
    parse_move,
    read_candidate,
    shown,
    standard_deck,
    unseen_card,
)
from patience_core.errors import BadDeal, BadSave, IllegalMove
from patience_core.games._board import BoardLayout
from patience_core.games._options import GameOption, chosen_options
from patience_core.games._refusals import card_name, generic_reason
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position

__all__ = ["Game", "Painter", "PositionFormat"]

#: A function that draws one card (or an empty pile, for ``None``) as exactly two visible
#: characters, e.g. ``"9♥"``, ``"##"`` for a face-down card, ``"--"`` for an empty pile. The
#: renderer supplies it; games never decide colours or symbols themselves.
Painter = Callable[[Card | None], str]


@attrs.frozen
class PositionFormat:
    """A named text format a game can write its positions in, and read them back from, e.g.
    Freecell Solver's board text for Baker's Game (``patience deal GAME --format NAME``,
    ``patience deal GAME --from FILE``).

    :param name: lower-case, e.g. ``"fcs"``; ``text`` and ``json`` are taken by the core.
    :param write: ``write(game, position)``: the text, ending with a newline.
    :param read: ``read(game, text)``: the position the text describes; raises
        :class:`~patience_core.errors.BadSave` with a one-line message for unreadable text.
        ``None`` for a format that is only written.
    :param help: one line for ``--help`` and the docs.
    """

    name: str
    write: Callable[[Game, Position], str]
    read: Callable[[Game, str], Position] | None = None
    help: str = ""


class Game(abc.ABC):
    """One patience game with one set of options. Subclass it once per game.

    A subclass sets the class attributes below and implements the abstract methods. Instances are
    cheap and stateless: the state of a game is a :class:`~patience_core.model.Position`, passed in
    and returned, never stored. Methods must be deterministic (no hash or set order, no clock).

    Class attributes a subclass sets:

    * ``name``: the game's name on the command line, lower case and hyphenated (``"escalator"``).
    * ``title``: the display name (``"Escalator"``).
    * ``max_score``: the largest score :meth:`score` returns.
    * ``rules``: the rules text shown by ``patience rules``; plain text, paragraphs.
    * ``options``: the :class:`GameOption` list (default none).
    * ``deal_schemes``: the deal numbering schemes the game accepts (default ``("aisleriot",)``).
    * ``formats``: extra :class:`PositionFormat` text formats (default none).
    * ``tableau_fan``: ``"down"`` (columns, the default) or ``"right"`` (one line per pile), for the
      default :meth:`render`.
    * ``board``: a :class:`BoardLayout` for the full-screen player (default: built from the piles).

    The registry checks them once, when the plugin registers the class
    (:func:`~patience_core.games.declaration_problem`): a wrong one makes the plugin broken, and
    it is skipped. What the methods answer is not checked while a game is played: the conformance
    kit (:mod:`patience_core.testing`) is where a plugin author learns an answer is wrong.

    :param options: option name to value; missing options take their defaults.
    :raises BadOption: for an unknown option name or a value not among its choices.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    max_score: ClassVar[int]
    rules: ClassVar[str]
    options: ClassVar[tuple[GameOption, ...]] = ()
    deal_schemes: ClassVar[tuple[str, ...]] = (AISLERIOT,)
    tableau_fan: ClassVar[str] = "down"
    #: Extra position text formats (see :class:`PositionFormat`); none by default.
    formats: ClassVar[tuple[PositionFormat, ...]] = ()
    #: Where the full-screen player draws the piles (see :class:`BoardLayout`, docs/rules-api.md
    #: "The board"); ``None`` draws the default board, built from the piles' kinds.
    board: ClassVar[BoardLayout | None] = None

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        #: The option values in force, every option present.
        self.option_values: dict[str, str] = chosen_options(self.name, self.options, options)

    # -- layout and dealing ------------------------------------------------------------------

    @property
    @abc.abstractmethod
    def piles(self) -> tuple[PileSpec, ...]:
        """The layout: one :class:`PileSpec` per pile, in position order."""

    def new_deck(self) -> tuple[Card, ...]:
        """The unshuffled deck in Aisleriot's order. Override for decks other than 52 cards."""
        return standard_deck()

    def deal(self, deal: DealNumber) -> Position:
        """The starting position of deal ``deal``.

        The default shuffles :meth:`new_deck` as Aisleriot does (RULES.md Part B §0.3) and hands
        the cards to :meth:`layout`. Games with other deal schemes (``ms``) override this.

        :raises BadDeal: when the game does not accept the deal's scheme.
        """
        if deal.scheme not in self.deal_schemes:
            raise BadDeal(f"{self.name} does not take {deal.scheme} deal numbers")
        return self.layout(aisleriot_shuffle(self.new_deck(), deal.number))

    @abc.abstractmethod
    def layout(self, cards: list[Card]) -> Position:
        """Lay out a shuffled deck: ``cards[0]`` is the top of Aisleriot's shuffled stock, the
        first card dealt. Cards arrive face up; turn face-down cards with ``Card.turned(False)``.
        """

    # -- moves --------------------------------------------------------------------------------

    @abc.abstractmethod
    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal move in ``position``, in a fixed, deterministic order.

        :returns: an empty list when the game is over (won, or no move exists).
        """

    @abc.abstractmethod
    def play(self, position: Position, move: Move) -> Position:
        """Apply a move **known to be legal**, with its automatic follow-ups (auto-flip, auto-play).

        No checking is done; use :meth:`apply` for untrusted moves.
        """

    def apply(self, position: Position, move: Move) -> Position:
        """Apply ``move`` after checking it is legal.

        :raises IllegalMove: when ``move`` is not among :meth:`legal_moves`.
        """
        if move not in self.legal_moves(position):
            raise IllegalMove(f"illegal move {self.move_text(position, move)!r}")
        return self.play(position, move)

    def check_position(self, position: Position) -> None:
        """Check that ``position`` (e.g. read from a file) could belong to this game: one pile per
        layout pile, and exactly the cards of :meth:`new_deck`, each once. Games with more rules
        for what a pile may hold extend it.

        :raises BadSave: with a one-line message naming the first problem.
        """
        if len(position) != len(self.piles):
            raise BadSave(
                f"position has {counted(len(position), 'pile')}; {self.name} has {len(self.piles)}"
            )
        deck: dict[tuple[int, int], int] = {}
        for card in self.new_deck():
            deck[(card.rank, card.suit)] = deck.get((card.rank, card.suit), 0) + 1
        for card in position.cards():
            key = (card.rank, card.suit)
            if deck.get(key, 0) == 0:
                raise BadSave(f"card {card.rank.letter}{card.suit.letter} appears too often")
            deck[key] -= 1
        for (rank, suit), left in deck.items():
            if left:
                missing = Card.of(rank, suit).code
                raise BadSave(
                    f"card {missing} is missing ({counted(sum(deck.values()), 'card')} missing)"
                )

    def position_format(self, name: str) -> PositionFormat | None:
        """The extra text format called ``name``; ``None`` when the game has none of that name."""
        return next((f for f in self.formats if f.name == name), None)

    # -- outcome ------------------------------------------------------------------------------

    @abc.abstractmethod
    def is_won(self, position: Position) -> bool:
        """Whether ``position`` satisfies the game's win test."""

    def is_lost(self, position: Position) -> bool:
        """Lost: not won and no legal move exists (RULES.md Part A, "Won / lost / dead")."""
        return not self.is_won(position) and not self.legal_moves(position)

    @abc.abstractmethod
    def score(self, position: Position) -> int:
        """The score of ``position``, 0..:attr:`max_score`; a pure function of the position."""

    def status(self, position: Position) -> str:
        """One line for the status bar; the default gives the stock count when there is a stock."""
        for i, spec in enumerate(self.piles):
            if spec.kind is PileKind.STOCK:
                return f"Stock left: {len(position[i])}"
        return ""

    # -- text ---------------------------------------------------------------------------------

    def move_text(self, position: Position, move: Move) -> str:
        """The canonical notation of ``move`` (see :mod:`patience_core.engine`)."""
        return format_move(self.piles, move, self.legal_moves(position))

    def parse_move(self, position: Position, text: str) -> Move:
        """Read a move typed by a player.

        :raises BadMoveText: for unreadable or ambiguous text.
        :raises IllegalMove: when the text names no legal move; when it names one move that is
            not legal (:func:`~patience_core.engine.read_candidate`), the message gives the
            rule it breaks (:meth:`why_illegal`): ``illegal move 't8 t7': only a King may fill
            an empty column``.
        """
        legal = self.legal_moves(position)
        try:
            return parse_move(text, self.piles, position, legal)
        except IllegalMove:
            candidate = read_candidate(text, self.piles, position)
            if candidate is None:
                unseen = unseen_card(text, position)
                if unseen is None:
                    raise
                reason = f"{card_name(unseen)} is not in view"
                raise IllegalMove(f"illegal move {shown(text)}: {reason}") from None
            if candidate in legal:
                raise
            reason = self.why_illegal(position, candidate)
            if self._bare_card_to_foundation(text, candidate):
                # A top card alone names no destination: the foundation tried is only one of
                # the places it could go, and the foundations' rule alone would mislead.
                moving = position[candidate.source][-1]
                if not reason.startswith(self.card_name(moving)):
                    reason = f"{self.card_name(moving)} has nowhere to go ({reason})"
            raise IllegalMove(f"illegal move {shown(text)}: {reason}") from None

    def _bare_card_to_foundation(self, text: str, candidate: Move) -> bool:
        """Whether ``text`` is a card alone, read as its top card to a foundation."""
        words = text.split()
        return (
            len(words) == 1
            and candidate.count == 1
            and candidate.target is not None
            and self.piles[candidate.target].kind is PileKind.FOUNDATION
            and not any(words[0].lower() == spec.name.lower() for spec in self.piles)
        )

    def why_illegal(self, position: Position, move: Move) -> str:
        """Why ``move``, which is not legal in ``position``, is refused: one short sentence
        naming the rule it breaks, without a final full stop, e.g. ``"the stock is empty"``,
        ``"8♥ is covered by 3♠ and 5♦"``, ``"only a King may fill an empty column"``.

        The default names the generic reason from the piles' kinds (an empty stock or source,
        a pile without that many cards, a face-down card, a foundation or a free cell that does
        not take the card, a card that does not build on another). Games override it for their
        own rules and fall back on ``super().why_illegal(...)`` (docs/rules-api.md). Both front
        ends show it for every refused move; it is not called for legal moves.

        :param move: a move of this game's layout; its pile indices may be any of the layout.
        :returns: a non-empty line.
        """
        return generic_reason(self.piles, position, move, self.legal_moves(position))

    def malformed(self, position: Position, move: Move) -> bool:
        """Whether the transfer ``move`` names no cards to move at all: no target, an empty
        source, a count outside ``1..len(source)``, or the source as its target. A game's
        :meth:`why_illegal` leaves these to the default, whose reasons say them well, before it
        names its own rules (docs/rules-api.md)."""
        target, pile = move.target, position[move.source]
        if target is None or target == move.source:
            return True
        return not pile or not 0 < move.count <= len(pile)

    def describe_move(self, position: Position, move: Move) -> str:
        """A sentence for people, e.g. ``"9♥ from p23 to the waste"``; used by hints and logs."""
        if move.kind is MoveKind.DEAL:
            return "deal from the stock"
        assert move.target is not None
        pile = position[move.source]
        card = pile[len(pile) - move.count]
        target = self.piles[move.target]
        if move.count == 1:
            cards = card.code
        elif move.count == 2:
            cards = f"{card.code} and the card on it"
        else:
            cards = f"{card.code} and the {move.count - 1} cards on it"
        return f"{cards} from {self.piles[move.source].name} to {target.name} ({target.kind.value})"

    def render(self, position: Position, paint: Painter) -> list[str]:
        """Draw ``position`` as lines of text, 80 columns wide at most.

        The default draws every non-tableau pile on one line as ``name top-card`` (the stock as a
        count), then the tableau: columns side by side when ``tableau_fan == "down"``, one line per
        pile when ``"right"``. Games with another shape (Escalator's pyramid) override it.

        :param paint: draws one card as two visible characters (see :data:`Painter`).
        """
        lines: list[str] = []
        top: list[str] = []
        tableau: list[int] = []
        for i, spec in enumerate(self.piles):
            pile = position[i]
            if spec.kind is PileKind.TABLEAU:
                tableau.append(i)
            elif spec.kind is PileKind.STOCK:
                top.append(f"{spec.name}:[{len(pile):2d}]")
            else:
                top.append(f"{spec.name}:{paint(pile[-1] if pile else None)}")
        for start in range(0, len(top), 8):
            lines.append("  ".join(top[start : start + 8]))
        if tableau and self.tableau_fan == "right":
            for i in tableau:
                cards = " ".join(paint(c) for c in position[i]) or paint(None)
                lines.append(f"{self.piles[i].name:>3}: {cards}")
        elif tableau:
            lines.append("")
            lines.append(" ".join(f"{self.piles[i].name:>3} " for i in tableau).rstrip())
            depth = max(len(position[i]) for i in tableau)
            for row in range(max(depth, 1)):
                cells = []
                for i in tableau:
                    pile = position[i]
                    if row < len(pile):
                        cells.append(f" {paint(pile[row])} ")
                    elif row == 0:
                        cells.append(f" {paint(None)} ")
                    else:
                        cells.append("    ")
                lines.append(" ".join(cells).rstrip())
        return lines

    # -- helpers for subclasses ---------------------------------------------------------------

    def pile_indices(self, kind: PileKind) -> tuple[int, ...]:
        """The indices of every pile of ``kind``, in layout order."""
        return tuple(i for i, spec in enumerate(self.piles) if spec.kind is kind)

    @staticmethod
    def card_name(card: Card) -> str:
        """A card as refusals and messages name it: ``"8♥"``, ``"T♠"``."""
        return card_name(card)

    def option(self, name: str) -> str:
        """The value in force of option ``name``.

        :raises KeyError: for an option the game does not declare.
        """
        return self.option_values[name]
