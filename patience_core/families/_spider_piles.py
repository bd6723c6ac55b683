"""The spider family's compact states and what its search knows of a column's face-up cards.

Layer 3½ (above :mod:`patience_core.games`). A compact state (:data:`State`) is the stock count,
the number of face-down cards left in each column (the face-down cards never change order, so the
count says which they are), the face-up cards of each column as the bytes of small integers
(:func:`code`, ``suit * 16 + rank``, bottom first; bytes keep their hash, so the columns a move
leaves alone are not hashed again), and the number of suits on the foundations.

The declared policies are tables over card codes (:class:`Tables`), so the compact rules never
build a :class:`Card`. This module holds the tables, the types of states and steps, the progress
score's :class:`Weights`, the facts of a column's face-up cards the win finder reads (runs,
sequences, score shares), the steps of a sequence move through empty columns, and the novelty
facts of the win finder's phase search (:func:`_atom`, :func:`_new_atoms`).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from patience_core.model import Card

if TYPE_CHECKING:
    from patience_core.families._spider import SpiderFamily

__all__ = ["State", "Step", "Tables", "Weights", "code"]

#: A move of the compact engine: (source column, target column, count); target -1 is a
#: foundation (count 13); source -1 is the deal. The count may span several runs (a sequence
#: moved through empty columns, :func:`_sequence_steps`), and a step of the win finder may
#: chain several such triples from one column (a dig: 6, 9, ... ints).
Step = tuple[int, ...]
#: (stock left, face-down count per column, face-up cards per column as bytes, suits on the
#: foundations).
State = tuple[int, tuple[int, ...], tuple[bytes, ...], int]

_DEAL: Step = (-1, -1, 0)
#: Each card code as a pile of one card.
_ONE_CARD = tuple(bytes((c,)) for c in range(64))
#: Each suit's 13 cards King down to Ace, as a column's face-up bytes (a complete suit).
_SUITS = frozenset(bytes(s * 16 + r for r in range(13, 0, -1)) for s in range(4))


def code(card: Card) -> int:
    """A card's compact code, ``suit * 16 + rank`` (0..63)."""
    return int(card.suit) * 16 + int(card.rank)


class Tables:
    """A spider declaration's policies as tables over card codes (index ``upper << 6 | lower``
    for a pair): ``fits`` (the build policy: a run's bottom card onto a column's top card),
    ``joins`` (the run policy: cards moving together), ``accepts`` (the empty-column policy),
    and ``want``/``tkey``: a column whose top card ``t`` has ``tkey[t] == want[c]`` may take a
    run with bottom card ``c`` (a rank one higher when the build policy only ever builds down
    by one rank, else every column; ``fits`` then decides).

    :param game: a spider-family game.
    """

    def __init__(self, game: SpiderFamily) -> None:
        cards = {code(card): card.turned(True) for card in game.new_deck()}
        fits, joins, accepts = bytearray(4096), bytearray(4096), bytearray(64)
        for a, b in itertools.product(cards, repeat=2):
            fits[a << 6 | b] = game.fits(cards[a], cards[b])
            joins[a << 6 | b] = game.joins(cards[a], cards[b])
        for a in cards:
            accepts[a] = game.accepts(cards[a])
        self.fits, self.joins, self.accepts = bytes(fits), bytes(joins), bytes(accepts)
        #: Every card of the deck may go into an empty column (runs may be parked there).
        self.any_empty = all(accepts[a] for a in cards)
        by_rank = all(
            (a & 15) + 1 == b & 15
            for a, b in itertools.product(cards, repeat=2)
            if fits[a << 6 | b]
        )
        #: The build policy is "one rank lower, any suit" (its table need not be read).
        pairs = list(itertools.product(cards, repeat=2))
        self.exact = by_rank and all(fits[a << 6 | b] for a, b in pairs if (a & 15) + 1 == b & 15)
        self.tkey = bytes((c & 15) if by_rank else 0 for c in range(64))
        self.want = bytes(min((c & 15) + 1, 255) if by_rank else 0 for c in range(64))
        self.auto = game.suit_removal == "auto"
        self.deal_onto_empty = game.deal_onto_empty
        self.columns = game.columns
        self.homes = len(game.foundations)


class Weights(NamedTuple):
    """The progress score's weights (:meth:`Engine.score`, lower is better)."""

    #: Each face-down card.
    down: float = 5.0
    #: Each face-up card not on a card one rank higher.
    brk: float = 1.0
    #: Each face-up card on a card one rank higher of another suit.
    off_suit: float = 0.5
    #: Each empty column (a bonus: subtracted).
    empty: float = 2.0
    #: Each run of face-up cards that covers face-down cards (the moves needed to reach them).
    cover: float = 2.0


#: The weights the win finder scores with.
_WEIGHTS = Weights()

#: What the win finder knows of a non-empty column's face-up cards (:func:`_facts`): its top
#: run's length and bottom card, whether that card lies on a card it builds on (:func:`_top_run`),
#: its top sequence (:func:`_sequence`), its share of :meth:`Engine.score`, its number of runs,
#: and whether its top 13 cards are a complete suit.
_Facts = tuple[int, int, bool, tuple[tuple[int, int], ...], float, int, bool]

#: Piles whose facts are kept at most (a few hundred bytes each); the table is emptied then.
_PILE_TABLE = 500_000


def _pile_score(pile: bytes, joins: bytes) -> tuple[float, int]:
    """A non-empty column's share of :meth:`Engine.score`, and its number of runs. (Scored as
    Aisleriot does: a card on its own suit one rank higher is the best place.)"""
    value = _WEIGHTS.brk
    runs = 1
    for upper, lower in itertools.pairwise(pile):
        if not joins[lower << 6 | upper]:
            runs += 1
        if upper != lower + 1:
            value += _WEIGHTS.off_suit if (upper & 15) == (lower & 15) + 1 else _WEIGHTS.brk
    return value, runs


def _facts(pile: bytes, tables: Tables) -> _Facts:
    """The facts (:data:`_Facts`) of a non-empty column's face-up cards."""
    k, base, lateral = _top_run(pile, tables)
    value, runs = _pile_score(pile, tables.joins)
    return k, base, lateral, _sequence(pile, tables), value, runs, pile[-13:] in _SUITS


def _top_run(pile: bytes, tables: Tables) -> tuple[int, int, bool]:
    """A non-empty column's top run: (its length, its bottom card, whether that card lies on a
    card it builds on)."""
    joins = tables.joins
    n = len(pile)
    k = 1
    while k < n and joins[pile[-k] << 6 | pile[-k - 1]]:
        k += 1
    card = pile[-k]
    lateral = k < n and bool(tables.fits[card << 6 | pile[-k - 1]])
    return k, card, lateral


def _sequence(pile: bytes, tables: Tables) -> tuple[tuple[int, int], ...]:
    """A non-empty column's top sequence (runs each lying on a card it builds on), as its runs,
    top first: for each r, (the number of cards in the top r runs, the bottom card of run r)."""
    joins, fits = tables.joins, tables.fits
    out: list[tuple[int, int]] = []
    n = len(pile)
    k = 1
    while True:
        card = pile[-k]
        if k == n:
            out.append((k, card))
            return tuple(out)
        pair = card << 6 | pile[-k - 1]
        if not joins[pair]:
            out.append((k, card))
            if not fits[pair]:
                return tuple(out)
        k += 1


#: Picks some piles of a state's face-up piles, as a tuple (:func:`_picker`).
_Pick = Callable[[tuple[bytes, ...]], tuple[bytes, ...]]


def _picker(columns: Sequence[int]) -> _Pick:
    """A function that returns the piles of ``columns`` (in that order) as a tuple."""
    if len(columns) >= 2:
        return operator.itemgetter(*columns)
    if columns:
        column = columns[0]
        return lambda ups: (ups[column],)
    return lambda ups: ()


def _capacity(empties: int) -> int:
    """Runs a sequence can hold to move onto a card with ``empties`` empty columns to spare
    (Spider's classic result: 2 to the power of the empty columns)."""
    return 1 << empties


def _sequence_steps(
    lengths: Sequence[int], source: int, target: int, free: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Single-run moves that carry a sequence from ``source`` to ``target`` through the empty
    columns ``free``: its top half to ``free[0]`` (through the others), its bottom half to
    ``target``, the top half after it.

    :param lengths: the sequence's runs' lengths, top first (at most ``2 ** len(free)``).
    :raises ValueError: when there are too few empty columns.
    """
    if len(lengths) == 1:
        return [(source, target, lengths[0])]
    if not free:
        raise ValueError("too few empty columns for the sequence")
    park, rest = free[0], free[1:]
    half = len(lengths) // 2
    return [
        *_sequence_steps(lengths[:half], source, park, rest),
        *_sequence_steps(lengths[half:], source, target, rest),
        *_sequence_steps(lengths[:half], park, target, rest),
    ]


def _run_lengths(cards: bytes, joins: bytes) -> list[int]:
    """The lengths of the runs of ``cards`` (bottom first), top run first."""
    lengths = [1]
    for above, below in itertools.pairwise(reversed(cards)):
        if joins[above << 6 | below]:
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def _atom(level: int, below: int, card: int) -> int:
    """One fact of a position for the novelty test of :meth:`Finder._phase`, as an int: card
    code ``card`` lies on ``below`` (a card code, or 64 plus the face-down cards under it when
    it is the column's lowest face-up card), in a position with ``level`` face-down cards in
    all."""
    return (level << 13) | (below << 6) | card


def _new_atoms(atoms: set[int], parent: State, child: State, step: Step) -> None:
    """Add to ``atoms`` the facts (:func:`_atom`) that ``step`` made in ``child``: where a run
    landed and the card it turned over (for a step of several moves, every card of the
    columns it changed)."""
    level = sum(child[1])
    downs, piles = child[1], child[2]
    if len(step) == 3 and (step[1] < 0 or child[3] == parent[3]):
        source, target, count = step
        if target >= 0:
            pile = piles[target]
            below = len(pile) - count - 1
            atoms.add(_atom(level, pile[below] if below >= 0 else 64, pile[below + 1]))
        if downs[source] != parent[1][source]:
            atoms.add(_atom(level, 64 + downs[source], piles[source][0]))
        return
    before = parent[2]
    for column, pile in enumerate(piles):
        if pile and pile is not before[column]:
            atoms.add(_atom(level, 64 + downs[column], pile[0]))
            atoms.update(_atom(level, lower, upper) for lower, upper in itertools.pairwise(pile))
