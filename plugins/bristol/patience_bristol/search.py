"""Bristol's search object for the solver (:class:`BristolSearch`): a compact key, safe forced
moves, a dead-end proof, the inversion count that orders moves, and a best-first search for wins
(RULES.md Part A "Bristol"; the reasoning is on docs/games/bristol.md).

Layout indices are those of :mod:`patience_bristol.game`: stock 0, reserves 1-3, foundations
4-7, tableau 8-15.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Hashable, Sequence

from patience_core.api import GameSearch, Move, MoveKind, Position, time_is_up

__all__ = [
    "BristolSearch",
    "best_first",
    "homes_impossible",
    "inversions",
    "position_score",
]

STOCK = 0
RESERVES = (1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
TABLEAU = tuple(range(8, 16))
KING = 13
#: Weights of :func:`position_score` (measured on deals 1..200, see the docs page).
HOME_WEIGHT = 3
RESERVE_INVERSION_WEIGHT = 3
TABLEAU_INVERSION_WEIGHT = 1
RESERVE_CARD_WEIGHT = 1
#: Positions :func:`best_first` keeps at most (about 400 bytes each), then it gives up.
BEST_FIRST_POSITIONS = 1_000_000


def homes_impossible(position: Position) -> bool:
    """Whether some card can provably never reach a foundation (then no line wins).

    A fixpoint over what may happen, counted from the start: a card *may be exposed* when every
    card above it in its pile (a reserve or a tableau pile; every stock card counts as exposed,
    being dealt onto a reserve top) may leave; a card of rank r *may go home* when it may be
    exposed and a foundation may reach r - 1, that is when the foundations now holding r - 1 or
    more outnumber those holding r or more, counting as home every card of rank r - 1 that may go
    home (Aces always may); it *may go onto the tableau* when it may be exposed and some card of
    rank r + 1 may be a tableau top: one that may be exposed in another tableau pile, or one
    that may itself go onto the tableau; a card *may leave*
    when it may go home or onto the tableau. Each "may" only grows, so the fixpoint is reached
    after at most 52 rounds.

    Sound: by induction on any line of play, each thing that happens (a card leaving its pile,
    going home, going onto the tableau) was counted as possible. Cards that arrive later on a
    pile (dealt onto a reserve, built on a tableau card) only delay what is below them, so
    leaving them out only makes more things look possible. Every card must go home in a win, so
    a card that may not is a proof that the position is lost.
    """
    piles = position.piles
    # home[q]: foundations holding q or more cards (home[0] = 4: any foundation takes an Ace).
    home = [len(FOUNDATIONS)] + [0] * (KING + 1)
    for f in FOUNDATIONS:
        for rank in range(1, len(piles[f]) + 1):
            home[rank] += 1
    exposed = [0] * (KING + 2)  # cards of each rank that may be exposed
    on_tableau = [0] * (KING + 2)  # of those, in tableau piles
    for card in piles[STOCK]:
        exposed[card.rank] += 1
    ranks: list[list[int]] = []
    own: list[list[int]] = []  # per pile: its cards that may be exposed, by rank
    cut: list[int] = []  # per pile: how many cards (from the bottom) may not be exposed yet
    for index in RESERVES + TABLEAU:
        pile = [int(card.rank) for card in piles[index]]
        counts = [0] * (KING + 2)
        if pile:
            exposed[pile[-1]] += 1
            if index in TABLEAU:
                on_tableau[pile[-1]] += 1
                counts[pile[-1]] += 1
        ranks.append(pile)
        own.append(counts)
        cut.append(len(pile) - 1 if pile else 0)
    tableau = [index in TABLEAU for index in RESERVES + TABLEAU]
    may_home = [True] * (KING + 2)
    may_tableau = [False] * (KING + 2)
    changed = True
    while changed:
        changed = False
        going = len(FOUNDATIONS)  # Aces: any number may go home
        for rank in range(1, KING + 1):
            may_home[rank] = home[rank - 1] + going > home[rank]
            going = exposed[rank] if may_home[rank] else 0
        onto = False
        for rank in range(KING - 1, 0, -1):
            onto = exposed[rank] > 0 and (on_tableau[rank + 1] > 0 or onto)
            may_tableau[rank] = onto
        for k, pile in enumerate(ranks):
            counts = own[k]
            while pile and cut[k] >= 0:
                rank = pile[cut[k]]
                leaves = may_home[rank] or (
                    rank < KING
                    and (on_tableau[rank + 1] > counts[rank + 1] or may_tableau[rank + 1])
                )
                if not leaves:
                    break
                cut[k] -= 1
                changed = True
                if cut[k] >= 0:
                    below = pile[cut[k]]
                    exposed[below] += 1
                    if tableau[k]:
                        on_tableau[below] += 1
                        counts[below] += 1
    if any(pile and cut[k] >= 0 for k, pile in enumerate(ranks)):
        return True  # a card that may not be exposed, or an exposed one that may not leave
    return any(home[rank] < len(FOUNDATIONS) and not may_home[rank] for rank in range(1, KING + 1))


def inversions(ranks: Sequence[int]) -> int:
    """Pairs of cards in one pile (ranks bottom first) with the higher rank above the lower: each
    is a card that must leave before the card under it can go home."""
    count = 0
    for k, low in enumerate(ranks):
        for high in ranks[k + 1 :]:
            if high > low:
                count += 1
    return count


def position_score(position: Position) -> int:
    """How far from a win ``position`` looks, lower is better: cards in the reserves and
    inversions (see :func:`inversions`, reserves weighing more), less cards home."""
    piles = position.piles
    score = -HOME_WEIGHT * sum(len(piles[f]) for f in FOUNDATIONS)
    for r in RESERVES:
        pile = piles[r]
        score += RESERVE_CARD_WEIGHT * len(pile)
        score += RESERVE_INVERSION_WEIGHT * inversions([card.rank for card in pile])
    for t in TABLEAU:
        score += TABLEAU_INVERSION_WEIGHT * inversions([card.rank for card in piles[t]])
    return score


def best_first(
    search: GameSearch, position: Position, nodes: int, seconds: float
) -> tuple[list[Move] | None, int]:
    """A greedy best-first search for a winning line: it always goes on from the position with
    the lowest :func:`position_score` (the oldest first among equals), trying
    :meth:`GameSearch.moves_to_try`, playing :meth:`GameSearch.forced_move` after each move,
    skipping positions whose :meth:`GameSearch.key` it has seen or that
    :meth:`GameSearch.is_dead` proves lost.
    It may miss wins (it stops at the budget, or once it holds BEST_FIRST_POSITIONS positions)
    and proves nothing.

    :param nodes: moves played at most.
    :param seconds: CPU seconds (:func:`time.process_time`) at most; it also stops when the
        solver's own limits pass (:func:`patience_core.api.time_is_up`: a hint's wall clock).
    :returns: (the moves from ``position`` to a win, or ``None``; moves played).
    """
    deadline = time.process_time() + seconds
    played = 0
    lines: list[tuple[int, tuple[Move, ...]]] = [(-1, ())]  # (parent, moves) per node
    order = itertools.count()
    queue = [(position_score(position), next(order), 0, position)]
    game = search.game
    seen = {search.key(position)}
    while queue:
        _, _, node, current = heapq.heappop(queue)
        for move in search.moves_to_try(current):
            child = game.play(current, move)
            played += 1
            taken = [move]
            while not game.is_won(child) and (extra := search.forced_move(child)) is not None:
                child = game.play(child, extra)
                played += 1
                taken.append(extra)
            if game.is_won(child):
                return _line(lines, node) + taken, played
            if played >= nodes or (
                played & 255 == 0 and (time.process_time() >= deadline or time_is_up())
            ):
                return None, played
            child_key = search.key(child)
            if child_key in seen or search.is_dead(child):
                continue
            if len(lines) >= BEST_FIRST_POSITIONS:
                return None, played
            seen.add(child_key)
            lines.append((node, tuple(taken)))
            heapq.heappush(queue, (position_score(child), next(order), len(lines) - 1, child))
        if time.process_time() >= deadline or time_is_up():
            return None, played
    return None, played


def _line(lines: list[tuple[int, tuple[Move, ...]]], node: int) -> list[Move]:
    """The moves from the start to ``node``."""
    parts: list[tuple[Move, ...]] = []
    while node > 0:
        node, taken = lines[node]
        parts.append(taken)
    return [move for taken in reversed(parts) for move in taken]


class BristolSearch(GameSearch):
    """Bristol's search object (RULES.md Part A "Bristol"; the reasoning is on
    docs/games/bristol.md).

    :param game: a Bristol game.
    """

    def key(self, position: Position) -> Hashable:
        """The stock count, the reserves, the foundations and the tableau, by ranks only.

        Within one deal this is the whole future: no rule of Bristol looks at suits (any-suit
        building, foundations by rank), the stock's order is fixed, and a foundation matters only
        through its top rank. Foundations are interchangeable (sorted), and so are the tableau
        piles (every pile follows the same rules; sorted). Reserves are not, while the stock can
        still deal to them in the order r1, r2, r3: r2 and r3 are interchangeable once only the
        last one-card deal (to r1) is left, all three once the stock is empty.
        """
        piles = position.piles
        stock = len(piles[STOCK])
        reserves = [bytes(card.rank for card in piles[r]) for r in RESERVES]
        if stock == 0:
            reserves.sort()
        elif stock <= len(RESERVES):
            reserves[1:] = sorted(reserves[1:])
        homes = bytes(sorted(len(piles[f]) for f in FOUNDATIONS))
        tableau = sorted(bytes(card.rank for card in piles[t]) for t in TABLEAU)
        return b"\0".join((bytes((stock,)), homes, *reserves, *tableau))

    def forced_move(self, position: Position) -> Move | None:
        """A top card of rank r to a foundation once every card of rank r - 1 is on the
        foundations (any Ace at once), or ``None``.

        Safe: nothing can ever be placed on such a card (only a card of rank r - 1 could be, and
        none is left), so it serves no other card, and its foundation move is the one every
        winning line makes sooner or later. Playing it first, then the winning line without that
        card's own moves, leaves every later move legal: each pile is the same minus that card,
        and the foundations keep a top of rank r - 1 for every other card of rank r.
        """
        piles = position.piles
        heights = [len(piles[f]) for f in FOUNDATIONS]
        lowest = min(heights)
        for source in RESERVES + TABLEAU:
            pile = piles[source]
            if not pile:
                continue
            rank = pile[-1].rank
            if rank - 1 > lowest:
                continue  # some card of rank r - 1 is not home yet
            for target, height in zip(FOUNDATIONS, heights, strict=True):
                if height == rank - 1:
                    return Move.transfer(source, target)
        return None

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Best first: to a foundation (those freeing the most lower cards first); then the
        other moves by the change they make to the inversions (see :func:`inversions`: a card
        above a lower one in its pile), fewest first; among equals from a reserve, between
        tableau piles, the deal. Order only.

        (Measured on deals 1..200: ordered by inversions, 196 deals are won within 10 s by the
        depth-first search alone; ordered by kind alone, 195.)"""
        return sorted(moves, key=lambda move: self._move_rank(position, move))

    def _move_rank(self, position: Position, move: Move) -> tuple[int, int, int]:
        if move.kind is MoveKind.DEAL:
            stock = position[STOCK]
            dealt = len(RESERVES) if len(stock) > len(RESERVES) else 1
            added = 0
            for k in range(dealt):
                rank = stock[len(stock) - 1 - k].rank
                added += sum(1 for card in position[RESERVES[k]] if card.rank < rank)
            return (1, added, 3)
        pile = position[move.source]
        rank = pile[-1].rank
        freed = sum(1 for card in pile[:-1] if card.rank < rank)
        if move.target in FOUNDATIONS:
            return (0, -freed, 0)
        assert move.target is not None
        added = sum(1 for card in position[move.target] if card.rank < rank)
        return (1, added - freed, 1 if move.source in RESERVES else 2)

    def moves_to_try(self, position: Position) -> list[Move]:
        """:meth:`order_moves` of the legal moves, less one kind that never helps: the last card
        of a tableau pile moved onto another tableau pile.

        Why it never helps: an empty tableau pile takes nothing, so after such a move the card
        (and whatever is later built on it) only covers the card it went onto. Any line from
        there can be played from before the move with the same moves, the card and what is built
        on it staying in their own pile; the two lines reach the same position once that card
        leaves, which it must before a win. So a shortest winning line never makes such a move.
        """
        kept = [
            move
            for move in self.game.legal_moves(position)
            if not (
                move.source in TABLEAU
                and move.target in TABLEAU
                and len(position[move.source]) == 1
            )
        ]
        return self.order_moves(position, kept)

    def is_dead(self, position: Position) -> bool:
        """Dead when some card can provably never reach a foundation (see
        :func:`homes_impossible`)."""
        return homes_impossible(position)

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A winning line found by a best-first search (see
        :func:`best_first`); it proves nothing when it finds none."""
        return best_first(self, position, nodes, seconds)
