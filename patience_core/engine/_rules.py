"""Rule building blocks shared by games: builds, runs, empty-pile policies, supermoves, auto-flip.

Games describe themselves with these pieces (RULES.md Part B §6, "Quick comparison") instead of
writing the same checks again. Every function here is pure and cheap: move generation calls them
in inner loops.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence

from patience_core.model import Card, Move, Position, Rank

__all__ = [
    "Build",
    "EmptyPile",
    "adjacent_ranks",
    "auto_play",
    "builds_on",
    "deal_round",
    "face_up_length",
    "flip_top",
    "foundation_accepts",
    "move_cards",
    "next_rank",
    "run_length",
    "run_moves",
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


def face_up_length(pile: tuple[Card, ...]) -> int:
    """The number of face-up cards at the top of ``pile``, whatever their ranks and suits.

    :returns: 0 for an empty pile or a face-down top card.
    """
    length = 0
    for card in reversed(pile):
        if not card.face_up:
            break
        length += 1
    return length


def foundation_accepts(
    card: Card,
    pile: tuple[Card, ...],
    build: Build = Build.SAME_SUIT,
    *,
    base: int | None = Rank.ACE,
    wrap: bool = False,
) -> bool:
    """Whether a foundation ``pile`` (bottom first) takes ``card``, building up by one rank.

    :param build: the suit rule against the foundation's top card (``SAME_SUIT`` for suit
        foundations, ``ANY_SUIT`` for Bristol's foundations by rank).
    :param base: the rank an empty foundation takes, or ``None`` for any rank (Diamond Mine).
    :param wrap: whether an Ace follows a King (Diamond Mine).
    """
    if not pile:
        return base is None or card.rank == base
    top = pile[-1]
    if card.rank != next_rank(top.rank, wrap):
        return False
    if build is Build.ANY_SUIT:
        return True
    if build is Build.SAME_SUIT:
        return card.suit == top.suit
    return card.is_red != top.is_red


def move_cards(
    position: Position, source: int, target: int, count: int = 1, *, auto_flip: bool = False
) -> Position:
    """``position`` with the top ``count`` cards of pile ``source`` put, in order, on ``target``.

    :param auto_flip: turn the source's new top card face up afterwards (RULES.md Part A,
        "Automatic actions": the flip belongs to the same move).
    """
    pile = position[source]
    cut = len(pile) - count
    rest = pile[:cut]
    if auto_flip:
        rest = flip_top(rest)
    return position.replace(((source, rest), (target, position[target] + pile[cut:])))


def deal_round(
    position: Position, stock: int, targets: Sequence[int], *, face_up: bool = True
) -> Position:
    """Deal one card from the top of pile ``stock`` onto each pile of ``targets``, in order,
    stopping early when the stock runs out (Bristol's reserves, Spiderette's columns).

    :param targets: distinct pile indices.
    :param face_up: how the dealt cards lie.
    """
    cards = position[stock]
    dealt = min(len(targets), len(cards))
    changes: list[tuple[int, tuple[Card, ...]]] = [(stock, cards[: len(cards) - dealt])]
    for k in range(dealt):
        card = cards[len(cards) - 1 - k].turned(face_up)
        changes.append((targets[k], position[targets[k]] + (card,)))
    return position.replace(changes)


def run_moves(
    position: Position,
    sources: Sequence[int],
    targets: Sequence[int],
    *,
    lift: Build,
    drop: Build,
    empty: EmptyPile,
    max_run: Callable[[int], int] | None = None,
) -> list[Move]:
    """Every move of a run from one tableau pile onto another (RULES.md Part B §3, §5 "Moves").

    A run is the top ``count`` cards of a source, face up and built down under ``lift`` (see
    :func:`run_length`); any part of it, taken from the top, may move. It goes onto a non-empty
    target whose top card its bottom card builds on under ``drop``, or onto an empty target when
    ``empty`` accepts its bottom card.

    :param sources: pile indices runs may leave.
    :param targets: pile indices runs may go to (a pile is never its own target).
    :param max_run: the largest run allowed onto a target index (a supermove limit, see
        :func:`supermove_limit`); no limit when ``None``.
    :returns: transfers, ordered by source, then target, then count from the longest.
    """
    moves: list[Move] = []
    for source in sources:
        pile = position[source]
        length = run_length(pile, lift)
        if not length:
            continue
        for target in targets:
            if target == source:
                continue
            limit = length if max_run is None else min(length, max_run(target))
            dest = position[target]
            for count in range(limit, 0, -1):
                bottom = pile[-count]
                if dest and builds_on(bottom, dest[-1], drop):
                    moves.append(Move.transfer(source, target, count))
                    break  # ranks descend along the run: only one count joins a given card
                if not dest and empty.accepts(bottom):
                    moves.append(Move.transfer(source, target, count))
    return moves


def auto_play(
    position: Position,
    sources: Sequence[int],
    foundations: Sequence[int],
    build: Build = Build.SAME_SUIT,
) -> Position:
    """Play every card that fits a foundation there, one card at a time (RULES.md Part B §3,
    "Auto-play").

    Each round scans ``sources`` in order and moves the first face-up top card that
    :func:`foundation_accepts` (Ace base, ``build``) to the first foundation, in order, that takes
    it, so an Ace goes to the first empty one; rounds repeat until no card fits.

    :returns: the position after auto-play (``position`` itself when nothing fits).
    """
    while True:
        moved = False
        for source in sources:
            pile = position[source]
            if not pile or not pile[-1].face_up:
                continue
            target = next(
                (f for f in foundations if foundation_accepts(pile[-1], position[f], build)), None
            )
            if target is not None:
                position = move_cards(position, source, target)
                moved = True
                break
        if not moved:
            return position
