"""The klondike family's win finder: a depth-first search over macro moves that may miss wins
(it never says "dead"), given the middle of the solver's budget
(:meth:`GameSearch.find_win <patience_core.games.GameSearch.find_win>`).

Layer 3½ (above :mod:`patience_core.games`). A macro move is what a player does at the table:
deal k times (k = 0 up to one whole turn of the stock and waste), then play the waste's top
card; or move a column's cards; each followed by the safe moves to the foundations. So a card
deep in the stock is one move away instead of k, and the search does not wander through deals
that change nothing. Unsafe pruning, which is why it only finds wins: no foundation card comes
back, a run moves only to turn a face-down card, to empty a column for a King, or to uncover a
card that goes to its foundation at once, and a King moves into an empty column only from a
column it then leaves with a face-down card to turn (or from the waste).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING

from patience_core.model import Card, Move, Position

if TYPE_CHECKING:
    from patience_core.families._klondike import KlondikeFamily
    from patience_core.families._klondike_moves import KlondikeTables
    from patience_core.families._klondike_search import KlondikeSearch

__all__ = ["find_klondike_win"]

#: A macro move: the moves played (deals, then one transfer, then the forced moves) and where
#: they lead.
Child = tuple[tuple[Move, ...], Position]


def find_klondike_win(
    search: KlondikeSearch, position: Position, nodes: int, seconds: float
) -> tuple[Sequence[Move] | None, int]:
    """A winning line from ``position``, or ``None`` when none was found within ``nodes``
    moves played or ``seconds`` of CPU time; and the moves played.

    :returns: (moves, positions generated), as :meth:`GameSearch.find_win` returns them.
    """
    game = search.game
    deadline = time.process_time() + seconds
    seen: set[Hashable] = {search.key(position)}
    path: list[tuple[Move, ...]] = []
    # Every position played counts, the deals that rank a position's children included, so
    # that the budget in positions bounds the work whatever the stock's size.
    played = [0]
    stack: list[Iterator[Child]] = [_children(search, position, played)]
    while stack:
        generated = played[0]
        if generated >= nodes or time.process_time() > deadline:
            return None, generated
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                path.pop()
            continue
        moves, child = step
        if game.is_won(child):
            return [move for part in (*path, moves) for move in part], played[0]
        key = search.key(child)
        if key in seen:
            continue
        seen.add(key)
        path.append(moves)
        stack.append(_children(search, child, played))
    return None, played[0]


def _children(search: KlondikeSearch, position: Position, played: list[int]) -> Iterator[Child]:
    """The macro moves from ``position``, likely ones first, each with its forced moves;
    ``played[0]`` counts the positions played to make them."""
    game = search.game
    ranked: list[tuple[int, int, tuple[Move, ...], Position]] = []
    order = 0
    for deals, dealt in _turns(game, position, played):
        prefix = (Move.deal(0),) * deals
        for move, rank in _transfers(game, search.tables, dealt, with_tableau=deals == 0):
            # Columns with more face-down cards first: turning their cards frees the game most.
            hidden = sum(not c.face_up for c in dealt[move.source]) if deals == 0 else 0
            ranked.append((rank * 10_000 - hidden * 100 + deals, order, (*prefix, move), dealt))
            order += 1
    ranked.sort(key=lambda item: (item[0], item[1]))
    for _rank, _order, moves, start in ranked:
        after = game.play(start, moves[-1])
        forced: list[Move] = []
        while not game.is_won(after):
            safe = search.forced_move(after)
            if safe is None:
                break
            forced.append(safe)
            after = game.play(after, safe)
        played[0] += 1 + len(forced)
        yield (*moves, *forced), after


def _turns(
    game: KlondikeFamily, position: Position, played: list[int]
) -> Iterator[tuple[int, Position]]:
    """``position`` after 0, 1, 2, ... deals, until no deal is left or the stock and waste come
    back to a state they had (with three cards a deal, not always the first one); each deal
    played counts in ``played[0]``."""
    talon = slice(0, 2 * game.passes)
    seen = {position.piles[talon]}
    deals = 0
    yield deals, position
    while game.can_deal(position):
        position = game.play(position, Move.deal(0))
        played[0] += 1
        deals += 1
        if position.piles[talon] in seen:
            return
        seen.add(position.piles[talon])
        yield deals, position


def _transfers(
    game: KlondikeFamily, tables: KlondikeTables, position: Position, *, with_tableau: bool
) -> Iterator[tuple[Move, int]]:
    """The transfers worth a try, with a rank (lower first): the waste's top card, and with
    ``with_tableau`` the columns' moves too."""
    piles = position.piles
    foundations = game.foundations
    homes = tables.homes(piles, foundations)
    waste = game.wastes[game.current_pass(position)]
    pile = piles[waste]
    if pile:
        card = pile[-1]
        target = homes.get(card)
        if target is not None:
            yield Move.transfer(waste, target), 0
        for t in _columns_taking(game, tables, piles, card):
            yield Move.transfer(waste, t), 3
    if not with_tableau:
        return
    for source in game.tableau:
        pile = piles[source]
        if not pile or not pile[-1].face_up:
            continue
        target = homes.get(pile[-1])
        if target is not None:
            yield Move.transfer(source, target), 1
        for count in range(tables.run_length(pile), 0, -1):
            whole = count == len(pile)
            below = None if whole else pile[-count - 1]
            turns = below is not None and not below.face_up
            frees = below is not None and below.face_up and below in homes
            if not (whole or turns or frees):
                continue
            for t in _columns_taking(game, tables, piles, pile[-count], besides=source):
                if whole and not piles[t]:
                    continue  # a whole column into an empty one changes nothing
                yield Move.transfer(source, t, count), 2 if turns or whole else 4


def _columns_taking(
    game: KlondikeFamily,
    tables: KlondikeTables,
    piles: tuple[tuple[Card, ...], ...],
    card: Card,
    besides: int = -1,
) -> Iterator[int]:
    """The columns that take ``card``; of the empty ones, the first only."""
    empty_seen = False
    onto = tables.onto[card]
    for t in game.tableau:
        if t == besides:
            continue
        dest = piles[t]
        if not dest:
            if empty_seen:
                continue
            empty_seen = True
            if card in tables.empty_takes:
                yield t
        elif dest[-1] in onto:
            yield t
