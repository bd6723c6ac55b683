"""A generic solver for every game: depth-first search with a transposition table.

Layer 4. It works through the :class:`~patience_core.games.Game` rules only, so third-party
games are solved too. A game makes the search faster with its search object (a
:class:`~patience_core.games.GameSearch` subclass registered beside it), all optional:

* :meth:`GameSearch.key`: a compact key, with interchangeable piles in canonical order;
* :meth:`GameSearch.forced_move`: safe (dominance) moves taken without branching;
* :meth:`GameSearch.order_moves` and :meth:`GameSearch.moves_to_try`: the moves tried, in order;
* :meth:`GameSearch.is_dead`: cheap proofs that a position cannot be won;
* :meth:`GameSearch.search_space`: the rules in a compact form; :meth:`GameSearch.find_win`: a
  search for wins of the game's own.

Verdicts (RULES.md Part A, "Won / lost / dead"): ``won`` with the full move list, ``dead`` only
when the whole search space was explored without a win (a proof), ``unknown`` when the budget ran
out first.

The search is **thoughtful**: it sees every card, as research solvers assume. Honest analysis
(only what a player sees) is built on it in :mod:`patience_core.solve`. The depth-first search
itself is in :mod:`patience_core.solve._depthfirst`.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Sequence

import attrs

from patience_core.engine import search_limits
from patience_core.errors import PatienceError, PluginError
from patience_core.games import AnySpace, Game, GameSearch, PositionSpace, SearchSpace, is_default
from patience_core.model import Move, Position
from patience_core.solve._depthfirst import Budget, DepthFirst, Solution, Verdict

__all__ = [
    "FIRST_MIN_NODES",
    "FIRST_SHARE",
    "solve",
    "space_for",
]


#: Share of the budget the depth-first search gets before a game's own :meth:`GameSearch.find_win`.
FIRST_SHARE = 0.1
#: Positions the depth-first search gets first at least (the whole budget when it is smaller):
#: the searches of an honest hint get a few hundred each, and a tenth of that is too little for
#: the quick wins the depth-first search finds (Bristol: about 100 positions where ``find_win``
#: needs thousands).
FIRST_MIN_NODES = 1_000


def solve(
    game: Game,
    position: Position,
    budget: Budget | None = None,
    search: GameSearch | None = None,
) -> Solution:
    """Search for a winning line from ``position`` with full information (thoughtful).

    A depth-first search: from each position it tries :meth:`GameSearch.moves_to_try` (by
    default every legal move, in :meth:`GameSearch.order_moves` order) and skips any result whose
    :meth:`GameSearch.key` is in its table; after every move it plays the
    :meth:`GameSearch.forced_move` chain without branching, and it drops positions
    :meth:`GameSearch.is_dead` proves lost (or it searches the game's own
    :meth:`GameSearch.search_space`). ``dead`` is returned only when every reachable position
    has been searched, so it is a proof (given a sound search object).

    A search object that overrides :meth:`GameSearch.find_win` (its own search for wins, which may
    prune unsafely)
    gets three stages within the same budget: the depth-first search with a tenth of it
    (``FIRST_SHARE``, but at least ``FIRST_MIN_NODES`` positions: quick wins and quick proofs
    of ``dead``), then ``find_win`` with what is
    left, whose line counts only if it replays with :meth:`Game.apply` to a won position (and
    loses any loop it makes, :func:`_replayed`), then
    the depth-first search again with whatever remains. Only the depth-first search ever says
    ``dead``.

    While it runs, :func:`patience_core.api.time_is_up` tells the search object when the budget's
    CPU or wall-clock seconds are spent, so that long work of their own can stop in time.

    :param game: the game (its rules).
    :param position: where to start; it is not modified.
    :param budget: node, time and memory limits (default :class:`Budget`).
    :param search: the game's search object (``host.search(game)``); ``None`` for the generic
        ``GameSearch(game)``, which needs nothing but the rules.
    :returns: a :class:`Solution`; ``dead`` only when proved.
    """
    # Millions of small tuples live in the search's table and the cyclic garbage collector
    # would only walk them again and again (about 5% of the time); what cycles a search makes
    # are collected once the collector is back on.
    collecting = gc.isenabled()
    gc.disable()
    budget = budget or Budget()
    if search is None:
        search = GameSearch(game)
    try:
        with search_limits(budget.seconds, budget.wall_seconds):
            return _solve(game, search, position, budget)
    finally:
        if collecting:
            gc.enable()


def _solve(game: Game, search: GameSearch, position: Position, budget: Budget) -> Solution:
    """:func:`solve` with the collector off."""
    if is_default(search, "find_win"):
        return _depth_first(search, position, budget)
    started = time.process_time()
    wall_started = time.perf_counter()
    wall_end = wall_started + budget.wall_seconds

    def elapsed() -> float:
        return time.process_time() - started

    def wall_left() -> float:
        return wall_end - time.perf_counter()

    depth_first = DepthFirst(space_for(search, position))
    first = depth_first.run(
        attrs.evolve(
            budget,
            nodes=max(1, int(budget.nodes * FIRST_SHARE), min(budget.nodes, FIRST_MIN_NODES)),
            seconds=budget.seconds * FIRST_SHARE,
            wall_seconds=budget.wall_seconds * FIRST_SHARE,
        ),
    )
    if first.verdict is not Verdict.UNKNOWN:
        return _checked(game, position, attrs.evolve(first, seconds=elapsed()))
    nodes = first.nodes
    if nodes < budget.nodes and elapsed() < budget.seconds and wall_left() > 0:
        fits = _cpu_for_wall(wall_left(), elapsed(), time.perf_counter() - wall_started)
        seconds = min(budget.seconds - elapsed(), fits)
        line, spent = search.find_win(position, budget.nodes - nodes, seconds)
        nodes += spent
        won = None if line is None else _replayed(game, position, line, search)
        if won is not None:
            return Solution(Verdict.WON, won, nodes, elapsed())
    if nodes >= budget.nodes or elapsed() >= budget.seconds or wall_left() <= 0:
        return Solution(Verdict.UNKNOWN, (), nodes, elapsed())
    rest = depth_first.run(
        attrs.evolve(
            budget,
            nodes=budget.nodes - nodes,
            seconds=budget.seconds - elapsed(),
            wall_seconds=wall_left(),
        ),
    )
    return _checked(
        game,
        position,
        Solution(rest.verdict, rest.moves, nodes - first.nodes + rest.nodes, elapsed()),
    )


def _cpu_for_wall(wall: float, cpu_used: float, wall_used: float) -> float:
    """CPU seconds that fit in ``wall`` wall-clock seconds at the CPU share this search has had
    so far (``cpu_used`` of ``wall_used`` seconds): :meth:`GameSearch.find_win` is given CPU
    seconds, which run slower than the clock when other processes share the cores, so a
    wall-clock cap (a hint's) is turned into CPU seconds at that rate. ``wall`` itself when the
    share is not measurable yet (under 20 ms) or not below one; never under a tenth of ``wall``.
    """
    if math.isinf(wall) or wall_used < 0.02:
        return wall
    share = min(1.0, max(0.1, cpu_used / wall_used))
    return wall * share


def _replayed(
    game: Game, position: Position, line: Sequence[Move], search: GameSearch | None = None
) -> tuple[Move, ...] | None:
    """``line`` replayed move by move from ``position`` by the rules, without its loops: where
    a position comes back, the moves between its two visits are dropped (a win finder's line
    may, say, move a card and later move it straight back). Following the line then never meets
    a position twice.

    Each move must be legal: among the search object's moves (:meth:`GameSearch.moves_to_try`,
    legal moves by its contract, which the conformance kit checks; a game's fast move
    generation, Baker's Game's about 8 times faster than its rules' list) or, failing that,
    among :meth:`Game.legal_moves` (a win finder may play a move the search leaves out, a card
    into the second empty free cell). Each is played with :meth:`Game.play`, the rules' own.

    :param search: the game's search object; ``None`` (or one that keeps the default
        ``moves_to_try``) checks every move against :meth:`Game.legal_moves` alone.
    :returns: the loop-free line, or ``None`` when ``line`` is not legal move by move or does
        not end won.
    """
    known = None if search is None or is_default(search, "moves_to_try") else search.moves_to_try
    legal, play = game.legal_moves, game.play
    out: list[Move] = []
    # The positions along ``out`` (after 0, 1, ... moves) and where each one is. A position
    # hashes once (its hash is kept) in a few microseconds, less than a game's key of a
    # position the rules played.
    path = [position]
    where: dict[Position, int] = {position: 0}
    for move in line:
        if (known is None or move not in known(position)) and move not in legal(position):
            return None
        try:
            position = play(position, move)
        except PatienceError:
            return None
        earlier = where.get(position)
        if earlier is None:
            out.append(move)
            path.append(position)
            where[position] = len(out)
        else:
            for dropped in path[earlier + 1 :]:
                del where[dropped]
            del path[earlier + 1 :]
            del out[earlier:]
    return tuple(out) if game.is_won(position) else None


def space_for(search: GameSearch, position: Position) -> AnySpace:
    """The space the solver searches from ``position``: the search object's own
    (:meth:`GameSearch.search_space`), or the default :class:`PositionSpace` over it.

    :param search: the game's search object (``GameSearch(game)`` for the rules alone).
    :raises PluginError: when ``search_space`` returns something that is not a search space.
    """
    space = search.search_space(position)
    if space is None:
        return PositionSpace(search, position)
    if not isinstance(space, SearchSpace):
        raise PluginError(
            f"the {search.game.name} plugin is broken: its search_space returned "
            f"{type(space).__name__}, not a search space"
        )
    return space


def _depth_first(search: GameSearch, position: Position, budget: Budget) -> Solution:
    """The depth-first search of :func:`solve` (see there), within ``budget``."""
    solution = DepthFirst(space_for(search, position)).run(budget)
    return _checked(search.game, position, solution)


def _checked(game: Game, position: Position, solution: Solution) -> Solution:
    """``solution`` with a ``won`` line played out by the rules (:meth:`Game.play`), or
    ``unknown`` when it does not end in a won position: a search space that disagrees with its
    game about what is won, e.g. on an odd position read from a file, must not make the solver
    claim a win.

    The line is the depth-first search's, so it is trusted as far as the space is: each move is
    the step to a child the search space offered, legal by the space's contract (which
    :func:`patience_core.testing.check_search_space` checks), and its positions are distinct
    (the search path's keys are), so it has no loop to drop. A win finder's line, made outside
    the space, is checked move by move instead (:func:`_replayed`): checking each move of the
    depth-first search's lines too made this four to five times slower (Baker's Game deals
    1..200: 0.77 s against 0.16 s, of about 20 s).

    :returns: the solution checked; its ``seconds`` count the replay's CPU time too.
    """
    if solution.verdict is not Verdict.WON:
        return solution
    started = time.process_time()
    end = position
    try:
        for move in solution.moves:
            end = game.play(end, move)
    except PatienceError:
        end = position
    seconds = solution.seconds + time.process_time() - started
    if not game.is_won(end):
        return attrs.evolve(solution, verdict=Verdict.UNKNOWN, moves=(), seconds=seconds)
    return attrs.evolve(solution, seconds=seconds)
