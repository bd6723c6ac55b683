"""The tableau shapes of the golf family: which card covers which, as tables of places.

Layer 3½ (above :mod:`patience_core.games`). Every tableau card of a golf-family game sits at a
*place*; a place's card may be played once every place covering it is empty. Places are numbered
so that sets of them are int bit masks (bit ``k`` for place ``k``), and in the order the rules
list moves:

* ``columns``: ``columns`` piles of ``depth`` cards; place ``c * depth + d`` is card ``d``
  (bottom first) of column ``c``, covered by the card on it. A column is one pile.
* ``pyramid``: ``rows`` rows, row ``r`` holding ``r`` cards, apex first; each place is a pile of
  one card, covered by the two cards of the row below that overlap it (Escalator, RULES.md Part
  B §1: the card at row r, position i is covered by row r+1, positions i and i+1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

import attrs

from patience_core.model import Card

__all__ = ["SHAPES", "Shape", "bits", "shape"]

#: The tableau shapes a golf-family game may declare.
SHAPES = ("columns", "pyramid")


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@attrs.frozen
class Shape:
    """The places of one tableau and how they cover each other (module docstring).

    :param kind: ``columns`` or ``pyramid``.
    :param piles: the number of tableau piles (columns, or pyramid places).
    :param pile_of: for each place, its tableau pile (0-based).
    :param depth_of: for each place, its card's index in its pile (bottom first).
    :param covers: for each place, the places directly covering it.
    :param above: for each place, the mask of places covering it, directly or not.
    :param under: for each place, the mask of places it covers, directly or not.
    :param uncovers: for each place, ``(covered place, mask of its other covers)`` pairs: when
        the place goes and none of the others is left, the covered place is free.
    """

    kind: str
    piles: int
    pile_of: tuple[int, ...]
    depth_of: tuple[int, ...]
    covers: tuple[tuple[int, ...], ...]
    above: tuple[int, ...]
    under: tuple[int, ...]
    uncovers: tuple[tuple[tuple[int, int], ...], ...]

    @property
    def size(self) -> int:
        """The number of places: the tableau's cards at the deal."""
        return len(self.pile_of)

    def mask(self, tableau: Sequence[Sequence[Card]]) -> int:
        """The places holding a card, from the tableau piles (a column holds its bottom cards:
        a pile's ``n`` cards fill its first ``n`` places)."""
        if self.kind == "pyramid":
            return sum(1 << k for k, pile in enumerate(tableau) if pile)
        depth = len(self.pile_of) // self.piles
        return sum(((1 << len(pile)) - 1) << (c * depth) for c, pile in enumerate(tableau))

    def card(self, tableau: Sequence[Sequence[Card]], place: int) -> Card | None:
        """The card at ``place``, or ``None`` when it is gone."""
        pile = tableau[self.pile_of[place]]
        depth = self.depth_of[place]
        return pile[depth] if depth < len(pile) else None

    def free(self, mask: int) -> int:
        """The places of ``mask`` that no place of ``mask`` covers."""
        return sum(1 << k for k in bits(mask) if not mask & _mask(self.covers[k]))

    def top_place(self, pile: int, height: int) -> int:
        """The place of the top card of tableau pile ``pile`` holding ``height`` cards."""
        if self.kind == "pyramid":
            return pile
        return pile * (len(self.pile_of) // self.piles) + height - 1


def _mask(places: Sequence[int]) -> int:
    return sum(1 << k for k in places)


def _closure(count: int, step: Callable[[int], Sequence[int]]) -> tuple[int, ...]:
    """For each place, the mask of the places reached from it by ``step`` repeatedly."""
    masks = []
    for start in range(count):
        reached = 0
        todo = list(step(start))
        while todo:
            place = todo.pop()
            if not reached >> place & 1:
                reached |= 1 << place
                todo.extend(step(place))
        masks.append(reached)
    return tuple(masks)


@cache
def shape(kind: str, columns: int, depth: int, rows: int) -> Shape:
    """The :class:`Shape` of a tableau: ``columns`` x ``depth`` for ``columns``, ``rows`` for
    ``pyramid`` (the other numbers are ignored)."""
    if kind == "pyramid":
        covers: tuple[tuple[int, ...], ...] = tuple(
            (k + row, k + row + 1) if row < rows else ()
            for row in range(1, rows + 1)
            for k in range(row * (row - 1) // 2, row * (row + 1) // 2)
        )
        pile_of = tuple(range(len(covers)))
        depth_of = (0,) * len(covers)
        piles = len(covers)
    else:
        count = columns * depth
        covers = tuple((k + 1,) if k % depth < depth - 1 else () for k in range(count))
        pile_of = tuple(k // depth for k in range(count))
        depth_of = tuple(k % depth for k in range(count))
        piles = columns
    above = _closure(len(covers), lambda k: covers[k])
    under = tuple(
        _mask([j for j in range(len(covers)) if above[j] >> k & 1]) for k in range(len(covers))
    )
    uncovers = tuple(
        tuple(
            (c, _mask([o for o in covers[c] if o != k]))
            for c in range(len(covers))
            if k in covers[c]
        )
        for k in range(len(covers))
    )
    return Shape(kind, piles, pile_of, depth_of, covers, above, under, uncovers)
