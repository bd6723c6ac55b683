"""Expected final scores: how far each move gets when nothing is won (honest hints and player).

Layer 4, over :mod:`patience_core.solve`. When no sampled arrangement of the unseen cards is won
after any move, a share of wins says nothing; a player still wants the move that gets furthest.
:func:`expected_scores` plays each move out greedily in sampled arrangements (the search
object's forced move, else the move that gets furthest, :func:`playout_end`, never back to a
position of the playout) and averages :meth:`Game.score` where each playout ends. The
arrangements come from the visible position only (:func:`~patience_core.solve.visible_seed`),
as for the shares, so two positions that look the same get the same figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence

from patience_core.engine import GRand
from patience_core.games import Game, GameSearch
from patience_core.model import Move, PileKind, Position
from patience_core.solve._honest import has_hidden, sample_hidden, visible_seed, visible_view

__all__ = [
    "PLAYOUT_MIN_STEPS",
    "PLAYOUT_NODES",
    "expected_scores",
    "playout_end",
    "playout_score",
    "progress",
]

#: Moves played in all by the playouts of one ranking, shared out over arrangements and moves.
PLAYOUT_NODES = 4_000
#: The fewest moves one playout gets (fewer arrangements, not shorter playouts, when there
#: are many legal moves).
PLAYOUT_MIN_STEPS = 25


def playout_score(search: GameSearch, position: Position, steps: int) -> int:
    """:meth:`Game.score` where a greedy playout of at most ``steps`` moves from ``position``
    ends (:func:`playout_end`)."""
    return search.game.score(playout_end(search, position, steps))


def progress(game: Game, position: Position) -> tuple[int, int, int]:
    """How far ``position`` has got, by what every patience counts as progress, most telling
    first: the score, fewer face-down cards outside the stock (a card turned up; a card dealt
    from the stock is not progress by itself), more empty tableau piles and free cells."""
    down = empty = 0
    for spec, pile in zip(game.piles, position.piles, strict=True):
        if spec.kind is PileKind.STOCK:
            continue
        if not pile and spec.kind in _ROOM:
            empty += 1
        down += sum(1 for card in pile if not card.face_up)
    return game.score(position), -down, empty


_ROOM = (PileKind.TABLEAU, PileKind.FREE_CELL)


def playout_end(search: GameSearch, position: Position, steps: int) -> Position:
    """The position where a greedy playout of at most ``steps`` moves from ``position`` ends:
    at each move the search object's forced move, else the move whose result has got furthest
    (:func:`progress`; ties in the order of :meth:`~GameSearch.order_moves`), among those whose
    result has a key not met in this playout (so it never goes round in circles). It stops
    when the game is won, lost, or every move comes back. (A move that makes no progress is
    taken only when none does: the playout builds up and turns cards before it deals, where
    the move order alone moved runs back and forth until every move came back.)"""
    game = search.game
    seen: set[Hashable] = {search.key(position)}
    for _ in range(steps):
        if game.is_won(position):
            break
        forced = search.forced_move(position)
        if forced is not None:
            child = search.play(position, forced)
            key = search.key(child)
            if key not in seen:
                seen.add(key)
                position = child
                continue
        legal = game.legal_moves(position)
        if not legal:
            break
        children = [search.play(position, move) for move in search.order_moves(position, legal)]
        ranked = sorted(
            range(len(children)), key=lambda i: (_negated(progress(game, children[i])), i)
        )
        for index in ranked:
            key = search.key(children[index])
            if key not in seen:
                seen.add(key)
                position = children[index]
                break
        else:
            break
    return position


def _negated(values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-value for value in values)


def expected_scores(
    search: GameSearch,
    position: Position,
    moves: Sequence[Move],
    arrangements: int,
    nodes: int = PLAYOUT_NODES,
    deadline: float = float("inf"),
    cancel: Callable[[], bool] | None = None,
    wins: dict[Move, int] | None = None,
    min_steps: int = PLAYOUT_MIN_STEPS,
) -> tuple[dict[Move, float], int]:
    """The mean final score of a greedy playout (:func:`playout_score`) after each of
    ``moves``, over sampled arrangements of the unseen cards (one, the position itself, when
    nothing is face down).

    :param arrangements: arrangements at most; fewer when ``nodes`` does not give every
        playout ``min_steps`` moves (at least one).
    :param nodes: moves played in all, at most (the answer depends only on it, not on the
        machine, unless ``deadline`` comes first).
    :param deadline: a :func:`time.perf_counter` time; an arrangement not finished by then is
        not counted (nor are later ones).
    :param cancel: asked before each arrangement; True stops like the deadline.
    :param wins: when given, filled with the arrangements counted in which each move's playout
        ended won (a win found: the arrangement is won after the move).
    :param min_steps: the fewest moves one playout gets (default :data:`PLAYOUT_MIN_STEPS`).
    :returns: ``({move: mean score}, arrangements counted)``; the means are 0.0 when none was.
    """
    if not moves:
        return {}, 0
    hidden = has_hidden(position)
    count = arrangements if hidden else 1
    count = max(1, min(count, nodes // (len(moves) * min_steps)))
    steps = max(min_steps, nodes // (count * len(moves)))
    game = search.game
    view = visible_view(position)
    # The shares' seed: the arrangements played out are the ones the shares judged, so a
    # playout cannot win an arrangement the search proved lost.
    rand = GRand(visible_seed(position))
    totals = dict.fromkeys(moves, 0)
    done = 0
    for _ in range(count):
        if time.perf_counter() >= deadline or (cancel is not None and cancel()):
            break
        world = sample_hidden(view, rand) if hidden else position
        ends = {}
        for move in moves:
            if time.perf_counter() >= deadline:
                break
            ends[move] = playout_end(search, game.play(world, move), steps)
        if len(ends) < len(moves):
            break
        done += 1
        for move, end in ends.items():
            totals[move] += game.score(end)
            if wins is not None and game.is_won(end):
                wins[move] = wins.get(move, 0) + 1
    return {move: total / done if done else 0.0 for move, total in totals.items()}, done
