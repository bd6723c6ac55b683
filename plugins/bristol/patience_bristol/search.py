"""Search helpers of Bristol for the solver: a dead-end proof, the inversion count that orders
moves, and a best-first search for wins (RULES.md Part A "Bristol"; the reasoning is on
docs/games/bristol.md).

Layout indices are those of :mod:`patience_bristol.game`: stock 0, reserves 1-3, foundations
4-7, tableau 8-15.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Sequence

from patience_core.api import Game, Move, Position, time_is_up

__all__ = [
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
    game: Game, position: Position, nodes: int, seconds: float
) -> tuple[list[Move] | None, int]:
    """A greedy best-first search for a winning line: it always goes on from the position with
    the lowest :func:`position_score` (the oldest first among equals), trying
    :meth:`Game.solver_moves`, playing :meth:`Game.forced_move` after each move, skipping
    positions whose :meth:`Game.solver_key` it has seen or that :meth:`Game.is_dead` proves lost.
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
    seen = {game.solver_key(position)}
    while queue:
        _, _, node, current = heapq.heappop(queue)
        for move in game.solver_moves(current):
            child = game.play(current, move)
            played += 1
            taken = [move]
            while not game.is_won(child) and (extra := game.forced_move(child)) is not None:
                child = game.play(child, extra)
                played += 1
                taken.append(extra)
            if game.is_won(child):
                return _line(lines, node) + taken, played
            if played >= nodes or (
                played & 255 == 0 and (time.process_time() >= deadline or time_is_up())
            ):
                return None, played
            child_key = game.solver_key(child)
            if child_key in seen or game.is_dead(child):
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
