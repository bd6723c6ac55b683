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

:func:`abstract_key` uses the second fact, :class:`Relaxation` both (the relaxed game is in
:mod:`patience_diamond_mine.relaxed`).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable

from patience_core.api import Card, Game, GameSearch, Move, Position, Suit
from patience_diamond_mine.relaxed import (
    DOWN,
    FOUNDATION,
    RANK_CODE,
    SUIT_SIZE,
    Relaxation,
    RelaxedState,
    relaxed_fits,
    relaxed_state,
    relaxed_successors,
    relaxed_won,
)

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

TABLEAU = tuple(range(1, 14))
#: Pile codes cached for the search key at most (the cache is then cleared). Each entry keeps
#: its pile alive (about 200 bytes in all): 20,000 hold about 4 MB; the cache lives as long as
#: the search object, over every search of a hint, and at 200,000 it was most of a hint's
#: memory (16 of 17.5 MB traced, Diamond Mine deal 1; a hint's searches hardly share piles).
KEY_CACHE = 20_000
#: Full code of every card: 1..52 face up, 65..116 face down.
CARD_CODE = {
    Card.of(rank, suit, up): rank * 4 + suit - 3 + (0 if up else DOWN)
    for rank in range(1, 14)
    for suit in range(4)
    for up in (True, False)
}


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
