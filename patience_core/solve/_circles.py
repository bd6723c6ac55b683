"""No circles: a hint, and the honest player, never go back to a position seen in the game.

Layer 4, over :mod:`patience_core.solve`. The rule is about returning to the same position, so
real positions are compared themselves (:class:`Position` equality: every pile's cards, in order,
and which lie face up), never by :meth:`GameSearch.key`: a search key may merge positions that
differ (Diamond Mine's is suit-blind and sorted), and a move to a board never seen is no circle.

Banning each move that leads back is not enough: play can drift, over several moves, into a
region where every move leads back (Spiderette deal 3 once moved a two-card run back and forth
from move 36 on). So a move whose result has no move that does not lead back (a *trap*) is
ranked after the others (:func:`avoiding_circles`), and a position where every one of several
legal moves leads back is *stuck* (:func:`is_stuck`): a hint says the game cannot progress (and
what the player can do), and the honest player resigns, rather than go round.

A card brought back from a foundation can go round without any position repeating: Klondike's
honest player moved the Ace of spades from t5 to f1, back onto t5 after a deal, then to f2, each
position new by its stock or its foundation's name. So such a move counts as leading back when
the game's search object says it serves nothing (it leaves it out of
:meth:`~GameSearch.moves_to_try`: no card in play could go on it) or when its forced moves
(:meth:`~GameSearch.forced_move`) send the card straight back to a position seen: with only
stock turns between, it undoes an earlier move (:func:`leads_back`). A game whose cards never
leave its foundations is not concerned.

Free cells are interchangeable: the same cards in other free cells are the same position to a
player (Baker's Game deal 20's honest player moved cards between cells and columns for 116 moves,
every position new by which cell held which card). So positions are compared in their
:func:`circle_form`, the free cells' cards in a fixed order.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from patience_core.games import Game, GameSearch
from patience_core.model import Card, Move, PileKind, Position

__all__ = [
    "STUCK",
    "STUCK_DEAD",
    "STUCK_LOST",
    "avoiding_circles",
    "circle_form",
    "is_stuck",
    "is_trap",
    "leads_back",
    "only_way_on",
    "seen_positions",
]

#: The reason of a hint when every legal move leads back (verdict ``"stuck"``).
STUCK = (
    "every legal move leads back to a position already seen in this game: "
    "the game cannot progress from here; undo moves or start a new deal"
)
#: The reason of a hint when every legal move leads back and the position is proved dead.
STUCK_DEAD = (
    "no winning line from here (proved), and every legal move leads back to a position already "
    "seen in this game; undo moves or start a new deal"
)
#: The reason of a thoughtful hint when the only wins found go back to a position seen.
STUCK_LOST = (
    "every move that does not lead back to a position already seen in this game is proved "
    "lost: the game cannot progress from here (a win is left only by undoing moves)"
)


def circle_form(game: Game, position: Position) -> Position:
    """``position`` as the rule against circles compares it: the position itself, with the
    cards of its free cells (piles of kind :attr:`PileKind.FREE_CELL`) put in a fixed order
    when there are two or more (see the module)."""
    cells = [i for i, spec in enumerate(game.piles) if spec.kind is PileKind.FREE_CELL]
    if len(cells) < 2:
        return position
    piles = list(position.piles)
    for index, pile in zip(cells, sorted((piles[i] for i in cells), key=_cell_order), strict=True):
        piles[index] = pile
    return Position(tuple(piles))


def _cell_order(pile: tuple[Card, ...]) -> tuple[tuple[str, bool], ...]:
    return tuple((card.code, card.face_up) for card in pile)


def seen_positions(game: Game, positions: Iterable[Position]) -> set[Hashable]:
    """The positions of ``positions`` (a game's history, the current position included) in
    their :func:`circle_form`, as a set: where a hint must not lead back to
    (:func:`avoiding_circles`). Positions are compared themselves, not by the search's key
    (see the module)."""
    return {circle_form(game, position) for position in positions}


def leads_back(search: GameSearch, position: Position, move: Move, seen: set[Hashable]) -> bool:
    """Whether ``move`` (legal in ``position``) leads to a position of ``seen`` (positions in
    their :func:`circle_form`, as :func:`seen_positions` gives them), or brings a foundation's
    card back to no purpose (:func:`_brought_back`, see the module)."""
    return bool(seen) and _returns(search, position, move, search.game.play(position, move), seen)


def _returns(
    search: GameSearch, position: Position, move: Move, child: Position, seen: set[Hashable]
) -> bool:
    """:func:`leads_back` for ``move``'s result ``child``, already played."""
    return circle_form(search.game, child) in seen or _brought_back(
        search, position, move, child, seen
    )


def _from_foundation(search: GameSearch, move: Move) -> bool:
    """Whether ``move`` takes a card from a foundation to another pile."""
    return move.target is not None and search.game.piles[move.source].kind is PileKind.FOUNDATION


#: Forced moves followed at most after a card brought back from a foundation.
FORCED_CHAIN = 52


def _brought_back(
    search: GameSearch, position: Position, move: Move, child: Position, seen: set[Hashable]
) -> bool:
    """Whether ``move`` takes a foundation's top card back (to ``child``) and the search object
    leaves it out of its moves (it serves nothing there), or its forced moves from ``child``
    reach a position of ``seen``: a circle in practice, though no position repeats."""
    if not _from_foundation(search, move):
        return False
    if move not in search.moves_to_try(position):
        return True
    here = child
    for _ in range(FORCED_CHAIN):
        forced = search.forced_move(here)
        if forced is None:
            return False
        here = search.play(here, forced)
        if circle_form(search.game, here) in seen:
            return True
    return False


def only_way_on(
    search: GameSearch, position: Position, legal: Sequence[Move], seen: set[Hashable]
) -> Move | None:
    """The one move of ``legal`` that neither leads back nor is a trap (:func:`is_trap`), when
    every other leads back and one of them brings a foundation's card back to no purpose
    (Klondike's deal beside the Ace it could take down again: nothing to weigh); else
    ``None``. A game whose cards never leave its foundations always gets ``None``."""
    if not seen or not any(_from_foundation(search, move) for move in legal):
        return None
    ways = [move for move in legal if not leads_back(search, position, move, seen)]
    if len(ways) != 1 or is_trap(search, search.game.play(position, ways[0]), seen):
        return None
    return ways[0]


def is_stuck(
    search: GameSearch, position: Position, legal: Sequence[Move], seen: set[Hashable]
) -> bool:
    """Whether ``position`` has more than one legal move (``legal``) and every one leads back to
    ``seen`` (a single legal move is forced: it is played even when it leads back)."""
    return len(legal) > 1 and all(leads_back(search, position, m, seen) for m in legal)


def is_trap(search: GameSearch, child: Position, seen: set[Hashable]) -> bool:
    """Whether ``child`` (the result of a move) is neither won nor without moves, and every
    legal move of it leads back to ``seen`` or to ``child`` itself: after it the game could
    only go round. A move that turns a face-down card up makes a new position, so the answer
    does not depend on which card that is."""
    game = search.game
    if game.is_won(child):
        return False
    legal = game.legal_moves(child)
    if not legal:
        return False
    around = seen | {circle_form(game, child)}
    return all(circle_form(game, game.play(child, m)) in around for m in legal)


def avoiding_circles(
    search: GameSearch, position: Position, moves: Sequence[Move], seen: set[Hashable]
) -> list[Move]:
    """``moves`` (legal in ``position``) without those leading back to a position of ``seen``,
    in the same order except that traps (:func:`is_trap`) come last; when every move leads
    back, all of ``moves`` (a forced move, or a stuck position: :func:`is_stuck`)."""
    if not seen:
        return list(moves)
    game = search.game
    after = [(move, game.play(position, move)) for move in moves]
    kept = [
        (move, child) for move, child in after if not _returns(search, position, move, child, seen)
    ]
    if not kept:
        return list(moves)
    # Play must not drift into a region where every move leads back: a trap comes last.
    traps = {move for move, child in kept if len(kept) > 1 and is_trap(search, child, seen)}
    return [m for m, _c in kept if m not in traps] + [m for m, _c in kept if m in traps]
