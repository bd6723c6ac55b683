"""The golf family's dead-position proof: a matching of tableau cards to predecessors.

**The proof** (it holds for every golf-family variant: any tableau shape, wrap or not, any deal
size). In any line that wins from a position, every tableau card still there is played onto the
waste, so the card right below it on the waste at that moment, its *predecessor*, is a distinct
card of a rank it may go on (``fits(card, predecessor)``). The predecessor is one of:

* the waste's top card now: the card is then played next, so it must be free now;
* a stock card that will show on the waste's top (with a deal size of ``n`` only every ``n``-th
  card does, and the bottom one);
* another tableau card ``Y`` played just before it. ``Y`` cannot be a card it covers (those go
  after it), and once ``Y`` is gone the card must be free: so no card still covering it other
  than ``Y`` may lie under ``Y`` (it would have to go after ``Y`` and before the card).

Every card is the predecessor of at most one card (the card played right after it). So a win
gives a matching of the tableau cards to distinct predecessors along those edges; when the
bipartite graph has no matching covering every tableau card, no line wins, and the position is
dead. The matching is kept from parent to child and repaired with Kuhn's augmenting paths, which
decide exactly whether such a matching exists. (Escalator's proof, RULES.md Part A, made general.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.families._golf_shape import bits

if TYPE_CHECKING:
    from patience_core.families._golf_search import Node

__all__ = ["DEAL", "Matching", "is_dead"]

#: Predecessor codes: 0.. a tableau place, STOCK_CODE + rank a stock card of that rank, TOP_CODE
#: the waste's top card, NONE unmatched.
STOCK_CODE = 1 << 12
TOP_CODE = 1 << 13
NONE = -1
#: The step of a deal (a tableau step is the place played).
DEAL = -1


class Matching:
    """A matching of tableau places to predecessors (module docstring).

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

    def copy(self) -> Matching:
        """A copy to repair (a matching never changes once published)."""
        return Matching(self.pred[:], self.owner[:], self.used, self.stock_used[:], self.top_user)


def _augment(node: Node, m: Matching, x: int, seen: list[int]) -> bool:
    """Find a predecessor for unmatched place ``x``, moving others along an augmenting path.

    :param m: the matching being built for ``node``; changed in place.
    :param seen: ``[places, stock ranks, top]`` bit masks of predecessors already explored in
        this search (each is explored once: Kuhn's algorithm).
    :returns: whether the matching now covers ``x``.
    """
    tables = node.tables
    shape = tables.shape
    r = tables.rank[x]
    preds = tables.preds[r]
    pred = m.pred
    stock_used = m.stock_used
    counts = tables.counts[node.stock]
    # A predecessor nobody uses yet: the waste's top card last, as it goes at the next move.
    for p in preds:
        if stock_used[p] < counts[p]:
            stock_used[p] += 1
            pred[x] = STOCK_CODE + p
            return True
    mask = node.mask
    candidates = tables.adjacent[x] & mask
    above = shape.above
    for cover in shape.covers[x]:
        if mask >> cover & 1:
            candidates &= ~above[cover]
    spare = candidates & ~m.used
    if spare:
        j = (spare & -spare).bit_length() - 1
        m.used |= 1 << j
        m.owner[j] = x
        pred[x] = j
        return True
    top_fits = node.top in preds and node.free >> x & 1
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
    for p in preds:
        if counts[p] and not seen[1] >> p & 1:
            seen[1] |= 1 << p
            code = STOCK_CODE + p
            # The stock cards of this rank are all used (else x would have one): try each user
            # (a failed attempt changes nothing, so the users stay where they are).
            user = -1
            for _ in range(stock_used[p]):
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
    """A matching covering every tableau card of ``node``, or ``None`` when there is none."""
    size = node.tables.shape.size
    m = Matching([NONE] * size, [NONE] * size, 0, [0] * 14, NONE)
    for x in bits(node.mask):
        if not _augment(node, m, x, [0, 0, 0]):
            return None
    return m


def _match_from_parent(node: Node, parent: Matching, step: int) -> Matching | None:
    """``parent``'s matching repaired for ``node``, the state ``step`` leads to from the
    parent's; ``None`` when no matching covers every tableau card."""
    todo = []
    if step == DEAL:
        rank = node.top
        over = parent.stock_used[rank] > node.tables.counts[node.stock][rank]
        if not over and parent.top_user < 0:
            return parent  # nothing to repair (matchings never change once built)
        m = parent.copy()
        if over:
            user = m.pred.index(STOCK_CODE + rank)
            m.pred[user] = NONE
            m.stock_used[rank] -= 1
            todo.append(user)
    else:
        m = parent.copy()
        pred = m.pred
        was = pred[step]
        pred[step] = NONE
        if was == TOP_CODE:
            m.top_user = NONE
        elif was >= STOCK_CODE:
            m.stock_used[was - STOCK_CODE] -= 1
        elif was >= 0:
            m.used &= ~(1 << was)
            m.owner[was] = NONE
        if m.used >> step & 1:
            user = m.owner[step]
            m.owner[step] = NONE
            m.used &= ~(1 << step)
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
    """Whether the predecessor matching (module docstring) proves the state lost."""
    dead = node.dead
    if dead is None:
        parent = node.parent
        if parent is not None and parent.matching is not None:
            matching = _match_from_parent(node, parent.matching, node.step)
        else:
            matching = _match_from_scratch(node)
        node.matching = matching
        node.parent = None
        dead = node.dead = matching is None
    return dead
