"""Spiderette's compact state and what the search knows of its piles.

A compact state (:data:`State`) is the stock count, the number of face-down cards left in each
column (the face-down cards themselves never change order, so the count says which they are), the
face-up cards of each column as the bytes of small integers (``suit * 16 + rank``, bottom first;
bytes keep their hash, so the columns a move leaves alone are not hashed again), and the number of
suits on the foundations. This module holds the pile indices, the types of states and steps, the
progress score's :class:`Weights`, the facts of a column's face-up cards the win finder reads
(runs, descending sequences, score shares), the steps of a sequence move through empty columns,
and the novelty facts of the win finder's phase search (:func:`_atom`, :func:`_new_atoms`).
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Sequence
from typing import NamedTuple

from patience_core.api import Card

#: Pile indices (the game's Aisleriot slots).
STOCK = 0
FOUNDATIONS = (1, 2, 3, 4)
COLUMNS = (5, 6, 7, 8, 9, 10, 11)
_NC = len(COLUMNS)
_LAST_DEAL = 3

#: A move of the compact engine: (source column, target column, count); target -1 is a
#: foundation (count 13); source -1 is the deal. The count may span several same-suit runs
#: (a descending sequence moved through empty columns, :func:`_sequence_steps`), and a step
#: of the win finder may chain several such triples from one column (a dig: 6, 9, ... ints).
Step = tuple[int, ...]
#: (stock left, face-down count per column, face-up cards per column as bytes, suits on the
#: foundations).
State = tuple[int, tuple[int, ...], tuple[bytes, ...], int]

_DEAL: Step = (-1, -1, 0)
#: Each card code as a pile of one card.
_ONE_CARD = tuple(bytes((code,)) for code in range(64))


class Weights(NamedTuple):
    """The progress score's weights (:meth:`Search.score`, lower is better)."""

    #: Each face-down card.
    down: float = 5.0
    #: Each face-up card not on a card one rank higher.
    brk: float = 1.0
    #: Each face-up card on a card one rank higher of another suit.
    off_suit: float = 0.5
    #: Each empty column (a bonus: subtracted).
    empty: float = 2.0
    #: Each same-suit run of face-up cards that covers face-down cards (the moves needed to
    #: reach them).
    cover: float = 2.0


#: The weights the win finder scores with.
_WEIGHTS = Weights()


#: What the win finder knows of a non-empty column's face-up cards (:func:`_facts`): its top
#: same-suit run's length and bottom card, whether that card lies on a card one rank higher
#: (:func:`_top_run`), its top descending sequence (:func:`_sequence`), its share of
#: :meth:`Search.score` and its number of same-suit runs (:func:`_pile_score`).
_Facts = tuple[int, int, bool, tuple[tuple[int, int], ...], float, int]

#: Piles whose facts are kept at most (a few hundred bytes each); the table is emptied then.
_PILE_TABLE = 500_000


def _pile_score(pile: bytes) -> tuple[float, int]:
    """A non-empty column's share of :meth:`Search.score`, and its number of same-suit runs."""
    value = _WEIGHTS.brk
    runs = 1
    for upper, lower in itertools.pairwise(pile):
        if upper != lower + 1:
            runs += 1
            value += _WEIGHTS.off_suit if (upper & 15) == (lower & 15) + 1 else _WEIGHTS.brk
    return value, runs


def _facts(pile: bytes) -> _Facts:
    """The facts (:data:`_Facts`) of a non-empty column's face-up cards."""
    k, base, lateral = _top_run(pile)
    value, runs = _pile_score(pile)
    return k, base, lateral, _sequence(pile), value, runs


def _top_run(pile: bytes) -> tuple[int, int, bool]:
    """A non-empty column's top same-suit run: (its length, its bottom card, whether that card
    lies on a card one rank higher)."""
    card = pile[-1]
    n = len(pile)
    k = 1
    while k < n and pile[-k - 1] == card + 1:
        card += 1
        k += 1
    lateral = k < n and (pile[-k - 1] & 15) == (card & 15) + 1
    return k, card, lateral


def _sequence(pile: bytes) -> tuple[tuple[int, int], ...]:
    """A non-empty column's top descending sequence (any suit, each card one rank below the
    one it lies on), as its same-suit runs, top first: for each r, (the number of cards in
    the top r runs, the bottom card of run r)."""
    out: list[tuple[int, int]] = []
    n = len(pile)
    k = 1
    while True:
        card = pile[-k]
        if k == n or (pile[-k - 1] & 15) != (card & 15) + 1:
            out.append((k, card))
            return tuple(out)
        if pile[-k - 1] != card + 1:
            out.append((k, card))
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
    """Same-suit runs a descending sequence can hold to move onto a card with ``empties``
    empty columns to spare (Spider's classic result: 2 to the power of the empty columns)."""
    return 1 << empties


def _sequence_steps(
    lengths: Sequence[int], source: int, target: int, free: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Single-run moves that carry a descending sequence from ``source`` to ``target`` through
    the empty columns ``free``: its top half to ``free[0]`` (through the others), its bottom
    half to ``target``, the top half after it.

    :param lengths: the sequence's same-suit runs' lengths, top first (at most
        ``2 ** len(free)`` of them).
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


def _run_lengths(cards: bytes) -> list[int]:
    """The lengths of the same-suit runs of ``cards`` (bottom first), top run first."""
    lengths = [1]
    for above, below in itertools.pairwise(reversed(cards)):
        if below == above + 1:
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def _code(card: Card) -> int:
    return int(card.suit) * 16 + int(card.rank)


def _atom(level: int, below: int, card: int) -> int:
    """One fact of a position for the novelty test of :meth:`Search._phase`, as an int: card
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
    if len(step) == 3:
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
