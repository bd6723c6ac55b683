"""Hints as a stream: a quick first answer, then better founded ones, the last one final.

Layer 4, over :mod:`patience_core.solve`. :func:`hint_stream` answers in stages:

1. **quick** (within :data:`HINT_FIRST_SECONDS`): a small exhaustive search of
   :data:`QUICK_NODES` positions; a position it decides (won, or proved dead) is answered
   finally at once; else :func:`quick_hint` names the forced move or the first choice.
2. **proofs before guesses** (thoughtful): the exhaustive search goes on to a fifth of the
   budget before a game's own win finder runs, so a position the solver proves dead cheaply is
   never "unknown"; then the win finder, then the exhaustive search with what is left
   (:mod:`patience_core.solve._thoughtful`).
3. **honest**: each round of the sampling (:func:`honest_rounds`) is a refinement; the last is
   final, worded by :mod:`patience_core.solve._verdicts` (shares from 4 arrangements or more,
   expected scores when nothing wins).

Budgets are in positions by default, so the answers are the same on a loaded machine; the
``seconds`` of a hint is a wall-clock cap on top.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Hashable, Iterator, Sequence

import attrs

from patience_core.games import Game, GameSearch
from patience_core.model import Move, Position
from patience_core.solve._circles import STUCK, STUCK_DEAD, is_stuck, seen_positions
from patience_core.solve._depthfirst import Verdict
from patience_core.solve._hints import (
    DEAD_CHECK_SECONDS,
    HINT_SECONDS,
    HONEST,
    NO_LINE_REMAINS,
    THOUGHTFUL,
    Hint,
    Known,
    dead_check,
    default_mode,
)
from patience_core.solve._honest import has_hidden, honest_rounds
from patience_core.solve._quick import HINT_FIRST_SECONDS, quick_hint
from patience_core.solve._thoughtful import HINT_NODES, thoughtful_stream
from patience_core.solve._verdicts import honest_final, honest_hint

__all__ = ["HINT_FIRST_SECONDS", "HINT_NODES", "hint", "hint_stream"]

#: The share of an honest hint's time the sampling gets; the rest is for the expected scores.
SAMPLING_SHARE = 0.8


def _never() -> bool:
    return False


def hint_stream(
    game: Game,
    position: Position,
    history: Sequence[Position] = (),
    mode: str | None = None,
    seconds: float = HINT_SECONDS,
    nodes: int | None = None,
    samples: int = 24,
    known: Known | None = None,
    search: GameSearch | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Iterator[Hint]:
    """Successive hints for ``position``, each better founded than the one before: the first
    within :data:`HINT_FIRST_SECONDS` (wall-clock), then refinements; the last one yielded is
    the final answer (``Hint.final``; ``Hint.stage`` is ``"quick"``, ``"refined"`` or
    ``"final"``). A position decided at once (won, over, proved dead, one legal move in honest
    mode, every one of several legal moves leading back) gives its final answer first. No hint
    names a move that leads back to a position of ``history`` or to ``position`` itself
    (compared by :meth:`GameSearch.key` of the real positions) unless it is the only legal
    move: when every one of several moves does, the answer has no move, verdict ``"stuck"``
    ("the game cannot progress from here"); a move after which every move would lead back
    comes after the others (:mod:`patience_core.solve._circles`).

    Thoughtful: the first move of a winning line ("wins in N moves"), so following thoughtful
    hints never turns a winnable position into a lost one. When the search proves that no line
    wins, the history is searched back, newest first, for the last winnable position. When the
    search is undecided, each legal move is searched: the first that wins, else the first (in
    the game's move order) not proved lost. Honest: :func:`honest_rounds`, each round a
    refinement; a share needs 4 arrangements ("not enough time to judge" below that), and when
    no arrangement is won the moves are ranked by expected final score. With nothing face
    down, honest is thoughtful.

    :param history: the positions before ``position``, the deal first: ``history[i]`` is the
        position after ``i`` moves (``play``'s session positions without the current one).
    :param mode: :data:`THOUGHTFUL`, :data:`HONEST`, or ``None`` for :func:`default_mode`.
    :param seconds: a wall-clock cap on the whole stream, about (searches read the clock
        every 64 positions).
    :param nodes: the positions of the thoughtful search of ``position`` (default
        :data:`HINT_NODES`; the per-move searches after an undecided one share as many again),
        or of each honest search (default: :data:`~patience_core.solve.HONEST_NODES` shared
        out over the searches).
    :param samples: honest arrangements at most.
    :param known: search results to reuse and to add to (see :func:`dead_check`).
    :param search: the game's search object (default: the generic ``GameSearch(game)``).
    :param cancel: asked between stages and before every search; once it returns True the
        stream stops (its last answer may then not be final).
    :raises ValueError: for an unknown mode.
    """
    started = time.perf_counter()
    mode = default_mode(position) if mode is None else mode
    if mode not in (THOUGHTFUL, HONEST):
        raise ValueError(f"unknown hint mode {mode!r}")
    stop = cancel or _never
    if game.is_won(position):
        yield Hint(None, "", "the game is won", mode, "over")
        return
    legal = game.legal_moves(position)
    if not legal:
        yield Hint(None, "", "no moves left: the game is lost", mode, "over")
        return
    search = search or GameSearch(game)
    # The position itself too: a move to an equal key (a card from one free cell to another)
    # goes nowhere.
    seen = seen_positions(game, [*history, position])
    if is_stuck(search, position, legal, seen):
        # Every move goes round: naming one would start a circle (issue 22, item 4). A
        # position proved dead is said to be dead (a short check, as play's after each move).
        check = dead_check(game, position, min(seconds, DEAD_CHECK_SECONDS), known=known,
                           search=search)  # fmt: skip
        dead = check.verdict is Verdict.DEAD
        yield Hint(None, "", STUCK_DEAD if dead else STUCK, mode, "dead" if dead else "stuck",
                   seconds=time.perf_counter() - started)  # fmt: skip
        return
    if mode == HONEST and has_hidden(position):
        yield from _honest_stream(
            game, search, position, legal, mode, seconds, nodes, samples, known, seen, started, stop
        )
        return
    yield from thoughtful_stream(
        game, search, position, history, legal, mode, seconds, nodes, known, seen, started, stop
    )


def hint(
    game: Game,
    position: Position,
    history: Sequence[Position] = (),
    mode: str | None = None,
    seconds: float = HINT_SECONDS,
    nodes: int | None = None,
    samples: int = 24,
    known: Known | None = None,
    search: GameSearch | None = None,
) -> Hint:
    """The best move in ``position`` and why: the final answer of :func:`hint_stream` (see
    there for the arguments).

    :raises ValueError: for an unknown mode.
    """
    answers = hint_stream(game, position, history, mode, seconds, nodes, samples, known, search)
    return collections.deque(answers, maxlen=1)[0]


def _honest_stream(
    game: Game,
    search: GameSearch,
    position: Position,
    legal: list[Move],
    mode: str,
    seconds: float,
    nodes: int | None,
    samples: int,
    known: Known | None,
    seen: set[Hashable],
    started: float,
    stop: Callable[[], bool],
) -> Iterator[Hint]:
    proved = None if known is None else known.get(position)
    told = proved is not None and proved.verdict is Verdict.DEAD

    def noted(found: Hint) -> Hint:
        # play has told the player so (its dead check): the share must not read as hope.
        if told:
            return attrs.evolve(found, reason=f"{found.reason}; but {NO_LINE_REMAINS}")
        return found

    if len(legal) == 1:
        only = Hint(legal[0], game.move_text(position, legal[0]), "the only legal move", mode,
                    "only", seconds=time.perf_counter() - started)  # fmt: skip
        yield noted(only)
        return
    yield quick_hint(game, search, position, legal, mode, seen, started)
    deadline = started + seconds
    left = max(0.0, deadline - time.perf_counter()) * SAMPLING_SHARE
    for stats, last in honest_rounds(game, position, samples, left, nodes, search, stop):
        if stop():
            return
        if not last:
            yield noted(honest_hint(game, search, position, stats, mode, seen, started, False))
            continue
        final = honest_final(game, search, position, stats, mode, seen, started, deadline, stop)
        if not stop():
            yield noted(final)
