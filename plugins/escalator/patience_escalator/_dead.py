"""Escalator's dead-position proof: a matching of pyramid cards to predecessors.

**The dead proof** (RULES.md Part A "Escalator"; the solver's ``is_dead`` contract). In any line
that wins from a position, every pyramid card still there is played onto the waste, so the card
just below it on the waste at that moment, its *predecessor*, is a distinct card of a rank one
above or below it (King and Ace adjacent). The predecessor is one of:

* the waste's top card now, and then the pyramid card is played next, so it must be free now;
* a card still in the stock (dealt, then the pyramid card played on it);
* another pyramid card ``Y`` played just before it. ``Y`` cannot be a card it covers (those go
  after it), and once ``Y`` is gone the card must be free: so no card still covering it other
  than ``Y`` may lie under ``Y`` (it would have to go after ``Y`` and before the card).

Every card is the predecessor of at most one card (the card played right after it). So a win
gives a matching of the pyramid cards to distinct predecessors along those edges; when the
bipartite graph has no matching that covers every pyramid card, no line wins, and the position is
dead. The matching is kept from parent to child and repaired with Kuhn's augmenting paths, which
decide exactly whether such a matching exists.
"""

from __future__ import annotations

from patience_core.api import Move, MoveKind
from patience_escalator._node import (
    ABOVE,
    ABOVE_RANK,
    APEX,
    BELOW,
    COVER_PLACES,
    PLACES,
    Node,
    bits,
)

#: Predecessor codes in a matching: 0..27 a pyramid place, STOCK_CODE + rank a stock card of that
#: rank, TOP_CODE the waste's top card, NONE unmatched.
STOCK_CODE = 32
TOP_CODE = 64
NONE = -1


class Matching:
    """A matching of pyramid places to predecessors (module docstring).

    :param pred: for each place, its predecessor's code (``NONE`` when unmatched or empty).
    :param owner: for each place, the place it precedes (``NONE`` when it precedes none).
    :param used: the places that precede some place (a mask).
    :param stock_used: for each rank, the places matched to stock cards of that rank.
    :param top_user: the place the waste's top card precedes, or ``NONE``.
    """

    __slots__ = ("owner", "pred", "stock_used", "top_user", "used")

    def __init__(
        self, pred: list[int], owner: list[int], used: int, stock_used: list[int], top_user: int
    ) -> None:
        self.pred = pred
        self.owner = owner
        self.used = used
        self.stock_used = stock_used
        self.top_user = top_user


def _augment(node: Node, m: Matching, x: int, seen: list[int]) -> bool:
    """Find a predecessor for unmatched place ``x``, moving others along an augmenting path.

    :param m: the matching being built for ``node``; changed in place.
    :param seen: ``[places, stock ranks, top]`` bit masks of predecessors already explored in
        this search (each is explored once: Kuhn's algorithm).
    :returns: whether the matching now covers ``x``.
    """
    tables = node.tables
    r = tables.rank[x]
    low = BELOW[r]
    high = ABOVE_RANK[r]
    pred = m.pred
    stock_used = m.stock_used
    counts = tables.counts[node.stock]
    # A predecessor nobody uses yet: the waste's top card last, as it goes at the next move.
    if stock_used[low] < counts[low]:
        stock_used[low] += 1
        pred[x] = STOCK_CODE + low
        return True
    if stock_used[high] < counts[high]:
        stock_used[high] += 1
        pred[x] = STOCK_CODE + high
        return True
    mask = node.mask
    candidates = tables.adjacent[x] & mask
    for cover in COVER_PLACES[x]:
        if mask >> cover & 1:
            candidates &= ~ABOVE[cover]
    spare = candidates & ~m.used
    if spare:
        j = (spare & -spare).bit_length() - 1
        m.used |= 1 << j
        m.owner[j] = x
        pred[x] = j
        return True
    top_fits = (node.top == low or node.top == high) and node.free >> x & 1
    if top_fits and m.top_user < 0:
        m.top_user = x
        pred[x] = TOP_CODE
        return True
    # Move a user of one of the candidates elsewhere.
    if top_fits and not seen[2]:
        seen[2] = 1
        if _augment(node, m, m.top_user, seen):
            m.top_user = x
            pred[x] = TOP_CODE
            return True
    for rank in (low, high):
        if counts[rank] and not seen[1] >> rank & 1:
            seen[1] |= 1 << rank
            code = STOCK_CODE + rank
            # The stock cards of this rank are all used (else x would have one): try each user
            # (a failed attempt changes nothing, so the users stay where they are).
            user = -1
            for _ in range(stock_used[rank]):
                user = pred.index(code, user + 1)
                if _augment(node, m, user, seen):
                    pred[x] = code
                    return True
    todo = candidates & ~seen[0]
    seen[0] |= todo
    for j in bits(todo):
        if _augment(node, m, m.owner[j], seen):
            m.owner[j] = x
            pred[x] = j
            return True
    return False


def _match_from_scratch(node: Node) -> Matching | None:
    """A matching covering every pyramid card of ``node``, or ``None`` when there is none."""
    m = Matching([NONE] * PLACES, [NONE] * PLACES, 0, [0] * 14, NONE)
    for x in bits(node.mask):
        if not _augment(node, m, x, [0, 0, 0]):
            return None
    return m


def _match_from_parent(node: Node, parent: Matching, move: Move) -> Matching | None:
    """``parent``'s matching repaired for ``node``, the position ``move`` leads to from the
    parent's; ``None`` when no matching covers every pyramid card."""
    todo = []
    if move.kind is MoveKind.DEAL:
        rank = node.top
        over = parent.stock_used[rank] > node.tables.counts[node.stock][rank]
        if not over and parent.top_user < 0:
            return parent  # nothing to repair (matchings never change once built)
        m = Matching(
            parent.pred[:], parent.owner[:], parent.used, parent.stock_used[:], parent.top_user
        )
        if over:
            user = m.pred.index(STOCK_CODE + rank)
            m.pred[user] = NONE
            m.stock_used[rank] -= 1
            todo.append(user)
    else:
        m = Matching(
            parent.pred[:], parent.owner[:], parent.used, parent.stock_used[:], parent.top_user
        )
        pred = m.pred
        place = move.source - APEX
        was = pred[place]
        pred[place] = NONE
        if was == TOP_CODE:
            m.top_user = NONE
        elif was >= STOCK_CODE:
            m.stock_used[was - STOCK_CODE] -= 1
        elif was >= 0:
            m.used &= ~(1 << was)
            m.owner[was] = NONE
        if m.used >> place & 1:
            user = m.owner[place]
            m.owner[place] = NONE
            m.used &= ~(1 << place)
            pred[user] = NONE
            todo.append(user)
    if m.top_user >= 0:
        # The old top card is buried: whoever it preceded needs another predecessor.
        m.pred[m.top_user] = NONE
        todo.append(m.top_user)
        m.top_user = NONE
    for x in todo:
        if not _augment(node, m, x, [0, 0, 0]):
            return None
    return m


def is_dead(node: Node) -> bool:
    """Whether the predecessor matching (module docstring) proves the position lost."""
    dead = node.dead
    if dead is None:
        parent = node.parent
        move = node.move
        if parent is not None and parent.matching is not None and move is not None:
            matching = _match_from_parent(node, parent.matching, move)
        else:
            matching = _match_from_scratch(node)
        node.matching = matching
        node.parent = None
        dead = node.dead = matching is None
    return dead
