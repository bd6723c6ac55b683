"""Diamond Mine's search object for the solver (:class:`DiamondMineSearch`): a suit-blind key,
safe forced moves, the moves worth trying, and proofs that deals are dead: the diamonds' order
and a relaxed game (RULES.md Part A "Diamond Mine"; the proofs are on docs/games/diamond-mine.md).

Two facts of the rules carry everything here:

* **The face-up cards of a pile are one run.** A pile is some face-down cards, then its *base*
  (the lowest face-up card: the card first turned up there, or the bottom card of a group put
  into an empty pile), then cards each one rank below the card under it. Nothing goes on a
  diamond, so a face-up diamond is a base with nothing on it. A pile whose base is not a diamond
  is therefore known, rank by rank, from its base and its *end* (the rank of its top card).
* **Only diamonds have a suit that matters before the end.** Every move is decided by ranks, by
  which cards are diamonds and by which are face up. The other suits matter only for the win,
  and a position whose piles are, rank by rank, three King-to-Ace runs with every diamond home
  can always be sorted into a win with the ten empty piles (see :func:`abstract_key`).

:func:`abstract_key` uses the second fact, :class:`Relaxation` both.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable

from patience_core.api import Card, Game, GameSearch, Move, Position, Suit, time_is_up

__all__ = [
    "CARD_CODE",
    "RANK_CODE",
    "DiamondMineSearch",
    "Relaxation",
    "RelaxedState",
    "abstract_key",
    "diamond_orders_fit",
    "relaxed_fits",
    "relaxed_state",
    "relaxed_successors",
    "relaxed_won",
]

SUIT_SIZE = 13
FOUNDATION = 0
TABLEAU = tuple(range(1, 14))
#: Pile codes cached for the search key at most (the cache is then cleared).
KEY_CACHE = 200_000
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
#: Full code of every card: 1..52 face up, 65..116 face down.
CARD_CODE = {
    Card.of(rank, suit, up): rank * 4 + suit - 3 + (0 if up else DOWN)
    for rank in range(1, 14)
    for suit in range(4)
    for up in (True, False)
}

#: (piles, ends, foundation top, foundation count): ``piles`` is one ``bytes`` per pile, sorted,
#: holding the suit-blind codes of its face-down cards then of its base (``b""`` for an empty
#: pile); ``ends`` counts, for each rank 0..13, the piles with a non-diamond base whose top card
#: has that rank.
RelaxedState = tuple[tuple[bytes, ...], bytes, int, int]


def abstract_key(
    position: Position, cache: dict[int, tuple[tuple[Card, ...], bytes, bool]]
) -> Hashable:
    """The solver key: the 13 piles as bytes, sorted, plus the foundation's top rank; suit-blind
    until every diamond is home and every card face up, exact after that.

    Suit-blind: clubs, hearts and spades of one rank get one code (diamonds keep theirs). Two
    positions with the same suit-blind key have the same legal moves (every rule reads only
    ranks, diamonds and face-up flags), their results have the same key again, and they are
    winnable alike: a winning line of one, played from the other, ends with every diamond home
    and three piles that are King-to-Ace runs by rank (ten empty); with ten empty piles such runs
    are always sorted by suit, rank by rank from the Queens down (move each wrong card of that
    rank, with what lies on it, into an empty pile; then each right card onto its King's pile).
    The solver keeps one position per key and searches on from it, so a key must also never merge
    a position from which the search has to find the sorting itself: once every diamond is home
    and every card is face up (which can never be undone), the key is exact, with suits. Before
    that, a winnable position always has a winning line to some exact-key position that is
    itself winnable, and the search reaches the key of each position on it.

    :param cache: per-pile codes by ``id`` of the pile tuple (each entry keeps its tuple alive);
        the caller clears it now and then.
    """
    piles = position.piles
    foundation = piles[FOUNDATION]
    entries = []
    hidden = False
    for pile in piles[1:]:
        entry = cache.get(id(pile))
        if entry is None or entry[0] is not pile:
            down = not all(card.face_up for card in pile)
            entry = (pile, bytes([RANK_CODE[card] for card in pile]), down)
            cache[id(pile)] = entry
        hidden = hidden or entry[2]
        entries.append(entry)
    top = foundation[-1].rank if foundation else 0
    if hidden or len(foundation) < SUIT_SIZE:
        codes = sorted(entry[1] for entry in entries)
        return b"\xff".join((bytes((top,)), *codes))
    exact = sorted(bytes([CARD_CODE[card] for card in entry[0]]) for entry in entries)
    return b"\xfe".join((bytes((top,)), *exact))


# -- the relaxed game -----------------------------------------------------------------------------


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


def diamond_orders_fit(position: Position) -> bool:
    """Whether the diamonds still on the tableau can reach the foundation in sequence.

    Nothing is ever placed on a diamond and a diamond goes nowhere but the foundation, so the
    diamonds of each pile leave it top first. The foundation takes them in one cyclic sequence:
    after its top ``t``, the ranks ``t + 1, t + 2, ...`` (an Ace after a King); an empty foundation
    may start at any diamond ``d``, then ``d + 1, ...``. So with the next rank due ``n``, each
    pile's diamonds, read from the top down, must come ever later in the sequence from ``n``;
    a pile holding a later diamond above an earlier one can never be cleared. With an empty
    foundation some start ``d`` must make every pile fit (RULES.md Part A, Diamond Mine).

    :returns: ``False`` when no winning line exists (a proof); ``True`` when the diamonds' order
        allows one (which proves nothing).
    """
    foundation = position[FOUNDATION]
    if foundation:
        starts: tuple[int, ...] = (foundation[-1].rank % SUIT_SIZE + 1,)
    else:
        starts = tuple(range(1, SUIT_SIZE + 1))
    columns = []
    for t in TABLEAU:
        ranks = [card.rank for card in reversed(position[t]) if card.suit is Suit.DIAMONDS]
        if len(ranks) > 1:
            columns.append(ranks)
    for start in starts:
        if all(
            all(
                (upper - start) % SUIT_SIZE < (lower - start) % SUIT_SIZE
                for upper, lower in itertools.pairwise(ranks)
            )
            for ranks in columns
        ):
            return True
    return False


class DiamondMineSearch(GameSearch):
    """Diamond Mine's search object (RULES.md Part A "Diamond Mine"; the proofs are on
    docs/games/diamond-mine.md). It keeps a cache of pile codes for the key and the relaxed
    game's table; neither changes an answer.

    :param game: a Diamond Mine game.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.key_cache: dict[int, tuple[tuple[Card, ...], bytes, bool]] = {}
        self.relaxation = Relaxation()

    def key(self, position: Position) -> Hashable:
        """The 13 piles as bytes, sorted, and the foundation's top: suit-blind (clubs, hearts
        and spades alike) until every diamond is home and every card is face up, exact after
        that (see :func:`abstract_key` for why that is sound).

        The piles are interchangeable: every rule treats the 13 piles alike, and none deals to
        them.
        """
        if len(self.key_cache) > KEY_CACHE:
            self.key_cache.clear()
        return abstract_key(position, self.key_cache)

    def forced_move(self, position: Position) -> Move | None:
        """The diamond that comes next on a started foundation, when it is a pile's top, or
        ``None``.

        Safe: a face-up diamond is always its pile's top (nothing goes on a diamond) and can only
        go to the foundation; until it does, no card leaves or joins its pile and no other
        diamond can be played. So any winning line plays it sooner or later, and playing it
        first leaves every move of that line legal (the pile's next card is only turned up
        earlier), ending in the same position. Starting an empty foundation is a choice, never
        forced.
        """
        foundation = position[FOUNDATION]
        if not foundation:
            return None
        due = foundation[-1].rank % SUIT_SIZE + 1
        for source in TABLEAU:
            pile = position[source]
            if pile and pile[-1].suit is Suit.DIAMONDS and pile[-1].rank == due:
                return Move.transfer(source, FOUNDATION)
        return None

    def is_dead(self, position: Position) -> bool:
        """Dead when the diamonds cannot reach the foundation in sequence (see
        :func:`diamond_orders_fit`), or when the relaxed game (see
        :class:`Relaxation`) proves that no line wins."""
        if not diamond_orders_fit(position):
            return True
        state = relaxed_state(position)
        return state is not None and self.relaxation.dead(state)

    def moves_to_try(self, position: Position) -> list[Move]:
        """:meth:`order_moves` of the legal moves, less those whose result has the key of
        ``position`` or of a move kept: a group into a second empty pile (the same as into the
        first), or a whole pile with no face-down card into an empty pile (the same piles)."""
        moves = []
        empty_targets: set[tuple[int, int]] = set()
        for move in self.game.legal_moves(position):
            assert move.target is not None
            if move.target != FOUNDATION and not position[move.target]:
                if move.count == len(position[move.source]):
                    continue
                if (move.source, move.count) in empty_targets:
                    continue
                empty_targets.add((move.source, move.count))
            moves.append(move)
        return self.order_moves(position, moves)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Best first: to the foundation; groups joining a card of their own suit; groups whose
        move turns a face-down card or empties a pile; other moves onto cards; moves into an
        empty pile last. Within a class, longer groups first. Order only: every move is kept."""
        return sorted(moves, key=lambda move: self._move_class(position, move))

    def _move_class(self, position: Position, move: Move) -> tuple[int, int]:
        assert move.target is not None
        if move.target == FOUNDATION:
            return (0, 0)
        pile = position[move.source]
        bottom = pile[-move.count]
        below = pile[-move.count - 1] if len(pile) > move.count else None
        onto = position.top(move.target)
        if onto is not None and onto.suit == bottom.suit:
            if below is not None and below.face_up and below.suit == bottom.suit:
                return (4, -move.count)  # from one card of its suit to another
            return (1, -move.count)
        if below is None or not below.face_up:
            return (2 if onto is not None else 3, -move.count)
        if below.suit == bottom.suit:
            return (6, -move.count)  # splits a same-suit run
        return (4 if onto is not None else 5, -move.count)
