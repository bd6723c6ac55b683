"""The spider family's heuristic win finder: :class:`Finder`, the compact engine with a search
for wins.

Layer 3½ (above :mod:`patience_core.games`). Best-first searches of one phase (between two
deals) at a time, a depth-first stage over the phases and a beam over the phases; how they work
and why they may prune moves is told in the docstring of
:mod:`patience_core.families._spider_search`, and their figures in ``docs/families.md`` and
``docs/games/spiderette.md`` ("Solver"). The tuning constants below are read at run time, so
tests may patch them here.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Sequence

from patience_core.engine import time_is_up
from patience_core.families._spider_dead import stuck_for_good
from patience_core.families._spider_engine import Engine
from patience_core.families._spider_piles import State, Step, Tables, _new_atoms
from patience_core.model import Position

__all__ = ["Finder"]

#: A deal candidate: (its score, its key, the state just after the deal, the line to it).
_Candidate = tuple[float, tuple[object, ...], State, object]

#: The beam's first width (deal candidates kept per level), and positions explored per phase
#: search (before the last deal, and in the last phase). A pass that left candidates out of the
#: beam doubles the width; a pass that did not (but cut a phase search short) doubles the
#: phase limits.
_BEAM = 8
_PHASE_NODES = 2000
_LAST_NODES = 5000
#: Candidates kept first per set of face-down counts (different cards turned up are different
#: plans, while near-equal scores often differ by little); the rest of the beam is filled in
#: score order.
_PER_PLAN = 2

#: The win finder's first stage (a share of its time): depth first over the phases, with the
#: best ``_WIDTH`` deal candidates followed from each phase (times the phase's factor, by the
#: deals left: early choices are followed more widely than the last deal's, whose futures are
#: small); each pass that cut something short doubles the width and the phase limits.
_DEPTH_FIRST_SHARE = 0.4
_WIDTH = 4
_WIDTH_FACTOR = {1: 0.5, 2: 1.0}
_EARLY_FACTOR = 2.0
#: Deal candidates kept by the beam's phase searches at most (their states and lines); the
#: kept searches are forgotten when they hold more (a speed-up only).
_KEPT_CANDIDATES = 1_000_000
#: CPU seconds it takes to free one kept candidate (measured: about 0.55 microseconds): the
#: finder stops that much earlier, so that freeing its tables fits in its budget too.
_FREE_SECONDS = 7e-7
#: Candidates pooled by the beam between two readings of the clock.
_POOL_CHECK = 4096


class _Found(Exception):
    """A winning line was found (its linked list of steps is the argument)."""


class _OutOfBudget(Exception):
    """The node or time budget ran out."""


class Finder(Engine):
    """The compact engine of one spider position (:class:`Engine`) and the win-finding search.

    :param tables: as for :class:`Engine`. :param columns: as for :class:`Engine`.
    :param foundations: as for :class:`Engine`. :param position: as for :class:`Engine`.
    :raises ValueError: as :class:`Engine` does.
    """

    def __init__(self, tables: Tables, columns: Sequence[int], foundations: Sequence[int],
                 position: Position) -> None:  # fmt: skip
        super().__init__(tables, columns, foundations, position)
        # The win finder's budget and memory (set by find).
        self._deadline = 0.0
        self._max_nodes = 0
        self._next_check = 0
        self._calls = 0
        self._diverse = False
        #: Deal candidates whose whole pruned future the depth-first stage searched in vain.
        self._failed: set[tuple[object, ...]] = set()
        #: Deal candidates searched in the current depth-first pass.
        self._tried: set[tuple[object, ...]] = set()
        #: Candidates held in ``_searched``.
        self._kept = 0
        #: Phase searches done: key -> (limit, deal candidates, whether cut short).
        self._searched: dict[tuple[object, ...], tuple[int, list[_Candidate], bool]] = {}

    # -- the search -----------------------------------------------------------------------------

    def find(self, nodes: int, seconds: float) -> list[Step] | None:
        """A winning line from the root (compact steps), or ``None`` when the budget ran out or
        the pruned space holds no win.

        :param nodes: positions generated at most (``self.nodes`` counts them).
        :param seconds: CPU seconds (:func:`time.process_time`) at most; the search also stops
            when the solver's own limits pass (:func:`patience_core.api.time_is_up`).
        """
        if self.won(self.root):
            return []
        started = time.process_time()
        # The first stage ends at its share of the seconds or of the nodes, whichever comes
        # first: under a node budget that binds, the hand-over (and so the whole search) is
        # the same on every run and machine.
        first_nodes = self.nodes + int(_DEPTH_FIRST_SHARE * nodes)
        last_nodes = self.nodes + nodes
        try:
            self._max_nodes = first_nodes
            self._deadline = started + _DEPTH_FIRST_SHARE * seconds
            self._next_check = self.nodes
            try:
                self._depth_first_passes()
                return None  # the pruned space holds no win
            except _OutOfBudget:
                pass
            self._max_nodes = last_nodes
            self._deadline = started + seconds
            self._next_check = self.nodes
            self._beam_passes()
            return None
        except _Found as found:
            steps: list[Step] = []
            link = found.args[0]
            while link is not None:
                steps.append(link[0])
                link = link[1]
            return steps[::-1]
        except _OutOfBudget:
            return None
        finally:
            # Freed here, within the budget (:meth:`_time_up` leaves time for it).
            self._searched = {}
            self._kept = 0

    def _check_budget(self) -> None:
        """:raises _OutOfBudget: when the nodes, the CPU seconds or the solver's time are spent
        (the clocks are read every 1024 positions)."""
        if self.nodes >= self._max_nodes:
            raise _OutOfBudget
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + 1024
            if self._time_up():
                raise _OutOfBudget

    def _time_up(self) -> bool:
        """Whether the stage's CPU seconds, less the time freeing the kept phase searches will
        take (``_FREE_SECONDS`` each), or the solver's own time are spent."""
        return time.process_time() + self._kept * _FREE_SECONDS >= self._deadline or time_is_up()

    # -- the first stage: depth first over the phases --------------------------------------------

    def _depth_first_passes(self) -> None:
        """Depth-first passes, each in two orders of the candidates, widths and phase limits
        doubling, until a pass cuts nothing short (then it returns: no win in the pruned
        space). :raises _Found: :raises _OutOfBudget:"""
        self._failed = set()
        width, phase_nodes, last_nodes = _WIDTH, _PHASE_NODES, _LAST_NODES
        while True:
            cut = False
            for diverse in (False, True):
                self._diverse = diverse
                self._tried = set()
                cut |= self._depth_first(self.root, None, width, phase_nodes, last_nodes)
            if not cut:
                return
            width, phase_nodes, last_nodes = 2 * width, 2 * phase_nodes, 2 * last_nodes

    def _depth_first(
        self, state: State, line: object, width: int, phase_nodes: int, last_nodes: int
    ) -> bool:
        """Search ``state``'s phase, then, depth first, its best deal candidates (``width``
        times the phase's ``_WIDTH_FACTOR``).

        :returns: whether anything was cut short (a phase limit, or candidates beyond
            ``width``); ``False`` means this future holds no win in the pruned space.
        :raises _Found: with the winning line. :raises _OutOfBudget: when the budget ran out.
        """
        self._check_budget()
        if stuck_for_good(self, state):
            return False  # proved lost: no win in its future
        left = self._max_nodes - self.nodes
        candidates: list[tuple[float, int, State, object]] = []
        limit = min(phase_nodes if state[0] else last_nodes, left)
        cut = self._phase(state, line, limit, candidates)
        if not state[0]:
            return cut
        deals = -(-state[0] // self.nc)
        here = max(1, int(width * _WIDTH_FACTOR.get(deals, _EARLY_FACTOR)))
        candidates.sort(key=lambda c: c[:2])
        if self._diverse:
            # The best candidate of each set of face-down counts first: different cards
            # turned up are different plans, while near-equal scores often differ by little.
            firsts: list[tuple[float, int, State, object]] = []
            others: list[tuple[float, int, State, object]] = []
            plans: set[tuple[int, ...]] = set()
            for candidate in candidates:
                downs = candidate[2][1]
                (others if downs in plans else firsts).append(candidate)
                plans.add(downs)
            candidates = firsts + others
        tried = 0
        for _, _, child, child_line in candidates:
            if tried == here:
                return True
            child_key = self.key(child)
            if child_key in self._failed:
                continue
            if child_key in self._tried:
                cut = True  # searched from another line of this pass, and cut short there
                continue
            self._tried.add(child_key)
            tried += 1
            if self._depth_first(child, child_line, width, phase_nodes, last_nodes):
                cut = True
            else:
                self._failed.add(child_key)
        return cut

    # -- the second stage: a beam over the phases -----------------------------------------------

    def _beam_passes(self) -> None:
        """Beam passes, the beam doubling while it leaves candidates out (else the phase
        limits double), until a pass cuts nothing short (then it returns: no win in the
        pruned space). :raises _Found: :raises _OutOfBudget:"""
        self._searched = {}
        self._kept = 0
        beam, phase_nodes, last_nodes = _BEAM, _PHASE_NODES, _LAST_NODES
        while True:
            beam_cut, phase_cut = self._beam_pass(beam, phase_nodes, last_nodes)
            if not (beam_cut or phase_cut):
                return
            if beam_cut:
                beam *= 2
            else:
                phase_nodes, last_nodes = 2 * phase_nodes, 2 * last_nodes

    def _phase_of(self, state: State, line: object, limit: int) -> tuple[list[_Candidate], bool]:
        """The deal candidates of ``state``'s phase searched for ``limit`` positions, and
        whether the search was cut short; kept across passes (searched again only with a
        larger limit). :raises _Found: :raises _OutOfBudget:"""
        self._calls += 1
        if self._calls >= 256:
            # Kept searches answer without new positions: read the clocks now and then too.
            self._calls = 0
            self._next_check = self.nodes
        self._check_budget()
        state_key = self.key(state)
        known = self._searched.get(state_key)
        if known is not None and (known[0] >= limit or not known[2]):
            return known[1], known[2]
        if stuck_for_good(self, state):
            self._searched[state_key] = (limit, [], False)  # proved lost: no win in it
            return [], False
        left = self._max_nodes - self.nodes
        found: list[tuple[float, int, State, object]] = []
        cut = self._phase(state, line, min(limit, left), found)
        key = self.key
        candidates = [(score, key(child), child, link) for score, _, child, link in found]
        if self._kept + len(candidates) > _KEPT_CANDIDATES:
            self._searched.clear()
            self._kept = 0
        previous = self._searched.get(state_key)
        self._kept += len(candidates) - (len(previous[1]) if previous else 0)
        self._searched[state_key] = (limit, candidates, cut)
        return candidates, cut

    def _beam_pass(self, beam: int, phase_nodes: int, last_nodes: int) -> tuple[bool, bool]:
        """One pass of the beam: from each position of a level (the root, then positions just
        after a deal), search its phase; pool the level's deal candidates and keep the
        ``beam`` best (at most ``_PER_PLAN`` per set of face-down counts first); in the last
        phase, look for the win.

        :returns: whether the beam left candidates out, and whether a phase search was cut
            short.
        """
        level: list[tuple[State, object]] = [(self.root, None)]
        cut = beam_cut = False
        while level:
            stock = level[0][0][0]
            pool: dict[tuple[object, ...], tuple[float, int, State, object]] = {}
            order = 0
            pooled = 0
            for state, line in level:
                candidates, parent_cut = self._phase_of(
                    state, line, phase_nodes if stock else last_nodes
                )
                cut |= parent_cut
                for score, child_key, child, child_line in candidates:
                    known = pool.get(child_key)
                    if known is None or known[0] > score:
                        pool[child_key] = (score, order, child, child_line)
                        order += 1
                pooled += len(candidates)
                if pooled >= _POOL_CHECK:
                    # Kept searches answer without new positions: read the clock by the
                    # candidates pooled.
                    pooled = 0
                    self._next_check = self.nodes
                    self._check_budget()
            if not stock:
                return beam_cut, cut
            self._next_check = self.nodes
            self._check_budget()  # before sorting a large pool
            # (score, order) decide: the orders are distinct, so nothing further is compared.
            ranked = sorted(pool.values())
            chosen: list[tuple[State, object]] = []
            rest: list[tuple[State, object]] = []
            plans: dict[tuple[int, ...], int] = {}
            for _, _, child, child_line in ranked:
                if len(chosen) == beam:
                    break
                downs = child[1]
                seen_plan = plans.get(downs, 0)
                plans[downs] = seen_plan + 1
                if seen_plan < _PER_PLAN and len(chosen) < beam:
                    chosen.append((child, child_line))
                elif len(chosen) + len(rest) < beam:
                    rest.append((child, child_line))
            level = chosen + rest[: beam - len(chosen)]
            if len(level) < len(ranked):
                beam_cut = True
        return beam_cut, cut

    def _phase(
        self,
        start: State,
        line: object,
        limit: int,
        candidates: list[tuple[float, int, State, object]],
    ) -> bool:
        """Best-first within ``start``'s phase for ``limit`` positions or until the time is up
        (:meth:`_time_up`, asked every 1024 positions): deals go to ``candidates``; a win
        raises :class:`_Found`.

        Novel positions come first (a best-first width search): a position is novel when its
        move made a pair of cards (:func:`_atom`: a card on the card below it, on an empty
        column, or turned over on its face-down cards) that no position of this search with
        as many face-down cards showed before. The rest follow, each group by :meth:`score`.

        :returns: whether the limit or the clock cut the phase short (positions were left
            unexplored).
        """
        order = itertools.count()
        seen = {start[:3]}
        score, play, moves, won = self.score, self.play, self.moves, self.won
        push, pop = heapq.heappush, heapq.heappop
        # Entries: (0 if novel else 1, score, order, state, line, the step back to the
        # parent or None).
        heap: list[tuple[int, float, int, State, object, Step | None]] = [
            (0, 0.0, 0, start, line, None)
        ]
        atoms: set[int] = set()
        spent = 0
        check = 1024
        while heap and spent < limit:
            if spent >= check:
                check = spent + 1024
                if self._time_up():
                    break
            _, _, _, state, link, back = pop(heap)
            downs = state[1]
            for step in moves(state):
                if spent >= limit:
                    break
                spent += 1
                if step == back:
                    continue  # the parent, seen already: not played again
                child = play(state, step)
                # The state without the foundation count (which the columns imply) as its
                # key: no columns sorted, which costs more than the repeats it would catch.
                child_key = child[:3]
                size = len(seen)
                seen.add(child_key)
                if len(seen) == size:
                    continue
                child_line = (step, link)
                if won(child):
                    self.nodes += spent
                    raise _Found(child_line)
                if (step[0] < 0 or child[1] is not downs) and stuck_for_good(self, child):
                    continue  # a deal or a card turned: proved lost, nothing to find in it
                if step[0] < 0:
                    candidates.append((score(child), next(order), child, child_line))
                    continue
                # Moving the same cards straight back gives the parent again, unless the move
                # turned a face-down card.
                undo = None
                if len(step) == 3 and step[1] >= 0 and child[1] is downs:
                    undo = (step[1], step[0], step[2])
                size = len(atoms)
                _new_atoms(atoms, state, child, step)
                stale = 0 if len(atoms) > size else 1
                push(heap, (stale, score(child), next(order), child, child_line, undo))
        self.nodes += spent
        return spent >= limit or bool(heap)
