"""A generic solver for every game: depth-first search with a transposition table.

Layer 4. It works through the :class:`~patience_core.games.Game` interface only, so third-party
games are solved too. A game makes the search faster by overriding, all optional:

* :meth:`Game.solver_key`: a compact key, with interchangeable piles in canonical order;
* :meth:`Game.forced_move`: safe (dominance) moves taken without branching;
* :meth:`Game.order_moves`: the order moves are tried in;
* :meth:`Game.is_dead`: cheap proofs that a position cannot be won.

Verdicts (RULES.md Part A, "Won / lost / dead"): ``won`` with the full move list, ``dead`` only
when the whole search space was explored without a win (a proof), ``unknown`` when the budget ran
out first.

The search is **thoughtful**: it sees every card, as research solvers assume. Honest analysis
(only what a player sees) is built on it in :mod:`patience_core.honest`.

Memory: the transposition table keeps at most ``Budget.table_size`` keys (default 2,000,000,
about 300-600 MB for the largest keys); when it is full it is cleared (the positions on the
current search path stay protected), which costs time, never correctness.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Hashable, Sequence

import attrs

from patience_core.errors import PatienceError
from patience_core.games import Game
from patience_core.model import Move, Position

__all__ = [
    "FIRST_SHARE",
    "Budget",
    "Solution",
    "Verdict",
    "solve",
]


class Verdict(enum.Enum):
    """The outcome of a search."""

    #: A winning line was found (``Solution.moves``).
    WON = "won"
    #: Proved: no line wins.
    DEAD = "dead"
    #: The budget ran out before either was established.
    UNKNOWN = "unknown"


@attrs.frozen
class Budget:
    """Limits of one search.

    :param nodes: positions generated (moves played) at most.
    :param seconds: CPU seconds of this process (:func:`time.process_time`) at most; CPU time,
        not wall-clock time, so that a verdict does not depend on what else the machine runs.
    :param table_size: keys the transposition table holds at most before it is cleared.
    :param wall_seconds: wall-clock seconds at most (:func:`time.perf_counter`), a cap for
        answers a person waits for (hints); unlimited by default.
    """

    nodes: int = 5_000_000
    seconds: float = 10.0
    table_size: int = 2_000_000
    wall_seconds: float = math.inf


@attrs.frozen
class Solution:
    """The result of :func:`solve`.

    :param verdict: won, dead or unknown.
    :param moves: for ``won``, every move from the start position to the win (forced moves
        included), replayable with :meth:`Game.apply`; empty otherwise.
    :param nodes: positions generated.
    :param seconds: CPU seconds (:func:`time.process_time`) spent.
    """

    verdict: Verdict
    moves: tuple[Move, ...]
    nodes: int
    seconds: float


#: Share of the budget the depth-first search gets before a game's own :meth:`Game.find_win`.
FIRST_SHARE = 0.1


def solve(game: Game, position: Position, budget: Budget | None = None) -> Solution:
    """Search for a winning line from ``position`` with full information (thoughtful).

    A depth-first search: from each position it tries :meth:`Game.solver_moves` (by default every
    legal move, in :meth:`Game.order_moves` order) and skips any result whose
    :meth:`Game.solver_key` is in its table; after every move it plays the game's
    :meth:`Game.forced_move` chain without branching, and it drops positions
    :meth:`Game.is_dead` proves lost. ``dead`` is returned only when every reachable position has
    been searched, so it is a proof (given sound hooks).

    A game that overrides :meth:`Game.find_win` (its own search for wins, which may prune unsafely)
    gets three stages within the same budget: the depth-first search with a tenth of it
    (``FIRST_SHARE``: quick wins and quick proofs of ``dead``), then ``find_win`` with what is
    left, whose line counts only if it replays with :meth:`Game.apply` to a won position, then
    the depth-first search again with whatever remains. Only the depth-first search ever says
    ``dead``.

    :param game: the game (its rules, and its optional search helpers).
    :param position: where to start; it is not modified.
    :param budget: node, time and memory limits (default :class:`Budget`).
    :returns: a :class:`Solution`; ``dead`` only when proved.
    """
    budget = budget or Budget()
    if type(game).find_win is Game.find_win:
        return _depth_first(game, position, budget)
    started = time.process_time()
    wall_end = time.perf_counter() + budget.wall_seconds

    def elapsed() -> float:
        return time.process_time() - started

    def wall_left() -> float:
        return wall_end - time.perf_counter()

    first = _depth_first(
        game,
        position,
        attrs.evolve(
            budget,
            nodes=max(1, int(budget.nodes * FIRST_SHARE)),
            seconds=budget.seconds * FIRST_SHARE,
            wall_seconds=budget.wall_seconds * FIRST_SHARE,
        ),
    )
    if first.verdict is not Verdict.UNKNOWN:
        return attrs.evolve(first, seconds=elapsed())
    nodes = first.nodes
    if nodes < budget.nodes and elapsed() < budget.seconds and wall_left() > 0:
        seconds = min(budget.seconds - elapsed(), wall_left())
        line, spent = game.find_win(position, budget.nodes - nodes, seconds)
        nodes += spent
        if line is not None and _wins(game, position, line):
            return Solution(Verdict.WON, tuple(line), nodes, elapsed())
    if nodes >= budget.nodes or elapsed() >= budget.seconds or wall_left() <= 0:
        return Solution(Verdict.UNKNOWN, (), nodes, elapsed())
    rest = _depth_first(
        game,
        position,
        attrs.evolve(
            budget,
            nodes=budget.nodes - nodes,
            seconds=budget.seconds - elapsed(),
            wall_seconds=wall_left(),
        ),
    )
    return Solution(rest.verdict, rest.moves, nodes + rest.nodes, elapsed())


def _wins(game: Game, position: Position, line: Sequence[Move]) -> bool:
    """Whether ``line`` is legal move by move from ``position`` and ends won."""
    for move in line:
        try:
            position = game.apply(position, move)
        except PatienceError:
            return False
    return game.is_won(position)


def _depth_first(game: Game, position: Position, budget: Budget) -> Solution:
    """The depth-first search of :func:`solve` (see there), within ``budget``."""
    started = time.process_time()
    deadline = started + budget.seconds
    wall_deadline = time.perf_counter() + budget.wall_seconds
    nodes = 0
    key = game.solver_key
    forced = game.forced_move
    play = game.play
    is_won = game.is_won
    moves_of = game.solver_moves
    table_size = max(budget.table_size, 1)
    max_nodes = budget.nodes

    has_forced = type(game).forced_move is not Game.forced_move
    is_dead = game.is_dead if type(game).is_dead is not Game.is_dead else None

    def expand(pos: Position) -> tuple[Position, list[Move]]:
        nonlocal nodes
        steps: list[Move] = []
        while not is_won(pos):
            move = forced(pos)
            if move is None:
                break
            pos = play(pos, move)
            nodes += 1
            steps.append(move)
        return pos, steps

    def result(verdict: Verdict, moves: Sequence[Move] = ()) -> Solution:
        return Solution(verdict, tuple(moves), nodes, time.process_time() - started)

    steps: list[Move] = []
    root = position
    if has_forced:
        root, steps = expand(position)
    if is_won(root):
        return result(Verdict.WON, steps)
    if game.is_dead(root):
        return result(Verdict.DEAD)
    seen: set[Hashable] = {key(root)}
    # The search path: positions, their move iterators, and the moves that led to each (the move
    # tried, then its forced moves); the root's entry holds its own forced moves.
    positions = [root]
    iterators = [iter(moves_of(root))]
    lines = [steps]
    next_check = min(nodes + 1024, max_nodes)
    while iterators:
        move = next(iterators[-1], None)
        if move is None:
            positions.pop()
            iterators.pop()
            lines.pop()
            continue
        child = play(positions[-1], move)
        nodes += 1
        line = [move]
        if has_forced:
            child, forced_steps = expand(child)
            line += forced_steps
        if is_won(child):
            return result(Verdict.WON, [m for steps in lines for m in steps] + line)
        if nodes >= next_check:
            # The node budget is exact; the clock is read every 1024 nodes.
            next_check = min(nodes + 1024, max_nodes)
            if (
                nodes >= max_nodes
                or time.process_time() >= deadline
                or time.perf_counter() >= wall_deadline
            ):
                return result(Verdict.UNKNOWN)
        child_key = key(child)
        if child_key in seen:
            continue
        if len(seen) >= table_size:
            # Full: forget everything but the search path (which guards against cycles).
            seen.clear()
            seen.update(key(p) for p in positions)
        seen.add(child_key)
        if is_dead is not None and is_dead(child):
            continue
        positions.append(child)
        iterators.append(iter(moves_of(child)))
        lines.append(line)
    return result(Verdict.DEAD)
