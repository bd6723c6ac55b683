"""The spider family's compact move lists: every legal move (:func:`all_moves`, the solver's
exhaustive search space) and the win finder's dig (:func:`dig`).

Layer 3½ (above :mod:`patience_core.games`); states and tables of
:mod:`patience_core.families._spider_piles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.families._spider_piles import (
    _DEAL,
    _PILE_TABLE,
    _SUITS,
    State,
    Step,
    Tables,
    _capacity,
)

if TYPE_CHECKING:
    from patience_core.families._spider_engine import Engine

__all__ = ["all_moves", "dig"]


def dig(
    tables: Tables,
    source: int,
    seq: tuple[tuple[int, int], ...],
    ups: tuple[bytes, ...],
    tops: dict[int, list[int]],
    empties: list[int],
) -> Step | None:
    """Column ``source``'s top sequence ``seq`` moved off in two or more pieces, top first: each
    piece the fewest runs that fit onto a card it builds on (joining its own run first) through
    the empty columns left, else one run into an empty column. ``None`` when it does not all fit
    or one piece would do. (Only when an empty column takes any card.)"""
    want, fits, joins, exact = tables.want, tables.fits, tables.joins, tables.exact
    free = list(empties)
    pieces: list[int] = []
    done = 0  # runs moved
    moved = 0  # cards moved
    r = len(seq)
    while done < r:
        cap = _capacity(len(free))
        for j in range(done + 1, min(r, done + cap) + 1):
            count, bottom = seq[j - 1]
            targets = tops.get(want[bottom])
            if targets and not exact:
                targets = [t for t in targets if fits[bottom << 6 | ups[t][-1]]]
            if targets:
                target = targets[0]
                for t in targets:
                    if joins[bottom << 6 | ups[t][-1]]:
                        target = t
                        break
                pieces += (source, target, count - moved)
                done, moved = j, count
                break
        else:
            if not free:
                return None
            count = seq[done][0]
            pieces += (source, free.pop(0), count - moved)
            done, moved = done + 1, count
    if len(pieces) == 3:
        return None
    return tuple(pieces)


def _segments(engine: Engine, pile: bytes) -> tuple[tuple[int, int, bool, bool], ...]:
    """The top runs ``all_moves`` may lift off a non-empty column's face-up cards ``pile``,
    shortest first: (cards, the bottom card, whether that is the whole top run, whether they
    are a complete suit); kept per pile in the engine's table (emptied when it holds
    ``_PILE_TABLE`` piles)."""
    table = engine._segments
    if len(table) >= _PILE_TABLE:
        table.clear()
    joins = engine.tables.joins
    n = len(pile)
    out: list[tuple[int, int, bool, bool]] = []
    k = 1
    card = pile[-1]
    while True:
        more = k < n and bool(joins[card << 6 | pile[-k - 1]])
        out.append((k, card, not more, k == 13 and pile[-13:] in _SUITS))
        if not more:
            break
        k += 1
        card = pile[-k]
    segments = table[pile] = tuple(out)
    return segments


def all_moves(engine: Engine, state: State) -> list[Step]:
    """Every legal move of ``state`` (sound: for the exhaustive search), best first.

    Left out are only moves whose result has the same :meth:`Engine.key` as the result of a
    move kept: with the stock empty, moves into the second and later empty columns, and a whole
    column (no face-down card) moved into an empty one; with only a short last deal left, the
    same for the columns it does not reach. Order: a complete suit to a foundation, runs
    joining their own run, runs onto other cards, runs into an empty column, the deal, last the
    moves that split a run (as :meth:`SpiderSearch.order_moves` does).
    """
    tables = engine.tables
    tkey, want, fits, joins, accepts = (
        tables.tkey, tables.want, tables.fits, tables.joins, tables.accepts
    )  # fmt: skip
    nc = engine.nc
    stock, downs, ups, filled = state
    home: list[Step] = []
    join: list[Step] = []
    whole_onto: list[Step] = []
    whole_into: list[Step] = []
    split_onto: list[Step] = []
    split_into: list[Step] = []
    tops: dict[int, list[int]] = {}
    empties: list[int] = []
    for j in range(nc):
        pile = ups[j]
        if pile:
            top = tkey[pile[-1]]
            targets = tops.get(top)
            if targets is None:
                tops[top] = [j]
            else:
                targets.append(j)
        else:
            empties.append(j)
    room = filled < tables.homes
    exact, any_empty = tables.exact, tables.any_empty
    table = engine._segments
    no_targets: list[int] = []
    for i in range(nc):
        pile = ups[i]
        if not pile:
            continue
        segments = table.get(pile)
        if segments is None:
            segments = _segments(engine, pile)
        n = len(pile)
        for k, card, whole_run, suit in segments:
            # The top k cards form a run whose bottom card is ``card``.
            if suit and room:
                home.append((i, -1, 13))
            targets = tops.get(want[card], no_targets)
            if targets:
                onto = whole_onto if whole_run else split_onto
                for j in targets:
                    pair = card << 6 | ups[j][-1]
                    if exact or fits[pair]:
                        (join if joins[pair] else onto).append((i, j, k))
            if empties and (any_empty or accepts[card]):
                into = whole_into if whole_run else split_into
                if stock >= nc:
                    into.extend([(i, j, k) for j in empties])
                elif stock:
                    # The first ``stock`` columns still get a card; the others are
                    # interchangeable.
                    whole = k == n and not downs[i]
                    first_free = True
                    for j in empties:
                        if j < stock:
                            into.append((i, j, k))
                        elif first_free and not (whole and i >= stock):
                            first_free = False
                            into.append((i, j, k))
                elif k != n or downs[i]:
                    into.append((i, empties[0], k))
    home += join
    home += whole_onto
    home += whole_into
    if engine.can_deal(stock, empties):
        home.append(_DEAL)
    home += split_onto
    home += split_into
    return home
