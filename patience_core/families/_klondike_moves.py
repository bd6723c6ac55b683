"""The klondike family's search moves, made fast: card tables in place of the build and
empty-column policies, and the search's moves generated without the rules' list.

Layer 3½ (above :mod:`patience_core.games`). :class:`KlondikeTables` answers "does this card go on
that one" by a set lookup (the policy asked once per pair of cards when the search is made), and
:func:`ranked_moves` gives :meth:`KlondikeSearch.moves_to_try
<patience_core.families.KlondikeSearch.moves_to_try>` its moves: the legal moves
(:meth:`KlondikeFamily.legal_moves <patience_core.families.KlondikeFamily.legal_moves>`, in its
order) less those the search leaves out, best first. The hint and playout searches spend most of
their time there (a node cost about 70 µs with the rules' list and the policies' calls).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from patience_core.model import Card, Move, Position, Rank, Suit

if TYPE_CHECKING:
    from patience_core.families._klondike import KlondikeFamily

__all__ = ["KlondikeTables", "ranked_moves"]

_DEAL = Move.deal(0)


class KlondikeTables:
    """The build and empty-column policies and the foundations' rule of ``game`` as tables
    over the interned cards (both faces; RULES.md Part A, the family's declared policies).

    :param game: a :class:`~patience_core.families.KlondikeFamily` game.
    """

    def __init__(self, game: KlondikeFamily) -> None:
        cards = [Card.of(rank, suit, up) for suit in Suit for rank in Rank for up in (True, False)]
        #: The cards each card goes on in the tableau (the build policy).
        self.onto: dict[Card, frozenset[Card]] = {
            card: frozenset(other for other in cards if game.fits(card, other)) for card in cards
        }
        #: The cards that go on each card in the tableau (the build policy read backwards).
        self.goers: dict[Card, tuple[Card, ...]] = {
            card: tuple(other for other in cards if card in self.onto[other]) for card in cards
        }
        #: The cards an empty column takes (the empty-column policy).
        self.empty_takes = frozenset(card for card in cards if game.accepts(card))
        #: The card that goes on a foundation after each card (same suit, one rank up).
        self.after: dict[Card, Card] = {
            card: Card.of(card.rank + 1, card.suit) for card in cards if card.rank < Rank.KING
        }
        #: The face-up Aces.
        self.aces = tuple(Card.of(Rank.ACE, suit) for suit in Suit)
        #: A byte per card for the search's key: rank and suit, plus 128 when face down.
        self.code: dict[Card, int] = {
            card: (card.rank - 1) * 4 + card.suit + (0 if card.face_up else 128) for card in cards
        }

    def run_length(self, pile: tuple[Card, ...]) -> int:
        """The face-up cards at the top of ``pile`` built by the build policy (as
        :meth:`KlondikeFamily.run_length`)."""
        if not pile or not pile[-1].face_up:
            return 0
        onto = self.onto
        length = 1
        while length < len(pile) and pile[-length - 1] in onto[pile[-length]]:
            length += 1
        return length

    def homes(self, piles: tuple[tuple[Card, ...], ...], foundations: tuple[int, ...]
              ) -> dict[Card, int]:  # fmt: skip
        """The face-up cards the foundations take now, each with the first foundation that
        takes it (an Ace: the first empty foundation)."""
        found: dict[Card, int] = {}
        empty = None
        for f in reversed(foundations):
            pile = piles[f]
            if pile:
                card = self.after.get(pile[-1])
                if card is not None:
                    found[card] = f
            else:
                empty = f
        if empty is not None:
            found.update(dict.fromkeys(self.aces, empty))
        return found


def ranked_moves(game: KlondikeFamily, tables: KlondikeTables, position: Position) -> list[Move]:
    """The legal moves of ``position`` in the order of :meth:`KlondikeFamily.legal_moves`, less
    those :meth:`KlondikeSearch.moves_to_try` leaves out, sorted by its ranks (stable): to the
    foundations 0, turning a card or emptying a column 1, the waste's card 2, other runs 3,
    the deal 5, foundation cards coming back 6 (see that method for what is left out)."""
    piles = position.piles
    foundations, tableau = game.foundations, game.tableau
    if sum(len(piles[f]) for f in foundations) == game.max_score:
        return []  # won: no legal move
    onto, empty_takes, after, goers = tables.onto, tables.empty_takes, tables.after, tables.goers
    waste = game.wastes[game.current_pass(position)]
    runs = {t: piles[t][len(piles[t]) - tables.run_length(piles[t]) :] for t in tableau}
    free_foundation = next((f for f in foundations if not piles[f]), None)
    homes = tables.homes(piles, foundations)
    ranked: list[list[Move]] = [[] for _ in range(7)]  # by rank, each in the rules' order
    seen: set[tuple[int, int, int]] = set()

    def to_foundations(source: int, card: Card) -> None:
        if card.rank == Rank.ACE:
            if free_foundation is not None and (source, 1, 0) not in seen:
                seen.add((source, 1, 0))  # every empty foundation is alike: the first only
                ranked[0].append(Move.transfer(source, free_foundation))
            return
        for f in foundations:
            pile = piles[f]
            if pile and after.get(pile[-1]) is card:
                ranked[0].append(Move.transfer(source, f))

    where: dict[Card, list[int]] | None = None  # the columns of each run card

    def takes_any(card: Card, besides: tuple[int, ...]) -> bool:
        # Whether some card in play could go on ``card``: the waste's top card, a foundation's
        # top card (when they come back), or a card of a column's run, ``besides`` left out.
        if piles[waste] and card in onto[piles[waste][-1]]:
            return True
        if game.foundation_to_tableau and any(
            piles[f] and card in onto[piles[f][-1]] for f in foundations
        ):
            return True
        nonlocal where
        if where is None:  # made once, on the first question
            where = {}
            for t in tableau:
                for run_card in runs[t]:
                    where.setdefault(run_card, []).append(t)
        return any(t not in besides for goer in goers[card] for t in where.get(goer, ()))

    top = piles[waste][-1] if piles[waste] else None
    if top is not None and top.face_up:
        to_foundations(waste, top)
    if top is not None:
        for t in tableau:
            dest = piles[t]
            if dest[-1] in onto[top] if dest else top in empty_takes:
                if not dest:
                    if (waste, 1, 1) in seen:
                        continue
                    seen.add((waste, 1, 1))
                ranked[2].append(Move.transfer(waste, t))
    for t in tableau:
        pile = piles[t]
        if pile and pile[-1].face_up:
            to_foundations(t, pile[-1])
    # A built-in build goes down by one rank: only the run's card one rank below a column's
    # top card can join it, and its place in the run follows from the ranks.
    by_rank = game.lift is not None
    for source in tableau:
        pile, run = piles[source], runs[source]
        if not run:
            continue
        for target in tableau:
            if target == source:
                continue
            dest = piles[target]
            if dest and by_rank:
                count = dest[-1].rank - run[-1].rank
                counts: range | tuple[int, ...] = (count,) if 0 < count <= len(run) else ()
            else:
                counts = range(len(run), 0, -1)
            for count in counts:
                bottom = pile[-count]
                if dest:
                    if dest[-1] not in onto[bottom]:
                        continue
                elif bottom not in empty_takes:
                    continue
                rank = _run_rank(homes, piles, source, target, count, seen, takes_any)
                if rank is not None:
                    ranked[rank].append(Move.transfer(source, target, count))
    if game.foundation_to_tableau:
        for f in foundations:
            if not piles[f]:
                continue
            card = piles[f][-1]
            for t in tableau:
                dest = piles[t]
                if not (dest[-1] in onto[card] if dest else card in empty_takes):
                    continue
                if not dest:
                    if (f, 1, 1) in seen:
                        continue
                    seen.add((f, 1, 1))
                if takes_any(card, (t,)):
                    ranked[6].append(Move.transfer(f, t))
    if game.can_deal(position):
        ranked[5].append(_DEAL)
    return [move for moves in ranked for move in moves]


def _run_rank(
    homes: dict[Card, int],
    piles: tuple[tuple[Card, ...], ...],
    source: int,
    target: int,
    count: int,
    seen: set[tuple[int, int, int]],
    takes_any: Callable[[Card, tuple[int, ...]], bool],
) -> int | None:
    """The rank of a run move between columns, or ``None`` when the search leaves it out: a
    second empty column for the same run, a whole column into an empty one, or part of a run
    whose uncovered (face-up) card neither goes to a foundation nor takes a card in play."""
    pile = piles[source]
    if not piles[target]:
        if (source, count, 1) in seen:
            return None
        seen.add((source, count, 1))
        if count == len(pile):
            return None
    if count == len(pile) or not pile[-count - 1].face_up:
        return 1
    exposed = pile[-count - 1]
    if exposed not in homes and not takes_any(exposed, (source, target)):
        return None
    return 3
