"""The card, pile and game-position model: immutable values, standard library and attrs only.

Layer 1 of the architecture (see ``docs/architecture.md``): nothing here knows a game's rules, the
terminal or the command line.

Conventions used everywhere in patience:

* A pile is a ``tuple[Card, ...]`` listed **bottom first**: ``pile[-1]`` is the top card, the one a
  player can take. (Aisleriot and the golden files list piles top first; the deal code converts.)
* A :class:`Position` is the tuple of every pile of a game, in the order of the game's
  :attr:`~patience_core.games.Game.piles` layout.
* Cards are interned: ``Card.of(rank, suit, face_up)`` always returns the same object, so building
  positions in bulk (simulation, search) does not allocate new cards.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

import attrs

__all__ = [
    "Card",
    "Move",
    "MoveKind",
    "PileKind",
    "PileSpec",
    "Position",
    "Rank",
    "Suit",
]


class Suit(enum.IntEnum):
    """A card suit. Values are Aisleriot's suit indices (RULES.md Part B, notation)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One lower-case letter: ``c``, ``d``, ``h`` or ``s``."""
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, e.g. ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def from_letter(cls, letter: str) -> Suit:
        """Parse ``c``/``d``/``h``/``s`` (either case) or a suit symbol.

        :raises ValueError: for anything else.
        """
        text = letter.strip().lower()
        for suit in cls:
            if text in (suit.letter, suit.symbol):
                return suit
        raise ValueError(f"not a suit: {letter!r}")


class Rank(enum.IntEnum):
    """A card rank, aces low: ACE = 1 ... KING = 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """One character: ``A 2 3 4 5 6 7 8 9 T J Q K``."""
        return "A23456789TJQK"[self - 1]

    @classmethod
    def from_text(cls, text: str) -> Rank:
        """Parse ``A``, ``2``..``9``, ``T`` or ``10``, ``J``, ``Q``, ``K`` (either case).

        :raises ValueError: for anything else.
        """
        value = text.strip().upper()
        if value == "10":
            value = "T"
        if len(value) == 1 and value in "A23456789TJQK":
            return cls("A23456789TJQK".index(value) + 1)
        raise ValueError(f"not a rank: {text!r}")


@attrs.frozen(repr=False, cache_hash=True)
class Card:
    """One playing card: a rank, a suit, and whether it lies face up.

    Build cards with :meth:`Card.of` or :meth:`Card.from_code`, which return interned instances;
    use :meth:`turned` (never ``attrs.evolve``) to turn one over.
    """

    rank: Rank
    suit: Suit
    face_up: bool = True

    @classmethod
    def of(cls, rank: int, suit: int, face_up: bool = True) -> Card:
        """The interned card of ``rank`` (1..13) and ``suit`` (0..3).

        :raises KeyError: for a rank or suit out of range.
        """
        return _CARDS[(int(rank), int(suit), bool(face_up))]

    @classmethod
    def from_code(cls, code: str) -> Card:
        """Parse a card code such as ``"QH"``, ``"Qh"``, ``"10s"``, ``"Q♥"``; a leading ``*`` means
        face down (the golden files' notation).

        :raises ValueError: when ``code`` is not a card.
        """
        text = code.strip()
        face_up = not text.startswith("*")
        if not face_up:
            text = text[1:]
        if len(text) < 2:
            raise ValueError(f"not a card: {code!r}")
        return cls.of(Rank.from_text(text[:-1]), Suit.from_letter(text[-1]), face_up)

    @property
    def code(self) -> str:
        """Two characters, rank then lower-case suit letter, e.g. ``"Qh"``, ``"Tc"``."""
        return self.rank.letter + self.suit.letter

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts."""
        return self.suit.is_red

    def turned(self, face_up: bool) -> Card:
        """This card lying face up (``True``) or face down (``False``)."""
        return _CARDS[(self.rank, self.suit, face_up)]

    def __repr__(self) -> str:
        return f"Card({self.code}{'' if self.face_up else ', down'})"

    def __str__(self) -> str:
        return self.code if self.face_up else "*" + self.code


_CARDS: dict[tuple[int, int, bool], Card] = {}
for _suit in Suit:
    for _rank in Rank:
        for _up in (True, False):
            _CARDS[(_rank, _suit, _up)] = Card(_rank, _suit, _up)
            _CARDS[(int(_rank), int(_suit), _up)] = _CARDS[(_rank, _suit, _up)]


class PileKind(enum.Enum):
    """What a pile is, in the field's standard terms."""

    STOCK = "stock"
    WASTE = "waste"
    FOUNDATION = "foundation"
    TABLEAU = "tableau"
    RESERVE = "reserve"
    FREE_CELL = "free cell"


@attrs.frozen
class PileSpec:
    """The description of one pile of a game's layout.

    :param name: the short name used in move notation and saved games, e.g. ``"t3"``, ``"f1"``,
        ``"w"``. Lower case letters then optional digits; unique within a game.
    :param kind: what the pile is.
    :param slot: Aisleriot's slot id for this pile (RULES.md Part B), or ``None`` for games that
        have no Aisleriot counterpart.
    """

    name: str
    kind: PileKind
    slot: int | None = None


class MoveKind(enum.Enum):
    """The kinds of player action."""

    #: Take ``count`` cards from the top of ``source`` and put them on ``target``.
    TRANSFER = "transfer"
    #: Deal from the stock (Escalator turns a card, Bristol and Spiderette deal a round).
    DEAL = "deal"


@attrs.frozen
class Move:
    """One player action, before its automatic follow-ups (auto-flip, auto-play).

    :param kind: a transfer of cards, or a deal from the stock.
    :param source: index of the pile cards leave (for a deal, the stock's index).
    :param target: index of the pile cards go to; ``None`` for a deal.
    :param count: number of cards moved by a transfer (1 for a single card; a run is more).
    """

    kind: MoveKind
    source: int
    target: int | None = None
    count: int = 1

    @classmethod
    def transfer(cls, source: int, target: int, count: int = 1) -> Move:
        """A move of the top ``count`` cards of pile ``source`` onto pile ``target``."""
        return cls(MoveKind.TRANSFER, source, target, count)

    @classmethod
    def deal(cls, stock: int) -> Move:
        """A deal from the stock pile at index ``stock``."""
        return cls(MoveKind.DEAL, stock, None, 0)


@attrs.frozen(cache_hash=True)
class Position:
    """The state of a game: every pile, in layout order, each bottom first.

    Positions are immutable and hashable; equal positions have equal scores (RULES.md Part A,
    "Scoring is a pure function of the position").

    :param piles: one tuple of :class:`Card` per pile of the game's layout.
    """

    piles: tuple[tuple[Card, ...], ...]

    def __len__(self) -> int:
        return len(self.piles)

    def __getitem__(self, index: int) -> tuple[Card, ...]:
        return self.piles[index]

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        return iter(self.piles)

    def top(self, index: int) -> Card | None:
        """The top card of pile ``index``, or ``None`` when the pile is empty."""
        pile = self.piles[index]
        return pile[-1] if pile else None

    def cards(self) -> Iterator[Card]:
        """Every card of the position, pile by pile, bottom first."""
        for pile in self.piles:
            yield from pile

    def replace(self, changes: Iterable[tuple[int, tuple[Card, ...]]]) -> Position:
        """A new position with the piles at the given indices replaced.

        :param changes: ``(pile index, new pile)`` pairs.
        """
        piles = list(self.piles)
        for index, pile in changes:
            piles[index] = pile
        return Position(tuple(piles))
