"""The rules of Baker's Game (RULES.md Part A "Baker's Game", Part B §3)."""

from __future__ import annotations

from collections.abc import Mapping

from patience_bakers_game.fcs import read_fcs, write_fcs
from patience_core.api import (
    MS,
    BadSave,
    BoardLayout,
    BoardRow,
    Build,
    Card,
    DealNumber,
    EmptyPile,
    Game,
    GameOption,
    Move,
    MoveKind,
    PileKind,
    PileSpec,
    Position,
    PositionFormat,
    Rank,
    auto_play,
    foundation_accepts,
    microsoft_deal,
    move_cards,
    run_length,
    run_moves,
    supermove_limit,
)

#: Pile indices; each equals the pile's Aisleriot slot id (Part B §3, Layout).
CELLS = (0, 1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
COLUMNS = (8, 9, 10, 11, 12, 13, 14, 15)
#: Auto-play scans free cells, then columns (Part B §3, Auto-play).
AUTO_SOURCES = CELLS + COLUMNS

EMPTY_COLUMNS = GameOption(
    "empty-columns",
    ("kings", "any"),
    "kings",
    "kings: an empty column takes only a King or a King-led run, runs of at most free cells + 1; "
    "any: it takes any card or run, and runs double for every other empty column",
)

RULES = """\
Baker's Game

Layout: 52 cards face up in eight columns (t1-t4 hold 7 cards, t5-t8 hold 6); four free cells
c1-c4 and four foundations f1-f4, all empty at the start.

Goal: build each foundation up in suit from Ace to King.

Play: the top card of a column or a free cell may go to a foundation (an Ace to an empty one, then
the same suit one rank higher), to an empty free cell, or onto a column whose top card is of the
same suit and one rank higher. A free cell holds one card.

Runs: a run of cards of one suit in descending order may move as a unit from column to column.
By default an empty column accepts only a King or a run that starts with a King, and a run may be
at most (empty free cells + 1) cards long. With the option empty-columns=any, an empty column
accepts any card or run, and the limit doubles for every empty column that is neither the
destination nor the source: (empty free cells + 1) x 2^(empty columns).

Auto-play: after every move, each card that fits its foundation is moved there, again and again,
as part of the same move (free cells first, then columns). There is no auto-play at the deal.

Lost: when no legal move is left.

Score: one point per card on the foundations (52 at most).

Moves: 't3 t5' moves the run that fits from t3 onto t5 ('t3 t5 2' names the count); 't3 c' to a
free cell; 'c1 f' or 't3 f' to a foundation; a card's name such as '9h t5' also works.

Deals: --deal N is Aisleriot's deal N; --deal ms:N is Microsoft FreeCell's deal N.
"""


class BakersGame(Game):
    """Baker's Game: FreeCell with same-suit building.

    Piles (Aisleriot slots, RULES.md Part B §3): ``c1``..``c4`` free cells (slots 0-3),
    ``f1``..``f4`` foundations (slots 4-7), ``t1``..``t8`` columns (slots 8-15); the index of a
    pile in a position is its slot id.

    :param options: ``{"empty-columns": "kings" | "any"}`` (default ``kings``, RULES.md Part A).
    :raises BadOption: for an unknown option or value.
    """

    name = "bakers-game"
    title = "Baker's Game"
    max_score = 52
    rules = RULES
    options = (EMPTY_COLUMNS,)
    #: Free cells and foundations over the eight columns, as in FreeCell.
    board = BoardLayout(
        [
            BoardRow(["c1", "c2", "c3", "c4", "f1", "f2", "f3", "f4"]),
            BoardRow([f"t{k}" for k in range(1, len(COLUMNS) + 1)], fan="down"),
        ]
    )
    deal_schemes = ("aisleriot", MS)
    formats = (
        PositionFormat(
            "fcs", write_fcs, read_fcs, "Freecell Solver board text (fc-solve --game bakers_game)"
        ),
    )
    _piles = (
        *(PileSpec(f"c{k + 1}", PileKind.FREE_CELL, slot) for k, slot in enumerate(CELLS)),
        *(PileSpec(f"f{k + 1}", PileKind.FOUNDATION, slot) for k, slot in enumerate(FOUNDATIONS)),
        *(PileSpec(f"t{k + 1}", PileKind.TABLEAU, slot) for k, slot in enumerate(COLUMNS)),
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self._kings_only = self.option("empty-columns") == "kings"

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        """Free cells c1-c4, foundations f1-f4, columns t1-t8."""
        return self._piles

    @property
    def kings_only(self) -> bool:
        """Whether empty columns take only King-led runs (option ``empty-columns=kings``)."""
        return self._kings_only

    def deal(self, deal: DealNumber) -> Position:
        """Aisleriot's deal, or for ``ms:N`` Microsoft FreeCell's deal N (RULES.md Part A)."""
        if deal.scheme == MS:
            return self._with_columns([tuple(column) for column in microsoft_deal(deal.number)])
        return super().deal(deal)

    def layout(self, cards: list[Card]) -> Position:
        """Round-robin from ``cards[0]`` into t1..t8, each card on top of the last (Part B §3)."""
        return self._with_columns([tuple(cards[k::8]) for k in range(8)])

    def _with_columns(self, columns: list[tuple[Card, ...]]) -> Position:
        return Position(((),) * (len(CELLS) + len(FOUNDATIONS)) + tuple(columns))

    def max_run(self, position: Position, target: int) -> int:
        """The longest run that may move onto pile ``target`` now (Part A, Part B §3 supermove).

        Empty columns are counted before the move, so a source the move empties is not among
        them; the destination never is.
        """
        free = sum(1 for i in CELLS if not position[i])
        if self.kings_only:
            return free + 1
        empty = sum(1 for i in COLUMNS if i != target and not position[i])
        return supermove_limit(free, empty)

    def home(self, position: Position, source: int) -> int | None:
        """The foundation the top card of pile ``source`` may go to, or ``None``.

        Foundations fill in order: an Ace goes to the first empty one, as in auto-play (docs).
        """
        pile = position[source]
        if not pile:
            return None
        return next((f for f in FOUNDATIONS if foundation_accepts(pile[-1], position[f])), None)

    def legal_moves(self, position: Position) -> list[Move]:
        """Foundation moves, then runs and cell cards onto columns, then cards into free cells
        (RULES.md Part A "Baker's Game", Part B §3), from the engine's building blocks.

        A card goes only to the first foundation that takes it, so an Ace always goes to the first
        empty one, as in auto-play; any empty free cell may be chosen. (The search object plays
        from the same list computed faster: :func:`patience_bakers_game.search.legal_moves`.)
        """
        if self.is_won(position):
            return []
        moves = []
        for source in AUTO_SOURCES:
            home = self.home(position, source)
            if home is not None:
                moves.append(Move.transfer(source, home))
        moves += run_moves(
            position,
            AUTO_SOURCES,
            COLUMNS,
            lift=Build.SAME_SUIT,
            drop=Build.SAME_SUIT,
            empty=EmptyPile.KINGS if self.kings_only else EmptyPile.ANY,
            max_run=lambda target: self.max_run(position, target),
        )
        empty_cells = [i for i in CELLS if not position[i]]
        moves += [
            Move.transfer(source, cell)
            for source in AUTO_SOURCES
            if position[source]
            for cell in empty_cells
        ]
        return moves

    def why_illegal(self, position: Position, move: Move) -> str:
        """Baker's Game's rules a refused move breaks (RULES.md Part A "Baker's Game", Part B
        §3): building down in suit, the Aces starting the foundations, one card per free cell,
        the supermove limit, and (with ``empty-columns=kings``) only Kings into empty columns.
        """
        if move.kind is MoveKind.DEAL:
            return "Baker's Game has no stock: every card is dealt at the start"
        if self.malformed(position, move):
            return super().why_illegal(position, move)
        target, pile = move.target, position[move.source]
        assert target is not None  # malformed() says so
        card = pile[-move.count]
        name, onto = self.card_name(card), position[target]
        if move.source in FOUNDATIONS:
            return "cards never leave the foundations"
        if target in FOUNDATIONS:
            if move.count > 1:
                return "a foundation takes one card at a time"
            if card.rank == Rank.ACE and onto:
                return "an Ace starts an empty foundation"
            if not onto:
                return f"a foundation starts with an Ace, not {name}"
            return f"foundations build up in suit: {name} does not go on {self.card_name(onto[-1])}"
        if target in CELLS:
            if onto:
                return f"{self._piles[target].name} already holds {self.card_name(onto[-1])}"
            return "a free cell holds one card"
        if move.count > run_length(pile, Build.SAME_SUIT):
            return f"{name} and the cards on it are not a run down in suit"
        limit = self.max_run(position, target)
        if move.count > limit:
            return f"only {limit} cards may move at once now (free cells and empty columns)"
        if not onto:
            if self.kings_only:
                return "only a King may fill an empty column"
            return super().why_illegal(position, move)
        top = onto[-1]
        if card.rank == Rank.KING:
            return "a King goes on no card: it may only fill an empty column"
        wanted = self.card_name(Card.of(card.rank + 1, card.suit))
        return (
            f"Baker's Game builds down in suit: {name} goes on {wanted}, not {self.card_name(top)}"
        )

    def play(self, position: Position, move: Move) -> Position:
        """Move the cards, then auto-play to the foundations as part of the same move."""
        assert move.target is not None
        moved = move_cards(position, move.source, move.target, move.count)
        return auto_play(moved, AUTO_SOURCES, FOUNDATIONS)

    def check_position(self, position: Position) -> None:
        """The deck check, then: every card face up (Baker's Game deals them all face up),
        each foundation holds one suit built up from the Ace (Part B §3), and each free cell at
        most one card.

        :raises BadSave: naming the first pile that breaks this.
        """
        super().check_position(position)
        for spec, pile in zip(self.piles, position.piles, strict=True):
            if any(not card.face_up for card in pile):
                raise BadSave(f"pile {spec.name} holds a face-down card; every card is face up")
        for number, home in enumerate(FOUNDATIONS, start=1):
            pile = position[home]
            if any(
                card.rank != rank or card.suit != pile[0].suit
                for rank, card in enumerate(pile, start=1)
            ):
                raise BadSave(f"foundation f{number} is not one suit built up from the Ace")
        for number, cell in enumerate(CELLS, start=1):
            if len(position[cell]) > 1:
                raise BadSave(f"free cell c{number} holds more than one card")

    def is_won(self, position: Position) -> bool:
        """Won when every foundation holds 13 cards."""
        piles = position.piles
        return len(piles[4]) == len(piles[5]) == len(piles[6]) == len(piles[7]) == 13

    def score(self, position: Position) -> int:
        """Cards on the foundations (0..52)."""
        return sum(len(position[f]) for f in FOUNDATIONS)

    def status(self, position: Position) -> str:
        """Free cells and columns empty, and cards home."""
        free = sum(1 for i in CELLS if not position[i])
        empty = sum(1 for i in COLUMNS if not position[i])
        return f"Free cells: {free}  Empty columns: {empty}  Foundations: {self.score(position)}/52"
