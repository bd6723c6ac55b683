"""The spider family's compact move lists: every legal move (:func:`all_moves`, the solver's
exhaustive search space) and the win finder's dig (:func:`dig`).

Layer 3½ (above :mod:`patience_core.games`); states and tables of
:mod:`patience_core.families._spider_piles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.families._spider_piles import _DEAL, _SUITS, State, Step, Tables, _capacity

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
            tops.setdefault(tkey[pile[-1]], []).append(j)
        else:
            empties.append(j)
    room = filled < tables.homes
    exact, any_empty = tables.exact, tables.any_empty
    facts = engine._pile_facts
    for i in range(nc):
        pile = ups[i]
        if not pile:
            continue
        n = len(pile)
        card = pile[-1]
        fact = facts.get(pile)
        run = (engine._learn(pile) if fact is None else fact)[0]
        k = 1
        while True:
            # The top k cards form a run whose bottom card is ``card``.
            onto, into = (whole_onto, whole_into) if k == run else (split_onto, split_into)
            if k == 13 and room and pile[-13:] in _SUITS:
                home.append((i, -1, 13))
            for j in tops.get(want[card], ()):
                pair = card << 6 | ups[j][-1]
                if exact or fits[pair]:
                    (join if joins[pair] else onto).append((i, j, k))
            if empties and (any_empty or accepts[card]):
                whole = k == n and not downs[i]
                if stock >= nc:
                    into.extend((i, j, k) for j in empties)
                elif stock:
                    # The first ``stock`` columns still get a card; the others are
                    # interchangeable.
                    first_free = True
                    for j in empties:
                        if j < stock:
                            into.append((i, j, k))
                        elif first_free and not (whole and i >= stock):
                            first_free = False
                            into.append((i, j, k))
                elif not whole:
                    into.append((i, empties[0], k))
            if k < n and joins[card << 6 | pile[-k - 1]]:
                k += 1
                card = pile[-k]
            else:
                break
    home += join
    home += whole_onto
    home += whole_into
    if engine.can_deal(stock, empties):
        home.append(_DEAL)
    home += split_onto
    home += split_into
    return home
