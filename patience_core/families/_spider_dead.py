"""A sound, cheap proof that a spider position with the stock dealt out is lost: nothing that a
win needs can ever happen (:func:`stuck_for_good`).

Layer 3½ (above :mod:`patience_core.games`); compact states of
:mod:`patience_core.families._spider_piles`. The exhaustive search asks it of every new state
(:meth:`Space.is_dead <patience_core.families._spider_search.Space.is_dead>`), so "dead" stays a
proof: the argument below holds for every declaration of the family (it reads the build and run
policies from the tables, never assumes them).

**The argument.** Take a state with the stock empty (no deal can ever bring a card), no empty
column and not won. Call an *event* a move that empties a column or puts a complete suit on a
foundation. Before the first event every move is a run moved from the top of one column onto
the top card of another (nothing else is legal: RULES.md Part B §5). Every column is read whole,
its face-down cards included (they never move while face down, and turn over when uncovered),
and a least fixed point over-approximates which cards can ever be the bottom card of such a run
(``lifts``):

* a card V can lift only if, at that time, the cards above it form a run: either V moved
  before (it was carried or lifted), or the card originally above it has moved, or that card
  is still there and joins V by the run policy and the same holds for it in turn (``free``);
* and only onto a card T it may go on by the build policy, at the top of another column: T has
  moved before (to wherever), or T is still where it is, in another column than V's (unless V
  moved), with nothing left above it (the top card, or the card originally above it moved).

A card *moves* when it or a card below it in its column lifts. By induction on time, every
card that really lifts before the first event is in the fixed point, so if no column's bottom
card can lift, no column ever empties; and a complete suit can reach a foundation only if its
King can lift as the bottom of a run (same rule) and each other card of its suit either lies
already on the card one rank higher of its suit or moves. When neither event can ever happen,
the position is won only if every column already holds nothing but its one complete suit from
the bottom up (each won column is one complete suit, and no bottom card ever moves): a column
whose bottom card is not a King rules that out. Then the position is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.families._spider_piles import State

if TYPE_CHECKING:
    from patience_core.families._spider_engine import Engine

__all__ = ["stuck_for_good"]

_KING = 13


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
    """Whether ``state`` is proved lost by the argument of this module (only states with the
    stock empty and no empty column; ``False`` means "not proved", never "winnable").

    The fixed point is kept as, for each column, the lowest index whose card lifts (``low``):
    the cards from there up move, the card just below it is uncovered then, and the cards that
    may lift next are the run on top of the cards below it (each joins the one above it, by
    the run policy, up to the card under the moved ones, or to the top).

    :param engine: the compact rules of the position (its face-down cards).
    :param state: a compact state of that engine.
    """
    stock, downs, ups, _ = state
    if stock or not all(ups) or engine.won(state):
        return False
    hidden = engine.hidden
    cols = [hidden[c][: downs[c]] + tuple(ups[c]) for c in range(len(ups))]
    if all(col[0] & 15 == _KING for col in cols):
        return False  # every column could be one complete suit already, bottom up
    joins = engine.tables.joins
    targets = _targets(engine)
    where: dict[int, list[tuple[int, int]]] = {}
    for c, col in enumerate(cols):
        for k, card in enumerate(col):
            where.setdefault(card, []).append((c, k))
    low = [len(col) for col in cols]
    changed = True
    while changed:
        changed = False
        for c, col in enumerate(cols):
            # The run on top of the cards that have not moved: its lowest card that has
            # somewhere to go lifts (with everything above it).
            top = low[c] - 1
            bottom = top
            while bottom and joins[col[bottom] << 6 | col[bottom - 1]]:
                bottom -= 1
            for i in range(bottom, top + 1):
                if _has_target(col[i], c, targets[col[i]], where, low):
                    low[c] = i
                    changed = True
                    if i == 0:
                        return False  # column c may empty
                    break
    return not _suit_may_go_home(cols, where, low, joins)


def _has_target(
    card: int,
    column: int,
    codes: tuple[int, ...],
    where: dict[int, list[tuple[int, int]]],
    low: list[int],
) -> bool:
    """Whether a card ``card`` may go on (``codes``) can be at the top of another column while
    ``card`` (which has not moved) is the bottom of a run: a card that moves (it may lie
    anywhere), or the card just under the moved ones of another column."""
    for target in codes:
        for d, k in where.get(target, ()):
            if k >= low[d] or (d != column and k == low[d] - 1):
                return True
    return False


def _suit_may_go_home(
    cols: list[tuple[int, ...]],
    where: dict[int, list[tuple[int, int]]],
    low: list[int],
    joins: bytes,
) -> bool:
    """Whether a complete suit may ever reach a foundation before a column empties: a King
    that can be the bottom of a run then (it moves, or it lies in the run on top of the cards
    that do not move), and every other card of its suit lying on its successor of the suit or
    moving."""
    for c, col in enumerate(cols):
        top = low[c] - 1
        bottom = top
        while bottom > 0 and joins[col[bottom] << 6 | col[bottom - 1]]:
            bottom -= 1
        for i, king in enumerate(col):
            if king & 15 != _KING or i < bottom:
                continue
            suit = king & 0x30
            if all(
                any(
                    k >= low[d] or (k > 0 and cols[d][k - 1] == card + 1)
                    for d, k in where.get(card, ())
                )
                for card in range(suit | 1, suit | _KING)
            ):
                return True
    return False
