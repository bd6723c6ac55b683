"""The solver's exhaustive depth-first search over a search space, and what a search returns.

Layer 4. :func:`patience_core.solve.solve` runs it; it works on any
:class:`~patience_core.games.SearchSpace` (the default :class:`~patience_core.games.PositionSpace`
over a game's rules and search object, or a game's own compact space).

Memory: the transposition table keeps at most ``Budget.table_size`` keys (default 2,000,000,
about 300-600 MB for the largest keys) besides those of the current search path; when it is full
it is cleared but for the path (which guards against cycles), which costs time, never
correctness.
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import attrs

from patience_core.games import AnySpace
from patience_core.model import Move

__all__ = ["CLOCK_EVERY", "Budget", "DepthFirst", "Solution", "Verdict"]

#: The depth-first search reads the clocks every this many positions (a read costs about as much
#: as a position; a game's hooks, ``is_dead`` above all, may cost far more than a move).
CLOCK_EVERY = 64


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


def _shortcut(
    space: AnySpace,
    states: Sequence[Any],
    keys: Sequence[Hashable],
    untried: Sequence[Iterator[tuple[Any, Any, int]]],
    steps: Sequence[Any],
    deadline: float,
    wall: float,
) -> list[Any]:
    """A winning line of the depth-first search made shorter: from each state on the line, the
    step to the latest state of the line (or a win) that one step reaches. The search's line
    wanders (it follows the first untried move at every depth, thousands of moves in
    Spiderette); the shortcuts keep it a line from the same start to a win, never a longer one.

    Only the children the search has not tried yet are looked at (``untried``, where the
    search stopped in each state's children): a child it tried before the line's next state
    had its key put in the table, so no later state of the line has that key (unless the table
    was cleared in between, which only loses a shortcut). A child is looked up by its key, then
    compared with the state of the line that has that key: two states with one key have the
    same future but may differ (columns in another order), and the line's later steps are only
    known to apply to the line's own state.

    :param states: the line's states, the start first (``steps[i]`` leads from ``states[i]``;
        the last step wins).
    :param keys: the states' keys (``space.key``), distinct, as the search path's are.
    :param untried: for each state, the iterator of its children the search has not tried
        (consumed here: the search is over).
    :param deadline: CPU time (:func:`time.process_time`) at which to stop looking (the rest of
        the line is kept as it is); ``wall`` the same on :func:`time.perf_counter`.
    :returns: the steps of the shorter line.
    """
    where = {state_key: index for index, state_key in enumerate(keys)}
    key, is_won = space.key, space.is_won
    out: list[Any] = []
    index = 0
    end = len(states)
    while index < end:
        if len(out) % CLOCK_EVERY == 0 and (
            time.process_time() >= deadline or time.perf_counter() >= wall
        ):
            return out + list(steps[index:])
        best, best_step = index + 1, steps[index]
        for step, child, _cost in untried[index]:
            if is_won(child):
                best, best_step = end, step
                break
            reached = where.get(key(child), -1)
            if reached > best and child == states[reached]:
                best, best_step = reached, step
        out.append(best_step)
        index = best
    return out


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
                line = _shortcut(
                    space, states, keys, iterators, [*steps, step], deadline, wall_deadline
                )
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
