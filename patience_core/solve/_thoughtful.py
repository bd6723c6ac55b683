"""Thoughtful hints in stages: a small proof, the quick answer, the full search, then per move.

Layer 4, over :mod:`patience_core.solve`; the stages of :func:`hint_stream
<patience_core.solve.hint_stream>` with every card known. One exhaustive depth-first search of
the position is resumed from stage to stage (:class:`DepthFirst` keeps its table), so the
positions of the quick search are not searched again: :data:`QUICK_NODES` first, then a fifth of
the budget (:data:`PROOF_SHARE`) before a game's own win finder, so that a position the
exhaustive search proves dead or won cheaply is answered so, then the win finder, then the
exhaustive search with what is left.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Hashable, Iterator, Sequence

import attrs

from patience_core.engine import counted, search_limits
from patience_core.games import Game, GameSearch, PositionSpace, is_default
from patience_core.model import Move, Position
from patience_core.solve._circles import STUCK_LOST, avoiding_circles, leads_back
from patience_core.solve._depthfirst import Budget, DepthFirst, Solution, Verdict
from patience_core.solve._hints import GUESS, Hint, Known, last_winnable, remember_line
from patience_core.solve._quick import HINT_FIRST_SECONDS, QUICK_NODES, quick_hint
from patience_core.solve._solver import _checked, _replayed, solve, space_for

__all__ = ["HINT_NODES", "PROOF_SHARE", "thoughtful_stream"]

#: The default positions of a thoughtful hint's search of the position (the per-move searches
#: after an undecided one share as many again).
HINT_NODES = 100_000
#: The share of the budget the exhaustive search gets before a game's own win finder.
PROOF_SHARE = 0.2
#: The share of the hint's time the search of the position gets; the rest goes to the
#: per-move searches or to the search back through the history.
MAIN_SHARE = 0.6


def _exclude(depth_first: DepthFirst, keys: set[Hashable]) -> None:
    """Make ``depth_first`` treat ``keys`` as searched already: no line it finds passes
    through them. A ``dead`` verdict is then no proof for the start; a ``won`` line still
    wins. (The search's table, before the first run.)"""
    depth_first._seen.update(keys)


def _budget(nodes: int, deadline: float) -> Budget:
    left = max(0.0, deadline - time.perf_counter())
    return Budget(nodes=max(0, nodes), seconds=left, wall_seconds=left)


def _staged(
    game: Game,
    search: GameSearch,
    position: Position,
    depth_first: DepthFirst,
    nodes: int,
    deadline: float,
    stop: Callable[[], bool],
    seen: set[Hashable],
    backup: list[Move],
) -> Solution:
    """The search of ``position`` after the quick stage: the exhaustive search to
    ``PROOF_SHARE`` of ``nodes``, the win finder (if the game has one), the exhaustive search
    with the rest; ``nodes`` in all (the quick stage's included). A win finder's line whose
    first move leads back to ``seen`` is not taken: it is put in ``backup``."""
    started = time.process_time()
    proof = max(QUICK_NODES, int(nodes * PROOF_SHARE))
    found = depth_first.run(_budget(proof - depth_first.nodes, deadline))
    spent = 0
    if found.verdict is Verdict.UNKNOWN and not is_default(search, "find_win") and not stop():
        left = nodes - depth_first.nodes
        wall = deadline - time.perf_counter()
        if left > 0 and wall > 0:
            with search_limits(wall, wall):
                line, spent = search.find_win(position, left, wall)
            won = None if line is None else _replayed(game, position, line)
            if won and leads_back(search, position, won[0], seen):
                # The win finder's line goes back to a position of the game: kept only as the
                # last resort; the exhaustive search (which does not go back) goes on.
                backup[:] = won
                won = None
            if won is not None:
                seconds = time.process_time() - started
                return Solution(Verdict.WON, won, depth_first.nodes + spent, seconds)
    if found.verdict is Verdict.UNKNOWN and not stop():
        found = depth_first.run(_budget(nodes - depth_first.nodes - spent, deadline))
    found = attrs.evolve(found, nodes=found.nodes + spent)
    return _checked(game, position, found)


def thoughtful_stream(
    game: Game,
    search: GameSearch,
    position: Position,
    history: Sequence[Position],
    legal: list[Move],
    mode: str,
    seconds: float,
    nodes: int | None,
    known: Known | None,
    seen: set[Hashable],
    started: float,
    stop: Callable[[], bool],
) -> Iterator[Hint]:
    """The thoughtful answers of :func:`hint_stream <patience_core.solve.hint_stream>` (see
    there), the quick one first unless the quick search decides."""
    total = HINT_NODES if nodes is None else nodes
    deadline = started + seconds
    main_end = started + MAIN_SHARE * seconds
    backup: list[Move] = []  # a winning line that goes back, the last resort
    solution = None if known is None else known.get(position)
    if solution is None or solution.verdict is Verdict.UNKNOWN:
        collecting = gc.isenabled()
        gc.disable()  # as solve does: the search's table is many small tuples
        try:
            with search_limits(seconds, seconds):
                space = space_for(search, position)
                depth_first = DepthFirst(space)
                # The search passes through no position of the history (it finds a line that
                # does not go back), where its keys are the search object's own (the seen
                # positions are the real ones: their keys go in the search's table).
                excluded = isinstance(space, PositionSpace) and bool(history)
                if excluded:
                    _exclude(depth_first, {space.key(p) for p in seen if isinstance(p, Position)})
                quick_end = min(main_end, started + HINT_FIRST_SECONDS / 3)
                solution = _checked(
                    game, position, depth_first.run(_budget(min(QUICK_NODES, total), quick_end))
                )
                if solution.verdict is Verdict.UNKNOWN or (
                    excluded and solution.verdict is Verdict.DEAD
                ):
                    yield quick_hint(game, search, position, legal, mode, seen, started)
                    if stop():
                        return
                    solution = _staged(
                        game, search, position, depth_first, total, main_end, stop, seen, backup
                    )
                    if excluded and solution.verdict is Verdict.DEAD:
                        # No proof: every line left may go back. The whole search decides.
                        solution = solve(game, position, _budget(total, main_end), search)
        finally:
            if collecting:
                gc.enable()
        if known is not None and solution.verdict is not Verdict.UNKNOWN:
            known[position] = solution
    if stop():
        return
    if solution.verdict is Verdict.WON and solution.moves:
        if known is not None:
            remember_line(game, position, solution, known)
        move = solution.moves[0]
        if not leads_back(search, position, move, seen) or len(legal) == 1:
            yield _won(game, position, move, len(solution.moves), mode, started)
            return
        # The line goes back to a position of the game: a winning move that does not, if found.
        others = [
            m
            for m in avoiding_circles(search, position, legal, seen)
            if m != move and not leads_back(search, position, m, seen)
        ]
        tried = _each_move(game, search, position, others, total, deadline, stop)
        if tried and tried[-1][1].verdict is Verdict.WON:
            other, after = tried[-1]
            yield _won(game, position, other, len(after.moves) + 1, mode, started)
        else:
            yield _not_back(game, position, others, tried, mode, started)
        return
    if solution.verdict is Verdict.UNKNOWN:
        ordered = search.order_moves(position, legal)
        # Moves that lead back are never named (the stream answered "stuck" if all do), and a
        # move after which every move leads back comes last.
        ahead = avoiding_circles(search, position, ordered, seen)
        if len(legal) > 1:
            ahead = [m for m in ahead if not leads_back(search, position, m, seen)]
        tried = _each_move(game, search, position, ahead, total, deadline, stop)
        if stop():
            return
        if tried and tried[-1][1].verdict is Verdict.WON:
            move, after = tried[-1]
            yield _won(game, position, move, len(after.moves) + 1, mode, started)
            return
        if len(tried) < len(ahead) or any(s.verdict is not Verdict.DEAD for _m, s in tried):
            yield _not_back(game, position, ahead, tried, mode, started)
            return
        # Every move that does not go back is lost. This position is dead only if the moves
        # that go back are lost too (none when a line found goes back).
        behind = [m for m in ordered if m not in ahead]
        back = [] if backup else _each_move(game, search, position, behind, total, deadline, stop)
        if (
            backup
            or len(back) < len(behind)
            or any(s.verdict is not Verdict.DEAD for _m, s in back)
        ):
            yield _not_back(game, position, ahead, tried, mode, started)
            return
        # Every move is proved lost: so is this position.
    yield from _dead(game, search, position, history, mode, total, deadline, known, started)


def _dead(
    game: Game,
    search: GameSearch,
    position: Position,
    history: Sequence[Position],
    mode: str,
    nodes: int,
    deadline: float,
    known: Known | None,
    started: float,
) -> Iterator[Hint]:
    """The answers for a position proved dead: at once, then with the last winnable position
    of the history."""
    reason = "no line wins from here"
    if history:
        yield Hint(None, "", reason, mode, "dead", seconds=time.perf_counter() - started,
                   final=False, stage="refined")  # fmt: skip
    index, complete = last_winnable(game, history, deadline, known, search, nodes)
    last = undo = None
    if index is not None:
        last, undo = index + 1, len(history) - index
        reason += f": the last winnable position was before move {last} (undo {undo})"
    elif complete and history:
        reason += ", nor from the deal: it cannot be won"
    elif complete:
        reason += ": this deal cannot be won"
    else:
        reason += "; the last winnable position was not found in the time"
    yield Hint(None, "", reason, mode, "dead", last_winnable=last, undo=undo,
               seconds=time.perf_counter() - started)  # fmt: skip


def _not_back(
    game: Game,
    position: Position,
    moves: Sequence[Move],
    tried: Sequence[tuple[Move, Solution]],
    mode: str,
    started: float,
) -> Hint:
    """The hint when no move of ``moves`` (those that do not lead back, best first) was found
    to win: the first not proved lost (the solver's best guess), else none (``"stuck"``: only
    going back may win)."""
    lost = {m for m, s in tried if s.verdict is Verdict.DEAD}
    move = next((m for m in moves if m not in lost), None)
    seconds = time.perf_counter() - started
    if move is None:
        return Hint(None, "", STUCK_LOST, mode, "stuck", seconds=seconds)
    reason = GUESS
    if lost:
        reason += f" ({counted(len(lost), 'other move')} proved lost)"
    return Hint(move, game.move_text(position, move), reason, mode, "unknown", seconds=seconds)


def _won(game: Game, position: Position, move: Move, count: int, mode: str, started: float) -> Hint:
    """The hint for ``move``, the first of a winning line of ``count`` moves."""
    reason = f"wins in {counted(count, 'move')}"
    return Hint(move, game.move_text(position, move), reason, mode, "won", count,
                seconds=time.perf_counter() - started)  # fmt: skip


def _each_move(
    game: Game,
    search: GameSearch,
    position: Position,
    moves: Sequence[Move],
    nodes: int,
    deadline: float,
    stop: Callable[[], bool],
) -> list[tuple[Move, Solution]]:
    """Each of ``moves`` with the full-information search of the position after it, ``nodes``
    positions shared out (at least :data:`QUICK_NODES` each), in a share of the time left each;
    the list ends at the first move whose search is won (or when the time is up)."""
    each = max(QUICK_NODES, nodes // max(1, len(moves)))
    tried: list[tuple[Move, Solution]] = []
    for index, move in enumerate(moves):
        left = deadline - time.perf_counter()
        if left <= 0 or stop():
            break
        share = max(left / (len(moves) - index), 0.01)
        budget = Budget(nodes=each, seconds=share, wall_seconds=share)
        tried.append((move, solve(game, game.play(position, move), budget, search)))
        if tried[-1][1].verdict is Verdict.WON:
            break
    return tried
