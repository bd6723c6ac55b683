"""Baker's Game's move ordering and the moves worth trying, for the search object.

:func:`order_moves` sorts legal moves best first, and :func:`solver_moves` lists the moves the
solver tries, leaving out only moves whose result the key cannot tell apart from another's (why
that is sound: the docstring of :mod:`patience_bakers_game.search`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_bakers_game._play import Piles, summarise
from patience_bakers_game._rules import (
    _MOVES,
    AUTO_SOURCES,
    CELLS,
    COLUMNS,
    homes,
)
from patience_core.api import Card, Move

if TYPE_CHECKING:
    from collections.abc import Sequence


def _dig(pile: tuple[Card, ...], need: list[int], stop: int) -> int:
    """How many cards lie above the shallowest card of ``pile[:stop]`` that goes home next
    (``stop`` when none does)."""
    for depth in range(stop):
        card = pile[stop - 1 - depth]
        if card.rank == need[card.suit]:
            return depth
    return 20


def order_moves(
    piles: tuple[tuple[Card, ...], ...], moves: list[Move], prune: bool = False
) -> list[Move]:
    """``moves`` sorted best first for the solver (a stable sort).

    Scores, lowest first: to a foundation (0); a column's run onto the card one rank higher in
    suit (100, plus the depth of the shallowest card that goes home next beneath the run, 20
    when there is none: moves that empty a column or uncover such a card come first); a column's
    top card into a free cell (110 plus that depth); part of a column into an empty column (300
    plus that depth); a free-cell card onto a column (400) or into an empty column (500); last
    the moves whose result is the same position up to the solver key's symmetry (a whole column
    into an empty column, a free-cell card into another free cell). Measured on Microsoft deals
    1-700, digging first this way needs about 28% fewer positions to find a win than trying
    every build before any free-cell move (11% with ``empty-columns=kings``), and finds shorter
    lines.

    :param prune: leave out the moves whose result has the same :func:`solver_key` as the
        position or as the result of a move kept: a free-cell card into another free cell, a
        whole column into an empty column, and any move into an empty free cell or empty column
        other than the first one.
    """
    summary = homes(piles)
    if summary is None:
        return list(moves)
    need = summary[0]
    first_cell = next((i for i in CELLS if not piles[i]), -1)
    first_column = next((i for i in COLUMNS if not piles[i]), -1)
    scored = []
    for index, move in enumerate(moves):
        source = move.source
        target = move.target
        count = move.count
        pile = piles[source]
        rest = len(pile) - count
        if target is None:
            score = 900
        elif 4 <= target < 8:
            score = 0
        elif target < 4:
            if source < 4:
                if prune:
                    continue
                score = 990
            else:
                if prune and target != first_cell:
                    continue
                score = 110 + (_dig(pile, need, rest) if rest else 0)
        elif piles[target]:
            score = 400 if source < 4 else 100 + (_dig(pile, need, rest) if rest else 0)
        else:
            if prune and target != first_column:
                continue
            if source < 4:
                score = 500
            elif rest == 0:
                if prune:
                    continue
                score = 980
            else:
                score = 300 + _dig(pile, need, rest)
        scored.append((score, index, move))
    scored.sort()
    return [move for _, _, move in scored]


def _text_dig(text: str, need: list[int], stop: int) -> int:
    """:func:`_dig` on a pile's text."""
    for depth in range(stop):
        code = ord(text[stop - 1 - depth]) - 48
        if code & 15 == need[code >> 4]:
            return depth
    return 20


def solver_moves(piles: tuple[tuple[Card, ...], ...], kings_only: bool) -> list[Move] | None:
    """The moves :func:`order_moves` with ``prune`` keeps, in about the same order, generated
    directly from the position's :class:`Summary` (the solver's hot path).

    :returns: ``None`` for a position :func:`summarise` cannot summarise (the caller uses the
        generic code).
    """
    if type(piles) is Piles:
        texts, runs, need, dest, _ = piles.summary
    else:
        summary = summarise(piles)
        if summary is None:
            return None
        texts, runs, need, dest, _ = summary[0]
    scored: list[int] = []  # score * 4096 + index in _MOVES
    first_cell = -1
    free = 1
    for cell in CELLS:
        if not texts[cell]:
            free += 1
            if first_cell < 0:
                first_cell = cell
    tops: dict[str, int] = {}
    empty_columns = 0
    first_column = -1
    for target in COLUMNS:
        text = texts[target]
        if text:
            tops[text[-1]] = target
        else:
            empty_columns += 1
            if first_column < 0:
                first_column = target
    if kings_only:
        onto_card = onto_empty = free
    else:
        onto_card = free << empty_columns
        onto_empty = free << (empty_columns - 1) if empty_columns else 0
    for source in AUTO_SOURCES:
        text = texts[source]
        if not text:
            continue
        code = ord(text[-1]) - 48
        rank = code & 15
        suit = code >> 4
        base = source * 224
        if rank == need[suit]:
            scored.append(base + dest[suit] * 14 + 1)
        size = len(text)
        length = runs[source] if source >= 8 else 1
        if length <= onto_card:
            target = tops.get(chr(48 + code + length), -1)
            if target >= 0:
                if source < 4:
                    score = 400
                elif length == size:
                    score = 100
                else:
                    score = 100 + _text_dig(text, need, size - length)
                scored.append(score * 4096 + base + target * 14 + length)
        if first_column >= 0:
            if kings_only:
                counts: Sequence[int] = (14 - rank,) if 14 - rank <= min(length, onto_empty) else ()
            else:
                counts = range(min(length, onto_empty), 0, -1)
            for count in counts:
                rest = size - count
                if source < 4:
                    score = 500
                elif rest == 0:
                    continue
                else:
                    score = 300 + _text_dig(text, need, rest)
                scored.append(score * 4096 + base + first_column * 14 + count)
        if first_cell >= 0 and source >= 8:
            score = 110 + (_text_dig(text, need, size - 1) if size > 1 else 0)
            scored.append(score * 4096 + base + first_cell * 14 + 1)
    scored.sort()
    return [_MOVES[i & 4095] for i in scored]
