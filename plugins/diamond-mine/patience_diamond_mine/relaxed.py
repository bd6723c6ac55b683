"""Diamond Mine's relaxed game, which proves deals dead (RULES.md Part A "Diamond Mine"; the proof
is on docs/games/diamond-mine.md), and the suit-blind card codes the search shares.

The relaxed game keeps what the two facts of :mod:`patience_diamond_mine.search` allow and drops
the rest; when even it cannot be won, no line of the real game wins.
"""

from __future__ import annotations

import itertools

from patience_core.api import Card, Position, Suit, time_is_up

__all__ = [
    "DIAMOND",
    "DOWN",
    "FOUNDATION",
    "RANK_CODE",
    "SUIT_SIZE",
    "Relaxation",
    "RelaxedState",
    "relaxed_fits",
    "relaxed_state",
    "relaxed_successors",
    "relaxed_won",
]

SUIT_SIZE = 13
FOUNDATION = 0
#: A diamond's code is its rank plus this (17..29); other cards are coded by rank (1..13).
DIAMOND = 16
#: Added to the code of a face-down card in the keys (65..93 suit-blind, 65..116 full).
DOWN = 64

#: Suit-blind code of every card: rank, or DIAMOND + rank; plus DOWN when face down.
RANK_CODE = {
    Card.of(rank, suit, up): rank + (DIAMOND if suit is Suit.DIAMONDS else 0) + (0 if up else DOWN)
    for rank in range(1, 14)
    for suit in Suit
    for up in (True, False)
}

#: (piles, ends, foundation top, foundation count): ``piles`` is one ``bytes`` per pile, sorted,
#: holding the suit-blind codes of its face-down cards then of its base (``b""`` for an empty
#: pile); ``ends`` counts, for each rank 0..13, the piles with a non-diamond base whose top card
#: has that rank.
RelaxedState = tuple[tuple[bytes, ...], bytes, int, int]


def relaxed_state(position: Position) -> RelaxedState | None:
    """``position`` in the relaxed game: each pile's face-down cards and base, the ends of the
    runs counted by rank (not tied to their piles), the foundation's top and size.

    :returns: ``None`` when ``position`` breaks a rule every reachable position keeps (face-down
        cards only under face-up ones, a run above each base, a diamond only as a bare base, the
        foundation one cyclic run of diamonds); nothing is then proved.
    """
    foundation = position[FOUNDATION]
    for k, card in enumerate(foundation):
        if card.suit is not Suit.DIAMONDS or (
            k and card.rank != foundation[k - 1].rank % SUIT_SIZE + 1
        ):
            return None
    piles = []
    ends = bytearray(SUIT_SIZE + 1)
    for pile in position.piles[1:]:
        if not pile:
            piles.append(b"")
            continue
        k = 0
        while k < len(pile) and not pile[k].face_up:
            k += 1
        if k == len(pile):
            return None  # a face-down top card
        base = pile[k]
        if base.suit is Suit.DIAMONDS:
            if k != len(pile) - 1:
                return None
        else:
            for lower, upper in zip(pile[k:], pile[k + 1 :], strict=False):
                if not upper.face_up or upper.suit is Suit.DIAMONDS or upper.rank != lower.rank - 1:
                    return None
            ends[pile[-1].rank] += 1
        piles.append(bytes([RANK_CODE[card] - DOWN for card in pile[:k]] + [RANK_CODE[base]]))
    top = foundation[-1].rank if foundation else 0
    return (tuple(sorted(piles)), bytes(ends), top, len(foundation))


def relaxed_won(state: RelaxedState) -> bool:
    """Every diamond home and no face-down card: what every won position has."""
    return state[3] == SUIT_SIZE and all(len(pile) <= 1 for pile in state[0])


def relaxed_fits(state: RelaxedState) -> bool:
    """The diamond-order proof (``diamond_orders_fit``) on a relaxed state: ``False`` when the
    diamonds of some pile, read from the top down, cannot come in the foundation's sequence."""
    piles, _, top, count = state
    starts = (top % SUIT_SIZE + 1,) if count else tuple(range(1, SUIT_SIZE + 1))
    columns = []
    for pile in piles:
        ranks = [code - DIAMOND for code in reversed(pile) if code > DIAMOND]
        if len(ranks) > 1:
            columns.append(ranks)
    if not columns:
        return True
    return any(
        all(
            (upper - start) % SUIT_SIZE < (lower - start) % SUIT_SIZE
            for ranks in columns
            for upper, lower in itertools.pairwise(ranks)
        )
        for start in starts
    )


def _after_base(piles: tuple[bytes, ...], index: int, ends: bytearray) -> list[bytes]:
    """The piles once pile ``index``'s base has left it: its top face-down card turns up (a new
    base whose run ends at its own rank, counted in ``ends``), or the pile is empty."""
    rest = piles[index][:-1]
    changed = list(piles)
    changed[index] = rest
    if rest and rest[-1] < DIAMOND:
        ends[rest[-1]] += 1
    return changed


def relaxed_successors(state: RelaxedState) -> list[RelaxedState]:
    """The relaxed moves: every real move of a position whose relaxed state is ``state`` gives a
    relaxed state in this list, or ``state`` itself.

    * a diamond base that is due (or any, on an empty foundation) goes home;
    * a non-diamond base b goes, with its run, onto a run ending at b + 1 (that end is used up;
      the run's own end stays), or into an empty pile; either turns up the card under it;
    * a run is cut at any rank r with some base above r and some end at or below r, the upper
      part going into an empty pile (a new pile with base r; an end r + 1 is added);
    * moving a run's upper part onto another run changes no pile's cards below the base and
      keeps the multiset of ends, so it is no move here; nor is moving a whole pile that has no
      face-down cards into an empty pile.

    Successors failing :func:`relaxed_fits` are left out (they cannot reach a win).
    """
    piles, ends, top, count = state
    due = top % SUIT_SIZE + 1 if count else 0
    empties = piles.count(b"")
    found: list[RelaxedState] = []
    previous = None
    for index, pile in enumerate(piles):
        if not pile or pile == previous:
            continue  # identical piles give identical successors
        previous = pile
        base = pile[-1]
        if base > DIAMOND:
            rank = base - DIAMOND
            if count and rank != due:
                continue
            new_ends = bytearray(ends)
            changed = _after_base(piles, index, new_ends)
            child = (tuple(sorted(changed)), bytes(new_ends), rank, count + 1)
            if relaxed_fits(child):
                found.append(child)
            continue
        if base < SUIT_SIZE and ends[base + 1]:
            new_ends = bytearray(ends)
            new_ends[base + 1] -= 1
            changed = _after_base(piles, index, new_ends)
            found.append((tuple(sorted(changed)), bytes(new_ends), top, count))
        if empties and len(pile) > 1:
            new_ends = bytearray(ends)
            changed = _after_base(piles, index, new_ends)
            changed[changed.index(b"")] = bytes((base,))
            found.append((tuple(sorted(changed)), bytes(new_ends), top, count))
    if empties:
        lowest_end = next((rank for rank in range(1, SUIT_SIZE + 1) if ends[rank]), 0)
        highest_base = max((pile[-1] for pile in piles if pile and pile[-1] < DIAMOND), default=0)
        for rank in range(max(lowest_end, 1), highest_base):
            changed = list(piles)
            changed[changed.index(b"")] = bytes((rank,))
            new_ends = bytearray(ends)
            new_ends[rank + 1] += 1
            found.append((tuple(sorted(changed)), bytes(new_ends), top, count))
    return found


class Relaxation:
    """Decides, by exhausting the relaxed game, whether relaxed states can reach
    :func:`relaxed_won`; remembers every answer it proves.

    Sound: the relaxed game allows at least every real move (see :func:`relaxed_successors`) and
    every won position is :func:`relaxed_won`, so a relaxed state that cannot reach a relaxed win
    belongs only to positions that cannot be won. Each answer depends only on the state asked
    about: the limit counts the states a search from that state alone would visit.

    :param limit: relaxed states one question may visit at most; beyond that the answer is "not
        proved" and nothing is remembered. The answer is also "not proved" (not remembered)
        when the solver's time runs out first (:func:`patience_core.api.time_is_up`, asked first
        and every 1024 states): the solver then stops anyway, so no verdict changes.
    :param memory: answers kept at most (all are forgotten when full; about 350 bytes each).
    """

    def __init__(self, limit: int = 50_000, memory: int = 300_000) -> None:
        self.limit = limit
        self.memory = memory
        self._alive: dict[RelaxedState, bool] = {}

    def dead(self, state: RelaxedState) -> bool:
        """``True`` when no relaxed line from ``state`` wins (a proof); ``False`` when one does
        or the limit was reached."""
        known = self._alive
        answer = known.get(state)
        if answer is not None:
            return not answer
        if len(known) >= self.memory:
            known.clear()
        if relaxed_won(state):
            known[state] = True
            return False
        if not relaxed_fits(state):
            known[state] = False
            return True
        if time_is_up():
            return False
        seen = {state}
        path = [state]
        iterators = [iter(relaxed_successors(state))]
        while iterators:
            child = next(iterators[-1], None)
            if child is None:
                iterators.pop()
                path.pop()
                continue
            if child in seen:
                continue
            # A state known dead is searched again (not skipped), so that whether the limit is
            # reached, and so the answer, depends on ``state`` alone, never on earlier questions.
            if known.get(child) or relaxed_won(child):
                for alive in path:
                    known[alive] = True
                return False
            seen.add(child)
            if len(seen) > self.limit or (len(seen) & 1023 == 0 and time_is_up()):
                return False
            path.append(child)
            iterators.append(iter(relaxed_successors(child)))
        # Exhausted without a win: every state seen reaches only states seen.
        for dead in seen:
            known[dead] = False
        return True
