"""A best-first search for wins in free-cell games whose cards go on more than one card
(FreeCell's alternate colours), where the depth-first search may wander for long before its
first win: positions are expanded in the order of a cheap estimate of the work left.

It may miss wins and never says "dead"; the solver replays its line with the rules
(:meth:`GameSearch.find_win <patience_core.games.GameSearch.find_win>`).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Hashable

from patience_core.engine import time_is_up
from patience_core.families._freecell_fast import Piles, Shape, play, solver_key
from patience_core.families._freecell_order import solver_moves
from patience_core.model import Move, Position


def estimate(shape: Shape, position: Position) -> int:
    """The work left, roughly: cards not home, twice each break in a column's built order (a
    card on one it does not fit), twice the cards in free cells, the cards above each card the
    foundations take next, less three per empty column. (Weights measured on Microsoft deals
    1-60, 130 and 178: a quarter of the positions of the next best choice, none missed.)"""
    piles = position.piles
    if type(piles) is not Piles:
        return 0
    texts, _, need, _, _ = piles.summary
    fits = shape.fits
    out = breaks = cells = empty = dig = 0
    for index in shape.cells:
        if texts[index]:
            out += 1
            cells += 1
    for index in shape.columns:
        text = texts[index]
        if not text:
            empty += 1
            continue
        size = len(text)
        out += size
        for i in range(1, size):
            if text[i - 1 : i + 1] not in fits:
                breaks += 1
        for depth in range(size):
            code = ord(text[size - 1 - depth]) - 48
            if code & 15 == need[code >> 4]:
                dig += depth
    return out + 2 * breaks + 2 * cells - 3 * empty + dig


def best_first(
    shape: Shape, position: Position, nodes: int, seconds: float
) -> tuple[list[Move] | None, int]:
    """A winning line from ``position`` found by best-first search, or ``None``.

    :param nodes: positions to generate at most.
    :param seconds: CPU seconds to spend at most (also stops when
        :func:`~patience_core.engine.time_is_up`).
    :returns: (the moves, or ``None``; positions generated).
    """
    end = time.process_time() + seconds
    start = play_start(shape, position)
    if start is None:
        return None, 0
    parents: dict[Hashable, tuple[Hashable, Move | None]] = {
        solver_key(shape, start.piles): ("", None)
    }
    queue = [(estimate(shape, start), 0, start)]
    generated = 0
    tie = 0
    while queue:
        _, _, here = heapq.heappop(queue)
        moves = solver_moves(shape, here.piles)
        if moves is None:
            return None, generated
        here_key = solver_key(shape, here.piles)
        for move in moves:
            child = play(shape, here.piles, move)
            if child is None:
                return None, generated
            generated += 1
            key = solver_key(shape, child.piles)
            if key in parents:
                continue
            parents[key] = (here_key, move)
            if not any(child[i] for i in shape.sources):
                return _line(parents, key), generated
            tie += 1
            heapq.heappush(queue, (estimate(shape, child), tie, child))
        if generated >= nodes or time.process_time() > end or time_is_up():
            break
    return None, generated


def play_start(shape: Shape, position: Position) -> Position | None:
    """``position`` with its summary (its piles as :class:`Piles`), or ``None`` when the fast
    functions cannot read it."""
    if type(position.piles) is Piles:
        return position
    moves = solver_moves(shape, position.piles)
    return None if moves is None else Position(position.piles)


def _line(parents: dict[Hashable, tuple[Hashable, Move | None]], key: Hashable) -> list[Move]:
    """The moves from the start to the position of ``key``."""
    line = []
    while True:
        key, move = parents[key]
        if move is None:
            break
        line.append(move)
    line.reverse()
    return line
