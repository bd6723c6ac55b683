"""The free-cell family: FreeCell, Baker's Game, Eight Off and their kin, from a declaration.

Layer 3½ (above :mod:`patience_core.games`). Every card is dealt face up into the columns (and
optionally some free cells); cards go one at a time to free cells, to foundations built up in
suit from the Ace, and onto columns under the declared build policy. What a variant chooses is
listed in :attr:`FreeCellFamily.parameters`; RULES.md Part A "Baker's Game" and Part B §3 are
the rules this family generalises. Its search is :class:`FreeCellSearch`.

Piles, in position order: free cells ``c1..cN``, foundations ``f1..fN``, columns ``t1..tN``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from patience_core.engine import MS, DealNumber, microsoft_deal, supermove_limit
from patience_core.errors import BadSave
from patience_core.families._base import Family, Parameter
from patience_core.families._fcs import read_fcs, write_fcs
from patience_core.families._freecell_search import FreeCellSearch, search_class
from patience_core.families._freecell_text import rules_text
from patience_core.families._policies import POLICIES
from patience_core.games import BoardLayout, BoardRow, PositionFormat
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position, Rank

__all__ = ["FreeCellFamily"]

PARAMETERS = (
    Parameter("cells", "int", 4, "free cells, each holding one card", low=0, high=10),
    Parameter("columns", "int", 8, "tableau columns", low=1, high=13),
    Parameter("deck", "deck", "standard", "the deck; one foundation per 13 cards"),
    Parameter("build", "build", "alternate-colours", "how cards build down on a column"),
    Parameter("lift", "choice", "run", "what moves as a unit: a built run, or one card",
              choices=("run", "single")),
    Parameter("supermove", "choice", "full", "the longest run that moves: full = (free cells + "
              "1) x 2^(empty columns taking any card), cells = free cells + 1, none = no limit",
              choices=("full", "cells", "none")),
    Parameter("empty-columns", "empty", "any", "what an empty column accepts"),
    Parameter("auto-play", "choice", "safe", "after each move, cards go to the foundations: "
              "all that fit, only those no other card can need (safe), or none",
              choices=("all", "safe", "none")),
    Parameter("cells-dealt", "int", 0, "the last cards of the deal go to c1, c2, ...",
              low=0, high=10),
    Parameter("ms-deals", "bool", False, "also take Microsoft FreeCell deal numbers (ms:N)"),
)  # fmt: skip


class FreeCellFamily(Family):
    """A free-cell game from declared parameters (:data:`PARAMETERS`; defaults: FreeCell).

    A variant may also declare :class:`~patience_core.games.GameOption` s named like a parameter
    (Baker's Game's ``empty-columns``): the option chosen overrides the parameter's value.

    :param options: option name to value, as for every :class:`~patience_core.games.Game`.
    :raises BadOption: for an unknown option or value.
    """

    family = "freecell"
    parameters = PARAMETERS
    search_class = FreeCellSearch
    deal_schemes: ClassVar[tuple[str, ...]] = ("aisleriot",)
    #: The ``--game`` name Freecell Solver knows this variant by, for the fcs format's help.
    fcs_game: ClassVar[str] = "freecell"
    cells: ClassVar[int]
    columns: ClassVar[int]
    deck: ClassVar[str]
    build: ClassVar[str]
    lift: ClassVar[str]
    supermove: ClassVar[str]
    empty_columns: ClassVar[str]
    auto_play: ClassVar[str]
    cells_dealt: ClassVar[int]
    ms_deals: ClassVar[bool]

    @classmethod
    def max_score_for(cls, cards: int) -> int:
        """One point a card on the foundations: the deck's size."""
        return cards

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "name" not in cls.__dict__ or cls.declaration_problem():
            return
        if "search_class" not in cls.__dict__:
            fits, cards = POLICIES.build(cls.build).fits, POLICIES.deck(cls.deck).cards()
            several = any(sum(fits(c, o) for o in set(cards)) > 1 for c in set(cards))
            cls.search_class = search_class(cls.auto_play == "none", several)
        if "deal_schemes" not in cls.__dict__ and cls.ms_deals:
            cls.deal_schemes = ("aisleriot", MS)
        cells = [f"c{k + 1}" for k in range(cls.cells)]
        homes = [f"f{k + 1}" for k in range(cls.max_score // 13)]
        if "board" not in cls.__dict__:
            cls.board = BoardLayout(
                [BoardRow(cells + homes), BoardRow([f"t{k + 1}" for k in range(cls.columns)],
                                                   fan="down")]
            )  # fmt: skip
        one_deck = len(set(cards := POLICIES.deck(cls.deck).cards())) == len(cards) == 52
        # Freecell Solver's board text holds one standard deck: other decks have no fcs format.
        if "formats" not in cls.__dict__ and one_deck:
            help_ = f"Freecell Solver board text (fc-solve --game {cls.fcs_game})"
            cls.formats = (PositionFormat("fcs", write_fcs, read_fcs, help_),)

    @classmethod
    def rules_text(cls) -> str:
        """The rules text written from the declaration (:func:`rules_text`), then
        ``own_rules``."""
        return rules_text(cls)

    @classmethod
    def declaration_problem(cls) -> str | None:
        """The parameters' own checks, then: Microsoft deals need 52 cards in 8 columns, and the
        cells dealt must fit the cells."""
        problem = super().declaration_problem()
        if problem:
            return problem
        if cls.ms_deals and (cls.deck != "standard" or cls.columns != 8 or cls.cells_dealt):
            return "ms-deals is true; allowed only with deck 'standard', 8 columns, no cells dealt"
        if cls.cells_dealt > cls.cells:
            return f"cells-dealt is {cls.cells_dealt}; allowed: a whole number 0..{cls.cells}"
        cards = len(POLICIES.deck(cls.deck).cards())
        if cards % 13 or cards < cls.columns + cls.cells_dealt:
            return f"deck is {cls.deck!r}; allowed: a deck of whole suits, enough for the layout"
        return None

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        for parameter in self.parameters:
            if parameter.name in self.option_values:
                setattr(self, parameter.attribute, self.option_values[parameter.name])
        self.card_deck = POLICIES.deck(self.deck).cards()
        self.build_policy = POLICIES.build(self.build)
        self.empty_policy = POLICIES.empty(self.empty_columns)
        self.fits = self.build_policy.fits
        self.accepts = self.empty_policy.accepts
        c, f = self.cells, len(self.card_deck) // 13
        #: Pile indices by kind: free cells, foundations, columns; auto-play scans cells first.
        self.cell_piles = tuple(range(c))
        self.foundation_piles = tuple(range(c, c + f))
        self.column_piles = tuple(range(c + f, c + f + self.columns))
        self.sources = self.cell_piles + self.column_piles
        cards = list(dict.fromkeys(self.card_deck))
        #: Per card, the cards that could be built on it (the safe auto-play rule asks them).
        self.children = {card: [d for d in cards if self.fits(d, card)] for card in cards}
        self.copies = {card: self.card_deck.count(card) for card in cards}
        #: Whether every empty column takes any card (then empty columns double the supermove).
        self.open_columns = all(self.accepts(card) for card in cards)
        self._piles = (
            *(PileSpec(f"c{k + 1}", PileKind.FREE_CELL, i) for k, i in enumerate(self.cell_piles)),
            *(PileSpec(f"f{k + 1}", PileKind.FOUNDATION, i)
              for k, i in enumerate(self.foundation_piles)),
            *(PileSpec(f"t{k + 1}", PileKind.TABLEAU, i) for k, i in enumerate(self.column_piles)),
        )  # fmt: skip

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Free cells, foundations, columns."""
        return self._piles

    def new_deck(self) -> tuple[Card, ...]:
        """The declared deck, in Aisleriot's order."""
        return self.card_deck

    def deal(self, deal: DealNumber) -> Position:
        """Aisleriot's deal N, or for ``ms:N`` Microsoft FreeCell's deal N (columns as
        ``make-microsoft-freecell-board -t N`` prints them, column 1 is t1, bottom first)."""
        if deal.scheme == MS and MS in self.deal_schemes:
            return self._position([tuple(col) for col in microsoft_deal(deal.number)], [])
        return super().deal(deal)

    def layout(self, cards: list[Card]) -> Position:
        """Round-robin from ``cards[0]`` into t1, t2, ..., each card on top of the last (RULES.md
        Part B §3); the last ``cells-dealt`` cards go to c1, c2, ..."""
        rest = len(cards) - self.cells_dealt
        columns = [tuple(cards[k : rest : self.columns]) for k in range(self.columns)]
        return self._position(columns, cards[rest:])

    def _position(self, columns: list[tuple[Card, ...]], cells: list[Card]) -> Position:
        cell_piles = [(card,) for card in cells] + [()] * (self.cells - len(cells))
        return Position((*cell_piles, *((),) * len(self.foundation_piles), *columns))

    # -- moves ---------------------------------------------------------------------------------

    def run_length(self, pile: tuple[Card, ...]) -> int:
        """How many top cards of a non-empty column move as a unit at most (lift policy)."""
        if self.lift == "single":
            return 1
        length = 1
        while length < len(pile) and self.fits(pile[-length], pile[-length - 1]):
            length += 1
        return length

    def max_run(self, position: Position, target: int) -> int:
        """The longest run that may move onto pile ``target`` now (the supermove rule).

        Empty columns are counted before the move, so a source the move empties is not among
        them; the destination never is. They count only when they take any card: a run parked
        in them on the way must be allowed there (Baker's Game under ``kings``: free cells + 1).
        """
        if self.lift == "single":
            return 1
        free = sum(1 for i in self.cell_piles if not position[i])
        if self.supermove == "none":
            return len(self.card_deck)
        if self.supermove == "cells" or not self.open_columns:
            return free + 1
        empty = sum(1 for i in self.column_piles if i != target and not position[i])
        return supermove_limit(free, empty)

    def home(self, position: Position, source: int) -> int | None:
        """The foundation the top card of ``source`` may go to, or ``None``: the first that takes
        it, so an Ace goes to the first empty one (Baker's Game's decision, for every variant)."""
        pile = position[source]
        if not pile:
            return None
        card = pile[-1]
        for f in self.foundation_piles:
            onto = position[f]
            if (
                (card.suit == onto[-1].suit and card.rank == onto[-1].rank + 1)
                if onto
                else (card.rank == Rank.ACE)
            ):
                return f
        return None

    def legal_moves(self, position: Position) -> list[Move]:
        """Foundation moves by source; then runs (or cards) onto columns by source, target and
        longest first; then cards into empty free cells by source and cell."""
        if self.is_won(position):
            return []
        moves = []
        for source in self.sources:
            home = self.home(position, source)
            if home is not None:
                moves.append(Move.transfer(source, home))
        for source in self.sources:
            pile = position[source]
            if not pile:
                continue
            length = 1 if source < self.cells else self.run_length(pile)
            for target in self.column_piles:
                if target == source:
                    continue
                onto = position[target]
                for count in range(min(length, self.max_run(position, target)), 0, -1):
                    card = pile[-count]
                    if self.fits(card, onto[-1]) if onto else self.accepts(card):
                        moves.append(Move.transfer(source, target, count))
        empty_cells = [i for i in self.cell_piles if not position[i]]
        moves += [
            Move.transfer(source, cell)
            for source in self.sources
            if position[source]
            for cell in empty_cells
        ]
        return moves

    def is_safe_home(self, position: Position, card: Card) -> bool:
        """Whether ``card`` may go home without loss: every card that could be built on it is on
        a foundation already (the safe auto-play rule)."""
        home: dict[Card, int] = {}
        for f in self.foundation_piles:
            for c in position[f]:
                home[c] = home.get(c, 0) + 1
        return all(home.get(child, 0) >= self.copies[child] for child in self.children[card])

    def play(self, position: Position, move: Move) -> Position:
        """Move the cards, then auto-play (cells first, then columns; the first card that goes
        home moves and the scan restarts), as part of the same move."""
        assert move.target is not None
        piles = list(position.piles)
        cut = len(piles[move.source]) - move.count
        piles[move.target] += piles[move.source][cut:]
        piles[move.source] = piles[move.source][:cut]
        moved = Position(tuple(piles))
        while self.auto_play != "none":
            for source in self.sources:
                home = self.home(moved, source)
                if home is not None and (
                    self.auto_play == "all" or self.is_safe_home(moved, moved[source][-1])
                ):
                    piles[home] += piles[source][-1:]
                    piles[source] = piles[source][:-1]
                    moved = Position(tuple(piles))
                    break
            else:
                break
        return moved

    def why_illegal(self, position: Position, move: Move) -> str:
        """The rule a refused move breaks: the foundations, one card per free cell, the build,
        the run, the supermove limit, the empty-column policy."""
        if move.kind is MoveKind.DEAL:
            return f"{self.title} has no stock: every card is dealt at the start"
        if self.malformed(position, move):
            return super().why_illegal(position, move)
        target, pile = move.target, position[move.source]
        assert target is not None  # malformed() says so
        card = pile[-move.count]
        name, onto = self.card_name(card), position[target]
        if move.source in self.foundation_piles:
            return "cards never leave the foundations"
        if target in self.foundation_piles:
            if move.count > 1:
                return "a foundation takes one card at a time"
            if card.rank == Rank.ACE and onto:
                return "an Ace starts an empty foundation"
            if not onto:
                return f"a foundation starts with an Ace, not {name}"
            return f"foundations build up in suit: {name} does not go on {self.card_name(onto[-1])}"
        if target in self.cell_piles:
            if onto:
                return f"{self._piles[target].name} already holds {self.card_name(onto[-1])}"
            return "a free cell holds one card"
        if move.count > (1 if move.source < self.cells else self.run_length(pile)):
            if self.lift == "single":
                return "one card moves at a time"
            return f"{name} and the cards on it are not a run {self.build_policy.text}"
        limit = self.max_run(position, target)
        if move.count > limit:
            return f"only {limit} cards may move at once now (free cells and empty columns)"
        if not onto:
            if self.empty_columns == "kings":
                return "only a King may fill an empty column"
            return f"an empty column takes {self.empty_policy.text}, not {name}"
        parents = [self.card_name(p) for p in self.children if self.fits(card, p)]
        if not parents:
            return f"{name} goes on no card: it may only fill an empty column"
        wanted = " or ".join(parents) if len(parents) <= 2 else f"a card such as {parents[0]}"
        return (
            f"{self.title} builds {self.build_policy.text}: {name} goes on {wanted}, "
            f"not {self.card_name(onto[-1])}"
        )

    # -- positions and outcome -----------------------------------------------------------------

    def check_position(self, position: Position) -> None:
        """The deck check, then: every card face up, each foundation one suit built up from the
        Ace, each free cell at most one card.

        :raises BadSave: naming the first pile that breaks this.
        """
        super().check_position(position)
        for spec, pile in zip(self.piles, position.piles, strict=True):
            if any(not card.face_up for card in pile):
                raise BadSave(f"pile {spec.name} holds a face-down card; every card is face up")
        for number, home in enumerate(self.foundation_piles, start=1):
            pile = position[home]
            if any(c.rank != r or c.suit != pile[0].suit for r, c in enumerate(pile, start=1)):
                raise BadSave(f"foundation f{number} is not one suit built up from the Ace")
        for number, cell in enumerate(self.cell_piles, start=1):
            if len(position[cell]) > 1:
                raise BadSave(f"free cell c{number} holds more than one card")

    def is_won(self, position: Position) -> bool:
        """Won when every foundation holds 13 cards."""
        piles = position.piles
        for f in self.foundation_piles:  # noqa: SIM110 (stops at the first, with no generator)
            if len(piles[f]) != 13:
                return False
        return True

    def score(self, position: Position) -> int:
        """Cards on the foundations."""
        return sum(len(position[f]) for f in self.foundation_piles)

    def status(self, position: Position) -> str:
        """Free cells and columns empty, and cards home."""
        free = sum(1 for i in self.cell_piles if not position[i])
        empty = sum(1 for i in self.column_piles if not position[i])
        return (
            f"Free cells: {free}  Empty columns: {empty}  "
            f"Foundations: {self.score(position)}/{self.max_score}"
        )
