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
  lies in another column than V's or is parted from V by the lift of a card between them;
* but when V is free only because U lifted (U does not join V), and U has only one such
  card T to go on (not a floating one), then U lies on T from its first lift on (it leaves
  T only by lifting, to nowhere else), so T is covered whenever V is free: not V's target.

By induction on time, every card that really lifts before the first event is in the fixed
point, so if no column's bottom card can lift, no column ever empties; and a complete suit can
reach a foundation only if its King is free at some time (or floating) and each other card of
its suit either lies already on the card one rank higher of its suit or lifts (or floats). When
neither event can ever happen, the position is won only if every column already holds nothing
but its one complete suit from the bottom up (no bottom card ever moves): a column whose bottom
card is not a King rules that out. Then the position is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from patience_core.families._spider_piles import State

if TYPE_CHECKING:
    from patience_core.families._spider_engine import Engine

__all__ = ["stuck_for_good"]

_KING = 13

#: The cards that may be at the top of a column, by code: (column, index from the bottom);
#: a floating card at (-1, 0).
_Spots = dict[int, list[tuple[int, int]]]


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

    The fixed point is kept as, for each column, which of its cards lift, and the cards that
    may be at the top of a column (``spots``: the top cards, the floating ones and each card
    under a lifting one); each pass walks a column from the top down through its free cards
    and marks those with a target.

    :param engine: the compact rules of the position (its face-down cards and stock).
    :param state: a compact state of that engine.
    """
    stock, downs, ups, _ = state
    if not all(ups) or engine.won(state):
        return False
    hidden = engine._dead_hidden
    if hidden is None:
        hidden = engine._dead_hidden = tuple(map(bytes, engine.hidden))
    cols = [hidden[c][: downs[c]] + ups[c] for c in range(len(ups))]
    if all(col[0] & 15 == _KING for col in cols):
        return False  # every column could be one complete suit already, bottom up
    dealt = engine.stock
    floating = dealt[len(dealt) - stock :] if stock else ()
    joins = engine.tables.joins
    targets = _targets(engine)
    spots: _Spots = {card: [(-1, 0)] for card in floating}
    for c, col in enumerate(cols):
        spots.setdefault(col[-1], []).append((c, len(col) - 1))
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
                if lifted[k]:
                    k -= 1
                    continue
                taken = None
                if k < top and not joins[col[k + 1] << 6 | col[k]]:
                    taken = _only_spot(c, k + 1, lifted, spots, targets[col[k + 1]])
                if _has_target(c, k, lifted, spots, targets[col[k]], taken):
                    lifted[k] = 1
                    changed = True
                    if k == 0:
                        return False  # column c may empty
                    spots.setdefault(col[k - 1], []).append((c, k - 1))
                k -= 1
    return not _suit_may_go_home(cols, lifts, floating, joins)


def _has_target(
    column: int,
    index: int,
    lifted: bytearray,
    spots: _Spots,
    codes: tuple[int, ...],
    taken: tuple[int, int] | None,
) -> bool:
    """Whether the free card at ``index`` of ``column`` (``lifted``: that column's lifts) may
    find a card it goes on (``codes``) at the top of another column: one of ``spots`` in
    another column, or in its own column parted from it by the lift of a card between them;
    never the spot ``taken`` (where the card first above it lies for good once it is free)."""
    for target in codes:
        for d, m in spots.get(target, ()):
            if (d, m) == taken:
                continue
            if d != column:
                return True
            if m < index:
                if m + 1 < index:  # below: the card on it lifts, and it is not this one
                    return True
            elif m > index and any(lifted[index + 1 : m + 1]):
                return True  # above, parted from it by a lift between them
    return False


def _only_spot(
    column: int, index: int, lifted: bytearray, spots: _Spots, codes: tuple[int, ...]
) -> tuple[int, int] | None:
    """The one spot the card at ``index`` of ``column`` may ever go on (by the rules of
    :func:`_has_target`), or ``None`` when it has several, a floating one, or none."""
    only = None
    for target in codes:
        for spot in spots.get(target, ()):
            d, m = spot
            if d < 0:
                return None
            if d != column or (m + 1 < index) or (m > index and any(lifted[index + 1 : m + 1])):
                if only is not None and only != spot:
                    return None
                only = spot
    return only


def _suit_may_go_home(
    cols: list[bytes], lifts: list[bytearray], floating: Sequence[int], joins: bytes
) -> bool:
    """Whether a complete suit may ever reach a foundation before a column empties: a King
    that is free at some time (or floating), and every other card of its suit lying on its
    successor of the suit or lifting (or floating)."""
    kings = [card for card in floating if card & 15 == _KING]
    for c, col in enumerate(cols):
        lifted = lifts[c]
        top = len(col) - 1
        for i in range(top, -1, -1):
            if i < top and not lifted[i + 1] and not joins[col[i + 1] << 6 | col[i]]:
                break
            if col[i] & 15 == _KING:
                kings.append(col[i])
    if not kings:
        return False
    placed = set(floating)  # cards that may come to lie on their successor
    for c, col in enumerate(cols):
        lifted = lifts[c]
        below = -1
        for k, card in enumerate(col):
            if lifted[k] or below == card + 1:
                placed.add(card)
            below = card
    return any(
        all(card in placed for card in range(king & 0x30 | 1, king & 0x30 | _KING))
        for king in kings
    )
