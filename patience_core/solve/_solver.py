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
(only what a player sees) is built on it in :mod:`patience_core.solve`.

Memory: the transposition table keeps at most ``Budget.table_size`` keys (default 2,000,000,
about 300-600 MB for the largest keys) besides those of the current search path; when it is full
it is cleared but for the path (which guards against cycles), which costs time, never
correctness.
"""

from __future__ import annotations

import enum
import gc
import math
import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import attrs

from patience_core.engine import search_limits
from patience_core.errors import PatienceError, PluginError
from patience_core.games import AnySpace, Game, PositionSpace, SearchSpace
from patience_core.model import Move, Position

__all__ = [
    "FIRST_MIN_NODES",
    "FIRST_SHARE",
    "Budget",
    "Solution",
    "Verdict",
    "solve",
    "space_for",
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
    :param table_size: keys the transposition table holds at most, besides those of the search
        path, before it is cleared.
    :param wall_seconds: wall-clock seconds at most (:func:`time.perf_counter`), a cap for
        answers a person waits for (hints); unlimited by default.
    """

    nodes: int = 5_000_000
    seconds: float = 10.0
    table_size: int = 2_000_000
    wall_seconds: float = math.inf

    @classmethod
    def asked(cls, seconds: float | None = None, nodes: int | None = None) -> Budget:
        """The budget a user asked for (``--budget``, ``--nodes``): the defaults for what is
        not given, except that a node budget given alone has no time limit, so that the answer
        is the same on every machine and in every run.

        :param seconds: CPU seconds, or ``None``.
        :param nodes: positions, or ``None``.
        """
        default = cls()
        if seconds is None:
            seconds = math.inf if nodes is not None else default.seconds
        return cls(nodes=default.nodes if nodes is None else nodes, seconds=seconds)


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
#: Positions the depth-first search gets first at least (the whole budget when it is smaller):
#: the searches of an honest hint get a few hundred each, and a tenth of that is too little for
#: the quick wins the depth-first search finds (Bristol: about 100 positions where ``find_win``
#: needs thousands).
FIRST_MIN_NODES = 1_000

#: The depth-first search reads the clocks every this many positions (a read costs about as much
#: as a position; a game's hooks, ``is_dead`` above all, may cost far more than a move).
CLOCK_EVERY = 64


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
    (``FIRST_SHARE``, but at least ``FIRST_MIN_NODES`` positions: quick wins and quick proofs
    of ``dead``), then ``find_win`` with what is
    left, whose line counts only if it replays with :meth:`Game.apply` to a won position (and
    loses any loop it makes, :func:`_replayed`), then
    the depth-first search again with whatever remains. Only the depth-first search ever says
    ``dead``.

    While it runs, :func:`patience_core.api.time_is_up` tells the game's hooks when the budget's
    CPU or wall-clock seconds are spent, so that long work of their own can stop in time.

    :param game: the game (its rules, and its optional search helpers).
    :param position: where to start; it is not modified.
    :param budget: node, time and memory limits (default :class:`Budget`).
    :returns: a :class:`Solution`; ``dead`` only when proved.
    """
    # Millions of small tuples live in the search's table and the cyclic garbage collector
    # would only walk them again and again (about 5% of the time); what cycles a search makes
    # are collected once the collector is back on.
    collecting = gc.isenabled()
    gc.disable()
    budget = budget or Budget()
    try:
        with search_limits(budget.seconds, budget.wall_seconds):
            return _solve(game, position, budget)
    finally:
        if collecting:
            gc.enable()


def _solve(game: Game, position: Position, budget: Budget) -> Solution:
    """:func:`solve` with the collector off."""
    if type(game).find_win is Game.find_win:
        return _depth_first(game, position, budget)
    started = time.process_time()
    wall_started = time.perf_counter()
    wall_end = wall_started + budget.wall_seconds

    def elapsed() -> float:
        return time.process_time() - started

    def wall_left() -> float:
        return wall_end - time.perf_counter()

    search = DepthFirst(space_for(game, position))
    first = search.run(
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
        line, spent = game.find_win(position, budget.nodes - nodes, seconds)
        nodes += spent
        won = None if line is None else _replayed(game, position, line)
        if won is not None:
            return Solution(Verdict.WON, won, nodes, elapsed())
    if nodes >= budget.nodes or elapsed() >= budget.seconds or wall_left() <= 0:
        return Solution(Verdict.UNKNOWN, (), nodes, elapsed())
    rest = search.run(
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


def _shortcut(
    space: AnySpace, states: Sequence[Any], steps: Sequence[Any], deadline: float, wall: float
) -> list[Any]:
    """A winning line of the depth-first search made shorter: from each state on the line, the
    step to the latest state of the line (or a win) that one step reaches. The search's line
    wanders (it follows the first untried move at every depth, thousands of moves in
    Spiderette); the shortcuts keep it a line from the same start to a win.

    :param states: the line's states, the start first (``steps[i]`` leads from ``states[i]``;
        the last step wins).
    :param deadline: CPU time (:func:`time.process_time`) at which to stop looking (the rest of
        the line is kept as it is); ``wall`` the same on :func:`time.perf_counter`.
    :returns: the steps of the shorter line (``steps`` itself when states are not hashable).
    """
    try:
        where = {state: index for index, state in enumerate(states)}
    except TypeError:
        return list(steps)
    out: list[Any] = []
    index = 0
    end = len(states)
    while index < end:
        if len(out) % CLOCK_EVERY == 0 and (
            time.process_time() >= deadline or time.perf_counter() >= wall
        ):
            return out + list(steps[index:])
        best, best_step = index + 1, steps[index]
        for step, child, _cost in space.children(states[index]):
            if space.is_won(child):
                best, best_step = end, step
                break
            reached = where.get(child, -1)
            if reached > best:
                best, best_step = reached, step
        out.append(best_step)
        index = best
    return out


def _cpu_for_wall(wall: float, cpu_used: float, wall_used: float) -> float:
    """CPU seconds that fit in ``wall`` wall-clock seconds at the CPU share this search has had
    so far (``cpu_used`` of ``wall_used`` seconds): :meth:`Game.find_win` is given CPU seconds,
    which run slower than the clock when other processes share the cores, so a wall-clock cap
    (a hint's) is turned into CPU seconds at that rate. ``wall`` itself when the share is
    not measurable yet (under 20 ms) or not below one; never under a tenth of ``wall``.
    """
    if math.isinf(wall) or wall_used < 0.02:
        return wall
    share = min(1.0, max(0.1, cpu_used / wall_used))
    return wall * share


def _replayed(game: Game, position: Position, line: Sequence[Move]) -> tuple[Move, ...] | None:
    """``line`` replayed move by move from ``position`` with :meth:`Game.apply`, without its
    loops: where a position comes back, the moves between its two visits are dropped (a win
    finder's line may, say, move a card and later move it straight back). Following the line
    then never meets a position twice.

    :returns: the loop-free line, or ``None`` when ``line`` is not legal move by move or does
        not end won.
    """
    out: list[Move] = []
    # The positions along ``out`` (after 0, 1, ... moves) and where each one is.
    path = [position]
    where: dict[Position, int] = {position: 0}
    for move in line:
        try:
            position = game.apply(position, move)
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


def space_for(game: Game, position: Position) -> AnySpace:
    """The space the solver searches from ``position``: the game's own
    (:meth:`Game.search_space`), or the default :class:`PositionSpace` over its search hooks.

    :raises PluginError: when the game's ``search_space`` returns something that is not one.
    """
    space = game.search_space(position)
    if space is None:
        return PositionSpace(game, position)
    if not isinstance(space, SearchSpace):
        raise PluginError(
            f"the {game.name} plugin is broken: its search_space returned "
            f"{type(space).__name__}, not a search space"
        )
    return space


def _depth_first(game: Game, position: Position, budget: Budget) -> Solution:
    """The depth-first search of :func:`solve` (see there), within ``budget``."""
    return _checked(game, position, DepthFirst(space_for(game, position)).run(budget))


def _checked(game: Game, position: Position, solution: Solution) -> Solution:
    """``solution`` with a ``won`` line replayed by the rules (:func:`_replayed`: without
    loops), or ``unknown`` for one that does not replay with :meth:`Game.apply` to a won
    position: a search space that disagrees with its game, e.g. on an odd position read from
    a file, must not make the solver claim a win."""
    if solution.verdict is not Verdict.WON:
        return solution
    won = _replayed(game, position, solution.moves)
    if won is None:
        return attrs.evolve(solution, verdict=Verdict.UNKNOWN, moves=())
    return attrs.evolve(solution, moves=won)


class DepthFirst:
    """The solver's exhaustive depth-first search over a search space; it can be resumed.

    Each :meth:`run` continues where the previous one stopped (same table, same path), so a
    search split into several budgets visits what one long search would.

    :param space: the rules in the solver's form (:class:`~patience_core.games.SearchSpace`).
    """

    def __init__(self, space: AnySpace) -> None:
        self.space = space
        #: Positions generated so far, over every run.
        self.nodes = 0
        self._verdict: Verdict | None = None
        self._line: list[Move] = []
        self._seen: set[Hashable] = set()
        self._states: list[Any] = []
        #: The keys of ``_states``, kept so that a full table is refilled with the search path
        #: without computing them again (the path can be millions of states deep).
        self._keys: list[Hashable] = []
        self._iterators: list[Iterator[tuple[Any, Any, int]]] = []
        self._steps: list[Any] = []
        self._started = False

    def run(self, budget: Budget) -> Solution:
        """Search on within ``budget`` (this run's own limits: nodes, CPU and wall seconds).

        :returns: ``won`` (the whole line from the start), ``dead`` (proved) or ``unknown``;
            ``nodes`` counts every run so far, ``seconds`` this run only. Once ``won`` or
            ``dead``, every later run returns the same at once.
        """
        started = time.process_time()
        deadline = started + budget.seconds
        wall_deadline = time.perf_counter() + budget.wall_seconds
        max_nodes = self.nodes + budget.nodes
        table_size = max(budget.table_size, 1)
        space = self.space

        def result(verdict: Verdict, moves: Sequence[Move] = ()) -> Solution:
            if verdict is not Verdict.UNKNOWN:
                self._verdict, self._line = verdict, list(moves)
            return Solution(verdict, tuple(moves), self.nodes, time.process_time() - started)

        if self._verdict is not None:
            return result(self._verdict, self._line)
        if not self._started:
            self._started = True
            root, cost = space.start()
            self.nodes += cost
            if space.is_won(root):
                return result(Verdict.WON, space.moves([]))
            if space.is_dead(root):
                return result(Verdict.DEAD)
            root_key = space.key(root)
            self._seen.add(root_key)
            self._keys.append(root_key)
            self._states.append(root)
            self._iterators.append(space.children(root))
        seen, states, iterators, steps = self._seen, self._states, self._iterators, self._steps
        keys = self._keys
        key, is_won, is_dead, children = space.key, space.is_won, space.is_dead, space.children
        nodes = self.nodes
        next_check = min(nodes + CLOCK_EVERY, max_nodes)
        # The search path: states[i] is reached by steps[i - 1]; iterators[i] yields its
        # children still to try.
        while iterators:
            if nodes >= next_check:
                # The node budget is exact; the clocks are read every CLOCK_EVERY nodes.
                next_check = min(nodes + CLOCK_EVERY, max_nodes)
                if (
                    nodes >= max_nodes
                    or time.process_time() >= deadline
                    or time.perf_counter() >= wall_deadline
                ):
                    self.nodes = nodes
                    return result(Verdict.UNKNOWN)
            entry = next(iterators[-1], None)
            if entry is None:
                states.pop()
                keys.pop()
                iterators.pop()
                if steps:
                    steps.pop()
                continue
            step, child, cost = entry
            nodes += cost
            # A position met before was tested then (and not won), so the table comes first;
            # one add tells whether the key is new (its hash is computed once).
            child_key = key(child)
            size = len(seen)
            seen.add(child_key)
            if len(seen) == size:
                continue
            if is_won(child):
                self.nodes = nodes
                line = _shortcut(space, states, [*steps, step], deadline, wall_deadline)
                return result(Verdict.WON, space.moves(line))
            if size >= table_size + len(keys):
                # Full: forget everything but the search path (which guards against cycles).
                # The path does not count towards the cap: a path deeper than the cap would
                # otherwise fill the table again at every step.
                seen.clear()
                seen.update(keys)
                seen.add(child_key)
            if is_dead(child):
                continue
            states.append(child)
            keys.append(child_key)
            iterators.append(children(child))
            steps.append(step)
        self.nodes = nodes
        return result(Verdict.DEAD)
