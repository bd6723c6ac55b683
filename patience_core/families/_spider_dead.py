"""A sound, cheap proof that a spider position is lost: nothing that a win needs can ever
happen (:func:`stuck_for_good`).

Layer 3½ (above :mod:`patience_core.games`); compact states of
:mod:`patience_core.families._spider_piles`. The exhaustive search asks it
(:meth:`Space.is_dead <patience_core.families._spider_search.Space.is_dead>`), so "dead" stays a
proof: the argument below holds for every declaration of the family (it reads the build and run
policies from the tables, never assumes them).

**The argument.** Take a state with no empty column and not won. Call an *event* a move that
empties a column or puts a complete suit on a foundation. Before the first event every move is
a run moved from the top of one column onto the top card of another, or a deal, which puts
cards on top of columns (nothing else is legal: RULES.md Part B §5). Every column is read whole,
its face-down cards included (they never move while face down, and turn over when uncovered);
the cards still in the stock are *floating*: they may lie anywhere, at any time. A least fixed
point over-approximates which cards can ever *lift* (be the bottom card of a run that moves):

* a card V can lift only if, at that time, the cards on it form a run. The card U first on V
  leaves V only by lifting (a lift from below carries U along, still on V; deals and moves
  only put cards on top), so either V is the top card, or U lifts, or U joins V by the run
  policy and the same holds for U in turn (``free``);
* and only onto a card T it may go on by the build policy, at the top of another column: a
  floating card, or a card whose first card above it lifts (or that is a top card), which
  lies in another column than V's or is parted from V by the lift of a card between them.

By induction on time, every card that really lifts before the first event is in the fixed
point, so if no column's bottom card can lift, no column ever empties; and a complete suit can
reach a foundation only if its King is free at some time (or floating) and each other card of
its suit either lies already on the card one rank higher of its suit or lifts (or floats). When
neither event can ever happen, the position is won only if every column already holds nothing
but its one complete suit from the bottom up (no bottom card ever moves): a column whose bottom
card is not a King rules that out. Then the position is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.families._spider_piles import State

if TYPE_CHECKING:
    from patience_core.families._spider_engine import Engine

__all__ = ["stuck_for_good"]

_KING = 13

#: Positions of each card code in the columns read whole: (column, index from the bottom).
_Where = dict[int, list[tuple[int, int]]]


def _targets(engine: Engine) -> tuple[tuple[int, ...], ...]:
    """For each card code, the codes of the cards it may go on (the build policy), kept on
    the engine."""
    known = engine._dead_targets
    if known is None:
        fits = engine.tables.fits
        known = engine._dead_targets = tuple(
            tuple(t for t in range(64) if fits[v << 6 | t]) for v in range(64)
        )
    return known


def stuck_for_good(engine: Engine, state: State) -> bool:
    """Whether ``state`` is proved lost by the argument of this module (only states with no
    empty column; ``False`` means "not proved", never "winnable").

    The fixed point is kept as, for each column, which of its cards lift; each pass walks a
    column from the top down through its free cards (those whose cards above form a run, or
    whose first card above lifts) and marks those with a target.

    :param engine: the compact rules of the position (its face-down cards and stock).
    :param state: a compact state of that engine.
    """
    stock, downs, ups, _ = state
    if not all(ups) or engine.won(state):
        return False
    hidden = engine.hidden
    cols = [hidden[c][: downs[c]] + tuple(ups[c]) for c in range(len(ups))]
    if all(col[0] & 15 == _KING for col in cols):
        return False  # every column could be one complete suit already, bottom up
    dealt = engine.stock
    floating = frozenset(dealt[len(dealt) - stock :])
    joins = engine.tables.joins
    targets = _targets(engine)
    where: _Where = {}
    for c, col in enumerate(cols):
        for k, card in enumerate(col):
            where.setdefault(card, []).append((c, k))
    lifts = [bytearray(len(col)) for col in cols]
    changed = True
    while changed:
        changed = False
        for c, col in enumerate(cols):
            lifted = lifts[c]
            k = top = len(col) - 1
            while k >= 0:
                if k < top and not lifted[k + 1] and not joins[col[k + 1] << 6 | col[k]]:
                    break  # not free, nor any card below it
                if not lifted[k] and _has_target(col[k], c, k, cols, lifts, where, floating,
                                                 targets[col[k]]):  # fmt: skip
                    lifted[k] = 1
                    changed = True
                    if k == 0:
                        return False  # column c may empty
                k -= 1
    return not _suit_may_go_home(cols, lifts, where, floating, joins)


def _has_target(
    card: int,
    column: int,
    index: int,
    cols: list[tuple[int, ...]],
    lifts: list[bytearray],
    where: _Where,
    floating: frozenset[int],
    codes: tuple[int, ...],
) -> bool:
    """Whether ``card`` (free, at ``index`` of ``column``) may find a card it goes on
    (``codes``) at the top of another column: a floating card, or a card whose first card
    above lifts (or a top card), not stuck above or below ``card`` in its own column."""
    for target in codes:
        if target in floating:
            return True
        for d, m in where.get(target, ()):
            lifted = lifts[d]
            if d != column:
                if m == len(cols[d]) - 1 or lifted[m + 1]:
                    return True
            elif m < index:
                # Below: uncovered only by the lift of a card between them.
                if m + 1 < index and lifted[m + 1]:
                    return True
            elif (m == len(cols[d]) - 1 or lifted[m + 1]) and any(lifted[index + 1 : m + 1]):
                return True  # above, parted from it by a lift between them
    return False


def _suit_may_go_home(
    cols: list[tuple[int, ...]],
    lifts: list[bytearray],
    where: _Where,
    floating: frozenset[int],
    joins: bytes,
) -> bool:
    """Whether a complete suit may ever reach a foundation before a column empties: a King
    that is free at some time (or floating), and every other card of its suit lying on its
    successor of the suit or lifting (or floating)."""
    for c, col in enumerate(cols):
        lifted = lifts[c]
        top = len(col) - 1
        for i in range(top, -1, -1):
            if i < top and not lifted[i + 1] and not joins[col[i + 1] << 6 | col[i]]:
                break
            king = col[i]
            if king & 15 == _KING and _suit_may_gather(king & 0x30, cols, lifts, where, floating):
                return True
    return any(
        king & 15 == _KING and _suit_may_gather(king & 0x30, cols, lifts, where, floating)
        for king in floating
    )


def _suit_may_gather(
    suit: int,
    cols: list[tuple[int, ...]],
    lifts: list[bytearray],
    where: _Where,
    floating: frozenset[int],
) -> bool:
    """Whether every card of ``suit`` below the King may come to lie on its successor."""
    return all(
        card in floating
        or any(lifts[d][k] or (k and cols[d][k - 1] == card + 1) for d, k in where.get(card, ()))
        for card in range(suit | 1, suit | _KING)
    )
