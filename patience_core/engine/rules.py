"""Rule building blocks shared by games: builds, runs, empty-pile policies, supermoves, auto-flip.

Games describe themselves with these pieces (RULES.md Part B §6, "Quick comparison") instead of
writing the same checks again. Every function here is pure and cheap: move generation calls them
in inner loops.
"""

from __future__ import annotations

import enum

from patience_core.model import Card, Rank

__all__ = [
    "Build",
    "EmptyPile",
    "adjacent_ranks",
    "builds_on",
    "flip_top",
    "next_rank",
    "run_length",
    "supermove_limit",
]


class Build(enum.Enum):
    """Which suit a card must have to go on a card one rank higher (building down)."""

    #: Same suit, e.g. 5♠ on 6♠ (Baker's Game).
    SAME_SUIT = "same-suit"
    #: Alternate colours, e.g. 5♠ on 6♥ (FreeCell, Klondike).
    ALTERNATE_COLOURS = "alternate-colours"
    #: Any suit, e.g. 5♠ on 6♣ or 6♥ (Bristol, Diamond Mine, Spiderette's drops).
    ANY_SUIT = "any-suit"


class EmptyPile(enum.Enum):
    """What an empty tableau pile accepts."""

    #: Any card or run.
    ANY = "any"
    #: Only a King, or a run whose bottom card is a King.
    KINGS = "kings"
    #: Nothing (Bristol).
    NONE = "none"

    def accepts(self, card: Card) -> bool:
        """Whether an empty pile under this policy takes a run whose bottom card is ``card``."""
        if self is EmptyPile.ANY:
            return True
        if self is EmptyPile.KINGS:
            return card.rank == Rank.KING
        return False


def builds_on(card: Card, onto: Card, build: Build) -> bool:
    """Whether ``card`` may go on ``onto`` when building down by one rank under ``build``.

    Both cards must be face up; no wrap (an Ace takes nothing, a King goes on nothing).
    """
    if not (card.face_up and onto.face_up) or card.rank + 1 != onto.rank:
        return False
    if build is Build.ANY_SUIT:
        return True
    if build is Build.SAME_SUIT:
        return card.suit == onto.suit
    return card.is_red != onto.is_red


def next_rank(rank: int, wrap: bool = False) -> int | None:
    """The rank one above ``rank`` (1..13); with ``wrap`` a King is followed by an Ace.

    :returns: the next rank, or ``None`` after a King without wrap.
    """
    if rank == Rank.KING:
        return Rank.ACE if wrap else None
    return rank + 1


def adjacent_ranks(a: int, b: int, wrap: bool = False) -> bool:
    """Whether ranks ``a`` and ``b`` differ by exactly one, with K↔A adjacent when ``wrap``."""
    diff = abs(a - b)
    return diff == 1 or (wrap and diff == 12)


def run_length(pile: tuple[Card, ...], build: Build) -> int:
    """The number of face-up cards at the top of ``pile`` that form a run built down by ``build``.

    :returns: 0 for an empty pile or a face-down top card; otherwise 1 or more.
    """
    if not pile or not pile[-1].face_up:
        return 0
    length = 1
    for i in range(len(pile) - 1, 0, -1):
        if builds_on(pile[i], pile[i - 1], build):
            length += 1
        else:
            break
    return length


def supermove_limit(free_cells: int, empty_columns: int) -> int:
    """The largest run that may move at once: ``(free_cells + 1) * 2 ** empty_columns``.

    :param free_cells: empty free cells.
    :param empty_columns: empty tableau columns, counting neither the destination nor the source
        when the move empties it (RULES.md Part B §3, supermove limit).
    """
    return (free_cells + 1) << max(empty_columns, 0)


def flip_top(pile: tuple[Card, ...]) -> tuple[Card, ...]:
    """``pile`` with its top card turned face up (auto-flip); unchanged when already up or empty."""
    if pile and not pile[-1].face_up:
        return pile[:-1] + (pile[-1].turned(True),)
    return pile
