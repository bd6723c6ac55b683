"""What an honest hint says about its sampled arrangements: shares that mean something.

Layer 4, over :mod:`patience_core.solve`. A share of wins is given only over at least
:data:`~patience_core.solve.HONEST_MIN_SAMPLES` arrangements (fewer: "not enough time to judge
(N arrangements)", verdict ``too-few``); the number of arrangements is always in the reason; when
no arrangement is won, the moves are ranked by expected final score (:func:`expected_scores`,
verdict ``score``) rather than left at "no move won".
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence

from patience_core.engine import counted
from patience_core.games import Game, GameSearch
from patience_core.model import Move, Position
from patience_core.solve._circles import avoiding_circles
from patience_core.solve._hints import GUESS, Hint, hidden_wording
from patience_core.solve._honest import HONEST_MIN_SAMPLES, MoveStats
from patience_core.solve._playout import PLAYOUT_NODES, expected_scores

__all__ = ["honest_final", "honest_hint", "scored"]


def _ahead(
    search: GameSearch, position: Position, stats: Sequence[MoveStats], seen: set[Hashable]
) -> list[MoveStats]:
    """``stats`` (best first) without the moves that lead back to ``seen``, unless all do."""
    kept = avoiding_circles(search, position, [entry.move for entry in stats], seen)
    return [entry for entry in stats if entry.move in kept]


def _share_hint(
    game: Game,
    position: Position,
    move: Move,
    wins: int,
    samples: int,
    mode: str,
    started: float,
    final: bool = True,
    stage: str = "final",
) -> Hint:
    """The hint naming ``move`` with its share of wins, ``wins`` of ``samples`` arrangements
    (verdict ``sampled``); below :data:`HONEST_MIN_SAMPLES` arrangements no share is given
    (issue 22: "not enough time to judge (N arrangements)", verdict ``too-few``). Every path
    that gives a share goes through here."""
    if samples < HONEST_MIN_SAMPLES:
        reason = f"not enough time to judge ({counted(samples, 'arrangement')})"
        verdict = "too-few"
    else:
        share = math.floor(100 * wins / samples + 0.5)
        what = hidden_wording(game, position)
        reason = f"wins in {share}% of the possible {what} ({wins} of {samples} sampled)"
        verdict = "sampled"
    return Hint(move, game.move_text(position, move), reason, mode, verdict, None, wins, samples,
                seconds=time.perf_counter() - started, final=final, stage=stage)  # fmt: skip


def honest_hint(
    game: Game,
    search: GameSearch,
    position: Position,
    stats: Sequence[MoveStats],
    mode: str,
    seen: set[Hashable],
    started: float,
    final: bool,
) -> Hint:
    """The hint for the ranking ``stats`` (:func:`honest_rounds`), best first, without
    expected scores: a share (``sampled``), ``too-few``, or ``unknown`` / ``sampled`` with no
    win (``stage`` ``"refined"`` unless ``final``).

    :param seen: the keys of the game's history (a move leading back is named only when
        every move does).
    """
    best = _ahead(search, position, stats, seen)[0]
    text = game.move_text(position, best.move)
    stage = "final" if final else "refined"
    what = hidden_wording(game, position)
    if best.samples < HONEST_MIN_SAMPLES or best.wins:
        return _share_hint(game, position, best.move, best.wins, best.samples, mode, started,
                           final=final, stage=stage)  # fmt: skip
    if best.unknown:
        # Before the final answer the search goes on: its budget is not spent yet.
        guess = GUESS if final else "no winning line found yet; the solver's best guess so far"
        reason = f"{guess} ({best.samples} {what} sampled)"
        verdict = "unknown"
    else:
        reason = f"no move won in the {best.samples} sampled {what}"
        verdict = "sampled"
    return Hint(best.move, text, reason, mode, verdict, None, best.wins, best.samples,
                seconds=time.perf_counter() - started, final=final, stage=stage)  # fmt: skip


def scored(
    search: GameSearch,
    position: Position,
    stats: Sequence[MoveStats],
    seen: set[Hashable],
    nodes: int = PLAYOUT_NODES,
    deadline: float = math.inf,
    cancel: Callable[[], bool] | None = None,
    wins: dict[Move, int] | None = None,
) -> tuple[MoveStats, float, int] | None:
    """The move of ``stats`` (none of which won an arrangement) with the best expected final
    score (:func:`expected_scores` over as many arrangements as ``stats`` judged; ties keep the
    order of ``stats``): ``(its stats, its mean score, arrangements played out)``, or ``None``
    when no arrangement was played out in the time. A move lost in every arrangement judged is
    named only when every move is (an undecided one may yet win).

    :param seen: keys a move must not lead back to (unless every move does).
    :param wins: filled as :func:`expected_scores` does (playouts that ended won).
    """
    ahead = _ahead(search, position, stats, seen)
    open_ = [entry for entry in ahead if entry.unknown or entry.wins]
    ahead = open_ or ahead
    moves = [entry.move for entry in ahead]
    scores, done = expected_scores(
        search, position, moves, ahead[0].samples, nodes, deadline, cancel, wins
    )
    if not done:
        return None
    best = max(ahead, key=lambda entry: scores[entry.move])  # max keeps the first of equals
    return best, scores[best.move], done


def honest_final(
    game: Game,
    search: GameSearch,
    position: Position,
    stats: Sequence[MoveStats],
    mode: str,
    seen: set[Hashable],
    started: float,
    deadline: float,
    cancel: Callable[[], bool] | None = None,
) -> Hint:
    """The final honest hint for the ranking ``stats``: :func:`honest_hint`, except that when
    no arrangement was won over enough of them, the move with the best expected final score
    (verdict ``score``: "no arrangement won; best expected score 31 of 52 (8 arrangements)")."""
    found = honest_hint(game, search, position, stats, mode, seen, started, True)
    if found.verdict not in ("sampled", "unknown") or found.wins:
        return found
    won: dict[Move, int] = {}
    best = scored(search, position, stats, seen, deadline=deadline, cancel=cancel, wins=won)
    if best is None:
        return found
    entry, score, done = best
    if won:
        # A playout won an arrangement the search left undecided: a win found, not a score.
        move = max(won, key=lambda m: won[m])
        return _share_hint(game, position, move, won[move], done, mode, started)
    undecided = " within the search budget" if any(s.unknown for s in stats) else ""
    reason = (
        f"no arrangement won{undecided}; best expected score {math.floor(score + 0.5)} of "
        f"{game.max_score} ({counted(entry.samples, 'arrangement')})"
    )
    return Hint(entry.move, game.move_text(position, entry.move), reason, mode, "score", None,
                0, entry.samples, score=score, seconds=time.perf_counter() - started)  # fmt: skip
